"""The board as a text diagram, drawn from the public Board API (what `shashki play` shows).

    >>> import shashki
    >>> from shashki.diagram import diagram
    >>> print(diagram(shashki.Board("russian", "W:Wa1,Kc3:Bh8")))
      +-----------------+
    8 |   .   .   .   b |
    7 | .   .   .   .   |
    6 |   .   .   .   . |
    5 | .   .   .   .   |
    4 |   .   .   .   . |
    3 | .   W   .   .   |
    2 |   .   .   .   . |
    1 | w   .   .   .   |
      +-----------------+
        a b c d e f g h

Men are w and b, kings W and B, empty dark squares '.'.  White is at the bottom in every
game (Black's men start on the top rows in english too); mirrored boards (italian) are drawn
mirrored, with their bottom-left corner light.  The games that name squares by number get a
key of the numbers beside the board instead of the letters and rank numbers around it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, List, Optional

from . import squares as _sq

if TYPE_CHECKING:
    from .board import Board
    from .variants import Variant

__all__ = ["diagram", "square_at"]

_BORDER = "+" + "-" * 17 + "+"
_KEY_BORDER = "+" + "-" * 25 + "+"


def square_at(variant: Variant, row: int, col: int, flipped: bool = False) -> Optional[int]:
    """The square drawn at row `row` (0 = top) and column `col` (0 = left) of a diagram of
    `variant`, or None for a light square; `flipped` turns the board half round."""
    file, rank = col, 7 - row
    if flipped:
        file, rank = 7 - file, 7 - rank
    if variant.mirrored:
        file = 7 - file
    return _sq.square_at(file, rank)


def diagram(board: Board, flipped: bool = False) -> str:
    """`board` as text (see the module docstring); `flipped` turns it half round, Black at
    the bottom."""
    variant = board.variant
    numeric = variant.numeric
    white, black, kings = board.white, board.black, board.kings
    key_border = f"   {_KEY_BORDER}" if numeric else ""
    rows = [f"  {_BORDER}{key_border}"]
    for row in range(8):
        cells: List[str] = []
        keys: List[str] = []
        for col in range(8):
            square = square_at(variant, row, col, flipped)
            if square is None:
                cells.append(" ")
                keys.append("  ")
                continue
            keys.append(f"{variant.square_name(square):>2}")
            bit = 1 << square
            letter = "w" if white & bit else "b" if black & bit else "."
            cells.append(letter.upper() if kings & bit else letter)
        label = " " if numeric else str(row + 1 if flipped else 8 - row)
        line = f"{label} | {' '.join(cells)} |"
        if numeric:
            line += f"   | {' '.join(keys)} |"
        rows.append(line)
    rows.append(f"  {_BORDER}{key_border}")
    if not numeric:
        rows.append("    " + " ".join(_sq.FILES[::-1] if flipped else _sq.FILES))
    return "\n".join(rows)
