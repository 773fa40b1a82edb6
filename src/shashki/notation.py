"""Move text in each game's notation: writing a legal move, and reading move text back.

Writing (docs/games/notation.md, "Move text"): a quiet move is ``from-to``; a capture is the
short form ``from<sep>to`` (``c3:e5``, ``22x13``) when no other legal move goes from the same
square to the same square, and otherwise its full route with every landing square
(``c3:e5:c7``, PDN 3.0).  ``<sep>`` is the game's capture separator (``:`` in russian,
giveaway, czech and thai, ``x`` elsewhere: ``Variant.capture_sep``).

Reading accepts, in every game:

- the short form and the full route.  ``x``, ``:`` and ``×`` name a capture, in every game
  whatever its own separator: a quiet move written with one of them is refused
  (IllegalMoveError, which names the quiet move), as the writer believes a capture is there
  to make and the position is not the one they think.  ``-`` joins the squares of any move:
  a capture written with it is read as that capture (old books and programs write captures
  so, and legal moves never differ only by being a capture);
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
from typing import TYPE_CHECKING, Dict, List, Optional, Sequence, Tuple, Union

from ._text import quote, short
from . import square_text
from .errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from .square_text import SquareTextError, read_square
from .variants import COLOR_NAMES

if TYPE_CHECKING:
    from ._core.position import Position
    from .board import Board
    from .geometry import Geometry
    from .move import Move
    from .variants import Variant

#: characters that may trail a move without being part of it (PDN move strength marks, and
#: the check/end marks some programs copy from chess notation)
ANNOTATION_MARKS = "!?*+#"
#: separators accepted between squares (any case: text is read lowercased)
SEPARATORS = "-x:×"
#: the separators that name a capture (a quiet move is written with '-')
CAPTURE_SEPARATORS = "x:×"
#: SEPARATORS and CAPTURE_SEPARATORS as patterns of one character, either case (the PDN
#: reader finds moves in text as it is written)
SEPARATOR_PATTERN = "[" + re.escape(SEPARATORS + SEPARATORS.upper()) + "]"
CAPTURE_PATTERN = "[" + re.escape(CAPTURE_SEPARATORS + CAPTURE_SEPARATORS.upper()) + "]"
_SPLIT = re.compile(SEPARATOR_PATTERN)
#: the russian short form ``ab4`` (a man from the a-file to b4), lowercase, as a pattern
RUSSIAN_SHORT_FORM = "[a-h][a-h][1-8]"
_RUSSIAN_SHORT = re.compile(r"([a-h])([a-h][1-8])\Z")     # (RUSSIAN_SHORT_FORM, its two parts)


# --- reading ---------------------------------------------------------------------------------

def parse_move(board: Union[Position, Board], text: str) -> Move:
    """The legal move of `board` (a Position or a Board) that `text` names (see the module
    docstring)."""
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
    move = _match(board, text, squares)
    if not move.is_capture and any(sep in body for sep in CAPTURE_SEPARATORS):
        raise IllegalMoveError(
            f"illegal move {quote(text)}: it is written as a capture, but {move} is a quiet "
            f"move (nothing can be captured here); write it {move}", [move])
    return move


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
    in the numeric ones (1-32 on 8x8, 1-50 on 10x10).  InvalidMoveError naming `text` (the
    move the token is part of) for a token that is no square."""
    try:
        return read_square(token, variant)
    except SquareTextError as error:
        raise InvalidMoveError(_square_reason(error, variant, token if text is None else text)
                               ) from None


def _square_reason(error: SquareTextError, variant: Variant, text: str) -> str:
    """SquareTextError `error` worded for a move: what is wrong and which squares there are."""
    token, name, last, corner = short(error.token), variant.name, error.last, error.corner
    reason = error.reason
    if reason == square_text.NUMBER_NOT_NAME:
        return f"{name} moves name squares {corner}, not numbers: {quote(text)}"
    if reason == square_text.OUT_OF_RANGE:
        return f"square {token} in {quote(text)} is out of range; {name} squares are 1-{last}"
    if reason == square_text.NAME_NOT_NUMBER or (reason == square_text.UNREADABLE
                                                 and variant.numeric):
        return f"{name} moves name squares 1-{last}, not {token!r}: {quote(text)}"
    if reason == square_text.OFF_BOARD:
        return f"square {token} in {quote(text)} is off the board; squares are {corner}"
    if reason == square_text.LIGHT:
        return f"{token} in {quote(text)} is a light square; pieces move on dark squares"
    return f"cannot read square {token!r} in {quote(text)}; expected {corner}"


def _parse_russian_short(board: Union[Position, Board], text: str, file: str,
                         dest_name: str) -> Move:
    variant = board.variant
    if variant.numeric:
        raise InvalidMoveError(f"{variant.name} moves name squares by number; {quote(text)} is "
                               f"the russian short form, written only in the algebraic games")
    dest = parse_square(dest_name, variant, text)
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


def _match(board: Union[Position, Board], text: str, squares: List[int]) -> Move:
    origin, dest = squares[0], squares[-1]
    moves = list(board.legal_moves)
    ends = [m for m in moves if m.origin == origin and m.destination == dest]
    if not ends:
        raise illegal_move_error(board, text, origin)
    if len(squares) > 2:
        # a route is checked against the routes the core generates: every landing square in
        # order, the rule that a king lands where it can go on capturing included; the
        # routes of one move at a time (of the moves joining the two squares), not all
        geometry = board.variant.geometry
        for move in ends:
            for route in board.routes(move):
                if _same_route(geometry, squares, route.path, route.captured):
                    return move
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
    # s lies strictly inside the straight segment from a to b: a diagonal, a rank or a file
    (fa, ra), (fs, rs), (fb, rb) = geometry.coords(a), geometry.coords(s), geometry.coords(b)
    df, dr = fb - fa, rb - ra
    if (df and dr and abs(df) != abs(dr)) or not (df or dr):
        return False
    length = max(abs(df), abs(dr))
    step_f, step_r = df // length, dr // length
    k = (fs - fa) * step_f if step_f else (rs - ra) * step_r
    return 0 < k < length and fs - fa == k * step_f and rs - ra == k * step_r


def _ambiguous(text: str, fits: List[Move]) -> AmbiguousMoveError:
    return AmbiguousMoveError(
        f"{quote(text)} fits {len(fits)} legal moves: {', '.join(map(str, fits))}; "
        f"write the whole route", fits)


def _example(variant: Variant) -> str:
    return "22-18 or 22x13" if variant.numeric else "c3-d4 or c3:e5"


# --- refusing a move ------------------------------------------------------------------------------

def illegal_move_error(board: Union[Position, Board], move: object,
                       origin: Optional[int] = None) -> IllegalMoveError:
    """The IllegalMoveError for `move` (a Move, or move text from square `origin`) in `board`
    (a Position or a Board): the message says why, and `alternatives` lists the touched
    piece's legal moves, or every legal move."""
    moves = list(board.legal_moves)
    if not isinstance(move, str):
        text, origin = str(move), getattr(move, "origin", None)
        other = getattr(move, "variant", None)
        if other is not None and other is not board.variant:
            return IllegalMoveError(
                f"illegal move {quote(text)}: it is a move of {other.name}, and this is "
                f"{board.variant.name}; write it as text or take it from this game's "
                f"legal_moves", moves)
    else:
        text = move
    own = [m for m in moves if m.origin == origin]
    return IllegalMoveError(_illegal_message(board, moves, text, origin), own or moves)


def _illegal_message(board: Union[Position, Board], moves: List[Move], text: str, origin: object) -> str:
    """Why the move `text` from square `origin` is not legal: the legal moves of that piece
    (seeds 003 and 004: a touched piece must move if it can), or why it has none."""
    quoted = quote(text)
    squares = board.variant.geometry.squares
    if isinstance(origin, bool) or not isinstance(origin, int) or not 0 <= origin < squares:
        return (f"illegal move {quoted}: {origin!r} is not a square "
                f"(squares are 0..{squares - 1})")
    same_piece = ", ".join(str(m) for m in moves if m.origin == origin)
    every = ", ".join(map(str, moves))
    piece = board.piece_at(origin)
    name = board.variant.square_name(origin)
    side = COLOR_NAMES[board.turn]
    if not moves:
        why = f"{side} is to move and has no legal move"
    elif piece is None:
        why = f"there is no piece on {name}; legal moves: {every}"
    elif piece[0] != board.turn:
        why = (f"the piece on {name} is {COLOR_NAMES[piece[0]]}, and {side} is to move; "
               f"legal moves: {every}")
    elif same_piece:
        why = f"legal moves of the piece on {name}: {same_piece}"
        if moves[0].is_capture:
            why = "a capture is compulsory; " + why
    elif moves[0].is_capture:
        why = f"a capture is compulsory and the piece on {name} cannot capture: {every}"
    else:
        why = f"the piece on {name} has no legal move; legal moves: {every}"
    return f"illegal move {quoted}: {why}"
