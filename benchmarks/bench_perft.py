"""Perft benchmark: shashki side by side with its peers, in one run.

    python benchmarks/bench_perft.py              # everything (a few minutes)
    python benchmarks/bench_perft.py --quick      # smaller depths, no deep hash runs
    python benchmarks/bench_perft.py --no-peers   # shashki only

Prints leaves per CPU-second per game for shashki (one thread, bulk counting, no hash: the
issue-2 target is 100 M/CPU-s for english depth 12 paths and russian/brazilian depth 11),
then the same positions in py-draughts and pydraughts (each in its own venv under
benchmarks/.venvs, created on first use) with the ratio shashki/peer measured at the same
depth on the same position, then the issue-4 modes: all threads, and the 512 MiB hash table.
The machines are shared and noisy: read ratios, and never assert a timing in a test.
"""

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import shashki  # noqa: E402
from shashki import perft as runner  # noqa: E402

# (variant, depth, paths): the issue-2 targets and their siblings
HEADLINE = [("english", 12, True), ("russian", 11, False), ("brazilian", 11, False),
            ("italian", 11, False), ("giveaway", 11, False)]
# a few middle-game positions with kings and captures, besides the start
POSITIONS = {
    "russian": ["W:Wa1,c1,e1,b2,f2,h2,c3,e3,g3,d4:Bb6,d6,f6,a7,c7,e7,g7,b8,d8,h8",
                "W:WKa1,c3,e3,g3,d2:Bf6,d6,Kh8,b6,e7"],
    "brazilian": ["W:Wa1,c1,e1,b2,f2,h2,c3,e3,g3,d4:Bb6,d6,f6,a7,c7,e7,g7,b8,d8,h8"],
    "italian": ["W:W21,22,23,25,26,28,29,30,31,32,18:B1,2,3,4,5,6,7,9,10,12,15"],
    "english": ["B:W21,22,23,24,25,26,27,28,29,30,31,18:B1,2,3,4,5,6,7,8,9,10,11,14"],
}
# depth at which each peer takes about a second or two
PEER_DEPTH = {"py-draughts": 7, "pydraughts": 5}


def cpu_rate(fn, min_seconds=0.3):
    """(result, CPU seconds per call), repeating fn until it took min_seconds of CPU."""
    calls = 0
    start = time.process_time()
    while True:
        result = fn()
        calls += 1
        spent = time.process_time() - start
        if spent >= min_seconds:
            return result, spent / calls


def headline(quick):
    print("shashki, one thread, bulk counting, no hash (target: 100 M leaves/CPU-s)")
    print(f"{'game':<10} {'depth':>5} {'conv':>6} {'leaves':>13} {'CPU s':>8} {'M/CPU-s':>9}")
    rows = []
    for variant, depth, paths in HEADLINE:
        if quick:
            depth -= 2
        board = shashki.Board(variant)
        start = time.process_time()
        n = board.perft(depth, paths, jobs=1)
        cpu = time.process_time() - start
        rate = n / cpu / 1e6
        rows.append({"variant": variant, "depth": depth, "paths": paths, "leaves": n,
                     "cpu": cpu, "mrate": rate})
        print(f"{variant:<10} {depth:>5} {'paths' if paths else 'unique':>6} {n:>13} "
              f"{cpu:>8.2f} {rate:>9.1f}")
    return rows


def peers(peer_names, quick):
    sys.path.insert(0, str(HERE))
    from peers import PeerError, PeerTimeout, peer_perft
    rows = []
    print("\nthe same positions and depth in the peers (CPU seconds of the count only)")
    print(f"{'peer':<12} {'game':<10} {'d':>2} {'leaves':>9} {'peer M/s':>9} "
          f"{'shashki M/s':>12} {'ratio':>8}  position")
    for peer in peer_names:
        for variant in ("russian", "brazilian", "italian", "english", "giveaway"):
            fens = [shashki.Board(variant).fen()] + POSITIONS.get(variant, [])[: 1 if quick else 2]
            for fen in fens:
                depth = PEER_DEPTH[peer] - (1 if quick else 0)
                try:
                    got = peer_perft(peer, variant, fen, depth, timeout=600)
                except (PeerError, PeerTimeout) as exc:
                    print(f"{peer:<12} {variant:<10} {depth:>2} failed: {exc}")
                    continue
                if got is None:
                    print(f"{peer:<12} {variant:<10}  -- no such game in {peer}")
                    break
                board = shashki.Board(variant, fen)
                paths = got["convention"] == "paths"
                n, per_call = cpu_rate(lambda: board.perft(depth, paths, jobs=1))
                ours = n / per_call / 1e6
                theirs = got["count"] / got["seconds"] / 1e6 if got["seconds"] else float("nan")
                same = n == got["count"]
                note = "" if same else f"  (counts differ: {got['count']} vs {n}" \
                    f"{'; ' + '; '.join(got.get('notes', [])) if got.get('notes') else ''})"
                print(f"{peer:<12} {variant:<10} {depth:>2} {got['count']:>9} {theirs:>9.3f} "
                      f"{ours:>12.1f} {ours / theirs:>8.0f}x  {fen[:40]}{note}")
                rows.append({"peer": peer, "variant": variant, "fen": fen, "depth": depth,
                             "peer_leaves": got["count"], "peer_cpu": got["seconds"],
                             "shashki_mrate": ours, "peer_mrate": theirs,
                             "ratio": ours / theirs, "same_count": same})
    return rows


def scale(quick):
    print("\nshashki perft at scale (issue 4): threads and the 512 MiB hash table")
    print(f"{'mode':<28} {'game':<8} {'d':>2} {'leaves':>13} {'wall s':>8} {'CPU s':>8} "
          f"{'speed-up':>9}")
    rows = []
    jobs = runner.cpu_count()
    cases = [("english", 12 if quick else 13, True), ("russian", 11 if quick else 12, False)]
    for variant, depth, paths in cases:
        board = shashki.Board(variant)
        base = None
        for label, kwargs in (("1 thread", {"jobs": 1}), (f"{jobs} threads", {"jobs": jobs}),
                              (f"{jobs} processes", {"processes": jobs})):
            start, cpu0 = time.perf_counter(), time.process_time()
            if "processes" in kwargs:
                from concurrent.futures import ProcessPoolExecutor
                with ProcessPoolExecutor(kwargs["processes"]) as pool:
                    start = time.perf_counter()
                    n = board.perft(depth, paths, executor=pool)
            else:
                n = board.perft(depth, paths, **kwargs)
            wall, cpu = time.perf_counter() - start, time.process_time() - cpu0
            base = base or wall
            print(f"{label:<28} {variant:<8} {depth:>2} {n:>13} {wall:>8.2f} {cpu:>8.2f} "
                  f"{base / wall:>8.2f}x")
            rows.append({"mode": label, "variant": variant, "depth": depth, "leaves": n,
                         "wall": wall, "cpu": cpu})
    targets = [("english", 14, True, 6.0), ("russian", 13, True, 4.0)]
    for variant, depth, paths, target in targets:
        if quick:
            depth -= 2
        board = shashki.Board(variant)
        start, cpu0 = time.perf_counter(), time.process_time()
        n = board.perft(depth, paths, jobs=1, hash_mb=512)
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu0
        print(f"{'1 thread, 512 MiB hash':<28} {variant:<8} {depth:>2} {n:>13} {wall:>8.2f} "
              f"{cpu:>8.2f}   (target < {target:.0f} CPU-s at full depth)")
        rows.append({"mode": "hash512", "variant": variant, "depth": depth, "leaves": n,
                     "wall": wall, "cpu": cpu})
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller depths")
    parser.add_argument("--no-peers", action="store_true", help="shashki only")
    parser.add_argument("--peers", default="py-draughts,pydraughts",
                        help="comma-separated peers (default: both)")
    parser.add_argument("--no-scale", action="store_true", help="skip the issue-4 modes")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    out = {"headline": headline(args.quick)}
    if not args.no_peers:
        out["peers"] = peers([p for p in args.peers.split(",") if p], args.quick)
    if not args.no_scale:
        out["scale"] = scale(args.quick)
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
