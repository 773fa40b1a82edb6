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

from typing import TYPE_CHECKING, List, Optional, Union


if TYPE_CHECKING:
    from ._core.position import Position
    from .board import Board
    from .variants import Variant

__all__ = ["LETTERS", "UNICODE_PIECES", "diagram", "square_at"]

def square_at(variant: Variant, row: int, col: int, flipped: bool = False) -> Optional[int]:
    """The square drawn at row `row` (0 = top) and column `col` (0 = left) of a diagram of
    `variant`, or None for a light square; `flipped` turns the board half round."""
    g = variant.geometry
    files = g.files
    file, rank = col, g.rows - 1 - row
    if flipped:
        file, rank = files - 1 - file, g.rows - 1 - rank
    if variant.mirrored:
        file = files - 1 - file
    return g.square_at(file, rank)


#: the letters of a diagram: a white man, a white king, a black man, a black king, an empty
#: square
LETTERS = "wWbB."
#: draughts' own symbols (Unicode's draughts men and kings, U+26C0-U+26C3)
UNICODE_PIECES = "⛀⛁⛂⛃·"


def diagram(board: Union[Board, Position], flipped: bool = False,
            symbols: str = LETTERS) -> str:
    """`board` (a Board or a Position) as text (see the module docstring); `flipped` turns it
    half round, Black at the bottom; `symbols` are the five characters of a white man, a
    white king, a black man, a black king and an empty square."""
    variant = board.variant
    g = variant.geometry
    files = g.files
    numeric = variant.numeric
    white, black, kings = board.white, board.black, board.kings
    wide = len(str(g.squares))          # the widest square number in the key
    border = "+" + "-" * (2 * files + 1) + "+"
    key_border = "+" + "-" * (files * (wide + 1) + 1) + "+"
    rank_width = 1 if numeric else len(str(g.rows))
    pad = " " * (rank_width + 1)
    rows = [f"{pad}{border}" + (f"   {key_border}" if numeric else "")]
    for row in range(g.rows):
        cells: List[str] = []
        keys: List[str] = []
        for col in range(files):
            square = square_at(variant, row, col, flipped)
            if square is None:
                cells.append(" ")
                keys.append(" " * wide)
                continue
            keys.append(f"{variant.square_name(square):>{wide}}")
            bit = 1 << square
            king = 1 if kings & bit else 0
            cells.append(symbols[king] if white & bit else symbols[2 + king] if black & bit
                         else symbols[4])
        label = "" if numeric else str(row + 1 if flipped else g.rows - row)
        line = f"{label:>{rank_width}} | {' '.join(cells)} |"
        if numeric:
            line += f"   | {' '.join(keys)} |"
        rows.append(line)
    rows.append(f"{pad}{border}" + (f"   {key_border}" if numeric else ""))
    if not numeric:
        letters = "abcdefghijklmnop"[:files]
        rows.append(pad + "  " + " ".join(letters[::-1] if flipped else letters))
    return "\n".join(rows)
