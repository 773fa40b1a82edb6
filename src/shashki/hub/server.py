"""The engine's side of the Hub protocol (Scan's text protocol, version 2): HubSession reads
the GUI's lines and answers them, what `shashki hub` runs on stdin/stdout (shashki.apps.hub).

Draughts GUIs and bots that drive Scan (the Hub GUI, pydraughts' ``HubEngine``, bots built on
it, shashki's own client shashki.hub.client) can use shashki as their engine for every game it
plays: for international and its 10x10 family it speaks the protocol as Scan does, for the 8x8
games as pydraughts does.  The protocol is line based::

    hub                                   -> id name=shashki version=...
                                             param name=variant value=russian type=enum
                                               values="russian giveaway ... normal losing bt ..."
                                             param name=hash ...
                                             param name=threads ...
                                             wait
    set-param name=variant value=normal      (before init; also accepted later when idle)
    init                                  -> ready
    new-game                                 (clears the hash table)
    pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww moves="32-28 19-23"
    level move-time=1                        (or depth= / nodes= / [moves=] time= [inc=] /
                                              infinite; a level lasts for one search and
                                              `pos` resets it, as in Scan: no level = infinite;
                                              an infinite search answers only after `stop`,
                                              even one that has found all it can)
    go think                              -> info depth=.. score=.. nodes=.. time=.. nps=.. pv=".."
                                             done move=32-28 ponder=19-23
    ping                                  -> pong (also during a search)
    stop / ponder-hit                        (during a search; `stop` always yields `done`)
    quit

Bad input is answered with ``error message="..."`` and the engine keeps working (a line longer
than MAX_LINE, 64 KiB, too: it is dropped without being held in memory); unknown
arguments are ignored (the protocol asks for that so it can grow), unknown commands are not.

The games and their text are in shashki.hub.text: the `variant` parameter takes each game's Hub
name (Scan's ``normal``, ``losing`` and ``bt`` for international, antidraughts and
breakthrough; the game's name for the others), or any of shashki's names.  Until the variant
is set (by ``--variant`` or ``set-param``), a position string of another board than the
default game's is read as the first game of that board in shashki.VARIANTS (a 50-square one
as international), so shashki stands in for Scan with a GUI that never sets the variant.
``pos`` alone, ``pos start`` or ``pos pos=startpos`` (pydraughts' word) is the start position;
as an extension a PDN FEN in the game's own notation (``W:W31-50:B1-20``) is read too.
``nps`` is in millions of nodes per second (Scan's unit); ``seldepth`` is a shashki extension.
"""

from __future__ import annotations

import dataclasses
import threading
from typing import Dict, List, Optional, TextIO, Tuple, Union

from .. import __version__
from .._text import bounded_int
from ..board import Board
from ..engine import Engine, SearchResult
from ..errors import ShashkiError
from ..limits import MAX_DEPTH, MAX_THREADS, Limit
from ..variants import DEFAULT, VARIANTS, Variant, get_variant
from .text import (HubProtocolError, format_line, format_value, hub_variant, move_text,
                   parse_level, parse_line, parse_move, parse_position, position_text,
                   score_text)

__all__ = ["DEFAULT_HASH_MB", "MAX_HASH_MB", "MAX_LINE", "HubSession"]

DEFAULT_HASH_MB = 32
#: the largest hash table the Hub's `hash` parameter offers, MiB
MAX_HASH_MB = 4096
#: the longest line read, in characters: the protocol's lines are short (a position of 50
#: squares and a game's king moves are a few hundred), so a longer one is refused without
#: being held (answered with an error, the engine going on)
MAX_LINE = 64 * 1024
_POLL_SECONDS = 0.02
_COMMANDS = ("hub", "init", "set-param", "new-game", "pos", "level", "go", "ping", "stop",
             "ponder-hit", "quit")


# --- the engine side of the protocol ---------------------------------------------------------

class _Search:
    """One `go`: the worker thread and what the main thread needs to steer it."""

    thread: Optional[threading.Thread]

    def __init__(self, engine: Engine, pondering: bool, level: Limit) -> None:
        self.engine = engine
        self.pondering = pondering
        self.level = level        # for ponder-hit: the time limit that starts then
        self.thread = None
        self.finished = threading.Event()
        self.stopping = threading.Event()   # stop was asked: an infinite search may answer

    def alive(self) -> bool:
        return self.thread is not None and self.thread.is_alive()

    def halt(self) -> None:
        """Stop the search and wait for its `done`.  Stop is asked again until the worker
        ends, so a request that lands between two iterations (or before the first) is not
        lost."""
        self.stopping.set()
        thread = self.thread
        while thread is not None and thread.is_alive():
            self.engine.stop()
            thread.join(_POLL_SECONDS)

    def start_clock(self) -> None:
        """ponder-hit: the opponent played the expected move, so the move's time starts: the
        search goes on with the level's time, the time spent pondering counted as spent
        (Engine.ponder_hit), and answers when it is over."""
        self.pondering = False
        self.engine.ponder_hit(self.level)


class HubSession:
    """The Hub protocol over a pair of text streams."""

    engine: Optional[Engine]
    board: Optional[Board]
    search: Optional[_Search]

    def __init__(self, inp: TextIO, out: TextIO, variant: Union[str, Variant, None] = None,
                 hash_mb: int = DEFAULT_HASH_MB, threads: int = 1) -> None:
        self._in = inp
        self._out = out
        self._write_lock = threading.Lock()
        # no game named: the default, which a position of another board replaces (see above)
        self.variant_chosen = variant is not None
        self.variant = DEFAULT if variant is None else get_variant(variant)
        self.hash_mb = hash_mb
        self.threads = threads
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
                line = self._in.readline(MAX_LINE + 1)
                if not line:
                    break                    # the GUI is gone: quit (protocol)
                if len(line) > MAX_LINE and not line.endswith("\n"):
                    while True:              # the rest of the line, read and dropped
                        rest = self._in.readline(MAX_LINE)
                        if not rest or rest.endswith("\n"):
                            break
                    self.error(f"a line longer than {MAX_LINE} characters was ignored "
                               f"({line[:40]!r}...); Hub lines are short")
                    if not rest:
                        break
                    continue
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
        names = " ".join(v.hub_name for v in VARIANTS)
        self.write(format_line("param", ("name", "variant"), ("value", self.variant.hub_name),
                               ("type", "enum"), ("values", names)))
        self.write(format_line("param", ("name", "hash"), ("value", self.hash_mb),
                               ("type", "int"), ("min", 1), ("max", MAX_HASH_MB)))
        self.write(format_line("param", ("name", "threads"), ("value", self.threads),
                               ("type", "int"), ("min", 1), ("max", MAX_THREADS)))
        self.write("wait")

    def cmd_set_param(self, args: Dict[str, str]) -> None:
        name = args.get("name", "")
        if not name:
            raise HubProtocolError("set-param needs name=... and value=...")
        if "value" not in args:
            raise HubProtocolError(f"set-param name={name} needs value=...")
        value = args["value"]
        if name == "variant":
            self._set_variant(hub_variant(value))
            self.variant_chosen = True
        elif name == "hash":
            mb = bounded_int(value, MAX_HASH_MB) or 0 if value.isascii() and value.isdigit() else 0
            if not 1 <= mb <= MAX_HASH_MB:
                raise HubProtocolError(f"hash={value!r}: expected MiB from 1 to {MAX_HASH_MB}")
            if mb != self.hash_mb:
                self.hash_mb = mb
                self.engine = None
        elif name == "threads":
            count = (bounded_int(value, MAX_THREADS) or 0
                     if value.isascii() and value.isdigit() else 0)
            if not 1 <= count <= MAX_THREADS:
                raise HubProtocolError(f"threads={value[:20]!r}: expected a number from 1 to "
                                       f"{MAX_THREADS}")
            if count != self.threads:
                self.threads = count
                self.engine = None
        else:
            raise HubProtocolError(f"unknown parameter {name[:40]!r}; shashki has variant, "
                                   f"hash and threads")

    def _set_variant(self, variant: Variant) -> None:
        if variant != self.variant:
            self.variant = variant
            self.engine = None
            self.board = None
            self.position_error = f"the variant changed to {variant.name}; send pos again"

    def _engine(self) -> Engine:
        if self.engine is None:
            self.engine = Engine(self.variant, self.hash_mb, threads=self.threads)
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
        text = args.get("pos", "startpos")
        try:
            if text != "startpos" and "start" not in args:
                self._board_of(text)
                board = parse_position(text, self.variant)
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

    def _board_of(self, text: str) -> None:
        """Before any variant is set, a Hub position string of another board than the
        default game's switches to the first game of that board (a GUI made for Scan sends
        international positions and may never set the variant)."""
        if self.variant_chosen or ":" in text or \
                len(text) == self.variant.geometry.squares + 1:
            return
        board = next((v for v in VARIANTS if v.geometry.squares + 1 == len(text)), None)
        if board is not None:
            self._set_variant(board)

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
        outcome = board.outcome()
        if outcome is not None and outcome.winner is not None:
            # (a draw by a rule of the game still has moves, which a GUI may want played)
            self.error(f"go: the game is over ({outcome.termination.value.replace('_', ' ')})")
            self.write("done")
            return
        engine = self._engine()
        pondering = "ponder" in args
        limit = level
        if pondering:                   # the clock starts at ponder-hit
            limit = dataclasses.replace(level, movetime=None, clock=None, increment=0.0,
                                        moves=0)
            engine.prepare_ponder()
        if limit.depth is None and limit.nodes is None and limit.budget() is None:
            limit = dataclasses.replace(limit, depth=MAX_DEPTH)    # infinite: until stop
        search = _Search(engine, pondering, level)
        variant = board.variant

        def info(result: SearchResult) -> None:
            self.write(self._info_line(result, variant))

        def work() -> None:
            try:
                result = engine.search(board, limit=limit, info=info, ponder=pondering)
                assert result.best_move is not None     # the side to move has legal moves
                if level.is_infinite:
                    # "level infinite (for analysis, the GUI will send stop later)": a search
                    # that has found all it can (a forced result, the deepest depth) waits
                    search.stopping.wait()
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
