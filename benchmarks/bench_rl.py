"""Random playouts for learning systems: shashki.playouts (C, no GIL) beside the loops a user
would write from Python.

    python benchmarks/bench_rl.py              # every game, with OpenSpiel (minutes)
    python benchmarks/bench_rl.py --quick      # shorter runs
    python benchmarks/bench_rl.py --no-peers   # shashki only
    python benchmarks/bench_rl.py --games russian english
    python benchmarks/bench_rl.py --records    # also with every ply's position and action kept

For each game, in one run and on one core (jobs=1, CPU time of the loop alone):

- shashki.playouts(game, n, jobs=1): n random games to their end in C;
- shashki's Board loop from Python (bench_api.shashki_playouts: list(legal_moves),
  random.choice, push, outcome() each ply);
- OpenSpiel's C++ `checkers` driven from Python (benchmarks/peers/playouts_worker.py in its own
  venv): legal_actions(), random.choice, apply_action(), is_terminal().  OpenSpiel plays
  english-like checkers; each jump of a multi-capture is an action there, counted as a ply, so
  its figure is if anything flattering.  The ratio is taken against shashki's english games.

The playouts play by the same rules as the Board loop (claim_draw=False, as Board.outcome()).
Interleaved, best of 3, plies per CPU-second.  The machines are shared and noisy: read the
ratios of one run, never a bare figure, and never assert a timing in a test.
"""

import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import shashki  # noqa: E402
from bench_api import arguments, peer_playouts, shashki_playouts  # noqa: E402

REPEATS = 3
GAMES = tuple(v.name for v in shashki.VARIANTS)


def c_playouts(variant, seconds, seed, records=False):
    """(plies, games, CPU seconds) of shashki.playouts batches in this thread until `seconds`
    of CPU time have passed; with `records`, every ply's position and action kept."""
    plies = games = 0
    batch = 2000
    start = time.process_time()
    while time.process_time() - start < seconds:
        played = shashki.playouts(variant, batch, seed=seed + games, jobs=1, claim_draw=False,
                                  positions=records, actions=records)
        plies += played.plies
        games += len(played)
    return plies, games, time.process_time() - start


def main(argv=None):
    args = arguments(__doc__, argv, GAMES, records=True)
    seconds = 0.5 if args.quick else 2.0
    programs = []
    for game in args.games:
        programs.append((f"playouts {game}", lambda g=game: c_playouts(g, seconds, 1)))
        programs.append((f"Board loop {game}", lambda g=game: shashki_playouts(g, seconds, 1)))
        if args.records:
            programs.append((f"recorded {game}", lambda g=game: c_playouts(g, seconds, 1, True)))
    if not args.no_peers:
        programs.append(("OpenSpiel checkers", lambda: peer_playouts("open_spiel", seconds, 1)))
    best = {}
    for _ in range(REPEATS):
        for name, run in programs:
            plies, games, cpu = run()
            rate = plies / cpu
            if rate > best.get(name, (0,))[0]:
                best[name] = (rate, games)
    print(f"random playouts to the end of the game: best of {REPEATS}, interleaved, "
          f"plies per CPU-second, one core")
    print(f"{'program':<24} {'plies/CPU-s':>13} {'games':>8}")
    for name, (rate, games) in best.items():
        print(f"{name:<24} {rate:>13,.0f} {games:>8}")
    print()
    ratios = {}
    for game in args.games:
        ratio = best[f"playouts {game}"][0] / best[f"Board loop {game}"][0]
        ratios[f"{game}/board"] = ratio
        print(f"shashki.playouts {game} / Board loop {game}: {ratio:.1f}x")
        if args.records:
            ratio = best[f"recorded {game}"][0] / best[f"Board loop {game}"][0]
            ratios[f"{game}/board recorded"] = ratio
            print(f"  recording positions and actions: {ratio:.1f}x")
    if not args.no_peers and "english" in args.games:
        ratio = best["playouts english"][0] / best["OpenSpiel checkers"][0]
        ratios["english/open_spiel"] = ratio
        print(f"shashki.playouts english / OpenSpiel checkers from Python: {ratio:.1f}x")
    if args.json:
        Path(args.json).write_text(json.dumps(
            {"rates": {name: rate for name, (rate, _) in best.items()}, "ratios": ratios},
            indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
