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

import argparse
import dataclasses
import sys
import threading
from typing import Callable, Dict, List, Mapping, Optional, TextIO, Tuple, TypeVar, Union

from .._text import bounded_int
from .. import __version__
from ..board import Board
from ..engine import Engine, SearchResult
from ..errors import ShashkiError
from ..limits import MAX_DEPTH, MIN_BUDGET, Limit
from ..variants import RUSSIAN, VARIANTS, Variant, get_variant
from .args import SubParsers, add_command, add_variant, whole
from .hubtext import (HubProtocolError, format_line, format_value, move_text, parse_line,
                      parse_move, parse_position, position_text, score_text)

__all__ = ["DEFAULT_HASH_MB", "MAX_HASH_MB", "HubProtocolError", "HubSession", "add_parser",
           "cmd_hub", "format_line", "format_value", "move_text", "parse_level", "parse_line",
           "parse_move", "parse_position", "position_text", "score_text"]

_N = TypeVar("_N", int, float)

DEFAULT_HASH_MB = 32
#: the largest hash table the Hub's `hash` parameter offers, MiB
MAX_HASH_MB = 4096
_POLL_SECONDS = 0.02
_COMMANDS = ("hub", "init", "set-param", "new-game", "pos", "level", "go", "ping", "stop",
             "ponder-hit", "quit")


# --- search limits ---------------------------------------------------------------------------

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

    def __init__(self, inp: TextIO, out: TextIO, variant: Union[str, Variant] = RUSSIAN,
                 hash_mb: int = DEFAULT_HASH_MB) -> None:
        self._in = inp
        self._out = out
        self._write_lock = threading.Lock()
        self.variant = get_variant(variant)
        self.hash_mb = hash_mb
        self.engine = None
        self.board = None
        self.position_error = "no position has been given (send pos)"
        self.level = Limit()
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
            mb = bounded_int(value, MAX_HASH_MB) or 0 if value.isascii() and value.isdigit() else 0
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
        self.level = Limit()            # Scan resets the level here
        try:
            if "pos" in args and "start" not in args:
                board = parse_position(args["pos"], self.variant)
            else:
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
        level, self.level = self.level, Limit()       # a level lasts for one search
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
        pondering = "ponder" in args
        budget = level.budget()
        limit = level
        if pondering:                   # the clock starts at ponder-hit
            limit = dataclasses.replace(level, movetime=None, clock=None, increment=0.0,
                                        moves=0)
        if limit.depth is None and limit.nodes is None and limit.budget() is None:
            limit = dataclasses.replace(limit, depth=MAX_DEPTH)    # infinite: until stop
        search = _Search(engine, pondering, budget)
        variant = board.variant

        def info(result: SearchResult) -> None:
            self.write(self._info_line(result, variant))

        def work() -> None:
            try:
                result = engine.search(board, limit=limit, info=info)
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

def add_parser(sub: SubParsers) -> None:
    """Register `shashki hub` on the CLI's subparsers."""
    p = add_command(sub, "hub", cmd_hub, help="speak the Hub protocol (Scan's) on stdin/stdout",
                    description="Run shashki as an engine for draughts GUIs and bots that "
                                "speak the Hub protocol (Scan's, version 2; pydraughts' "
                                "HubEngine).  See shashki.apps.hub for the position format "
                                "and move notation of the 8x8 games.")
    add_variant(p, "--variant", default=RUSSIAN.name,
                help="the game until the GUI sets the variant parameter: "
                     + ", ".join(v.name for v in VARIANTS))
    p.add_argument("--hash", type=whole("--hash", 1, MAX_HASH_MB), default=DEFAULT_HASH_MB,
                   metavar="MB", help=f"hash table size in MiB (default {DEFAULT_HASH_MB})")


def cmd_hub(args: argparse.Namespace, out: TextIO) -> int:
    return HubSession(sys.stdin, out, args.variant, args.hash).run()
