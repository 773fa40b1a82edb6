"""The DamExchange protocol (DXP): its messages, read and written, for 10x10 engine matches.

DXP is how 10x10 engines play each other over TCP (Scan, Kingsrow, pydraughts' DXPEngine):
the *initiator* connects and asks for a game (GAMEREQ), the *follower* accepts or refuses it
(GAMEACC), then each side sends its moves (MOVE) until one ends the game (GAMEEND).  Every
message is ASCII text of at most 127 characters, a type letter first and fields of fixed
width after it, ended by a NUL byte on the wire.  Squares are the international numbers
1-50; White is "W", Black "Z" (zwart).

    >>> from shashki.dxp import messages as dxp
    >>> dxp.parse("M001228190123")
    MoveMessage(seconds=12, origin=28, destination=19, captured=(23,))
    >>> dxp.MoveMessage(5, 33, 28).text()
    'M0005332800'

This module holds the messages alone: `parse` reads one (DxpError, a ValueError, saying what
was wrong and what was expected, for anything else), each message's `text()` writes it,
`Frames` splits a byte stream at its NULs, and `move_of` / `move_message` and
`position_of` / `position_squares` translate moves and positions to and from shashki's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Tuple, Union

from .._core.position import Position
from ..colors import BLACK, WHITE, Color
from ..errors import ShashkiError
from ..move import Move
from ..variants import INTERNATIONAL, Variant

__all__ = ["MAX_LENGTH", "BackAccept", "BackRequest", "Chat", "DxpError", "Frames",
           "GameAccept", "GameEnd", "GameRequest", "Message", "MoveMessage", "move_message",
           "move_of", "parse", "position_of", "position_squares"]

#: the longest message, NUL not counted
MAX_LENGTH = 127
#: the colour letters: White, and Black ("zwart")
_COLORS = {"W": WHITE, "Z": BLACK}
_LETTERS = {WHITE: "W", BLACK: "Z"}
#: a square of a position: empty, a white man, a black man, a white king, a black king
_PIECES = "ewzWZ"
#: the game DXP plays: 10x10, numbered 1-50
GAME: Variant = INTERNATIONAL


class DxpError(ShashkiError):
    """A DXP message that is not one: the message says which field was wrong, and what was
    expected there."""


def _shown(text: str, limit: int = 40) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "...")


def _digits(text: str, start: int, width: int, field: str, message: str) -> int:
    chunk = text[start:start + width]
    if len(chunk) != width or not chunk.isascii() or not chunk.isdigit():
        raise DxpError(f"{field} must be {width} digits at position {start} of {_shown(message)}"
                       f", not {chunk!r}")
    return int(chunk)


def _color(text: str, start: int, field: str, message: str) -> Color:
    chunk = text[start:start + 1]
    if chunk not in _COLORS:
        raise DxpError(f"{field} must be W (White) or Z (Black) at position {start} of "
                       f"{_shown(message)}, not {chunk!r}")
    return _COLORS[chunk]


def _name(name: str) -> str:
    """A name as its 32-character field: ASCII, cut or padded with spaces."""
    return name.encode("ascii", "replace").decode("ascii")[:32].ljust(32)


def _check_square(square: int, field: str) -> int:
    if not 1 <= square <= 50:
        raise DxpError(f"{field} must be a square from 1 to 50, not {square}")
    return square


@dataclass(frozen=True)
class Chat:
    """CHAT: a line of text for the other side's operator."""
    message: str

    def text(self) -> str:
        return _checked("C" + self.message)


@dataclass(frozen=True)
class GameRequest:
    """GAMEREQ, sent by the initiator: its name, the colour the follower plays, the time
    control (`minutes` for `moves` moves; 0 moves: the whole game), and the start position
    (None: the game's start; else the position and its side to move)."""
    name: str
    follower_color: Color
    minutes: int
    moves: int
    position: Optional[Position] = None
    version: int = 1

    def text(self) -> str:
        for value, field in ((self.minutes, "minutes"), (self.moves, "moves"),
                             (self.version, "version")):
            if not 0 <= value <= (99 if field == "version" else 999):
                raise DxpError(f"the GAMEREQ's {field} must fit its field, not {value}")
        out = (f"R{self.version:02d}{_name(self.name)}{_LETTERS[Color(self.follower_color)]}"
               f"{self.minutes:03d}{self.moves:03d}")
        if self.position is None:
            return out + "A"
        return out + "B" + _LETTERS[self.position.turn] + position_squares(self.position)


#: GAMEACC's codes: accepted, and the reasons of a refusal
ACCEPTED = 0
REFUSED_COLOR = 1
REFUSED_TIME = 2
REFUSED_POSITION = 3
REFUSED = 9


@dataclass(frozen=True)
class GameAccept:
    """GAMEACC, the follower's answer: its name and ACCEPTED (0), or why it refuses: 1 not
    that colour, 2 not that time control, 3 not that position, 9 not now."""
    name: str
    code: int = ACCEPTED

    def text(self) -> str:
        if self.code not in (ACCEPTED, REFUSED_COLOR, REFUSED_TIME, REFUSED_POSITION, REFUSED):
            raise DxpError(f"a GAMEACC code is 0, 1, 2, 3 or 9, not {self.code}")
        return f"A{_name(self.name)}{self.code}"


@dataclass(frozen=True)
class MoveMessage:
    """MOVE: the seconds the move took, its origin and destination squares (1-50) and the
    squares of the pieces it captured."""
    seconds: int
    origin: int
    destination: int
    captured: Tuple[int, ...] = ()

    def text(self) -> str:
        _check_square(self.origin, "the origin")
        _check_square(self.destination, "the destination")
        for square in self.captured:
            _check_square(square, "a captured square")
        if len(self.captured) > 20:
            raise DxpError(f"a move captures at most 20 pieces, not {len(self.captured)}")
        if not 0 <= self.seconds <= 9999:
            raise DxpError(f"a move's seconds are 0 to 9999, not {self.seconds}")
        return (f"M{self.seconds:04d}{self.origin:02d}{self.destination:02d}"
                f"{len(self.captured):02d}" + "".join(f"{s:02d}" for s in self.captured))


#: GAMEEND's reasons, from the sender's side
UNKNOWN = 0
I_LOSE = 1
DRAW = 2
I_WIN = 3


@dataclass(frozen=True)
class GameEnd:
    """GAMEEND: why the game ended, from the sender's side (0 unknown, 1 I lose, 2 a draw,
    3 I win), and whether the sender wants no further game (`stop`)."""
    reason: int = UNKNOWN
    stop: bool = False

    def text(self) -> str:
        if self.reason not in (UNKNOWN, I_LOSE, DRAW, I_WIN):
            raise DxpError(f"a GAMEEND reason is 0, 1, 2 or 3, not {self.reason}")
        return f"E{self.reason}{int(self.stop)}"


@dataclass(frozen=True)
class BackRequest:
    """BACKREQ: go back to move number `move` (1-999) with `color` to move."""
    move: int
    color: Color

    def text(self) -> str:
        if not 1 <= self.move <= 999:
            raise DxpError(f"a BACKREQ's move number is 1 to 999, not {self.move}")
        return f"B{self.move:03d}{_LETTERS[Color(self.color)]}"


#: BACKACC's codes
BACK_ACCEPTED = 0
BACK_NOT_SUPPORTED = 1
BACK_REFUSED = 2


@dataclass(frozen=True)
class BackAccept:
    """BACKACC, the answer to a BACKREQ: 0 accepted, 1 not supported, 2 refused."""
    code: int = BACK_ACCEPTED

    def text(self) -> str:
        if self.code not in (BACK_ACCEPTED, BACK_NOT_SUPPORTED, BACK_REFUSED):
            raise DxpError(f"a BACKACC code is 0, 1 or 2, not {self.code}")
        return f"K{self.code}"


Message = Union[Chat, GameRequest, GameAccept, MoveMessage, GameEnd, BackRequest, BackAccept]
_TYPES = "CRAMEBK"


def _checked(text: str) -> str:
    if len(text) > MAX_LENGTH:
        raise DxpError(f"a DXP message has at most {MAX_LENGTH} characters, not {len(text)}")
    if not text.isascii() or "\0" in text:
        raise DxpError(f"a DXP message is ASCII text without NUL: {_shown(text)}")
    return text


def _exact(message: str, length: int, what: str) -> None:
    if len(message) != length:
        raise DxpError(f"{what} has {length} characters, not {len(message)}: {_shown(message)}")


def parse(message: str) -> Message:
    """The message of one DXP text (the NUL that ends it on the wire removed)."""
    if not isinstance(message, str):
        raise DxpError(f"a DXP message is a str, not {type(message).__name__}")
    _checked(message)
    kind = message[:1]
    if kind == "C":
        return Chat(message[1:])
    if kind == "R":
        return _game_request(message)
    if kind == "A":
        _exact(message, 34, "a GAMEACC")
        code = _digits(message, 33, 1, "the acceptance code", message)
        if code not in (ACCEPTED, REFUSED_COLOR, REFUSED_TIME, REFUSED_POSITION, REFUSED):
            raise DxpError(f"a GAMEACC code is 0, 1, 2, 3 or 9, not {code}")
        return GameAccept(message[1:33].rstrip(), code)
    if kind == "M":
        return _move(message)
    if kind == "E":
        _exact(message, 3, "a GAMEEND")
        reason = _digits(message, 1, 1, "the reason", message)
        stop = _digits(message, 2, 1, "the stop code", message)
        if reason > I_WIN or stop > 1:
            raise DxpError(f"a GAMEEND is E, a reason 0-3 and a stop code 0 or 1, not "
                           f"{_shown(message)}")
        return GameEnd(reason, bool(stop))
    if kind == "B":
        _exact(message, 5, "a BACKREQ")
        move = _digits(message, 1, 3, "the move number", message)
        if move == 0:
            raise DxpError("a BACKREQ's move number is 1 to 999, not 0")
        return BackRequest(move, _color(message, 4, "the side to move", message))
    if kind == "K":
        _exact(message, 2, "a BACKACC")
        code = _digits(message, 1, 1, "the acceptance code", message)
        if code > BACK_REFUSED:
            raise DxpError(f"a BACKACC code is 0, 1 or 2, not {code}")
        return BackAccept(code)
    raise DxpError(f"a DXP message starts with one of {', '.join(_TYPES)} (CHAT, GAMEREQ, "
                   f"GAMEACC, MOVE, GAMEEND, BACKREQ, BACKACC), not {_shown(message, 20)}")


def _game_request(message: str) -> GameRequest:
    if len(message) not in (43, 94):
        raise DxpError(f"a GAMEREQ has 43 characters (the start position) or 94 (a position "
                       f"of its own), not {len(message)}: {_shown(message)}")
    version = _digits(message, 1, 2, "the version", message)
    follower = _color(message, 35, "the follower's colour", message)
    minutes = _digits(message, 36, 3, "the minutes", message)
    moves = _digits(message, 39, 3, "the number of moves", message)
    start = message[42]
    if start == "A" and len(message) == 43:
        position = None
    elif start == "B" and len(message) == 94:
        position = position_of(_color(message, 43, "the side to move", message), message[44:])
    else:
        raise DxpError(f"a GAMEREQ's position is A (the start, 43 characters) or B, a colour "
                       f"and 50 squares (94 characters), not {start!r} in {len(message)}")
    return GameRequest(message[3:35].rstrip(), follower, minutes, moves, position, version)


def _move(message: str) -> MoveMessage:
    if len(message) < 11:
        raise DxpError(f"a MOVE has at least 11 characters, not {len(message)}: "
                       f"{_shown(message)}")
    seconds = _digits(message, 1, 4, "the seconds", message)
    origin = _check_square(_digits(message, 5, 2, "the origin", message), "the origin")
    destination = _check_square(_digits(message, 7, 2, "the destination", message),
                                "the destination")
    count = _digits(message, 9, 2, "the number of captures", message)
    _exact(message, 11 + 2 * count, f"a MOVE with {count} capture{'s' if count != 1 else ''}")
    captured = tuple(_check_square(_digits(message, 11 + 2 * i, 2, "a captured square",
                                           message), "a captured square")
                     for i in range(count))
    if len(set(captured)) != len(captured):
        raise DxpError(f"a MOVE captures each square once: {_shown(message)}")
    return MoveMessage(seconds, origin, destination, captured)


# --- positions and moves, to and from shashki's ---------------------------------------------

def position_squares(position: Position) -> str:
    """The 50 squares of an international `position`, 1 to 50, as GAMEREQ writes them."""
    white, black, kings, _ = position.masks
    out = []
    for number in range(1, 51):
        s = GAME.square(str(number))
        bit = 1 << s
        piece = 0 if not (white | black) & bit else (1 if white & bit else 2)
        out.append(_PIECES[piece + (2 if piece and kings & bit else 0)])
    return "".join(out)


def position_of(turn: Color, squares: str) -> Position:
    """The international Position of GAMEREQ's 50 squares (e w z W Z) with `turn` to move;
    DxpError for anything else, or a position the game cannot hold."""
    if len(squares) != 50 or any(c not in _PIECES for c in squares):
        raise DxpError(f"a position is 50 squares each one of e w z W Z (empty, a white man, a "
                       f"black man, a white king, a black king), not {_shown(squares, 60)}")
    white = black = kings = 0
    for number, char in enumerate(squares, 1):
        if char == "e":
            continue
        bit = 1 << GAME.square(str(number))
        if char in "wW":
            white |= bit
        else:
            black |= bit
        if char.isupper():
            kings |= bit
    try:
        return Position.from_masks(GAME, white, black, kings, turn)
    except ValueError as error:
        raise DxpError(f"the GAMEREQ's position cannot be played: {error}") from None


def _number(square: int) -> int:
    return int(GAME.square_name(square))


def move_message(move: Move, seconds: int = 0) -> MoveMessage:
    """The MOVE of a legal move of an international position, taking `seconds`."""
    return MoveMessage(min(max(int(seconds), 0), 9999), _number(move.origin),
                       _number(move.destination), tuple(_number(s) for s in move.captured))


def move_of(position: Position, message: MoveMessage) -> Move:
    """The legal move of `position` that a MOVE names: its origin, destination and captured
    squares (in any order).  DxpError when no legal move is that one."""
    captured = sorted(message.captured)
    found: List[Move] = [m for m in position.legal_moves
                         if _number(m.origin) == message.origin
                         and _number(m.destination) == message.destination
                         and sorted(_number(s) for s in m.captured) == captured]
    if not found:
        legal = ", ".join(move_message(m).text()[5:] for m in position.legal_moves)
        raise DxpError(f"no legal move goes from {message.origin} to {message.destination} "
                       f"taking {list(message.captured) or 'nothing'}; the legal moves (from, to, "
                       f"count, captures) are {legal or 'none'}")
    return found[0]


class Frames:
    """A byte stream split into messages at its NULs: feed() what arrived, and it gives the
    messages it completed.  A message longer than MAX_LENGTH, or one that is not ASCII, is a
    DxpError (the stream cannot be trusted after it)."""

    def __init__(self) -> None:
        self._pending = b""

    def feed(self, data: bytes) -> List[str]:
        self._pending += data
        *done, self._pending = self._pending.split(b"\0")
        if len(self._pending) > MAX_LENGTH:
            raise DxpError(f"a DXP message of over {MAX_LENGTH} bytes without its NUL: "
                           f"{self._pending[:40]!r}...")
        out = []
        for chunk in done:
            if len(chunk) > MAX_LENGTH:
                raise DxpError(f"a DXP message has at most {MAX_LENGTH} bytes, not "
                               f"{len(chunk)}: {chunk[:40]!r}...")
            try:
                out.append(chunk.decode("ascii"))
            except UnicodeDecodeError:
                raise DxpError(f"a DXP message is ASCII, not {chunk[:40]!r}") from None
        return out

    @staticmethod
    def encode(message: Message) -> bytes:
        """The bytes of a message on the wire: its text and the NUL."""
        return message.text().encode("ascii") + b"\0"
