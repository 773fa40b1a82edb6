"""Perft at scale: split the tree into tasks, count them on threads or any Executor, keep a
checkpoint so a long run can resume.

    >>> import shashki
    >>> shashki.perft.perft(shashki.Position("russian"), 8, jobs=2)
    929899

`Position.perft` (and `Board.perft`) come here.  The kernels release the GIL, so threads of one
process count in parallel; any `concurrent.futures.Executor` (a process pool,
`dask.distributed.Client.get_executor()`) runs the same tasks elsewhere: a task is a Position
and a depth, which pickle small, and `run_task` is the function each worker calls.

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
import stat
import threading
import time
from concurrent.futures import Executor, Future, ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from typing import (TYPE_CHECKING, cast, Any, Callable, Dict, Hashable, List, Mapping, Optional,
                    Sequence, TextIO, Tuple, Union)

from ._core.perft import PerftTable as PerftTable
from .errors import ShashkiError
from .limits import MAX_HASH_MB as MAX_HASH_MB  # perft.MAX_HASH_MB, as before
from .limits import as_int, check_hash_mb, shown

if TYPE_CHECKING:
    from ._core.position import Position
    from .board import Board

#: progress(done, total, task, count), called after each task
Progress = Callable[[int, int, "Task", int], object]
# a subtree while the tree is split: (prefix, position, remaining depth, weight)
_Node = Tuple[Tuple[str, ...], "Position", int, int]

CHECKPOINT_FORMAT = 1
# the longest header line of a checkpoint read for its split (a real one is a few hundred
# bytes; the FEN of a position is the longest field)
_MAX_HEADER = 64 * 1024
#: the deepest perft accepted: deeper trees are beyond any computer
MAX_DEPTH = 64
#: the most threads of one run
MAX_JOBS = 1024
#: below this depth a perft is too small to be worth splitting across threads
PARALLEL_MIN_DEPTH = 8
#: the most leaves a task is meant to have (estimated): a fraction of a second of one core,
#: so that an interrupted run stops soon (the count of one task, in C, cannot be interrupted)
TASK_LEAVES = 10_000_000
# the depth of the probe that estimates the size of a subtree
_PROBE_DEPTH = 4
# a checkpoint is flushed after every task, and written through to the disk at most this
# often (and when it is closed)
_SYNC_SECONDS = 1.0

class PerftError(ShashkiError):
    """A perft argument out of range or of the wrong type (depth, jobs), or a checkpoint
    that cannot be used."""


class CheckpointError(PerftError):
    """A checkpoint file that belongs to another run, whose content is damaged, or a path
    that cannot be one (a folder, a device, a FIFO, a dangling symbolic link, a missing
    folder): refused before any work starts."""


@dataclass(frozen=True)
class Task:
    """One subtree: `position`, reached by `prefix` (move texts from the root), counted
    `depth` plies deep; its count is multiplied by `weight` (the routes of the prefix, with
    paths)."""
    index: int
    prefix: Tuple[str, ...]
    position: Position
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


def split(position: Position, depth: int, paths: bool = False, min_tasks: int = 32,
          min_depth: int = 4, max_leaves: float = TASK_LEAVES) -> List[Task]:
    """Tasks whose counts add up to perft(depth): the tree expanded from the root until there
    are at least `min_tasks` tasks and no task is estimated (see `estimate`) to have more
    than `max_leaves` leaves, but no subtree is split below `min_depth` plies.  The order is
    deterministic, so a checkpoint can name tasks by index."""
    # (node, small): `small` once its estimate is known to be within max_leaves
    frontier: List[Tuple[_Node, bool]] = [(((), position, depth, 1), False)]
    while True:
        wanted = len(frontier) < min_tasks
        expanded: List[Tuple[_Node, bool]] = []
        for node, small in frontier:
            prefix, here, remaining, weight = node
            if remaining > min_depth and not small:
                small = not wanted and estimate(here, remaining) <= max_leaves
                if not small:
                    children = [(prefix + (str(move),), child, remaining - 1,
                                 weight * move.routes if paths else weight)
                                for move, child in here.children()]
                    if children:
                        expanded.extend((child, False) for child in children)
                        continue
            expanded.append((node, small))
        if len(expanded) == len(frontier):
            break                   # nothing was split (a node without moves stays as it is)
        frontier = expanded
    return [Task(i, prefix, here, remaining, weight)
            for i, ((prefix, here, remaining, weight), _) in enumerate(frontier)]


def estimate(position: Position, depth: int) -> float:
    """Roughly the leaves of perft(depth) from `position`: the count of a shallow probe, grown
    by the ratio of its last two plies for each ply beyond it.  A guide for splitting the
    work, not a count: from random positions of every game (depth 8, 7 on 10x10) it was
    within a factor of 3.5 in most games, but off by up to 50 where flying kings fill the
    middle game (pool, frisian; czech and thai by up to 13)."""
    if depth <= _PROBE_DEPTH:
        return float(position.count(depth))
    below = position.count(_PROBE_DEPTH - 1)
    probe = position.count(_PROBE_DEPTH)
    if not below:
        return 0.0
    return float(probe) * (probe / below) ** (depth - _PROBE_DEPTH)


# --- workers ---------------------------------------------------------------------------------

_tables: Dict[Hashable, PerftTable] = {}
_tables_lock = threading.Lock()


def _table_for(run_key: Hashable, hash_mb: float) -> PerftTable:
    # A table lives for one run (entries of one game and convention); a worker process keeps
    # it between the tasks of that run and drops it when a new run arrives.
    with _tables_lock:
        table = _tables.get(run_key)
        if table is None:
            for key in list(_tables)[:-1]:
                del _tables[key]
            table = _tables[run_key] = PerftTable(hash_mb)
        return table


def run_task(spec: Tuple[Position, int, bool, float, Hashable]) -> int:
    """Count one task; `spec` is (position, depth, paths, hash_mb, run_key).

    This is what executor workers call: everything in `spec` pickles small.
    """
    position, depth, paths, hash_mb, run_key = spec
    table = _table_for(run_key, hash_mb) if hash_mb else None
    count: int = position.count(depth, paths, table)
    return count


# --- checkpoints -------------------------------------------------------------------------------

def _digest(tasks: Sequence[Task]) -> str:
    h = hashlib.sha256()
    for t in tasks:
        h.update(f"{t.index}|{' '.join(t.prefix)}|{t.depth}|{t.weight}\n".encode())
    return h.hexdigest()


def _line_check(digest: str, index: int, count: int) -> str:
    return hashlib.sha256(f"{digest}:{index}:{count}".encode()).hexdigest()[:16]


def _shown_value(value: object) -> str:
    """A header's value in an error: its JSON (a string quoted, true/false), "none" when the
    header lacks it."""
    return "none" if value is None else json.dumps(value)


def checkpoint_path(path: Union[str, os.PathLike[str]]) -> str:
    """The file a checkpoint at `path` is read and written at: `path`, or the file a
    symbolic link names.  CheckpointError, before any work, unless it is a regular file or
    can be made one (its folder exists): a folder, a device (/dev/null), a FIFO (whose open
    would block), a symbolic link to nothing (whose target would be made) are refused."""
    given = os.fspath(path)
    if not isinstance(given, str):
        raise CheckpointError(f"a checkpoint path is text, not {type(given).__name__}")
    target = given
    if os.path.islink(given):
        target = os.path.realpath(given)
        if not os.path.exists(target):
            raise CheckpointError(f"checkpoint {given} is a symbolic link to {target}, which "
                                  f"does not exist; expected a file, or a link to one")
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        folder = os.path.dirname(os.path.abspath(target))
        if not os.path.isdir(folder):
            raise CheckpointError(f"checkpoint {given}: the folder {folder} does not exist; "
                                  f"expected a file in an existing folder") from None
        return target
    except OSError as exc:
        raise CheckpointError(f"checkpoint {given}: {exc.strerror or exc}") from None
    if stat.S_ISDIR(mode):
        raise CheckpointError(f"checkpoint {given} is a folder; expected a file (e.g. "
                              f"{os.path.join(given, 'perft.ckpt')})")
    if not stat.S_ISREG(mode):
        raise CheckpointError(f"checkpoint {given} is not a regular file (a device, a FIFO "
                              f"or a socket); expected a file")
    return target


def checkpoint_split(path: str) -> Optional[int]:
    """The `min_tasks` a checkpoint's run was split with (a checkpoint names its tasks by
    index, so a resumed run splits as the first one did, whatever its jobs), or None when
    the file is new or its header cannot be read (Checkpoint says why)."""
    try:
        with open(path, "rb") as handle:
            line = handle.readline(_MAX_HEADER + 1)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise CheckpointError(f"cannot read checkpoint {path}: {exc.strerror or exc}") \
            from None
    if not line.endswith(b"\n"):
        return None
    try:
        header = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if not isinstance(header, dict) or "min_tasks" not in header:
        return None
    value = header["min_tasks"]
    if isinstance(value, bool) or not isinstance(value, int) or \
            not 1 <= value <= 8 * MAX_JOBS:
        raise CheckpointError(f"{path} is damaged: its header's min_tasks is {shown(value)}; "
                              f"expected a whole number from 1 to {8 * MAX_JOBS}")
    return value


class Checkpoint:
    """A JSON-lines file: a header naming the run (and how it was split into tasks), then
    one line per finished task.

    A header for another run, or a complete line that does not parse or whose check does not
    match, is refused with CheckpointError.  The file survives an interruption at any byte:
    a new file gets its header whole or not at all (written aside, then renamed), and a last
    line cut short (an interruption mid-write) is dropped from the file before the resumed
    run appends to it, so only that task is counted again.
    """

    done: Dict[int, int]
    _handle: TextIO

    def __init__(self, path: Union[str, os.PathLike[str]], header: Mapping[str, Any],
                 tasks: Sequence[Task]) -> None:
        self.path = checkpoint_path(path)
        self.header = dict(header, format=CHECKPOINT_FORMAT, tasks=len(tasks),
                           digest=_digest(tasks))
        self.digest = self.header["digest"]
        self.ntasks = len(tasks)
        self.done = {}
        self._lock = threading.Lock()
        self._synced = 0.0
        if os.path.exists(self.path) and os.path.getsize(self.path) > 0:
            end = self._load()
            with open(self.path, "r+b") as handle:
                if handle.seek(0, os.SEEK_END) > end:
                    handle.truncate(end)        # the part of a line cut short
                    os.fsync(handle.fileno())
            self._handle = open(self.path, "a", encoding="utf-8")
        else:
            # the header goes to a file aside, renamed over the path once on the disk
            aside = f"{self.path}.{os.getpid()}.tmp"
            try:
                with open(aside, "w", encoding="utf-8") as handle:
                    handle.write(json.dumps(self.header, sort_keys=True) + "\n")
                    handle.flush()
                    os.fsync(handle.fileno())
                os.replace(aside, self.path)
            finally:
                if os.path.exists(aside):
                    os.unlink(aside)
            self._handle = open(self.path, "a", encoding="utf-8")
            self._synced = time.monotonic()

    def _load(self) -> int:
        """Read the finished tasks; the length in bytes of the file's complete lines."""
        with open(self.path, "rb") as f:
            blob = f.read()
        end = blob.rfind(b"\n") + 1           # text after the last newline was cut short
        try:
            text = blob[:end].decode("utf-8", errors="strict")
        except UnicodeDecodeError:
            raise CheckpointError(f"{self.path} is not a shashki perft checkpoint "
                                  f"(not UTF-8 text)") from None
        complete = text.split("\n")[:-1]
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
            differences = "; ".join(f"{k} {_shown_value(header.get(k))} there, "
                                    f"{_shown_value(self.header.get(k))} here" for k in diff)
            raise CheckpointError(f"{self.path} belongs to another run (its {differences}); "
                                  f"use another file or delete it")
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
        return end

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
    """The outcome of a run: the total, each root move's count, and what it cost: the tasks,
    those `resumed` from a checkpoint, and the leaves `counted` by this run (the total less
    the resumed tasks' leaves; None: all of them)."""
    nodes: int
    divide: Dict[str, int]
    seconds: float
    tasks: int
    resumed: int
    counted: Optional[int] = None

    def __post_init__(self) -> None:
        if self.counted is None:
            self.counted = self.nodes

    @property
    def rate(self) -> float:
        """Leaves counted per second by this run (a resumed task's leaves were counted
        before, and are not in it)."""
        counted = self.nodes if self.counted is None else self.counted
        return counted / self.seconds if self.seconds > 0 else float("inf")


def perft(position: Union[Position, Board], depth: int, paths: bool = False, *,
          jobs: Optional[int] = None, hash_mb: float = 0, executor: Optional[Executor] = None,
          checkpoint: Union[str, os.PathLike[str], None] = None,
          progress: Optional[Progress] = None, table: Optional[PerftTable] = None) -> int:
    """perft(depth) of `position` (or of a Board's position): the count of leaves.

    A tree shallower than PARALLEL_MIN_DEPTH, or `jobs=1`, is counted in this thread; else it
    is split into tasks (see `run` for the arguments).  `table`: a PerftTable to count with in
    this thread, kept between runs of the same game and convention.
    """
    position = _position_of(position)
    depth = check_depth(depth)
    check_options(jobs, hash_mb)
    if checkpoint is not None:
        checkpoint_path(checkpoint)     # a path that cannot be one, refused at once
    if table is not None:
        if hash_mb or executor is not None or checkpoint is not None or \
                progress is not None or jobs not in (None, 1):
            raise PerftError("a perft table is for a single-threaded run: give it without "
                             "hash_mb, jobs, executor, checkpoint or progress")
        count: int = position.count(depth, paths, table)
        return count
    if executor is None and checkpoint is None and progress is None and (
            jobs == 1 or depth < PARALLEL_MIN_DEPTH):
        table = PerftTable(hash_mb, shared=False) if hash_mb else None
        count = position.count(depth, paths, table)
        return count
    return run(position, depth, paths, jobs=jobs, hash_mb=hash_mb, executor=executor,
               checkpoint=checkpoint, progress=progress).nodes


def landing_perft(position: Union[Position, Board], depth: int) -> int:
    """Leaves `depth` plies deep counting every sequence of landing squares as a move of its
    own: a flying king that may land on several squares before it captures on along the same
    line makes one move per square (Position.routes(every_landing=True)), as kish, a turkish
    library, counts.  Neither of perft's conventions does (they count moves, or orders of
    capture); this one is for checking against tables that count so.  Counted a ply at a time
    over the distinct positions, in Python: minutes where perft takes a second.  The positions
    of one level are kept (turkish: a few GB at depth 9); those of the level below it are
    counted as they are made, not kept (kept, depth 11 passed this machine's 24 GB)."""
    start = _position_of(position)
    depth = check_depth(depth)
    if depth <= 1:
        return len(start.routes(every_landing=True)) if depth else 1
    level: Dict[Position, int] = {start: 1}
    for _ in range(depth - 2):
        below: Dict[Position, int] = {}
        for node, weight in level.items():
            for move, count in _landing_moves(node).items():
                child = node.apply(move)
                below[child] = below.get(child, 0) + weight * count
        level = below
    return sum(weight * count * len(node.apply(move).routes(every_landing=True))
               for node, weight in level.items()
               for move, count in _landing_moves(node).items())


def _landing_moves(node: Position) -> Dict[Any, int]:
    """The legal moves of `node`, each with its number of landing sequences."""
    moves: Dict[Any, int] = {}
    for route in node.routes(every_landing=True):
        moves[route] = moves.get(route, 0) + 1      # (a Move is its move's key)
    return moves


def _position_of(given: Union[Position, Board]) -> Position:
    # a Board counts from its position (the runner never needs the history)
    position = getattr(given, "position", given)
    return cast("Position", position)


def check_options(jobs: Optional[int], hash_mb: float) -> None:
    """PerftError unless `jobs` is None or a whole number from 1 to MAX_JOBS;
    InvalidLimitError unless `hash_mb` is a number of MiB from 0 (no table) to
    MAX_HASH_MB (both ShashkiErrors)."""
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int)
                             or not 1 <= jobs <= MAX_JOBS):
        raise PerftError(f"jobs must be a whole number from 1 to {MAX_JOBS}, "
                         f"not {shown(jobs)}")
    check_hash_mb(hash_mb, zero_ok=True)


def check_depth(depth: object) -> int:
    """`depth` as an int; PerftError unless it is a whole number from 0 to MAX_DEPTH."""
    value = as_int(depth)
    if value is None or not 0 <= value <= MAX_DEPTH:
        raise PerftError(f"depth must be a whole number from 0 to {MAX_DEPTH}, "
                         f"not {shown(depth)}")
    return value


def run(position: Union[Position, Board], depth: int, paths: bool = False, *,
        jobs: Optional[int] = None, hash_mb: float = 0, executor: Optional[Executor] = None,
        checkpoint: Union[str, os.PathLike[str], None] = None,
        progress: Optional[Progress] = None) -> PerftResult:
    """Count perft(depth) of `position` (or of a Board's position) and return a
    PerftResult.

    - `jobs`: threads to use (default: all cores); ignored when `executor` is given.
    - `hash_mb`: size of the transposition table in MiB (0: none).  Threads share one table;
      each executor worker process keeps its own.
    - `executor`: any concurrent.futures.Executor, e.g. a ProcessPoolExecutor or
      `dask.distributed.Client(...).get_executor()`.  A task whose future fails there (a
      cluster that loses a worker) is sent again, up to RETRIES (3) times, then its error is
      raised.
    - `checkpoint`: a file path; finished tasks are written there, and a run started again
      with the same file skips them, with any `jobs` or executor (the tasks are those the
      first run split the tree into: its header records how).  CheckpointError before any
      work for a path that cannot be a checkpoint (see checkpoint_path).
    - `progress`: called as progress(done, total, task, count) after each task (`done`
      counts the resumed tasks too); if it has a `set_tasks` method, that is called with the
      list of tasks before the first starts, and then a `resumed` method, if it has one,
      with the tasks resumed from the checkpoint.
    """
    position = _position_of(position)
    depth = check_depth(depth)
    check_options(jobs, hash_mb)
    jobs = cpu_count() if jobs is None else jobs
    variant = position.variant
    start = time.perf_counter()
    path = None if checkpoint is None else checkpoint_path(checkpoint)
    # a checkpoint needs tasks to record, as parallel runs need tasks to share out; a resumed
    # one is split as its first run was
    split_up = executor is not None or jobs > 1 or checkpoint is not None
    min_tasks = max(32, 8 * jobs) if split_up else 1
    if path is not None:
        min_tasks = checkpoint_split(path) or min_tasks
    tasks = split(position, depth, paths, min_tasks=min_tasks)
    done: Dict[int, int] = {}
    store: Optional[Checkpoint] = None
    if path is not None:
        store = Checkpoint(path, {"variant": variant.name, "fen": position.fen(),
                                  "depth": depth, "paths": bool(paths),
                                  "min_tasks": min_tasks}, tasks)
        done.update(store.done)
    announce = getattr(progress, "set_tasks", None)
    if announce is not None:
        announce(tasks)
    resumed = len(done)
    told = getattr(progress, "resumed", None)
    if resumed and told is not None:
        told([t for t in tasks if t.index in done])
    resumed_nodes = sum(done[t.index] * t.weight for t in tasks if t.index in done)
    todo = [t for t in tasks if t.index not in done]
    run_key = (variant.name, bool(paths), os.getpid(), id(tasks), time.time())
    try:
        if executor is None and jobs == 1:
            table = PerftTable(hash_mb, shared=False) if hash_mb else None
            for task in todo:
                count = task.position.count(task.depth, paths, table)
                _finish(task, count, done, store, progress, len(tasks))
        elif executor is None:
            table = PerftTable(hash_mb) if hash_mb else None
            with ThreadPoolExecutor(max_workers=jobs) as pool:
                futures = {pool.submit(t.position.count, t.depth, paths, table): t
                           for t in todo}
                _collect(futures, done, store, progress, len(tasks))
        else:
            def submit(t: Task) -> Future[int]:
                return executor.submit(run_task, (t.position, t.depth, bool(paths), hash_mb,
                                                  run_key))
            _collect({submit(t): t for t in todo}, done, store, progress, len(tasks),
                     resubmit=submit)
    finally:
        if store is not None:
            store.close()
    divide: Dict[str, int] = {}
    for task in tasks:
        if task.prefix:
            divide[task.root_move] = divide.get(task.root_move, 0) + done[task.index] * task.weight
    nodes = sum(done[t.index] * t.weight for t in tasks)
    return PerftResult(nodes, divide, time.perf_counter() - start, len(tasks), resumed,
                       nodes - resumed_nodes)


def _finish(task: Task, count: int, done: Dict[int, int], store: Optional[Checkpoint],
            progress: Optional[Progress], total: int) -> None:
    done[task.index] = count
    if store is not None:
        store.record(task.index, count)
    if progress is not None:
        progress(len(done), total, task, count)


#: how many times a task whose future failed on an executor is sent again
RETRIES = 3


def _collect(futures: Mapping[Future[int], Task], done: Dict[int, int],
             store: Optional[Checkpoint], progress: Optional[Progress], total: int,
             resubmit: Optional[Callable[[Task], Future[int]]] = None) -> None:
    """Each task's count into `done` as its future finishes.  With `resubmit` (an executor's
    tasks), a task whose future fails is sent again, up to RETRIES times: a cluster that loses
    a worker recomputes its tasks, but may also fail a future it had finished (dask's
    concurrent.futures wrapper raises TypeError for a future lost after its result)."""
    batch = dict(futures)
    again: Dict[Future[int], Task] = {}     # the failed tasks sent again, the next batch
    tries: Dict[int, int] = {}
    try:
        while batch:
            for future in as_completed(batch):
                task = batch[future]
                try:
                    count = future.result()
                except Exception:
                    if resubmit is None or tries.get(task.index, 0) >= RETRIES:
                        raise
                    tries[task.index] = tries.get(task.index, 0) + 1
                    again[resubmit(task)] = task
                    continue
                _finish(task, count, done, store, progress, total)
            batch, again = again, {}
    except BaseException:
        for future in [*batch, *again]:
            future.cancel()
        raise
