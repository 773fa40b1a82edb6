"""Square text: the one reader of a square's name (``c3``, ``22``) in a game's notation.

Moves (notation), FEN, SVG, the Hub protocol and ``Variant.square`` read squares here.  Each
of them words an error its own way (a FEN's message names the FEN, a move's the move text,
the Hub's its own error class), so the reader raises a ``SquareTextError`` that carries *why*
the text is no square (``reason``, one of the constants below) and the facts a message needs;
the caller phrases it, or passes it on (it is an InvalidSquareError with a plain message).

Numbers are the game's numbering (``Variant.square_from_number``).  Whether a number names a
square in an algebraic game depends on where it is written: a move in russian is ``c3-d4``,
never ``22-18``, while russian FEN takes both (``numbers="always"``).  The Hub numbers the
squares of the algebraic games its own way and reads the number alone (``read_number``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ._text import bounded_int, short
from .errors import InvalidSquareError

if TYPE_CHECKING:
    from .variants import Variant

#: why text is no square: neither a number nor a letter and a number
UNREADABLE = "unreadable"
#: a number where the game (or this kind of text) names squares by letter and number
NUMBER_NOT_NAME = "number"
#: a letter and a number where the game numbers its squares
NAME_NOT_NUMBER = "name"
#: a number below 1 or past the last square
OUT_OF_RANGE = "range"
#: a letter or a rank past the board's edge
OFF_BOARD = "off"
#: a square of the board that is not played on
LIGHT = "light"

_NUMBER = re.compile(r"[0-9]+\Z")
_ALGEBRAIC = re.compile(r"([a-z])([0-9]+)\Z")
_LETTERS = "abcdefghijklmnop"


class SquareTextError(InvalidSquareError):
    """Text that names no square.  ``reason`` says why (a constant of shashki.square_text),
    ``token`` is the text, ``last`` the last square's number and ``corner`` the
    range of names (``a1-h8``), for the caller's message."""

    def __init__(self, reason: str, token: str, variant: Variant) -> None:
        g = variant.geometry
        self.reason = reason
        self.token = token
        self.last = g.squares
        self.corner = f"a1-{_LETTERS[g.files - 1]}{g.rows}"
        self.game = variant.name
        self.example = "22" if variant.numeric else "c3"
        super().__init__(self.plain())

    def plain(self) -> str:
        """The error in words that name no context: '33 is out of range; squares are 1-32'."""
        token, last, corner = short(self.token, 16), self.last, self.corner
        return {
            UNREADABLE: f"cannot read square {token!r}; expected a square such as "
                        f"{self.example}",
            NUMBER_NOT_NAME: f"{self.game} names squares {corner}, not numbers: {token!r}",
            NAME_NOT_NUMBER: f"{self.game} squares are numbers 1-{last}, not {token!r}",
            OUT_OF_RANGE: f"square {token} is out of range; squares are numbered 1-{last}",
            OFF_BOARD: f"square {token} is off the board; squares are {corner}",
            LIGHT: f"{token} is a light square; pieces stand on dark squares",
        }[self.reason]


def is_number(token: str) -> bool:
    """Whether `token` is a run of ASCII digits (a square's number, perhaps out of range)."""
    return _NUMBER.match(token) is not None


def read_number(token: str, variant: Variant) -> int:
    """The number 1..(squares) that `token` (digits) is; SquareTextError (OUT_OF_RANGE) for
    one past the board, of any length."""
    number = bounded_int(token, variant.geometry.squares)
    if number is None or number < 1:
        raise SquareTextError(OUT_OF_RANGE, token, variant)
    return number


def read_square(token: str, variant: Variant, numbers: str = "game") -> int:
    """The internal square that `token` (stripped, lowercase) names in `variant`'s notation.

    `numbers` says where a number names a square: ``"game"`` in the numeric games only (move
    text, ``Variant.square``), ``"always"`` in every game, by its numbering (FEN).  Raises
    SquareTextError."""
    if _NUMBER.match(token):
        if not variant.numeric and numbers != "always":
            raise SquareTextError(NUMBER_NOT_NAME, token, variant)
        return variant.square_from_number(read_number(token, variant))
    match = _ALGEBRAIC.match(token)
    if not match:
        raise SquareTextError(UNREADABLE, token, variant)
    if variant.numeric:
        raise SquareTextError(NAME_NOT_NUMBER, token, variant)
    g = variant.geometry
    file, rank_text = match.groups()
    column = _LETTERS.find(file)
    rank = bounded_int(rank_text, g.rows)
    if not 0 <= column < g.files or rank is None or rank < 1:
        raise SquareTextError(OFF_BOARD, token, variant)
    square = g.square_at(column, rank - 1)
    if square is None:
        raise SquareTextError(LIGHT, token, variant)
    return square
