"""A Hub client: drive an external draughts engine that speaks the Hub protocol (Scan's,
version 2: Scan, `shashki hub`, other Hub engines) from Python, as python-chess's
``chess.engine`` drives UCI engines.

    >>> import sys, shashki
    >>> from shashki.hub.client import HubEngine
    >>> from shashki.limits import Limit
    >>> with HubEngine.popen([sys.executable, "-m", "shashki", "hub", "--hash", "4"],
    ...                      variant="international") as engine:
    ...     board = shashki.Board("international")
    ...     result = engine.play(board, Limit(depth=3))
    ...     result.move in board.legal_moves
    True

`HubEngine.popen` starts the engine and makes the handshake (``hub``, its ``id`` and
``param`` lines up to ``wait``, ``set-param``, ``init`` up to ``ready``).  `play` sends the
game (its start position and moves, ``pos``), the limit (``level``) and ``go think``, and
returns the engine's move as a Move of the board with its last ``info``; `analyse` does the
same with ``go analyze``; `analysis` starts a search that runs until `HubSearch.stop`.
``play(..., ponder=True)`` leaves the engine pondering on the move it expects in reply: the
next `play` on that position sends ``ponder-hit``, any other ``stop`` first.

An engine that answers ``hub`` with ``name ...`` instead of ``id ...`` speaks the first
version of the protocol, Scan 2.0's (its main.cpp is the only description): the client says
so at the handshake (logged at info level, `protocol` is 1) and speaks it: ``set NAME VALUE``
for any option (the engine declares none), ``new``, ``pos`` with a lower-case side to move
and then the game's moves one ``move`` line each, the limits as ``depth N``, ``time MS`` and
``level MOVES MS MS`` (no node limit), ``go`` / ``ponder`` / ``analyse``, and its positional
``info DEPTH MEAN-DEPTH SCORE NODES TIME MNPS PV...`` (the score in hundredths of a man) and
``move MOVE [PONDER]`` answers.  Its positions are 10x10 ones.

Positions and moves are those of shashki.hub.text (Scan's for the 10x10 games, pydraughts' for
8x8).  The client sets the engine's `variant` parameter to the board's game (the value the
engine declares for it: ``normal`` for international with Scan) and sends ``init`` again when
a parameter changed since the last one.

Nothing waits for ever: each answer is awaited for `timeout` seconds (`init_timeout` for
``ready``), a search for its time budget plus `timeout`, or for `search_timeout` when its limit
has no time (depth, nodes); then the search is stopped.  The deadline holds however much the
engine writes meanwhile, and what is kept of its output is bounded: at most MAX_QUEUED_LINES
lines wait to be read (the engine then waits on its full pipe), a line longer than MAX_LINE
characters is dropped with a warning, and a search keeps its last MAX_INFOS infos.  Errors are
HubError (a ValueError):
HubTimeoutError, HubTerminatedError (the engine exited), HubEngineError (it answered
``error``), HubVariantError (it does not play the board's game), HubMoveError (its move is
not a legal move).
"""

from __future__ import annotations

import collections
import dataclasses
import logging
import queue
import subprocess
import threading
import time
from dataclasses import dataclass
from typing import (IO, Callable, Deque, Dict, List, Mapping, Optional, Sequence, Tuple,
                    Union)

from .._text import quote
from ..board import Board
from ..engine import Score
from ..errors import ShashkiError
from ..limits import Limit
from ..move import Move
from ..variants import Variant, get_variant
from .text import (HubInfo, HubParam, HubProtocolError, format_line, game_text, hub_variant,
                   level_line, parse_info, parse_line, parse_move, parse_param)

__all__ = ["DEFAULT_SEARCH_TIMEOUT", "DEFAULT_TIMEOUT", "MAX_INFOS", "MAX_LINE",
           "MAX_QUEUED_LINES", "HubEngine", "HubEngineError", "HubError", "HubInfo",
           "HubMoveError", "HubParam", "HubSearch", "HubTerminatedError", "HubTimeoutError",
           "HubVariantError", "PlayResult"]

logger = logging.getLogger("shashki.hub.client")

#: seconds an answer that should come at once (id, pong, done after stop) is awaited
DEFAULT_TIMEOUT = 10.0
#: seconds ``ready`` is awaited after ``init`` (an engine may load books and endgame tables)
DEFAULT_INIT_TIMEOUT = 60.0
#: seconds a search without a time limit (depth, nodes) may take before it is stopped
DEFAULT_SEARCH_TIMEOUT = 600.0
#: the most lines of the engine's output waiting to be read; beyond it the reader waits, and
#: the engine with it once its pipe is full, so a talkative engine cannot fill the memory
MAX_QUEUED_LINES = 1000
#: the longest line of the engine's output read, in characters (the protocol's lines are
#: short: a long pv is a few kB); a longer line is dropped, with a warning
MAX_LINE = 64 * 1024
#: the infos of a search that are kept (HubSearch.infos, PlayResult.infos): the last ones
MAX_INFOS = 1000
# unreadable lines logged as warnings, per engine (the rest at debug level)
_MAX_WARNINGS = 10


# a line as the engine wrote it: (command, arguments, the line)
_Line = Tuple[str, Dict[str, str], str]
# what a protocol 1 engine answers `hub` with instead of `id`
_PROTOCOL_1_ID = ("name", "author", "country", "version")
# protocol 1's positions: international's board
_PROTOCOL_1_SQUARES = 50
# protocol 1's search commands, by the mode of `go`
_PROTOCOL_1_GO = {"think": "go", "ponder": "ponder", "analyze": "analyse"}


def _is_word(text: str) -> bool:
    return bool(text) and not any(c.isspace() for c in text) and text.isprintable()


class HubError(ShashkiError):
    """The Hub engine failed, broke the protocol, or cannot do what was asked."""


class HubTimeoutError(HubError):
    """The engine did not answer in time."""


class HubTerminatedError(HubError):
    """The engine's process ended (or closed its output)."""


class HubEngineError(HubError):
    """The engine answered ``error message=...`` (or ``error`` and some text, as in protocol
    1: that text is the message); `messages` holds what it said."""

    def __init__(self, message: str, messages: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.messages = tuple(messages)


class HubVariantError(HubError):
    """The engine does not play the board's game."""


class HubMoveError(HubError):
    """The engine's move cannot be read or is not a legal move of the position."""


@dataclass(frozen=True)
class PlayResult:
    """The answer of a search: the `move` (a Move of the searched board), the `ponder` move
    the engine expects in reply (or None), the last info and all of them (the last
    MAX_INFOS)."""

    move: Move
    ponder: Optional[Move]
    info: HubInfo
    infos: Tuple[HubInfo, ...] = ()
    stopped: bool = False       #: the client stopped the search when its time was over


def _check_limit(limit: object, bounded: str) -> None:
    """HubError unless `limit` is a Limit, and (for `bounded`, the method's name) a finite
    one: a search that must answer by itself needs one."""
    if not isinstance(limit, Limit):
        raise HubError(f"limit must be a shashki.limits.Limit, not {type(limit).__name__}")
    if bounded and limit.is_infinite:
        raise HubError(f"{bounded} needs a limit (depth, nodes or time); for a search until "
                       f"stopped use analysis()")


class HubSearch:
    """A search running in the engine: its infos as they come, `ponder_hit`, `stop`, and
    `wait` for its answer.  Made by HubEngine.analysis (and play)."""

    def __init__(self, engine: HubEngine, board: Board, mode: str, limit: Limit,
                 key: Tuple[str, Tuple[str, ...]],
                 info: Optional[Callable[[HubInfo], object]]) -> None:
        self.engine = engine
        self.board = board.copy()
        self.mode = mode            # think, ponder or analyze
        self.limit = limit
        self.key = key              # the game searched: its start and moves
        self.infos: Deque[HubInfo] = collections.deque(maxlen=MAX_INFOS)   # the last ones
        self.callback = info
        self.result: Optional[PlayResult] = None
        self._stop_sent = False

    @property
    def done(self) -> bool:
        return self.result is not None

    @property
    def info(self) -> Optional[HubInfo]:
        """The last info read so far (lines waiting in the pipe are read first)."""
        self.engine.poll()
        return self.infos[-1] if self.infos else None

    def stop(self) -> None:
        """Ask the engine to end the search (its answer is then read by `wait`)."""
        if self.result is None and not self._stop_sent:
            self._stop_sent = True
            self.engine.send("stop")

    def ponder_hit(self) -> None:
        """The opponent played the expected move: the pondering search becomes the search
        for the move, its clock running from now."""
        if self.mode == "ponder" and self.result is None:
            self.mode = "think"
            self.engine.send("ponder-hit")

    def wait(self, timeout: Optional[float] = None) -> PlayResult:
        """The answer, awaited `timeout` seconds (None: the limit's time budget plus the
        engine's timeout, or its search_timeout); then the search is stopped and its answer
        awaited the engine's timeout more.  Raises HubTimeoutError, HubMoveError."""
        if timeout is None:
            budget = self.limit.budget()
            timeout = (budget + self.engine.timeout if budget is not None and
                       self.mode != "ponder" else self.engine.search_timeout)
        try:
            self.engine.read_until(self, time.monotonic() + timeout)
        except HubTimeoutError:
            self.stop()
            self.engine.read_until(self, time.monotonic() + self.engine.timeout)
            assert self.result is not None
            self.result = dataclasses.replace(self.result, stopped=True)
        assert self.result is not None
        return self.result

    # called by the engine as it reads

    def add_info(self, args: Mapping[str, str]) -> None:
        info = parse_info(args, self.board)
        self.infos.append(info)
        if self.callback is not None:
            self.callback(info)

    def add_info_words(self, words: Sequence[str]) -> None:
        """A protocol 1 info: DEPTH MEAN-DEPTH SCORE NODES TIME MNPS PV... (Scan 2.0)."""
        names = ("depth", "mean-depth", "score", "nodes", "time", "nps")
        raw = dict(zip(names, words))
        if len(words) > len(names):
            raw["pv"] = " ".join(words[len(names):])
        score = raw.pop("score", None)
        info = parse_info(raw, self.board)
        try:
            hundredths = None if score is None else int(score)
        except ValueError:
            hundredths = None
        info = dataclasses.replace(
            info, score=None if hundredths is None else Score(hundredths),
            raw=tuple(zip(names, words)) + (() if "pv" not in raw else (("pv", raw["pv"]),)))
        self.infos.append(info)
        if self.callback is not None:
            self.callback(info)

    def finish(self, args: Mapping[str, str]) -> None:
        name = self.engine.name
        text = args.get("move")
        if not text:
            raise HubMoveError(f"{name} answered done without a move in {self.board.fen()}")
        try:
            move = parse_move(self.board, text)
        except HubProtocolError as exc:
            raise HubMoveError(f"{name} played {quote(text)} in {self.board.fen()}: {exc}") \
                from None
        ponder = None
        if args.get("ponder"):
            after = self.board.copy(stack=False)
            after.push(move)
            try:
                ponder = parse_move(after, args["ponder"])
            except HubProtocolError:
                logger.warning("%s: ignored the ponder move %s (not legal)", name,
                               quote(args["ponder"]))
        self.result = PlayResult(move, ponder, self.infos[-1] if self.infos else HubInfo(),
                                 tuple(self.infos))


class HubEngine:
    """An engine process spoken to in the Hub protocol; make one with `popen`.

    `id` holds its ``id`` line (name, version, author...), `params` its parameters, `games`
    the shashki games it plays (by its `variant` parameter), `errors` the ``error`` messages
    it sent, `protocol` the version of the Hub protocol it speaks (2, or 1 for Scan 2.0's:
    see the module docstring).  Not for use from several threads at once, except `HubSearch.stop` and `send`.
    """

    def __init__(self, process: subprocess.Popen[str], *, timeout: float = DEFAULT_TIMEOUT,
                 init_timeout: float = DEFAULT_INIT_TIMEOUT,
                 search_timeout: float = DEFAULT_SEARCH_TIMEOUT) -> None:
        self.process = process
        self.timeout = timeout
        self.init_timeout = init_timeout
        self.search_timeout = search_timeout
        self.id: Dict[str, str] = {}
        self.params: Dict[str, HubParam] = {}
        self.errors: List[str] = []
        self.variant: Optional[Variant] = None
        self.protocol = 2
        self._lines: queue.Queue[Optional[str]] = queue.Queue(MAX_QUEUED_LINES)
        self._stderr: Deque[str] = collections.deque(maxlen=20)
        self._write_lock = threading.Lock()
        self._search: Optional[HubSearch] = None
        self._ready = False
        self._closed = False
        assert process.stdout is not None and process.stderr is not None
        self._ignored = 0
        self._start_reader(process.stdout, self._queue, lambda: self._queue(None))
        self._start_reader(process.stderr, self._stderr.append)

    @classmethod
    def popen(cls, command: Union[str, Sequence[str]], *,
              variant: Union[str, Variant, None] = None,
              options: Optional[Mapping[str, object]] = None,
              timeout: float = DEFAULT_TIMEOUT, init_timeout: float = DEFAULT_INIT_TIMEOUT,
              search_timeout: float = DEFAULT_SEARCH_TIMEOUT, cwd: Optional[str] = None,
              env: Optional[Mapping[str, str]] = None) -> HubEngine:
        """Start `command` (a program, or a program and its arguments: ``["scan", "hub"]``),
        make the handshake, set `variant` (a game, which the engine must play) and `options`
        (its parameters by name), and ``init`` it.  Raises HubError (and OSError when the
        program cannot be started)."""
        argv = [command] if isinstance(command, str) else list(command)
        # (the protocol is UTF-8 text; a byte that is not is read as U+FFFD, so that it
        # spoils one line, not the reader: a strict decoder would end its thread)
        process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, encoding="utf-8",
                                   errors="replace", bufsize=1, cwd=cwd,
                                   env=None if env is None else dict(env))
        engine = cls(process, timeout=timeout, init_timeout=init_timeout,
                     search_timeout=search_timeout)
        try:
            engine.handshake()
            if variant is not None:
                engine.select(get_variant(variant))
            engine.configure(options or {})
            engine.init()
        except BaseException:
            engine.close()
            raise
        return engine

    # --- the process ------------------------------------------------------------------------

    def _start_reader(self, stream: IO[str], put: Callable[[str], object],
                      end: Optional[Callable[[], object]] = None) -> None:
        """A thread that hands each line of `stream` to `put` (a line longer than MAX_LINE is
        dropped), and calls `end` at the end of the stream."""
        def read() -> None:
            try:
                while not self._closed:
                    line = stream.readline(MAX_LINE + 1)
                    if not line:
                        break
                    if len(line) > MAX_LINE and not line.endswith("\n"):
                        while True:             # the rest of the line, read and dropped
                            rest = stream.readline(MAX_LINE)
                            if not rest or rest.endswith("\n"):
                                break
                        logger.warning("%s: ignored a line of more than %d characters",
                                       self.name, MAX_LINE)
                        continue
                    put(line.rstrip("\r\n"))
            except (OSError, ValueError):       # the pipe closed under us
                pass
            if end is not None:
                end()

        threading.Thread(target=read, name="shashki-hubclient-reader", daemon=True).start()

    def _queue(self, line: Optional[str]) -> None:
        """Queue a line of the engine's output for `_read`, waiting while MAX_QUEUED_LINES
        are queued (given up once the engine is closed)."""
        while not self._closed:
            try:
                self._lines.put(line, timeout=0.1)
                return
            except queue.Full:
                pass

    @property
    def name(self) -> str:
        return self.id.get("name", "the Hub engine")

    @property
    def searching(self) -> Optional[HubSearch]:
        """The search the engine is running (between moves: its pondering), or None."""
        return self._search

    def _gone(self) -> HubTerminatedError:
        self._closed = True
        try:
            status = self.process.wait(self.timeout)
        except subprocess.TimeoutExpired:
            status = None
        said = " | ".join(self._stderr)
        return HubTerminatedError(
            f"{self.name} closed its output (exit status {status})"
            + (f"; its last error output: {said[-500:]}" if said else ""))

    def send(self, line: str) -> None:
        """Write one line to the engine."""
        if self._closed:
            raise HubError(f"{self.name} has been closed")
        logger.debug("<< %s", line)
        stdin = self.process.stdin
        assert stdin is not None
        try:
            with self._write_lock:
                stdin.write(line + "\n")
                stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._gone() from None

    def _line(self, deadline: float, waiting_for: str, wait: bool = True) -> str:
        """The next line the engine wrote, awaited until `deadline` (with `wait`; else only a
        line already there): HubTimeoutError then, however many lines are queued."""
        try:
            if not wait:
                line = self._lines.get_nowait()
            else:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise queue.Empty
                line = self._lines.get(timeout=left)
        except queue.Empty:
            raise HubTimeoutError(f"{self.name} did not answer {waiting_for} in time") \
                from None
        if line is None:
            self._lines.put(None)               # so that every later read sees the end
            raise self._gone()
        logger.debug(">> %s", line)
        return line

    def _parse(self, line: str) -> Optional[_Line]:
        """`line` read by parse_line, and as it is; None for a blank line or one that cannot
        be read.  A search's answer that cannot be read ends the search: HubMoveError."""
        if not line.strip():
            return None
        try:
            return parse_line(line) + (line,)
        except HubProtocolError as exc:         # ignore what cannot be read, as Scan does
            self._unreadable_answer(line, exc)
            self._ignored += 1
            log = logger.warning if self._ignored <= _MAX_WARNINGS else logger.debug
            log("%s: ignored the line %s (%s)", self.name, quote(line[:200]), exc)
            return None

    def _unreadable_answer(self, line: str, exc: HubProtocolError) -> None:
        """HubMoveError when `line` is the running search's answer (``done``, protocol 1's
        ``move``) written so that it cannot be read (``done move=``): no other answer will
        come, and waiting for one would take the whole search's time."""
        search = self._search
        answer = "move" if self.protocol == 1 else "done"
        if search is not None and line.split(None, 1)[0] == answer:
            self._search = None
            raise HubMoveError(f"{self.name} answered {quote(line[:200])}, which cannot be "
                               f"read ({exc}), in {search.board.fen()}; expected "
                               f"{answer} move=MOVE")

    def _read(self, deadline: float, waiting_for: str) -> _Line:
        """The next line the engine wrote, read by parse_line (command, arguments, and the
        line as it is); HubTimeoutError at `deadline`."""
        while True:
            parsed = self._parse(self._line(deadline, waiting_for))
            if parsed is not None:
                return parsed

    def _dispatch(self, command: str, args: Dict[str, str], raw: str) -> None:
        """Lines that may come at any time: errors, and a running search's info and done
        (protocol 1: info and move)."""
        search = self._search
        if command == "error":
            # protocol 1 (and some engines) write the message as plain words
            message = args.get("message") or raw.strip()[len("error"):].strip()
            logger.warning("%s: error %s", self.name, message)
            self.errors.append(message)
        elif command == "info" and search is not None:
            if self.protocol == 1:
                search.add_info_words(raw.split()[1:])
            else:
                search.add_info(args)
        elif command == ("move" if self.protocol == 1 else "done") and search is not None:
            self._search = None
            if self.protocol == 1:
                words = raw.split()[1:]
                search.finish(dict(zip(("move", "ponder"), words)))
            else:
                search.finish(args)

    def expect(self, command: str, deadline: float, waiting_for: str) -> Dict[str, str]:
        """Read until a line of `command`; the arguments of that line.  Other lines are
        logged as warnings, but while waiting for ``ready`` (an engine may say what it loads:
        Scan's ``init book``, ``init eval``), and protocol 1's echoes of its input, at debug
        level."""
        while True:
            got, args, raw = self._read(deadline, waiting_for)
            self._dispatch(got, args, raw)
            if got == command:
                return args
            if got not in ("error", "info", "move" if self.protocol == 1 else "done"):
                quiet = command == "ready" or (self.protocol == 1 and got == "input")
                (logger.debug if quiet else logger.warning)(
                    "%s: ignored %s while waiting for %s", self.name, quote(raw[:200]),
                    command)

    def read_until(self, search: HubSearch, deadline: float) -> None:
        """Read until `search` has its answer."""
        while search.result is None:
            if self._search is not search:
                raise HubError("the search was replaced before it answered")
            self._dispatch(*self._read(deadline, f"the search ({search.mode})"))

    def poll(self) -> None:
        """Read the lines the engine has written so far (a running search's infos); at most
        those queued when it is called, so that it returns however fast the engine writes."""
        for _ in range(self._lines.qsize()):
            try:
                parsed = self._parse(self._line(0.0, "", wait=False))
            except HubTimeoutError:
                return                  # nothing more for now
            if parsed is not None:
                self._dispatch(*parsed)

    # --- set-up -----------------------------------------------------------------------------

    def handshake(self) -> None:
        """``hub``: read the engine's id and parameters up to ``wait`` (protocol 1: its
        ``name``, ``author`` and ``country`` lines)."""
        self.send("hub")
        deadline = time.monotonic() + self.timeout
        while True:
            command, args, raw = self._read(deadline, "hub (with wait)")
            if command == "wait":
                break
            if command == "id":
                self.id.update(args)
            elif command == "param" and args.get("name"):
                self.params[args["name"]] = parse_param(args)
            elif command in _PROTOCOL_1_ID and not self.params:
                self.protocol = 1
                self.id[command] = raw.strip()[len(command):].strip()
            else:
                self._dispatch(command, args, raw)
        if self.protocol == 1:
            logger.info("%s speaks Hub protocol 1 (Scan 2.0's, with name instead of id): "
                        "shashki speaks it too", self.name)
        self.variant = self._declared_variant()

    def _declared_variant(self) -> Optional[Variant]:
        param = self.params.get("variant")
        if param is None:
            return None
        try:
            return hub_variant(param.value)
        except HubProtocolError:
            return None             # a game shashki does not play

    @property
    def games(self) -> Dict[Variant, str]:
        """The games the engine plays that shashki knows, each with the engine's value of
        its `variant` parameter."""
        param = self.params.get("variant")
        names: Dict[Variant, str] = {}
        for value in (param.values or (param.value,)) if param else ():
            try:
                names.setdefault(hub_variant(value), value)
            except HubProtocolError:
                pass
        return names

    def select(self, variant: Variant) -> None:
        """Set the engine's `variant` parameter to `variant` (``init`` follows before the
        next search); HubVariantError when the engine does not play it.  An engine without
        that parameter is taken at its word: its positions are then those of `variant`
        (protocol 1: a 10x10 game)."""
        if self.protocol == 1 and variant.geometry.squares != _PROTOCOL_1_SQUARES:
            raise HubVariantError(f"{self.name} speaks Hub protocol 1, whose positions are "
                                  f"of {_PROTOCOL_1_SQUARES} squares (international); it "
                                  f"cannot play {variant.name}")
        if "variant" not in self.params or variant == self.variant:
            self.variant = variant
            return
        value = self.games.get(variant)
        if value is None:
            plays = ", ".join(v.name for v in self.games) or "none that shashki knows"
            raise HubVariantError(f"{self.name} does not play {variant.name}; it plays {plays}")
        self.configure({"variant": value})
        self.variant = variant

    def configure(self, options: Mapping[str, object]) -> None:
        """Set engine parameters by name (``set-param``); ``init`` follows before the next
        search.  HubError for a parameter the engine did not declare (protocol 1, where
        engines declare none: any name, sent as ``set NAME VALUE``)."""
        for name, value in options.items():
            if self.protocol == 1:
                text = ("true" if value else "false") if isinstance(value, bool) else \
                    str(value)
                if not text or not all(_is_word(p) for p in (name, text)):
                    raise HubError(f"protocol 1 sets an option as set NAME VALUE, one word "
                                   f"each: not {quote(name)} {quote(text)}")
                self.send(f"set {name} {text}")
                self._ready = False
                continue
            if name not in self.params:
                raise HubError(f"{self.name} has no parameter {quote(name)}; it has "
                               + (", ".join(self.params) or "none"))
            text = ("true" if value else "false") if isinstance(value, bool) else str(value)
            self.send(format_line("set-param", ("name", name), ("value", text)))
            self.params[name] = dataclasses.replace(self.params[name], value=text)
            if name == "variant":
                self.variant = self._declared_variant()
            self._ready = False

    def init(self) -> None:
        """``init`` up to ``ready``; HubEngineError when the engine refused a parameter."""
        self._stop_search()
        errors = len(self.errors)
        self.send("init")
        self.expect("ready", time.monotonic() + self.init_timeout, "init (with ready)")
        self._ready = True
        if len(self.errors) > errors:
            raise HubEngineError(f"{self.name} refused its settings: "
                                 + "; ".join(self.errors[errors:]), self.errors[errors:])

    def ping(self) -> None:
        """``ping`` and wait for ``pong`` (also during a search, whose lines are kept)."""
        self.send("ping")
        self.expect("pong", time.monotonic() + self.timeout, "ping (with pong)")

    def new_game(self) -> None:
        """``new-game``: the next search is unrelated to the previous ones."""
        self._stop_search()
        self.send("new" if self.protocol == 1 else "new-game")

    # --- searches ---------------------------------------------------------------------------

    def _stop_search(self) -> None:
        search = self._search
        if search is not None:
            search.stop()
            self.read_until(search, time.monotonic() + self.timeout)

    def _go(self, board: Board, limit: Limit, mode: str,
            info: Optional[Callable[[HubInfo], object]]) -> HubSearch:
        outcome = board.outcome()
        if outcome is not None and outcome.winner is not None:
            raise HubError(f"the game is over ({outcome.termination.value}); a Hub engine is "
                           f"never asked to search a finished game")
        self._stop_search()
        self.select(board.variant)
        if not self._ready:
            self.init()
        key = game_text(board)
        errors = len(self.errors)
        if self.protocol == 1:
            self._send_game_1(key, limit)
        else:
            pairs: List[Tuple[str, object]] = [("pos", key[0])]
            if key[1]:
                pairs.append(("moves", " ".join(key[1])))
            self.send(format_line("pos", *pairs))
            self.send(level_line(limit))
        # a round trip, so that a refused position is reported before any search starts
        self.ping()
        if len(self.errors) > errors:
            raise HubEngineError(f"{self.name} refused the position {board.fen()}: "
                                 + "; ".join(self.errors[errors:]), self.errors[errors:])
        search = HubSearch(self, board, mode, limit, key, info)
        self._search = search
        self.send(_PROTOCOL_1_GO[mode] if self.protocol == 1 else f"go {mode}")
        return search

    def _send_game_1(self, key: Tuple[str, Tuple[str, ...]], limit: Limit) -> None:
        """The game and the limit in protocol 1: ``pos`` (which resets the limits), a
        ``move`` line per move, then ``depth``, ``time`` (ms) and ``level`` (moves, ms, ms);
        nothing for an infinite search."""
        if limit.nodes is not None:
            raise HubError(f"{self.name} speaks Hub protocol 1, and protocol 1 has no node "
                           f"limit; give a depth or a time")
        position, moves = key
        self.send(f"pos {position[0].lower()}{position[1:]}")
        for move in moves:
            self.send(f"move {move}")
        if limit.depth is not None:
            self.send(f"depth {limit.depth}")
        if limit.movetime is not None:
            self.send(f"time {max(round(limit.movetime * 1000), 1)}")
        if limit.clock is not None:
            left = max(limit.clock - limit.increment, 0.0)
            self.send(f"level {limit.moves} {round(left * 1000)} "
                      f"{round(limit.increment * 1000)}")

    def play(self, board: Board, limit: Limit, *, ponder: bool = False,
             info: Optional[Callable[[HubInfo], object]] = None,
             timeout: Optional[float] = None) -> PlayResult:
        """The engine's move in `board` within `limit` (``go think``); `info(HubInfo)` is
        called for each info line.  With `ponder`, the engine then ponders on its expected
        reply until the next call.  `timeout`: see HubSearch.wait."""
        _check_limit(limit, "play")
        pending = self._search
        if pending is not None and pending.mode == "ponder" and pending.key == game_text(board):
            pending.callback = info
            pending.ponder_hit()
            search = pending
        else:
            search = self._go(board, limit, "think", info)
        result = search.wait(timeout)
        if ponder and result.ponder is not None:
            after = board.copy()
            after.push(result.move)
            after.push(result.ponder)
            outcome = after.outcome()
            if outcome is None or outcome.winner is None:
                self._go(after, limit, "ponder", None)
        return result

    def analyse(self, board: Board, limit: Limit, *,
                info: Optional[Callable[[HubInfo], object]] = None,
                timeout: Optional[float] = None) -> PlayResult:
        """``go analyze`` within `limit`: the engine's answer with its infos."""
        _check_limit(limit, "analyse")
        return self._go(board, limit, "analyze", info).wait(timeout)

    def analysis(self, board: Board, limit: Limit = Limit(), *,
                 info: Optional[Callable[[HubInfo], object]] = None) -> HubSearch:
        """Start ``go analyze`` (no limit: until `HubSearch.stop`) and return the search."""
        _check_limit(limit, "")
        return self._go(board, limit, "analyze", info)

    # --- the end ----------------------------------------------------------------------------

    def quit(self) -> int:
        """``quit``, and wait for the process to end (it is killed after `timeout`); its
        exit status."""
        if not self._closed:
            try:
                self._stop_search()
            except HubError:
                pass                # going away anyway
            try:
                self.send("quit")
            except HubError:
                pass
        return self.close()

    def close(self) -> int:
        """End the process (killed unless it has ended within `timeout` of closing its
        input) and close the pipes; its exit status.  Safe to call twice."""
        self._closed = True
        for stream in (self.process.stdin,):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        try:
            status = self.process.wait(self.timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            status = self.process.wait(self.timeout)
        for stream in (self.process.stdout, self.process.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        return status

    def __enter__(self) -> HubEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.quit()

    def __repr__(self) -> str:
        return f"<HubEngine {self.name!r} pid={self.process.pid}>"
