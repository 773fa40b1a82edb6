"""Tune the engine's evaluation weights on games it plays against itself (Texel's method).

    python -m shashki.tuner selfplay russian --games 4000 --nodes 5000 -j 2 --out ru.npz
    python -m shashki.tuner fit russian ru.npz --out src/shashki/data/eval/russian.json

`selfplay` plays the engine against itself from the game's opening tables (each opening
with a few random plies more, so no two games start alike) and keeps, for every quiet
position of every game (no capture to make: there the evaluation is what the search
uses), the value of each evaluation term (Searcher.features), the phase, and the game's result
from the side to move's point of view (1 won, 1/2 drawn, 0 lost).

`train` is the two in turn, from one command: each round plays `--games` games with the
weights of the round before (the game's own at first), fits new weights to them from those,
and writes them (``OUT`` with ``-r1``, ``-r2``, ... before its suffix; the last round's also
to ``OUT``).  Given its arguments it is deterministic: each game's search is bounded by nodes
and seeded, so the same command writes the same weights (docs/strength.md lists the commands
behind the weights shipped).

    python -m shashki.tuner train international --rounds 4 --games 1500 --nodes 2000 \\
        --option probcut=0 --out src/shashki/data/eval/international.json

`fit` finds the weights whose evaluation best predicts those results: the probability of a
win is taken as sigmoid(k * evaluation), k is fitted first to the starting weights, then every
weight (middlegame and endgame) by L-BFGS on the mean squared error, with a small pull toward
the starting weights (L2) so that rare terms and squares stay near them.  A tenth of the games
is held out to report how well the result generalises.  The weights are written as JSON
(shashki.weights), to be put in shashki/data/eval/<game>.json.

numpy and scipy are needed (``pip install shashki[tune]``); nothing in ``import shashki``
imports this module.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np
from scipy.optimize import minimize  # type: ignore[import-untyped]

from . import opening
from .apps.games import adjudicate
from .board import Board
from .engine import Engine
from .variants import Variant, get_variant
from .weights import FEATURE_NAMES, Weights, load

__all__ = ["fit", "main", "selfplay"]

# the process's engine (selfplay workers)
_WORKER: Dict[str, Any] = {}


def _init(variant: str, evaluation: Optional[str], options: Dict[str, int]) -> None:
    _WORKER["engine"] = Engine(variant, 16, evaluation=evaluation, options=options,
                               egdb=False)
    _WORKER["variant"] = get_variant(variant)


def _play(task: Tuple[int, str, int, int, int]) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One self-play game from `fen`: (features, phases, results) of its quiet positions."""
    index, fen, nodes, max_moves, seed = task
    engine: Engine = _WORKER["engine"]
    variant: Variant = _WORKER["variant"]
    rng = random.Random(seed)
    board = Board(variant, fen=fen)
    engine.new_game()
    feats: List[List[int]] = []
    phases: List[int] = []
    turns: List[int] = []
    outcome = None
    for _ in range(2 * max_moves):
        outcome = adjudicate(board)
        if outcome is not None:
            break
        if not board.must_capture:
            f, ph = engine.features(board)
            feats.append(f)
            phases.append(ph)
            turns.append(int(board.turn))
        # a little variety in the effort, so that the games differ
        result = engine.search(board, nodes=int(nodes * rng.uniform(0.7, 1.4)))
        assert result.best_move is not None
        board.push(result.best_move)
    winner = None if outcome is None else outcome.winner
    y = [0.5 if winner is None else (1.0 if int(winner) == t else 0.0) for t in turns]
    return (np.array(feats, dtype=np.int16).reshape(len(feats), len(FEATURE_NAMES)),
            np.array(phases, dtype=np.int16), np.array(y, dtype=np.float32))


def start_positions(variant: Variant, games: int, seed: int, plies: int = 4) -> List[str]:
    """`games` different positions: the game's match openings (or its start) each with
    `plies` random plies more."""
    rng = random.Random(seed)
    table = variant.match_openings
    bases = [variant.start_fen] if table in ("start", "random") else \
        [o.fen for o in opening.openings(variant, table=table) if not o.lost]
    out: List[str] = []
    seen = set()
    for _ in range(50 * games):
        board = Board(variant, fen=rng.choice(bases))
        for _ in range(rng.randint(plies // 2, plies)):
            legal = list(board.legal_moves)
            if not legal:
                break
            board.push(rng.choice(legal))
        fen = board.fen()
        if board.outcome() is None and fen not in seen:
            seen.add(fen)
            out.append(fen)
            if len(out) == games:
                break
    return out


def selfplay(variant: Any, games: int, nodes: int = 5000, *, concurrency: int = 1,
             evaluation: Optional[str] = None, options: Optional[Dict[str, int]] = None,
             seed: int = 1, max_moves: int = 150, progress: bool = False
             ) -> Dict[str, np.ndarray]:
    """Play `games` games and return the arrays of their quiet positions: features, phase,
    result (for the side to move) and game (the number of the game it comes from)."""
    variant = get_variant(variant)
    # checked here, not in the workers' initializer (a pool restarts a worker that fails there)
    Engine(variant, 1, evaluation=evaluation, options=options, egdb=False)
    starts = start_positions(variant, games, seed)
    tasks = [(i, fen, nodes, max_moves, seed * 100_003 + i) for i, fen in enumerate(starts)]
    parts: List[Tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    began = time.time()
    ctx = multiprocessing.get_context("fork" if "fork" in
                                      multiprocessing.get_all_start_methods() else "spawn")
    with ctx.Pool(concurrency, _init, (variant.name, evaluation, options or {})) as pool:
        for n, part in enumerate(pool.imap(_play, tasks, chunksize=4), 1):
            parts.append(part)
            if progress and n % 100 == 0:
                print(f"{n}/{len(tasks)} games, {sum(len(p[2]) for p in parts)} positions, "
                      f"{time.time() - began:.0f} s", file=sys.stderr, flush=True)
    return {"features": np.concatenate([p[0] for p in parts]),
            "phase": np.concatenate([p[1] for p in parts]),
            "result": np.concatenate([p[2] for p in parts]),
            "game": np.concatenate([np.full(len(p[2]), i, dtype=np.int32)
                                    for i, p in enumerate(parts)]),
            "max_phase": np.array(Engine(variant, 1, egdb=False).max_phase)}


def _design(data: Dict[str, np.ndarray]) -> np.ndarray:
    f = data["features"].astype(np.float32)
    t = (data["phase"].astype(np.float32) / float(data["max_phase"]))[:, None]
    return np.hstack([f * t, f * (1.0 - t)])


def fit(data: Dict[str, np.ndarray], start: Weights, *, l2: float = 1e-7,
        iterations: int = 400, log: Any = None) -> Tuple[Weights, Dict[str, float]]:
    """The weights fitted to `data` (from selfplay) from `start`, and a report: k, and the
    mean squared error of the start and the fit on the training and the held-out games."""
    x = _design(data)
    y = data["result"].astype(np.float64)
    held = (data["game"] % 10) == 0
    xt, yt, xh, yh = x[~held], y[~held], x[held], y[held]
    w0 = np.array(start.flat(), dtype=np.float64)
    n = len(FEATURE_NAMES)
    squares = start.squares
    free = np.ones(2 * n, dtype=bool)
    for i, name in enumerate(FEATURE_NAMES):
        if name == "spare" or (name.startswith("pst_") and int(name.rsplit("_", 1)[1])
                                >= squares):
            free[i] = free[n + i] = False
    free &= np.abs(xt).sum(axis=0) > 0          # a term never seen keeps its weight

    def mse(w: np.ndarray, k: float, xs: np.ndarray, ys: np.ndarray) -> float:
        p = 1.0 / (1.0 + np.exp(-k * (xs @ w)))
        return float(np.mean((p - ys) ** 2))

    ks = np.exp(np.linspace(np.log(1e-4), np.log(1e-1), 61))
    k = float(min(ks, key=lambda kk: mse(w0, kk, xt, yt)))
    for _ in range(3):          # refine k around the best of the grid
        grid = k * np.exp(np.linspace(-0.2, 0.2, 21))
        k = float(min(grid, key=lambda kk: mse(w0, kk, xt, yt)))
    xf = xt[:, free].astype(np.float64)
    base = xt[:, ~free].astype(np.float64) @ w0[~free]
    scale = 1.0 / len(yt)

    def loss(v: np.ndarray) -> Tuple[float, np.ndarray]:
        e = xf @ v + base
        p = 1.0 / (1.0 + np.exp(-k * e))
        r = p - yt
        value = scale * float(r @ r) + l2 * float(((v - w0[free]) ** 2).sum())
        grad = scale * 2.0 * k * (xf.T @ (r * p * (1.0 - p))) + 2.0 * l2 * (v - w0[free])
        return value, grad

    res = minimize(loss, w0[free], jac=True, method="L-BFGS-B",
                   options={"maxiter": iterations})
    w = w0.copy()
    w[free] = res.x
    wi = np.rint(w).astype(int)
    tuned = Weights(start.variant, list(wi[:n]), list(wi[n:]),
                    f"shashki.tuner: Texel fit on {len(y)} positions of "
                    f"{int(data['game'].max()) + 1} self-play games, k={k:.6f}")
    report = {"k": k, "positions": float(len(y)),
              "train_start": mse(w0, k, xt, yt), "train_fit": mse(wi.astype(float), k, xt, yt),
              "held_start": mse(w0, k, xh, yh), "held_fit": mse(wi.astype(float), k, xh, yh)}
    return tuned, report


def train(variant: Variant, rounds: int, games: int, nodes: int, *, jobs: int = 1,
          start: Optional[str] = None, seed: int = 1, l2: float = 1e-7,
          options: Optional[Dict[str, int]] = None, out: str) -> int:
    """`rounds` rounds of selfplay and fit (the `train` command), each with the weights of the
    one before; every round's weights written beside `out`, the last also to `out`."""
    path = Path(out)
    weights = start
    for r in range(1, rounds + 1):
        began = time.time()
        data = selfplay(variant, games, nodes, concurrency=jobs, evaluation=weights,
                        options=options, seed=seed + r - 1, progress=True)
        tuned, report = fit(data, load(weights, variant), l2=l2)
        step = path.with_name(f"{path.stem}-r{r}{path.suffix}")
        tuned.save(str(step))
        played = int(data["game"].max()) + 1       # (fewer when the openings run out)
        print(f"round {r}: {len(data['result'])} positions of {played} games, "
              + ", ".join(f"{k} {v:.6g}" for k, v in report.items())
              + f", {time.time() - began:.0f} s; weights written to {step}", flush=True)
        weights = str(step)
    assert weights is not None
    Path(out).write_bytes(Path(weights).read_bytes())
    print(f"weights written to {out}")
    return 0


def _options(parser: argparse.ArgumentParser, given: Sequence[str]) -> Dict[str, int]:
    """--option NAME=VALUE arguments as a dict (the engine checks names and values)."""
    options: Dict[str, int] = {}
    for text in given:
        name, sep, value = text.partition("=")
        if not sep or not value.strip().lstrip("-").isdigit():
            parser.error(f"--option takes NAME=VALUE with a whole number, not {text!r}")
        options[name.strip()] = int(value)
    return options


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m shashki.tuner", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("selfplay", help="play games and keep their quiet positions")
    p.add_argument("--eval", default=None, help="the weights to play with (default: the "
                                                "game's)")
    p.add_argument("--out", required=True, help="the .npz file to write")
    f = sub.add_parser("fit", help="fit the weights to self-play positions")
    f.add_argument("variant")
    f.add_argument("data", nargs="+", help=".npz files written by selfplay")
    f.add_argument("--start", default=None, help="the weights to start from (default: the "
                                                 "game's)")
    f.add_argument("--l2", type=float, default=1e-7)
    f.add_argument("--out", required=True, help="the JSON file of weights to write")
    t = sub.add_parser("train", help="self-play and fit in rounds, each round playing "
                                     "with the weights of the one before")
    t.add_argument("--rounds", type=int, default=1)
    t.add_argument("--start", default=None, help="the weights of the first round (default: "
                                                 "the game's)")
    t.add_argument("--l2", type=float, default=1e-7)
    t.add_argument("--out", required=True, help="the JSON file of the last round's weights")
    for command in (p, t):
        # what the two commands that play games share
        command.add_argument("variant")
        command.add_argument("--games", type=int, default=1000)
        command.add_argument("--nodes", type=int, default=5000)
        command.add_argument("--jobs", "-j", type=int, default=1)
        command.add_argument("--seed", type=int, default=1)
        command.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                             help="a search option of the self-play engine "
                                  "(shashki.limits.SEARCH_OPTIONS), e.g. probcut=0; "
                                  "may be repeated")
    args = parser.parse_args(argv)
    variant = get_variant(args.variant)
    options = _options(parser, getattr(args, "option", []))
    if args.command == "train":
        return train(variant, args.rounds, args.games, args.nodes, jobs=args.jobs,
                     start=args.start, seed=args.seed, l2=args.l2, options=options,
                     out=args.out)
    if args.command == "selfplay":
        data = selfplay(variant, args.games, args.nodes, concurrency=args.jobs,
                        evaluation=args.eval, options=options, seed=args.seed,
                        progress=True)
        np.savez_compressed(args.out, **data)    # type: ignore[arg-type]
        print(f"{len(data['result'])} positions written to {args.out}")
        return 0
    loaded = [dict(np.load(path)) for path in args.data]
    offset = 0
    for part in loaded:
        part["game"] = part["game"] + offset
        offset = int(part["game"].max()) + 1
    data = {key: np.concatenate([part[key] for part in loaded])
            for key in ("features", "phase", "result", "game")}
    data["max_phase"] = loaded[0]["max_phase"]
    tuned, report = fit(data, load(args.start, variant), l2=args.l2)
    tuned.save(args.out)
    print(", ".join(f"{k} {v:.6g}" for k, v in report.items()))
    print(f"weights written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
