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
- 10x10: StandardBoard (international), AntidraughtsBoard and
  BreakthroughBoard (StandardBoard's moves, other results), FrisianBoard and
  FryskBoard; squares 0-49 are RULES.md's 1-50 less one (0 = b10), White on
  the bottom rows, as on its 8x8 boards.
- Its frisian move core (boards/frisian.py, its own, not the shared one) does
  not merge: a capture made by two routes with the same origin, destination
  and captured squares (a man round a square and home, diagonally and
  orthogonally) is listed twice. For frisian and frysk the worker counts such
  entries and reports ``comparable: false``; ``"convention": "unique"`` in a
  request merges each node's list by that identity instead (any board).
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from importlib.metadata import version

# -I leaves this folder off sys.path; the board helpers beside it are stdlib only
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from boards import number, one_per_move, walk  # noqa: E402

PEER = "py-draughts"

# RULES.md variant -> py-draughts board class name (None = unsupported).
BOARDS = {
    "russian": "RussianBoard",
    "giveaway": "RussianBoard",
    "brazilian": "BrazilianBoard",
    "english": "AmericanBoard",
    "italian": None,
    "international": "StandardBoard",
    "antidraughts": "AntidraughtsBoard",
    "breakthrough": "BreakthroughBoard",
    "frisian": "FrisianBoard",
    "frysk": "FryskBoard",
    "turkish": None,
}


def square_number(variant: str, file: int, rank: int) -> int:
    # py-draughts numbers its 8x8 squares like english checkers (1 = b8), its 10x10 ones
    # as RULES.md does (1 = b10)
    return number(variant, file, rank)


def build_fen(req: dict) -> str:
    variant = req["variant"]

    def side(pieces):
        return ",".join(("K" if king else "") + str(square_number(variant, f, r))
                        for f, r, king in pieces)

    return f"{req['turn']}:W{side(req['white'])}:B{side(req['black'])}"


def perft(board, depth: int) -> int:
    return walk(board, depth, lambda node: node.legal_moves)


def identity(move):
    """RULES.md's move identity: origin, destination, set of captured squares."""
    return move.square_list[0], move.square_list[-1], frozenset(move.captured_list)


def perft_checked(board, depth: int, merge: bool, repeats: list) -> int:
    """As ``perft``, but counting in repeats[0] the list entries that repeat a move's
    identity, and with ``merge`` walking one entry per identity."""

    def moves_at(node):
        moves = node.legal_moves
        merged = one_per_move(moves, identity)
        repeats[0] += len(moves) - len(merged)
        return merged if merge else moves

    return walk(board, depth, moves_at)


def perft_american(board, depth: int, seen: list) -> int:
    """As ``perft``, but records whether any node offered a quiet move next to a
    capture (the skipped-capture deviation). The American board lists quiets
    first, then captures, so both ends of the list tell."""

    def moves_at(node):
        moves = node.legal_moves
        if not seen[0] and moves and moves[-1].captured_list and not moves[0].captured_list:
            seen[0] = True
        return moves

    return walk(board, depth, moves_at)


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
    merge = req.get("convention") == "unique"
    if merge or variant in ("frisian", "frysk"):
        repeats = [0]
        t0 = time.process_time()
        count = perft_checked(board, depth, merge, repeats)
        seconds = time.process_time() - t0
        comparable = merge or not repeats[0]
        if repeats[0] and not merge:
            notes.append(f"{repeats[0]} move-list entries repeat a move (same origin, "
                         "destination and captured squares by another route): the count is "
                         "not the unique one")
    elif variant == "english":
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
