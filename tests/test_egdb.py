"""The endgame databases: built by retrograde analysis for every game (small ones here, in a
temporary folder), every position consistent with its successors, in agreement with the
search, probed from Python and by the engine, and the `shashki egdb` command."""

import os
import subprocess
import sys

import pytest

import shashki
from shashki import egdb
from shashki.engine import Engine
from shashki.variants import get_variant

VARIANTS = ["russian", "giveaway", "brazilian", "italian", "english"]
ENV = dict(os.environ, PYTHONUNBUFFERED="1")


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    path = tmp_path_factory.mktemp("egdb")
    for variant in VARIANTS:
        egdb.build(variant, 3, path)
    return path


def test_signatures_are_in_build_order():
    sigs = egdb.signatures(3)
    assert sigs[0] == (0, 1, 0, 1) and len(sigs) == len(set(sigs)) == 16
    assert all(s[0] + s[1] and s[2] + s[3] for s in sigs)
    for a, b in zip(sigs, sigs[1:]):      # fewer pieces, then fewer men, first
        assert (sum(a), a[0] + a[2]) <= (sum(b), b[0] + b[2])


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_position_agrees_with_its_successors(folder, variant):
    checked, bad = egdb.verify(variant, 3, folder)
    assert checked > 190_000 and bad == []


@pytest.mark.parametrize("variant", VARIANTS)
def test_forced_results_of_the_search_agree(folder, variant):
    tables = egdb.open_tables(variant, folder)
    engine = Engine(variant, 8, egdb=False)
    found = 0
    for board in egdb.sample_boards(variant, 3, 60, seed=len(variant)):
        wdl, dtz = tables.probe(board)
        score = engine.search(board, depth=12).score
        if score.win_in is not None:
            found += 1
            assert wdl == (1 if score.win_in > 0 else -1), board.fen()
    assert found >= 10


def test_probe_api(folder):
    tables = egdb.open_tables("russian", folder)
    assert tables.complete_pieces == 3 and (0, 1, 0, 1) in tables.available
    assert tables.probe_wdl(shashki.Board("russian", "W:WKc1:BKf8")) == 0
    # every move of the king on a1 is taken by the one on h8
    lost = shashki.Board("russian", "W:WKa1:BKh8")
    assert tables.probe_wdl(lost) == -1 and tables.probe_dtz(lost) < 0
    # ... and so is the one on h8 with Black to move
    assert tables.probe_wdl(shashki.Board("russian", "B:WKa1:BKh8")) == -1
    won = shashki.Board("russian", "W:WKc1:BKe3,Kg5")      # c1 takes both
    assert tables.probe_wdl(won) == 1 and tables.probe_dtz(won) == 1
    assert tables.best_move(won).is_capture
    too_many = shashki.Board("russian", "W:WKa1,Kc1:BKh8,Kf8")
    with pytest.raises(egdb.MissingTableError):
        tables.probe(too_many)
    assert tables.get_wdl(too_many) is None and tables.get_dtz(too_many, 7) == 7
    with pytest.raises(egdb.EgdbError):
        tables.probe(shashki.Board("english", "W:WK1:BK32"))
    # the same values from the module-level probe, through the default folder
    os.environ["SHASHKI_EGDB"], saved = str(folder), os.environ["SHASHKI_EGDB"]
    try:
        assert egdb.probe(won) == tables.probe(won)
    finally:
        os.environ["SHASHKI_EGDB"] = saved


def test_the_draw_rules_make_slow_wins_draws(folder):
    tables = egdb.open_tables("russian", folder)
    # two kings against a man: the man is caught in 2 plies, unless the 15 moves of kings
    # only (7.2.5) run out first
    board = shashki.Board("russian", "W:WKa1,Kc1:Bh8")
    assert tables.probe(board) == (1, 2)
    late = board.copy()
    late._set_draws(28, 28, -1, -1)     # counters as they stand after 28 plies of kings
    assert tables.probe(late) == (1, 2)
    late._set_draws(29, 29, -1, -1)
    assert tables.probe(late) == (0, 0)
    # two kings against a lone king (7.2.8: 5 moves) is drawn
    assert tables.probe_wdl(shashki.Board("russian", "W:WKa1,Kc1:BKd8")) == 0


def test_bad_input(tmp_path):
    with pytest.raises(ValueError, match="pieces"):
        egdb.build("russian", 1, tmp_path)
    with pytest.raises(ValueError, match="pieces"):
        egdb.build("russian", 9, tmp_path)
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x")
    with pytest.raises(egdb.EgdbError, match="not a folder"):
        egdb.build("russian", 2, not_a_folder)
    egdb.build("english", 2, tmp_path)
    path = tmp_path / "english" / "0101.egdb"
    path.write_bytes(path.read_bytes()[:40])
    with pytest.raises(egdb.EgdbError, match="damaged|not"), \
            pytest.warns(egdb.EgdbWarning, match="0101.*damaged"):
        egdb.open_tables("english", tmp_path).probe(shashki.Board("english", "W:WK1:BK32"))


def test_the_engine_probes_the_tables(folder):
    board = shashki.Board("russian", "W:WKa1,Kc1:Bh8")
    engine = Engine("russian", 8, egdb=folder)
    assert engine.egdb is not None and engine.egdb.complete_pieces == 3
    result = engine.search(board, depth=4)
    assert result.score.egdb == 1 and str(result.score) == "egdb win"
    assert engine.egdb_hits > 0
    assert Engine("russian", 8, egdb=False).egdb is None
    # with the probe switched off the search gets its own score
    off = Engine("russian", 8, egdb=folder, options={"egdb": 0})
    assert off.search(board, depth=4).score.egdb is None and off.egdb_hits == 0


def egdb_command(folder, *args):
    """`shashki egdb ARGS --dir FOLDER`, run."""
    return subprocess.run([sys.executable, "-m", "shashki", "egdb", *args, "--dir", str(folder)],
                          capture_output=True, text=True, env=ENV, timeout=120)


def test_egdb_command(tmp_path):
    def run(*args):
        return egdb_command(tmp_path, *args)

    built = run("build", "italian", "2")
    assert built.returncode == 0 and "italian up to 2 pieces" in built.stdout
    verified = run("verify", "italian", "2")
    assert verified.returncode == 0 and "0 disagree" in verified.stdout
    probed = run("probe", "italian", "W:WK1:BK32")
    assert probed.returncode == 0 and "for the side to move" in probed.stdout
    info = run("info")
    assert info.returncode == 0, info.stderr    # (breakthrough has no tables: not an error)
    assert "italian: " in info.stdout
    bad = run("build", "russian", "12")
    assert bad.returncode == 2 and "PIECES" in bad.stderr


@pytest.mark.parametrize("name", ["breakthrough", "frisian", "frysk"])
def test_games_the_databases_cannot_hold(tmp_path, name):
    # breakthrough's endings are races to the crown; frisian's positions include the kings'
    # runs, which a table indexed by the pieces alone cannot tell apart
    with pytest.raises(egdb.EgdbError, match=name):
        egdb.build(name, 2, tmp_path)
    assert egdb.for_engine(get_variant(name), tmp_path) is None
    assert not list(tmp_path.iterdir())


# --- damaged tables (issue 20) -------------------------------------------------------------

def _table(folder, variant, sig):
    return folder / variant / ("".join(map(str, sig)) + ".egdb")


def _rewrite(path, header_line, body=None):
    """The table at `path` with another header line (bytes) and, when given, body."""
    blob = path.read_bytes()
    magic = b"shashki-egdb 1\n"
    _, _, old_body = blob[len(magic):].partition(b"\n")
    path.write_bytes(magic + header_line + b"\n" + (old_body if body is None else body))


@pytest.fixture
def small(tmp_path):
    """russian tables up to 3 pieces in a folder of the test's own."""
    egdb.build("russian", 3, tmp_path)
    return tmp_path


@pytest.mark.parametrize("header", [b"[1,2]", b'"x"', b"5", b"null", b"[" * 100_000,
                                    b'{"game": "russian"}',
                                    b'{"game": 1, "signature": "0101", "size": [],'
                                    b' "limit": null, "crc32": "x"}'])
def test_a_bad_header_is_refused_with_an_egdb_error(small, header):
    _rewrite(_table(small, "russian", (0, 1, 0, 1)), header)
    tables = egdb.open_tables("russian", small)
    with pytest.warns(egdb.EgdbWarning, match="0101.*header"):
        tables.load()
    with pytest.raises(egdb.MissingTableError, match="0101.*damaged.*header.*"
                                                     "shashki egdb build russian 2"):
        tables.probe(shashki.Board("russian", "W:WKc1:BKf8"))


@pytest.mark.parametrize("mib,refusal", [(1 / 4, "inflates to more than its size"),
                                          (64, "longer than a table of .* compresses to")])
def test_a_decompression_bomb_is_refused_early(small, mib, refusal):
    """A table whose body inflates far beyond the size its header gives: refused as soon as
    the inflation passes that size (a small bomb), or before inflating it when the body
    itself is longer than the table could compress to (a big one), never inflated whole."""
    import json
    import tracemalloc
    import zlib
    path = _table(small, "russian", (0, 1, 0, 1))
    header = json.loads(path.read_bytes().split(b"\n")[1])
    bomb = zlib.compressobj(9)
    chunk = bytes(1 << 18)
    body = b"".join(bomb.compress(chunk) for _ in range(int(mib * 4))) + bomb.flush()
    _rewrite(path, json.dumps(header).encode(), body)
    tables = egdb.open_tables("russian", small)
    tracemalloc.start()
    try:
        with pytest.warns(egdb.EgdbWarning, match="0101.*" + refusal):
            tables.load()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < max(len(body), 1 << 20) * 4, f"{peak / 2 ** 20:.1f} MiB to refuse it"


def test_one_damaged_table_is_skipped_with_one_warning(small, recwarn):
    # a table of 3 pieces damaged: the engine keeps the others, and plays on
    path = _table(small, "russian", (0, 2, 0, 1))
    path.write_bytes(path.read_bytes()[:60])
    engine = Engine("russian", 8, egdb=small)
    again = Engine("russian", 8, egdb=small)        # the same tables: no second warning
    warned = [w for w in recwarn.list if issubclass(w.category, egdb.EgdbWarning)]
    assert len(warned) == 1 and "0201" in str(warned[0].message)
    assert engine.egdb is not None and engine.egdb.complete_pieces == 2
    assert (0, 2, 0, 1) in engine.egdb.damaged
    for board in [shashki.Board("russian"), shashki.Board("russian", "W:WKa1,Kc1:BKh8"),
                  shashki.Board("russian", "W:WKc1:BKf8")]:
        assert again.search(board, depth=4).best_move in board.legal_moves
    # and `shashki egdb build` makes it again
    report = egdb.build("russian", 3, small)
    assert report.built == 2 and egdb.open_tables("russian", small).load() == 3


def test_missing_table_messages(small):
    tables = egdb.open_tables("russian", small)
    board = shashki.Board("russian", "W:WKa1,Kc1:BKh8,Kf8")
    with pytest.raises(egdb.MissingTableError) as caught:
        tables.probe(board)
    text = str(caught.value)
    assert not text.startswith(("'", '"')) and "0202" in text
    assert f"shashki egdb build russian 4 --dir {small}" in text
    assert isinstance(caught.value, KeyError)       # as python-chess's, for `except KeyError`


def test_egdb_command_words(tmp_path):
    def run(*args):
        return egdb_command(tmp_path, *args)

    built = run("build", "russian", "3")
    entries = int(built.stdout.splitlines()[-1].split(" entries")[0].split()[-1]
                  .replace(",", ""))
    verified = run("verify", "russian", "3")
    last = verified.stdout.splitlines()[-1]
    assert f"of {entries:,} entries" in last and "no position" in last, last
    probed = run("probe", "russian", "W:WKc1:BKe3,Kg5")       # c1 takes both at once
    assert "1 ply to the next capture" in probed.stdout, probed.stdout


def test_the_hub_plays_on_with_a_damaged_table_in_the_default_folder(small):
    # issue 20.5/20.7: a bad header made every `go` an internal error
    _rewrite(_table(small, "russian", (0, 1, 0, 1)), b"[1,2]")
    proc = subprocess.run(
        [sys.executable, "-m", "shashki", "hub", "--variant", "russian", "--hash", "2"],
        input="hub\ninit\npos pos=W:WKa1,Kc1:Bh8\nlevel depth=3\ngo think\nquit\n",
        capture_output=True, text=True, timeout=120, env=dict(ENV, SHASHKI_EGDB=str(small)))
    assert proc.returncode == 0, proc.stderr
    assert "error" not in proc.stdout and "\ndone move=" in proc.stdout, proc.stdout
    assert "0101" in proc.stderr and "header" in proc.stderr
