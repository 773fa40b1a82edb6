"""The strength-testing harness: the SPRT and Elo statistics, the parallel runner, the
openings it plays, and `shashki match --sprt`."""

import json
import math
import os
import subprocess
import sys

import pytest

import shashki
from shashki.apps import harness
from shashki.apps.harness import SPRT, HarnessError, Tally, elo_of, score_of
from shashki.apps.match import distinct_openings
from shashki.apps.players import EngineSpec, EngineSpecError

ENV = dict(os.environ, PYTHONUNBUFFERED="1")


def _tally(pentanomial):
    t = Tally()
    for points, count in zip((0, 0.5, 1, 1.5, 2), pentanomial):
        for _ in range(count):
            t.add_pair(points)
    return t


def test_elo_and_score_are_inverse():
    for elo in (-300, -20, 0, 5, 150):
        assert elo_of(score_of(elo)) == pytest.approx(elo)
    assert elo_of(0.0) == -math.inf and elo_of(1.0) == math.inf
    assert score_of(0) == 0.5


def test_tally_counts_pairs_and_games():
    t = _tally([1, 2, 3, 2, 1])
    assert t.pairs == 9 and t.games == 18 and t.score() == pytest.approx(0.5)
    elo, low, high = t.elo()
    assert elo == pytest.approx(0.0) and low < 0 < high
    assert t.los() == pytest.approx(0.5)
    with pytest.raises(HarnessError):
        t.add_pair(2.5)


def test_error_bars_shrink_with_games_and_the_trinomial_model_is_wider_on_correlated_pairs():
    small, large = _tally([2, 10, 20, 12, 4]), _tally([20, 100, 200, 120, 40])
    assert (large.elo()[2] - large.elo()[1]) < (small.elo()[2] - small.elo()[1]) / 2
    # pairs that are mostly one win and one loss: the games of a pair cancel out, so the
    # pentanomial interval is narrower than the one of independent games
    anti = _tally([0, 0, 200, 0, 0])
    anti.trinomial = [200, 0, 200]
    assert anti.elo("pentanomial")[2] - anti.elo("pentanomial")[1] < \
        anti.elo("trinomial")[2] - anti.elo("trinomial")[1]


def test_sprt_bounds_and_decisions():
    sprt = SPRT(0, 10, 0.05, 0.05)
    low, high = sprt.bounds()
    assert low == pytest.approx(math.log(0.05 / 0.95)) and high == -low
    assert sprt.decision(Tally()) is None
    assert sprt.decision(_tally([5, 40, 100, 40, 5])) is None or \
        sprt.llr(_tally([5, 40, 100, 40, 5])) < 0
    # a clearly stronger A: H1; a clearly weaker A: H0
    assert sprt.decision(_tally([10, 60, 150, 200, 80])) == "H1"
    assert sprt.decision(_tally([80, 200, 150, 60, 10])) == "H0"
    # more evidence for the same score moves the LLR further from 0
    assert abs(sprt.llr(_tally([20, 120, 300, 160, 30]))) > \
        abs(sprt.llr(_tally([2, 12, 30, 16, 3])))


def test_sprt_llr_matches_the_normal_approximation():
    # for many results the GSPRT's LLR is close to (s1 - s0)(2 mean - s0 - s1) / (2 var / N)
    t = _tally([40, 260, 600, 320, 80])
    sprt = SPRT(0, 10)
    s0, s1 = score_of(0), score_of(10)
    scores = [0, 0.25, 0.5, 0.75, 1]
    n = t.pairs
    mean = sum(a * c for a, c in zip(scores, t.pentanomial)) / n
    var = sum(c * (a - mean) ** 2 for a, c in zip(scores, t.pentanomial)) / n
    approx = (s1 - s0) * (2 * mean - s0 - s1) / (2 * var / n)
    assert sprt.llr(t) == pytest.approx(approx, rel=0.05)
    tri = SPRT(0, 10, model="trinomial")
    assert tri.llr(t) != sprt.llr(t)


@pytest.mark.parametrize("kwargs", [dict(elo0=5, elo1=0), dict(alpha=0), dict(beta=0.7),
                                    dict(model="binomial"), dict(elo1=math.inf)])
def test_bad_sprt_settings(kwargs):
    with pytest.raises(ValueError):
        SPRT(**kwargs)


def test_distinct_openings_are_all_different():
    starts = distinct_openings("english", None, 200, seed=3)
    fens = [shashki.Board("english", s.fen).fen() for s in starts]
    assert len(set(fens)) == 200
    table = [o for o in shashki.openings("english", table="3-move") if not o.lost]
    assert {s.name for s in starts[:len(table)]} == {o.name for o in table}


def test_run_in_two_processes_and_stop_by_sprt():
    starts = distinct_openings("russian", None, 30, seed=1)
    seen = []
    pairs, tally, decision = harness.run(
        "depth=4", "depth=1", "russian", starts, concurrency=2, max_moves=60,
        sprt=SPRT(0, 300, 0.1, 0.1), on_pair=lambda p, t: seen.append(t.pairs))
    assert decision == "H1"             # a depth of 4 against 1 is easily told apart
    assert tally.pairs == len(pairs) == len(seen) < 30
    assert seen == list(range(1, len(pairs) + 1))
    for pair in pairs:
        numbers = sorted(g.number for g in pair.games)
        assert numbers == [2 * pair.index + 1, 2 * pair.index + 2]
        assert pair.games[0].a_white and not pair.games[1].a_white
    with pytest.raises(HarnessError):
        harness.run(lambda board: next(iter(board.legal_moves)), "depth=1", "russian",
                    starts, concurrency=2)
    with pytest.raises(HarnessError):
        harness.run("depth=1", "depth=1", "russian", starts, concurrency=0)


def test_engine_specs_take_search_options_and_weights_files(tmp_path):
    spec = EngineSpec.parse("nodes=500, lmr=0, probcut=25, eval=classic, name=x")
    assert dict(spec.options) == {"lmr": 0, "probcut": 25} and \
        spec.evaluation == "classic"
    quoted = EngineSpec.parse("eval='/path with, space/w.json',movetime=0.1")
    assert quoted.evaluation == "/path with, space/w.json"
    assert EngineSpec.parse(str(quoted)) == quoted
    with pytest.raises(EngineSpecError, match="unknown setting"):
        EngineSpec.parse("nodes=5,lmrr=1")
    with pytest.raises(EngineSpecError, match="whole number"):
        EngineSpec.parse("probcut=yes")


def test_a_hub_engine_plays_a_match():
    # shashki's own Hub engine, as another program would be played, with the match's limit
    starts = distinct_openings("italian", None, 1, seed=1)
    pairs, tally, _ = harness.run(f"hub:'{sys.executable}' -m shashki hub", "depth=2",
                                  "italian", starts, max_moves=40, depth=2)
    assert tally.games == 2
    for game in pairs[0].games:
        board = game.board()
        assert board.move_stack == game.moves


def test_match_command_runs_an_sprt(tmp_path):
    log = tmp_path / "log.jsonl"
    proc = subprocess.run(
        [sys.executable, "-m", "shashki", "match", "depth=3", "depth=1", "--variant",
         "russian", "--games", "40", "-j", "2", "--sprt", "0,300", "--alpha", "0.1",
         "--beta", "0.1", "--max-moves", "60", "--log", str(log)],
        capture_output=True, text=True, env=ENV, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "H1 accepted" in proc.stdout and "Elo +" in proc.stdout
    entry = json.loads(log.read_text().splitlines()[-1])
    assert entry["sprt"]["decision"] == "H1" and entry["games"] == 2 * entry["pairs"]
    assert sum(entry["pentanomial"]) == entry["pairs"]
    bad = subprocess.run([sys.executable, "-m", "shashki", "match", "depth=1", "depth=1",
                          "--sprt", "5,0"], capture_output=True, text=True, env=ENV)
    assert bad.returncode == 2 and "ELO0 < ELO1" in bad.stderr


def _strict_json(text):
    """json.loads that refuses what is not JSON (Python's reads Infinity and NaN)."""
    def refuse(constant):
        raise AssertionError(f"{constant} is not JSON")
    return json.loads(text, parse_constant=refuse)


def test_the_match_log_is_json_when_the_elo_is_infinite(tmp_path):
    # issue 20.13: one side won every game: "elo": Infinity was written
    log = tmp_path / "log.jsonl"
    proc = subprocess.run(
        [sys.executable, "-m", "shashki", "match", "depth=5", "depth=1", "--variant",
         "russian", "--games", "2", "--max-moves", "80", "--log", str(log)],
        capture_output=True, text=True, env=ENV, timeout=300)
    assert proc.returncode == 0, proc.stderr
    entry = _strict_json(log.read_text().splitlines()[-1])
    assert entry["wdl"] == [2, 0, 0]
    # (one pair: its interval is not known, issue 30.19)
    assert entry["elo"] == "+inf" and entry["elo95"] == ["-inf", "+inf"]


def test_log_numbers():
    from shashki.apps.match import log_number
    assert log_number(12.345) == 12.3 and log_number(-0.04) == -0.0
    assert log_number(float("inf")) == "+inf" and log_number(-float("inf")) == "-inf"
    assert log_number(float("nan")) is None
    assert log_number(1.7976931348623157e308) == "+inf"      # no Elo is that large


def test_one_pair_has_no_error_bar():
    """(issue 30.19: `shashki match ... --games 2` printed "+/- 0.0 (95%: +190.8 .. +190.8)")"""
    t = _tally([0, 0, 0, 1, 0])
    elo, low, high = t.elo()
    assert elo == pytest.approx(elo_of(0.75)) and (low, high) == (-math.inf, math.inf)
    text = t.elo_text()
    assert "one pair: the interval is not known from one" in text and "+/-" not in text
    assert "+/-" in _tally([0, 0, 1, 1, 0]).elo_text()
