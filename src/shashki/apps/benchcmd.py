"""`shashki bench`: the build's signature and its speed (shashki.bench).

    shashki bench [--quick] [--json]

Prints the version and the kernels this CPU runs, the leaves and nodes per CPU-second, and
the signature, and says whether the signature is the one this version records.  The status
is 1 when it is not: the install counts differently from the build the version was made on.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from .. import bench, build_info
from .about import version_text
from .args import SubParsers, add_command

__all__ = ["add_parser", "cmd_bench"]


def add_parser(sub: SubParsers) -> None:
    """Register `shashki bench` on the CLI's subparsers."""
    p = add_command(sub, "bench", cmd_bench, help="the build's signature and speed",
                    description="Count a fixed suite (perft of every game's start and two "
                                "middle-game positions, both conventions; engine searches of "
                                "the same positions to a fixed depth) on one thread and print "
                                "the signature (leaves and nodes together, and a hash of "
                                "every count: the same on every build and CPU) and the speed. "
                                "About 10 s; --quick about 1 s.")
    p.add_argument("--quick", action="store_true", help="the quick suite (shallower counts)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")


def _per_second(count: int, seconds: float) -> float:
    return count / seconds if seconds > 0 else 0.0


def cmd_bench(args: argparse.Namespace, out: TextIO) -> int:
    result = bench.run(quick=args.quick)
    info = build_info()
    leaves_rate = _per_second(result.leaves, result.perft_seconds)
    nodes_rate = _per_second(result.nodes, result.search_seconds)
    recorded = bench.RECORDED.get(result.suite)
    if args.json:
        json.dump({"version": info["version"], "code_path": info["code_path"],
                   "cpu": info["cpu"], "suite": result.suite,
                   "signature": result.signature, "recorded": recorded,
                   "matches": result.recorded, "leaves": result.leaves,
                   "nodes": result.nodes, "perft_cpu_seconds": round(result.perft_seconds, 6),
                   "search_cpu_seconds": round(result.search_seconds, 6),
                   "leaves_per_second": round(leaves_rate), "nodes_per_second": round(nodes_rate),
                   "counts": [{"kind": c.kind, "game": c.game, "fen": c.fen, "depth": c.depth,
                               "convention": c.convention, "count": c.count,
                               "cpu_seconds": round(c.seconds, 6)} for c in result.counts]},
                  out, indent=2)
        out.write("\n")
    else:
        perfts = sum(c.kind == "perft" for c in result.counts)
        searches = len(result.counts) - perfts
        print(f"{version_text()}; {result.suite} suite", file=out)
        print(f"perft   {perfts:3} counts   {result.leaves:>13,} leaves "
              f"{result.perft_seconds:7.3f} CPU-s {leaves_rate / 1e6:8.1f} M leaves/s", file=out)
        print(f"search  {searches:3} searches {result.nodes:>13,} nodes  "
              f"{result.search_seconds:7.3f} CPU-s {nodes_rate / 1e6:8.2f} M nodes/s", file=out)
        verdict = ("the recorded one" if result.recorded else
                   f"NOT the recorded {recorded}" if recorded else "none recorded")
        print(f"signature {result.signature} ({verdict})", file=out)
    if not result.recorded:
        print(f"shashki bench: the {result.suite} suite's signature {result.signature} is not "
              f"the one this version records ({recorded or 'none'}): this build counts "
              f"differently", file=sys.stderr)
        return 1
    return 0
