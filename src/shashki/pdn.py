"""PDN: read and write game records (the draughts cousin of chess PGN).

>>> import io, shashki.pdn
>>> game = shashki.pdn.read_game(io.StringIO('[GameType "25"]\\n\\n1. c3-d4 f6-g5 *'))
>>> game.variant.name, [str(m) for m in game.moves]
('russian', ['c3-d4', 'f6-g5'])
>>> game.board().move_stack      # the final Board, with the moves that led to it
[Move('c3-d4'), Move('f6-g5')]

Reading follows python-chess's ``read_game``: one game per call, read line by line so a large
file is never loaded whole; tags, ``{comments}``, ``;`` comments, NAGs (``$1``, ``!``, ``?``),
move numbers and results are understood; variations ``( ... )`` are skipped, or kept with
``variations=True`` (below).  The game is taken
from the ``GameType`` tag, else a ``Variant`` tag, unless the caller forces one (``variant=``);
``FEN`` sets up the position.  Every move is replayed on a Board (``Board.parse_move``), so a
Game only ever holds legal moves.

PlayStrategy's english dialect is read as well: it has no ``GameType``, names squares
algebraically *as seen from the side that moves first* (Black, whose men stand on its rows 1-3),
and splits a multi-jump into single jumps (``d8xf6 f6xd4`` is one move).  Seen from White that
board is turned half a turn, so the square (file, rank) there is (h - file, 8 - rank) here: the
usual first move ``c3-d4`` is ``11-15``.  Jumps are merged when a capture starts on the square
where the previous capture ended: the opponent can never move from that square (the capturing
piece stands on it), so only a continuation fits.

Errors: a malformed game raises InvalidPdnError naming the game number, the line and the
problem.  The whole game is read first, so the next ``read_game`` call starts at the next game.
With ``strict=False`` (python-chess's behaviour) nothing is raised: the errors are recorded in
``game.errors``, the moves after a bad one are dropped, and reading goes on.

Variations (``variations=True``): ``game.variations[i]`` lists the lines that replace move i of
the mainline, each a `Variation` (a list of Moves replayed from the position *before* move i).
Variations nest to any depth: ``line.variations[j]`` lists the lines that replace move j of
`line`, in the same structure.  A variation opens after the move it replaces, as in PGN:
``1. c3-d4 (1. e3-f4 f6-e5) 1... f6-g5``.  Comments and NAGs inside a variation are not kept,
nor results written inside one.  A variation with an illegal or unreadable move raises
InvalidPdnError naming the variation; with ``strict=False`` the error is recorded and that
variation (with the variations inside it) is dropped, the rest of the game stands.  Writing puts
each variation after the move it replaces, numbered as PGN does (``(3... e7-d6 4. c3-d4)``,
and ``3...`` again for the second mover's move after a variation).
"""

from __future__ import annotations

import io
import os
import re
import weakref
from typing import (IO, TYPE_CHECKING, Any, Callable, Dict, Iterable, Iterator, List, Mapping,
                    Optional, Set, Tuple, Union)

from . import squares as _sq
from .board import Board
from .errors import InvalidPdnError, ShashkiError
from .move import Move
from .variants import (BRAZILIAN, COLOR_NAMES, ENGLISH, GIVEAWAY, ITALIAN, RUSSIAN, Variant,
                       get_variant)

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

#: what read_game reads: an open text or binary handle, or any iterable of lines
PdnHandle = Union[IO[str], IO[bytes], Iterable[str], Iterable[bytes]]

__all__ = ["Game", "Variation", "read_game", "read_games", "write_game", "write_games", "RESULTS"]

#: the result strings PDN files use: international scoring (1-0, 1/2-1/2), the 2-point scoring
#: of russian and brazilian sites (2-0, 1-1), a double loss (0-0), and "*" for unknown
RESULTS = ("1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*")
_RESULT_ALIASES: Dict[str, str] = {"½-½": "1/2-1/2"}

#: the PDN GameType numbers of shashki's games; giveaway shares 25 with russian
_GAMETYPES: Dict[int, Variant] = {21: ENGLISH, 22: ITALIAN, 25: RUSSIAN, 26: BRAZILIAN}
#: how a Variant tag names a game when it is not one of shashki's names or aliases
_VARIANT_TAGS: Dict[str, Variant] = {"american/english": ENGLISH, "english/american": ENGLISH}
#: the Variant tag written for a game that GameType alone does not identify
_VARIANT_TAG_NAMES: Dict[Variant, str] = {GIVEAWAY: "Giveaway"}
#: python-chess's seven-tag roster, the headers of a new Game
_ROSTER = (("Event", "?"), ("Site", "?"), ("Date", "????.??.??"), ("Round", "?"),
           ("White", "?"), ("Black", "?"), ("Result", "*"))
_GLYPHS: Dict[str, int] = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
LINE_WIDTH = 80

# A tag line.  The value runs from the first quote to the last, so an unescaped quote inside
# it (seen in real files) still reads.
_TAG = re.compile(r'\s*\[\s*([A-Za-z0-9_]+)\s*"(.*)"\s*\]\s*\Z', re.S)
_SQUARE = r"(?:[a-hA-H][1-8]|\d{1,2})"
_SEP = "[-xX:\u00d7]"
_BOUNDARY = r"(?=[\s{}();$]|\Z)"
_TOKEN = re.compile(
    r"(?P<space>\s+)"
    r"|(?P<brace>\{)"
    r"|(?P<semi>;)"
    r"|(?P<open>\()"
    r"|(?P<close>\))"
    r"|(?P<nag>\$\d{1,3})" + _BOUNDARY +
    r"|(?P<result>1-0|0-1|1/2-1/2|\u00bd-\u00bd|2-0|0-2|1-1|0-0|\*)" + _BOUNDARY +
    r"|(?P<number>\d{1,4}\.+)"
    r"|(?P<move>" + _SQUARE + "(?:" + _SEP + _SQUARE + r")+)(?P<suffix>[!?]{1,2})?" + _BOUNDARY +
    r"|(?P<glyph>[!?]{1,2})" + _BOUNDARY +
    r"|(?P<ellipsis>\.\.\.|\u2026)"
    r"|(?P<other>[^\s{}();]+|\})")
_SPLIT = re.compile(_SEP)
_ALGEBRAIC = re.compile(r"[a-hA-H][1-8]")


# --- the game ---------------------------------------------------------------------------------

class Variation(List[Move]):
    """A line of Moves that replaces one move of a game (or of an enclosing variation), played
    from the position before that move.  `variations[j]` lists the lines that replace move j
    of this line.  Equality compares the moves only, as for any list."""

    variations: List[List[Variation]]

    def __init__(self, moves: Iterable[Move] = ()) -> None:
        super().__init__(moves)
        self.variations = [[] for _ in self]

    def __repr__(self) -> str:
        return f"Variation({list.__repr__(self)})"


class Game:
    """A game record: headers, a starting position, the mainline of legal moves, comments.

    `headers` is a dict (tag name -> value, in file order).  `moves` are shashki Moves, each
    legal where it was played; `comments[i]` and `nags[i]` belong to `moves[i]`, `comment` to
    the start of the game.  `board()` is the position after the moves.  `errors` lists the
    InvalidPdnErrors met while reading with ``strict=False``.  `variations[i]` lists the
    alternative lines (Variations) to `moves[i]`; they are read only with ``variations=True``.
    """

    variant: Variant
    headers: Dict[str, str]
    comment: str
    comments: List[str]
    nags: List[Set[int]]
    variations: List[List[Variation]]
    errors: List[InvalidPdnError]
    _start: Board
    _board: Board
    _moves: List[Move]

    def __init__(self, variant: Union[str, Variant] = "russian", fen: Optional[str] = None,
                 headers: Optional[Mapping[str, str]] = None) -> None:
        board = Board(variant, fen)
        self._setup(board, dict(_ROSTER))
        self.headers["GameType"] = self.variant.pdn_gametype
        if not self.is_standard_start():
            self.headers["FEN"] = self.starting_fen
        if headers:
            self.headers.update(headers)

    def _setup(self, board: Board, headers: Dict[str, str]) -> None:
        self.variant = board.variant
        self._start = board
        self._board = board.copy()
        self._moves = []
        self.headers = headers
        self.comment = ""
        self.comments = []
        self.nags = []
        self.variations = []
        self.errors = []

    @classmethod
    def _blank(cls, board: Board, headers: Dict[str, str]) -> Game:
        game = object.__new__(cls)
        game._setup(board, headers)
        return game

    @classmethod
    def from_board(cls, board: Board, headers: Optional[Mapping[str, str]] = None) -> Game:
        """The game that led to `board`: its starting position and its move stack."""
        start = board.copy()
        while start.move_stack:
            start.pop()
        game = cls(board.variant, start.fen(), headers)
        for move in board.move_stack:
            game.add_move(move)
        return game

    # --- moves ------------------------------------------------------------------------------

    def add_move(self, move: Union[Move, str], comment: str = "",
                 nags: Iterable[int] = ()) -> Move:
        """Play a Move (or move text) at the end of the mainline; returns the Move.  An illegal
        move raises (IllegalMoveError ...) and leaves the game unchanged."""
        move = self._board.push(move)
        self._moves.append(move)
        self.comments.append(comment)
        self.nags.append(set(nags))
        self.variations.append([])
        return move

    def add_variation(self, ply: int, moves: Iterable[Union[Move, str]]) -> Variation:
        """Keep a line that replaces mainline move `ply` (0-based), replayed from the position
        before it; returns the Variation.  An illegal move raises (IllegalMoveError ...) and
        leaves the game unchanged.  Nested lines go into ``variation.variations[j]`` (not
        checked here; reading checks them)."""
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply < len(self._moves):
            raise ValueError(f"ply must be an int 0..{len(self._moves) - 1}, not {ply!r}")
        board = self.board(ply)
        line = Variation(board.push(move) for move in moves)
        if not line:
            raise ValueError("a variation needs at least one move")
        self.variations[ply].append(line)
        return line

    @property
    def moves(self) -> Tuple[Move, ...]:
        """The mainline, a tuple of Moves."""
        return tuple(self._moves)

    def mainline_moves(self) -> List[Move]:
        return list(self._moves)

    def __len__(self) -> int:
        return len(self._moves)

    def board(self, ply: Optional[int] = None) -> Board:
        """A new Board after the first `ply` moves (all of them by default), its move stack
        holding them."""
        if ply is None:
            return self._board.copy()
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= len(self._moves):
            raise ValueError(f"ply must be an int 0..{len(self._moves)}, not {ply!r}")
        board = self._start.copy()
        for move in self._moves[:ply]:
            board.push(move)
        return board

    @property
    def starting_fen(self) -> str:
        return self._start.fen()

    def is_standard_start(self) -> bool:
        return self._start == Board(self.variant)

    # --- result -----------------------------------------------------------------------------

    @property
    def result(self) -> str:
        """The result string as recorded (the Result tag), "*" when unknown."""
        return self.headers.get("Result", "*")

    @result.setter
    def result(self, value: str) -> None:
        value = _RESULT_ALIASES.get(value, value)
        if value not in RESULTS:
            raise InvalidPdnError(f"unknown result {value!r}; expected one of {', '.join(RESULTS)}")
        self.headers["Result"] = value

    # --- writing ----------------------------------------------------------------------------

    def __str__(self) -> str:
        return _format_game(self)

    def write(self, handle: SupportsWrite[str]) -> None:
        """Write the game as PDN to a text handle, followed by a blank line."""
        handle.write(_format_game(self))
        handle.write("\n\n")

    def __repr__(self) -> str:
        names = " vs ".join(repr(self.headers.get(tag, "?")) for tag in ("White", "Black"))
        return (f"<Game {self.variant.name} {names} {len(self._moves)} plies "
                f"{self.result}>")


# --- reading ----------------------------------------------------------------------------------

class _Source:
    """Lines of a handle with a pushback, the line count and the games read so far: the state
    that lets read_game return at a game's end without losing the next game's first line."""

    __slots__ = ("readline", "pushback", "line_number", "games", "position", "__weakref__")

    readline: Callable[[], Any]
    pushback: List[Tuple[str, int]]
    line_number: int
    games: int
    position: Optional[int]

    def __init__(self, handle: Any) -> None:
        self.readline = _line_reader(handle)
        self.pushback = []
        self.line_number = 0
        self.games = 0
        self.position = None

    def next_line(self) -> Optional[Tuple[str, int]]:
        """(text, line number), or None at the end of the input."""
        if self.pushback:
            return self.pushback.pop()
        raw = self.readline()
        if not raw:
            return None
        if isinstance(raw, (bytes, bytearray)):
            raw = bytes(raw).decode("utf-8", "replace")
        elif not isinstance(raw, str):
            raise TypeError(f"PDN lines must be str or bytes, not {type(raw).__name__}")
        self.line_number += 1
        if self.line_number == 1:
            raw = raw.lstrip("\ufeff")
        return raw, self.line_number

    def unread(self, text: str, number: int) -> None:
        self.pushback.append((text, number))


def _line_reader(handle: Any) -> Callable[[], Any]:
    if hasattr(handle, "readline"):
        readline: Callable[[], Any] = handle.readline
        return readline
    if isinstance(handle, (str, bytes, os.PathLike)):
        raise TypeError("read_game takes an open handle (io.StringIO(text) for a string); "
                        "read_games also takes a path")
    iterator = iter(handle)
    return lambda: next(iterator, "")


# per-handle reading state, so that consecutive read_game(handle) calls number games and lines
# and keep the line pushed back at the end of a game
_SOURCES: weakref.WeakKeyDictionary[Any, _Source] = weakref.WeakKeyDictionary()


def _tell(handle: Any) -> Optional[int]:
    try:
        position: Optional[int] = handle.tell()
        return position
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return None


def _source_for(handle: Any) -> _Source:
    try:
        source = _SOURCES.get(handle)
    except TypeError:  # not weak-referenceable: the state lasts one call
        return _Source(handle)
    # a handle moved by someone else (seek) starts afresh
    if source is None or source.position != _tell(handle):
        source = _Source(handle)
        _SOURCES[handle] = source
    return source


def read_game(handle: PdnHandle, *, variant: Union[str, Variant, None] = None,
              strict: bool = True, variations: bool = False) -> Optional[Game]:
    """The next game of a PDN text handle, or None at its end.

    `variant` forces the game (a name or Variant) whatever the tags say.  With `strict`
    (default) a malformed game raises InvalidPdnError after the game has been read to its end;
    with ``strict=False`` the errors are kept in ``game.errors``.  With `variations` the
    variations are replayed and kept in ``game.variations`` instead of skipped.
    """
    forced = None if variant is None else get_variant(variant)
    source = _source_for(handle)
    try:
        game = _read(source, forced, variations)
    finally:
        source.position = _tell(handle)
    return None if game is None else _finish(game, strict)


def read_games(source: Union[PdnHandle, str, bytes, os.PathLike[str]], *,
               variant: Union[str, Variant, None] = None,
               strict: bool = True, variations: bool = False) -> Iterator[Game]:
    """An iterator over the games of a PDN handle or file path, reading one game at a time
    (a path is opened as UTF-8 when iteration starts and closed when it ends).  The options
    are read_game's."""
    forced = None if variant is None else get_variant(variant)
    if isinstance(source, (str, bytes, os.PathLike)):
        return _iterate_path(source, forced, strict, variations)
    return _iterate(_Source(source), forced, strict, variations)


def _iterate_path(path: Union[str, bytes, os.PathLike[str]], forced: Optional[Variant],
                  strict: bool, variations: bool) -> Iterator[Game]:
    with open(path, encoding="utf-8", errors="replace") as handle:
        yield from _iterate(_Source(handle), forced, strict, variations)


def _iterate(source: _Source, forced: Optional[Variant], strict: bool,
             variations: bool) -> Iterator[Game]:
    while True:
        game = _read(source, forced, variations)
        if game is None:
            return
        yield _finish(game, strict)


def _finish(game: Game, strict: bool) -> Game:
    if strict and game.errors:
        raise game.errors[0]
    return game


def _read(source: _Source, forced: Optional[Variant], variations: bool) -> Optional[Game]:
    headers, tag_errors, first_line = _read_headers(source)
    if headers is None:
        return None
    source.games += 1
    number = source.games
    reader = _MovetextReader(source, number, headers, forced, first_line, variations)
    reader.errors[:0] = [_error(number, line, text) for line, text in tag_errors]
    reader.run()
    return reader.game


def _read_headers(
        source: _Source,
) -> Tuple[Optional[Dict[str, str]], List[Tuple[int, str]], Optional[int]]:
    """The tags of the next game (dict), a list of (line, message) problems and the game's
    first line; headers is None at the end of the input.  Stops at the first line that is not
    a tag, pushing it back."""
    headers: Dict[str, str] = {}
    errors: List[Tuple[int, str]] = []
    blank_after_tags = False
    started = False
    first: Optional[int] = None
    while True:
        item = source.next_line()
        if item is None:
            return (headers if started else None), errors, first
        text, number = item
        stripped = text.strip()
        if not stripped or text.startswith("%"):
            blank_after_tags = started
            continue
        if first is None:
            first = number
        if not stripped.startswith("["):
            source.unread(text, number)
            return headers, errors, first
        match = _TAG.match(text)
        if match is None:
            started = True
            errors.append((number, f"cannot read the tag line {stripped[:60]!r}; "
                                   f"expected [Name \"value\"]"))
            continue
        name, value = match.group(1), _unescape(match.group(2))
        if blank_after_tags and name in headers:
            # a game without movetext: this tag begins the next game
            source.unread(text, number)
            return headers, errors, first
        headers[name] = value
        started = True
        blank_after_tags = False


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _error(game_number: int, line: Optional[int], message: str) -> InvalidPdnError:
    error = InvalidPdnError(f"game {game_number}, line {line}: {message}")
    error.game_number = game_number
    error.line_number = line
    return error


def _variant_from_tag(value: str) -> Optional[Variant]:
    """The Variant a `[Variant "..."]` tag names, or None."""
    key = " ".join(value.lower().split())
    if key in _VARIANT_TAGS:
        return _VARIANT_TAGS[key]
    for candidate in [key] + re.split(r"[/,]", key):
        try:
            return get_variant(candidate.strip())
        except ShashkiError:
            continue
    return None


def _variant_from_gametype(value: str) -> Variant:
    """The Variant of a GameType tag ("25" or "25,W,8,8,A0,0"); raises InvalidPdnError."""
    fields = [f.strip() for f in value.split(",")]
    if not fields[0].isdigit():
        raise InvalidPdnError(f"cannot read GameType {value!r}; expected a number such as 25 "
                              f"or the full form 25,W,8,8,A0,0")
    variant = _GAMETYPES.get(int(fields[0]))
    if variant is None:
        raise InvalidPdnError(
            f"GameType {fields[0]} is not a game shashki plays; expected 21 (english), "
            f"22 (italian), 25 (russian, giveaway) or 26 (brazilian)")
    if len(fields) >= 4 and (fields[2], fields[3]) != ("8", "8"):
        raise InvalidPdnError(f"GameType {value!r} describes a {fields[2]}x{fields[3]} board; "
                              f"shashki plays on 8x8")
    return variant


def _game_variant(headers: Mapping[str, str], forced: Optional[Variant]) -> Variant:
    """The Variant of a game from its tags (or `forced`); raises InvalidPdnError."""
    if forced is not None:
        return forced
    tag = headers.get("Variant")
    named = _variant_from_tag(tag) if tag is not None else None
    if "GameType" in headers:
        variant = _variant_from_gametype(headers["GameType"])
        # GameType 25 is both russian and giveaway; only the Variant tag tells them apart
        if named is not None and named.gametype == variant.gametype:
            return named
        return variant
    if tag is not None:
        if named is None:
            raise InvalidPdnError(f"unknown Variant {tag!r}; shashki plays russian, giveaway, "
                                  f"brazilian, italian and english (American/English)")
        return named
    return RUSSIAN


def _first_mover_square(name: str) -> str:
    """The english number of an algebraic square named from the first mover's side of the
    board (PlayStrategy): turned half a turn, (file, rank) is (7 - file, 7 - rank) from White."""
    file, rank = ord(name[0].lower()) - 97, int(name[1]) - 1
    square = _sq.square_at(7 - file, 7 - rank)
    if square is None:
        raise InvalidPdnError(f"{name} is a light square; pieces stand on dark squares")
    return str(_sq.english_number(square))


class _Pending:
    """A move read but not yet played: the square names of its route, as written."""

    __slots__ = ("segments", "raw", "line", "capture", "comments", "nags")

    segments: List[str]
    raw: List[str]
    line: Optional[int]
    capture: bool
    comments: List[str]
    nags: Set[int]

    def __init__(self, text: str, line: Optional[int]) -> None:
        self.segments = _SPLIT.split(text)
        self.raw = [text]
        self.line = line
        self.capture = bool(re.search("[xX:\u00d7]", text))
        self.comments = []
        self.nags = set()

    def continues_with(self, text: str) -> bool:
        # a capture that starts where this capture ended is the rest of the same move
        return (self.capture and bool(re.search("[xX:\u00d7]", text))
                and _SPLIT.split(text)[0].lower() == self.segments[-1].lower())

    def extend(self, text: str) -> None:
        self.segments += _SPLIT.split(text)[1:]
        self.raw.append(text)


class _Frame:
    """An open variation being read (with ``variations=True``): its own Board and pending
    move, and the list of lines it joins when it closes without error."""

    __slots__ = ("board", "line", "owner", "ply", "pending", "dead", "name")

    board: Board
    line: Variation
    owner: Optional[List[Variation]]
    ply: int
    pending: Optional[_Pending]
    dead: bool
    name: str

    def __init__(self, board: Board, owner: Optional[List[Variation]], ply: int, name: str,
                 dead: bool) -> None:
        self.board = board
        self.line = Variation()
        self.owner = owner
        self.ply = ply        # the ply (from the game's start) of the move the line replaces
        self.pending = None
        self.dead = dead      # unreadable or illegal: its tokens are skipped, it is dropped
        self.name = name


def _move_label(ply: int) -> str:
    """The PDN move number of the move at `ply` counted from the first mover's first move."""
    return f"{1 + ply // 2}{'.' if ply % 2 == 0 else '...'}"


def _move_text(board: Board, pending: _Pending) -> str:
    """The text to parse for a pending move: as written, or with PlayStrategy's algebraic
    english squares renamed and split jumps joined.  Raises InvalidPdnError (light square)."""
    text = " ".join(pending.raw)
    segments = pending.segments
    converted = board.variant is ENGLISH and any(_ALGEBRAIC.fullmatch(s) for s in segments)
    if converted:
        segments = [_first_mover_square(s) if _ALGEBRAIC.fullmatch(s) else s for s in segments]
    if converted or len(pending.raw) > 1:
        text = ("x" if pending.capture else "-").join(segments)
    return text


def _move_problem(board: Board, pending: _Pending, text: str, ply: int,
                  exc: ShashkiError) -> str:
    written = " ".join(pending.raw)
    read_as = "" if text == written else f" (read as {text!r})"
    legal = ", ".join(str(m) for m in board.legal_moves) or "none"
    return (f"move {_move_label(ply)} {written!r} ({COLOR_NAMES[board.turn]} to move)"
            f"{read_as}: {exc}; the legal moves were: {legal}")


class _MovetextReader:
    """Reads one game's movetext from a _Source, replaying the moves on a Board."""

    game: Game
    pending: Optional[_Pending]
    movetext_result: Optional[str]
    line: Optional[int]

    def __init__(self, source: _Source, number: int, headers: Dict[str, str],
                 forced: Optional[Variant], line: Optional[int], keep: bool = False) -> None:
        self.source = source
        self.keep = keep           # variations are read (else skipped)
        self.frames: List[_Frame] = []   # the open variations, innermost last, when kept
        self.number = number
        self.errors: List[InvalidPdnError] = []
        self.dead = False          # after an error, moves are no longer read
        self.depth = 0             # variation nesting
        self.content = False       # movetext seen (a blank line then ends the game)
        self.pending = None
        self.movetext_result = None
        self.line = line
        try:
            variant = _game_variant(headers, forced)
        except InvalidPdnError as exc:
            self.fail(str(exc))
            variant = forced or RUSSIAN
        board = Board(variant)
        if "FEN" in headers:
            try:
                board = Board(variant, self._fen(headers["FEN"], variant))
            except ShashkiError as exc:
                self.fail(f"FEN tag: {exc}")
        self.game = Game._blank(board, headers)
        self.offset = 0 if board.turn == variant.first_to_move else 1

    @staticmethod
    def _fen(text: str, variant: Variant) -> str:
        """A FEN tag's text, with algebraic squares of an english game (PlayStrategy's dialect)
        renamed to english numbers."""
        if variant is not ENGLISH:
            return text
        fields = text.split(":")
        for i, field in enumerate(fields[1:], 1):
            items = field[1:].split(",")
            for j, item in enumerate(items):
                king = item[:1] in ("K", "k")
                square = item[1:] if king else item
                if _ALGEBRAIC.fullmatch(square.strip()):
                    items[j] = ("K" if king else "") + _first_mover_square(square.strip())
            fields[i] = field[:1] + ",".join(items)
        return ":".join(fields)

    def fail(self, message: str) -> None:
        # the move read before the problem stands (while __init__ runs, none is pending and
        # _flush returns before it would need self.game)
        self._flush()
        self.errors.append(_error(self.number, self.line, message))
        self.dead = True

    # --- the line loop ----------------------------------------------------------------------

    def run(self) -> None:
        try:
            self._lines()
            self._flush()
            if self.depth:
                self.fail("a variation '(' is not closed at the end of the game")
        finally:
            self.game.errors = self.errors
        if self.movetext_result is not None and "Result" not in self.game.headers:
            self.game.headers["Result"] = self.movetext_result

    def _lines(self) -> None:
        while True:
            item = self.source.next_line()
            if item is None:
                return
            text, self.line = item
            if text.startswith("%"):
                continue
            if not text.strip():
                if self.content and self.depth == 0:
                    return
                continue
            if text.lstrip().startswith("[") and _TAG.match(text):
                if self.content or self.depth:
                    # the next game's tags; an open variation is this game's error
                    if self.depth:
                        self.fail("a variation '(' is not closed before the next game")
                    self.source.unread(text, self.line)
                    return
            if self._tokens(text):
                return

    def _tokens(self, text: str) -> bool:
        """Read the tokens of one line; True when the game ends on this line."""
        pos = 0
        end = len(text)
        while pos < end:
            match = _TOKEN.match(text, pos)
            # its last alternatives, all named, match any character
            assert match is not None and match.lastgroup is not None
            kind = match.lastgroup
            if kind == "suffix":  # the last group matched, inside a move
                kind = "move"
            token = match.group(kind)
            pos = match.end()
            if kind == "space":
                continue
            self.content = True
            if kind == "brace":
                comment, rest, pos = self._comment(text, pos)
                if rest is None:
                    return True
                text = rest
                end = len(text)
                self._note(comment)
            elif kind == "semi":
                self._note(text[pos:])
                return False
            elif kind == "open":
                self.depth += 1
                if self.keep:
                    self._open()
            elif kind == "close":
                if self.depth == 0:
                    self.fail("')' without a variation '(' before it")
                else:
                    self.depth -= 1
                    if self.keep:
                        self._close()
            elif self.depth:
                if self.keep:
                    self._variation_token(kind, token)
                # else inside a variation: skipped
            elif kind == "result":
                self._flush()
                self.movetext_result = _RESULT_ALIASES.get(token, token)
                self._after_result(text, pos)
                return True
            elif kind == "move":
                self._move(token, match.group("suffix"))
            elif kind == "nag":
                self._nag(int(token[1:]))
            elif kind == "glyph":
                self._nag(_GLYPHS[token])
            elif kind == "other":
                self.fail(f"cannot read {token[:40]!r} in the movetext; expected moves such "
                          f"as {self._example()}, move numbers, comments or a result")
            # numbers and '...' carry nothing: moves are counted, not numbered
        return False

    def _comment(self, text: str, pos: int) -> Tuple[str, Optional[str], int]:
        """(comment, line, position after '}'); the line is None when the comment runs to the
        end of the input or into the next game's tags."""
        parts: List[str] = []
        while True:
            close = text.find("}", pos)
            if close >= 0:
                parts.append(text[pos:close])
                return " ".join(" ".join(parts).split()), text, close + 1
            parts.append(text[pos:])
            item = self.source.next_line()
            if item is None:
                self.fail("a comment '{' is not closed before the end of the input")
                return "", None, 0
            text, self.line = item
            pos = 0
            if text.lstrip().startswith("[") and _TAG.match(text):
                self.fail("a comment '{' is not closed before the next game")
                self.source.unread(text, self.line)
                return "", None, 0

    def _after_result(self, text: str, pos: int) -> None:
        """The rest of a line after the result: comments belong to this game; anything else
        begins the next one."""
        while True:
            match = _TOKEN.match(text, pos)
            if match is None:
                return
            kind = match.lastgroup
            if kind == "space":
                pos = match.end()
            elif kind == "brace":
                _, rest, pos = self._comment(text, match.end())
                if rest is None:
                    return
                text = rest
            elif kind == "semi":
                return
            else:
                assert self.line is not None  # set when the line holding the result was read
                self.source.unread(text[pos:], self.line)
                return

    # --- moves ------------------------------------------------------------------------------

    def _move(self, text: str, suffix: Optional[str]) -> None:
        if self.dead:
            return
        if self.pending is not None and self.pending.continues_with(text):
            self.pending.extend(text)
        else:
            self._flush()
            if self.dead:
                return
            self.pending = _Pending(text, self.line)
        if suffix:
            self.pending.nags.add(_GLYPHS[suffix])

    def _flush(self) -> None:
        pending, self.pending = self.pending, None
        if pending is None or self.dead:
            return
        board = self.game._board
        text = " ".join(pending.raw)
        try:
            text = _move_text(board, pending)
            move = board.parse_move(text)
        except ShashkiError as exc:
            ply = len(self.game._moves) + self.offset
            self.errors.append(_error(self.number, pending.line,
                                      _move_problem(board, pending, text, ply, exc)))
            self.dead = True
            return
        self.game.add_move(move, " ".join(pending.comments), pending.nags)

    # --- variations (kept) ------------------------------------------------------------------

    def _open(self) -> None:
        """A '(' : a line replacing the last move read (of the mainline or the enclosing
        variation), replayed from the position before that move."""
        parent = self.frames[-1] if self.frames else None
        if parent is None:
            self._flush()
            moves: List[Move] = self.game._moves
            board, owners, dead, ply = self.game._board, self.game.variations, self.dead, 0
        else:
            self._flush_frame(parent)
            moves = parent.line
            board, owners, dead, ply = parent.board, parent.line.variations, parent.dead, parent.ply
        if not moves:
            name = "a variation" if parent is None else f"a variation inside {parent.name}"
            frame = _Frame(board, None, 0, name, True)
            self.frames.append(frame)
            if not dead:
                self.errors.append(_error(
                    self.number, self.line,
                    f"{name} opens before any move; a variation '(' follows the move it "
                    f"replaces"))
            return
        ply += len(moves) - 1 + (self.offset if parent is None else 0)
        start = board.copy()
        start.pop()
        name = f"the variation replacing {_move_label(ply)} {moves[-1]} (line {self.line})"
        if parent is not None:
            name += f" inside {parent.name}"
        self.frames.append(_Frame(start, owners[-1], ply, name, dead))

    def _close(self) -> None:
        frame = self.frames.pop()
        self._flush_frame(frame)
        if not frame.dead and frame.line and frame.owner is not None:
            frame.owner.append(frame.line)

    def _variation_token(self, kind: str, token: str) -> None:
        frame = self.frames[-1]
        if frame.dead:
            return
        if kind == "move":
            if frame.pending is not None and frame.pending.continues_with(token):
                frame.pending.extend(token)
                return
            self._flush_frame(frame)
            if not frame.dead:
                frame.pending = _Pending(token, self.line)
        elif kind == "other":
            self._fail_frame(frame, self.line,
                             f"cannot read {token[:40]!r}; expected moves such as "
                             f"{self._example()}, move numbers or comments")
        # move numbers, NAGs and results inside a variation carry nothing kept

    def _flush_frame(self, frame: _Frame) -> None:
        pending, frame.pending = frame.pending, None
        if pending is None or frame.dead:
            return
        text = " ".join(pending.raw)
        try:
            text = _move_text(frame.board, pending)
            move = frame.board.parse_move(text)
        except ShashkiError as exc:
            ply = frame.ply + len(frame.line)
            self._fail_frame(frame, pending.line,
                             _move_problem(frame.board, pending, text, ply, exc))
            return
        frame.board.push(move)
        frame.line.append(move)
        frame.line.variations.append([])

    def _fail_frame(self, frame: _Frame, line: Optional[int], message: str) -> None:
        # the variation (and any inside it) is dropped; the mainline reads on
        self.errors.append(_error(self.number, line, f"in {frame.name}: {message}"))
        frame.dead = True

    def _note(self, comment: str) -> None:
        comment = " ".join(comment.split())
        if not comment or self.dead or self.depth:
            return
        if self.pending is not None:
            self.pending.comments.append(comment)
        elif self.game.comments:
            previous = self.game.comments[-1]
            self.game.comments[-1] = f"{previous} {comment}" if previous else comment
        else:
            self.game.comment = f"{self.game.comment} {comment}".strip()

    def _nag(self, nag: int) -> None:
        if self.dead or self.depth:
            return
        if self.pending is not None:
            self.pending.nags.add(nag)
        elif self.game.nags:
            self.game.nags[-1].add(nag)

    def _example(self) -> str:
        return "22-18 or 22x13" if self.game.variant.numeric else "c3-d4 or c3:e5"


# --- writing ----------------------------------------------------------------------------------

def write_game(game: Game, handle: SupportsWrite[str]) -> None:
    """Write a Game as PDN to a text handle, followed by a blank line."""
    game.write(handle)


def write_games(games: Iterable[Game], handle: SupportsWrite[str]) -> None:
    for game in games:
        game.write(handle)


def _escape(value: object) -> str:
    # a tag is one line: line breaks in a value become spaces
    value = " ".join(str(value).splitlines())
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _header_items(game: Game) -> Dict[str, str]:
    """The tags to write: the game's headers with GameType in full, FEN when the game does not
    start from the standard position, and a Variant tag that agrees with the game."""
    items = dict(game.headers)
    items.setdefault("Result", game.result)
    items["GameType"] = game.variant.pdn_gametype
    if game.is_standard_start():
        items.pop("FEN", None)
        items.pop("SetUp", None)
    else:
        items["FEN"] = game.starting_fen
    tag = items.get("Variant")
    if tag is not None and _variant_from_tag(tag) is not game.variant:
        items["Variant"] = _VARIANT_TAG_NAMES.get(game.variant, game.variant.name.title())
    elif tag is None and game.variant in _VARIANT_TAG_NAMES:
        items["Variant"] = _VARIANT_TAG_NAMES[game.variant]
    return items


def _comment_words(comment: str) -> List[str]:
    # "}" would end the comment early; python-chess drops it the same way
    words = comment.replace("}", "").split()
    if not words:
        return []
    words[0] = "{" + words[0]
    words[-1] = words[-1] + "}"
    return words


def _numbered(move: Move, ply: int, renumber: bool) -> str:
    """A move's token at `ply` (counted from the first mover's first move) with its number:
    always before the first mover's move (a number stays on the line of its move), before the
    second mover's when the line was broken by a comment or variation ("3... e7-d6")."""
    if ply % 2 == 0:
        return f"{1 + ply // 2}. {move}"
    if renumber:
        return f"{1 + ply // 2}... {move}"
    return str(move)


def _format_game(game: Game) -> str:
    lines = [f'[{name} "{_escape(value)}"]' for name, value in _header_items(game).items()]
    tokens = _comment_words(game.comment)
    offset = 0 if game._start.turn == game.variant.first_to_move else 1
    renumber = True
    for i, move in enumerate(game._moves):
        k = i + offset
        tokens.append(_numbered(move, k, renumber))
        tokens += [f"${nag}" for nag in sorted(game.nags[i])]
        words = _comment_words(game.comments[i]) if i < len(game.comments) else []
        tokens += words
        renumber = bool(words)
        for line in game.variations[i] if i < len(game.variations) else []:
            if line:
                tokens += _variation_tokens(line, k)
                renumber = True
    result = game.result
    tokens.append(result if result in RESULTS else "*")
    lines.append("")
    lines += _wrap(tokens)
    return "\n".join(lines)


def _variation_tokens(line: List[Move], ply: int) -> List[str]:
    """The tokens of a variation replacing the move at `ply` (counted from the first mover's
    first move), its nested variations inside it: "(3... e7-d6", "4. c3-d4)"."""
    tokens: List[str] = []
    nested: List[List[Variation]] = getattr(line, "variations", [])
    renumber = True
    for j, move in enumerate(line):
        k = ply + j
        tokens.append(_numbered(move, k, renumber))
        renumber = False
        for sub in nested[j] if j < len(nested) else []:
            if sub:
                tokens += _variation_tokens(sub, k)
                renumber = True
    # the parentheses stay on the words they enclose, so a line never starts with ')'
    tokens[0] = "(" + tokens[0]
    tokens[-1] += ")"
    return tokens


def _wrap(tokens: List[str], width: int = LINE_WIDTH) -> List[str]:
    lines: List[str] = []
    line = ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > width:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    if line:
        lines.append(line)
    return lines
