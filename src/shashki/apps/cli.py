"""The `shashki` command: the perft counter here, and the subcommands of the other front ends.

    shashki perft VARIANT [DEPTH] [--fen FEN] [--paths] [--divide] [--depth-range A-B]
                  [--jobs N] [--hash MB] [--checkpoint FILE] [--json] [--progress auto|on|off]
    shashki play VARIANT ...        (shashki.apps.play)
    shashki match A B ...           (shashki.apps.match)
    shashki hub ...                 (shashki.apps.hub)
    shashki egdb build|verify|probe|info ...   (shashki.apps.egdbcmd)
    shashki serve [--host H] [--port P]        (shashki.apps.serve: the board in a browser)
    shashki bench [--quick] [--json]           (shashki.apps.benchcmd: signature and speed)
    shashki dxp [--port N] [--movetime S]      (shashki.apps.dxp: the engine over DXP)
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Dict, Iterable, List, Optional, Sequence, TextIO, Tuple

from .._text import natural_key
from .. import perft as runner
from ..board import Board
from ..limits import MAX_HASH_MB
from ..perft import PerftResult, Task
from . import benchcmd, dxp, egdbcmd, hub, match, play, serve
from .about import version_text
from .args import SubParsers, add_command, add_variant, depth_range, whole

__all__ = ["ProgressBars", "UsageError", "build_parser", "cmd_perft", "main"]

#: a time shorter than this (seconds), or than its clock's resolution, is too short to turn
#: into a rate of leaves
MIN_RATED_SECONDS = 0.001


class UsageError(Exception):
    """Arguments that parse one by one but do not go together: the command's usage is
    printed with the message, and the status is 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="shashki", description="Draughts (checkers) rules on a fast Cython core.")
    parser.add_argument("--version", action="version", version=version_text())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    _add_perft(sub)
    play.add_parser(sub)
    match.add_parser(sub)
    hub.add_parser(sub)
    egdbcmd.add_parser(sub)
    serve.add_parser(sub)
    benchcmd.add_parser(sub)
    dxp.add_parser(sub)
    return parser


def _add_perft(sub: SubParsers) -> None:
    p = add_command(sub, "perft", cmd_perft, help="count the leaves of the move tree",
                    description="Count the leaf nodes of the move tree DEPTH plies deep.")
    add_variant(p)
    p.add_argument("depth", metavar="DEPTH", type=whole("DEPTH", 0, runner.MAX_DEPTH),
                   nargs="?", help=f"plies to search (0-{runner.MAX_DEPTH}); or give "
                                   f"--depth-range")
    p.add_argument("--fen", help="start from this PDN FEN instead of the start position")
    p.add_argument("--paths", action="store_true",
                   help="count every capture route (keep-duplicates convention)")
    p.add_argument("--divide", action="store_true", help="print the count of each first move")
    p.add_argument("--depth-range", type=depth_range(runner.MAX_DEPTH), metavar="A-B",
                   help="count every depth from A to B and print a table")
    p.add_argument("--jobs", "-j", type=whole("--jobs", 1, runner.MAX_JOBS), default=None,
                   help="threads to count with (default: all cores)")
    p.add_argument("--hash", type=whole("--hash", 0, MAX_HASH_MB), default=0, metavar="MB",
                   help="transposition table size in MiB (default: none)")
    p.add_argument("--checkpoint", metavar="FILE",
                   help="record finished subtasks in FILE and resume from it if it exists")
    p.add_argument("--json", action="store_true",
                   help="print the result as JSON (per-move counts, nodes, time, rate)")
    p.add_argument("--progress", choices=("auto", "on", "off"), default="auto",
                   help="progress bars on stderr (auto: when it is a terminal)")


class ProgressBars:
    """A bar per root move and an overall line with the ETA, redrawn in place on stderr."""

    totals: Optional[Dict[str, int]]
    done: Dict[str, int]

    def __init__(self, stream: TextIO, width: int = 24) -> None:
        self.stream = stream
        self.width = width
        self.start = time.perf_counter()
        self.totals = None
        self.done = {}
        self.drawn = 0
        self.last = 0.0
        self.resumed_tasks = 0      # tasks done before this run, read from a checkpoint

    def __call__(self, done: int, total: int, task: Task, count: int) -> None:
        if self.totals is None:
            self.totals = {}
        self.done[task.root_move] = self.done.get(task.root_move, 0) + 1
        now = time.perf_counter()
        if done == total or now - self.last > 0.1:
            self.last = now
            self.draw(done, total)

    def set_tasks(self, tasks: Iterable[Task]) -> None:
        self.totals = {}
        for task in tasks:
            self.totals[task.root_move] = self.totals.get(task.root_move, 0) + 1

    def resumed(self, tasks: Sequence[Task]) -> None:
        """The tasks a checkpoint already holds: their bars start filled, and the ETA is
        reckoned from the tasks counted now."""
        self.resumed_tasks = len(tasks)
        for task in tasks:
            self.done[task.root_move] = self.done.get(task.root_move, 0) + 1

    def _bar(self, fraction: float) -> str:
        filled = int(round(fraction * self.width))
        return "#" * filled + "-" * (self.width - filled)

    def draw(self, done: int, total: int) -> None:
        lines: List[str] = []
        for move, count in (self.totals or {}).items():
            got = self.done.get(move, 0)
            lines.append(f"{move or 'root':>14} [{self._bar(got / count)}] {got}/{count}")
        elapsed = time.perf_counter() - self.start
        counted = done - self.resumed_tasks
        eta = elapsed * (total - done) / counted if counted else float("nan")
        resumed = f"  (resumed {self.resumed_tasks} of {total} tasks)" \
            if self.resumed_tasks else ""
        lines.append(f"{'all':>14} [{self._bar(done / total)}] {done}/{total}  "
                     f"{elapsed:.1f}s, ETA {eta:.1f}s{resumed}")
        out = ""
        if self.drawn:
            out += f"\x1b[{self.drawn}F"
        out += "".join(f"\x1b[2K{line}\n" for line in lines)
        self.stream.write(out)
        self.stream.flush()
        self.drawn = len(lines)


# the resolutions of the clocks the times are taken on
_WALL = time.get_clock_info("perf_counter").resolution
_CPU = time.get_clock_info("process_time").resolution


def _measurable(seconds: float, resolution: float = _WALL) -> bool:
    """Whether a time taken on a clock of `resolution` is long enough for a rate: at least
    MIN_RATED_SECONDS and the clock's resolution."""
    return seconds >= max(MIN_RATED_SECONDS, resolution)


def _seconds(seconds: float) -> str:
    # three decimals, or three significant digits below a tenth of a second
    return f"{seconds:.3f}" if seconds >= 0.1 else f"{seconds:.3g}"


def _rate(nodes: int, seconds: float, unit: str, resolution: float = _WALL) -> Optional[str]:
    """The rate of leaves per second as text, or None for a time too short to tell."""
    if not _measurable(seconds, resolution):
        return None
    return f"{nodes / seconds / 1e6:.3g} M leaves/{unit}"


def _count(board: Board, depth: int, args: argparse.Namespace,
           progress: Optional[ProgressBars]) -> Tuple[PerftResult, int]:
    """The count, and the threads it ran on (--jobs, all cores by default, at most one a
    task; one where it is counted in this thread)."""
    start = time.perf_counter()
    if depth == 0:
        return PerftResult(1, {}, time.perf_counter() - start, 0, 0), 1
    if args.divide and not args.jobs and not args.hash and not args.checkpoint and depth < 8:
        table = board.divide(depth, paths=args.paths)
        return PerftResult(sum(table.values()), {str(m): n for m, n in table.items()},
                           time.perf_counter() - start, len(table), 0), 1
    jobs: int = args.jobs or runner.cpu_count()
    result = runner.run(board, depth, args.paths, jobs=jobs, hash_mb=args.hash,
                        checkpoint=args.checkpoint, progress=progress)
    return result, max(1, min(jobs, result.tasks - result.resumed))


def cmd_perft(args: argparse.Namespace, out: TextIO) -> int:
    if args.depth is None and args.depth_range is None:
        raise UsageError("give a DEPTH or --depth-range A-B")
    if args.depth is not None and args.depth_range is not None:
        raise UsageError("give either DEPTH or --depth-range, not both")
    if args.checkpoint and args.depth_range:
        raise UsageError("--checkpoint records one depth; it cannot go with --depth-range")
    if args.divide and args.depth_range:
        raise UsageError("--divide counts each first move at one depth; it cannot go with "
                         "--depth-range (give a DEPTH)")
    board = Board(args.variant, fen=args.fen)
    show = args.progress == "on" or (args.progress == "auto" and sys.stderr.isatty())
    convention = "paths" if args.paths else "unique"
    depths: Sequence[int] = (range(args.depth_range[0], args.depth_range[1] + 1)
                             if args.depth_range else [args.depth])
    results: List[Tuple[int, PerftResult, float, int]] = []
    for depth in depths:
        progress = ProgressBars(sys.stderr) if show and depth >= 6 else None
        start_cpu = time.process_time()
        result, jobs = _count(board, depth, args, progress)
        cpu = time.process_time() - start_cpu
        results.append((depth, result, cpu, jobs))
        if args.json or args.depth_range:
            continue
        if args.divide:
            for move in sorted(result.divide, key=natural_key):
                print(f"{move}: {result.divide[move]}", file=out)
        print(f"perft {board.variant.name} depth {depth} ({convention}): {result.nodes}",
              file=out)
        counted = result.nodes if result.counted is None else result.counted
        if result.resumed:
            print(f"resumed {result.resumed} of {result.tasks} tasks from the checkpoint "
                  f"({result.nodes - counted} leaves); {counted} leaves counted now",
                  file=out)
        rates = [r for r in (_rate(counted, result.seconds, "s wall"),
                             _rate(counted, cpu, "CPU-s", _CPU)) if r] if counted else []
        print(f"time {_seconds(result.seconds)} s wall, {_seconds(cpu)} s cpu; "
              + (", ".join(rates) if rates else
                 "nothing counted now" if not counted else
                 "too fast to measure a rate"), file=out)
    if args.json:
        rows = [{"variant": board.variant.name, "fen": board.fen(), "depth": depth,
                 "convention": convention, "nodes": r.nodes, "seconds": round(r.seconds, 6),
                 "cpu_seconds": round(cpu, 6),
                 "rate": round(r.rate) if _measurable(r.seconds) and r.counted else None,
                 "moves": {m: r.divide[m] for m in sorted(r.divide, key=natural_key)},
                 "tasks": r.tasks, "resumed_tasks": r.resumed,
                 "counted": r.nodes if r.counted is None else r.counted,
                 "jobs": jobs,
                 "hash_mb": args.hash} for depth, r, cpu, jobs in results]
        json.dump(rows if args.depth_range else rows[0], out, indent=2)
        out.write("\n")
    elif args.depth_range:
        print(f"perft {board.variant.name} ({convention})", file=out)
        print(f"{'depth':>5} {'nodes':>16} {'seconds':>10} {'M leaves/s':>11}", file=out)
        for depth, r, _, _ in results:
            rate = f"{r.rate / 1e6:.1f}" if _measurable(r.seconds) and r.counted else "-"
            print(f"{depth:>5} {r.nodes:>16} {r.seconds:>10.3f} {rate:>11}", file=out)
    return 0


def main(argv: Optional[Sequence[str]] = None, out: Optional[TextIO] = None) -> int:
    out = out or sys.stdout
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.func(args, out)
        return status
    except UsageError as exc:
        command: argparse.ArgumentParser = args.parser
        command.error(str(exc))             # with the usage of the subcommand
    except (ValueError, OSError) as exc:      # bad input: ShashkiError is a ValueError
        parser.exit(2, f"shashki: error: {exc}\n")
    except MemoryError as exc:
        parser.exit(2, f"shashki: error: {exc or 'out of memory'}; try a smaller --hash\n")
    except KeyboardInterrupt:
        parser.exit(130, "interrupted\n")


if __name__ == "__main__":
    sys.exit(main())
