"""`shashki hub`: the Hub protocol (Scan's text protocol, version 2) on stdin/stdout.

Draughts GUIs and bots that drive Scan (the Hub GUI, pydraughts' ``HubEngine``, bots built on
it) can use shashki as their engine for the five 8x8 games.  The protocol is line based::

    hub                                   -> id name=shashki version=...
                                             param name=variant ... / param name=hash ...
                                             wait
    set-param name=variant value=italian     (before init; also accepted later when idle)
    init                                  -> ready
    new-game                                 (clears the hash table)
    pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves="22-18 9-13"
    level move-time=1                        (or depth= / nodes= / [moves=] time= [inc=] /
                                              infinite; a level lasts for one search and
                                              `pos` resets it, as in Scan: no level = infinite)
    go think                              -> info depth=.. score=.. nodes=.. time=.. nps=.. pv=".."
                                             done move=22-18 ponder=9-13
    ping                                  -> pong (also during a search)
    stop / ponder-hit                        (during a search; `stop` always yields `done`)
    quit

Bad input is answered with ``error message="..."`` and the engine keeps working; unknown
arguments are ignored (the protocol asks for that so it can grow), unknown commands are not.

Positions and moves (Scan defines them for 10x10 only; for 8x8 this follows what pydraughts
0.6.x sends and expects, checked against its source and its own boards):

- ``pos=`` is the side to move (``W``/``B``) then 32 characters, ``w b W B e`` (white man,
  black man, white king, black king, empty), one per square in pydraughts' internal order:
  square 1 is the top-left dark square seen from White, row by row (the english PDN order:
  1 = b8, 4 = h8, 29 = a1, 32 = g1; for italian the italian order, 1 = a8 of its mirrored
  board).  In english, where pydraughts keeps the first player (Black) internally as "white"
  at the bottom, the string is turned round: character i is english square 33 - i and the
  colours (and the side to move) are swapped.  ``pos`` alone or ``pos start`` is the start
  position; as an extension a PDN FEN in the game's own notation (``W:Wa1,c3:Bh8``) is read too.
- moves, in ``moves=`` and in ``done``/``ponder``/``pv``: numbered squares joined by ``-`` for a
  quiet move and ``from x to x captured x captured...`` for a capture (Scan's form, every
  captured piece listed, any order).  The numbers are pydraughts' move numbers: in russian,
  giveaway and brazilian 1 = a1, 2 = c1, ... 5 = b2, ... 32 = h8 (row by row from White's
  side, which is not the order of the position string); in italian and english the game's own
  numbers.  Incoming captures may also give just ``from x to`` when that names one move.
- scores are in men (``score=0.35``); a forced result is ``+-(100 - plies/100)``, as Scan and
  pydraughts read it (``99.95``: a win in 5 plies).  ``nps`` is in millions of nodes per second
  (Scan's unit); ``seldepth`` is a shashki extension.
"""

from __future__ import annotations

import sys
import threading
from typing import (TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, TextIO, Tuple,
                    TypeVar, Union)

from . import squares as _sq
from .errors import ShashkiError
from .variants import BLACK, VARIANTS, WHITE, Variant, get_variant

if TYPE_CHECKING:
    import argparse

    from .board import Board
    from .engine import Engine, Score, SearchResult
    from .move import Move

_N = TypeVar("_N", int, float)

DEFAULT_HASH_MB = 32
MAX_HASH_MB = 4096
_POLL_SECONDS = 0.02
_WIN_MEN = 100.0            # a forced win is reported as 100 men minus a hundredth per ply
_MAX_PLAIN_MEN = 89.99      # ordinary evaluations stay below what reads as a forced result
_COMMANDS = ("hub", "init", "set-param", "new-game", "pos", "level", "go", "ping", "stop",
             "ponder-hit", "quit")


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
    if variant.squares == "algebraic":
        return square + 1              # pydraughts' russian/brazilian move numbers: 1 = a1
    if variant.squares == "italian":
        return _sq.italian_number(square)
    return _sq.english_number(square)


def _move_square(variant: Variant, number: int) -> int:
    if variant.squares == "algebraic":
        return number - 1
    if variant.squares == "italian":
        return _sq.from_italian_number(number)
    return _sq.from_english_number(number)


def _position_square(variant: Variant, index: int) -> Tuple[int, bool]:
    """The square of character `index` (1..32) of a position string, and whether the
    colours are swapped there (english: see the module docstring)."""
    if variant.squares == "italian":
        return _sq.from_italian_number(index), False
    if variant.squares == "english":
        return _sq.from_english_number(33 - index), True
    return _sq.from_english_number(index), False


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
    numbers = [int(p) for p in parts]
    bad = [n for n in numbers if not 1 <= n <= 32]
    if bad:
        raise HubProtocolError(f"square {bad[0]} in move {text!r} is off the board; squares "
                               f"are numbered 1 to 32")
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
    chars: List[str] = []
    for index in range(1, 33):
        square, swapped = _position_square(variant, index)
        piece = board.piece_at(square)
        if piece is None:
            chars.append("e")
            continue
        color, king = piece
        if swapped:
            color = BLACK if color == WHITE else WHITE
        letter = "w" if color == WHITE else "b"
        chars.append(letter.upper() if king else letter)
    turn = board.turn
    if variant.squares == "english":
        turn = BLACK if turn == WHITE else WHITE
    return ("W" if turn == WHITE else "B") + "".join(chars)


def parse_position(text: str, variant: Union[str, Variant]) -> Board:
    """A Board for a Hub position string (or, as an extension, a PDN FEN) in `variant`.

    Raises HubProtocolError (for the Hub string) or InvalidFenError (for a FEN)."""
    from .board import Board
    from .fen import write_fen
    variant = get_variant(variant)
    if ":" in text:
        return Board(variant, fen=text)
    if len(text) != 33:
        raise HubProtocolError(
            f"a Hub position for an 8x8 game is W or B (the side to move) then 32 characters, "
            f"one per square (w b W B e), {len(text)} characters in all here instead of 33")
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
        square, swapped = _position_square(variant, index)
        color = WHITE if char in "wW" else BLACK
        if swapped:
            color = BLACK if color == WHITE else WHITE
        masks[color] |= 1 << square
        if char.isupper():
            kings |= 1 << square
    turn = WHITE if side == "W" else BLACK
    if variant.squares == "english":
        turn = BLACK if turn == WHITE else WHITE
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


# --- search limits ---------------------------------------------------------------------------

class _Level:
    """The limits of the next search, from `level` (Scan's Search_Input)."""

    depth: Optional[int]
    nodes: Optional[int]
    move_time: Optional[float]
    time: Optional[float]

    def __init__(self) -> None:
        self.depth = None
        self.nodes = None
        self.move_time = None
        self.time = None          # the clock, before this move's increment is added
        self.inc = 0.0
        self.moves = 0            # moves to the next time control, 0 = the whole game

    def budget(self) -> Optional[float]:
        """Seconds to spend on the move, or None for no time limit."""
        budget = self.move_time
        if self.time is not None:
            # the protocol adds the increment before every move
            clock = max(self.time + self.inc, 0.0)
            if self.moves:
                spend = min(clock / self.moves, 0.8 * clock)
            else:
                spend = min(clock / 40 + 0.8 * self.inc, clock / 2)
            budget = spend if budget is None else min(budget, spend)
        if budget is not None:
            budget = max(budget, 0.001)
        return budget


def _number(args: Mapping[str, str], key: str, kind: Callable[[str], _N], low: _N,
            high: Optional[_N] = None) -> _N:
    text = args[key]
    try:
        value = kind(text)
    except ValueError:
        noun = "a whole number" if kind is int else "a number"
        raise HubProtocolError(f"{key}={text!r}: expected {noun}") from None
    if value != value or value < low or (high is not None and value > high):
        bound = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise HubProtocolError(f"{key}={text}: expected a value {bound}")
    return value


def parse_level(args: Mapping[str, str]) -> _Level:
    """A _Level from the arguments of a `level` line.  Raises HubProtocolError."""
    from .engine import MAX_DEPTH
    level = _Level()
    if "depth" in args:
        level.depth = _number(args, "depth", int, 1, MAX_DEPTH)
    if "nodes" in args:
        level.nodes = _number(args, "nodes", int, 1)
    if "move-time" in args:
        level.move_time = _number(args, "move-time", float, 0.0)
    if "time" in args:
        # a clock that has run out still gets a move (the GUI decides about the flag)
        level.time = max(_number(args, "time", float, float("-inf")), 0.0)
    if "inc" in args:
        level.inc = _number(args, "inc", float, 0.0)
    if "moves" in args:
        level.moves = _number(args, "moves", int, 0)
    if ("inc" in args or "moves" in args) and "time" not in args:
        raise HubProtocolError("level inc= and moves= go with time=, the time left")
    return level


# --- the engine side of the protocol ---------------------------------------------------------

class _Search:
    """One `go`: the worker thread and what the main thread needs to steer it."""

    thread: Optional[threading.Thread]

    def __init__(self, engine: Engine, pondering: bool, budget: Optional[float]) -> None:
        self.engine = engine
        self.pondering = pondering
        self.budget = budget      # for ponder-hit: the time limit that starts then
        self.thread = None
        self.finished = threading.Event()

    def alive(self) -> bool:
        return self.thread is not None and self.thread.is_alive()

    def halt(self) -> None:
        """Stop the search and wait for its `done`.  Stop is asked again until the worker
        ends, so a request that lands between two iterations (or before the first) is not
        lost."""
        thread = self.thread
        while thread is not None and thread.is_alive():
            self.engine.stop()
            thread.join(_POLL_SECONDS)

    def start_clock(self) -> None:
        """ponder-hit: the opponent played the expected move, so the move's time starts."""
        self.pondering = False
        budget = self.budget
        if budget is None:
            return

        def expire() -> None:
            if not self.finished.wait(budget):
                self.halt()

        threading.Thread(target=expire, name="shashki-hub-clock", daemon=True).start()


class HubSession:
    """The Hub protocol over a pair of text streams."""

    engine: Optional[Engine]
    board: Optional[Board]
    search: Optional[_Search]

    def __init__(self, inp: TextIO, out: TextIO, variant: Union[str, Variant] = "russian",
                 hash_mb: int = DEFAULT_HASH_MB) -> None:
        self._in = inp
        self._out = out
        self._write_lock = threading.Lock()
        self.variant = get_variant(variant)
        self.hash_mb = hash_mb
        self.engine = None
        self.board = None
        self.position_error = "no position has been given (send pos)"
        self.level = _Level()
        self.search = None

    # output

    def write(self, line: str) -> None:
        with self._write_lock:
            self._out.write(line + "\n")
            self._out.flush()

    def error(self, message: str) -> None:
        self.write(format_line("error", ("message", message)))

    # the loop

    def run(self) -> int:
        """Read commands until `quit` or the end of the input; returns the exit status."""
        try:
            while True:
                line = self._in.readline()
                if not line:
                    break                    # the GUI is gone: quit (protocol)
                line = line.strip()
                if not line:
                    continue
                if not self.handle(line):
                    break
        except BrokenPipeError:
            pass
        finally:
            if self.search is not None:
                self.search.halt()
        return 0

    def handle(self, line: str) -> bool:
        """Obey one line; False after `quit`."""
        try:
            command, args = parse_line(line)
        except HubProtocolError as exc:
            self.error(f"cannot read {line[:60]!r}: {exc}")
            return True
        handler = getattr(self, "cmd_" + command.replace("-", "_"), None)
        if command == "quit":
            handler = None
        elif handler is None or command not in _COMMANDS:
            # answered without disturbing a running search: a typo should not cost a move
            self.error(f"unknown command {command[:40]!r}; expected one of "
                       + ", ".join(_COMMANDS))
            return True
        if self.search is not None and self.search.alive():
            if command == "ping":
                self.write("pong")
                return True
            if command == "ponder-hit":
                if self.search.pondering:
                    self.search.start_clock()
                return True
            # stop, and (as Scan does) any other command, ends the search before it is obeyed
            self.search.halt()
            if command == "stop":
                return True
        if command == "quit":
            return False
        assert handler is not None      # every command but quit has one
        try:
            handler(args)
        except (ShashkiError, ValueError, MemoryError) as exc:
            self.error(f"{command}: {exc}")
        except Exception as exc:       # a bug must not take the engine down mid-game
            self.error(f"{command}: internal error {type(exc).__name__}: {exc}")
        return True

    # commands

    def cmd_hub(self, args: Dict[str, str]) -> None:
        from . import __version__
        self.write(format_line("id", ("name", "shashki"), ("version", __version__)))
        names = " ".join(v.name for v in VARIANTS)
        self.write(format_line("param", ("name", "variant"), ("value", self.variant.name),
                               ("type", "enum"), ("values", names)))
        self.write(format_line("param", ("name", "hash"), ("value", self.hash_mb),
                               ("type", "int"), ("min", 1), ("max", MAX_HASH_MB)))
        self.write("wait")

    def cmd_set_param(self, args: Dict[str, str]) -> None:
        name = args.get("name", "")
        if not name:
            raise HubProtocolError("set-param needs name=... and value=...")
        if "value" not in args:
            raise HubProtocolError(f"set-param name={name} needs value=...")
        value = args["value"]
        if name == "variant":
            variant = get_variant(value)
            if variant != self.variant:
                self.variant = variant
                self.engine = None
                self.board = None
                self.position_error = (f"the variant changed to {variant.name}; send pos "
                                       f"again")
        elif name == "hash":
            try:
                mb = int(value)
            except ValueError:
                mb = 0
            if not 1 <= mb <= MAX_HASH_MB:
                raise HubProtocolError(f"hash={value!r}: expected MiB from 1 to {MAX_HASH_MB}")
            if mb != self.hash_mb:
                self.hash_mb = mb
                self.engine = None
        else:
            raise HubProtocolError(f"unknown parameter {name[:40]!r}; shashki has variant "
                                   f"and hash")

    def _engine(self) -> Engine:
        if self.engine is None:
            from .engine import Engine
            self.engine = Engine(self.variant, self.hash_mb)
        return self.engine

    def cmd_init(self, args: Dict[str, str]) -> None:
        self._engine()
        self.write("ready")

    def cmd_new_game(self, args: Dict[str, str]) -> None:
        if self.engine is not None:
            self.engine.new_game()

    def cmd_ping(self, args: Dict[str, str]) -> None:
        self.write("pong")

    def cmd_stop(self, args: Dict[str, str]) -> None:
        pass                            # no search is running (handled in handle())

    def cmd_ponder_hit(self, args: Dict[str, str]) -> None:
        pass                            # the search it was meant for has already ended

    def cmd_pos(self, args: Dict[str, str]) -> None:
        # a bad pos leaves no position, so a later go cannot answer for the wrong one
        self.board = None
        self.level = _Level()           # Scan resets the level here
        try:
            if "pos" in args and "start" not in args:
                board = parse_position(args["pos"], self.variant)
            else:
                from .board import Board
                board = Board(self.variant)
            for i, text in enumerate(args.get("moves", "").split(), start=1):
                try:
                    board.push(parse_move(board, text))
                except HubProtocolError as exc:
                    raise HubProtocolError(f"move {i} of moves: {exc}") from None
        except ShashkiError as exc:
            self.position_error = f"the last pos was rejected ({exc})"
            raise
        self.board = board

    def cmd_level(self, args: Dict[str, str]) -> None:
        level = parse_level(args)
        self.level = level

    def cmd_go(self, args: Dict[str, str]) -> None:
        level, self.level = self.level, _Level()      # a level lasts for one search
        if self.board is None:
            self.error(f"go: {self.position_error}")
            self.write("done")
            return
        board = self.board
        if not board.legal_moves:
            self.error("go: the side to move has no legal move; the game is over")
            self.write("done")
            return
        engine = self._engine()
        from .engine import MAX_DEPTH
        pondering = "ponder" in args
        budget = level.budget()
        limits: Dict[str, Any] = dict(depth=level.depth, nodes=level.nodes, movetime=budget)
        if pondering:
            limits["movetime"] = None   # the clock starts at ponder-hit
        if limits["depth"] is None and limits["nodes"] is None and limits["movetime"] is None:
            limits["depth"] = MAX_DEPTH  # infinite: until stop
        search = _Search(engine, pondering, budget)
        variant = board.variant

        def info(result: SearchResult) -> None:
            self.write(self._info_line(result, variant))

        def work() -> None:
            try:
                result = engine.search(board, info=info, **limits)
                assert result.best_move is not None     # the side to move has legal moves
                pairs: List[Tuple[str, object]] = [("move", move_text(result.best_move, variant))]
                if len(result.pv) > 1:
                    pairs.append(("ponder", move_text(result.pv[1], variant)))
                self.write(format_line("done", *pairs))
            except BrokenPipeError:
                pass
            except Exception as exc:    # report it; `done` must come in any case
                self.error(f"go: internal error {type(exc).__name__}: {exc}")
                self.write("done")
            finally:
                search.finished.set()

        search.thread = threading.Thread(target=work, name="shashki-hub-search", daemon=True)
        self.search = search
        search.thread.start()

    @staticmethod
    def _info_line(result: SearchResult, variant: Variant) -> str:
        nps = result.nodes / result.time / 1e6 if result.time > 0 else 0.0
        pv = " ".join(move_text(m, variant) for m in result.pv)
        return format_line("info", ("depth", result.depth), ("seldepth", result.seldepth),
                           ("score", score_text(result.score)), ("nodes", result.nodes),
                           ("time", f"{result.time:.3f}"), ("nps", f"{nps:.2f}"), ("pv", pv))


# --- the command line ------------------------------------------------------------------------

def add_parser(
        sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Register `shashki hub` on the CLI's subparsers."""
    p = sub.add_parser("hub", help="speak the Hub protocol (Scan's) on stdin/stdout",
                       description="Run shashki as an engine for draughts GUIs and bots that "
                                   "speak the Hub protocol (Scan's, version 2; pydraughts' "
                                   "HubEngine).  See shashki.hub for the position format and "
                                   "move notation of the 8x8 games.")
    names: List[str] = []
    for v in VARIANTS:
        names.append(v.name)
        names.extend(v.aliases)
    p.add_argument("--variant", type=str.lower, choices=names, default="russian",
                   metavar="VARIANT",
                   help="the game until the GUI sets the variant parameter: russian, "
                        "giveaway, brazilian, italian or english (default russian)")
    p.add_argument("--hash", type=_hash_mb, default=DEFAULT_HASH_MB, metavar="MB",
                   help=f"hash table size in MiB (default {DEFAULT_HASH_MB})")
    p.set_defaults(func=cmd_hub)
    return p


def _hash_mb(text: str) -> int:
    import argparse
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--hash must be a whole number, not {text!r}") \
            from None
    if not 1 <= value <= MAX_HASH_MB:
        raise argparse.ArgumentTypeError(f"--hash must be from 1 to {MAX_HASH_MB} MiB")
    return value


def cmd_hub(args: argparse.Namespace, out: TextIO) -> int:
    return HubSession(sys.stdin, out, args.variant, args.hash).run()
