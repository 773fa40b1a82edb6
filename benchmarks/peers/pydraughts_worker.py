"""Perft worker for pydraughts (PyPI ``pydraughts``, imports as ``draughts``).

Runs inside benchmarks/.venvs/pydraughts/ (see ../peers.py). Request: one JSON
object as argv[1] (or on stdin):

    {"variant": "italian", "depth": 5, "turn": "W",
     "white": [[file, rank, is_king], ...], "black": [...]}   # a1 = (0, 0)
    {"info": true}

Reply: one JSON line on stdout (see peers.peer_perft for the fields).

What pydraughts 0.6.7 does, read from its source (draughts/core/game.py,
core/variant.py, convert.py):

- Move lists follow the **paths** (keep-duplicates) convention: moves are built
  jump by jump (``Game.get_moves``) and every route is its own entry; nothing
  merges routes with the same origin, destination and captures. A route here
  also tells apart the landing squares between captures, which RULES.md's
  paths identity (origin, ordered captured squares, destination) does not, so
  a flying king that may land on several squares and then capture the same
  next piece further along the same line is listed more than once. The worker
  checks every capture node for that and reports ``comparable: false`` if it
  happened.
- Italian priority rule (4) only compares where the *first* king is captured,
  not the whole king/man order (RULES.md "Known deviations"). After rules 1-4
  every surviving capture must have the same king/man order, so the worker
  reports ``comparable: false`` when pydraughts leaves two that differ.
- No 8x8 giveaway (its Antidraughts is 10x10 international), so giveaway runs
  on the russian board: giveaway moves are russian moves, only the result
  differs, and perft ignores results.
- 10x10: international is its ``standard``; ``antidraughts``, ``breakthrough``,
  ``frisian`` and ``frysk`` (``frysk!`` inside) keep their names. All number
  the squares 1-50 as RULES.md does (1 = b10, White on 31-50), unrotated.
  Antidraughts and breakthrough moves are standard's (``Game.legal_moves``
  sends every game without a branch of its own to the most-pieces rule); only
  the result differs.
- ``"convention": "unique"`` in a request merges the entries of each node's
  list by the RULES.md identity (origin, destination, set of captured squares)
  and walks one entry per move, for comparing with tables in that convention
  (frisian's published one).
- Notation of the public Board/FEN API: russian and brazilian take algebraic
  FENs; italian takes the FID numbering (1 = a8, h1 dark), english the english
  numbering with Black on 1-12 to move first, all as in RULES.md; pydraughts
  converts internally (english is colour-swapped and rotated inside). So we
  hand it the game's own notation, nothing rotated.
- It has no perft function; we run the plain recursive perft below over the
  public ``Board.legal_moves()`` / ``push`` / ``pop``. (Its internal
  ``Board._game`` API is not faster in a way that matters: move generation
  copies and rebuilds the board per jump and dominates either way.)
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

PEER = "pydraughts"

# RULES.md variant -> pydraughts variant name (None = unsupported).
VARIANTS = {
    "russian": "russian",
    "giveaway": "russian",
    "brazilian": "brazilian",
    "italian": "italian",
    "english": "english",
    "international": "standard",
    "antidraughts": "antidraughts",
    "breakthrough": "breakthrough",
    "frisian": "frisian",
    "frysk": "frysk",
    "turkish": "turkish",
}


def square_text(variant: str, file: int, rank: int) -> str:
    """The square as pydraughts' FEN of `variant` (a RULES.md name) wants it."""
    if VARIANTS[variant] in ("russian", "brazilian", "turkish"):
        return "abcdefgh"[file] + str(rank + 1)
    return str(number(variant, file, rank))


def build_fen(variant: str, req: dict) -> str:
    def side(pieces):
        return ",".join(("K" if king else "") + square_text(variant, f, r)
                        for f, r, king in pieces)

    return f"{req['turn']}:W{side(req['white'])}:B{side(req['black'])}"


class Checks:
    """Records, at capture nodes, where pydraughts' list departs from RULES.md."""

    def __init__(self, italian: bool) -> None:
        self.italian = italian
        self.extra_routes = 0     # list entries beyond RULES.md's paths identity
        self.italian_rule4 = 0    # nodes with captures left in different king/man order

    def visit(self, board, moves) -> None:
        if len(moves) < 2 or not moves[0].captures:
            return
        keys = {(m.board_move[0][0], tuple(m.captures), m.board_move[-1][1]) for m in moves}
        self.extra_routes += len(moves) - len(keys)
        if self.italian:
            # Italian squares are pydraughts' internal squares (no rotation).
            piece = board._game.board.searcher.get_piece_by_position
            orders = {tuple(piece(sq).king for sq in m.captures) for m in moves}
            if len(orders) > 1:
                self.italian_rule4 += 1


def identity(move):
    """RULES.md's move identity: origin, destination, set of captured squares."""
    captured = frozenset(s for s in (move.captures or ()) if s is not None)
    return move.board_move[0][0], move.board_move[-1][1], captured


def perft(board, depth: int, checks: Checks, unique: bool = False) -> int:
    """Leaves below the board, every entry of each node's list walked (the paths
    convention), or with ``unique`` one entry per move."""

    def moves_at(node):
        moves = node.legal_moves()
        checks.visit(node, moves)
        return one_per_move(moves, identity) if unique else moves

    return walk(board, depth, moves_at)


def handle(req: dict) -> dict:
    import draughts

    base = {"peer": PEER, "version": version(PEER), "python": platform.python_version()}
    if req.get("info"):
        return {**base, "convention": "paths", "variants": dict(VARIANTS)}

    variant, depth = req["variant"], int(req["depth"])
    peer_variant = VARIANTS.get(variant)
    if peer_variant is None:
        return {**base, "supported": False, "variant": variant}
    board = draughts.Board(peer_variant, build_fen(variant, req))
    unique = req.get("convention", "paths") == "unique"

    checks = Checks(italian=peer_variant == "italian")
    t0 = time.process_time()
    count = perft(board, depth, checks, unique)
    seconds = time.process_time() - t0

    notes = []
    if checks.extra_routes and not unique:
        notes.append(f"{checks.extra_routes} move-list entries repeat a route already listed "
                     "(same origin, ordered captures, destination; only the landing squares "
                     "between captures differ): count exceeds the paths convention")
    if checks.italian_rule4:
        notes.append(f"{checks.italian_rule4} nodes kept captures whose king/man order differs "
                     "(pydraughts' partial italian rule 4)")
    if variant == "giveaway":
        notes.append("no 8x8 giveaway variant: counted as russian (same moves)")

    return {**base, "supported": True, "variant": variant, "peer_variant": peer_variant,
            "depth": depth, "count": count, "seconds": seconds,
            "convention": "unique" if unique else "paths",
            "comparable": not ((checks.extra_routes and not unique) or checks.italian_rule4),
            "notes": notes}


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
