"""The `shashki` command.

    shashki perft VARIANT DEPTH [--fen FEN] [--paths] [--divide] [--jobs N] [--hash MB]
                                [--checkpoint FILE] [--json] [--depth-range A-B]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from typing import (TYPE_CHECKING, Callable, Dict, Iterable, List, Optional, Sequence, TextIO,
                    Tuple, Union)

from .variants import VARIANTS

if TYPE_CHECKING:
    from .board import Board
    from .perft import PerftResult, Task


def _depth(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"depth must be a whole number, not {text!r}") from None
    if not 0 <= value <= 64:
        raise argparse.ArgumentTypeError(f"depth must be between 0 and 64, not {value}")
    return value


def _depth_range(text: str) -> Tuple[int, int]:
    match = re.fullmatch(r"\s*(\d+)\s*-\s*(\d+)\s*", text)
    if not match:
        raise argparse.ArgumentTypeError(f"expected a range of depths such as 1-12, not {text!r}")
    lo, hi = _depth(match.group(1)), _depth(match.group(2))
    if lo > hi:
        raise argparse.ArgumentTypeError(f"empty depth range {text!r}: write the lower first")
    return lo, hi


def _positive(name: str, zero_ok: bool = False) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be a whole number, not {text!r}") \
                from None
        if value < (0 if zero_ok else 1):
            raise argparse.ArgumentTypeError(
                f"{name} must be {'0 or more' if zero_ok else '1 or more'}, not {value}")
        return value
    return parse


def _variant_names() -> List[str]:
    names: List[str] = []
    for v in VARIANTS:
        names.append(v.name)
        names.extend(v.aliases)
    return names


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="shashki", description="Draughts (checkers) rules on a fast Cython core.")
    from . import __version__
    parser.add_argument("--version", action="version", version=f"shashki {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    p = sub.add_parser("perft", help="count the leaves of the move tree",
                       description="Count the leaf nodes of the move tree DEPTH plies deep.")
    p.add_argument("variant", metavar="VARIANT", type=str.lower, choices=_variant_names(),
                   help="russian, giveaway, brazilian, italian or english (or an alias)")
    p.add_argument("depth", metavar="DEPTH", type=_depth, nargs="?",
                   help="plies to search (0-64); or give --depth-range")
    p.add_argument("--fen", help="start from this PDN FEN instead of the start position")
    p.add_argument("--paths", action="store_true",
                   help="count every capture route (keep-duplicates convention)")
    p.add_argument("--divide", action="store_true", help="print the count of each first move")
    p.add_argument("--depth-range", type=_depth_range, metavar="A-B",
                   help="count every depth from A to B and print a table")
    p.add_argument("--jobs", "-j", type=_positive("--jobs"), default=None,
                   help="threads to count with (default: all cores)")
    p.add_argument("--hash", type=_positive("--hash", zero_ok=True), default=0, metavar="MB",
                   help="transposition table size in MiB (default: none)")
    p.add_argument("--checkpoint", metavar="FILE",
                   help="record finished subtasks in FILE and resume from it if it exists")
    p.add_argument("--json", action="store_true",
                   help="print the result as JSON (per-move counts, nodes, time, rate)")
    p.add_argument("--progress", choices=("auto", "on", "off"), default="auto",
                   help="progress bars on stderr (auto: when it is a terminal)")
    p.set_defaults(func=cmd_perft)
    from . import play  # the play and match subcommands (shashki.play, shashki.match)
    play.register(sub)
    from . import hub as _hub  # shashki hub: the Hub protocol (shashki.hub)
    _hub.add_parser(sub)
    return parser


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

    def _bar(self, fraction: float) -> str:
        filled = int(round(fraction * self.width))
        return "#" * filled + "-" * (self.width - filled)

    def draw(self, done: int, total: int) -> None:
        lines: List[str] = []
        for move, count in (self.totals or {}).items():
            got = self.done.get(move, 0)
            lines.append(f"{move or 'root':>14} [{self._bar(got / count)}] {got}/{count}")
        elapsed = time.perf_counter() - self.start
        eta = elapsed * (total - done) / done if done else float("nan")
        lines.append(f"{'all':>14} [{self._bar(done / total)}] {done}/{total}  "
                     f"{elapsed:.1f}s, ETA {eta:.1f}s")
        out = ""
        if self.drawn:
            out += f"\x1b[{self.drawn}F"
        out += "".join(f"\x1b[2K{line}\n" for line in lines)
        self.stream.write(out)
        self.stream.flush()
        self.drawn = len(lines)


def _natural(text: object) -> List[Union[int, str]]:
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", str(text))]


def _count(board: Board, depth: int, args: argparse.Namespace,
           progress: Optional[ProgressBars]) -> PerftResult:
    from . import perft as runner
    if progress is not None:
        progress.set_tasks(runner.split(board, depth, args.paths,
                                        min_tasks=max(32, 8 * (args.jobs or runner.cpu_count()))))
    return runner.run(board, depth, args.paths, jobs=args.jobs, hash_mb=args.hash,
                      checkpoint=args.checkpoint, progress=progress)


def cmd_perft(args: argparse.Namespace, out: TextIO) -> int:
    from .board import Board
    if args.depth is None and args.depth_range is None:
        raise _UsageError("give a DEPTH or --depth-range A-B")
    if args.depth is not None and args.depth_range is not None:
        raise _UsageError("give either DEPTH or --depth-range, not both")
    if args.checkpoint and args.depth_range:
        raise _UsageError("--checkpoint records one depth; it cannot go with --depth-range")
    board = Board(args.variant, fen=args.fen)
    show = args.progress == "on" or (args.progress == "auto" and sys.stderr.isatty())
    convention = "paths" if args.paths else "unique"
    depths: Sequence[int] = (range(args.depth_range[0], args.depth_range[1] + 1)
                             if args.depth_range else [args.depth])
    results: List[Tuple[int, PerftResult, float]] = []
    for depth in depths:
        progress = ProgressBars(sys.stderr) if show and depth >= 6 else None
        start_cpu = time.process_time()
        if depth == 0:
            from .perft import PerftResult
            result = PerftResult(1, {}, 0.0, 0, 0)
        elif args.divide and not args.jobs and not args.hash and not args.checkpoint \
                and depth < 8:
            table = board.divide(depth, paths=args.paths)
            from .perft import PerftResult
            result = PerftResult(sum(table.values()), {str(m): n for m, n in table.items()},
                                 0.0, len(table), 0)
        else:
            result = _count(board, depth, args, progress)
        cpu = time.process_time() - start_cpu
        results.append((depth, result, cpu))
        if args.json or args.depth_range:
            continue
        if args.divide:
            for move in sorted(result.divide, key=_natural):
                print(f"{move}: {result.divide[move]}", file=out)
        print(f"perft {board.variant.name} depth {depth} ({convention}): {result.nodes}",
              file=out)
        cpu_rate = result.nodes / cpu if cpu > 0 else float("inf")
        print(f"time {result.seconds:.3f} s wall, {cpu:.3f} s cpu; "
              f"{result.rate / 1e6:.1f} M leaves/s wall, {cpu_rate / 1e6:.1f} M leaves/CPU-s",
              file=out)
    if args.json:
        rows = [{"variant": board.variant.name, "fen": board.fen(), "depth": depth,
                 "convention": convention, "nodes": r.nodes, "seconds": round(r.seconds, 6),
                 "cpu_seconds": round(cpu, 6), "rate": round(r.rate) if r.seconds else None,
                 "moves": {m: r.divide[m] for m in sorted(r.divide, key=_natural)},
                 "tasks": r.tasks, "resumed_tasks": r.resumed, "jobs": args.jobs,
                 "hash_mb": args.hash} for depth, r, cpu in results]
        json.dump(rows if args.depth_range else rows[0], out, indent=2)
        out.write("\n")
    elif args.depth_range:
        print(f"perft {board.variant.name} ({convention})", file=out)
        print(f"{'depth':>5} {'nodes':>16} {'seconds':>10} {'M leaves/s':>11}", file=out)
        for depth, r, _ in results:
            print(f"{depth:>5} {r.nodes:>16} {r.seconds:>10.3f} {r.rate / 1e6:>11.1f}", file=out)
    return 0


class _UsageError(Exception):
    pass


def main(argv: Optional[Sequence[str]] = None, out: Optional[TextIO] = None) -> int:
    out = out or sys.stdout
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.func(args, out)
        return status
    except _UsageError as exc:
        parser.error(str(exc))
    except (ValueError, OSError) as exc:      # bad input: ShashkiError is a ValueError
        parser.exit(2, f"shashki: error: {exc}\n")
    except MemoryError as exc:
        parser.exit(2, f"shashki: error: {exc or 'out of memory'}; try a smaller --hash\n")
    except KeyboardInterrupt:
        parser.exit(130, "interrupted\n")


if __name__ == "__main__":
    sys.exit(main())
