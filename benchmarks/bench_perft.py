"""Perft benchmark: shashki beside the native yardstick and its peers, in one run.

    python benchmarks/bench_perft.py              # everything (several minutes)
    python benchmarks/bench_perft.py --quick      # smaller depths
    python benchmarks/bench_perft.py --no-peers --no-scale   # the yardstick tables only

1. shashki against ../shared/anchors/dperft.c (a plain C perft, compiled here with gcc -O3
   -march=native): one thread, bulk counting, no hash, the paths convention, interleaved, best
   of 3, CPU seconds; the ratio is shashki's leaves per CPU-second over the C program's.
2. The conventions and games against one another: unique against paths, italian and giveaway
   against russian.
3. Hashed perft against the C program with the same table size (512 MiB).
4. The search's nodes per CPU-second from each game's start position.
5. The same positions in py-draughts and pydraughts (each in its own venv under
   benchmarks/.venvs, created on first use), and the modes at scale (threads, processes).

The machines are shared and noisy: read the ratios of one run, never a bare figure, and never
assert a timing in a test.
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
from yardstick import Yardstick  # noqa: E402

# (variant, depth): the games the yardstick plays, at the depths of the issue
YARDSTICK = [("english", 12), ("russian", 11), ("brazilian", 11), ("international", 10)]
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
REPEATS = 3


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


def shashki_perft(variant, depth, paths, hash_mb=0):
    """(leaves, CPU seconds) of one single-threaded perft of the start position.  With
    `hash_mb`, the table is set up and cleared before the clock starts, as the C program
    clears its own."""
    board = shashki.Board(variant)
    table = runner.PerftTable(hash_mb, shared=False) if hash_mb else None
    if table is not None:
        table.clear()           # touches every page: the first touch is the system's work
    start = time.process_time()
    n = board.perft(depth, paths, jobs=1, table=table)
    return n, time.process_time() - start


def best_of(runs):
    """The run with the least CPU time of (leaves, CPU seconds) runs (all counts equal)."""
    counts = {n for n, _ in runs}
    assert len(counts) == 1, f"counts differ between runs: {counts}"
    return min(runs, key=lambda r: r[1])


def against_yardstick(ys, quick):
    print(f"1. shashki against the native yardstick (dperft.c): one thread, no hash, paths, "
          f"best of {REPEATS}, interleaved")
    print(f"{'game':<13} {'depth':>5} {'leaves':>13} {'shashki M/CPU-s':>16} {'C M/CPU-s':>10} "
          f"{'ratio':>6}")
    rows = []
    for variant, depth in YARDSTICK:
        depth -= 2 if quick else 0
        ours, theirs = [], []
        for _ in range(REPEATS):
            ours.append(shashki_perft(variant, depth, True))
            theirs.append(ys.perft(variant, depth))
        (n, cpu), (m, ccpu) = best_of(ours), best_of(theirs)
        assert n == m, f"{variant} {depth}: shashki {n}, the yardstick {m}"
        rate, crate = n / cpu / 1e6, n / ccpu / 1e6
        print(f"{variant:<13} {depth:>5} {n:>13,} {rate:>16.0f} {crate:>10.0f} {rate / crate:>6.2f}")
        rows.append({"variant": variant, "depth": depth, "leaves": n, "cpu": cpu,
                     "c_cpu": ccpu, "ratio": rate / crate})
    return rows


def conventions(quick):
    print(f"\n2. conventions and games (one thread, no hash, best of {REPEATS}, interleaved)")
    print(f"{'game':<10} {'depth':>5} {'unique M/CPU-s':>15} {'paths M/CPU-s':>14} "
          f"{'unique/paths':>13} {'unique/russian':>15}")
    cases = [("russian", 11), ("brazilian", 11), ("english", 12), ("italian", 11),
             ("giveaway", 11)]
    rates = {}
    rows = []
    for variant, depth in cases:
        depth -= 2 if quick else 0
        unique, paths = [], []
        for _ in range(REPEATS):
            unique.append(shashki_perft(variant, depth, False))
            paths.append(shashki_perft(variant, depth, True))
        (n, cpu), (m, pcpu) = best_of(unique), best_of(paths)
        rates[variant] = n / cpu / 1e6
        prate = m / pcpu / 1e6
        row = {"variant": variant, "depth": depth, "unique_mrate": rates[variant],
               "paths_mrate": prate, "unique_over_paths": rates[variant] / prate,
               "over_russian": rates[variant] / rates["russian"]}
        print(f"{variant:<10} {depth:>5} {rates[variant]:>15.0f} {prate:>14.0f} "
              f"{row['unique_over_paths']:>13.2f} {row['over_russian']:>15.2f}")
        rows.append(row)
    return rows


def hashed(ys, quick):
    depth = 12 if quick else 14
    print(f"\n3. hashed perft: english {depth} paths, one thread, 512 MiB each (the C program's "
          f"2^24 entries of 32 bytes), the table cleared before the clock starts on both sides, "
          f"best of {REPEATS}, interleaved")
    ours, theirs = [], []
    for _ in range(REPEATS):
        ours.append(shashki_perft("english", depth, True, hash_mb=512))
        theirs.append(ys.perft("english", depth, hash_bits=24))
    (n, cpu), (m, ccpu) = best_of(ours), best_of(theirs)
    assert n == m, f"english {depth}: shashki {n}, the yardstick {m}"
    print(f"{'leaves':>15} {'shashki CPU s':>14} {'C CPU s':>8} {'ratio':>6}")
    print(f"{n:>15,} {cpu:>14.2f} {ccpu:>8.2f} {ccpu / cpu:>6.2f}")
    return {"depth": depth, "leaves": n, "cpu": cpu, "c_cpu": ccpu, "ratio": ccpu / cpu}


def search_speed(quick):
    from shashki import engine
    depth = 9 if quick else 11
    print(f"\n4. the search: nodes per CPU-second, depth {depth} from each start position")
    print(f"{'game':<10} {'nodes':>10} {'CPU s':>7} {'M nodes/CPU-s':>14}")
    rows = []
    for variant in ("russian", "brazilian", "italian", "english", "giveaway"):
        best = None
        for _ in range(REPEATS):
            board = shashki.Board(variant)
            eng = engine.Engine(variant)
            start = time.process_time()
            result = eng.search(board, depth=depth)
            cpu = time.process_time() - start
            if best is None or cpu < best[1]:
                best = (result.nodes, cpu)
        nodes, cpu = best
        print(f"{variant:<10} {nodes:>10} {cpu:>7.2f} {nodes / cpu / 1e6:>14.2f}")
        rows.append({"variant": variant, "depth": depth, "nodes": nodes, "cpu": cpu})
    return rows


def peers(peer_names, quick):
    sys.path.insert(0, str(HERE))
    from peers import PeerError, PeerTimeout, peer_perft
    rows = []
    print("\n5. the same positions and depth in the peers (CPU seconds of the count only)")
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
    print("\n6. shashki perft at scale: threads and processes")
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
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller depths")
    parser.add_argument("--no-peers", action="store_true", help="without py-draughts and pydraughts")
    parser.add_argument("--peers", default="py-draughts,pydraughts",
                        help="comma-separated peers (default: both)")
    parser.add_argument("--no-scale", action="store_true", help="skip threads and processes")
    parser.add_argument("--no-search", action="store_true", help="skip the search's speed")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    out = {}
    ys = Yardstick.find()
    if ys is None:
        print("the native yardstick is not here (../shared/anchors/dperft.c, or SHASHKI_SHARED, "
              "and gcc): its tables are skipped\n")
    else:
        out["yardstick"] = against_yardstick(ys, args.quick)
    out["conventions"] = conventions(args.quick)
    if ys is not None:
        out["hashed"] = hashed(ys, args.quick)
    if not args.no_search:
        out["search"] = search_speed(args.quick)
    if not args.no_peers:
        out["peers"] = peers([p for p in args.peers.split(",") if p], args.quick)
    if not args.no_scale:
        out["scale"] = scale(args.quick)
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
