"""The `shashki` command.

    shashki perft VARIANT DEPTH [--fen FEN] [--paths] [--divide]
"""

import argparse
import sys
import time

from .errors import ShashkiError
from .variants import VARIANTS


def _depth(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"depth must be a whole number, not {text!r}") from None
    if not 0 <= value <= 64:
        raise argparse.ArgumentTypeError(f"depth must be between 0 and 64, not {value}")
    return value


def _variant_names():
    names = []
    for v in VARIANTS:
        names.append(v.name)
        names.extend(v.aliases)
    return names


def build_parser():
    parser = argparse.ArgumentParser(
        prog="shashki", description="Draughts (checkers) rules on a fast Cython core.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    p = sub.add_parser("perft", help="count the leaves of the move tree",
                       description="Count the leaf nodes of the move tree DEPTH plies deep.")
    p.add_argument("variant", metavar="VARIANT", type=str.lower, choices=_variant_names(),
                   help="russian, giveaway, brazilian, italian or english (or an alias)")
    p.add_argument("depth", metavar="DEPTH", type=_depth, help="plies to search (0-64)")
    p.add_argument("--fen", help="start from this PDN FEN instead of the start position")
    p.add_argument("--paths", action="store_true",
                   help="count every capture route (keep-duplicates convention)")
    p.add_argument("--divide", action="store_true", help="print the count of each first move")
    p.set_defaults(func=cmd_perft)
    return parser


def cmd_perft(args, out):
    from .board import Board
    board = Board(args.variant, fen=args.fen)
    start_wall = time.perf_counter()
    start_cpu = time.process_time()
    if args.divide:
        table = board.divide(args.depth, paths=args.paths)
        for move in sorted(table, key=str):
            print(f"{move}: {table[move]}", file=out)
        nodes = sum(table.values()) if args.depth else 1
    else:
        nodes = board.perft(args.depth, paths=args.paths)
    wall = time.perf_counter() - start_wall
    cpu = time.process_time() - start_cpu
    rate = nodes / cpu if cpu > 0 else float("inf")
    convention = "paths" if args.paths else "unique"
    print(f"perft {board.variant.name} depth {args.depth} ({convention}): {nodes}", file=out)
    print(f"time {wall:.3f} s wall, {cpu:.3f} s cpu; {rate / 1e6:.1f} M leaves/s", file=out)
    return 0


def main(argv=None, out=None):
    out = out or sys.stdout
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args, out)
    except ShashkiError as exc:
        parser.exit(2, f"shashki: error: {exc}\n")
    except KeyboardInterrupt:
        parser.exit(130, "interrupted\n")


if __name__ == "__main__":
    sys.exit(main())
