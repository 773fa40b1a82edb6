"""tools/perft_table.py, the deep table's builder (issue 43.2): counts made twice and saved as
they are made, a rerun that skips what is done, and a page that says which counts a published
table confirms, which are new, and which differ."""

import importlib.util
import json
from pathlib import Path

import pytest

from perftfile import shared_dir

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def tool():
    spec = importlib.util.spec_from_file_location("perft_table", ROOT / "tools" / "perft_table.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(autouse=True)
def shared(monkeypatch):
    if not (shared_dir() / "perft" / "start.perft").exists():
        pytest.skip("needs the shared perft data")
    monkeypatch.setenv("SHASHKI_SHARED", str(shared_dir()))


def _args(tmp_path, *more):
    return ["--results", str(tmp_path / "deep.json"), "--page", str(tmp_path / "deep.md"),
            "--hash-mb", "8", "--jobs", "2", *more]


def test_counts_are_made_twice_saved_and_confirmed(tool, tmp_path):
    tool.main(_args(tmp_path, "--budget", "600", "--max-depth", "8", "--games", "english"))
    rows = json.loads((tmp_path / "deep.json").read_text())["counts"]
    depths = {(r["convention"], r["depth"]) for r in rows}
    assert depths == {(c, d) for c in ("unique", "paths") for d in range(1, 9)}
    published = tool.published_counts()
    for r in rows:     # english is published in both conventions to these depths
        assert r["count"] == published[("english", r["convention"], r["depth"])]
    page = (tmp_path / "deep.md").read_text()
    assert "## English" in page and "| 8 | 845,931 | published" in page
    assert "differs" not in page and "new" not in page.split("## English")[1]
    # a rerun finds nothing left to count
    tool.main(_args(tmp_path, "--budget", "600", "--max-depth", "8", "--games", "english"))
    assert json.loads((tmp_path / "deep.json").read_text())["counts"] == rows


def test_a_count_unlike_the_published_one_is_shown_as_such(tool, tmp_path):
    rows = [{"game": "russian", "convention": "unique", "depth": 3, "count": 303,
             "seconds_hashed": 0.0, "seconds_split": 0.0, "machine": "test"},
            {"game": "frysk", "convention": "unique", "depth": 30, "count": 12345,
             "seconds_hashed": 0.0, "seconds_split": 0.0, "machine": "test"}]
    (tmp_path / "deep.json").write_text(json.dumps({"counts": rows}))
    tool.main(_args(tmp_path, "--render"))
    page = (tmp_path / "deep.md").read_text()
    assert "| 3 | 303 | **differs from the published 302**" in page
    assert "| 30 | 12,345 | new" in page


def test_a_budget_that_is_no_number_is_refused(tool, tmp_path, capsys):
    with pytest.raises(SystemExit):
        tool.main(_args(tmp_path, "--budget", "nan"))
    assert "--budget must be a number of seconds above 0" in capsys.readouterr().err


def test_a_depth_the_last_two_say_is_over_budget_is_not_started(tool, tmp_path):
    # depth 2 took ten times depth 1's 30 s: depth 3 should take about 3,000 s, over 600
    rows = [{"game": "english", "convention": "unique", "depth": d, "count": c,
             "seconds_hashed": s, "seconds_split": s, "machine": "test"}
            for d, c, s in ((1, 7, 15.0), (2, 49, 150.0))]
    (tmp_path / "deep.json").write_text(json.dumps({"counts": rows}))
    assert tool.next_estimate(rows) == pytest.approx(3000.0)
    tool.main(_args(tmp_path, "--budget", "600", "--max-depth", "3", "--games", "english"))
    after = json.loads((tmp_path / "deep.json").read_text())["counts"]
    assert [r for r in after if r["convention"] == "unique"] == rows
    assert {r["depth"] for r in after if r["convention"] == "paths"} == {1, 2, 3}


def test_turkish_is_also_counted_in_kish_convention(tool, tmp_path):
    # every sequence of landing squares (shashki.perft.landing_perft), checked against kish's
    # published table; its own column on the page, for turkish alone
    tool.main(_args(tmp_path, "--budget", "600", "--max-depth", "7", "--games", "turkish"))
    rows = json.loads((tmp_path / "deep.json").read_text())["counts"]
    landings = {r["depth"]: r["count"] for r in rows if r["convention"] == "landings"}
    unique = {r["depth"]: r["count"] for r in rows if r["convention"] == "unique"}
    assert sorted(landings) == list(range(1, 8))
    assert landings[7] > unique[7]      # from depth 7 a king's landing squares count apart
    published = tool.published_counts()
    assert all(landings[d] == published[("turkish", "landings", d)] for d in landings)
    page = (tmp_path / "deep.md").read_text()
    assert "every landing sequence" in page.split("## Turkish")[1]
    assert f"| 7 | {unique[7]:,} |" in page and f"| {landings[7]:,} | published" in page


def test_a_landing_count_unlike_kish_stops_the_run(tool, tmp_path, monkeypatch):
    monkeypatch.setattr(tool.runner, "landing_perft", lambda position, depth: 1)
    with pytest.raises(SystemExit, match="published 8"):
        tool.main(_args(tmp_path, "--max-depth", "1", "--games", "turkish"))
