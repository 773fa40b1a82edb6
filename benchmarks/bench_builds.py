"""Two builds of shashki side by side: the same work in each, interleaved, CPU seconds.

    python benchmarks/bench_builds.py OTHER_PYTHON [--rounds 3] [--quick]

OTHER_PYTHON is the interpreter of a venv holding the other build (an earlier commit,
installed with `pip install -e .` in its own checkout).  Each workload runs in a fresh process
of each interpreter in turn, `--rounds` times; the figure of a workload is the best (least)
CPU time of its rounds, and the ratio is the other build's over this one's: above 1, this
build is faster.  The workloads use only the API both builds have (Board, perft, playouts):

- perft: one thread, no table, from the start (english 13, russian 12, brazilian 12,
  international 10, frisian 8);
- board: random games played from Python with list(legal_moves), random.choice, push and
  outcome every ply (the loop of bench_api.py);
- playouts: shashki.playouts on one thread.

The machines are shared and noisy: only the ratios of one run mean anything.
"""

import argparse
import json
import subprocess
import sys

PERFT = [("english", 13), ("russian", 12), ("brazilian", 12), ("international", 10),
         ("frisian", 8)]
BOARD = ["russian", "english", "international"]
PLAYOUTS = [("russian", 200_000), ("english", 200_000), ("international", 50_000)]

WORKER = r"""
import json, random, resource, sys
import shashki
kind, game, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
if kind == "perft":
    board = shashki.Board(game)
    start = cpu()
    count = board.perft(size, jobs=1)
elif kind == "board":
    rng = random.Random(1)
    start = cpu()
    count = 0
    for _ in range(size):
        board = shashki.Board(game)
        while board.outcome() is None and len(board.move_stack) < 300:
            board.push(rng.choice(list(board.legal_moves)))
            count += 1
else:
    start = cpu()
    count = shashki.playouts(game, size, seed=1, jobs=1).plies
print(json.dumps([cpu() - start, count]))
"""


def run(python, kind, game, size):
    out = subprocess.run([python, "-c", WORKER, kind, game, str(size)], capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("other", help="the python of a venv holding the other build")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="smaller workloads")
    args = parser.parse_args(argv)
    work = [("perft", g, d - (2 if args.quick else 0)) for g, d in PERFT]
    work += [("board", g, 300 if args.quick else 1500) for g in BOARD]
    work += [("playouts", g, n // (4 if args.quick else 1)) for g, n in PLAYOUTS]
    print(f"{'workload':<28} {'this s':>9} {'other s':>9} {'other/this':>10}")
    for kind, game, size in work:
        best = {sys.executable: None, args.other: None}
        counts = set()
        for _ in range(args.rounds):
            for python in best:
                seconds, count = run(python, kind, game, size)
                counts.add(count)
                best[python] = seconds if best[python] is None else min(best[python], seconds)
        this, other = best[sys.executable], best[args.other]
        same = "" if len(counts) == 1 else "  (the builds count differently!)"
        print(f"{kind + ' ' + game + ' ' + str(size):<28} {this:9.3f} {other:9.3f} "
              f"{other / this:10.2f}{same}", flush=True)


if __name__ == "__main__":
    main()
