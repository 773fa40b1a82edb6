"""shashki.playouts (issue 14): the random games played in C are games of the Board, ply for
ply, ended by the same rule; the same seed gives the same games for any number of threads."""

import pytest
from hypothesis import given, settings, strategies as st

import shashki
from shashki._core._testing import drawn_moves, square_masks
from shashki.errors import PlayoutsError

from positions import VARIANTS, boards, random_games


def replay(games, start, claim_draw, perspective=False):
    """Every game of `games` replayed on a copy of the Board `start` from its recorded
    positions and actions: each position must be the Board's, each action legal there, the
    game over exactly at its end, with the same outcome."""
    actions = games.actions.tolist()
    positions = games.positions.tolist()
    offsets = games.offsets.tolist()
    lengths = games.lengths.tolist()
    for i in range(len(games)):
        board = start.copy()
        assert offsets[i + 1] - offsets[i] == lengths[i]
        for k in range(offsets[i], offsets[i + 1]):
            assert positions[k] == [board.white, board.black, board.kings, int(board.turn)]
            assert board.outcome(claim_draw=claim_draw) is None
            board.push(board.action_to_move(actions[k], perspective=perspective))
        if games.termination(i) is None:
            assert board.outcome(claim_draw=claim_draw) is None     # cut at max_plies
        else:
            assert board.outcome(claim_draw=claim_draw) == games.outcome(i)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("claim_draw", [True, False])
def test_playouts_are_games_of_the_board(variant, claim_draw):
    games = shashki.playouts(variant, 150, seed=7, claim_draw=claim_draw, positions=True,
                             actions=True, perspective=claim_draw)
    replay(games, shashki.Board(variant), claim_draw, perspective=claim_draw)
    results = games.results.tolist()
    for i in range(len(games)):
        outcome = games.outcome(i)
        assert results[i] == (0 if outcome.winner is None else
                              1 if outcome.winner == shashki.WHITE else -1)


@settings(max_examples=60, deadline=None)
@given(random_games(max_plies=60), st.integers(0, 2**64 - 1))
def test_playouts_from_a_board_continue_its_game(board, seed):
    # the board's history counts: a repetition may span the start
    games = shashki.playouts(board, 4, seed=seed, positions=True, actions=True)
    replay(games, board, True)


@pytest.mark.parametrize("variant, fen, moves", [
    ("russian", "W:WKa1,Kc1:BKb8,Kd8",
     ["a1-b2", "b8-a7", "b2-a1", "a7-b8", "a1-b2", "b8-a7", "b2-a1"]),
    # turkish men step sideways, and step back: reversible moves too
    ("turkish", "W:Wa3,h3:Ba6,h6", ["a3-b3", "a6-b6", "b3-a3", "b6-a6", "a3-b3", "a6-b6",
                                    "b3-a3"]),
])
def test_a_repetition_across_the_start_counts(variant, fen, moves):
    board = shashki.Board(variant, fen)
    for move in moves:
        board.push(move)
    games = shashki.playouts(board, 200, seed=1, positions=True, actions=True)
    replay(games, board, True)
    # black's last step back makes the start position a third time: some games end there
    assert 1 in games.lengths.tolist()
    assert games.termination(games.lengths.tolist().index(1)) == \
        shashki.Termination.THREEFOLD_REPETITION


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_same_seed_gives_the_same_games_for_any_jobs(variant):
    one = shashki.playouts(variant, 101, seed=123, positions=True, actions=True)
    assert one == shashki.playouts(variant, 101, seed=123, jobs=3, positions=True, actions=True)
    assert one == shashki.playouts(variant, 101, seed=123, jobs=200, positions=True,
                                   actions=True)
    assert one.results == shashki.playouts(variant, 101, seed=123 + 2**64).results
    other = shashki.playouts(variant, 101, seed=124)
    assert other.lengths != one.lengths
    # game i does not depend on how many games are played
    assert shashki.playouts(variant, 10, seed=123).lengths.tolist() == \
        one.lengths.tolist()[:10]


def test_the_results_as_arrays():
    games = shashki.playouts("giveaway", 50, seed=5)
    assert (games.results.format, games.lengths.format, games.terminations.format) == \
        ("b", "i", "B")
    assert games.positions is None and games.actions is None
    assert len(games.offsets) == 51 and games.plies == sum(games.lengths.tolist())
    recorded = shashki.playouts("giveaway", 50, seed=5, positions=True)
    assert recorded.positions.shape == (recorded.plies, 4) and recorded.positions.format == "Q"
    np = pytest.importorskip("numpy")
    assert np.asarray(recorded.positions).dtype == np.uint64
    assert np.asarray(games.results).dtype == np.int8


def test_giveaway_is_won_by_the_side_that_cannot_move():
    games = shashki.playouts("giveaway", 200, seed=2)
    for i in range(len(games)):
        if games.termination(i) == shashki.Termination.NO_MOVES:
            # the side to move at the end has no move, and wins
            mover_at_end = games.lengths.tolist()[i] % 2     # White moves first
            assert games.results.tolist()[i] == (1 if mover_at_end == 0 else -1)


def test_max_plies_cuts_games_short():
    games = shashki.playouts("russian", 30, seed=3, max_plies=10)
    assert max(games.lengths.tolist()) <= 10
    cut = [i for i in range(30) if games.lengths.tolist()[i] == 10]
    assert cut and all(games.termination(i) is None and games.outcome(i) is None and
                       games.results.tolist()[i] == 0 for i in cut)


def test_no_games_and_no_moves():
    assert len(shashki.playouts("english", 0, seed=1)) == 0
    over = shashki.Board("russian", "W:W:Bd4")
    games = shashki.playouts(over, 3, seed=1)
    assert games.lengths.tolist() == [0, 0, 0] and games.results.tolist() == [-1, -1, -1]


@pytest.mark.parametrize("kwargs, message", [
    ({"n": -1}, "n must be a whole number of games >= 0"),
    ({"n": 2.5}, "n must be a whole number"),
    ({"jobs": 0}, "jobs must be a whole number >= 1 or None"),
    ({"max_plies": 0}, "max_plies must be a whole number >= 1 or None"),
    ({"seed": "x"}, "seed must be an int or None"),
    ({"positions": 1}, "positions must be True or False"),
])
def test_bad_arguments_are_refused(kwargs, message):
    args = {"n": 5, **kwargs}
    with pytest.raises(PlayoutsError, match=message):
        shashki.playouts("russian", args.pop("n"), **args)
    with pytest.raises(shashki.InvalidVariantError):
        shashki.playouts("chess", 5)


@settings(max_examples=600, deadline=None)
@given(boards())
def test_the_moves_drawn_without_a_list_are_the_legal_moves(board):
    # The playouts draw quiet moves and single jumps from their own count: index i of that
    # count is a distinct legal move, and every legal move is one.  They list the moves only
    # for a capture, and only one of more than a man's single jump, and on a full board
    # (turkish), whose men and kings the draw is not written for.
    drawn = drawn_moves(board)
    legal = sorted((m.origin, m.destination, m.promotion, tuple(sorted(m.captured)))
                   for m in board.legal_moves)
    if drawn is None:
        assert board.must_capture or not board.variant.geometry.dark_squares
        return
    drawn = [(o, d, p, tuple(sorted(c))) for o, d, p, c in drawn]
    assert sorted(drawn) == legal and len(set(drawn)) == len(drawn)


@settings(max_examples=200, deadline=None)
@given(boards())
def test_the_records_number_the_squares_as_the_board(board):
    # by PEXT where the processor has it, else row by row: both give the Board's masks
    fast, by_rows = square_masks(board)
    assert by_rows == (board.white, board.black, board.kings)
    assert fast in (None, by_rows)


@pytest.mark.parametrize("variant, fen, drawn", [
    ("russian", "W:Wc3,e3:Bd4", True),          # two single jumps
    ("russian", "W:Wc3:Bd4,f6", False),         # c3:e5:g7
    ("russian", "W:Wf6:Bg7", False),            # f6:h8 crowned, would go on as a king
    ("brazilian", "W:Wf6:Bg7", True),           # crowned, and the move ends
    ("russian", "W:Wc3,Ka1:Bd4", True),         # the king cannot capture
    ("russian", "W:Wa3,Kh2:Bb4,e5", False),     # a3:c5, and the king's h2:d6, h2:c7, h2:b8
    ("russian", "W:Wc3,Kh2:Bd4,e5", False),     # the king's captures alone
    ("english", "B:W18:B14", True),
    ("italian", "W:W22,K30:B18,K26", False),    # a king's capture
])
def test_which_captures_are_drawn_and_which_listed(variant, fen, drawn):
    board = shashki.Board(variant, fen)
    assert board.must_capture
    assert (drawn_moves(board) is not None) == drawn


@pytest.mark.parametrize("variant, fen", [
    ("russian", "W:WKa1,Kc1,Ke1:BKh8"),             # 7.2.4: three kings against one
    ("russian", "W:WKa1,c3,e3:BKh8"),               # 7.2.7: the lone king on the main road
    ("russian", "W:WKb2,Kd2:BKg7"),                 # 7.2.8
    ("russian", "W:WKa1,Kc1,e3:BKh8,b8,d8"),        # 7.2.6: kings on both sides, 6 pieces
    ("brazilian", "W:WKa1,Kc1,Ke1:BKh8"),
    ("giveaway", "W:WKa1,Kc1:BKh8,Kf8"),
    ("italian", "W:WK29,K30:BK1,K2"),
    ("english", "B:WK29,K30:BK1,K2"),
])
@pytest.mark.parametrize("claim_draw", [True, False])
def test_endgames_end_by_the_same_rules(variant, fen, claim_draw):
    # the draw rules of few pieces and kings, which the playouts skip asking while they
    # cannot hold
    board = shashki.Board(variant, fen)
    games = shashki.playouts(board, 40, seed=11, claim_draw=claim_draw, positions=True,
                             actions=True, max_plies=3000)
    replay(games, board, claim_draw)


@pytest.mark.parametrize("n", [10 ** 12, 1 << 62])
def test_more_games_than_the_memory_holds_is_a_playouts_error(n):
    # issue 20.9: a bare MemoryError (and no word of what to do)
    with pytest.raises(PlayoutsError, match="memory.*in batches"):
        shashki.playouts("russian", n, seed=1)


@pytest.mark.parametrize("variant", ["russian", "english", "international", "frisian"])
def test_a_game_or_a_position_starts_the_same_games_as_a_board(variant):
    # a Game, its name and a Position need no Board to carry the rules: the same games as from
    # a Board of the same position with no history
    game = shashki.Game.of(variant)
    board = game.board()
    board.push(next(iter(board.legal_moves)))
    position = board.position
    fresh = shashki.Board(variant, position.fen())

    def key(p):
        return (p.results.tolist(), p.lengths.tolist(), p.terminations.tolist())
    from_name = key(shashki.playouts(variant, 40, seed=9))
    assert key(shashki.playouts(game, 40, seed=9)) == from_name
    assert key(shashki.playouts(game.board(), 40, seed=9)) == from_name
    assert key(shashki.playouts(position, 40, seed=9)) == \
        key(shashki.playouts(fresh, 40, seed=9))
    start = game.position()
    over = shashki.Position.from_masks(variant, 0, start.black, 0, shashki.WHITE)
    ended = shashki.playouts(over, 3, seed=1)
    assert ended.lengths.tolist() == [0, 0, 0] and \
        ended.outcome(0) == game.outcome(over)
