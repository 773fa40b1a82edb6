"""Perft at scale: split the tree into tasks, count them on threads or any Executor, keep a
checkpoint so a long run can resume.

    >>> import shashki
    >>> shashki.perft.perft(shashki.Board("russian"), 8, jobs=2)
    929899

`Board.perft` forwards here when asked for threads, a hash table, an executor or a
checkpoint.  The kernels release the GIL, so threads of one process count in parallel; any
`concurrent.futures.Executor` (a process pool, `dask.distributed.Client.get_executor()`)
runs the same tasks elsewhere: a task is a small picklable tuple, and `run_task` is the
function each worker calls.

Ray has no Executor class of its own, but every Ray task gives a concurrent.futures.Future,
so three lines make one (checked with Ray 2.60 on a local Ray instance)::

    class RayExecutor(concurrent.futures.Executor):
        def submit(self, fn, /, *args, **kwargs):
            return ray.remote(fn).remote(*args, **kwargs).future()

    board.perft(14, paths=True, executor=RayExecutor())
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from concurrent.futures import Executor, Future, ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from typing import (TYPE_CHECKING, Any, Callable, Dict, Hashable, List, Mapping, Optional,
                    Sequence, TextIO, Tuple, Union)

from ._core import perft as _perft
from .errors import ShashkiError
from .limits import MAX_HASH_MB as MAX_HASH_MB  # perft.MAX_HASH_MB, as before
from .limits import as_int, check_hash_mb, shown
from .notation import move_texts
from .variants import Variant, get_variant

if TYPE_CHECKING:
    from .board import Board

Masks = Tuple[int, int, int, int]
#: progress(done, total, task, count), called after each task
Progress = Callable[[int, int, "Task", int], object]
# a subtree while the tree is split: (prefix, masks, remaining depth, weight)
_Node = Tuple[Tuple[str, ...], Masks, int, int]

CHECKPOINT_FORMAT = 1
#: the deepest perft accepted: deeper trees are beyond any computer
MAX_DEPTH = 64
#: the most threads of one run
MAX_JOBS = 1024
#: the most leaves a task is meant to have (estimated): a fraction of a second of one core,
#: so that an interrupted run stops soon (the count of one task, in C, cannot be interrupted)
TASK_LEAVES = 10_000_000
# the depth of the probe that estimates the size of a subtree
_PROBE_DEPTH = 4
# a checkpoint is flushed after every task, and written through to the disk at most this
# often (and when it is closed)
_SYNC_SECONDS = 1.0

#: a transposition table for Board.perft(table=...), kept between runs
PerftTable = _perft.PerftTable


class CheckpointError(ShashkiError):
    """A checkpoint file that belongs to another run, or whose content is damaged."""


@dataclass(frozen=True)
class Task:
    """One subtree: the position after `prefix` (move texts from the root), counted `depth`
    plies deep; its count is multiplied by `weight` (the routes of the prefix, with paths)."""
    index: int
    prefix: Tuple[str, ...]
    masks: Masks
    depth: int
    weight: int

    @property
    def root_move(self) -> str:
        return self.prefix[0] if self.prefix else ""


def cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def split(board: Board, depth: int, paths: bool = False, min_tasks: int = 32,
          min_depth: int = 4, max_leaves: float = TASK_LEAVES) -> List[Task]:
    """Tasks whose counts add up to perft(depth): the tree expanded from the root until there
    are at least `min_tasks` tasks and no task is estimated (see `estimate`) to have more
    than `max_leaves` leaves, but no subtree is split below `min_depth` plies.  The order is
    deterministic, so a checkpoint can name tasks by index."""
    variant = board.variant
    # (node, small): `small` once its estimate is known to be within max_leaves
    frontier: List[Tuple[_Node, bool]] = [(((), board.masks, depth, 1), False)]
    while True:
        wanted = len(frontier) < min_tasks
        expanded: List[Tuple[_Node, bool]] = []
        for node, small in frontier:
            prefix, masks, remaining, weight = node
            if remaining > min_depth and not small:
                small = not wanted and estimate(variant, masks, remaining) <= max_leaves
                if not small:
                    children = _child_tasks(variant, prefix, masks, remaining, weight, paths)
                    if children:
                        expanded.extend((child, False) for child in children)
                        continue
            expanded.append((node, small))
        if len(expanded) == len(frontier):
            break                   # nothing was split (a node without moves stays as it is)
        frontier = expanded
    return [Task(i, prefix, masks, remaining, weight)
            for i, ((prefix, masks, remaining, weight), _) in enumerate(frontier)]


def estimate(variant: Variant, masks: Masks, depth: int) -> float:
    """Roughly the leaves of perft(depth) from `masks`: the count of a shallow probe, grown
    by the ratio of its last two plies for each ply beyond it.  A guide for splitting the
    work, not a count: from random positions of every game (depth 8, 7 on 10x10) it was
    within a factor of 3.5 in most games, but off by up to 50 where flying kings fill the
    middle game (pool, frisian; czech and thai by up to 13)."""
    rules = variant.rules
    if depth <= _PROBE_DEPTH:
        return float(_perft.perft(*masks, rules, depth))
    below = _perft.perft(*masks, rules, _PROBE_DEPTH - 1)
    probe = _perft.perft(*masks, rules, _PROBE_DEPTH)
    if not below:
        return 0.0
    return float(probe) * (probe / below) ** (depth - _PROBE_DEPTH)


def _child_tasks(variant: Variant, prefix: Tuple[str, ...], masks: Masks, remaining: int,
                 weight: int, paths: bool) -> List[_Node]:
    # straight from the core: no Board is needed to expand the tree
    raw = variant.rules.legal_moves(*masks)
    out: List[_Node] = []
    for (origin, dest, captured, routes, promote, _, _), text in zip(
            raw, move_texts(raw, variant)):
        child = variant.rules.apply_move(*masks, origin, dest, captured, promote)
        out.append((prefix + (text,), child, remaining - 1,
                    weight * routes if paths else weight))
    return out


# --- workers ---------------------------------------------------------------------------------

_tables: Dict[Hashable, _perft.PerftTable] = {}
_tables_lock = threading.Lock()


def _table_for(run_key: Hashable, hash_mb: float) -> _perft.PerftTable:
    # A table lives for one run (entries of one game and convention); a worker process keeps
    # it between the tasks of that run and drops it when a new run arrives.
    with _tables_lock:
        table = _tables.get(run_key)
        if table is None:
            for key in list(_tables)[:-1]:
                del _tables[key]
            table = _tables[run_key] = _perft.PerftTable(hash_mb)
        return table


def run_task(spec: Tuple[str, Masks, int, bool, float, Hashable]) -> int:
    """Count one task; `spec` is (variant, masks, depth, paths, hash_mb, run_key).

    This is what executor workers call: everything in `spec` is plain data.
    """
    variant, masks, depth, paths, hash_mb, run_key = spec
    rules = get_variant(variant).rules
    table = _table_for(run_key, hash_mb) if hash_mb else None
    return _perft.perft(*masks, rules, depth, paths, table)


# --- checkpoints -------------------------------------------------------------------------------

def _digest(tasks: Sequence[Task]) -> str:
    h = hashlib.sha256()
    for t in tasks:
        h.update(f"{t.index}|{' '.join(t.prefix)}|{t.depth}|{t.weight}\n".encode())
    return h.hexdigest()


def _line_check(digest: str, index: int, count: int) -> str:
    return hashlib.sha256(f"{digest}:{index}:{count}".encode()).hexdigest()[:16]


class Checkpoint:
    """A JSON-lines file: a header naming the run, then one line per finished task.

    A header for another run, or a line that does not parse or whose check does not match,
    is refused with CheckpointError; a last line cut short by an interruption is ignored
    (that task is counted again).
    """

    done: Dict[int, int]
    _handle: TextIO

    def __init__(self, path: Union[str, os.PathLike[str]], header: Mapping[str, Any],
                 tasks: Sequence[Task]) -> None:
        self.path = os.fspath(path)
        self.header = dict(header, format=CHECKPOINT_FORMAT, tasks=len(tasks),
                           digest=_digest(tasks))
        self.digest = self.header["digest"]
        self.ntasks = len(tasks)
        self.done = {}
        self._lock = threading.Lock()
        self._synced = 0.0
        if os.path.exists(self.path) and os.path.getsize(self.path) > 0:
            self._load()
            self._handle = open(self.path, "a", encoding="utf-8")
        else:
            self._handle = open(self.path, "w", encoding="utf-8")
            self._write(self.header)

    def _load(self) -> None:
        with open(self.path, "r", encoding="utf-8", errors="strict") as f:
            try:
                text = f.read()
            except UnicodeDecodeError:
                raise CheckpointError(f"{self.path} is not a shashki perft checkpoint "
                                      f"(not UTF-8 text)") from None
        lines = text.split("\n")
        complete = lines[:-1]          # text after the last newline was cut short
        if not complete:
            raise CheckpointError(f"{self.path} is not a shashki perft checkpoint "
                                  f"(no complete header line)")
        try:
            header = json.loads(complete[0])
        except (ValueError, RecursionError):    # not JSON, or nested too deep to read
            raise CheckpointError(f"{self.path} is not a shashki perft checkpoint "
                                  f"(its first line is not a JSON header)") from None
        if not isinstance(header, dict) or header.get("format") != CHECKPOINT_FORMAT:
            raise CheckpointError(f"{self.path} is not a shashki perft checkpoint "
                                  f"of format {CHECKPOINT_FORMAT}")
        if header != self.header:
            diff = sorted(k for k in set(header) | set(self.header)
                          if header.get(k) != self.header.get(k))
            raise CheckpointError(
                f"{self.path} belongs to another run (it differs in {', '.join(diff)}: "
                f"{ {k: header.get(k) for k in diff} }); use another file or delete it")
        for number, line in enumerate(complete[1:], start=2):
            try:
                entry = json.loads(line)
                index, count, check = entry["i"], entry["count"], entry["check"]
                valid = (isinstance(index, int) and isinstance(count, int)
                         and 0 <= index < self.ntasks and count >= 0
                         and check == _line_check(self.digest, index, count))
            except (ValueError, KeyError, TypeError, RecursionError):
                valid = False
            if not valid:
                raise CheckpointError(f"{self.path} is damaged at line {number}: {line[:80]!r}")
            if self.done.get(index, count) != count:
                raise CheckpointError(f"{self.path} has two counts for task {index}")
            self.done[index] = count

    def _write(self, obj: object) -> None:
        self._handle.write(json.dumps(obj, sort_keys=True) + "\n")
        self._handle.flush()
        now = time.monotonic()
        if now - self._synced >= _SYNC_SECONDS:
            os.fsync(self._handle.fileno())
            self._synced = now

    def record(self, index: int, count: int) -> None:
        with self._lock:
            self.done[index] = count
            self._write({"i": index, "count": count,
                         "check": _line_check(self.digest, index, count)})

    def close(self) -> None:
        if not self._handle.closed:
            self._handle.flush()
            os.fsync(self._handle.fileno())
            self._handle.close()


# --- the runner --------------------------------------------------------------------------------

@dataclass
class PerftResult:
    """The outcome of a run: the total, each root move's count, and what it cost."""
    nodes: int
    divide: Dict[str, int]
    seconds: float
    tasks: int
    resumed: int

    @property
    def rate(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else float("inf")


def perft(board: Board, depth: int, paths: bool = False, *, jobs: Optional[int] = None,
          hash_mb: float = 0, executor: Optional[Executor] = None,
          checkpoint: Union[str, os.PathLike[str], None] = None,
          progress: Optional[Progress] = None) -> int:
    """perft(depth) of `board`, split into tasks run in parallel; returns the count.

    See `run` for the arguments; this returns only the number of leaves.
    """
    return run(board, depth, paths, jobs=jobs, hash_mb=hash_mb, executor=executor,
               checkpoint=checkpoint, progress=progress).nodes


def check_options(jobs: Optional[int], hash_mb: float) -> None:
    """ValueError unless `jobs` is None or a whole number from 1 to MAX_JOBS and `hash_mb` is
    a number of MiB from 0 (no table) to MAX_HASH_MB."""
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int)
                             or not 1 <= jobs <= MAX_JOBS):
        raise ValueError(f"jobs must be a whole number from 1 to {MAX_JOBS}, "
                         f"not {shown(jobs)}")
    check_hash_mb(hash_mb, zero_ok=True)


def check_depth(depth: object) -> int:
    """`depth` as an int; ValueError unless it is a whole number from 0 to MAX_DEPTH."""
    value = as_int(depth)
    if value is None or not 0 <= value <= MAX_DEPTH:
        raise ValueError(f"depth must be a whole number from 0 to {MAX_DEPTH}, "
                         f"not {shown(depth)}")
    return value


def run(board: Board, depth: int, paths: bool = False, *, jobs: Optional[int] = None,
        hash_mb: float = 0, executor: Optional[Executor] = None,
        checkpoint: Union[str, os.PathLike[str], None] = None,
        progress: Optional[Progress] = None) -> PerftResult:
    """Count perft(depth) of `board` and return a PerftResult.

    - `jobs`: threads to use (default: all cores); ignored when `executor` is given.
    - `hash_mb`: size of the transposition table in MiB (0: none).  Threads share one table;
      each executor worker process keeps its own.
    - `executor`: any concurrent.futures.Executor, e.g. a ProcessPoolExecutor or
      `dask.distributed.Client(...).get_executor()`.
    - `checkpoint`: a file path; finished tasks are written there, and a run started again
      with the same file skips them.
    - `progress`: called as progress(done, total, task, count) after each task; if it has a
      `set_tasks` method, that is called with the list of tasks before the first starts.
    """
    depth = check_depth(depth)
    check_options(jobs, hash_mb)
    jobs = cpu_count() if jobs is None else jobs
    variant = board.variant
    start = time.perf_counter()
    # a checkpoint needs tasks to record, as parallel runs need tasks to share out
    split_up = executor is not None or jobs > 1 or checkpoint is not None
    tasks = split(board, depth, paths, min_tasks=max(32, 8 * jobs) if split_up else 1)
    announce = getattr(progress, "set_tasks", None)
    if announce is not None:
        announce(tasks)
    done: Dict[int, int] = {}
    store: Optional[Checkpoint] = None
    if checkpoint is not None:
        store = Checkpoint(checkpoint, {"variant": variant.name, "fen": board.fen(),
                                        "depth": depth, "paths": bool(paths)}, tasks)
        done.update(store.done)
    resumed = len(done)
    todo = [t for t in tasks if t.index not in done]
    run_key = (variant.name, bool(paths), os.getpid(), id(tasks), time.time())
    try:
        if executor is None and jobs == 1:
            table = _perft.PerftTable(hash_mb, shared=False) if hash_mb else None
            for task in todo:
                count = _perft.perft(*task.masks, variant.rules, task.depth, paths, table)
                _finish(task, count, done, store, progress, len(tasks))
        elif executor is None:
            table = _perft.PerftTable(hash_mb) if hash_mb else None
            with ThreadPoolExecutor(max_workers=jobs) as pool:
                futures = {pool.submit(_perft.perft, *t.masks, variant.rules, t.depth, paths,
                                       table): t for t in todo}
                _collect(futures, done, store, progress, len(tasks))
        else:
            futures = {executor.submit(run_task, (variant.name, t.masks, t.depth, bool(paths),
                                                  hash_mb, run_key)): t for t in todo}
            _collect(futures, done, store, progress, len(tasks))
    finally:
        if store is not None:
            store.close()
    divide: Dict[str, int] = {}
    for task in tasks:
        if task.prefix:
            divide[task.root_move] = divide.get(task.root_move, 0) + done[task.index] * task.weight
    nodes = sum(done[t.index] * t.weight for t in tasks)
    return PerftResult(nodes, divide, time.perf_counter() - start, len(tasks), resumed)


def _finish(task: Task, count: int, done: Dict[int, int], store: Optional[Checkpoint],
            progress: Optional[Progress], total: int) -> None:
    done[task.index] = count
    if store is not None:
        store.record(task.index, count)
    if progress is not None:
        progress(len(done), total, task, count)


def _collect(futures: Mapping[Future[int], Task], done: Dict[int, int],
             store: Optional[Checkpoint], progress: Optional[Progress], total: int) -> None:
    try:
        for future in as_completed(futures):
            _finish(futures[future], future.result(), done, store, progress, total)
    except BaseException:
        for future in futures:
            future.cancel()
        raise
