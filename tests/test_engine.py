"""The search engine: legal answers, limits, stop, wins found, the giveaway goal."""

import threading
import time

import pytest

import shashki
from shashki import engine
from shashki.engine import Engine, Score
from shashki.errors import InvalidLimitError, InvalidOptionError, ShashkiError
from shashki.limits import Limit

VARIANTS = ["russian", "giveaway", "brazilian", "italian", "english"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_search_returns_a_legal_move_and_a_line(variant):
    board = shashki.Board(variant)
    result = engine.search(board, depth=5)
    assert result.best_move in board.legal_moves
    assert result.depth == 5 and result.nodes > 0 and result.pv[0] == result.best_move
    replay = board.copy()
    for move in result.pv:           # the principal variation is a legal line
        assert move in replay.legal_moves
        replay.push(move)


def test_node_limit_is_respected():
    result = engine.search(shashki.Board("russian"), nodes=5000)
    assert result.nodes <= 5000 + 200 and result.best_move is not None


def test_movetime_is_respected():
    start = time.perf_counter()
    result = engine.search(shashki.Board("brazilian"), movetime=0.2)
    assert time.perf_counter() - start < 1.0
    assert result.best_move is not None


def test_stop_from_another_thread():
    eng = Engine("russian")
    board = shashki.Board("russian")
    timer = threading.Timer(0.2, eng.stop)
    timer.start()
    start = time.perf_counter()
    result = eng.search(board, depth=60)
    assert time.perf_counter() - start < 5
    assert result.best_move in board.legal_moves and result.depth < 60


def test_info_callback_sees_every_iteration():
    seen = []
    engine.search(shashki.Board("italian"), depth=6, info=seen.append)
    assert [r.depth for r in seen] == [1, 2, 3, 4, 5, 6]


def test_finds_a_win_in_one():
    # White to move takes both black men: nothing is left for Black
    board = shashki.Board("russian", "W:Wc3:Bd4,f6")
    result = engine.search(board, depth=3)
    assert str(result.best_move) == "c3:g7"
    assert result.score.win_in == 1 and str(result.score) == "win in 1"


def test_giveaway_wants_to_lose_its_pieces():
    # in giveaway White plays c3-d4 only to be captured: the side left without pieces wins
    board = shashki.Board("giveaway", "W:Wc3:Be5")
    result = engine.search(board, depth=4)
    assert str(result.best_move) == "c3-d4"
    assert result.score.is_win


def test_english_two_kings_against_one_is_a_won_score():
    board = shashki.Board("english", "W:WK10,K15:BK28")
    result = engine.search(board, depth=20)
    assert result.score.value > 100


def test_no_legal_move():
    # the white man on a1 is blocked: b2 is taken and c3 behind it too
    board = shashki.Board("russian", "W:Wa1:Bb2,c3")
    assert not board.legal_moves
    result = engine.search(board, depth=3)
    assert result.best_move is None and result.score.win_in is not None


def test_bad_limits_are_value_errors():
    # each a ShashkiError of its kind (issue 20.9: nan and -0.0 raised a plain ValueError)
    board = shashki.Board("russian")
    for kwargs in ({"depth": 0}, {"depth": "3"}, {"nodes": -1}, {"movetime": 0},
                   {"clock": -2}, {"depth": float("nan")}, {"movetime": -0.0},
                   {"nodes": float("nan")}, {"clock": float("-inf")}):
        with pytest.raises(InvalidLimitError):
            engine.search(board, **kwargs)
    with pytest.raises(shashki.InvalidVariantError, match="plays russian, not english"):
        Engine("russian").search(shashki.Board("english"), depth=2)
    assert issubclass(InvalidLimitError, ShashkiError) and issubclass(ShashkiError, ValueError)


def test_score_text():
    assert str(Score(125)) == "+1.25"
    assert Score(-50).win_in is None


# --- limits (issue 12, items 4 and 8) --------------------------------------------------------

@pytest.mark.parametrize("kwargs, expected", [
    ({"clock": 1.0, "increment": float("nan")}, "increment must be a number of seconds"),
    ({"clock": 1.0, "increment": "x"}, "increment must be a number of seconds"),
    ({"clock": 1.0, "increment": -1}, "increment must be a number of seconds"),
    ({"clock": float("inf")}, "clock must be a number of seconds"),
    ({"clock": float("nan")}, "clock must be a number of seconds"),
    ({"movetime": float("nan")}, "movetime must be a number of seconds"),
    ({"movetime": 10 ** 400}, "movetime must be a number of seconds"),
    ({"nodes": 10 ** 30}, "nodes must be a whole number from 1 to"),
    ({"nodes": 2.5}, "nodes must be a whole number"),
    ({"depth": True}, "depth must be a whole number from 1 to"),
    ({"depth": 10 ** 5000}, "digits"),
    ({"increment": 1.0}, "go with clock"),
])
def test_every_limit_is_checked(kwargs, expected):
    board = shashki.Board("russian")
    with pytest.raises(InvalidLimitError, match=expected):
        engine.search(board, **kwargs)
    with pytest.raises(InvalidLimitError, match=expected):
        Limit(**kwargs)


def test_a_limit_object_or_keywords():
    board = shashki.Board("italian")
    result = engine.search(board, limit=Limit(depth=3))
    assert result.depth == 3 and result.best_move in board.legal_moves
    with pytest.raises(InvalidLimitError, match="not both"):
        engine.search(board, depth=2, limit=Limit(depth=3))
    with pytest.raises(InvalidLimitError, match="Limit"):
        engine.search(board, limit={"depth": 3})
    assert Limit(clock=0).budget() > 0           # a clock that has run out still gets a move
    assert Limit(clock=60, increment=1).budget() == pytest.approx(60 / 40 + 0.8)
    assert Limit(movetime=0.5, clock=60).budget() == 0.5
    assert Limit(clock=10, moves=5).budget() == pytest.approx(2.0)


@pytest.mark.parametrize("kwargs, expected", [
    ({"hash_mb": 10 ** 12}, "hash size must be a whole number of MiB from 1 to"),
    ({"hash_mb": 0}, "hash size"), ({"hash_mb": 2.5}, "hash size"), ({"hash_mb": "8"}, "hash"),
    ({"man": 10 ** 30}, "too large"), ({"runaway": 10 ** 5}, "too large"),
    ({"man": "100"}, "whole number"), ({"kingg": 3}, "unknown evaluation weight 'kingg'"),
])
def test_engine_settings_are_checked(kwargs, expected):
    with pytest.raises(ShashkiError, match=expected):
        Engine("russian", **kwargs)


# --- time (issue 12, item 13) ----------------------------------------------------------------

class _FakeClock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


class _FakeSearcher:
    """Stands in for the C search on a fake clock: the search of depth d takes
    0.1 * 1.5 ** (d - 1) seconds, unless the deadline stops it first (then it reports
    completed=False, as the C search does)."""

    def __init__(self, clock):
        self.clock = clock
        self.calls = []

    def new_search(self):
        pass

    def search(self, board, depth, node_limit, deadline):
        self.calls.append((depth, deadline))
        took = 0.1 * 1.5 ** (depth - 1)
        if deadline and self.clock.now + took > deadline:
            self.clock.now = deadline
            return 0, [], 1000, depth, False
        self.clock.now += took
        return 0, [], 1000, depth, True


@pytest.fixture
def fake_search(monkeypatch):
    clock = _FakeClock()
    monkeypatch.setattr(engine._search, "now_seconds", clock)
    eng = Engine("russian")
    eng._searcher = _FakeSearcher(clock)
    return eng, clock


def test_movetime_is_used_in_full(fake_search):
    eng, clock = fake_search
    result = eng.search(shashki.Board("russian"), movetime=1.0)
    # 0.1 + 0.15 + 0.225 + 0.3375 s: after depth 4 0.1875 s are left; depth 5 starts anyway
    # (a cut-short iteration can still find a better move) and the deadline stops it; the
    # answer is depth 4's, after the whole second
    assert [d for d, _ in eng._searcher.calls] == [1, 2, 3, 4, 5]
    assert all(deadline == pytest.approx(101.0) for _, deadline in eng._searcher.calls)
    assert result.depth == 4 and result.time == pytest.approx(1.0)
    assert clock.now == pytest.approx(101.0)


def test_clock_target_and_hard_limit(fake_search):
    eng, clock = fake_search
    eng.search(shashki.Board("russian"), clock=40.0, increment=0.0)
    # time_budget(40) is 1 s: the search may stretch it to 3 s (a quarter of the clock is
    # 10 s), the deadline of every iteration; it stops when an iteration ends after 0.6 of
    # the target (the best move never changes here, so the target stays 1 s): depth 3 ends
    # after 0.475 s, depth 4 after 0.8125 s
    calls = eng._searcher.calls
    assert [deadline for _, deadline in calls] == [pytest.approx(103.0)] * len(calls)
    assert [d for d, _ in calls] == [1, 2, 3, 4]
    assert clock.now == pytest.approx(100.8125)


def test_a_cut_short_iteration_can_change_the_move():
    # the C search returns the root move it found better before the deadline
    board = shashki.Board("russian")
    eng = Engine("russian")
    result = eng.search(board, movetime=0.05)
    assert result.best_move in board.legal_moves and result.time >= 0.04


def test_module_search_does_not_depend_on_earlier_calls():
    board = shashki.Board("russian")
    first = engine.search(board, depth=7)
    other = board.copy()
    other.push(first.best_move)
    engine.search(other, depth=7)
    again = engine.search(board, depth=7)
    assert (again.nodes, again.score, again.pv) == (first.nodes, first.score, first.pv)
    # an Engine keeps its table: the same search again costs fewer nodes
    eng = Engine("russian")
    assert eng.search(board, depth=7).nodes == first.nodes
    assert eng.search(board, depth=7).nodes < first.nodes


@pytest.mark.parametrize("options", [{"lmr": 0}, {"probcut": 0}, {"probcut": 40}])
def test_search_options_change_the_search_not_its_legality(options):
    board = shashki.Board("russian")
    plain = Engine("russian", 4, options={}).search(board, depth=9)
    other = Engine("russian", 4, options=options)
    assert other.options[next(iter(options))] == next(iter(options.values()))
    result = other.search(board, depth=9)
    assert result.best_move in board.legal_moves and result.depth == 9
    assert result.nodes != plain.nodes


def test_probcut_cuts_nodes_off():
    # the shallow probe cuts off non-PV nodes that a full search would have searched: the
    # same depth costs fewer nodes, and a wider margin cuts off fewer of them
    board = shashki.Board("russian")
    nodes = [Engine("russian", 4, options={"probcut": margin}).search(board, depth=15).nodes
             for margin in (0, 15, 200)]
    assert nodes[1] < nodes[0] and nodes[1] < nodes[2]


@pytest.mark.parametrize("options, message", [({"lmrr": 1}, "unknown search option"),
                                              ({"nullmove": 1}, "unknown search option"),
                                              ({"threats": 1}, "unknown search option"),
                                              ({"probcut": -1}, "whole number from 0"),
                                              ({"lmr": 2.5}, "whole number")])
def test_bad_search_options(options, message):
    with pytest.raises(InvalidOptionError, match=message):
        Engine("russian", 1, options=options)


@pytest.mark.parametrize("name", ["russian", "international", "frisian", "frysk"])
def test_the_search_keys_its_children_as_their_own_positions(name):
    # the key the search derives for each child from its parent's must be the child's own,
    # frisian's kings' runs included (a run starts, goes on, or ends with the move)
    import random
    from shashki._core._testing import child_keys_agree
    rng = random.Random(7)
    runs = 0
    for _ in range(30):
        board = shashki.Board(name)
        for _ in range(150):
            if board.outcome() is not None:
                break
            assert child_keys_agree(board), board.fen()
            runs += ":+" in board.fen()
            board.push(rng.choice(list(board.legal_moves)))
    if name in ("frisian", "frysk"):
        assert runs > 0     # the games did reach positions with a king's run


def test_a_score_says_its_unit():
    # issue 23: Score(value=-1) had no unit; the value is in hundredths of a man
    from shashki._core import search as core
    assert repr(Score(-1)) == "<Score -0.01 men (value=-1 centi-men)>"
    assert repr(Score(250)) == "<Score +2.50 men (value=250 centi-men)>"
    assert str(Score(250)) == "+2.50"
    # a forced result is no number of men: its distance is shown instead
    assert repr(Score(core.WIN_SCORE - 1)) == f"<Score win in 1 (value={core.WIN_SCORE - 1})>"
    assert repr(Score(-core.WIN_SCORE + 2)).startswith("<Score loss in 1 ")
    result = shashki.engine.search(shashki.Board("russian"), depth=2)
    assert "centi-men" in repr(result)


@pytest.mark.parametrize("fen, winner, score", [
    ("W:Wa1:B", shashki.WHITE, "won"),          # Black has no piece, White to move
    ("B:Wa1:B", shashki.WHITE, "lost"),         # Black to move with no piece
    ("W:Wa1:Bb2,c3", shashki.BLACK, "lost"),    # White is blocked
])
def test_a_finished_game_gets_no_move_but_its_result(fen, winner, score):
    # issue 30.17: W:Wa1:B is over (is_game_over()), yet the search gave Move('a1-b2') and
    # "win in 1"
    board = shashki.Board("russian", fen)
    assert board.is_game_over()
    result = engine.search(board, depth=3)
    assert result.best_move is None and result.pv == []
    assert result.outcome == board.outcome() and result.outcome.winner is winner
    assert str(result.score) == score
    assert result.score.is_win is (score == "won")
    assert engine.search(shashki.Board("russian"), depth=2).outcome is None


def test_a_game_drawn_by_a_rule_is_searched_with_its_outcome():
    # a draw by a rule of the game leaves legal moves, which the Hub engine plays on a GUI's
    # request: searched as usual, the draw in result.outcome
    board = shashki.Board("russian", "W:WKa1,e1,g1:BKh6,b8,d8")
    for move in ["a1-b2", "h6-g5", "b2-a1", "g5-h6"] * 2:
        board.push(move)
    assert board.outcome().winner is None
    result = engine.search(board, depth=3)
    assert result.best_move in board.legal_moves and result.outcome == board.outcome()


@pytest.mark.parametrize("name, sign", [("russian", -1), ("giveaway", 1)])
def test_the_searcher_takes_its_goal_from_its_game(name, sign):
    # one Game carries the kernel, the goal and the kind of kings; the side to move has no
    # move here: lost in russian, won in giveaway (the same kernel, the goal reversed)
    from shashki._core.game import Game
    from shashki._core.search import Searcher, WIN_SCORE
    board = shashki.Board(name, "W:WKa1:Bb2,c3")
    assert not list(board.legal_moves)
    score = Searcher(Game.of(name)).search(board, 1)[0]
    assert score == sign * WIN_SCORE
    with pytest.raises(TypeError):
        Searcher(name)
