"""The boards of the games the peer workers handle, as shashki and RULES.md lay them out,
and the merging of a move list by RULES.md's move identity.

Stdlib only and imported by every worker (each runs in a peer's venv, which has no shashki),
so that the square conversions of the perft and the moves workers are the same code.

A position reaches a worker as (file, rank) pairs, 0-based from White's side (a1 = (0, 0) is
dark; on the italian board, mirrored, these are the coordinates of its own board, h1 dark).
"""

from __future__ import annotations

#: the 10x10 games (squares 1-50, 1 = b10 seen from White, 46 = a1); every other one is 8x8
TEN = frozenset({"international", "antidraughts", "breakthrough", "frisian", "frysk"})
#: the games played on every square of the 8x8 board (a1 = 0, row by row: shashki's squares)
EVERY_SQUARE = frozenset({"turkish"})


def size(variant: str) -> int:
    return 10 if variant in TEN else 8


def number(variant: str, file: int, rank: int) -> int:
    """(file, rank) -> square number 1.., row by row from the top-left dark square seen from
    White.  One formula serves the english, italian and 10x10 numberings: each row holds one
    dark square per pair of files, whichever colour the corner is."""
    n = size(variant)
    return n // 2 * (n - 1 - rank) + file // 2 + 1


def shashki_square(variant: str, file: int, rank: int) -> int:
    """(file, rank) of the game's own board -> shashki square (row by row from White's side,
    a1 = 0).  The italian board is the mirror image of the others (h1 dark); shashki stores
    it mirrored back onto the standard board, as shashki's italian numbering does (Variant.square_from_number)."""
    n = size(variant)
    if variant in EVERY_SQUARE:
        return n * rank + file
    if variant == "italian":
        file = n - 1 - file
    return n // 2 * rank + file // 2


def game_squares(variant: str) -> list:
    """The playable (file, rank) pairs of the game's board: a1 dark, except on the mirrored
    italian board; every square in turkish."""
    n = size(variant)
    if variant in EVERY_SQUARE:
        return [(f, r) for r in range(n) for f in range(n)]
    light_corner = variant == "italian"
    return [(f, r) for r in range(n) for f in range(n) if (f + r) % 2 == light_corner]


def walk(board, depth: int, moves_at) -> int:
    """Perft leaves `depth` plies below a peer's board, over the list moves_at(board) of
    each node (both libraries' boards push and pop); the last ply is counted in bulk (the
    length of the list), as perft programs do."""
    if depth == 0:
        return 1
    moves = moves_at(board)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += walk(board, depth - 1, moves_at)
        board.pop()
    return total


def one_per_move(moves: list, identity) -> list:
    """The first entry of each move in a peer's list, by identity(entry): RULES.md's
    (origin, destination, set of captured squares), the "unique" perft convention."""
    first: dict = {}
    for move in moves:
        first.setdefault(identity(move), move)
    return list(first.values())
