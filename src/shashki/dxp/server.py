"""The engine served over DXP, as the follower (`shashki dxp` runs it; shashki.dxp.messages
has the messages).

An initiator (Kingsrow, a tournament manager, pydraughts' DXPEngine) connects and asks for a
10x10 game (GAMEREQ: the colour shashki plays, a time control, the start or a position); the
server accepts it and plays: a MOVE for each of the opponent's, until a GAMEEND.  It takes
back moves on BACKREQ, answers a GAMEEND with its own, and answers a message it cannot read
(or a move that is not legal) with a CHAT saying why, then goes on.  One connection at a time
is served, each for as many games as the initiator asks; Ctrl-C stops the server.

A request's time control (minutes for a number of moves) is shared out evenly, a move at a
time; a request with none (0 minutes, as pydraughts sends) gets --movetime a move.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Iterator, List, Optional

from ..board import Board
from ..colors import Color
from ..engine import Engine
from ..limits import MAX_SECONDS
from .messages import (ACCEPTED, BACK_ACCEPTED, BACK_REFUSED, DRAW, GAME, I_LOSE, I_WIN,
                       UNKNOWN, BackAccept, BackRequest, Chat, DxpError, Frames, GameAccept,
                       GameEnd, GameRequest, Message, MoveMessage, move_message, move_of, parse)

if TYPE_CHECKING:
    import socket
    import socketserver

__all__ = ["DEFAULT_MOVETIME", "DEFAULT_PORT", "DxpFollower", "serve"]

#: the port DXP engines listen on by custom
DEFAULT_PORT = 27531
#: a move's time when the request gives no time control (seconds)
DEFAULT_MOVETIME = 1.0
#: the moves a time control of 0 moves is shared out over (the rest of the game)
GAME_MOVES = 60
#: a GAMEEND's reason from the other side: I lose <-> I win
_MIRRORED = {UNKNOWN: UNKNOWN, I_LOSE: I_WIN, DRAW: DRAW, I_WIN: I_LOSE}


class DxpFollower:
    """The follower's side of one connection, without the socket: each message received
    gives the messages to send back (`receive`), each as soon as it is known (`respond`: a
    GAMEACC goes out before the engine thinks of its first move).  `engine` searches the
    moves."""

    def __init__(self, engine: Engine, name: str = "shashki",
                 movetime: float = DEFAULT_MOVETIME) -> None:
        self.engine = engine
        self.name = name
        self.movetime = movetime
        self.board: Optional[Board] = None    # the game in play, None between games
        self.color: Optional[Color] = None    # the colour shashki plays in it
        self.per_move = movetime
        self.stop = False                     # the initiator wants no further game

    def receive(self, message: Message) -> List[Message]:
        """The messages that answer `message`, in order."""
        return list(self.respond(message))

    def receive_text(self, text: str) -> List[Message]:
        """`receive` of a message's text: one that cannot be read is answered with a CHAT
        saying why (the game goes on)."""
        return list(self.respond_text(text))

    def respond(self, message: Message) -> Iterator[Message]:
        """The messages that answer `message`, each given as soon as it is known: a server
        sends each at once, so a peer reads an acceptance before the move that may follow it
        (some peers, pydraughts' among them, read whatever one recv() holds as one message)."""
        if isinstance(message, GameRequest):
            return self._start(message)
        if isinstance(message, MoveMessage):
            return self._opponent_moved(message)
        if isinstance(message, GameEnd):
            return iter(self._ended(message))
        if isinstance(message, BackRequest):
            return self._back(message)
        if isinstance(message, Chat):
            return iter(())
        return iter((Chat(f"{type(message).__name__} is not for the follower: ignored"),))

    def respond_text(self, text: str) -> Iterator[Message]:
        """`respond` to a message's text: one that cannot be read is answered with a CHAT
        saying why (the game goes on)."""
        try:
            message = parse(text)
        except DxpError as error:
            return iter((Chat(f"not understood: {error}"[:126]),))
        return self.respond(message)

    # --- the messages --------------------------------------------------------------------------

    def _start(self, request: GameRequest) -> Iterator[Message]:
        board = Board(GAME)
        if request.position is not None:
            board = Board(GAME, fen=request.position.fen())
        self.board = board
        self.color = Color(request.follower_color)
        self.stop = False
        if request.minutes:
            self.per_move = request.minutes * 60 / (request.moves or GAME_MOVES)
        else:
            self.per_move = self.movetime
        self.engine.new_game()
        yield GameAccept(self.name, ACCEPTED)
        yield from self._play_if_to_move()

    def _opponent_moved(self, message: MoveMessage) -> Iterator[Message]:
        board = self.board
        if board is None:
            yield Chat("a MOVE outside a game: send a GAMEREQ first")
            return
        if board.turn == self.color:
            yield Chat("a MOVE while shashki is to move: ignored")
            return
        try:
            move = move_of(board.position, message)
        except DxpError as error:
            yield Chat(f"illegal: {error}"[:126])
            return
        board.push(move)
        yield from self._play_if_to_move()

    def _play_if_to_move(self) -> Iterator[Message]:
        board = self.board
        assert board is not None
        end = self._game_end()
        if end is not None:
            yield end
            return
        if board.turn != self.color:
            return
        start = time.monotonic()
        result = self.engine.search(board, movetime=min(self.per_move, MAX_SECONDS))
        assert result.best_move is not None
        board.push(result.best_move)
        yield move_message(result.best_move, round(time.monotonic() - start))
        end = self._game_end()
        if end is not None:
            yield end

    def _game_end(self) -> Optional[GameEnd]:
        """The GAMEEND shashki sends when the game has just ended (the game is then over)."""
        assert self.board is not None
        outcome = self.board.outcome(claim_draw=True)
        if outcome is None:
            return None
        self.board = None
        if outcome.winner is None:
            return GameEnd(DRAW)
        return GameEnd(I_WIN if outcome.winner == self.color else I_LOSE)

    def _ended(self, message: GameEnd) -> List[Message]:
        self.stop = message.stop
        if self.board is None:
            return []           # (the answer to shashki's own GAMEEND)
        self.board = None
        return [GameEnd(_MIRRORED[message.reason], message.stop)]

    def _back(self, message: BackRequest) -> Iterator[Message]:
        board = self.board
        if board is None:
            yield BackAccept(BACK_REFUSED)
            return
        # the ply of move `move` with `color` to move, counted from the game's first position
        first = board.root.turn
        color = Color(message.color)
        ply = 2 * (message.move - 1) + (0 if color == first else 1)
        if ply > len(board.move_stack):
            yield BackAccept(BACK_REFUSED)
            return
        while len(board.move_stack) > ply:
            board.pop()
        yield BackAccept(BACK_ACCEPTED)
        yield from self._play_if_to_move()


def _serve_connection(sock: socket.socket, follower: DxpFollower) -> None:
    """One connection's messages, until it closes or a game ends with no further one asked."""
    frames = Frames()
    while True:
        data = sock.recv(4096)
        if not data:
            return
        try:
            texts = frames.feed(data)
        except DxpError as error:
            sock.sendall(Frames.encode(Chat(f"not understood: {error}"[:126])))
            frames = Frames()
            continue
        for text in texts:
            for reply in follower.respond_text(text):
                sock.sendall(Frames.encode(reply))     # (at once: see respond)
        if follower.stop and follower.board is None:
            return


def serve(host: str = "127.0.0.1", port: int = DEFAULT_PORT, *, name: str = "shashki",
          movetime: float = DEFAULT_MOVETIME,
          engine: Optional[Engine] = None) -> "socketserver.TCPServer":
    """A DXP server bound to (host, port) (port 0: any free one, `server.server_address`
    says which), serving one connection at a time; `server.serve_forever()` serves it."""
    import socket           # (here: `import shashki.dxp.server` stays light)
    import socketserver     # (the same)
    searcher = engine or Engine(GAME)

    class Handler(socketserver.BaseRequestHandler):
        def handle(self) -> None:
            # each message in a packet of its own as soon as it is sent (no Nagle delay
            # joining an acceptance and the move after it)
            self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            _serve_connection(self.request, DxpFollower(searcher, name, movetime))

    class Server(socketserver.TCPServer):
        allow_reuse_address = True

    return Server((host, port), Handler)
