"""Move text in each game's notation: writing a legal move, and reading move text back.

Writing (RULES.md "Squares, notation and FEN"): a quiet move is ``from-to``; a capture is the
short form ``from<sep>to`` (``c3:e5``, ``22x13``) when no other legal move goes from the same
square to the same square, and otherwise its full route with every landing square
(``c3:e5:c7``, PDN 3.0).  ``<sep>`` is the game's capture separator (``:`` in russian and
giveaway, ``x`` elsewhere).

Reading accepts, in every game:

- the short form and the full route, with any of ``-``, ``x``, ``:`` (or ``×``) between squares,
  whatever the move is: legal moves never differ only by being a capture, so the separator
  carries no information;
- uppercase squares, surrounding whitespace and trailing annotation marks (``!``, ``?``, ``*``,
  ``+``, ``#``);
- in the algebraic games (russian, giveaway, brazilian) the russian short form ``ab4`` of the
  opening tables: a man from the a-file to b4.

Errors: InvalidMoveError for text that is not a move (the message says what was expected),
IllegalMoveError for a well-formed move that is not legal in the position,
AmbiguousMoveError (an IllegalMoveError) with ``candidates`` for text that fits several legal
moves.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Dict, List, Optional, Sequence, Tuple

from ._text import bounded_int, quote, short
from .errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, InvalidSquareError
from .fen import pack_runs

if TYPE_CHECKING:
    from ._core.movegen import _RawMove
    from .board import Board
    from .geometry import Geometry
    from .move import Move
    from .variants import Variant

#: characters that may trail a move without being part of it (PDN move strength marks, and
#: the check/end marks some programs copy from chess notation)
ANNOTATION_MARKS = "!?*+#"
#: separators accepted between squares
SEPARATORS = "-x:×"
_SPLIT = re.compile(r"[-x:×]")
#: the russian short form ``ab4`` (a man from the a-file to b4), lowercase, as a pattern
RUSSIAN_SHORT_FORM = "[a-h][a-h][1-8]"
_RUSSIAN_SHORT = re.compile(r"([a-h])([a-h][1-8])\Z")
_NUMBER = re.compile(r"[0-9]+\Z")
_ALGEBRAIC = re.compile(r"([a-z])([0-9]+)\Z")


# --- writing ---------------------------------------------------------------------------------

def move_texts(raw_moves: Sequence[_RawMove], variant: Variant) -> List[str]:
    """The text of each move of `raw_moves`, the legal moves of one position as
    ``shashki._core.movegen.legal_moves`` returns them (origin, destination, captured_mask,
    routes, promote, path, taken)."""
    name = variant.square_name
    sep = variant.capture_sep
    ends: Dict[Tuple[int, int], int] = {}
    for origin, dest, *_ in raw_moves:
        ends[origin, dest] = ends.get((origin, dest), 0) + 1
    texts = []
    for origin, dest, _, _, _, path, taken in raw_moves:
        if not taken:
            texts.append(f"{name(origin)}-{name(dest)}")
        elif ends[origin, dest] == 1:
            texts.append(f"{name(origin)}{sep}{name(dest)}")
        else:
            # several moves join these two squares: only the route tells them apart
            texts.append(sep.join(name(s) for s in (origin,) + tuple(path)))
    return texts


# --- reading ---------------------------------------------------------------------------------

def parse_move(board: Board, text: str) -> Move:
    """The legal move of `board` that `text` names (see the module docstring)."""
    if not isinstance(text, str):
        raise InvalidMoveError(f"move text must be a string, not {type(text).__name__}")
    variant = board.variant
    body = text.strip().rstrip(ANNOTATION_MARKS).strip().lower()
    if not body:
        raise InvalidMoveError(f"empty move text {quote(text)}; expected e.g. "
                               f"{_example(variant)}")
    russian = _RUSSIAN_SHORT.match(body)
    if russian:
        return _parse_russian_short(board, text, russian.group(1), russian.group(2))
    squares = parse_squares(body, variant, text)
    return _match(board, text, squares)


def parse_squares(body: str, variant: Variant,
                  text: Optional[str] = None) -> List[int]:
    """The squares (0..31) of move text `body` (already stripped and lowercased): origin,
    landing squares, destination.  Raises InvalidMoveError naming what is wrong."""
    text = body if text is None else text
    parts = _SPLIT.split(body)
    if len(parts) < 2 or any(not p.strip() for p in parts):
        raise InvalidMoveError(
            f"cannot read move {quote(text)}; expected squares joined by '-', 'x' or ':', "
            f"e.g. {_example(variant)}")
    return [parse_square(p.strip(), variant, text) for p in parts]


def parse_square(token: str, variant: Variant, text: Optional[str] = None) -> int:
    """The square a token names in `variant`'s notation: ``c3`` in the algebraic games, ``22``
    in the numeric ones (1-32 on 8x8, 1-50 on 10x10)."""
    text = token if text is None else text
    g = variant.geometry
    letters = "abcdefghijklmnop"[:2 * g.width]
    corner = f"a1-{letters[-1]}{g.rows}"
    if _NUMBER.match(token):
        if not variant.numeric:
            raise InvalidMoveError(
                f"{variant.name} moves name squares {corner}, not numbers: {quote(text)}")
        number = bounded_int(token, g.squares)
        if number is None or number < 1:
            raise InvalidMoveError(f"square {short(token)} in {quote(text)} is out of range; "
                                   f"{variant.name} squares are 1-{g.squares}")
        return variant.square_from_number(number)
    if variant.numeric:
        raise InvalidMoveError(f"{variant.name} moves name squares 1-{g.squares}, not "
                               f"{short(token)!r}: {quote(text)}")
    match = _ALGEBRAIC.match(token)
    if not match:
        raise InvalidMoveError(f"cannot read square {short(token)!r} in {quote(text)}; "
                               f"expected {corner}")
    file, rank_text = match.groups()
    rank = bounded_int(rank_text, g.rows)
    if file not in letters or rank is None or rank < 1:
        raise InvalidMoveError(f"square {short(token)} in {quote(text)} is off the board; "
                               f"squares are {corner}")
    square = g.square_at(letters.index(file), rank - 1)
    if square is None:
        raise InvalidMoveError(f"{token} in {quote(text)} is a light square; "
                               f"pieces move on dark squares")
    return square


def _parse_russian_short(board: Board, text: str, file: str,
                         dest_name: str) -> Move:
    variant = board.variant
    if variant.numeric:
        raise InvalidMoveError(f"{variant.name} moves name squares by number; {quote(text)} is "
                               f"the russian short form, written only in the algebraic games")
    try:
        dest = variant.square(dest_name)
    except InvalidSquareError:
        raise InvalidMoveError(f"{dest_name} in {quote(text)} is a light square; "
                               f"pieces move on dark squares") from None
    moves = list(board.legal_moves)
    fits = [m for m in moves
            if m.destination == dest and variant.square_name(m.origin)[0] == file
            and not board.kings & (1 << m.origin)]
    if not fits:
        listed = ", ".join(map(str, moves)) or "none"
        raise IllegalMoveError(f"illegal move {quote(text)}: no man on the {file}-file can move "
                               f"to {dest_name}; legal moves: {listed}")
    if len(fits) > 1:
        raise _ambiguous(text, fits)
    return fits[0]


def _match(board: Board, text: str, squares: List[int]) -> Move:
    origin, dest = squares[0], squares[-1]
    moves = list(board.legal_moves)
    ends = [m for m in moves if m.origin == origin and m.destination == dest]
    if not ends:
        raise board.illegal_move_error(text, origin)
    if len(squares) > 2:
        # a route is checked against the routes the core generates: every landing square in
        # order, the rule that a king lands where it can go on capturing included
        geometry = board.variant.geometry
        for r_origin, r_dest, captured, _, _, path, taken in board.variant.rules.routes(
                *board.masks, pack_runs(board.king_runs)):
            if r_origin == origin and r_dest == dest and \
                    _same_route(geometry, squares, (r_origin,) + path, taken):
                return next(m for m in ends if m.captured_mask == captured)
        name = board.variant.square_name
        raise IllegalMoveError(
            f"illegal move {quote(text)}: no legal move from {name(origin)} to {name(dest)} "
            f"takes that route; legal: {', '.join(map(str, ends))}")
    if len(ends) > 1:
        # two squares are also the full route of a single capture (and of a quiet move):
        # read them so when exactly one move fits that way, as the writer does
        whole = [m for m in ends if len(m.captured) <= 1]
        if len(whole) == 1:
            return whole[0]
        raise _ambiguous(text, ends)
    return ends[0]


def _same_route(geometry: Geometry, written: Sequence[int], route: Sequence[int],
                taken: Sequence[int]) -> bool:
    """Whether the landing squares `written` name the core's route (its landing squares
    `route`, capturing `taken` in order).  They must be the same squares, but where a flying
    king goes on capturing in the same direction, the square it is written to land on between
    the two pieces is free: any square strictly between them names the same route."""
    if len(written) != len(route):
        return False
    for i in range(1, len(route) - 1):
        if written[i] == route[i]:
            continue
        before, after = taken[i - 1], taken[i]
        if not (_between(geometry, before, route[i], after)
                and _between(geometry, before, written[i], after)):
            return False
    return True


def _between(geometry: Geometry, a: int, s: int, b: int) -> bool:
    # s lies strictly inside the diagonal segment from a to b
    (fa, ra), (fs, rs), (fb, rb) = geometry.coords(a), geometry.coords(s), geometry.coords(b)
    if abs(fb - fa) != abs(rb - ra) or fa == fb:
        return False
    k = (fs - fa) * (1 if fb > fa else -1)
    return 0 < k < abs(fb - fa) and (rs - ra) * (1 if rb > ra else -1) == k and \
        (fs - fa) * (rb - ra) == (rs - ra) * (fb - fa)


def _ambiguous(text: str, fits: List[Move]) -> AmbiguousMoveError:
    return AmbiguousMoveError(
        f"{quote(text)} fits {len(fits)} legal moves: {', '.join(map(str, fits))}; "
        f"write the whole route", fits)


def _example(variant: Variant) -> str:
    return "22-18 or 22x13" if variant.numeric else "c3-d4 or c3:e5"


