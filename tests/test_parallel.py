"""Issue 4: perft with a hash table, threads, processes, a dask cluster, and resumable runs.

Every block of ../shared/perft is counted each way at its deepest line under LIMIT leaves.
"""

import json
import pickle
import re
import signal
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import pytest

import shashki
from shashki import perft as runner
from perftfile import playable_blocks

LIMIT = 5_000_000
BLOCKS = playable_blocks()


def _deepest(limit=LIMIT):
    """(block, paths, depth, count): each block's deepest line under `limit`, per convention."""
    out = []
    for block in BLOCKS:
        for paths, table in ((False, block.perft), (True, block.paths)):
            lines = [(d, n) for d, n in table.items() if n <= limit]
            if lines:
                depth, count = max(lines)
                out.append((block, paths, depth, count))
    return out


CASES = _deepest()


def _check_all(count_fn):
    wrong = []
    for block, paths, depth, count in CASES:
        got = count_fn(shashki.Board(block.variant, block.fen), depth, paths)
        if got != count:
            wrong.append(f"{block.id} paths={paths} depth {depth}: {got} != {count}")
    assert not wrong, "\n".join(wrong)
    assert len(CASES) >= 600


def test_hash_table_counts():
    _check_all(lambda board, depth, paths: board.perft(depth, paths, jobs=1, hash_mb=16))


def test_hash_table_counts_deeper_start_positions():
    # every start table, hashed, at its deepest line up to depth 10 and 30 M leaves
    for block in BLOCKS:
        if block.id.endswith("-start"):
            for paths, table in ((False, block.perft), (True, block.paths)):
                depths = [d for d, n in table.items() if d <= 10 and n <= 30_000_000]
                if not depths:
                    continue
                depth = max(depths)
                board = shashki.Board(block.variant, block.fen)
                assert board.perft(depth, paths, jobs=1, hash_mb=32) == table[depth], block.id


def test_threads():
    _check_all(lambda board, depth, paths: runner.run(board, depth, paths, jobs=2).nodes)


def test_threads_with_a_shared_hash_table():
    _check_all(lambda board, depth, paths: runner.run(board, depth, paths, jobs=2,
                                                      hash_mb=8).nodes)


def test_processes():
    with ProcessPoolExecutor(max_workers=2) as pool:
        _check_all(lambda board, depth, paths: runner.run(board, depth, paths, executor=pool,
                                                          hash_mb=8).nodes)


def test_dask_local_cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:
        executor = client.get_executor()
        _check_all(lambda board, depth, paths: runner.run(board, depth, paths,
                                                          executor=executor).nodes)


def test_split_tasks_add_up():
    position = shashki.Position("brazilian")
    tasks = runner.split(position, 9, paths=True, min_tasks=40)
    assert len(tasks) >= 40
    # a task is a Position and a depth: what a worker process is sent, pickled
    total = sum(t.weight * runner.run_task(pickle.loads(pickle.dumps(
        (t.position, t.depth, True, 0, None)))) for t in tasks)
    assert total == position.perft(9, paths=True, jobs=1)


def test_no_task_is_long():
    # issue 12.12: the count of one task cannot be interrupted (it runs in C), so a run stops
    # only as soon as its running tasks end.  A tree is split until no task is estimated to
    # have more than max_leaves leaves, even on one thread (before: a single task).
    position = shashki.Position("russian")
    tasks = runner.split(position, 11, min_tasks=1)
    counts = [runner.run_task((t.position, t.depth, False, 0, None)) for t in tasks]
    assert sum(counts) == 110917189
    assert len(tasks) > 1 and max(counts) <= 5 * runner.TASK_LEAVES
    assert all(runner.estimate(t.position, t.depth) <= runner.TASK_LEAVES for t in tasks)
    assert len(runner.split(position, 11, min_tasks=1, max_leaves=10 ** 6)) > len(tasks)


def test_progress_is_told_the_tasks():
    seen = []

    class Bars:
        def set_tasks(self, tasks):
            seen.append(len(tasks))

        def __call__(self, done, total, task, count):
            assert seen == [total]

    result = runner.run(shashki.Board("english"), 9, jobs=2, progress=Bars())
    assert seen == [result.tasks]


def test_depth_is_bounded():
    # issue 12.8: a depth too large for the C counter was an OverflowError; issue 20.9: nan
    # was a plain ValueError
    board = shashki.Board("russian")
    for depth in (2 ** 70, 65, -1, 2.0, True, float("nan")):
        with pytest.raises(runner.PerftError, match="depth must be a whole number from 0 "
                                                    "to 64"):
            runner.run(board, depth)
    for depth in (2 ** 70, float("nan")):
        with pytest.raises(runner.PerftError, match="from 0 to 64"):
            board.perft(depth)
        with pytest.raises(runner.PerftError, match="from 0 to 64"):
            board.divide(depth)
    assert issubclass(runner.PerftError, shashki.ShashkiError)


@pytest.mark.parametrize("text", ["[" * 200000 + "\n", '{"a": ' * 100000 + "\n"])
def test_checkpoint_nested_too_deep_is_refused(tmp_path, text):
    # issue 12.5: JSON nested too deep raised RecursionError, not CheckpointError
    path = tmp_path / "run.ckpt"
    board = shashki.Board("russian")
    path.write_text(text)
    with pytest.raises(runner.CheckpointError, match="not a shashki perft checkpoint"):
        runner.run(board, 8, jobs=1, checkpoint=path)
    path.unlink()
    runner.run(board, 8, jobs=1, checkpoint=path)
    with open(path, "a") as handle:
        handle.write(text)
    with pytest.raises(runner.CheckpointError, match="damaged at line"):
        runner.run(board, 8, jobs=1, checkpoint=path)


def test_divide_of_a_run_matches_board_divide():
    board = shashki.Board("russian")
    result = runner.run(board, 8, jobs=2)
    assert result.divide == {str(m): n for m, n in board.divide(8).items()}


class _Interrupt(Exception):
    pass


def _interrupt_after(n):
    def progress(done, total, task, count):
        if done >= n:
            raise _Interrupt
    return progress


@pytest.mark.parametrize("variant,depth,paths", [
    ("russian", 9, False), ("english", 10, True), ("italian", 9, True), ("brazilian", 9, False),
    ("giveaway", 8, True)])
def test_interrupted_run_resumes_without_recounting(tmp_path, variant, depth, paths):
    board = shashki.Board(variant)
    path = tmp_path / "run.ckpt"
    with pytest.raises(_Interrupt):
        runner.run(board, depth, paths, jobs=1, checkpoint=path, progress=_interrupt_after(7))
    counted = []
    result = runner.run(board, depth, paths, jobs=2, checkpoint=path,
                        progress=lambda done, total, task, count: counted.append(task.index))
    assert result.nodes == board.perft(depth, paths, jobs=1)
    assert result.resumed == 7
    assert len(counted) == result.tasks - 7
    # a finished checkpoint answers at once
    again = runner.run(board, depth, paths, jobs=1, checkpoint=path)
    assert again.nodes == result.nodes and again.resumed == result.tasks


def test_foreign_checkpoint_is_refused(tmp_path):
    path = tmp_path / "run.ckpt"
    runner.run(shashki.Board("russian"), 8, jobs=2, checkpoint=path)
    with pytest.raises(runner.CheckpointError, match="another run"):
        runner.run(shashki.Board("russian"), 8, True, jobs=2, checkpoint=path)
    with pytest.raises(runner.CheckpointError, match="another run"):
        runner.run(shashki.Board("brazilian"), 8, jobs=2, checkpoint=path)


def test_damaged_checkpoint_is_refused(tmp_path):
    path = tmp_path / "run.ckpt"
    board = shashki.Board("english")
    runner.run(board, 8, jobs=2, checkpoint=path)
    lines = path.read_text().splitlines()
    entry = json.loads(lines[3])
    entry["count"] += 1                       # a forged count
    lines[3] = json.dumps(entry)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(runner.CheckpointError, match="damaged at line 4"):
        runner.run(board, 8, jobs=2, checkpoint=path)
    path.write_bytes(b"\x00\xffnot a checkpoint\n")
    with pytest.raises(runner.CheckpointError, match="not a shashki perft checkpoint"):
        runner.run(board, 8, jobs=2, checkpoint=path)
    assert issubclass(runner.CheckpointError, ValueError)


def test_a_line_cut_short_is_counted_again(tmp_path):
    path = tmp_path / "run.ckpt"
    board = shashki.Board("russian")
    runner.run(board, 8, jobs=1, checkpoint=path)
    text = path.read_text()
    path.write_text(text[: len(text) - 10])   # the last line loses its end
    result = runner.run(board, 8, jobs=1, checkpoint=path)
    assert result.nodes == 929899 and result.resumed == result.tasks - 1


def test_cli_interrupted_by_a_signal_resumes(tmp_path):
    path = tmp_path / "cli.ckpt"
    cmd = [sys.executable, "-m", "shashki", "perft", "english", "12", "--paths", "--jobs", "1",
           "--checkpoint", str(path), "--json", "--progress", "off"]
    # (SIGINT as a terminal sends it, even when the tests run as a background job, which
    # inherits it ignored)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.time() + 60
    while time.time() < deadline:           # wait for a few finished tasks, then interrupt
        if path.exists() and path.read_text().count("\n") >= 4:
            break
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=60)
    done_before = path.read_text().count("\n") - 1
    assert done_before >= 3
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=True).stdout
    result = json.loads(out)
    assert result["nodes"] == 388623673
    assert result["resumed_tasks"] >= done_before


def test_cli_json_and_depth_range():
    out = subprocess.run([sys.executable, "-m", "shashki", "perft", "italian", "6", "--json",
                          "--hash", "4", "-j", "2"], capture_output=True, text=True,
                         check=True).stdout
    data = json.loads(out)
    assert data["nodes"] == 36473 and sum(data["moves"].values()) == 36473
    assert set(data) >= {"nodes", "seconds", "rate", "moves", "depth", "variant"}
    table = subprocess.run([sys.executable, "-m", "shashki", "perft", "english",
                            "--depth-range", "1-6"], capture_output=True, text=True,
                           check=True).stdout
    assert [line.split()[1] for line in table.splitlines()[2:]] == \
        ["7", "49", "302", "1469", "7361", "36768"]


@pytest.mark.parametrize("args", [["perft", "russian", "-3"], ["perft", "russian", "x"],
                                  ["perft", "russian", "5", "--jobs", "0"],
                                  ["perft", "russian", "5", "--hash", "-1"],
                                  ["perft", "russian", "--depth-range", "5-2"],
                                  ["perft", "russian"], ["perft", "chess", "3"],
                                  ["perft", "russian", "3", "--fen", "W:Wz9"],
                                  ["perft", "russian", "3", "--hash", "99999999999999999999"],
                                  ["perft", "russian", "3", "--checkpoint", "/nonexistent/x"]])
def test_cli_bad_arguments_exit_2(args):
    proc = subprocess.run([sys.executable, "-m", "shashki"] + args, capture_output=True,
                          text=True)
    assert proc.returncode == 2
    assert "error" in proc.stderr and "Traceback" not in proc.stderr


def test_cli_usage_errors_show_the_usage_of_perft():
    # issue 12.12: `shashki perft russian` printed the top-level usage
    proc = subprocess.run([sys.executable, "-m", "shashki", "perft", "russian"],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.startswith("usage: shashki perft ") and "DEPTH" in proc.stderr


@pytest.mark.parametrize("args", [["0"], ["1"], ["3", "--divide"], ["--depth-range", "0-3"],
                                  ["0", "--json"]])
def test_cli_tiny_trees_print_no_infinite_rate(args):
    # issue 12.12: "inf M leaves/s wall, 0.0 M leaves/CPU-s"
    out = subprocess.run([sys.executable, "-m", "shashki", "perft", "russian", *args],
                         capture_output=True, text=True, check=True).stdout
    assert "inf" not in out and "nan" not in out
    rates = re.findall(r"([-+\d.e]+) M leaves/", out)
    assert all(float(rate) > 0 for rate in rates)
    if "--json" in args:
        assert json.loads(out)["rate"] is None


def test_cli_corrupt_checkpoint_exits_2(tmp_path):
    path = tmp_path / "ck"
    path.write_text("[" * 200000 + "\n")
    proc = subprocess.run([sys.executable, "-m", "shashki", "perft", "russian", "3",
                           "--checkpoint", str(path)], capture_output=True, text=True)
    assert proc.returncode == 2, proc.stderr
    assert "not a shashki perft checkpoint" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("kwargs", [{"jobs": 0}, {"jobs": "2"}, {"jobs": True}, {"hash_mb": -1},
                                    {"hash_mb": 10 ** 15}, {"hash_mb": "16"}])
def test_bad_perft_options_are_value_errors(kwargs):
    board = shashki.Board("russian")
    for depth in (3, 9):                     # the direct path and the split one
        with pytest.raises(shashki.ShashkiError):
            board.perft(depth, **kwargs)


def test_every_block_holds_after_an_interrupted_and_resumed_run(tmp_path):
    # each block's deepest line: stopped after its first finished task, then resumed
    wrong = []
    for i, (block, paths, depth, count) in enumerate(CASES):
        board = shashki.Board(block.variant, block.fen)
        path = tmp_path / f"{i}.ckpt"
        try:
            runner.run(board, depth, paths, jobs=1, checkpoint=path,
                       progress=_interrupt_after(1))
        except _Interrupt:
            pass
        result = runner.run(board, depth, paths, jobs=2, checkpoint=path)
        if result.nodes != count or result.resumed < 1:
            wrong.append(f"{block.id} paths={paths} depth {depth}: {result.nodes} != {count} "
                         f"(resumed {result.resumed} of {result.tasks} tasks)")
    assert not wrong, "\n".join(wrong)


def test_cli_version():
    out = subprocess.run([sys.executable, "-m", "shashki", "--version"], capture_output=True,
                         text=True, check=True).stdout
    # the version, then the kernels' build this CPU got (docs/install.md)
    assert out.startswith(f"shashki {shashki.__version__} (kernels ")


def test_ray_executor():
    # the recipe of shashki.perft's docstring; Ray is not a dependency, so this runs only
    # where it is installed
    ray = pytest.importorskip("ray")
    import concurrent.futures

    class RayExecutor(concurrent.futures.Executor):
        def submit(self, fn, /, *args, **kwargs):
            return ray.remote(fn).remote(*args, **kwargs).future()

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        board = shashki.Board("english")
        assert board.perft(9, paths=True, executor=RayExecutor()) == 3963680
        assert shashki.Board("russian").perft(8, executor=RayExecutor(), hash_mb=8) == 929899
    finally:
        ray.shutdown()


def test_a_table_is_kept_between_runs_of_one_game_and_convention():
    table = shashki.perft.PerftTable(8, shared=False)
    board = shashki.Board("russian")
    assert board.perft(7, table=table) == board.perft(7)
    assert board.perft(8, table=table) == board.perft(8)       # on the warm table
    # giveaway moves as russian does: the same kernel, the same counts
    assert shashki.Board("giveaway").perft(8, table=table) == board.perft(8)
    with pytest.raises(ValueError, match="holds counts"):
        board.perft(6, paths=True, table=table)
    with pytest.raises(ValueError, match="holds counts"):
        shashki.Board("brazilian").perft(6, table=table)
    table.clear()
    assert board.perft(6, paths=True, table=table) == board.perft(6, paths=True)
    with pytest.raises(ValueError, match="single-threaded"):
        board.perft(6, jobs=2, table=table)


# --- checkpoints that survive any interruption, any --jobs, any path (issue 20) ----------

def test_a_resumed_checkpoint_with_a_cut_line_stays_whole(tmp_path):
    """A last line cut short is dropped before the run appends: every later resume works,
    and an interruption at any byte loses at most the record being written."""
    path = tmp_path / "run.ckpt"
    board = shashki.Board("russian")
    with pytest.raises(_Interrupt):
        runner.run(board, 9, jobs=1, checkpoint=path, progress=_interrupt_after(10))
    text = path.read_bytes()
    lines = text.splitlines(keepends=True)
    for cut in range(1, len(lines[-1])):          # the last record cut at every byte
        path.write_bytes(b"".join(lines[:-1]) + lines[-1][:cut])
        with pytest.raises(_Interrupt):
            runner.run(board, 9, jobs=1, checkpoint=path, progress=_interrupt_after(10))
        # a second resume of the file the first one wrote
        resumed = path.read_bytes()
        assert resumed.endswith(b"\n") and resumed.count(b"\n") == len(lines)
    result = runner.run(board, 9, jobs=1, checkpoint=path)
    assert result.nodes == board.perft(9, jobs=1) and result.resumed == len(lines) - 1


def test_a_new_checkpoint_never_holds_half_a_header(tmp_path, monkeypatch):
    # the header is written whole or not at all: an interruption while writing it leaves
    # no file, which the next run starts afresh
    path = tmp_path / "run.ckpt"
    board = shashki.Board("russian")

    def fail(*args):
        raise _Interrupt

    monkeypatch.setattr(runner.os, "replace", fail)
    with pytest.raises(_Interrupt):
        runner.run(board, 8, jobs=1, checkpoint=path)
    monkeypatch.undo()
    assert not path.exists()
    assert runner.run(board, 8, jobs=1, checkpoint=path).nodes == 929899


@pytest.mark.parametrize("first,then", [(1, 16), (16, 1), (2, 64), (64, 3)])
def test_a_checkpoint_resumes_under_any_jobs(tmp_path, first, then):
    path = tmp_path / "run.ckpt"
    board = shashki.Board("english")
    with pytest.raises(_Interrupt):
        runner.run(board, 10, jobs=first, checkpoint=path, progress=_interrupt_after(5))
    result = runner.run(board, 10, jobs=then, checkpoint=path)
    assert result.nodes == board.perft(10, jobs=1) and result.resumed >= 5


def _fifo(tmp_path):
    import os
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("make,match", [
    (lambda tmp: tmp, "is a folder"),
    (lambda tmp: "/dev/null", "not a regular file"),
    (_fifo, "not a regular file"),
    (lambda tmp: (tmp / "link").symlink_to(tmp / "nowhere" / "x") or tmp / "link",
     "symbolic link to .* which does not exist"),
    (lambda tmp: tmp / "missing" / "run.ckpt", "folder .* does not exist")])
def test_a_checkpoint_path_that_is_no_file_is_refused_at_once(tmp_path, make, match):
    import threading
    path = make(tmp_path)
    started, raised = [], []

    def run():
        try:
            runner.run(shashki.Board("russian"), 8, jobs=1, checkpoint=path,
                       progress=lambda *args: started.append(1))
        except Exception as exc:                # noqa: B902  (checked below)
            raised.append(exc)

    thread = threading.Thread(target=run, daemon=True)   # a FIFO blocked the old code
    thread.start()
    thread.join(60)
    assert not thread.is_alive(), "the run blocked on the checkpoint path"
    assert raised and isinstance(raised[0], runner.CheckpointError), raised
    assert re.search(match, str(raised[0])), str(raised[0])
    assert not started and not (tmp_path / "nowhere").exists()


def test_resumed_figures(tmp_path):
    """After a resume the bars count the resumed tasks, say so, and the rate counts only the
    leaves counted in this run."""
    import io
    from shashki.apps.cli import ProgressBars
    path = tmp_path / "run.ckpt"
    board = shashki.Board("russian")
    with pytest.raises(_Interrupt):
        runner.run(board, 9, jobs=1, checkpoint=path, progress=_interrupt_after(7))
    stream = io.StringIO()
    bars = ProgressBars(stream)
    result = runner.run(board, 9, jobs=1, checkpoint=path, progress=bars)
    assert result.resumed == 7 and 0 < result.counted < result.nodes
    last = stream.getvalue().split("\x1b[2K")[-len(board.legal_moves) - 1:]
    assert f"resumed 7 of {result.tasks} tasks" in last[-1]
    fractions = [line.split("] ")[1].split()[0].split("/") for line in last]
    assert all(got == total for got, total in fractions), last
    assert result.rate == result.counted / result.seconds
    out = subprocess.run([sys.executable, "-m", "shashki", "perft", "russian", "9",
                          "--checkpoint", str(path), "--json"], capture_output=True,
                         text=True, check=True).stdout
    data = json.loads(out)
    assert data["resumed_tasks"] == data["tasks"] and data["counted"] == 0
    assert data["rate"] is None
    text = subprocess.run([sys.executable, "-m", "shashki", "perft", "russian", "9",
                           "--checkpoint", str(path)], capture_output=True, text=True,
                          check=True).stdout
    assert f"resumed {data['tasks']} of {data['tasks']} tasks" in text
    assert "M leaves/" not in text


def test_a_checkpoint_without_its_split_is_refused_untouched(tmp_path):
    # every checkpoint names the split its task indexes refer to: one without it cannot be
    # resumed (the tasks would be another split's), and says so, the file left as it was
    path = tmp_path / "old.ckpt"
    board = shashki.Board("russian")
    with pytest.raises(_Interrupt):
        runner.run(board, 9, jobs=2, checkpoint=path, progress=_interrupt_after(5))
    lines = path.read_text().splitlines(keepends=True)
    header = json.loads(lines[0])
    assert header.pop("min_tasks") == 32
    path.write_text(json.dumps(header, sort_keys=True) + "\n" + "".join(lines[1:]))
    before = path.read_bytes()
    with pytest.raises(runner.CheckpointError, match=r"another run \(.*min_tasks none there"):
        runner.run(board, 9, jobs=16, checkpoint=path)
    assert path.read_bytes() == before


class _LosesOnce:
    """An executor whose first future fails (as a cluster's may when it loses the worker that
    held it), then runs every task in this process."""

    def __init__(self):
        self.failed = 0

    def submit(self, fn, *args):
        from concurrent.futures import Future
        future = Future()
        if not self.failed:
            self.failed = 1
            future.set_exception(TypeError("cannot unpack non-iterable int object"))
        else:
            future.set_result(fn(*args))
        return future


def test_a_task_whose_future_fails_on_an_executor_is_sent_again():
    # dask's concurrent.futures wrapper can fail a future lost after it finished: the runner
    # sends that task again, and the count is exact
    executor = _LosesOnce()
    result = runner.run(shashki.Position("russian"), 7, executor=executor)
    assert executor.failed and result.nodes == shashki.Position("russian").perft(7)


def test_a_task_that_always_fails_on_an_executor_raises():
    class Broken:
        def submit(self, fn, *args):
            from concurrent.futures import Future
            future = Future()
            future.set_exception(RuntimeError("no worker"))
            return future

    with pytest.raises(RuntimeError, match="no worker"):
        runner.run(shashki.Position("russian"), 7, executor=Broken())
