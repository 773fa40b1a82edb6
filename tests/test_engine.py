"""The search engine: legal answers, limits, stop, wins found, the giveaway goal."""

import threading
import time

import pytest

import shashki
from shashki import engine
from shashki.engine import Engine, Score

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
    board = shashki.Board("russian")
    for kwargs in ({"depth": 0}, {"depth": "3"}, {"nodes": -1}, {"movetime": 0},
                   {"clock": -2}):
        with pytest.raises(ValueError):
            engine.search(board, **kwargs)
    with pytest.raises(ValueError):
        Engine("russian").search(shashki.Board("english"), depth=2)


def test_score_text():
    assert str(Score(125)) == "+1.25"
    assert Score(-50).win_in is None
