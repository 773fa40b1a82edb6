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

from . import squares as _sq
from ._text import bounded_int
from .errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError

if TYPE_CHECKING:
    from ._core.movegen import _RawMove
    from .board import Board
    from .move import Move
    from .variants import Variant

#: characters that may trail a move without being part of it (PDN move strength marks, and
#: the check/end marks some programs copy from chess notation)
ANNOTATION_MARKS = "!?*+#"
#: separators accepted between squares
SEPARATORS = "-x:×"
_SPLIT = re.compile(r"[-x:×]")
_RUSSIAN_SHORT = re.compile(r"([a-h])([a-h][1-8])\Z")
_NUMBER = re.compile(r"[0-9]+\Z")
_ALGEBRAIC = re.compile(r"([a-z])([0-9]+)\Z")
# longest text worth quoting whole in an error message
_QUOTE_LIMIT = 60


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
        raise InvalidMoveError(f"empty move text {_quote(text)}; expected e.g. "
                               f"{_example(variant)}")
    short = _RUSSIAN_SHORT.match(body)
    if short:
        return _parse_russian_short(board, text, short.group(1), short.group(2))
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
            f"cannot read move {_quote(text)}; expected squares joined by '-', 'x' or ':', "
            f"e.g. {_example(variant)}")
    return [parse_square(p.strip(), variant, text) for p in parts]


def parse_square(token: str, variant: Variant, text: Optional[str] = None) -> int:
    """The square (0..31) a token names in `variant`'s notation: ``c3`` in the algebraic
    games, ``22`` in the numeric ones."""
    text = token if text is None else text
    if _NUMBER.match(token):
        if not variant.numeric:
            raise InvalidMoveError(
                f"{variant.name} moves name squares a1-h8, not numbers: {_quote(text)}")
        number = bounded_int(token, 32)
        if number is None or number < 1:
            raise InvalidMoveError(f"square {_short(token)} in {_quote(text)} is out of range; "
                                   f"{variant.name} squares are 1-32")
        return variant.square_from_number(number)
    if variant.numeric:
        raise InvalidMoveError(
            f"{variant.name} moves name squares 1-32, not {_short(token)!r}: {_quote(text)}")
    match = _ALGEBRAIC.match(token)
    if not match:
        raise InvalidMoveError(f"cannot read square {_short(token)!r} in {_quote(text)}; "
                               f"expected a1-h8")
    file, rank = match.groups()
    if file > "h" or len(rank) != 1 or not "1" <= rank <= "8":
        raise InvalidMoveError(f"square {_short(token)} in {_quote(text)} is off the board; "
                               f"squares are a1-h8")
    square = _sq.square_at(ord(file) - 97, int(rank) - 1)
    if square is None:
        raise InvalidMoveError(f"{token} in {_quote(text)} is a light square; "
                               f"pieces move on dark squares")
    return square


def _parse_russian_short(board: Board, text: str, file: str,
                         dest_name: str) -> Move:
    variant = board.variant
    if variant.numeric:
        raise InvalidMoveError(f"{variant.name} moves name squares 1-32; {_quote(text)} is the "
                               f"russian short form, written only in the algebraic games")
    dest = _sq.ALGEBRAIC_INDEX.get(dest_name)
    if dest is None:
        raise InvalidMoveError(f"{dest_name} in {_quote(text)} is a light square; "
                               f"pieces move on dark squares")
    moves = board._legal()
    fits = [m for m in moves
            if m.destination == dest and _sq.ALGEBRAIC_NAMES[m.origin][0] == file
            and not board.kings & (1 << m.origin)]
    if not fits:
        listed = ", ".join(map(str, moves)) or "none"
        raise IllegalMoveError(f"illegal move {_quote(text)}: no man on the {file}-file can move "
                               f"to {dest_name}; legal moves: {listed}")
    if len(fits) > 1:
        raise _ambiguous(text, fits)
    return fits[0]


def _match(board: Board, text: str, squares: List[int]) -> Move:
    origin, dest = squares[0], squares[-1]
    ends = [m for m in board._legal() if m.origin == origin and m.destination == dest]
    if not ends:
        raise board._illegal_error(text, origin)
    if len(squares) > 2:
        fits = [m for m in ends if route_matches(board, m, squares)]
        if not fits:
            name = board.variant.square_name
            raise IllegalMoveError(
                f"illegal move {_quote(text)}: no legal move from {name(origin)} to {name(dest)} "
                f"takes that route; legal: {', '.join(map(str, ends))}")
        return fits[0]  # a route names one set of captured pieces, hence one move
    if len(ends) > 1:
        # two squares are also the full route of a single capture (and of a quiet move):
        # read them so when exactly one move fits that way, as the writer does
        whole = [m for m in ends if len(m.captured) <= 1]
        if len(whole) == 1:
            return whole[0]
        raise _ambiguous(text, ends)
    return ends[0]


def _ambiguous(text: str, fits: List[Move]) -> AmbiguousMoveError:
    return AmbiguousMoveError(
        f"{_quote(text)} fits {len(fits)} legal moves: {', '.join(map(str, fits))}; "
        f"write the whole route", fits)


def route_matches(board: Board, move: Move, squares: Sequence[int]) -> bool:
    """Whether `squares` (origin, landing squares..., destination) is a route of `move`: each
    leg jumps exactly one piece that no earlier leg jumped, lands on an empty square, and
    together the legs jump exactly the pieces `move` captures."""
    if len(squares) - 1 != len(move.captured):
        return False
    if tuple(squares) == move.path:
        return True
    variant = board.variant
    mover = 0 if board.white & (1 << move.origin) else 1
    # the capturing piece has left its square; captured pieces stay until the move ends
    # (Turkish strike), so they keep blocking and cannot be jumped twice
    occupied = (board.white | board.black) & ~(1 << move.origin)
    flying = variant.flying_kings and bool(board.kings & (1 << move.origin))
    crown_row = variant.promotion_row(mover)
    taken = 0
    for a, b in zip(squares, squares[1:]):
        between = _between(a, b)
        if between is None:
            return False
        if not flying and len(between) != 1:
            return False  # a man, or a short king, jumps to the square just beyond
        pieces = [s for s in between if occupied & (1 << s)]
        if len(pieces) != 1 or taken & (1 << pieces[0]):
            return False
        if occupied & (1 << b):
            return False
        taken |= 1 << pieces[0]
        if variant.promotion == "king" and crown_row & (1 << b):
            flying = True  # russian: crowned mid-capture, it goes on as a king
    return taken == move.captured_mask


def _between(a: int, b: int) -> Optional[List[int]]:
    """The squares strictly between a and b on a diagonal, or None if they share none."""
    fa, ra = _sq.square_file(a), _sq.square_rank(a)
    fb, rb = _sq.square_file(b), _sq.square_rank(b)
    if abs(fa - fb) != abs(ra - rb) or fa == fb:
        return None
    df = 1 if fb > fa else -1
    dr = 1 if rb > ra else -1
    squares = [_sq.square_at(fa + i * df, ra + i * dr) for i in range(1, abs(fa - fb))]
    # (never None: the squares between two squares of a diagonal are on the board)
    return [s for s in squares if s is not None]


def _example(variant: Variant) -> str:
    return "22-18 or 22x13" if variant.numeric else "c3-d4 or c3:e5"


def _short(token: str) -> str:
    return token if len(token) <= 12 else token[:12] + "..."


def _quote(text: str) -> str:
    """`text` for an error message: repr, cut short when long (fuzzed input can be huge)."""
    if len(text) > _QUOTE_LIMIT:
        return repr(text[:_QUOTE_LIMIT]) + "..."
    return repr(text)
