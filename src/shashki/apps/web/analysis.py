"""The analysis of `shashki serve`: the engine searches the position a page shows and the page
gets each finished depth as a server-sent event, with the endgame databases' verdict first.

    event: position   {"fen", "version"}         the position analysed
    event: egdb       {"wdl", "dtz", "text"}     the databases' verdict, where they have one
    event: info       shashki.apps.web.views.search_view, once per depth
    event: done       {"reason"}                 the last event: "finished" (the time is up,
                                                 or a forced result was found), "changed"
                                                 (the position did), "over" (no move)
    event: error      {"error"}                  the last event of an analysis that failed

An analysis that cannot have an engine (MAX_SEARCHES are running) is refused before its
stream begins: a 429 answer, not an event.

The search runs in a thread of its own (the kernels release the GIL) while the request's
thread writes its events; every KEEPALIVE seconds without one it writes a comment line, which
is how a page that has gone away is noticed (the write fails): the search is stopped then, and
when the game's position changes (GameSession.changed stops it at once).
"""

from __future__ import annotations

import json
import queue
import threading
from typing import Any, Callable, Dict, Optional, Tuple

from ... import egdb
from ...board import Board
from ...engine import Engine
from ...limits import MAX_DEPTH, Limit
from ...variants import COLOR_NAMES
from .games import EnginePool, GameSession
from .views import search_view

__all__ = ["KEEPALIVE", "Analysis", "egdb_verdict", "event"]

#: seconds between keep-alive comments while no depth finishes
KEEPALIVE = 1.0

#: what the stream writes to: the text of one or more events (raises OSError when the page
#: has gone away)
Write = Callable[[str], None]


def event(kind: str, data: Dict[str, Any]) -> str:
    """The text of one server-sent event."""
    # (json.dumps writes no newline, so the data is one line)
    return f"event: {kind}\ndata: {json.dumps(data)}\n\n"


def egdb_verdict(board: Board, folder: Any = None) -> Optional[Dict[str, Any]]:
    """The endgame databases' value of `board` ({"wdl": 1/0/-1 for the side to move, "dtz":
    plies to the next capture or man move on the best line, "text"}), or None where the
    databases (of `folder`, None for the default one; False for none) do not hold the
    position."""
    if folder is False or egdb.unsupported(board.variant):
        return None
    try:
        tables = egdb.for_engine(board.variant, folder)
        if tables is None:
            return None
        wdl, dtz = tables.probe(board)
    except egdb.EgdbError:          # MissingTableError too: not in the tables
        return None
    side, other = COLOR_NAMES[board.turn], COLOR_NAMES[1 - board.turn]
    if wdl == 0:
        text = "a draw with best play"
    else:
        winner = side if wdl > 0 else other
        text = f"{winner} wins ({max(dtz, 1)} plies to the next capture or man move)"
    return {"wdl": wdl, "dtz": dtz, "text": text}


class Analysis:
    """The analysis of `game`'s position at its cursor for up to `seconds`, streamed by
    run(write)."""

    def __init__(self, game: GameSession, pool: EnginePool, seconds: float) -> None:
        self.game = game
        self.pool = pool
        # (a depth, so that a forced move is analysed too: a search without one answers it
        # at once)
        self.limit = Limit(depth=MAX_DEPTH, movetime=seconds)
        with game.lock:
            self.board = game.board()
            self.version = game.version
            self.over = game.outcome(self.board) is not None

    def _changed(self) -> bool:
        return self.game.version != self.version

    def run(self, begin: Callable[[], None], write: Write) -> None:
        """Take an engine from the pool (RequestError 429 when none is free), then call
        `begin` (which starts the stream) and write the events until the search ends, the
        position changes or writing fails (OSError, raised on after the search has
        stopped)."""
        if self.over or not self.board.legal_moves:
            begin()
            self._head(write)
            write(event("done", {"reason": "over"}))
            return
        with self.pool.engine(self.game) as engine:
            begin()
            self._head(write)
            self._stream(engine, write)

    def _head(self, write: Write) -> None:
        """The position analysed, and the databases' verdict on it."""
        write(event("position", {"fen": self.board.fen(), "version": self.version}))
        verdict = egdb_verdict(self.board, self.pool.egdb)
        if verdict is not None:
            write(event("egdb", verdict))

    def _stream(self, engine: Engine, write: Write) -> None:
        events: "queue.Queue[Tuple[str, Any]]" = queue.Queue()
        turn = self.board.turn

        def info(result: Any) -> None:
            events.put(("info", search_view(result, turn)))
            if self._changed():
                engine.stop()

        def search() -> None:
            try:
                result = engine.search(self.board, limit=self.limit, info=info)
                events.put(("end", result))
            except BaseException as error:      # handed to the request's thread
                events.put(("error", error))

        thread = threading.Thread(target=search, name="shashki-analysis", daemon=True)
        thread.start()
        try:
            while True:
                try:
                    kind, data = events.get(timeout=KEEPALIVE)
                except queue.Empty:
                    if self._changed():
                        engine.stop()
                    write(": keep-alive\n\n")
                    continue
                if kind == "info":
                    write(event("info", data))
                elif kind == "error":
                    raise data
                else:
                    reason = "changed" if self._changed() else "finished"
                    write(event("done", {"reason": reason}))
                    return
        finally:
            engine.stop()
            thread.join()
