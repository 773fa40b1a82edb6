"""Perft worker for py-draughts (PyPI ``py-draughts``, imports as ``draughts``).

Runs inside benchmarks/.venvs/py-draughts/ (see ../peers.py). Request: one JSON
object as argv[1] (or on stdin):

    {"variant": "russian", "depth": 6, "turn": "W",
     "white": [[file, rank, is_king], ...], "black": [...]}   # a1 = (0, 0)
    {"info": true}

Reply: one JSON line on stdout (see peers.peer_perft for the fields).

What py-draughts 1.10.1 does, read from its source (draughts/boards/_core.py,
base.py, american.py):

- Move lists follow the **unique** convention: the move core merges capture
  chains with the same origin, destination and set of captured squares
  (``_captures`` dedupe), i.e. the RULES.md move identity.
- Square numbering of its 8x8 boards is the english one (square 1 = b8,
  White on 21-32 moving up) for Russian, Brazilian and American alike; the
  algebraic names it knows are the same as RULES.md's. So a position needs no
  rotation, only (file, rank) -> number.
- No Italian board and no 8x8 giveaway (its Antidraughts is 10x10), so italian
  is unsupported and giveaway runs on the Russian board: giveaway moves are
  russian moves, only the result differs, and perft ignores results.
- The American board makes captures optional (``captures_optional=True``): a
  position with a capture also offers every quiet move. English captures are
  compulsory, so from the first such position on the count is not the english
  perft; we still count (the peer's speed is what is measured) but report
  ``comparable: false``. From the start position this happens at depth 3.
- It has a perft only for its 10x10 engine (engines/turbo.py), so we use the
  plain recursive perft below over ``Board.legal_moves`` / ``push`` / ``pop``.
"""

from __future__ import annotations

import json
import platform
import sys
import time
from importlib.metadata import version

PEER = "py-draughts"

# RULES.md variant -> py-draughts board class name (None = unsupported).
BOARDS = {
    "russian": "RussianBoard",
    "giveaway": "RussianBoard",
    "brazilian": "BrazilianBoard",
    "english": "AmericanBoard",
    "italian": None,
}


def square_number(file: int, rank: int) -> int:
    # py-draughts numbers its 8x8 squares like english checkers (1 = b8).
    return 4 * (7 - rank) + file // 2 + 1


def build_fen(req: dict) -> str:
    def side(pieces):
        return ",".join(("K" if king else "") + str(square_number(f, r)) for f, r, king in pieces)

    return f"{req['turn']}:W{side(req['white'])}:B{side(req['black'])}"


def perft(board, depth: int) -> int:
    # Bulk counting at the last ply (len of the move list), as perft programs do.
    if depth == 0:
        return 1
    moves = board.legal_moves
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += perft(board, depth - 1)
        board.pop()
    return total


def perft_american(board, depth: int, seen: list) -> int:
    """As ``perft``, but records whether any node offered a quiet move next to a
    capture (the skipped-capture deviation). The American board lists quiets
    first, then captures, so both ends of the list tell."""
    if depth == 0:
        return 1
    moves = board.legal_moves
    if not seen[0] and moves and moves[-1].captured_list and not moves[0].captured_list:
        seen[0] = True
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += perft_american(board, depth - 1, seen)
        board.pop()
    return total


def handle(req: dict) -> dict:
    import draughts

    base = {"peer": PEER, "version": version(PEER), "python": platform.python_version()}
    if req.get("info"):
        return {**base, "convention": "unique", "variants": dict(BOARDS)}

    variant, depth = req["variant"], int(req["depth"])
    board_name = BOARDS.get(variant)
    if board_name is None:
        return {**base, "supported": False, "variant": variant}
    board = getattr(draughts, board_name).from_fen(build_fen(req))

    notes = []
    if variant == "english":
        seen = [False]
        t0 = time.process_time()
        count = perft_american(board, depth, seen)
        seconds = time.process_time() - t0
        comparable = not seen[0]
        if seen[0]:
            notes.append("py-draughts' American board lets captures be skipped; the tree "
                         "reached positions where it did, so this is not the english perft")
    else:
        t0 = time.process_time()
        count = perft(board, depth)
        seconds = time.process_time() - t0
        comparable = True
    if variant == "giveaway":
        notes.append("no 8x8 giveaway board: counted on RussianBoard (same moves)")

    return {**base, "supported": True, "variant": variant, "peer_variant": board_name,
            "depth": depth, "count": count, "seconds": seconds, "convention": "unique",
            "comparable": comparable, "notes": notes}


def main() -> int:
    raw = sys.argv[1] if len(sys.argv) > 1 else sys.stdin.read()
    try:
        reply = handle(json.loads(raw))
    except Exception as exc:  # report, don't traceback: the caller parses stdout
        print(json.dumps({"error": f"{type(exc).__name__}: {exc}"}))
        return 1
    print(json.dumps(reply))
    return 0


if __name__ == "__main__":
    sys.exit(main())
