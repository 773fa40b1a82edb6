"""The state of `shashki serve`: one GameSession per game a page plays, kept in a GameStore,
and the engines that search for them, lent out by an EnginePool.

A session is the game's start position and its line of moves, with a cursor (`ply`) on the
move the page shows: going to a move moves the cursor, and a move played there (or a take-back)
cuts the line after it, as a board on a table would.  Every change takes the session's lock and
bumps its `version`; a change that a request made against an older version than the current
one is refused (Conflict), so a page never plays on a position that is not the one it shows, and
an engine's answer for a position that has changed meanwhile is dropped.
"""

from __future__ import annotations

import contextlib
import secrets
import threading
from collections import OrderedDict
from typing import Any, Dict, Iterator, List, Optional, Set

from ...board import Board
from ...engine import Engine
from ...move import Move
from ...outcome import Outcome
from ...variants import Variant
from .errors import RequestError

__all__ = ["ENGINE_HASH_MB", "MAX_GAMES", "MAX_SEARCHES", "EnginePool", "GameSession",
           "GameStore"]

#: the games kept: the least recently used one is forgotten when a new one would exceed this
MAX_GAMES = 200
#: engine searches (moves and analyses) running at once, over all games: more are refused
#: (429), since each takes a core for its whole time
MAX_SEARCHES = 4
#: the hash table of each engine, in MiB (an engine is lent to one search at a time, so
#: memory is bounded by MAX_SEARCHES engines, not by the number of games)
ENGINE_HASH_MB = 16
#: idle engines kept for each of the fourteen games, for the next search (their tables keep
#: what they learnt)
IDLE_ENGINES = 2
#: the form of a game id: 16 hex digits from the system's random source
ID_LENGTH = 16


class GameSession:
    """One game: its start, its line of moves, the cursor and what runs for it."""

    def __init__(self, game_id: str, start: Board, moves: List[Move],
                 headers: Optional[Dict[str, str]] = None) -> None:
        self.id = game_id
        self.variant: Variant = start.variant
        self.start = start.copy(stack=False)
        self.moves = list(moves)
        self.ply = len(self.moves)
        self.version = 0
        self.headers = dict(headers or {})
        # a draw claimed by the side to move at the end of the line (english), or None
        self.claimed: Optional[Outcome] = None
        self.lock = threading.Lock()
        # the engines now searching this game's position: stopped when it changes
        self.engines: Set[Engine] = set()
        self.thinking = False       # an engine move is being searched

    # --- reading (under the lock) ---------------------------------------------------------

    def board(self, ply: Optional[int] = None) -> Board:
        """The position after the first `ply` moves (default: the cursor's), with those moves
        on its stack."""
        board = self.start.copy(stack=False)
        for move in self.moves[:self.ply if ply is None else ply]:
            board.push(move)
        return board

    def outcome(self, board: Board) -> Optional[Outcome]:
        """How the game stands at `board` (the cursor's position): over by the rules, drawn by
        a claim made there, or None."""
        if self.claimed is not None and self.ply == len(self.moves):
            return self.claimed
        return board.outcome()

    # --- changes (under the lock) ---------------------------------------------------------

    def check_version(self, version: Optional[int]) -> None:
        if version is not None and version != self.version:
            raise RequestError(409, f"the game has changed (version {self.version}, not "
                                    f"{version}): another request moved it",
                               "the current state: GET /api/games/" + self.id)

    def changed(self) -> None:
        """The position shown changes: stop every search of the old one."""
        self.version += 1
        for engine in list(self.engines):
            engine.stop()

    def play(self, move: Move) -> None:
        """Play `move` (legal at the cursor) there, cutting the line after the cursor."""
        del self.moves[self.ply:]
        self.moves.append(move)
        self.ply += 1
        self.claimed = None
        self.changed()

    def take_back(self, plies: int) -> None:
        """Take back the `plies` moves before the cursor, with the line after it."""
        del self.moves[max(self.ply - plies, 0):]
        self.ply = len(self.moves)
        self.claimed = None
        self.changed()

    def go_to(self, ply: int) -> None:
        self.ply = ply
        self.changed()

    def claim_draw(self, outcome: Outcome) -> None:
        """A draw claimed at the cursor: the line after it is cut."""
        del self.moves[self.ply:]
        self.claimed = outcome
        self.changed()


class GameStore:
    """The games of the server by id, the least recently used forgotten past `max_games`."""

    def __init__(self, max_games: int = MAX_GAMES) -> None:
        self.max_games = max_games
        self._games: "OrderedDict[str, GameSession]" = OrderedDict()
        self._lock = threading.Lock()

    def create(self, start: Board, moves: List[Move],
               headers: Optional[Dict[str, str]] = None) -> GameSession:
        with self._lock:
            game_id = secrets.token_hex(ID_LENGTH // 2)
            session = GameSession(game_id, start, moves, headers)
            self._games[game_id] = session
            while len(self._games) > self.max_games:
                _, old = self._games.popitem(last=False)
                with old.lock:
                    old.changed()       # its searches stop: nobody will read their answers
            return session

    def get(self, game_id: str) -> GameSession:
        with self._lock:
            session = self._games.get(game_id)
            if session is None:
                raise RequestError(404, f"no game {game_id!r} on this server (it may have been "
                                        f"forgotten: the server keeps the last "
                                        f"{self.max_games})",
                                   "the id of a game made by POST /api/games")
            self._games.move_to_end(game_id)
            return session

    def __len__(self) -> int:
        return len(self._games)


class EnginePool:
    """Engines lent to one search at a time, at most `max_searches` at once; idle ones are kept
    for the next search of the same game (russian, english, ...).  `egdb`: the endgame databases they probe (shashki.engine.
    Engine's argument: None for the default folder's)."""

    def __init__(self, max_searches: int = MAX_SEARCHES, hash_mb: int = ENGINE_HASH_MB,
                 egdb: Any = None) -> None:
        self.max_searches = max_searches
        self.hash_mb = hash_mb
        self.egdb = egdb
        self._idle: Dict[str, List[Engine]] = {}
        self._busy = 0
        self._lock = threading.Lock()

    @contextlib.contextmanager
    def engine(self, session: GameSession) -> Iterator[Engine]:
        """An engine for `session`'s game, registered with the session (so a change of its
        position stops the search) while it is lent; RequestError 429 when max_searches are
        running."""
        name = session.variant.name
        with self._lock:
            if self._busy >= self.max_searches:
                raise RequestError(429, f"the server is running {self._busy} searches, its "
                                        f"most at once", "a retry when one has finished")
            self._busy += 1
            idle = self._idle.get(name)
            engine = idle.pop() if idle else None
        try:
            if engine is None:
                engine = Engine(session.variant, self.hash_mb, egdb=self.egdb)
            with session.lock:
                session.engines.add(engine)
            try:
                yield engine
            finally:
                with session.lock:
                    session.engines.discard(engine)
        finally:
            with self._lock:
                self._busy -= 1
                if engine is not None:
                    kept = self._idle.setdefault(name, [])
                    if len(kept) < IDLE_ENGINES:
                        kept.append(engine)

    @property
    def busy(self) -> int:
        return self._busy
