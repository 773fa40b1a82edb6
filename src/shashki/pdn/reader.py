"""Reading PDN: lines from a handle, the tag section, and the movetext's tokens, which a
Replay (shashki.pdn.builder) plays and sends to a Visitor: by default a GameBuilder
(shashki.pdn.visitors), which builds a Game.

read_game follows python-chess: one game per call, read line by line so that a large file is
never loaded whole.  What must last from one call to the next on the same handle (a line read
past a game's end, the line and game counts) is kept per handle in a weak dictionary whose
entries hold no reference to the handle, so a handle is freed as soon as its owner drops it.
"""

from __future__ import annotations

import io
import os
import re
import weakref
from typing import (IO, Any, Callable, Dict, Iterable, Iterator, List, Optional, Tuple, TypeVar,
                    Union, overload)

from .._text import bounded_int
from ..errors import InvalidPdnError
from ..notation import RUSSIAN_SHORT_FORM, SEPARATOR_PATTERN
from ..variants import Variant, get_variant
from .builder import MovetextSink, Replay, pdn_error, setup_game
from .game import Game
from .model import SKIP, Visitor
from .visitors import GameBuilder, HeadersBuilder, SkipVisitor

#: what read_game reads: an open text or binary handle, or any iterable of lines
PdnHandle = Union[IO[str], IO[bytes], Iterable[str], Iterable[bytes]]

GLYPHS: Dict[str, int] = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
#: the largest NAG read (PGN's standard ones end at 255; files use a few more)
MAX_NAG = 999

# A tag line.  The value runs from the first quote to the last, so an unescaped quote inside
# it (seen in real files) still reads.
_TAG = re.compile(r'\s*\[\s*([A-Za-z0-9_]+)\s*"(.*)"\s*\]\s*\Z', re.S)
# numbers of any length: a zero-padded one reads as its value (shashki._text.bounded_int); a
# move is squares joined by separators, or the russian short form (``gh4``) that
# Board.parse_move reads too
_SQUARE = r"(?:[a-hA-H][1-8]|[0-9]+)"
_BOUNDARY = r"(?=[\s{}();$]|\Z)"
_TOKEN = re.compile(
    r"(?P<space>\s+)"
    r"|(?P<brace>\{)"
    r"|(?P<semi>;)"
    r"|(?P<open>\()"
    r"|(?P<close>\))"
    r"|(?P<nag>\$[0-9]+)" + _BOUNDARY +
    r"|(?P<result>1-0|0-1|1/2-1/2|\u00bd-\u00bd|2-0|0-2|1-1|0-0|\*)" + _BOUNDARY +
    r"|(?P<number>[0-9]+\.+)"
    r"|(?P<move>" + _SQUARE + "(?:" + SEPARATOR_PATTERN + _SQUARE + r")+|(?i:" + RUSSIAN_SHORT_FORM +
    r"))(?P<suffix>[!?]{1,2})?" +
    _BOUNDARY +
    r"|(?P<glyph>[!?]{1,2})" + _BOUNDARY +
    r"|(?P<ellipsis>\.\.\.|\u2026)"
    r"|(?P<other>[^\s{}();]+|\})")


class _State:
    """What read_game keeps of a handle between calls.  It holds no reference to the handle
    (issue 12.1: one through handle.readline kept every handle alive)."""

    __slots__ = ("pushback", "line_number", "games", "position")

    def __init__(self) -> None:
        self.pushback: List[Tuple[str, int]] = []
        self.line_number = 0
        self.games = 0
        self.position: Optional[int] = None


class _Source:
    """The lines of a handle with a pushback, the line count and the games read so far: what
    lets reading stop at a game's end without losing the next game's first line."""

    __slots__ = ("readline", "state")

    def __init__(self, readline: Callable[[], Any], state: _State) -> None:
        self.readline = readline
        self.state = state

    def next_line(self) -> Optional[Tuple[str, int]]:
        """(text, line number), or None at the end of the input."""
        state = self.state
        if state.pushback:
            return state.pushback.pop()
        raw = self.readline()
        if not raw:
            return None
        if isinstance(raw, (bytes, bytearray)):
            raw = bytes(raw).decode("utf-8", "replace")
        elif not isinstance(raw, str):
            raise TypeError(f"PDN lines must be str or bytes, not {type(raw).__name__}")
        state.line_number += 1
        if state.line_number == 1:
            raw = raw.lstrip("\ufeff")
        return raw, state.line_number

    def unread(self, text: str, number: int) -> None:
        self.state.pushback.append((text, number))


def _line_reader(handle: Any) -> Tuple[Callable[[], Any], bool]:
    """A function that returns the handle's next line ("" at its end), and whether reading
    state may be kept for the handle between calls: a handle with readline or an iterator
    goes on where the last call stopped; an iterable read afresh each time (a list) does not."""
    if hasattr(handle, "readline"):
        readline: Callable[[], Any] = handle.readline
        return readline, True
    if isinstance(handle, (str, bytes, os.PathLike)):
        raise TypeError("read_game takes an open handle (io.StringIO(text) for a string); "
                        "read_games also takes a path")
    iterator = iter(handle)
    return (lambda: next(iterator, "")), iterator is handle


# read_game's state of each handle, so that consecutive read_game(handle) calls number games
# and lines and keep the line pushed back at the end of a game
_STATES: weakref.WeakKeyDictionary[Any, _State] = weakref.WeakKeyDictionary()


def _tell(handle: Any) -> Optional[int]:
    try:
        position: Optional[int] = handle.tell()
        return position
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return None


def _state_for(handle: Any) -> _State:
    try:
        state = _STATES.get(handle)
    except TypeError:  # not weak-referenceable: the state lasts one call
        return _State()
    # a handle moved by someone else (seek) starts afresh
    if state is None or state.position != _tell(handle):
        state = _State()
        _STATES[handle] = state
    return state


_T = TypeVar("_T")
#: what read_game is given as Visitor: a Visitor class, or any function returning a visitor
VisitorFactory = Callable[[], Visitor[_T]]


@overload
def read_game(handle: PdnHandle, *, variant: Union[str, Variant, None] = None,
              strict: bool = True, variations: bool = True) -> Optional[Game]: ...


@overload
def read_game(handle: PdnHandle, *, Visitor: VisitorFactory[_T],
              variant: Union[str, Variant, None] = None, strict: bool = True,
              variations: bool = True) -> Optional[_T]: ...


def read_game(handle: PdnHandle, *, Visitor: VisitorFactory[Any] = GameBuilder,
              variant: Union[str, Variant, None] = None, strict: bool = True,
              variations: bool = True) -> Any:
    """The next game of a PDN text handle, or None at its end.

    The game is sent, as it is read, to a visitor made by `Visitor` (a class of
    shashki.pdn.Visitor, or any function returning a visitor: python-chess's ``read_game``),
    and what its ``result()`` returns is returned: a Game with the default GameBuilder, a
    dict of headers with HeadersBuilder (read_headers), True with SkipVisitor (skip_game).
    A visitor whose ``end_headers`` returns SKIP has the moves skipped unread.

    `variant` forces the game (a name or Variant) whatever the tags say.  With `strict`
    (default) a malformed game raises InvalidPdnError after the game has been read to its end
    (the next call reads the next game); with ``strict=False`` the errors go to the
    visitor's ``handle_error`` only (a Game keeps them in ``game.errors``).  The variations
    are replayed and sent to the visitor (a Game keeps them in ``game.variations``), as
    python-chess's read_game keeps them; ``variations=False`` skips them unread (faster, and
    a variation's illegal move is then no error).  A handle is read on from where the previous
    call stopped; a list of lines (read afresh by each iteration) is read from its start each
    time: read_games reads all of its games.
    """
    forced = None if variant is None else get_variant(variant)
    readline, lasting = _line_reader(handle)
    state = _state_for(handle) if lasting else _State()
    try:
        return _read(_Source(readline, state), Visitor, forced, strict, variations)
    finally:
        state.position = _tell(handle)


def read_headers(handle: PdnHandle, *, strict: bool = True) -> Optional[Dict[str, str]]:
    """The headers of the next game of a PDN handle (a dict), or None at its end; the rest of
    the game is skipped, its moves unread (HeadersBuilder): a fast scan of a large file, in
    which a game with illegal moves is no error.  With `strict`, a tag line that cannot be
    read raises InvalidPdnError (``strict=False`` leaves it out).

    >>> import io, shashki.pdn
    >>> text = '[White "A"]\\n\\n1. c3-d4 *\\n\\n[White "B"]\\n\\n1. h8-g7 *\\n'
    >>> handle = io.StringIO(text)
    >>> [shashki.pdn.read_headers(handle)["White"] for _ in range(2)]
    ['A', 'B']
    >>> shashki.pdn.read_headers(handle) is None
    True
    """
    headers: Optional[Dict[str, str]] = read_game(handle, Visitor=HeadersBuilder, strict=strict)
    return headers


def skip_game(handle: PdnHandle) -> bool:
    """Skip the next game of a PDN handle, reading nothing of it; False at the end of the
    input (SkipVisitor)."""
    skipped: Optional[bool] = read_game(handle, Visitor=SkipVisitor, strict=False)
    return bool(skipped)


@overload
def read_games(source: Union[PdnHandle, str, bytes, os.PathLike[str]], *,
               variant: Union[str, Variant, None] = None, strict: bool = True,
               variations: bool = True) -> Iterator[Game]: ...


@overload
def read_games(source: Union[PdnHandle, str, bytes, os.PathLike[str]], *,
               Visitor: VisitorFactory[_T], variant: Union[str, Variant, None] = None,
               strict: bool = True, variations: bool = True) -> Iterator[_T]: ...


def read_games(source: Union[PdnHandle, str, bytes, os.PathLike[str]], *,
               Visitor: VisitorFactory[Any] = GameBuilder,
               variant: Union[str, Variant, None] = None,
               strict: bool = True, variations: bool = True) -> Iterator[Any]:
    """An iterator over the games of a PDN handle or file path, reading one game at a time
    (a path is opened as UTF-8 when iteration starts and closed when it ends): Games, or
    what each game's visitor returns (``Visitor=HeadersBuilder``: the headers of every game).
    The options are read_game's."""
    forced = None if variant is None else get_variant(variant)
    if isinstance(source, (str, bytes, os.PathLike)):
        return _iterate_path(source, Visitor, forced, strict, variations)
    return _iterate(source, Visitor, forced, strict, variations)


def _iterate_path(path: Union[str, bytes, os.PathLike[str]], make: VisitorFactory[Any],
                  forced: Optional[Variant], strict: bool, variations: bool) -> Iterator[Any]:
    with open(path, encoding="utf-8", errors="replace") as handle:
        yield from _iterate(handle, make, forced, strict, variations)


def _iterate(handle: Any, make: VisitorFactory[Any], forced: Optional[Variant],
             strict: bool, variations: bool) -> Iterator[Any]:
    # a handle read by read_game before (or after) goes on where it stopped, as there
    readline, lasting = _line_reader(handle)
    state = _state_for(handle) if lasting else _State()
    source = _Source(readline, state)
    while True:
        try:
            result = _read(source, make, forced, strict, variations, _END)
        finally:
            state.position = _tell(handle)
        if result is _END:
            return
        yield result


# what _read returns at the end of the input for read_games (a visitor's result may be None)
_END = object()


def _read(source: _Source, make: VisitorFactory[Any], forced: Optional[Variant],
          strict: bool, variations: bool, end: Any = None) -> Any:
    """Read the next game into a new visitor; its result, or `end` at the end of the input.

    A visitor that raises has the rest of its game read all the same (skipped) before the
    exception goes on, so that the handle stands at the next game, as after any game."""
    headers, tag_errors, first_line = _read_headers(source)
    if headers is None:
        return end
    source.state.games += 1
    number = source.state.games
    errors = [pdn_error(number, at, message) for at, message in tag_errors]
    try:
        visitor = make()
        replay = _begin(visitor, number, headers, errors, forced, first_line, variations)
    except Exception:
        _Movetext(source, MovetextSink(first_line)).read()
        raise
    movetext = _Movetext(source, replay or MovetextSink(first_line))
    movetext.read()
    if movetext.failure is not None:
        raise movetext.failure
    if isinstance(replay, Replay):
        replay.finish()
        errors += replay.errors
    visitor.end_game()
    if strict and errors:
        raise errors[0]
    return visitor.result()


def _begin(visitor: Visitor[Any], number: int, headers: Dict[str, str],
           errors: List[InvalidPdnError], forced: Optional[Variant], first_line: Optional[int],
           variations: bool) -> Optional[Replay]:
    """Send a game's headers to `visitor`: the Replay its moves go to, or None when it
    skips them (its begin_game or end_headers returned SKIP; after begin_game's, it sees
    nothing more but end_game, and `errors` are cleared)."""
    if visitor.begin_game() is SKIP:
        errors.clear()
        return None
    variant, board, problems, playstrategy = setup_game(headers, forced)
    visitor.begin_headers()
    for name, value in headers.items():
        visitor.visit_header(name, value)
    for error in errors:
        visitor.handle_error(error)
    if visitor.end_headers() is SKIP:
        return None
    replay = Replay(number, variant, board, visitor, first_line, variations, playstrategy)
    visitor.visit_board(board)
    for problem in problems:
        replay.fail(problem)
    return replay


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


def _is_tag_line(text: str) -> bool:
    return text.lstrip().startswith("[") and _TAG.match(text) is not None


class _Movetext:
    """Reads one game's movetext from a _Source, token by token, into a MovetextSink (a
    Replay, or a sink that skips the moves)."""

    def __init__(self, source: _Source, builder: MovetextSink) -> None:
        self.source = source
        self.builder = builder
        self.content = False       # movetext seen (a blank line then ends the game)
        # what the visitor raised: the rest of the game is then skipped, and it is raised
        # at the game's end
        self.failure: Optional[Exception] = None

    def _send(self, kind: str, call: Callable[..., None], *args: Any) -> None:
        """A token to the builder; should its visitor raise, the builder is replaced by a
        sink that skips the rest of the game, as deep in variations as the text is."""
        depth = self.builder.depth
        try:
            call(*args)
        except Exception as error:
            if kind == "open":
                depth += 1
            elif kind == "close":
                depth = max(depth - 1, 0)
            elif kind == "fail":
                depth = 0       # (a failure closes the variations open)
            self.failure = error
            self.builder = MovetextSink(self.builder.line)
            self.builder.skipped = depth

    def _at(self, number: int) -> None:
        self.builder.line = number

    def read(self) -> None:
        while True:
            item = self.source.next_line()
            if item is None:
                return
            text, number = item
            self._at(number)
            if text.startswith("%"):
                continue
            if not text.strip():
                if self.content and not self.builder.depth:
                    return
                continue
            if self.content or self.builder.depth:
                if _is_tag_line(text):
                    # the next game's tags; an open variation is this game's error
                    if self.builder.depth:
                        self._send("fail", self.builder.fail,
                                   "a variation '(' is not closed before the next game")
                    self.source.unread(text, number)
                    return
            if self._tokens(text, number):
                return

    def _tokens(self, text: str, number: int) -> bool:
        """Read the tokens of one line; True when the game ends on this line."""
        builder = self.builder
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
                self._send(kind, builder.comment, comment)
            elif kind == "semi":
                self._send(kind, builder.comment, text[pos:])
                return False
            elif kind == "open":
                self._send(kind, builder.open)
            elif kind == "close":
                self._send(kind, builder.close)
            elif kind == "result":
                if not builder.depth:   # a result inside a variation carries nothing
                    self._send(kind, builder.result, token)
                    self._after_result(text, pos)
                    return True
            elif kind == "move":
                suffix = match.group("suffix")
                self._send(kind, builder.move, token, GLYPHS[suffix] if suffix else None)
            elif kind == "nag":
                self._nag(token)
            elif kind == "glyph":
                self._send(kind, builder.nag, GLYPHS[token])
            elif kind == "other":
                self._send(kind, builder.unreadable, token)
            builder = self.builder      # (a sink of its own after a visitor raised)
            # numbers and '...' carry nothing: moves are counted, not numbered
        return False

    def _nag(self, token: str) -> None:
        value = bounded_int(token[1:], MAX_NAG)
        if value is not None:
            self._send("nag", self.builder.nag, value)
        elif not self.builder.depth:
            shown = token if len(token) <= 20 else f"{token[:20]}... ({len(token) - 1} digits)"
            self._send("fail", self.builder.fail,
                       f"NAG {shown} is out of range; expected $0 to ${MAX_NAG}")

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
                self._send("fail", self.builder.fail,
                           "a comment '{' is not closed before the end of the input")
                return "", None, 0
            text, number = item
            self._at(number)
            pos = 0
            if _is_tag_line(text):
                self._send("fail", self.builder.fail,
                           "a comment '{' is not closed before the next game")
                self.source.unread(text, number)
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
                assert self.builder.line is not None  # the line holding the result was read
                self.source.unread(text[pos:], self.builder.line)
                return
