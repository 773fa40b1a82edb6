"""The GUI side of the Hub protocol: another engine program as a match player.

    >>> from shashki.apps.players import EngineSpec
    >>> spec = EngineSpec.parse("hub='shashki hub',movetime=0.2,name=other")
    >>> spec.hub, spec.movetime
    ('shashki hub', 0.2)

`HubPlayer` starts the program (a command line, split as a shell would), introduces the game
(`set-param name=variant`), and for each move sends the game so far as its start position (a
PDN FEN, which shashki's hub reads) and its moves, the level and `go think`, and plays the move
of `done`.  The moves go as the Hub writes them (shashki.apps.hubtext), so the engine knows the
positions a repetition would return to.  The program is told to quit when the player is closed
or its input ends (a worker process that dies closes the pipe).
"""

from __future__ import annotations

import shlex
import subprocess
import threading
from typing import IO, Any, List, Optional

from ..board import Board
from ..errors import ShashkiError
from ..limits import Limit
from ..move import Move
from ..variants import Variant
from .hubtext import format_line, move_text, parse_line, parse_move

__all__ = ["HubEngineError", "HubPlayer", "level_line"]

#: seconds to wait for the program to answer the set-up commands
START_TIMEOUT = 60.0


class HubEngineError(ShashkiError):
    """A Hub engine that cannot be started, or that answered with nonsense or not at all."""


def level_line(limit: Limit) -> str:
    """The Hub `level` line of a Limit."""
    pairs: List[Any] = []
    if limit.depth is not None:
        pairs.append(("depth", limit.depth))
    if limit.nodes is not None:
        pairs.append(("nodes", limit.nodes))
    if limit.movetime is not None:
        pairs.append(("move-time", f"{limit.movetime:g}"))
    if limit.clock is not None:
        pairs.append(("time", f"{limit.clock:g}"))
        if limit.increment:
            pairs.append(("inc", f"{limit.increment:g}"))
        if limit.moves:
            pairs.append(("moves", limit.moves))
    return format_line("level", *pairs) if pairs else "level infinite"


class HubPlayer:
    """A Hub engine playing with `limit` per move."""

    def __init__(self, command: str, variant: Variant, limit: Limit,
                 hash_mb: Optional[int] = None, name: Optional[str] = None) -> None:
        self.variant = variant
        self.limit = limit
        self.command = command
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise HubEngineError(f"cannot read the Hub engine command {command!r}: {exc}"
                                 ) from None
        if not argv:
            raise HubEngineError("the Hub engine command is empty")
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         text=True, bufsize=1)
        except OSError as exc:
            raise HubEngineError(f"cannot start the Hub engine {command!r}: "
                                 f"{exc.strerror or exc}") from None
        self.engine_name = argv[0]
        self._send("hub")
        for command_, args in self._until("wait", START_TIMEOUT):
            if command_ == "id" and "name" in args:
                self.engine_name = args["name"] + (f" {args['version']}"
                                                   if "version" in args else "")
        self._send(format_line("set-param", ("name", "variant"), ("value", variant.name)))
        if hash_mb:
            self._send(format_line("set-param", ("name", "hash"), ("value", hash_mb)))
        self._send("init")
        list(self._until("ready", START_TIMEOUT))
        self.name = name or self.engine_name

    def _send(self, line: str) -> None:
        stdin = self.proc.stdin
        assert stdin is not None
        try:
            stdin.write(line + "\n")
            stdin.flush()
        except (BrokenPipeError, OSError):
            raise HubEngineError(f"the Hub engine {self.command!r} has quit") from None

    def _until(self, last: str, timeout: Optional[float] = None) -> Any:
        """The lines up to the one whose command is `last` (included), parsed; an `error`
        line of the engine is raised."""
        stdout = self.proc.stdout
        assert stdout is not None
        while True:
            line = _readline(stdout, timeout)
            if line is None:
                raise HubEngineError(f"the Hub engine {self.command!r} did not answer in "
                                     f"{timeout:g} s (waiting for {last!r})")
            if not line:
                raise HubEngineError(f"the Hub engine {self.command!r} has quit "
                                     f"(waiting for {last!r})")
            line = line.strip()
            if not line:
                continue
            command, args = parse_line(line)
            if command == "error":
                raise HubEngineError(f"the Hub engine says: {args.get('message', line)}")
            yield command, args
            if command == last:
                return

    def new_game(self, board: Board) -> None:
        self._send("new-game")

    def choose(self, board: Board) -> Move:
        root = board.copy()
        moves: List[Move] = []
        while root.move_stack:
            moves.append(root.pop())
        moves.reverse()
        self._send(format_line("pos", ("pos", root.fen()),
                               ("moves", " ".join(move_text(m, self.variant) for m in moves))))
        self._send(level_line(self.limit))
        self._send("go think")
        done = {}
        for command, args in self._until("done"):
            if command == "done":
                done = args
        if "move" not in done:
            raise HubEngineError(f"the Hub engine {self.command!r} gave no move")
        return parse_move(board, done["move"])

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self._send("quit")
                self.proc.wait(5)
            except (HubEngineError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()

    def __del__(self) -> None:
        proc = getattr(self, "proc", None)
        if proc is not None and proc.poll() is None:
            proc.kill()


def _readline(stream: IO[str], timeout: Optional[float]) -> Optional[str]:
    """A line of `stream` ("" at its end), or None after `timeout` seconds without one."""
    if timeout is None:
        return stream.readline()
    box: List[str] = []
    reader = threading.Thread(target=lambda: box.append(stream.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    return box[0] if box else None
