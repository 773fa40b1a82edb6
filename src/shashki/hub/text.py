"""The text of the Hub protocol (Scan's, version 2): its line syntax, the names of the games,
positions, moves and scores.  `shashki hub` (shashki.apps.hub, the engine side) and the Hub
client (shashki.hub.client, the GUI side) both speak through this module.

How a game's text follows from its record:

- **10x10** (international, antidraughts, breakthrough): as Scan.  The position string is the
  side to move (``W``/``B``) then one character per square 1-50 in the game's own numbering
  (``w b W B e``: white man, black man, white king, black king, empty); moves are ``32-28``,
  and a capture is ``from x to x captured x captured...`` with every captured piece, ascending
  as Scan writes them (any order is read).
- **8x8**: as pydraughts 0.6.x sends and expects (Scan defines no 8x8 text).  The position
  string lists the squares in the order of the game's numeric FEN squares
  (Variant.square_from_number: 1 = the top-left dark square seen from White, row by row), seen
  from the side of the player who moves first, whom pydraughts calls "white": where Black
  moves first (english, pool) the string is turned round and the colours and the side to move
  swapped.  Moves number the squares of the algebraic games (russian, giveaway, brazilian,
  czech, thai) 1 = a1, 2 = c1, ... row by row from White's side (which is not the order of the
  position string), those of the numeric games by the game's own numbers.
- the **variant parameter** names a game by `Variant.hub_name`: Scan's name where Scan plays
  the game (``normal`` international, ``losing`` antidraughts, ``bt`` breakthrough), else the
  game's name; `hub_variant` also reads the record's other Hub names (``standard``, pydraughts'
  and lidraughts' name of international) and shashki's names and aliases.
- **levels** (the search limits of ``level``): depth=, nodes=, move-time=, and a clock as
  time= (before this move's increment, which the engine adds first), inc= and moves=, or
  ``infinite``; Limit is their value on both sides.
- **scores** are in men (``0.35``); a forced result is ``+-(100 - plies / 100)``, as Scan and
  pydraughts read it (``99.95``: a win in 5 plies).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict, List, Mapping, Optional, Tuple, TypeVar, Union

from .._core.search import WIN_SCORE
from .._text import quote, short
from .._core.position import Position
from ..board import Board
from ..colors import BLACK, WHITE, Color
from ..engine import Score
from ..errors import InvalidVariantError, ShashkiError
from ..limits import MAX_PLY, MIN_BUDGET, Limit
from ..move import Move
from ..square_text import SquareTextError, is_number, read_number
from ..variants import VARIANTS, Variant, get_variant

__all__ = ["HubInfo", "HubParam", "HubProtocolError", "format_line", "format_value",
           "game_text", "hub_variant", "level_line", "move_text", "parse_info", "parse_level",
           "parse_line", "parse_move", "parse_param", "parse_position", "parse_score",
           "position_text", "score_text"]

_N = TypeVar("_N", int, float)

_WIN_MEN = 100.0            # a forced win is reported as 100 men minus a hundredth per ply
_MAX_PLAIN_MEN = 89.99      # ordinary evaluations stay below what reads as a forced result
_FORCED_MEN = 90.0          # what pydraughts reads as a forced result (score * 100 > 9000)
#: the largest score in men that is read (more is not a draughts score)
_MAX_MEN = 1e6


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


# --- the games ---------------------------------------------------------------------------------

def hub_variant(name: str) -> Variant:
    """The game a value of the `variant` parameter names: a Hub name of a record
    (Variant.hub_names), or a shashki name or alias.  Raises HubProtocolError."""
    key = name.strip().lower()
    for variant in VARIANTS:
        if key in variant.hub_names:
            return variant
    try:
        return get_variant(key)
    except InvalidVariantError:
        raise HubProtocolError(
            f"shashki does not play {quote(name)}; the variant parameter takes "
            + ", ".join(v.hub_name for v in VARIANTS)) from None


# --- squares, positions and moves ------------------------------------------------------------

def _move_number(variant: Variant, square: int) -> int:
    # the algebraic games number their squares row by row from a1 (square + 1), as
    # pydraughts does; the numeric ones as the game does
    return int(variant.square_name(square)) if variant.numeric else square + 1


def _move_square(variant: Variant, number: int) -> int:
    return variant.square_from_number(number) if variant.numeric else number - 1


def _turned(variant: Variant) -> bool:
    """Whether the position string is turned round, its colours and side to move swapped:
    pydraughts calls the first player "white" and lists the squares from its side."""
    return variant.first_to_move == BLACK


def _position_square(variant: Variant, index: int) -> int:
    """The square of character `index` (1..) of a position string."""
    squares = variant.geometry.squares
    return variant.square_from_number(squares + 1 - index if _turned(variant) else index)


def _swap(variant: Variant, color: Color) -> Color:
    """`color` as the position string names it, and back."""
    return color.other if _turned(variant) else color


def move_text(move: Move, variant: Union[str, Variant]) -> str:
    """`move` (a shashki Move) in Hub notation for `variant`: the captured pieces ascending."""
    variant = get_variant(variant)
    captured = sorted(_move_number(variant, s) for s in move.captured)
    numbers = [_move_number(variant, move.origin), _move_number(variant, move.destination)]
    return ("x" if move.is_capture else "-").join(str(n) for n in numbers + captured)


def parse_move(board: Board, text: str) -> Move:
    """The legal move of `board` that the Hub move `text` names (captured pieces in any order;
    ``from x to`` alone when that names one move).  Raises HubProtocolError."""
    variant = board.variant
    parts = text.replace("x", "-").replace("X", "-").replace(":", "-").split("-")
    if len(parts) < 2 or not all(is_number(p) for p in parts):
        raise HubProtocolError(f"cannot read move {quote(text)}; expected numbered squares "
                               f"such as 32-28 or 28x19x23 (from x to x captured...)")
    try:
        squares = [_move_square(variant, read_number(p, variant)) for p in parts]
    except SquareTextError as error:
        raise HubProtocolError(f"square {short(error.token)} in move {quote(text)} is off the "
                               f"board; squares are numbered 1 to {error.last}") from None
    origin, destination, captured = squares[0], squares[1], squares[2:]
    if len(set(captured)) != len(captured):
        raise HubProtocolError(f"move {quote(text)} lists a captured square twice")
    fits = [m for m in board.legal_moves if m.origin == origin and m.destination == destination
            and (not captured or set(m.captured) == set(captured))]
    if len(fits) == 1:
        return fits[0]
    if not fits:
        legal = " ".join(move_text(m, variant) for m in board.legal_moves) or "none"
        raise HubProtocolError(f"illegal move {quote(text)} in {variant.name}; the legal moves "
                               f"are {legal}")
    raise HubProtocolError(f"move {quote(text)} is ambiguous; give every captured square: "
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
            f"a Hub position of {variant.name} is W or B (the side to move) then {squares} "
            f"characters, one per square (w b W B e), {squares + 1} in all; this one has "
            f"{len(text)}")
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
    # checked as a FEN is (Position.from_masks), so a Hub position meets the same checks
    return Board.from_position(Position.from_masks(variant, masks[WHITE], masks[BLACK], kings,
                                                   turn))


def game_text(board: Board) -> Tuple[str, Tuple[str, ...]]:
    """The position after the last irreversible move of `board`'s game (a Hub position
    string), and the moves since, in Hub text: what an engine needs of the history
    (repetitions, and the draw rules, whose counts start at an irreversible move), as the
    Hub GUI sends it; the whole game would make every `pos` longer."""
    start = board.copy()
    moves: List[Move] = []
    while start.move_stack:
        move = start.pop()
        if start.is_irreversible(move):
            start.push(move)            # the position after it is the start
            break
        moves.append(move)
    return position_text(start), tuple(move_text(m, board.variant) for m in reversed(moves))


# --- scores ----------------------------------------------------------------------------------

def score_text(score: Score) -> str:
    """A Score in Scan's units: men, with forced results at +-(100 - plies / 100)."""
    win_in = score.win_in
    if win_in is not None:
        plies = 2 * win_in - 1 if win_in > 0 else -2 * win_in
        value = _WIN_MEN - plies / 100
        return f"{value if win_in > 0 else -value:.2f}"
    men = max(-_MAX_PLAIN_MEN, min(_MAX_PLAIN_MEN, score.value / 100))
    return f"{men:.2f}"


def parse_score(text: str) -> Score:
    """The Score of a Hub `score=` value (men; beyond 90, a forced result in 100 * (100 - men)
    plies, as pydraughts reads Scan's).  Raises HubProtocolError."""
    try:
        men = float(text)
    except ValueError:
        men = float("nan")
    if not abs(men) <= _MAX_MEN:            # NaN too
        raise HubProtocolError(f"score={quote(text)}: expected a number of men")
    hundredths = round(men * 100)
    if abs(hundredths) > _FORCED_MEN * 100:
        plies = min(max(round(_WIN_MEN * 100) - abs(hundredths), 1), MAX_PLY - 1)
        return Score(WIN_SCORE - plies if hundredths > 0 else -(WIN_SCORE - plies))
    return Score(hundredths)


# --- search limits: the level line ----------------------------------------------------------

def _number(args: Mapping[str, str], key: str, kind: Callable[[str], _N]) -> Optional[_N]:
    """The value of argument `key` read by `kind` (int or float), or None without it."""
    if key not in args:
        return None
    text = args[key]
    try:
        return kind(text)
    except ValueError:
        noun = "a whole number" if kind is int else "a number"
        raise HubProtocolError(f"{key}={text[:40]!r}: expected {noun}") from None


def parse_level(args: Mapping[str, str]) -> Limit:
    """The Limit of the next search from the arguments of a `level` line (Scan's
    Search_Input): depth=, nodes=, move-time=, and a clock as time= (what is left before this
    move's increment, which the protocol adds before every move), inc= and moves= (to the
    next time control).  No argument: no limit, until `stop`.  Raises HubProtocolError."""
    if ("inc" in args or "moves" in args) and "time" not in args:
        raise HubProtocolError("inc= and moves= go with time=, the time left")
    movetime = _number(args, "move-time", float)
    time_left = _number(args, "time", float)
    increment = _number(args, "inc", float) or 0.0
    # a clock that has run out still gets a move (the GUI decides about the flag)
    clock = None if time_left is None else max(time_left, 0.0) + increment
    try:
        return Limit(depth=_number(args, "depth", int), nodes=_number(args, "nodes", int),
                     movetime=MIN_BUDGET if movetime == 0 else movetime, clock=clock,
                     increment=increment, moves=_number(args, "moves", int) or 0)
    except ValueError as exc:
        raise HubProtocolError(str(exc)) from None


def level_line(limit: Limit) -> str:
    """The ``level`` line of `limit` (``level infinite`` for none)."""
    pairs: List[Tuple[str, object]] = []
    if limit.depth is not None:
        pairs.append(("depth", limit.depth))
    if limit.nodes is not None:
        pairs.append(("nodes", limit.nodes))
    if limit.movetime is not None:
        pairs.append(("move-time", f"{limit.movetime:.6g}"))
    if limit.clock is not None:
        if limit.moves:
            pairs.append(("moves", limit.moves))
        # the protocol's time is before the increment, which the engine adds first
        pairs.append(("time", f"{max(limit.clock - limit.increment, 0.0):.6g}"))
        if limit.increment:
            pairs.append(("inc", f"{limit.increment:.6g}"))
    return format_line("level", *pairs) if pairs else "level infinite"


# --- what the engine says: its parameters and its search -------------------------------------

@dataclass(frozen=True)
class HubParam:
    """An engine parameter, as its ``param`` line declares it."""

    name: str
    type: str = "string"
    value: str = ""
    min: Optional[str] = None
    max: Optional[str] = None
    values: Tuple[str, ...] = ()     #: the choices of an enum


@dataclass(frozen=True)
class HubInfo:
    """One ``info`` line of a search; a field the engine did not send is None."""

    depth: Optional[int] = None
    mean_depth: Optional[float] = None      #: Scan's average leaf depth
    seldepth: Optional[int] = None
    score: Optional[Score] = None           #: from the side to move's point of view
    nodes: Optional[int] = None
    time: Optional[float] = None            #: seconds
    nps: Optional[float] = None             #: nodes per second (the protocol sends millions)
    pv: Tuple[Move, ...] = ()               #: the line, as far as its moves are legal
    raw: Tuple[Tuple[str, str], ...] = ()   #: every argument, as sent


def parse_param(args: Mapping[str, str]) -> HubParam:
    """The HubParam of the arguments of a ``param`` line (which has a name)."""
    return HubParam(args.get("name", ""), args.get("type", "string"), args.get("value", ""),
                    args.get("min"), args.get("max"), tuple(args.get("values", "").split()))


def _int(text: Optional[str]) -> Optional[int]:
    try:
        return None if text is None else int(text)
    except ValueError:
        return None         # a field that cannot be read is left out, not an error


def _float(text: Optional[str]) -> Optional[float]:
    try:
        return None if text is None else float(text)
    except ValueError:
        return None


def parse_info(args: Mapping[str, str], board: Board) -> HubInfo:
    """The HubInfo of the arguments of an ``info`` line about a search of `board`."""
    score = None
    if "score" in args:
        try:
            score = parse_score(args["score"])
        except HubProtocolError:
            pass
    pv: List[Move] = []
    replay = board.copy(stack=False)
    for text in args.get("pv", "").split():
        try:
            pv.append(replay.push(parse_move(replay, text)))
        except HubProtocolError:
            break
    mnps = _float(args.get("nps"))
    return HubInfo(depth=_int(args.get("depth")), mean_depth=_float(args.get("mean-depth")),
                   seldepth=_int(args.get("seldepth")), score=score,
                   nodes=_int(args.get("nodes")), time=_float(args.get("time")),
                   nps=None if mnps is None else mnps * 1e6, pv=tuple(pv),
                   raw=tuple(args.items()))
