"""Random playouts for learning systems: shashki.playouts (C, no GIL) beside the loops a user
would write from Python.

    python benchmarks/bench_rl.py              # every game, with OpenSpiel (minutes)
    python benchmarks/bench_rl.py --quick      # shorter runs
    python benchmarks/bench_rl.py --no-peers   # shashki only
    python benchmarks/bench_rl.py --games russian english
    python benchmarks/bench_rl.py --records    # also with every ply's position and action kept
    python benchmarks/bench_rl.py --learning   # VectorEnv and shashki.openspiel (one process)

For each game, in one run and on one core (jobs=1, CPU time of the loop alone):

- shashki.playouts(game, n, jobs=1): n random games to their end in C;
- shashki's Board loop from Python (bench_api.shashki_playouts: list(legal_moves),
  random.choice, push, outcome() each ply);
- OpenSpiel's C++ `checkers` driven from Python (benchmarks/peers/playouts_worker.py in its own
  venv): legal_actions(), random.choice, apply_action(), is_terminal().  OpenSpiel plays
  english-like checkers; each jump of a multi-capture is an action there, counted as a ply, so
  its figure is if anything flattering.  The ratio is taken against shashki's english games.

The playouts play by the same rules as the Board loop (claim_draw=False, as Board.outcome()).

With --learning, in this one process instead (numpy, and open_spiel for the second part):

- shashki.rl.VectorEnv(russian, 1024 envs, jobs=1) stepped with random legal actions drawn in
  numpy, from its legal_actions and legal_counts (an index a env) and, second, from the mask
  alone (one random number an action, argmax over the legal ones: the cost of a policy that
  reads only the mask), against shashki.playouts(russian, jobs=1) with the same rules
  (claim_draw=True, as the VectorEnv);
- the memory floor of a step (benchmarks/vector_floor.c, compiled here with gcc -O2): the
  writes a step of this API must make for 1024 russian envs (observation cells, mask entries,
  legal actions, rewards and flags, the env's state), with no move generated and no rule
  applied: what no vector env can beat, as a ratio to the playouts;
- random simulation from Python through OpenSpiel's API (legal_actions(), random.choice,
  apply_action(), is_terminal()) of pyspiel.load_game("shashki_russian") against OpenSpiel's
  own C++ "checkers".
Interleaved, best of 3, plies per CPU-second.  The machines are shared and noisy: read the
ratios of one run, never a bare figure, and never assert a timing in a test.
"""

import json
import shutil
import subprocess
import sys
import tempfile
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


NUM_ENVS = 1024


def vector_env(game, seconds, seed, draw="legal"):
    """(plies, games, CPU seconds) of a VectorEnv of NUM_ENVS envs stepped with random legal
    actions drawn in numpy (`draw`: "legal" from legal_actions, "mask" from the mask)."""
    import numpy as np
    from shashki.rl import VectorEnv
    env = VectorEnv(game, NUM_ENVS, seed=seed, jobs=1)
    obs, mask = env.reset()
    rng = np.random.default_rng(seed)
    rows = np.arange(NUM_ENVS)
    plies = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        if draw == "legal":
            actions = env.legal_actions[rows, (rng.random(NUM_ENVS) *
                                               env.legal_counts).astype(np.intp)]
        else:
            actions = np.argmax(rng.random(mask.shape, dtype=np.float32) * mask, axis=1)
        obs, mask, rewards, terminated, truncated = env.step(actions)
        plies += NUM_ENVS
        games += int(np.count_nonzero(terminated | truncated))
    return plies, games, time.process_time() - start


def floor_program(build_dir):
    """The memory floor's program compiled into build_dir (None: no gcc here)."""
    if shutil.which("gcc") is None:
        return None
    binary = Path(build_dir) / "vector_floor"
    subprocess.run(["gcc", "-O2", "-o", str(binary), str(HERE / "vector_floor.c")], check=True)
    return binary


def vector_floor(binary, seconds):
    """(plies, games, CPU seconds) of the floor program (its own CPU time, no start-up)."""
    out = subprocess.run([str(binary), str(seconds)], capture_output=True, text=True,
                         check=True).stdout.split()
    return int(out[0]), 0, float(out[1])


def claimed_playouts(game, seconds, seed):
    """c_playouts by the VectorEnv's rules: draws claimed at once."""
    plies = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        played = shashki.playouts(game, 2000, seed=seed + games, jobs=1)
        plies += played.plies
        games += len(played)
    return plies, games, time.process_time() - start


def openspiel_random(name, seconds, seed):
    """(plies, games, CPU seconds) of random games of the OpenSpiel game `name` driven from
    Python through OpenSpiel's API (the peers' loop, benchmarks/peers/playouts_worker.py)."""
    import random
    import shashki.openspiel  # noqa: F401  (registers the shashki_* games)
    sys.path.insert(0, str(HERE / "peers"))        # (benchmarks/peers.py is another module)
    from playouts_worker import open_spiel_games
    return open_spiel_games(random.Random(seed), seconds, name)


def learning(args):
    """The --learning comparisons: best of REPEATS, interleaved, in this process."""
    with tempfile.TemporaryDirectory() as build_dir:
        return learning_in(args, floor_program(build_dir))


def learning_in(args, floor):
    seconds = 0.5 if args.quick else 2.0
    programs = [("VectorEnv russian (legal_actions)", lambda: vector_env("russian", seconds, 1)),
                ("VectorEnv russian (mask)", lambda: vector_env("russian", seconds, 1, "mask")),
                ("playouts russian", lambda: claimed_playouts("russian", seconds, 1))]
    if floor is not None:
        programs.append(("floor: a step's writes alone", lambda: vector_floor(floor, seconds)))
    if not args.no_peers:
        programs += [("OpenSpiel shashki_russian", lambda: openspiel_random(
                        "shashki_russian", seconds, 1)),
                     ("OpenSpiel checkers", lambda: openspiel_random("checkers", seconds, 1))]
    best = {}
    for _ in range(REPEATS):
        for name, run in programs:
            plies, games, cpu = run()
            best[name] = max(best.get(name, 0.0), plies / cpu)
    print(f"one process, one thread: best of {REPEATS}, interleaved, plies per CPU-second")
    for name, rate in best.items():
        print(f"{name:<36} {rate:>13,.0f}")
    ratios = {"vector/playouts": best["VectorEnv russian (legal_actions)"] /
              best["playouts russian"],
              "vector mask/playouts": best["VectorEnv russian (mask)"] / best["playouts russian"]}
    if floor is not None:
        ratios["floor/playouts"] = best["floor: a step's writes alone"] / best["playouts russian"]
    if not args.no_peers:
        ratios["shashki_russian/checkers"] = (best["OpenSpiel shashki_russian"] /
                                              best["OpenSpiel checkers"])
    print()
    for name, ratio in ratios.items():
        print(f"{name}: {ratio:.2f}")
    if args.json:
        Path(args.json).write_text(json.dumps({"rates": best, "ratios": ratios}, indent=2))
    return 0


def main(argv=None):
    args = arguments(__doc__, argv, GAMES, records=True, learning=True)
    if args.learning:
        return learning(args)
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
