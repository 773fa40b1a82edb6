"""The Board driven from Python, every ply: shashki beside the libraries a user might pick.

    python benchmarks/bench_api.py              # playouts and per-operation rates
    python benchmarks/bench_api.py --quick      # shorter runs
    python benchmarks/bench_api.py --no-peers   # shashki only

1. Random playouts to the end of the game, as bots, GUIs, MCTS and self-play code drive a
   board: the legal moves as a list, random.choice, push, and the game-end test each ply.
   shashki english beside OpenSpiel's C++ `checkers` (pybind11), shashki russian beside
   py-draughts' RussianBoard, and python-chess for scale; each peer in its own venv under
   benchmarks/.venvs (benchmarks/peers/playouts_worker.py), interleaved, best of 3, plies per
   CPU-second of the loop alone.
2. shashki's operations one by one, on positions from random games: calls per CPU-second.

The machines are shared and noisy: read the ratios of one run, never a bare figure, and never
assert a timing in a test.
"""

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import shashki  # noqa: E402
from peers import WORKER_DIR, ensure_venv  # noqa: E402

REPEATS = 3
# (shashki game, the peer playing the same game or the nearest, the peer's game)
PAIRS = [("english", "open_spiel", "checkers (english rules)"),
         ("russian", "py-draughts", "RussianBoard")]


def shashki_playouts(variant, seconds, seed):
    """(plies, games, CPU seconds) of random games played to their end from Python."""
    rng = random.Random(seed)
    plies = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        board = shashki.Board(variant)
        while board.outcome() is None:
            board.push(rng.choice(list(board.legal_moves)))
            plies += 1
        games += 1
    return plies, games, time.process_time() - start


def peer_playouts(peer, seconds, seed):
    python = ensure_venv(peer)
    run = subprocess.run([str(python), str(WORKER_DIR / "playouts_worker.py"), peer,
                          str(seconds), str(seed)], capture_output=True, text=True, check=True)
    got = json.loads(run.stdout)
    return got["plies"], got["games"], got["cpu"]


def playouts(seconds, with_peers):
    print(f"1. random playouts from Python to the end of the game: best of {REPEATS}, "
          f"interleaved, plies per CPU-second")
    best = {}
    programs = [("shashki " + v, lambda v=v: shashki_playouts(v, seconds, 1)) for v, _, _ in PAIRS]
    if with_peers:
        programs += [(peer, lambda p=peer: peer_playouts(p, seconds, 1)) for _, peer, _ in PAIRS]
        programs.append(("python-chess", lambda: peer_playouts("python-chess", seconds, 1)))
    for _ in range(REPEATS):
        for name, run in programs:
            plies, games, cpu = run()
            rate = plies / cpu
            if rate > best.get(name, (0,))[0]:
                best[name] = (rate, plies, games)
    print(f"{'program':<22} {'plies/CPU-s':>12} {'games':>7}")
    for name, (rate, plies, games) in best.items():
        print(f"{name:<22} {rate:>12,.0f} {games:>7}")
    rows = {"rates": {name: rate for name, (rate, _, _) in best.items()}}
    if with_peers:
        print()
        for variant, peer, game in PAIRS:
            ratio = best["shashki " + variant][0] / best[peer][0]
            print(f"shashki {variant} / {peer} {game}: {ratio:.1f}x")
            rows[f"{variant}/{peer}"] = ratio
        ratio = best["shashki english"][0] / best["python-chess"][0]
        print(f"shashki english / python-chess (chess): {ratio:.1f}x")
    return rows


def sample_positions(variant, count, seed=2):
    """Boards at positions from random games (none at the end of its game)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board = shashki.Board(variant)
        for _ in range(rng.randrange(0, 60)):
            moves = list(board.legal_moves)
            if not moves or board.outcome() is not None:
                break
            board.push(rng.choice(moves))
        if board.legal_moves and board.outcome() is None:
            out.append(board)
    return out


def per_call(fn, items, rounds):
    """CPU seconds per call of fn(item), over `rounds` passes on `items`; the best pass."""
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        for item in items:
            fn(item)
        best = min(best, (time.process_time() - start) / len(items))
    return best


def operations(quick):
    count = 300 if quick else 2000
    rounds = 3
    print(f"\n2. shashki's operations on {count} positions of random games: calls per CPU-second "
          f"(best of {rounds})")
    print(f"{'operation':<36} " + " ".join(f"{v:>11}" for v, _, _ in PAIRS))
    table = {}
    for variant, _, _ in PAIRS:
        boards = sample_positions(variant, count)
        moves = [list(b.legal_moves) for b in boards]
        picks = [random.Random(i).choice(m) for i, m in enumerate(moves)]
        texts = [str(m) for m in picks]

        def cold(boards=boards):
            # copies whose legal moves are not generated yet
            return [b.copy() for b in boards]

        rates = {}
        fresh = cold()
        rates["list(legal_moves), not yet generated"] = per_call(
            lambda b: list(b.legal_moves), fresh, 1)
        rates["list(legal_moves), generated"] = per_call(lambda b: list(b.legal_moves), fresh,
                                                         rounds)
        rates["len(legal_moves), not yet generated"] = per_call(
            lambda b: len(b.legal_moves), cold(), 1)
        pairs = list(zip(boards, picks))
        rates["push(move) + pop()"] = per_call(lambda bm: (bm[0].push(bm[1]), bm[0].pop()),
                                               pairs, rounds)
        rates["copy()"] = per_call(lambda b: b.copy(), boards, rounds)
        rates["fen()"] = per_call(lambda b: b.fen(), boards, rounds)
        rates["outcome(), moves not yet generated"] = per_call(lambda b: b.outcome(), cold(), 1)
        rates["outcome(), generated"] = per_call(lambda b: b.outcome(), boards, rounds)
        rates["parse_move(text)"] = per_call(lambda bt: bt[0].parse_move(bt[1]),
                                             list(zip(boards, texts)), rounds)
        rates["str(move), first time"] = per_call(
            str, [m for ms in (list(b.legal_moves) for b in cold()) for m in ms], 1)
        # Position.apply of a Move and of its text, interleaved, best of 5 (issue 31.5: the
        # text took 50 times as long; it is read in C now)
        positions = [(b.position, m, t) for b, m, t in zip(boards, picks, texts)]
        by_move, by_text = float("inf"), float("inf")
        for _ in range(5):
            by_move = min(by_move, per_call(lambda pmt: pmt[0].apply(pmt[1]), positions, 1))
            by_text = min(by_text, per_call(lambda pmt: pmt[0].apply(pmt[2]), positions, 1))
        rates["Position.apply(move)"] = by_move
        rates["Position.apply(text)"] = by_text
        table[variant] = {name: 1 / seconds for name, seconds in rates.items()}
    for name in table[PAIRS[0][0]]:
        print(f"{name:<36} " + " ".join(f"{table[v][name]:>11,.0f}" for v, _, _ in PAIRS))
    print(f"{'apply(text) / apply(move), time':<36} " + " ".join(
        f"{table[v]['Position.apply(move)'] / table[v]['Position.apply(text)']:>11.2f}"
        for v, _, _ in PAIRS))
    return table


def arguments(doc, argv, games=(), records=False, learning=False):
    """The options every playout benchmark takes (bench_api, bench_rl); with `games`, also
    --games, a choice among them (all by default); with `records`, --records; with
    `learning`, --learning."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs")
    parser.add_argument("--no-peers", action="store_true", help="shashki only")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    if games:
        parser.add_argument("--games", nargs="+", choices=games, default=list(games),
                            metavar="GAME", help="the games to time (default: every game)")
    if records:
        parser.add_argument("--records", action="store_true",
                            help="also time the playouts keeping every ply's position and action")
    if learning:
        parser.add_argument("--learning", action="store_true",
                            help="only the vector environment against the playouts, and the "
                                 "OpenSpiel games against OpenSpiel's checkers (one process)")
    return parser.parse_args(argv)


def main(argv=None):
    args = arguments(__doc__, argv)
    seconds = 0.5 if args.quick else 2.0
    out = {"playouts": playouts(seconds, not args.no_peers), "operations": operations(args.quick)}
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
