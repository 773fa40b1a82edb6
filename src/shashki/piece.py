"""A piece: its colour and whether it is a king, as Board.piece_at and piece_map give it and
Board.set_piece_at takes it.

    >>> from shashki import BLACK, WHITE, Piece
    >>> Piece(WHITE), Piece(BLACK, king=True)
    (Piece(WHITE, king=False), Piece(BLACK, king=True))
    >>> str(Piece(BLACK, True)), Piece(BLACK, True).symbol(), Piece.from_symbol("w")
    ('black king', 'B', Piece(WHITE, king=False))

A Piece is a named tuple, so it still unpacks as the (color, is_king) pair that piece_at gave
before there was a Piece: ``color, king = board.piece_at("c3")``.
"""

from __future__ import annotations

from typing import Callable, NamedTuple

from .colors import Color
from .diagram import LETTERS
from .errors import InvalidPieceError

__all__ = ["Piece"]


class Piece(NamedTuple):
    """A piece of one side (`color`, shashki.WHITE or BLACK): a king, or a man."""

    color: Color
    king: bool = False

    def symbol(self) -> str:
        """The piece's letter in a diagram (shashki.diagram): w and b for the men, W and B for
        the kings."""
        # (LETTERS is White's two letters first; WHITE is 1)
        return LETTERS[(0 if self.color == Color.WHITE else 2) + self.king]

    @classmethod
    def from_symbol(cls, symbol: str) -> Piece:
        """The piece of a diagram letter (w, W, b, B); InvalidPieceError for anything else."""
        if not isinstance(symbol, str) or len(symbol) != 1 or symbol not in LETTERS[:4]:
            raise InvalidPieceError(f"a piece's symbol is one of w W b B (a white man, a white "
                                    f"king, a black man, a black king), not {symbol!r:.20}")
        index = LETTERS.index(symbol)
        return cls(Color.WHITE if index < 2 else Color.BLACK, bool(index % 2))

    def __str__(self) -> str:
        return f"{_color_text(self.color, str)} {'king' if self.king else 'man'}"

    def __repr__(self) -> str:
        return f"Piece({_color_text(self.color, lambda c: c.name)}, king={self.king!r})"


def _color_text(color: object, text: Callable[[Color], str]) -> str:
    """`text` of the Color of `color`, where it is one (WHITE or BLACK, or the int or bool of
    one: a Piece may be made with a plain 0 or 1); else its repr, so that a Piece of no colour
    (Piece(2), Piece(1.0)) shows what it holds, and saying so never fails."""
    if isinstance(color, int) and color in (Color.WHITE, Color.BLACK):
        return text(Color(color))
    return repr(color)
