"""The evaluation's weights as data: files per game, the classic weights, the terms the tuner
sees adding up to the evaluation the search uses."""

import json

import pytest

import shashki
from shashki import weights
from shashki.engine import Engine
from shashki.weights import FEATURE_NAMES, Weights, WeightsError

VARIANTS = ["russian", "giveaway", "brazilian", "italian", "english"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_game_has_weights(variant):
    w = weights.default(variant)
    assert w.variant.name == variant and len(w.mg) == len(w.eg) == len(FEATURE_NAMES)
    man = w["man"]
    assert (man[0] < 0) == (variant == "giveaway")


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_terms_add_up_to_the_evaluation(variant):
    engine = Engine(variant, 1, egdb=False)
    w = engine.weights
    board = shashki.Board(variant)
    seen = 0
    for move in list(board.legal_moves)[:3]:
        board.push(move)
        for reply in list(board.legal_moves)[:3]:
            board.push(reply)
            values, phase = engine.features(board)
            mg = sum(a * b for a, b in zip(values, w.mg))
            eg = sum(a * b for a, b in zip(values, w.eg))
            full = engine.max_phase
            assert engine.evaluate(board) == (mg * phase + eg * (full - phase)) // full
            seen += 1
            board.pop()
        board.pop()
    assert seen == 9


def test_features_see_the_position():
    engine = Engine("russian", 1, egdb=False)
    names = list(FEATURE_NAMES)
    # c5 has a free run to the crown (and Black no king); g3 stands in h6's way and h6 in
    # g3's: one runaway man, White's
    values, phase = engine.features(shashki.Board("russian", "W:Wc5,g3:Bh6"))
    assert values[names.index("runaway")] == 1 and phase == 3
    # the king on d4 reaches 12 squares, the one on a1 two (then d4 is in the way)
    values, _ = engine.features(shashki.Board("russian", "W:WKd4:BKa1"))
    assert values[names.index("king_mobility")] == 12 - 2
    values, _ = engine.features(shashki.Board("russian", "W:Wa1,b2,c3:Bh8"))
    assert values[names.index("man_blocked")] == 1              # a1 cannot move


def test_save_load_and_replace(tmp_path):
    w = weights.classic("english")
    path = tmp_path / "english.json"
    w.save(path)
    again = weights.load(path, "english")
    assert again == w
    changed = w.replace(king=170, runaway=(5, 40))
    assert changed["king"] == (170, 170) and changed["runaway"] == (5, 40)
    assert Engine("english", 1, evaluation=path, egdb=False).weights == w
    assert Engine("english", 1, evaluation="classic", king=170, egdb=False).weights["king"] \
        == (170, 170)
    data = json.loads(path.read_text())
    assert len(data["pst_man"][0]) == 32 and data["game"] == "english"


@pytest.mark.parametrize("spec, message", [
    ({"terms": {"kingg": [1, 2]}}, "unknown evaluation term"),
    ({"terms": {"king": [1, 10 ** 6]}}, "too large"),
    ({"terms": {"king": ["a", 2]}}, "whole number"),
    ({"pst_man": [[1, 2], [3]]}, "pst_man must be"),
])
def test_bad_weights(spec, message):
    with pytest.raises(WeightsError, match=message):
        weights.load(spec, "russian")


def test_bad_weight_files(tmp_path):
    with pytest.raises(WeightsError, match="cannot read"):
        weights.load(tmp_path / "missing.json", "russian")
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(WeightsError, match="not a JSON"):
        weights.load(bad, "russian")
    with pytest.raises(WeightsError, match="russian's, not english's"):
        weights.load(weights.classic("russian"), "english")
    assert isinstance(WeightsError("x"), ValueError)
