"""Move lists that hold every legal position (issue 42.1-3): a list grows on the heap past
MAXMOVES (512) moves, so a set-up with more moves or routes lists, reads back, counts and
searches them all; the learning surfaces, whose action numbers stop at 512, refuse it with
ActionSpaceError.  The counts are checked against the independent turkish reference, and a
hypothesis search that climbs towards many moves and routes (hypothesis.target) looks for
more such positions in every game."""

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st, target

import shashki
from shashki import ActionSpaceError, Board, Position
from shashki.engine import Engine

import reference_turkish
from positions import VARIANTS, boards, board_of

# valid set-ups found by hill-climbing (issue 42): more moves, or routes, than 512
TURKISH_MOVES = "W:WKa1,Kb1,Kh1,Kd4,Kd5:Ba2,g3,c4,h4,a5,b5,e5,f6,g6,g7,d8,g8,Kc1,Kg1"
TURKISH_ROUTES = "W:WKg5:Be2,e3,a4,b4,g4,h4,e5,d6,g6,e7,e8"
FRISIAN_ROUTES = "W:W16,21,K9:B3,8,11-13,17,27,29,33,34,37,38,40,K49"


@pytest.mark.parametrize("fen", [TURKISH_MOVES, TURKISH_ROUTES])
def test_turkish_lists_and_counts_what_the_reference_does(fen):
    position = Position("turkish", fen)
    reference = reference_turkish.Position.from_fen(fen)
    assert shashki.Board("turkish", fen=fen).is_valid()
    assert len(position.legal_moves) == len(reference.moves())
    assert len(position.routes()) == len(reference.legal_routes())
    assert position.perft(1, True) == len(reference.legal_routes())
    assert position.perft(2) == reference.perft(2)
    assert position.perft(2, paths=True) == reference.perft(2, paths=True)


def test_more_than_512_moves_are_a_position_like_any_other():
    # before: IllegalMoveError from legal_moves and outcome(), OverflowError from perft
    board = Board("turkish", fen=TURKISH_MOVES)
    moves = list(board.legal_moves)
    assert len(moves) > 512 and len(set(moves)) == len(moves)
    assert board.outcome() is None and board.position.outcome() is None
    result = Engine("turkish", 8, egdb=False).search(board, depth=2)
    assert result.best_move in board.legal_moves
    board.push(moves[-1])
    assert board.pop() == moves[-1] and board.fen() == Position("turkish", TURKISH_MOVES).fen()
    playouts = shashki.playouts(board, 4, seed=1, jobs=1, max_plies=6)
    assert len(memoryview(playouts.lengths)) == 4


def test_the_learning_surfaces_refuse_it_saying_why():
    board = Board("turkish", fen=TURKISH_MOVES)
    for call in (board.legal_actions, board.legal_action_mask):
        with pytest.raises(ActionSpaceError, match="has 538 legal moves; actions number at "
                                                   "most 512"):
            call()
    with pytest.raises(ActionSpaceError):
        board.move_to_action(next(iter(board.legal_moves)))
    with pytest.raises(ActionSpaceError, match="play them without recording actions"):
        shashki.playouts(board, 2, seed=1, jobs=1, max_plies=2, actions=True)
    assert issubclass(ActionSpaceError, ValueError)


@pytest.mark.parametrize("game,fen", [("turkish", TURKISH_MOVES), ("turkish", TURKISH_ROUTES),
                                      ("frisian", FRISIAN_ROUTES)])
def test_every_move_and_route_reads_back(game, fen):
    # before: "more routes than shashki can list" for every text of these positions
    board = Board(game, fen=fen)
    position = board.position
    routes = position.routes()
    assert len(routes) > 512 or len(position.legal_moves) > 512
    for move in position.legal_moves:
        assert position.parse_move(str(move)) == move and str(move) in board.legal_moves
    for route in routes:
        assert position.parse_move(str(route)) == route


def test_the_web_page_plays_from_such_a_set_up():
    # before: "Play from here" answered 500
    from shashki.apps.web import Api
    from shashki.apps.web.games import EnginePool
    from test_serve_api import Client, start
    server = start(Api(pool=EnginePool(egdb=False)))
    try:
        client = Client(server)
        state = client.ok("POST", "/api/setup", {"variant": "turkish", "fen": TURKISH_MOVES})
        assert state["valid"]
        game = client.new(variant="turkish", fen=state["fen"])
        assert len(game["legal"]) == 538
        after = client.ok("POST", f"/api/games/{game['id']}/move",
                          {"move": game["legal"][0]["text"]})
        assert after["fen"] != game["fen"]
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("game,fen", [("turkish", TURKISH_MOVES), ("turkish", TURKISH_ROUTES),
                                      ("frisian", FRISIAN_ROUTES), ("international", None),
                                      ("russian", "W:WKa1:Bc3,e3,c5,e5,c7,e7")])
def test_the_routes_of_one_move_are_its_share_of_all_routes(game, fen):
    # the route a user writes is matched against the routes of the moves joining its two
    # squares, generated for that move alone (issue 42: not the whole list); before, routes()
    # took no move
    position = Position(game, fen)
    every = position.routes()
    shares = [position.routes(move) for move in position.legal_moves]
    assert sum(map(len, shares)) == len(every)
    assert sorted(map(str, every)) == sorted(str(r) for share in shares for r in share)
    for move, share in zip(position.legal_moves, shares):
        assert share and all(r == move for r in share)
        assert position.routes(str(move)) == share
        # (a flying king's several landing squares before one more capture are routes that
        # a move's count of orders of capture counts once)
        assert len(share) >= move.routes


def test_routes_of_a_move_refuse_what_is_not_a_legal_move():
    position = Position("russian")
    with pytest.raises(shashki.IllegalMoveError):
        position.routes(Position("russian").apply("c3-d4").legal_moves[0])
    with pytest.raises(shashki.InvalidMoveError, match="not int"):
        position.routes(12)
    with pytest.raises(shashki.IllegalMoveError):
        position.routes("c3-c5")


def _reads_back(board):
    """Every legal move's text and every route's read back to the same move."""
    position = board.position
    moves = position.legal_moves
    for move in moves:
        assert position.parse_move(str(move)) == move
    routes = position.routes()
    for route in routes:
        assert position.parse_move(str(route)) == route
    return moves, routes


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_every_valid_set_up_lists_its_moves_and_reads_them_back(board):
    if board.is_valid():
        moves, _ = _reads_back(board)
        assert board.perft(1) == len(moves)


@st.composite
def crowded(draw, variants=VARIANTS):
    """Many kings of the side to move among many pieces of the other side: where the moves
    and routes are many (issue 42's hill-climbing, as a strategy that hypothesis's target()
    steers)."""
    variant = shashki.get_variant(draw(st.sampled_from(variants)))
    n = variant.geometry.squares
    most = variant.geometry.max_pieces
    squares = draw(st.permutations(range(n)))
    ours = draw(st.integers(1, min(8, most)))
    theirs = draw(st.integers(ours, most))
    white = kings = black = 0
    for s in squares[:ours]:
        white |= 1 << s
        kings |= 1 << s
    for s in squares[ours:ours + theirs]:
        if variant.promotion_row(shashki.BLACK) >> s & 1:
            kings |= 1 << s         # (a man there would stand on its crowning row)
        black |= 1 << s
    return board_of(variant.name, white, black, kings, shashki.WHITE)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(crowded())
def test_crowded_set_ups_read_back_whatever_their_number_of_moves(board):
    moves, routes = _reads_back(board)
    target(float(len(moves)), label="moves")
    target(float(len(routes)), label="routes")
    assert board.perft(1) == len(moves) and board.perft(1, paths=True) <= len(routes)
