"""The PDN reader beside pydraughts': games per CPU-second on the real games of shared/games.

    python benchmarks/bench_pdn.py            # best of 5
    python benchmarks/bench_pdn.py --quick    # best of 2

shashki's `read_games` replays every move on a Board (a game only ever holds legal moves);
pydraughts' PDNReader splits the text into tags and move strings and checks nothing.  So two
comparisons, on the same files, in the same run, interleaved (shashki, then the peer, each
round), CPU time of the reading alone, the best round of each:

1. read and replay: shashki's read_games against PDNReader with each move pushed on a
   pydraughts Board, on the lidraughts files (russian, brazilian: pydraughts reads
   PlayStrategy's english dialect as russian, so that file cannot be replayed there);
2. read only, all three files: shashki's read_games (still replaying) against PDNReader
   alone.

pydraughts runs in its own venv, benchmarks/.venvs/pydraughts (benchmarks/peers.py, made on
first use), through benchmarks/peers/pdn_worker.py.  The machines are shared and noisy: read
the ratios of one run, never a bare figure, and never assert a timing in a test.
"""

import argparse
import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import shashki.pdn  # noqa: E402
from peers import WORKER_DIR, ensure_venv  # noqa: E402

#: passes over the files in one round (pdn_worker.py makes as many)
PASSES = 3
LIDRAUGHTS = ("lidraughts-russian.pdn", "lidraughts-brazilian.pdn")
ALL = LIDRAUGHTS + ("playstrategy-english.pdn",)


def games_folder():
    # shared/ beside the repository (as CI lays it), or SHASHKI_SHARED
    env = os.environ.get("SHASHKI_SHARED")
    for folder in ([Path(env)] if env else []) + [HERE.parent.parent / "shared",
                                                  HERE.parent / "shared", Path("/work/shared")]:
        if (folder / "games").is_dir():
            return folder / "games"
    raise SystemExit("no shared/games folder found (set SHASHKI_SHARED)")


def shashki_round(texts):
    """(games, CPU seconds) of read_games over the texts, PASSES times."""
    games = 0
    start = time.process_time()
    for _ in range(PASSES):
        for text in texts:
            for _game in shashki.pdn.read_games(io.StringIO(text)):
                games += 1
    return games, time.process_time() - start


def peer_round(python, paths, replay):
    out = subprocess.run([str(python), str(WORKER_DIR / "pdn_worker.py"), "1" if replay else "0",
                          *map(str, paths)], capture_output=True, text=True, check=True)
    result = json.loads(out.stdout)
    return result["games"], result["cpu"]


def compare(python, folder, names, replay, rounds):
    paths = [folder / name for name in names]
    texts = [p.read_text(encoding="utf-8") for p in paths]
    ours = theirs = 0.0
    for _ in range(rounds):
        games, cpu = shashki_round(texts)
        ours = max(ours, games / cpu)
        games, cpu = peer_round(python, paths, replay)
        theirs = max(theirs, games / cpu)
    return ours, theirs


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="best of 2 rounds, not 5")
    parser.add_argument("--json", help="write the figures to this file")
    args = parser.parse_args(argv)
    rounds = 2 if args.quick else 5
    folder = games_folder()
    python = ensure_venv("pydraughts")
    out = {}
    print(f"games per CPU-second, best of {rounds} interleaved rounds of {PASSES} passes")
    print(f"{'':<44} {'shashki':>9} {'pydraughts':>11} {'ratio':>7}")
    for key, names, replay, label in (
            ("replay", LIDRAUGHTS, True, "read and replay (lidraughts, 34 games)"),
            ("read", ALL, False, "shashki reads, PDNReader splits (64 games)")):
        ours, theirs = compare(python, folder, names, replay, rounds)
        out[key] = {"shashki": ours, "pydraughts": theirs, "ratio": ours / theirs}
        print(f"{label:<44} {ours:>9,.0f} {theirs:>11,.0f} {ours / theirs:>6.1f}x")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
