"""Board geometry: where the playable squares are, as the compiled kernels lay them out.

A board `width` squares per row (4 on 8x8, 5 on 10x10) and `rows` rows high.  Squares are
numbered 0.. row by row from White's side, each row from the left (a1 = 0 on 8x8).  The kernels
keep them in a 64-bit word with one unused "ghost" bit after every second row, so that each
diagonal step is one shift by `width` or `width + 1` everywhere on the board (see
shashki/_core/kernel.pxd).  This module only computes that layout; it imports nothing
compiled, so setup.py can read it before the kernels exist.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Optional, Tuple


@dataclass(frozen=True)
class Geometry:
    name: str
    #: playable squares per row
    width: int
    rows: int

    @property
    def squares(self) -> int:
        return self.width * self.rows

    def ghost_bit(self, square: int) -> int:
        """The kernel's bit for square 0..squares-1: rows in pairs of 2 * width + 1 bits."""
        row, col = divmod(square, self.width)
        return (2 * self.width + 1) * (row // 2) + (self.width + 1) * (row % 2) + col

    def ghost_mask(self, squares: Iterable[int]) -> int:
        mask = 0
        for s in squares:
            mask |= 1 << self.ghost_bit(s)
        return mask

    @property
    def board_mask(self) -> int:
        """The kernel's playable bits."""
        return self.ghost_mask(range(self.squares))

    def coords(self, square: int) -> Tuple[int, int]:
        """(file, rank) of a square, both from 0: a1 is dark, so row r holds files of r's
        parity."""
        row, col = divmod(square, self.width)
        return 2 * col + (row % 2), row

    def square_at(self, file: int, rank: int) -> Optional[int]:
        """The square on (file, rank), both from 0, or None for a light square or off the
        board."""
        if not (0 <= file < 2 * self.width and 0 <= rank < self.rows) or (file + rank) % 2:
            return None
        return rank * self.width + file // 2

    @property
    def max_pieces(self) -> int:
        """The most pieces a side can have: its men on every row but the two middle ones."""
        return self.width * (self.rows // 2 - 1)

    @property
    def main_road_mask(self) -> int:
        """The squares of the long diagonal from White's left corner (a1-h8 on 8x8: the main
        road of the russian rules), as a square mask."""
        mask = 0
        for row in range(self.rows):
            file = row                      # a1, b2, c3, ...: the file equals the rank
            if file < 2 * self.width:
                mask |= 1 << (row * self.width + file // 2)
        return mask

    def row_mask(self, row: int) -> int:
        """The kernel's bits of row 0 (White's back row) .. rows - 1."""
        return self.ghost_mask(range(row * self.width, (row + 1) * self.width))


EIGHT = Geometry("8x8", width=4, rows=8)
TEN = Geometry("10x10", width=5, rows=10)
