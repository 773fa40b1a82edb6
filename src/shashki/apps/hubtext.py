"""The text of the Hub protocol (see shashki.apps.hub): its line syntax, and positions,
moves and scores as pydraughts writes them for the 8x8 games.

How the numbers are derived from a game's record: moves number the squares 1 = a1, 2 = c1 ...
row by row from White's side in the games with algebraic notation, and by the game's own
numbers in the numeric ones; the position string lists the squares in the order of the game's
numeric FEN squares (Variant.square_from_number), seen from the side of the player who moves
first, whom pydraughts calls "white" (english: Black, so the string is turned round and the
colours swapped).
"""

from __future__ import annotations

from typing import Dict, List, Tuple, Union

from .._text import bounded_int, short
from ..board import Board
from ..colors import BLACK, WHITE, Color
from ..engine import Score
from ..errors import ShashkiError
from ..fen import write_fen
from ..move import Move
from ..variants import Variant, get_variant

__all__ = ["HubProtocolError", "format_line", "format_value", "move_text", "parse_line",
           "parse_move", "parse_position", "position_text", "score_text"]

_WIN_MEN = 100.0            # a forced win is reported as 100 men minus a hundredth per ply
_MAX_PLAIN_MEN = 89.99      # ordinary evaluations stay below what reads as a forced result


class HubProtocolError(ShashkiError):
    """A Hub line that cannot be read or obeyed; its text goes back as `error message=`."""


# --- line syntax (Scan's hub.cpp scanner: names are runs of non-blank characters other than
# '=' and '"'; values are names or double-quoted strings without escapes) ---------------------

def _is_id(char: str) -> bool:
    return not char.isspace() and char not in '="' and char.isprintable()


def parse_line(line: str) -> Tuple[str, Dict[str, str]]:
    """(command, {argument: value}) of one Hub line; flags without `=value` map to "".

    Raises HubProtocolError for a line that does not follow the Hub syntax."""
    pos, end = 0, len(line)

    def skip() -> None:
        nonlocal pos
        while pos < end and line[pos].isspace():
            pos += 1

    def name(what: str) -> str:
        nonlocal pos
        skip()
        start = pos
        while pos < end and _is_id(line[pos]):
            pos += 1
        if pos == start:
            found = repr(line[pos]) if pos < end else "the end of the line"
            raise HubProtocolError(f"expected {what} but found {found} at column {pos + 1}")
        return line[start:pos]

    command = name("a command")
    args: Dict[str, str] = {}
    while True:
        skip()
        if pos == end:
            return command, args
        key = name("an argument name")
        value = ""
        skip()
        if pos < end and line[pos] == "=":
            pos += 1
            skip()
            if pos < end and line[pos] == '"':
                close = line.find('"', pos + 1)
                if close < 0:
                    raise HubProtocolError(f"the value of {key} has no closing double quote")
                value = line[pos + 1:close]
                pos = close + 1
            else:
                value = name(f"a value for {key}")
        args[key] = value          # a repeated argument: the last one counts, as in Scan


def format_value(value: object) -> str:
    """A value as the protocol writes it: bare when it is a plain name, else double-quoted."""
    text = str(value).replace('"', "'").replace("\n", " ").replace("\r", " ")
    if text and all(_is_id(c) for c in text):
        return text
    return f'"{text}"'


def format_line(command: str, *pairs: Tuple[str, object]) -> str:
    return " ".join([command] + [f"{k}={format_value(v)}" for k, v in pairs])


# --- squares, positions and moves ------------------------------------------------------------

def _move_number(variant: Variant, square: int) -> int:
    # pydraughts numbers the squares of the algebraic games row by row from a1 (square + 1),
    # those of the numeric games as the game does
    return int(variant.square_name(square)) if variant.numeric else square + 1


def _move_square(variant: Variant, number: int) -> int:
    return variant.square_from_number(number) if variant.numeric else number - 1


def _turned(variant: Variant) -> bool:
    """Whether the position string is turned round, its colours and side to move swapped:
    pydraughts calls the first player "white" and lists the squares from its side."""
    return variant.first_to_move == BLACK


def _position_square(variant: Variant, index: int) -> int:
    """The square of character `index` (1..32) of a position string."""
    squares = variant.geometry.squares
    return variant.square_from_number(squares + 1 - index if _turned(variant) else index)


def _swap(variant: Variant, color: Color) -> Color:
    """`color` as pydraughts names it in the position string, and back."""
    return color.other if _turned(variant) else color


def move_text(move: Move, variant: Union[str, Variant]) -> str:
    """`move` (a shashki Move) in Hub notation for `variant`."""
    variant = get_variant(variant)
    numbers = [move.origin, move.destination] + list(move.captured)
    sep = "x" if move.is_capture else "-"
    return sep.join(str(_move_number(variant, s)) for s in numbers)


def parse_move(board: Board, text: str) -> Move:
    """The legal move of `board` that the Hub move `text` names.  Raises HubProtocolError."""
    variant = board.variant
    parts = text.replace("x", "-").replace("X", "-").replace(":", "-").split("-")
    if len(parts) < 2 or not all(p.isdigit() for p in parts):
        raise HubProtocolError(f"cannot read move {text!r}; expected numbered squares such as "
                               f"9-13 or 22x15x18 (from x to x captured...)")
    count = variant.geometry.squares
    read = [bounded_int(p, count) for p in parts]    # (any length: see shashki._text)
    bad = [p for p, n in zip(parts, read) if n is None or n < 1]
    if bad:
        raise HubProtocolError(f"square {short(bad[0])} in move {short(text, 40)!r} is off the "
                               f"board; squares are numbered 1 to {count}")
    numbers = [n for n in read if n is not None]
    squares = [_move_square(variant, n) for n in numbers]
    origin, destination, captured = squares[0], squares[1], squares[2:]
    if len(set(captured)) != len(captured):
        raise HubProtocolError(f"move {text!r} lists a captured square twice")
    fits = [m for m in board.legal_moves if m.origin == origin and m.destination == destination
            and (not captured or set(m.captured) == set(captured))]
    if len(fits) == 1:
        return fits[0]
    if not fits:
        legal = " ".join(move_text(m, variant) for m in board.legal_moves) or "none"
        raise HubProtocolError(f"illegal move {text!r} in {variant.name}; the legal moves "
                               f"are {legal}")
    raise HubProtocolError(f"move {text!r} is ambiguous; give every captured square: "
                           + " or ".join(move_text(m, variant) for m in fits))


def position_text(board: Board) -> str:
    """The Hub position string of `board` (its current position)."""
    variant = board.variant
    white, black, kings = board.white, board.black, board.kings
    chars: List[str] = []
    for index in range(1, variant.geometry.squares + 1):
        bit = 1 << _position_square(variant, index)
        if not (white | black) & bit:
            chars.append("e")
            continue
        letter = "w" if _swap(variant, WHITE if white & bit else BLACK) == WHITE else "b"
        chars.append(letter.upper() if kings & bit else letter)
    return ("W" if _swap(variant, board.turn) == WHITE else "B") + "".join(chars)


def parse_position(text: str, variant: Union[str, Variant]) -> Board:
    """A Board for a Hub position string (or, as an extension, a PDN FEN) in `variant`.

    Raises HubProtocolError (for the Hub string) or InvalidFenError (for a FEN)."""
    variant = get_variant(variant)
    if ":" in text:
        return Board(variant, fen=text)
    squares = variant.geometry.squares
    if len(text) != squares + 1:
        raise HubProtocolError(
            f"a Hub position for an 8x8 game is W or B (the side to move) then {squares} "
            f"characters, one per square (w b W B e), {len(text)} characters in all here "
            f"instead of {squares + 1}")
    side = text[0]
    if side not in "WB":
        raise HubProtocolError(f"the position starts with {side!r}; expected W or B, the side "
                               f"to move")
    masks = {WHITE: 0, BLACK: 0}
    kings = 0
    for index, char in enumerate(text[1:], start=1):
        if char == "e":
            continue
        if char not in "wbWB":
            raise HubProtocolError(f"character {index + 1} of the position is {char!r}; "
                                   f"expected w, b, W, B or e")
        bit = 1 << _position_square(variant, index)
        masks[_swap(variant, WHITE if char in "wW" else BLACK)] |= bit
        if char.isupper():
            kings |= bit
    turn = _swap(variant, WHITE if side == "W" else BLACK)
    # through the FEN reader, so a Hub position meets the same checks as any other
    return Board(variant, fen=write_fen(masks[WHITE], masks[BLACK], kings, turn, variant))


def score_text(score: Score) -> str:
    """A Score in Scan's units: men, with forced results at +-(100 - plies / 100)."""
    win_in = score.win_in
    if win_in is not None:
        plies = 2 * win_in - 1 if win_in > 0 else -2 * win_in
        value = _WIN_MEN - plies / 100
        return f"{value if win_in > 0 else -value:.2f}"
    men = max(-_MAX_PLAIN_MEN, min(_MAX_PLAIN_MEN, score.value / 100))
    return f"{men:.2f}"


