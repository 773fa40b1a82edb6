"""Random playouts in a peer library, run in that peer's own venv (benchmarks/bench_api.py).

    python playouts_worker.py PEER SECONDS SEED

Plays random games to their end, the way a user drives a board from Python every ply, until
SECONDS of CPU time have passed, and prints {"plies": ..., "games": ..., "cpu": ...} as JSON:
CPU seconds of the loop alone (imports and set-up excluded).

- open_spiel: OpenSpiel's C++ `checkers` through pybind11: legal_actions(), random.choice,
  apply_action(), is_terminal().
- py-draughts: py-draughts' pure-Python RussianBoard: list(legal_moves), random.choice,
  push(), game_over.
- python-chess: chess, for scale: list(legal_moves), random.choice, push(), is_game_over().
"""

import json
import random
import sys
import time


def open_spiel_games(rng, budget, name="checkers"):
    # (bench_rl.py --learning times shashki's games registered in OpenSpiel by this loop too)
    import pyspiel
    game = pyspiel.load_game(name)
    plies = games = 0
    start = time.process_time()
    while time.process_time() - start < budget:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            plies += 1
        games += 1
    return plies, games, time.process_time() - start


def py_draughts_games(rng, budget):
    from draughts import RussianBoard
    plies = games = 0
    start = time.process_time()
    while time.process_time() - start < budget:
        board = RussianBoard()
        while not board.game_over:
            board.push(rng.choice(list(board.legal_moves)))
            plies += 1
        games += 1
    return plies, games, time.process_time() - start


def python_chess_games(rng, budget):
    import chess
    plies = games = 0
    start = time.process_time()
    while time.process_time() - start < budget:
        board = chess.Board()
        while not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
            plies += 1
        games += 1
    return plies, games, time.process_time() - start


RUNNERS = {"open_spiel": open_spiel_games, "py-draughts": py_draughts_games,
           "python-chess": python_chess_games}


def main(argv):
    peer, seconds, seed = argv[1], float(argv[2]), int(argv[3])
    plies, games, cpu = RUNNERS[peer](random.Random(seed), seconds)
    print(json.dumps({"plies": plies, "games": games, "cpu": cpu}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
