"""A DXP engine driven from Python: shashki as the *initiator* of a 10x10 game.

    >>> from shashki.dxp.client import DxpEngine            # doctest: +SKIP
    >>> engine = DxpEngine.connect("127.0.0.1", 27531)       # doctest: +SKIP
    >>> engine.play(shashki.Board("international")).move     # doctest: +SKIP
    <Move 32-28>

The first `play(board)` asks for a game from the board's root position, the engine playing
the side to move, with the time control given to `connect` (DXP fixes it for the whole game);
each later `play` sends the moves played since and waits for the engine's.  `quit()` ends the
game and closes the connection.  The messages are shashki.dxp.messages'; a peer that
answers with something else, or not in time, raises DxpError.
"""

from __future__ import annotations

import socket
from dataclasses import dataclass
from typing import Dict, List, Mapping, Optional, Tuple

from ..board import Board
from ..move import Move
from .messages import (ACCEPTED, UNKNOWN, Chat, DxpError, Frames, GameAccept, GameEnd,
                       GameRequest, Message, MoveMessage, move_message, move_of, parse)

__all__ = ["DxpEngine", "DxpResult"]


@dataclass(frozen=True)
class DxpResult:
    """The engine's answer: its `move` (a Move of the board searched), the seconds it says it
    took, and the chat lines that came with it; `ended` is the engine's GAMEEND, if it sent
    one after its move (the game is then over)."""
    move: Optional[Move]
    seconds: int = 0
    chat: Tuple[str, ...] = ()
    ended: Optional[GameEnd] = None


class DxpEngine:
    """A connection to a DXP follower (see the module's docstring)."""

    def __init__(self, sock: socket.socket, *, name: str = "shashki", minutes: int = 0,
                 moves: int = 0, timeout: float = 60.0) -> None:
        self.sock = sock
        self.name = name
        self.minutes = minutes
        self.moves = moves
        self.timeout = timeout
        self.engine_name: Optional[str] = None
        self._frames = Frames()
        self._queue: List[Message] = []
        self._board: Optional[Board] = None      # the game as the engine knows it

    #: what `configure` sets: DXP has no engine options, only what a game request carries
    #: (the initiator's name, the time control) and how long to wait for an answer
    OPTIONS = ("name", "minutes", "moves", "timeout")

    @property
    def options(self) -> Dict[str, object]:
        """The settings `configure` takes, with their values (python-chess's `options`)."""
        return {name: getattr(self, name) for name in self.OPTIONS}

    def configure(self, options: Mapping[str, object]) -> None:
        """Set `name`, `minutes`, `moves` (the time control of the games asked for: 0 to 999
        each) and `timeout` (seconds to wait for a message) by name, as python-chess's
        engines are configured; a time control applies from the next game (DXP fixes it for
        a whole game).  DxpError, with nothing changed, for any other name or a value that
        does not fit."""
        checked: Dict[str, object] = {}
        for key, value in options.items():
            if key not in self.OPTIONS:
                raise DxpError(f"a DXP engine has no option {key!r}; it has "
                               f"{', '.join(self.OPTIONS)}")
            if key == "name":
                if not isinstance(value, str) or not value.isascii():
                    raise DxpError(f"name must be ASCII text (32 characters are sent), not "
                                   f"{value!r}")
            elif key == "timeout":
                if isinstance(value, bool) or not isinstance(value, (int, float)) or \
                        not 0 < value < float("inf"):
                    raise DxpError(f"timeout must be a number of seconds above 0, not {value!r}")
            elif isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 999:
                raise DxpError(f"{key} must be a whole number from 0 to 999 (its GAMEREQ field "
                               f"has 3 digits), not {value!r}")
            checked[key] = value
        for key, value in checked.items():
            setattr(self, key, value)

    @classmethod
    def connect(cls, host: str, port: int, *, name: str = "shashki", minutes: int = 0,
                moves: int = 0, timeout: float = 60.0) -> DxpEngine:
        """A connection to the follower at (host, port); `minutes` for `moves` moves is the
        time control its games are asked with (0: the engine's own)."""
        sock = socket.create_connection((host, port), timeout=timeout)
        return cls(sock, name=name, minutes=minutes, moves=moves, timeout=timeout)

    # --- the wire --------------------------------------------------------------------------------

    def send(self, message: Message) -> None:
        self.sock.sendall(Frames.encode(message))

    def receive(self) -> Message:
        """The next message (DxpError for one that cannot be read; TimeoutError past
        `timeout`, OSError when the connection is gone)."""
        while not self._queue:
            self.sock.settimeout(self.timeout)
            data = self.sock.recv(4096)
            if not data:
                raise DxpError("the engine closed the connection")
            self._queue.extend(parse(text) for text in self._frames.feed(data))
        return self._queue.pop(0)

    # --- games ---------------------------------------------------------------------------------

    def play(self, board: Board) -> DxpResult:
        """The engine's move in `board`, whose side to move it plays."""
        if self._board is None:
            self._start(board)
        else:
            self._catch_up(board)
        return self._answer(board)

    def _start(self, board: Board) -> None:
        root = Board(board.variant, fen=board.root.fen())
        played = list(board.move_stack)
        color = board.turn
        self.send(GameRequest(self.name, color, self.minutes, self.moves,
                              None if root.fen() == Board(board.variant).fen() else root.position))
        while True:
            reply = self.receive()
            if isinstance(reply, GameAccept):
                break
            if not isinstance(reply, Chat):
                raise DxpError(f"the engine answered a GAMEREQ with {reply!r}, not a GAMEACC")
        if reply.code != ACCEPTED:
            raise DxpError(f"{reply.name or 'the engine'} refused the game (code {reply.code})")
        self.engine_name = reply.name
        self._board = root
        # a game asked for from a position with moves played: the engine sees them now
        for move in played:
            self.send(move_message(move))
            self._board.push(move)

    def _catch_up(self, board: Board) -> None:
        known = self._board
        assert known is not None
        stack = list(board.move_stack)
        if board.root.fen() != known.root.fen() or \
                stack[:len(known.move_stack)] != list(known.move_stack):
            raise DxpError("this board is not the game the engine is playing: start a new "
                           "DxpEngine (DXP takes moves back only by BACKREQ)")
        for move in stack[len(known.move_stack):]:
            self.send(move_message(move))
            known.push(move)

    def _answer(self, board: Board) -> DxpResult:
        known = self._board
        assert known is not None
        chat: List[str] = []
        while True:
            message = self.receive()
            if isinstance(message, Chat):
                chat.append(message.message)
            elif isinstance(message, MoveMessage):
                move = move_of(known.position, message)
                known.push(move)
                ended = self._maybe_end()
                ours = next(m for m in board.legal_moves if m == move)
                return DxpResult(ours, message.seconds, tuple(chat), ended)
            elif isinstance(message, GameEnd):
                self._board = None
                self.send(GameEnd(UNKNOWN, message.stop))
                return DxpResult(None, 0, tuple(chat), message)
            else:
                raise DxpError(f"the engine sent {message!r} while a move was awaited")

    def _maybe_end(self) -> Optional[GameEnd]:
        """The engine's GAMEEND after its move, where the move ended the game."""
        if self._board is None or self._board.outcome(claim_draw=True) is None:
            return None
        message = self.receive()
        if not isinstance(message, GameEnd):
            raise DxpError(f"the game is over, and the engine sent {message!r}, not a GAMEEND")
        self._board = None
        self.send(GameEnd(UNKNOWN, message.stop))
        return message

    def quit(self) -> None:
        """End the game (if one is going) and close the connection."""
        try:
            self.send(GameEnd(UNKNOWN, True))
        except OSError:
            pass
        finally:
            self.sock.close()
