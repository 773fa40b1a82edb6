"""Square numbering and the names of squares in each notation.

Inside shashki a square is an int 0..31, counted row by row from White's side of the board:
a1 = 0, c1 = 1, e1 = 2, g1 = 3, b2 = 4, ..., h8 = 31 (as python-chess counts a1 = 0).  A set of
squares is a 32-bit mask with bit `s` for square `s`.  The games name squares differently:

- algebraic (russian, giveaway, brazilian): a1..h8, a1 dark, White on ranks 1-3;
- english numeric: 1 = b8 ... 4 = h8, 29 = a1 ... 32 = g1 (Black on 1-12, White on 21-32);
- italian numeric: the board is mirrored (a1 light, h1 dark); 1 = a8, the top-left dark square
  seen from White, 32 = h1.  Mirroring keeps every rule, so italian square n is the english
  square of the same row with the row read right to left.
"""

from __future__ import annotations

import sys
from typing import Dict, Iterable, List, Optional, Tuple

FILES = "abcdefgh"
SQUARES = range(32)


def square_rank(square: int) -> int:
    """0 for rank 1 ... 7 for rank 8."""
    return square // 4


def square_file(square: int) -> int:
    """0 for the a-file ... 7 for the h-file (standard, unmirrored board)."""
    rank = square // 4
    return 2 * (square % 4) + (rank % 2)


def square_at(file: int, rank: int) -> Optional[int]:
    """The square on (file, rank), both 0..7, or None for a light square."""
    if not (0 <= file < 8 and 0 <= rank < 8) or (file + rank) % 2:
        return None
    return 4 * rank + file // 2


def algebraic_name(square: int) -> str:
    return FILES[square_file(square)] + str(square_rank(square) + 1)


def english_number(square: int) -> int:
    return 4 * (7 - square // 4) + square % 4 + 1


def italian_number(square: int) -> int:
    return 4 * (7 - square // 4) + 3 - square % 4 + 1


def from_english_number(number: int) -> int:
    return 4 * (7 - (number - 1) // 4) + (number - 1) % 4


def from_italian_number(number: int) -> int:
    return 4 * (7 - (number - 1) // 4) + 3 - (number - 1) % 4


ALGEBRAIC_NAMES: Tuple[str, ...] = tuple(algebraic_name(s) for s in SQUARES)
ALGEBRAIC_INDEX: Dict[str, int] = {name: s for s, name in enumerate(ALGEBRAIC_NAMES)}
assert all(from_english_number(english_number(s)) == s for s in SQUARES)
assert all(from_italian_number(italian_number(s)) == s for s in SQUARES)


def mask_squares(mask: int) -> List[int]:
    """The squares of a mask, in increasing order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


if sys.version_info >= (3, 10):
    #: the number of squares in a mask
    popcount = int.bit_count
else:  # int.bit_count is new in Python 3.10
    def popcount(mask: int) -> int:
        return bin(mask).count("1")


def squares_mask(squares: Iterable[int]) -> int:
    mask = 0
    for s in squares:
        mask |= 1 << s
    return mask
