"""Move: a value, identified by origin, destination and the set of captured squares."""

from __future__ import annotations

from typing import Iterable, Optional, Tuple

from .squares import squares_mask


class Move:
    """A legal move, as `Board.legal_moves` lists it.

    Two moves are equal when they have the same origin, destination and set of captured
    squares (RULES.md "Move identity"); the route (`path`, the order of `captured`) is one of
    possibly several that make the same move, and `routes` counts them.  Squares are ints
    0..31 (see shashki.squares); `str(move)` is the move's text in its game's notation.
    """

    __slots__ = ("origin", "destination", "captured", "path", "routes", "promotion", "_text",
                 "_key")

    origin: int
    destination: int
    captured: Tuple[int, ...]
    path: Tuple[int, ...]
    routes: int
    promotion: bool
    _text: Optional[str]
    _key: Tuple[int, int, int]

    def __init__(self, origin: int, destination: int, captured: Iterable[int] = (),
                 path: Optional[Iterable[int]] = None, routes: int = 1, promotion: bool = False,
                 text: Optional[str] = None) -> None:
        self.origin = origin
        self.destination = destination
        #: captured squares, in the order of the route in `path`
        self.captured = tuple(captured)
        #: squares visited: the origin, then each landing square, ending on the destination
        self.path = tuple(path) if path is not None else (origin, destination)
        #: number of routes (distinct capture orders) that make this move
        self.routes = routes
        #: a man is crowned by this move
        self.promotion = promotion
        self._text = text
        self._key = (origin, destination, squares_mask(self.captured))

    @property
    def is_capture(self) -> bool:
        return bool(self.captured)

    @property
    def captured_mask(self) -> int:
        return self._key[2]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self._key < other._key

    def __str__(self) -> str:
        if self._text is not None:
            return self._text
        sep = "x" if self.captured else "-"
        return f"{self.origin}{sep}{self.destination}"

    def __repr__(self) -> str:
        return f"Move({str(self)!r})"
