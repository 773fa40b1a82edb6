"""Move: a value, identified by origin, destination and the set of captured squares."""

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

    def __init__(self, origin, destination, captured=(), path=None, routes=1, promotion=False,
                 text=None):
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
    def is_capture(self):
        return bool(self.captured)

    @property
    def captured_mask(self):
        return self._key[2]

    def __eq__(self, other):
        if not isinstance(other, Move):
            return NotImplemented
        return self._key == other._key

    def __hash__(self):
        return hash(self._key)

    def __lt__(self, other):
        if not isinstance(other, Move):
            return NotImplemented
        return self._key < other._key

    def __str__(self):
        if self._text is not None:
            return self._text
        sep = "x" if self.captured else "-"
        return f"{self.origin}{sep}{self.destination}"

    def __repr__(self):
        return f"Move({str(self)!r})"
