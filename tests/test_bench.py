"""`shashki bench`: the suite counts what the version records, on every build of the kernels
and under an emulated x86-64 CPU without POPCNT (issue 35)."""

import io
import json
import os
import platform
import shutil
import subprocess
import sys
from dataclasses import replace

import pytest

import shashki
from shashki import bench
from shashki.apps.cli import main

X86_64 = platform.machine().lower() in ("x86_64", "amd64")


@pytest.fixture(scope="module")
def quick():
    return bench.run(quick=True)


def test_the_quick_signature_is_the_recorded_one(quick):
    # a change to move generation or search that changes it updates bench.RECORDED in the same
    # commit, and says so in its message
    assert quick.signature == bench.RECORDED["quick"]
    assert quick.recorded


def test_the_full_signature_is_the_recorded_one(quick):
    result = bench.run()
    assert result.signature == bench.RECORDED["full"]
    assert result.leaves > quick.leaves and result.nodes > quick.nodes


def test_the_suite_covers_every_game_in_both_conventions_and_the_engine(quick):
    games = {c.game for c in quick.counts}
    assert games == {v.name for v in shashki.VARIANTS}
    kinds = {(c.kind, c.convention) for c in quick.counts}
    assert kinds == {("perft", "unique"), ("perft", "paths"), ("search", "")}
    # every game's start and two positions past it
    for variant in shashki.VARIANTS:
        fens = {c.fen for c in quick.counts if c.game == variant.name}
        assert shashki.Position(variant.name).fen() in fens and len(fens) == 3


def test_the_counts_are_the_cores_own(quick):
    # the suite's perft is Position.count, its searches Engine.search at a fixed depth
    for c in quick.counts[:6]:
        position = shashki.Position(c.game, c.fen)
        if c.kind == "perft":
            assert c.count == position.perft(c.depth, c.convention == "paths", jobs=1)
        else:
            engine = shashki.engine.Engine(c.game, bench.HASH_MB, egdb=False)
            assert engine.search(shashki.Board(c.game, fen=c.fen), depth=c.depth).nodes == c.count


def test_one_count_changed_changes_the_signature(quick):
    counts = list(quick.counts)
    # the same total, two positions counted differently: the digest tells them apart
    counts[0] = replace(counts[0], count=counts[0].count + 1)
    counts[1] = replace(counts[1], count=counts[1].count - 1)
    other = bench.BenchResult("quick", tuple(counts))
    assert other.leaves + other.nodes == quick.leaves + quick.nodes
    assert other.signature != quick.signature and not other.recorded


def test_the_command_prints_the_signature_and_the_speed():
    out = io.StringIO()
    assert main(["bench", "--quick"], out) == 0
    text = out.getvalue()
    assert f"signature {bench.RECORDED['quick']} (the recorded one)" in text
    assert f"kernels {shashki.build_info()['code_path']}" in text
    assert "M leaves/s" in text and "M nodes/s" in text


def test_the_json_says_it_all():
    out = io.StringIO()
    assert main(["bench", "--quick", "--json"], out) == 0
    data = json.loads(out.getvalue())
    assert data["signature"] == data["recorded"] == bench.RECORDED["quick"]
    assert data["matches"] is True and data["suite"] == "quick"
    assert data["version"] == shashki.__version__
    assert data["leaves"] == sum(c["count"] for c in data["counts"] if c["kind"] == "perft")
    assert data["nodes"] == sum(c["count"] for c in data["counts"] if c["kind"] == "search")


def test_a_signature_not_recorded_fails_the_command(monkeypatch, capsys):
    monkeypatch.setitem(bench.RECORDED, "quick", "1-00000000")
    out = io.StringIO()
    assert main(["bench", "--quick"], out) == 1
    assert "NOT the recorded 1-00000000" in out.getvalue()
    assert "this build counts differently" in capsys.readouterr().err


def test_bench_takes_no_other_arguments(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["bench", "3"])
    assert exc.value.code == 2
    assert "unrecognized arguments: 3" in capsys.readouterr().err


@pytest.mark.skipif(not X86_64, reason="x86-64 builds")
def test_the_baseline_kernels_give_the_same_signature():
    # the wheel's other code path: the x86-64 baseline kernels, forced on this CPU
    out = subprocess.run([sys.executable, "-m", "shashki", "bench", "--quick", "--json"],
                         capture_output=True, text=True, timeout=300,
                         env={**os.environ, "SHASHKI_KERNELS": "x86-64"})
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["code_path"] == "x86-64" and data["signature"] == bench.RECORDED["quick"]


@pytest.mark.skipif(not X86_64 or shutil.which("qemu-x86_64") is None,
                    reason="needs qemu-x86_64 (Debian's qemu-user) on an x86-64 machine")
def test_the_signature_is_the_same_on_a_cpu_without_popcnt():
    # qemu64: an x86-64 CPU with no POPCNT, BMI2 or AVX2, emulated
    out = subprocess.run(["qemu-x86_64", "-cpu", "qemu64", sys.executable, "-m", "shashki",
                          "bench", "--quick", "--json"],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    data = json.loads(out.stdout)
    assert data["code_path"] == "x86-64" and data["signature"] == bench.RECORDED["quick"]
