"""Board geometry: where the playable squares are, and how the compiled kernels lay them out.

The one place that knows a board's shape.  A board is `files` columns wide and `rows` rows
high; on the dark-square boards (every game but turkish) pieces stand on the dark squares only,
a1 dark, `width` = files / 2 of them a row; on a full board (turkish) on all of them.  Squares
are numbered 0.. row by row from White's side, each row from the left (a1 = 0), and a set of
squares is a mask with bit s for square s.

The kernels keep a position in 64-bit words (shashki/_core/kernel.pxd).  On the dark-square
boards, one unused "ghost" bit follows every second row, so that each diagonal step is one
shift by `width` or `width + 1` everywhere on the board; a full board is the word itself, eight
squares a row, and a step east or west masks off the edge file first.  `kernel_constants` gives
the layout to setup.py, which compiles it into each kernel as constants and tables, so no other
module computes a bit, a file or a step.  This module imports nothing compiled, so setup.py can
read it before the kernels exist.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Dict, Iterable, List, Optional, Tuple, Union

#: the kernels' directions that pieces move in (0-3: d and 3 - d opposite), then the four
#: orthogonal capture directions of a dark-square board (frisian: 4-7, d and 11 - d opposite)
DIRECTIONS = 8


@dataclass(frozen=True)
class Geometry:
    name: str
    #: the board's columns
    files: int
    rows: int
    #: pieces stand on the dark squares only (a1 dark); False: on every square (turkish)
    dark_squares: bool = True

    @property
    def width(self) -> int:
        """Playable squares per row."""
        return self.files // 2 if self.dark_squares else self.files

    @property
    def squares(self) -> int:
        return self.width * self.rows

    def ghost_bit(self, square: int) -> int:
        """The kernel's bit for square 0..squares-1: on a dark-square board, rows in pairs of
        2 * width + 1 bits; on a full board, the square itself."""
        if not self.dark_squares:
            return square
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
        """(file, rank) of a square, both from 0: on a dark-square board row r holds the files
        of r's parity (a1 is dark)."""
        row, col = divmod(square, self.width)
        return (2 * col + (row % 2) if self.dark_squares else col), row

    def square_at(self, file: int, rank: int) -> Optional[int]:
        """The square on (file, rank), both from 0, or None for a light square of a
        dark-square board or off the board."""
        if not (0 <= file < self.files and 0 <= rank < self.rows):
            return None
        if not self.dark_squares:
            return rank * self.files + file
        if (file + rank) % 2:
            return None
        return rank * self.width + file // 2

    @property
    def max_pieces(self) -> int:
        """The most pieces a side can have: the men of its start.  A dark-square board fills
        every row but the two middle ones; a full board (turkish) leaves each side's back row
        empty too."""
        if self.dark_squares:
            return self.width * (self.rows // 2 - 1)
        return self.files * (self.rows // 2 - 2)

    @cached_property   # read by every new Board
    def main_road_mask(self) -> int:
        """The squares of the long diagonal from White's left corner (a1-h8 on 8x8: the main
        road of the russian rules), as a square mask."""
        mask = 0
        for row in range(min(self.rows, self.files)):
            square = self.square_at(row, row)   # a1, b2, c3, ...: the file equals the rank
            if square is not None:
                mask |= 1 << square
        return mask

    def row_mask(self, row: int) -> int:
        """The kernel's bits of row 0 (White's back row) .. rows - 1."""
        return self.ghost_mask(range(row * self.width, (row + 1) * self.width))

    def file_mask(self, file: int) -> int:
        """The kernel's bits of one column (a = 0)."""
        return self.ghost_mask(s for s in range(self.squares) if self.coords(s)[0] == file)

    # --- the kernels' directions ---------------------------------------------------------------

    def steps(self) -> List[Tuple[int, int]]:
        """For each of the kernels' DIRECTIONS, (shift, edge): a step moves the bits not in
        `edge` by `shift` (up if positive), and a step that leaves the board lands on no
        playable bit.  Directions 0-3 are the ones pieces move in, d and 3 - d opposite:
        north-east, north-west, south-east, south-west on a dark-square board; north, east,
        west, south on a full one.  4-7 are the orthogonal captures of a dark-square board
        (north, east, west, south; (0, 0) on a full board, whose moves are orthogonal)."""
        w = self.width
        if not self.dark_squares:
            east, west = self.file_mask(self.files - 1), self.file_mask(0)
            return [(w, 0), (1, east), (-1, west), (-w, 0)] + [(0, 0)] * 4
        # the next dark square of a row is the next bit, but the last square of a row is
        # followed by a ghost bit or by the next row's first square: mask the row's ends
        first = self.ghost_mask(range(0, self.squares, w))
        last = self.ghost_mask(range(w - 1, self.squares, w))
        return [(w + 1, 0), (w, 0), (-w, 0), (-(w + 1), 0),
                (2 * w + 1, 0), (1, last), (-1, first), (-(2 * w + 1), 0)]

    def men_directions(self, color: int) -> int:
        """The directions (bit d) a man of `color` moves in, the side as the compiled core
        numbers it (0 White, 1 Black: the kernels' constants; not shashki.Color's values): forward
        diagonally on a dark-square board; straight forward or sideways on a full board."""
        if self.dark_squares:
            return 0b0011 if color == 0 else 0b1100
        return 0b0111 if color == 0 else 0b1110

    def kernel_constants(self) -> Dict[str, Union[int, Tuple[int, ...]]]:
        """The layout as the compile-time constants of a kernel (see shashki/_core/kernel.pxi):
        sizes, masks, the directions, and the square -> bit and square -> file tables."""
        out: Dict[str, Union[int, Tuple[int, ...]]] = {
            "K_W": self.width, "K_ROWS": self.rows, "K_FILES": self.files,
            "K_SQUARES": self.squares, "K_MAX_PIECES": self.max_pieces,
            "K_DARK": int(self.dark_squares), "K_BOARD": self.board_mask,
            "K_ROW_TOP": self.row_mask(self.rows - 1), "K_ROW_BOTTOM": self.row_mask(0),
            "K_MEN_WHITE": self.men_directions(0), "K_MEN_BLACK": self.men_directions(1),
        }
        for d, (shift, edge) in enumerate(self.steps()):
            out[f"K_SHIFT_{d}"] = shift
            out[f"K_EDGE_{d}"] = edge
        pad = (-1,) * (64 - self.squares)
        out["K_BITS"] = tuple(self.ghost_bit(s) for s in range(self.squares)) + pad
        out["K_FILE_OF"] = tuple(self.coords(s)[0] for s in range(self.squares)) + pad
        return out


EIGHT = Geometry("8x8", files=8, rows=8)
TEN = Geometry("10x10", files=10, rows=10)
#: every square of an 8x8 board (turkish)
FULL_EIGHT = Geometry("8x8 full", files=8, rows=8, dark_squares=False)


def mask_squares(mask: int) -> List[int]:
    """The squares of a square mask (bit s for square s), in increasing order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def popcount(mask: int) -> int:
    """The number of squares in a square mask."""
    return bin(mask).count("1")
