"""Counts past 2^64 (issue 43.1): the english tree has more leaves than 2^64 at depth 29, so
no count may wrap.  The kernels' sums are 64-bit and checked where a subtree is deep enough
to pass 2^64 (perft_table.pxd add_count, WRAP_DEPTH); such a count is made again as a sum over the
moves in Python's integers (Position.count_by_moves); the runner's sums, its checkpoint and
`--json` are Python's integers throughout."""

import io
import json

import pytest

import shashki
from shashki import perft as runner
from shashki._core.perft import checked_sum
from shashki.apps.cli import main

TOP = 2 ** 64


@pytest.mark.parametrize("total,sub,routes,fits", [
    (5, 3, 4, True), (TOP - 2, 1, 1, True), (TOP - 1, 1, 1, False), (2 ** 63, 2 ** 63, 1, False),
    (0, 2 ** 32, 2 ** 32, False), (0, 2 ** 32, 2 ** 32 - 1, True), (1, TOP - 1, 1, False),
    (0, TOP - 1, 1, True), (7, 0, 2 ** 40, True)])
def test_the_kernels_checked_sum_says_when_it_passes_2_64(total, sub, routes, fits):
    exact = total + sub * routes
    assert checked_sum(total, sub, routes) == (exact % TOP, not fits)
    assert (exact < TOP) == fits


@pytest.mark.parametrize("game", [v.name for v in shashki.VARIANTS])
@pytest.mark.parametrize("paths", [False, True])
def test_a_count_made_move_by_move_is_the_count(game, paths):
    # what Position.count falls back to when a sum does not fit 64 bits
    position = shashki.Position(game)
    assert position.count_by_moves(4, paths) == position.count(4, paths)
    assert position.count_by_moves(0, paths) == 1


def _crafted_checkpoint(path, position, depth, counts):
    """A checkpoint of `position`'s perft(depth) whose every task is done, with the counts
    `counts(index)` (as a run would have written them)."""
    tasks = runner.split(position, depth, min_tasks=32)
    store = runner.Checkpoint(path, {"variant": position.variant.name, "fen": position.fen(),
                                     "depth": depth, "paths": False, "min_tasks": 32}, tasks)
    for task in tasks:
        store.record(task.index, counts(task.index))
    store.close()
    return tasks


def test_counts_above_2_64_pass_the_sums_the_checkpoint_and_json_unwrapped(tmp_path):
    position = shashki.Position("russian")
    path = tmp_path / "big.checkpoint"
    tasks = _crafted_checkpoint(path, position, 5, lambda i: 2 ** 63 + i)
    expected = sum((2 ** 63 + t.index) * t.weight for t in tasks)
    assert expected > 2 ** 64 and len(tasks) > 2
    result = runner.run(position, 5, checkpoint=path)
    assert result.nodes == expected and result.resumed == len(tasks)
    assert sum(result.divide.values()) == expected
    out = io.StringIO()
    assert main(["perft", "russian", "5", "--checkpoint", str(path), "--json"], out) == 0
    report = json.loads(out.getvalue())
    assert report["nodes"] == expected and sum(report["moves"].values()) == expected
    # and the text the command prints without --json
    out = io.StringIO()
    assert main(["perft", "russian", "5", "--checkpoint", str(path)], out) == 0
    assert f"perft russian depth 5 (unique): {expected}\n" in out.getvalue()
