"""Properties of random games in every variant (hypothesis)."""

from hypothesis import given, settings, strategies as st

import shashki

VARIANTS = ["russian", "giveaway", "brazilian", "italian", "english"]


@st.composite
def random_games(draw, max_plies=80):
    board = shashki.Board(draw(st.sampled_from(VARIANTS)))
    for _ in range(draw(st.integers(0, max_plies))):
        moves = sorted(board.legal_moves, key=str)
        if not moves:
            break
        board.push(moves[draw(st.integers(0, len(moves) - 1))])
    return board


def _pieces(mask):
    return bin(mask).count("1")


@settings(max_examples=150, deadline=None)
@given(random_games())
def test_push_pop_restores_every_position(board):
    fens = []
    replay = shashki.Board(board.variant.name)
    for move in board.move_stack:
        fens.append(replay.fen())
        replay.push(move)
    assert replay.fen() == board.fen()
    while board.move_stack:
        board.pop()
        assert board.fen() == fens.pop()
    assert board.fen() == board.variant.start_fen


@settings(max_examples=150, deadline=None)
@given(random_games())
def test_fen_round_trip(board):
    fen = board.fen()
    again = shashki.Board(board.variant.name, fen)
    assert again.fen() == fen
    assert again == board
    assert set(again.legal_moves) == set(board.legal_moves)


@settings(max_examples=150, deadline=None)
@given(random_games())
def test_perft_one_is_the_legal_move_count(board):
    moves = list(board.legal_moves)
    assert board.perft(1) == len(moves) == len(set(moves))
    assert board.perft(1, paths=True) == sum(m.routes for m in moves)
    assert sum(board.divide(2).values()) == board.perft(2)


@settings(max_examples=150, deadline=None)
@given(random_games())
def test_moves_keep_the_invariants(board):
    mover = board.turn
    white, black, kings = board.white, board.black, board.kings
    assert white & black == 0 and kings & ~(white | black) == 0
    assert _pieces(white) <= 12 and _pieces(black) <= 12
    promo_rows = board.variant.promotion_row(shashki.WHITE) & white & ~kings, \
        board.variant.promotion_row(shashki.BLACK) & black & ~kings
    assert promo_rows == (0, 0), "a man stands on its own promotion row"
    for move in board.legal_moves:
        # (by name: the colours' values are python-chess's, WHITE 1)
        own, enemy = (white, black) if mover == shashki.WHITE else (black, white)
        assert own >> move.origin & 1
        assert move.destination == move.origin or not (white | black) >> move.destination & 1
        assert move.captured_mask & ~enemy == 0
        assert len(move.path) == max(1, len(move.captured)) + 1
        board.push(move)
        assert _pieces(board.black if mover == shashki.WHITE else board.white) == \
            _pieces(enemy) - len(move.captured)
        assert board.turn != mover
        board.pop()


@settings(max_examples=100, deadline=None)
@given(random_games())
def test_every_move_text_parses_back(board):
    for move in board.legal_moves:
        assert board.parse_move(str(move)) == move
        long_form = board.variant.capture_sep.join(board.variant.square_name(s)
                                                   for s in move.path)
        if move.is_capture:
            assert board.parse_move(long_form) == move


@settings(max_examples=150, deadline=None)
@given(random_games())
def test_material_changes_only_as_each_move_says(board):
    # replayed ply by ply: the mover keeps every piece and gains a king only by promotion;
    # the opponent loses exactly the captured pieces (and the kings among them)
    replay = shashki.Board(board.variant.name)
    for move in board.move_stack:
        mover = replay.turn
        own, enemy = ((replay.white, replay.black) if mover == shashki.WHITE
                      else (replay.black, replay.white))
        kings = replay.kings
        was_king = bool(kings >> move.origin & 1)
        assert not (move.promotion and was_king)
        replay.push(move)
        own_after, enemy_after = ((replay.white, replay.black) if mover == shashki.WHITE
                                  else (replay.black, replay.white))
        assert own_after == own & ~(1 << move.origin) | 1 << move.destination
        assert enemy_after == enemy & ~move.captured_mask
        assert _pieces(enemy) - _pieces(enemy_after) == len(set(move.captured))
        assert _pieces(own_after & replay.kings) == _pieces(own & kings) + move.promotion
        assert _pieces(enemy_after & replay.kings) == \
            _pieces(enemy & kings) - _pieces(move.captured_mask & kings)
        assert bool(replay.kings >> move.destination & 1) == (was_king or move.promotion)
    assert replay.fen() == board.fen()


@settings(max_examples=100, deadline=None)
@given(random_games())
def test_copies_are_equal_and_independent(board):
    twin = board.copy()
    bare = board.copy(stack=False)
    assert twin == board == bare and hash(twin) == hash(board) == hash(bare)
    assert twin.move_stack == board.move_stack and bare.move_stack == []
    fen, stack = board.fen(), list(board.move_stack)
    moves = sorted(twin.legal_moves, key=str)
    if moves:
        twin.push(moves[0])
        bare.push(moves[-1])
        assert board.fen() == fen and board.move_stack == stack
        assert twin.pop() == moves[0]
        assert twin == board


@settings(max_examples=150, deadline=None)
@given(random_games())
def test_captures_are_compulsory_and_no_move_loses(board):
    moves = list(board.legal_moves)
    captures = [m for m in moves if m.is_capture]
    assert captures == [] or captures == moves
    assert board.must_capture == bool(captures)
    outcome = board.outcome(claim_draw=True)
    if not moves:
        assert outcome is not None and outcome.termination.value == "no_moves"
        loser = board.turn
        assert outcome.winner == (loser if board.variant.reversed_goal else 1 - loser)
        assert board.result() == ("1-0" if outcome.winner == shashki.WHITE else "0-1")
    elif outcome is not None:
        assert outcome.winner is None   # with moves left, only a draw rule ends the game


@settings(max_examples=100, deadline=None)
@given(random_games())
def test_pickle_and_copy_keep_the_game(board):
    import copy
    import pickle
    for twin in (pickle.loads(pickle.dumps(board)), board.copy(), copy.copy(board)):
        assert type(twin) is type(board)
        assert twin == board and twin.fen() == board.fen()
        assert twin.move_stack == board.move_stack
        assert [str(m) for m in twin.move_stack] == [str(m) for m in board.move_stack]
        assert twin.draw_counters == board.draw_counters
        assert twin.outcome() == board.outcome()
        assert list(twin.legal_moves) == list(board.legal_moves)
        # independent: playing on the twin leaves the board alone
        fen = board.fen()
        moves = list(twin.legal_moves)
        if moves:
            twin.push(moves[0])
            assert board.fen() == fen
    for move in board.move_stack:
        again = pickle.loads(pickle.dumps(move))
        assert again == move and str(again) == str(move) and again.path == move.path
