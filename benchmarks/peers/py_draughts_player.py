"""Game-playing worker for py-draughts' ``SimpleEngine`` (PyPI ``py-draughts``).

Runs inside benchmarks/.venvs/py-draughts/ (see ../peers.py, ``ensure_venv``) and is
driven by ../bench_engine.py.  Long-lived: one JSON request per line on stdin, one
JSON reply per line on stdout, so the interpreter, numpy and the engine's tables
are set up once per match, not once per move.

Squares travel as [file, rank] pairs, 0-based from White's side (a1 = [0, 0]), the
board-neutral form ../peers.py hands its perft workers; a move is
``{"from": sq, "to": sq, "captured": [sq, ...]}`` and ``"path"`` (every square the
piece visits, in py-draughts' replies).  A move is identified, as in RULES.md, by
origin, destination and the *set* of captured squares.

Requests:

    {"cmd": "new", "variant": "russian"|"brazilian",
     "position": {"turn": "W"|"B", "white": [[f, r, king], ...], "black": [...]},
     "time_limit": 0.1, "depth_limit": 64}
        A new game from ``position``: a fresh board and a fresh SimpleEngine (its
        transposition table, killers and history start empty, as shashki's do).
    {"cmd": "go", "moves": [move, ...], "position": {...}}
        ``moves``: the moves played since the last request of this game (the
        opponent's reply, and this engine's own last move as the game recorded
        it), pushed on the board so py-draughts keeps the game's history (its
        repetition rule looks at it).  ``position``: where the game now stands by
        shashki; if the pushed moves do not lead there (a rule deviation), the
        board is rebuilt from it and the reply says ``"resync": true``.
        Reply: the engine's ``move``, its own ``legal`` move list here (so the
        caller can compare rule sets), ``seconds`` and ``cpu_seconds`` (wall and
        CPU time of get_best_move only), ``nodes``, ``depth`` (last iteration
        completed), and ``notes``.
    {"cmd": "info"}    version and settings
    {"cmd": "quit"}

Errors come back as ``{"error": "..."}``; the worker keeps running.

What SimpleEngine 1.10.1 does with time (draughts/engines/simple.py): iterative
deepening up to ``depth_limit``; with ``time_limit`` set it checks the clock every
2048 nodes and after each completed iteration, and when time runs out mid-iteration
it keeps the move of the last completed one (the root's table entry).  So a move may
overrun ``time_limit`` by up to 2048 nodes; the caller measures and reports the
actual time per move instead of assuming it.
"""

from __future__ import annotations

import os
import platform
import sys
import time
from importlib.metadata import version

from loguru import logger

# -I keeps the script's folder off sys.path; the shared loop lives there (stdlib only)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from jsonlines import Quit, serve  # noqa: E402

PEER = "py-draughts"
BOARDS = {"russian": "draughts.boards.russian", "brazilian": "draughts.boards.brazilian"}


def square_index(file: int, rank: int) -> int:
    # py-draughts numbers its 8x8 squares like english checkers, 0-based: 0 = b8.
    return 4 * (7 - rank) + file // 2


def index_coords(index: int) -> list[int]:
    row, k = divmod(index, 4)  # row 0 = rank 8
    rank = 7 - row
    file = 2 * k + 1 if row % 2 == 0 else 2 * k
    return [file, rank]


def build_fen(position: dict) -> str:
    def side(pieces):
        return ",".join(("K" if king else "") + str(square_index(f, r) + 1)
                        for f, r, king in pieces)

    return f"{position['turn']}:W{side(position['white'])}:B{side(position['black'])}"


def move_key(move) -> tuple:
    return (move.square_list[0], move.square_list[-1], frozenset(move.captured_list))


def request_key(move: dict) -> tuple:
    return (square_index(*move["from"]), square_index(*move["to"]),
            frozenset(square_index(*sq) for sq in move["captured"]))


def move_json(move) -> dict:
    return {"from": index_coords(move.square_list[0]), "to": index_coords(move.square_list[-1]),
            "captured": [index_coords(sq) for sq in move.captured_list],
            "path": [index_coords(sq) for sq in move.square_list]}


class _DepthLog:
    """Collects the depths SimpleEngine logs ("Depth d: ...") during one search: the
    engine keeps no other record of how deep it went."""

    def __init__(self):
        self.depth = 0

    def __call__(self, message):
        text = message.record["message"]
        if text.startswith("Depth "):
            self.depth = max(self.depth, int(text[6:text.index(":")]))


class Game:
    def __init__(self, req: dict):
        import importlib

        from draughts import SimpleEngine

        variant = req["variant"]
        if variant not in BOARDS:
            raise ValueError(f"no py-draughts board for {variant!r}; expected one of "
                             f"{sorted(BOARDS)}")
        self.board_class = importlib.import_module(BOARDS[variant]).Board
        self.board = self.board_class.from_fen(build_fen(req["position"]))
        self.engine = SimpleEngine(depth_limit=int(req.get("depth_limit", 64)),
                                   time_limit=req.get("time_limit"))

    def go(self, req: dict, depth_log: _DepthLog) -> dict:
        notes = []
        resync = False
        for played in req.get("moves", []):
            want = request_key(played)
            match = [m for m in self.board.legal_moves if move_key(m) == want]
            if not match:
                notes.append(f"move {played} is not legal for py-draughts here "
                             f"({self.board.fen}); board rebuilt from the position")
                resync = True
                break
            self.board.push(match[0])
        target = build_fen(req["position"])
        if not resync and self._state() != self.board_class.from_fen(target)._pdn_state():
            notes.append(f"after the moves py-draughts stands at {self.board.fen}, not "
                         f"{target}; board rebuilt from the position")
            resync = True
        if resync:
            self.board = self.board_class.from_fen(target)

        legal = list(self.board.legal_moves)
        if not legal:
            return {"move": None, "legal": [], "seconds": 0.0, "cpu_seconds": 0.0, "nodes": 0,
                    "depth": 0,
                    "resync": resync, "notes": notes + ["py-draughts sees no legal move"]}
        depth_log.depth = 0
        t0, c0 = time.perf_counter(), time.process_time()
        move = self.engine.get_best_move(self.board)
        seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
        # An iteration cut short by the clock is still logged; it did not complete.
        depth = depth_log.depth - (1 if self.engine.stop_search else 0)
        if move_key(move) not in {move_key(m) for m in legal}:
            notes.append(f"SimpleEngine returned {move}, which is not in its own legal "
                         f"move list")
        # The move is pushed when the caller reports it back as played.
        return {"move": move_json(move), "legal": [move_json(m) for m in legal],
                "seconds": seconds, "cpu_seconds": cpu, "nodes": self.engine.nodes, "depth": depth,
                "resync": resync, "notes": notes}

    def _state(self):
        return self.board._pdn_state()


def main() -> int:
    # py-draughts logs through loguru at DEBUG by default, several lines a move; keep
    # stdout for the protocol and drop everything but the depth records.
    depth_log = _DepthLog()
    logger.remove()
    logger.add(depth_log, level="DEBUG", format="{message}",
               filter=lambda record: record["message"].startswith("Depth "))
    game = None

    def handle(req):
        nonlocal game
        cmd = req.get("cmd")
        if cmd == "quit":
            raise Quit
        if cmd == "info":
            return {"peer": PEER, "version": version(PEER),
                    "python": platform.python_version(), "variants": sorted(BOARDS)}
        if cmd == "new":
            game = Game(req)
            return {"ok": True}
        if cmd == "go":
            if game is None:
                raise ValueError("'go' before 'new'")
            return game.go(req, depth_log)
        raise ValueError(f"unknown cmd {cmd!r}; expected new, go, info or quit")

    return serve(handle)


if __name__ == "__main__":
    sys.exit(main())
