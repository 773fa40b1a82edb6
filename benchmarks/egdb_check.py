"""Spot checks of the endgame databases against the search, and their verification.

    python benchmarks/egdb_check.py russian 5 [--dir FOLDER] [--positions 400] [--depth 14]

1. `shashki.egdb.verify`: every position of every table against its successors' values
   (skipped with --no-verify).
2. Random positions of `pieces` pieces: the search without the databases, to `--depth`; where
   it finds a forced result (a win or loss it can see to the end), the databases must give the
   same.  The other way round cannot be checked this way: a database win may be far beyond
   the search's horizon.
"""

import argparse
import sys
import time

import shashki
from shashki import egdb
from shashki.engine import Engine
from shashki.variants import get_variant


def main(argv):
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("variant")
    p.add_argument("pieces", type=int)
    p.add_argument("--dir")
    p.add_argument("--positions", type=int, default=400)
    p.add_argument("--depth", type=int, default=14)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--no-verify", action="store_true")
    args = p.parse_args(argv)
    variant = get_variant(args.variant)
    tables = egdb.open_tables(variant, args.dir)
    if not args.no_verify:
        start = time.time()
        checked, bad = tables.verify(args.pieces)
        print(f"verify: {checked:,} positions of up to {args.pieces} pieces checked against "
              f"their successors, {len(bad)} disagree ({time.time() - start:.0f} s)")
        for line in bad[:10]:
            print("  ", line)
    engine = Engine(variant, 16, egdb=False)
    found = agree = 0
    values = {1: 0, 0: 0, -1: 0}
    start = time.time()
    for board in egdb.sample_boards(variant, args.pieces, args.positions, args.seed):
        wdl, _ = tables.probe(board)
        values[wdl] += 1
        score = engine.search(board, depth=args.depth).score
        if score.win_in is not None:
            found += 1
            if wdl == (1 if score.win_in > 0 else -1):
                agree += 1
            else:
                print(f"  disagree: {board.fen()} egdb {wdl}, search {score}")
    print(f"search to depth {args.depth} on {args.positions} random positions of "
          f"{args.pieces} pieces ({values[1]} won, {values[0]} drawn, {values[-1]} lost by "
          f"the databases): {found} forced results found, {agree} agree "
          f"({time.time() - start:.0f} s)")
    return 0 if found == agree else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
