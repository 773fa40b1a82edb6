"""Pictures of boards as SVG: ``shashki.svg.board(board)`` returns the text of an SVG image.

>>> import shashki, shashki.svg
>>> svg = shashki.svg.board(shashki.Board("italian"), size=200)
>>> svg.startswith("<svg") and svg.count('class="piece ') == 24
True

Each game is drawn the way its players see it (docs/games/notation.md, "Squares of each game"): with a
dark square in White's bottom-left corner (a1), or mirrored where the game's record says so
(``Variant.mirrored``: italian, spanish), with a light square there and h1 dark.  The edges
carry the files and ranks (a-h and 1-8 on 8x8); in the numeric games (``Variant.numeric``:
italian, english, international, ...) every dark square also shows its number, since those
games are read by number.  ``flipped=True`` shows the board from Black's side.

Plain string building with no dependencies, as python-chess's ``chess.svg`` does; Jupyter shows
a Board as this picture (``Board._repr_svg_``).  The elements carry classes (``square dark c3``,
``piece white king``, ``lastmove``, ``arrow``) so the picture can be restyled or inspected.
"""

from __future__ import annotations

from typing import (TYPE_CHECKING, Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple,
                    Union)

from .errors import InvalidSquareError
from .move import Move
from .variants import WHITE, Variant

if TYPE_CHECKING:
    from .board import Board

#: an arrow: a Move, or a pair of squares (ints or names in the game's notation)
Arrow = Union[Move, Tuple[Union[int, str], Union[int, str]]]

#: size of one square in the picture's own units (the viewBox); `size` scales the whole picture
SQUARE_SIZE = 45
#: width of the border that holds the coordinates
MARGIN = 20

DEFAULT_COLORS: Dict[str, str] = {
    "square light": "#f0d9b5",
    "square dark": "#b58863",
    "margin": "#3b2a1c",
    "coord": "#f0e6d2",
    # the numbers of the numeric games, drawn on the dark squares
    "square number": "#f7ecd8",
    "white": "#fbfaf5",
    "white outline": "#1e1e1e",
    "black": "#1e1e1e",
    # a light outline keeps a black piece visible on a dark square
    "black outline": "#e8e2d6",
    "crown": "#e0a526",
    "crown outline": "#4a3000",
    "lastmove": "#cdd26a",
    "lastmove path": "#dde48c",
    "captured": "#d9534f",
    "arrow": "#15781b",
}


def board(board: Board, size: float = 400, flipped: bool = False,
          last_move: Optional[Move] = None, arrows: Iterable[Arrow] = (),
          coordinates: bool = True, colors: Optional[Mapping[str, str]] = None) -> str:
    """The SVG text of a picture of `board` (a shashki.Board), `size` pixels wide and high.

    - `flipped`: seen from Black's side (the board turned half a turn).
    - `last_move`: a Move to highlight: its origin and destination, and for a capture the
      landing squares on its route and the captured squares.
    - `arrows`: arrows to draw, each a Move (a capture's arrow bends at each landing square of
      its route) or a pair (from_square, to_square) of squares 0..31 or square names in the
      game's notation (``"c3"``, ``"22"``); a pair with the same square twice marks that
      square with a ring.
    - `coordinates`: draw the border with files and ranks (and, in the numeric games, the
      square numbers).
    - `colors`: a dict overriding entries of DEFAULT_COLORS (CSS colours).

    Raises InvalidSquareError for a square that is not one of the board's playable ones, TypeError
    or ValueError for arguments of the wrong kind.
    """
    size_text = _check_size(size)
    palette = _palette(colors)
    variant = board.variant
    view = _View(variant, bool(flipped), MARGIN if coordinates else 0)
    extent = view.extent
    moves = [] if last_move is None else [_check_move(last_move, "last_move", variant)]
    arrow_routes = [_arrow_squares(arrow, variant) for arrow in _iterable(arrows, "arrows")]

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" '
           f'class="shashki-board {variant.name}" width="{size_text}" height="{size_text}" '
           f'viewBox="0 0 {extent} {extent}">']
    out.append(f"<desc>{_escape(board.fen())}</desc>")
    if view.margin:
        out.append(f'<rect class="margin" x="0" y="0" width="{extent}" height="{extent}" '
                   f'fill="{palette["margin"]}"/>')
    out.extend(_squares(view, palette))
    for move in moves:
        out.extend(_last_move(move, view, palette))
    if coordinates:
        out.extend(_coordinates(view, palette))
    out.extend(_pieces(board, view, palette))
    if coordinates and variant.numeric:
        out.extend(_square_numbers(view, palette))
    for route in arrow_routes:
        out.append(_arrow(route, view, palette))
    out.append("</svg>")
    return "\n".join(out)


def cells(variant: Variant, flipped: bool = False) -> List[Tuple[int, int]]:
    """(column, row) of the cell where each square 0.. of `variant` is drawn by board(),
    (0, 0) being the top-left cell: the layout for a picture drawn elsewhere (the page of
    `shashki serve` draws its board in the browser)."""
    view = _View(variant, bool(flipped), 0)
    return [view.column_row(*variant.geometry.coords(square))
            for square in range(variant.geometry.squares)]


_LETTERS = "abcdefghijklmnop"


class _View:
    """Where each square of a game goes in the picture."""

    def __init__(self, variant: Variant, flipped: bool, margin: int) -> None:
        # italian boards are mirrored: the internal a-file is the right-hand edge (h1 is dark)
        self.mirrored = variant.mirrored
        self.flipped = flipped
        self.margin = margin
        self.variant = variant
        self.geometry = variant.geometry
        self.files = self.geometry.files
        self.letters = _LETTERS[:self.files]
        self.extent = self.files * SQUARE_SIZE + 2 * margin

    def column_row(self, file: int, rank: int) -> Tuple[int, int]:
        """Column (0 = left) and row (0 = top) of the internal (file, rank)."""
        last = self.files - 1
        column = last - file if self.mirrored else file
        row = last - rank
        if self.flipped:
            column, row = last - column, last - row
        return column, row

    def corner(self, file: int, rank: int) -> Tuple[int, int]:
        column, row = self.column_row(file, rank)
        return self.margin + column * SQUARE_SIZE, self.margin + row * SQUARE_SIZE

    def center(self, square: int) -> Tuple[float, float]:
        x, y = self.corner(*self.geometry.coords(square))
        return x + SQUARE_SIZE / 2, y + SQUARE_SIZE / 2

    def label(self, file: int, rank: int) -> str:
        """The name of the internal (file, rank) on this board's edges: the letter of the
        column it is drawn in (italian boards are lettered left to right as seen from White,
        so italian a1 is the light bottom-left corner) and its rank."""
        column = self.files - 1 - file if self.mirrored else file
        return self.letters[column] + str(rank + 1)


def _squares(view: _View, palette: Mapping[str, str]) -> List[str]:
    out = []
    for rank in range(view.files):
        for file in range(view.files):
            x, y = view.corner(file, rank)
            square = view.geometry.square_at(file, rank)
            shade = "light" if square is None else "dark"
            extra = ""
            if square is not None and view.variant.numeric:
                extra = f' data-number="{view.variant.square_name(square)}"'
            out.append(f'<rect class="square {shade} {view.label(file, rank)}"{extra} '
                       f'x="{x}" y="{y}" width="{SQUARE_SIZE}" height="{SQUARE_SIZE}" '
                       f'fill="{palette["square " + shade]}"/>')
    return out


def _coordinates(view: _View, palette: Mapping[str, str]) -> List[str]:
    out = []
    style = (f'font-family="Helvetica,Arial,sans-serif" font-size="14" font-weight="bold" '
             f'fill="{palette["coord"]}" text-anchor="middle"')
    extent = view.extent
    last = view.files - 1
    for column in range(view.files):
        # the letter of a column: from White's side a..h left to right, reversed when flipped
        letter = view.letters[last - column if view.flipped else column]
        x = view.margin + column * SQUARE_SIZE + SQUARE_SIZE / 2
        for y in (view.margin - 5, extent - 6):
            out.append(f'<text class="coord file" x="{x}" y="{y}" {style}>{letter}</text>')
    for row in range(view.files):
        number = row + 1 if view.flipped else view.files - row
        baseline = view.margin + row * SQUARE_SIZE + SQUARE_SIZE / 2 + 5
        for x in (view.margin / 2, extent - view.margin / 2):
            out.append(f'<text class="coord rank" x="{x}" y="{baseline}" {style}>{number}</text>')
    return out


def _square_numbers(view: _View, palette: Mapping[str, str]) -> List[str]:
    """The numeric games are read by square number: each dark square shows its own in the
    top-left corner, drawn over the pieces (which leave that corner almost free)."""
    out = []
    for square in range(view.geometry.squares):
        x, y = view.corner(*view.geometry.coords(square))
        out.append(f'<text class="square-number" x="{x + 2}" y="{y + 9}" '
                   f'font-family="Helvetica,Arial,sans-serif" font-size="9" '
                   f'fill="{palette["square number"]}">'
                   f'{view.variant.square_name(square)}</text>')
    return out


def _pieces(board: Board, view: _View, palette: Mapping[str, str]) -> List[str]:
    out = []
    radius = SQUARE_SIZE * 0.38
    for square in range(view.geometry.squares):
        piece = board.piece_at(square)
        if piece is None:
            continue
        color, is_king = piece
        name = "white" if color == WHITE else "black"
        fill, outline = palette[name], palette[name + " outline"]
        cx, cy = view.center(square)
        kind = "king" if is_king else "man"
        parts = [f'<g class="piece {name} {kind}" data-square="{view.variant.square_name(square)}">',
                 f'<circle cx="{cx}" cy="{cy}" r="{radius}" fill="{fill}" stroke="{outline}" '
                 f'stroke-width="2"/>',
                 # the ridge of a draughts piece
                 f'<circle cx="{cx}" cy="{cy}" r="{radius * 0.72:.2f}" fill="none" '
                 f'stroke="{outline}" stroke-width="1.2"/>']
        if is_king:
            parts.append(_crown(cx, cy, palette))
        parts.append("</g>")
        out.append("".join(parts))
    return out


def _crown(cx: float, cy: float, palette: Mapping[str, str]) -> str:
    """A three-pointed crown on the piece: the mark of a king in either colour."""
    points = [(-9.5, 6.5), (-11, -6.5), (-5, -1), (0, -10), (5, -1), (11, -6.5), (9.5, 6.5)]
    text = " ".join(f"{cx + dx:g},{cy + dy:g}" for dx, dy in points)
    return (f'<polygon class="crown" points="{text}" fill="{palette["crown"]}" '
            f'stroke="{palette["crown outline"]}" stroke-width="1.3" stroke-linejoin="round"/>')


def _last_move(move: Move, view: _View, palette: Mapping[str, str]) -> List[str]:
    out: List[str] = []

    def tint(square: int, cls: str, color: str, opacity: float) -> None:
        x, y = view.corner(*view.geometry.coords(square))
        out.append(f'<rect class="{cls}" x="{x}" y="{y}" width="{SQUARE_SIZE}" '
                   f'height="{SQUARE_SIZE}" fill="{color}" fill-opacity="{opacity}"/>')

    ends = {move.origin, move.destination}
    for square in move.path[1:-1]:
        if square not in ends:
            tint(square, "lastmove path", palette["lastmove path"], 0.55)
    for square in move.captured:
        tint(square, "lastmove captured", palette["captured"], 0.45)
    for square in dict.fromkeys((move.origin, move.destination)):
        tint(square, "lastmove", palette["lastmove"], 0.8)
    if move.is_capture:
        # the route of the capture, square by square, and a cross on each piece taken
        points = " ".join("{:g},{:g}".format(*view.center(s)) for s in move.path)
        out.append(f'<polyline class="lastmove route" points="{points}" fill="none" '
                   f'stroke="{palette["captured"]}" stroke-width="2.5" stroke-opacity="0.8" '
                   f'stroke-dasharray="6,4" stroke-linejoin="round"/>')
        for square in move.captured:
            cx, cy = view.center(square)
            d = SQUARE_SIZE * 0.18
            out.append(f'<path class="lastmove cross" d="M{cx - d:g},{cy - d:g} '
                       f'L{cx + d:g},{cy + d:g} M{cx - d:g},{cy + d:g} L{cx + d:g},{cy - d:g}" '
                       f'stroke="{palette["captured"]}" stroke-width="3" '
                       f'stroke-linecap="round"/>')
    return out


def _arrow(route: Sequence[int], view: _View, palette: Mapping[str, str]) -> str:
    """An arrow along `route` (squares): straight for a pair, bent at each landing square of
    a capture; a route that starts and ends on one square is a ring around it."""
    color = palette["arrow"]
    points = [view.center(square) for square in route]
    if len(points) == 2 and points[0] == points[1]:
        x, y = points[0]
        return (f'<circle class="arrow" cx="{x}" cy="{y}" r="{SQUARE_SIZE * 0.45}" '
                f'fill="none" stroke="{color}" stroke-width="4" stroke-opacity="0.8"/>')
    (x1, y1), (x2, y2) = points[0], points[1]
    length = ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5
    # start a little off the centre so a crown under the tail stays visible
    points[0] = (x1 + (x2 - x1) / length * SQUARE_SIZE * 0.3,
                 y1 + (y2 - y1) / length * SQUARE_SIZE * 0.3)
    (x1, y1), (x2, y2) = points[-2], points[-1]
    length = ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    head, width = SQUARE_SIZE * 0.45, SQUARE_SIZE * 0.25
    # the shaft stops where the head begins, so the two do not overlap in the transparency
    bx, by = x2 - ux * head, y2 - uy * head
    shaft = " ".join(f"{x:g},{y:g}" for x, y in points[:-1] + [(bx, by)])
    tip = f"{x2:g},{y2:g}"
    left = f"{bx - uy * width:g},{by + ux * width:g}"
    right = f"{bx + uy * width:g},{by - ux * width:g}"
    return (f'<g class="arrow" fill="{color}" stroke="{color}" opacity="0.8">'
            f'<polyline points="{shaft}" fill="none" stroke-width="9" stroke-linecap="round" '
            f'stroke-linejoin="round"/>'
            f'<polygon points="{tip} {left} {right}" stroke="none"/></g>')


# --- arguments -------------------------------------------------------------------------------

def _check_size(size: object) -> str:
    if isinstance(size, bool) or not isinstance(size, (int, float)):
        raise TypeError(f"size must be a number of pixels, not {type(size).__name__}")
    if not size > 0 or size != size or size == float("inf"):
        raise ValueError(f"size must be a positive number of pixels, not {size!r}")
    return f"{size:g}"


def _palette(colors: object) -> Dict[str, str]:
    palette = dict(DEFAULT_COLORS)
    if colors is None:
        return palette
    if not isinstance(colors, dict):
        raise TypeError(f"colors must be a dict, not {type(colors).__name__}")
    for key, value in colors.items():
        if key not in DEFAULT_COLORS:
            raise ValueError(f"unknown color key {key!r}; expected one of "
                             f"{', '.join(map(repr, DEFAULT_COLORS))}")
        if not isinstance(value, str) or any(c in value for c in "<>&\"'"):
            raise ValueError(f"color {key!r} must be a CSS colour string, not {value!r}")
        palette[key] = value
    return palette


def _check_move(move: object, what: str, variant: Variant) -> Move:
    if not isinstance(move, Move):
        raise TypeError(f"{what} must be a Move, not {type(move).__name__}")
    for square in move.path + move.captured:
        _check_square(square, what, variant)
    return move


def _iterable(value: Any, what: str) -> List[Any]:
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{what} must be a list of arrows, not a string")
    try:
        return list(value)
    except TypeError:
        raise TypeError(f"{what} must be a list of arrows, not {type(value).__name__}") from None


def _arrow_squares(arrow: Any, variant: Variant) -> Tuple[int, ...]:
    if isinstance(arrow, Move):
        _check_move(arrow, "an arrow", variant)
        # a capture's arrow follows its route; a route that comes back to its origin (a king's
        # round trip) is still drawn leg by leg
        return arrow.path if arrow.is_capture else (arrow.origin, arrow.destination)
    if isinstance(arrow, (str, bytes)) or not hasattr(arrow, "__len__") or len(arrow) != 2:
        raise TypeError(f"an arrow must be a Move or a pair (from_square, to_square), "
                        f"not {arrow!r}")
    return tuple(_square(s, variant) for s in arrow)


def _square(square: object, variant: Variant) -> int:
    """A square from an int or a square name in `variant`'s notation."""
    if isinstance(square, str):
        return variant.square(square)
    return _check_square(square, "an arrow", variant)


def _check_square(square: object, what: str, variant: Variant) -> int:
    last = variant.geometry.squares - 1
    if isinstance(square, bool) or not isinstance(square, int):
        raise TypeError(f"the squares of {what} must be ints 0..{last} or square names, "
                        f"not {type(square).__name__}")
    if not 0 <= square <= last:
        raise InvalidSquareError(f"square {square} of {what} is out of range; squares are "
                                 f"0..{last}")
    return square


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
