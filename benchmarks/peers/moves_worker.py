"""Move-list worker for the differential test: a peer library's legal moves, in shashki squares.

Runs inside a peer's venv (benchmarks/.venvs/<peer>/, see ../peers.py ``ensure_venv``) as

    python -I moves_worker.py py-draughts|pydraughts

and lives as long as its stdin: one JSON request per line, one JSON reply per line, so the
interpreter and the library are loaded once per test run, not once per position.

Request (the board-neutral form of ../peers.py ``parse_fen``; a1 = [0, 0], italian
coordinates are those of its mirrored board)::

    {"variant": "russian", "turn": "W", "white": [[file, rank, is_king], ...], "black": [...]}
    {"info": true}

Reply::

    {"supported": true, "moves": [[origin, destination, [captured...], [path...]], ...]}
    {"supported": false}                    # the peer has no such game
    {"error": "..."}                        # the worker keeps running

Squares are shashki's (0..31, a1 = 0, c1 = 1, ..., h8 = 31 on 8x8, 0..49 to j10 on 10x10;
italian mirrored as shashki numbers it; see boards.py). ``captured`` is in capture order and ``path`` lists the origin
and every landing square, exactly as the peer's move gives them: nothing is merged or
filtered here, so the caller sees the peer's own conventions (pydraughts lists one entry
per route and landing square; py-draughts' american board also offers quiet moves next to
captures).

Each request builds a fresh board from the position, so history-dependent rules of a
peer (pydraughts' frisian king-move limit, repetition) can never change the list.

The FEN each library is given is built by the perft workers beside this file
(``build_fen``), so both kinds of worker hand a library the same position for the same
request; this file adds only the way back, from the library's squares to shashki's.
"""

from __future__ import annotations

import json
import os
import sys
from importlib.metadata import version

# -I keeps the script's folder off sys.path (so nothing here can shadow the peer's own
# ``draughts``); the perft workers we reuse live in that folder and import only stdlib at
# module level, so adding it back for them is safe.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from boards import game_squares, shashki_square  # noqa: E402
from jsonlines import serve  # noqa: E402


class PyDraughtsAdapter:
    """py-draughts: ``Board.legal_moves`` of its boards (py_draughts_worker.BOARDS); squares
    are 0-based indexes of the game's numbering (index 0 = square 1 = b8, or b10)."""

    peer = "py-draughts"

    def __init__(self) -> None:
        import draughts  # the peer's, from its venv

        import py_draughts_worker as perft_worker

        self.draughts = draughts
        self.perft_worker = perft_worker

    def boards(self) -> dict:
        return dict(self.perft_worker.BOARDS)

    def moves(self, req: dict):
        variant = req["variant"]
        board_name = self.perft_worker.BOARDS.get(variant)
        if board_name is None:
            return None
        board = getattr(self.draughts, board_name).from_fen(self.perft_worker.build_fen(req))
        to_shashki = {self.perft_worker.square_number(variant, f, r) - 1:
                      shashki_square(variant, f, r) for f, r in game_squares(variant)}
        return [[to_shashki[m.square_list[0]], to_shashki[m.square_list[-1]],
                 [to_shashki[s] for s in m.captured_list],
                 [to_shashki[s] for s in m.square_list]]
                for m in board.legal_moves]


class PydraughtsAdapter:
    """pydraughts: ``Board.legal_moves()``; a move's ``board_move`` (the jumps) and
    ``captures`` are in the game's own numbering, except that russian and brazilian come
    as numbers (a1 = 1) rather than algebraic names.  The way back to (file, rank) is built
    with pydraughts' own converters from the very square texts the FEN was written with."""

    peer = "pydraughts"

    def __init__(self) -> None:
        import draughts  # the peer's, from its venv
        from draughts.convert import move_from_variant, move_to_variant

        import pydraughts_worker as perft_worker

        self.draughts = draughts
        self.perft_worker = perft_worker
        self._maps: dict = {}
        self._from_variant = move_from_variant
        self._to_variant = move_to_variant

    def boards(self) -> dict:
        return dict(self.perft_worker.VARIANTS)

    def _map(self, variant: str, peer_variant: str) -> dict:
        if variant not in self._maps:
            table = {}
            squares = game_squares(variant)
            for f, r in squares:
                text = self.perft_worker.square_text(variant, f, r)
                internal = self._from_variant(text, variant=peer_variant)
                listed = int(self._to_variant(internal, variant=peer_variant, to_algebraic=False))
                table[listed] = shashki_square(variant, f, r)
            if len(table) != len(squares):  # a numbering mix-up would silently merge squares
                raise RuntimeError(f"pydraughts {peer_variant}: {len(table)} squares mapped")
            self._maps[variant] = table
        return self._maps[variant]

    def moves(self, req: dict):
        variant = req["variant"]
        peer_variant = self.perft_worker.VARIANTS.get(variant)
        if peer_variant is None:
            return None
        board = self.draughts.Board(peer_variant, self.perft_worker.build_fen(variant, req))
        to_shashki = self._map(variant, peer_variant)
        out = []
        for m in board.legal_moves():
            path = [m.board_move[0][0]] + [jump[1] for jump in m.board_move]
            out.append([to_shashki[path[0]], to_shashki[path[-1]],
                        [to_shashki[s] for s in (m.captures or []) if s is not None],
                        [to_shashki[s] for s in path]])
        return out


ADAPTERS = {"py-draughts": PyDraughtsAdapter, "pydraughts": PydraughtsAdapter}


def handle(adapter, req: dict) -> dict:
    if req.get("info"):
        return {"peer": adapter.peer, "version": version(adapter.peer),
                "variants": adapter.boards()}
    moves = adapter.moves(req)
    if moves is None:
        return {"supported": False}
    return {"supported": True, "moves": moves}


def main() -> int:
    if len(sys.argv) != 2 or sys.argv[1] not in ADAPTERS:
        print(json.dumps({"error": f"usage: moves_worker.py {'|'.join(ADAPTERS)}"}), flush=True)
        return 2
    try:
        adapter = ADAPTERS[sys.argv[1]]()
    except Exception as exc:  # report, don't traceback: the caller parses stdout
        print(json.dumps({"error": f"{type(exc).__name__}: {exc}"}), flush=True)
        return 1
    return serve(lambda req: handle(adapter, req))


if __name__ == "__main__":
    sys.exit(main())
