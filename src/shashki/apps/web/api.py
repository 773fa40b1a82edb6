"""The routes of `shashki serve`: what each request does to the games, checked field by field.

    GET  /api/variants                      the games, their boards' layout, the engine's levels
    POST /api/games                         a new game {variant, fen?, pdn?}: its state (201)
    POST /api/setup                         an edit of a set-up position {variant, fen?,
                                            clear?, turn?, square?, piece? or cycle?}: the
                                            position after it, with its status
    GET  /api/games/ID                      the state of a game
    POST /api/games/ID/move                 play {move, version?} at the cursor
    POST /api/games/ID/engine               the engine plays {limit, version?}
    POST /api/games/ID/undo                 take back {plies?, version?} before the cursor
    POST /api/games/ID/goto                 show the position after move {ply, version?}
    POST /api/games/ID/claim                claim the draw the rules allow {version?}
    GET  /api/games/ID/pdn?white=&black=    the game as a PDN file
    GET  /api/games/ID/analysis?seconds=    the engine's analysis, as server-sent events
                                            (shashki.apps.web.analysis)

A state is shashki.apps.web.views.game_state; `version` in a request refuses it (409) when the
game has changed since the page last saw it.  The set-up mode keeps nothing on the server: the
page sends the position it is setting up (its FEN) with each edit, which the board editor
(Board.set_piece_at, clear, turn) makes, and gets back views.setup_state.
"""

from __future__ import annotations

import datetime
import io
import re
import threading
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from ... import pdn
from ...board import Board
from ...engine import SearchResult
from ...errors import (IllegalMoveError, InvalidFenError, InvalidPieceError, InvalidVariantError,
                       ShashkiError)
from ...limits import Limit, shown
from ...pdn import InvalidPdnError
from ...piece import Piece
from ...variants import BLACK, COLOR_NAMES, VARIANTS, WHITE, Variant, get_variant
from ..records import pdn_game
from .analysis import Analysis
from .errors import RequestError
from .games import ID_LENGTH, EnginePool, GameSession, GameStore
from .inputs import MAX_MOVETIME, Fields, read_query
from .views import game_state, games_list, search_view, setup_state

__all__ = ["Api", "CYCLE", "Download", "EngineMove", "JsonReply", "PIECE_NAMES", "Route",
           "WATCH"]

_ID = re.compile(f"[0-9a-f]{{{ID_LENGTH}}}")
#: the longest player name a PDN download takes
MAX_NAME = 100
#: the PDN tags a download writes itself (the others of a loaded game are kept)
_OWN_TAGS = {"Event", "Site", "Date", "Round", "White", "Black", "Result", "GameType", "FEN",
             "Termination"}
#: the time of an analysis, in seconds, unless ?seconds= says otherwise (at most MAX_MOVETIME)
ANALYSIS_SECONDS = 30.0
#: seconds between two looks at whether the client of an engine move is still there
WATCH = 0.1


class JsonReply:
    """A JSON answer."""

    def __init__(self, body: Any, status: int = 200) -> None:
        self.body, self.status = body, status


class Download:
    """A file to save: its text, name and type."""

    def __init__(self, text: str, filename: str, content_type: str) -> None:
        self.text, self.filename, self.content_type = text, filename, content_type


#: what a route does: (api, game or None, JSON body or None, query) -> an answer
Route = Callable[..., Any]


class Api:
    """The routes over one GameStore (the games) and one EnginePool (the engines that search
    for them)."""

    def __init__(self, store: Optional[GameStore] = None,
                 pool: Optional[EnginePool] = None) -> None:
        self.store = store or GameStore()
        self.pool = pool or EnginePool()

    # --- dispatch ----------------------------------------------------------------------------

    def route(self, method: str, parts: Sequence[str]) -> Tuple[Route, Optional[GameSession]]:
        """The handler of `method` on the path `parts` (after /api), and its game; RequestError
        404 or 405 (with the methods allowed) when there is none."""
        if list(parts) == ["variants"]:
            return self._allow(method, {"GET": Api.variants}), None
        if list(parts) == ["games"]:
            return self._allow(method, {"POST": Api.create}), None
        if list(parts) == ["setup"]:
            return self._allow(method, {"POST": Api.setup}), None
        if len(parts) in (2, 3) and parts[0] == "games":
            action = parts[2] if len(parts) == 3 else ""
            table = _GAME_ROUTES.get(action)
            if table is None:
                raise RequestError(404, f"no route /api/games/ID/{shown(action)}",
                                   "one of " + ", ".join(f"/api/games/ID/{a}".rstrip("/")
                                                         for a in _GAME_ROUTES))
            handler = self._allow(method, table)
            if not _ID.fullmatch(parts[1]):
                raise RequestError(404, f"{shown(parts[1])} is not a game id",
                                   f"an id of {ID_LENGTH} hex digits, from POST /api/games")
            return handler, self.store.get(parts[1])
        raise RequestError(404, "no route /api/" + "/".join(parts),
                           "/api/variants, /api/games, /api/setup or /api/games/ID/...")

    @staticmethod
    def _allow(method: str, table: Mapping[str, Route]) -> Route:
        handler = table.get(method)
        if handler is None:
            raise RequestError(405, f"{method} is not allowed here",
                               " or ".join(sorted(table)))
        return handler

    # --- the games -----------------------------------------------------------------------------

    def variants(self, game: None, body: None, query: Mapping[str, List[str]]) -> JsonReply:
        read_query(query, ())
        return JsonReply(games_list())

    def create(self, game: None, body: Dict[str, Any],
               query: Mapping[str, List[str]]) -> JsonReply:
        read_query(query, ())
        fields = Fields(body, ("variant", "fen", "pdn"))
        variant = _variant(fields.text("variant", limit=100))
        fen, text = fields.text("fen"), fields.text("pdn")
        if fen is not None and text is not None:
            raise RequestError(400, "both fen and pdn are given", "one of fen and pdn")
        headers: Dict[str, str] = {}
        if text is not None:
            record = _read_pdn(text, variant.name)
            start, moves = record.board(0), list(record.moves)
            headers = {k: v for k, v in record.headers.items() if k not in _OWN_TAGS or
                       k in ("White", "Black", "Event")}
        else:
            try:
                start, moves = Board(variant, fen=fen), []
            except InvalidFenError as error:
                raise RequestError(400, str(error), f"a FEN of {variant.name}, such as "
                                                    f"{variant.start_fen}") from None
        session = self.store.create(start, moves, headers)
        with session.lock:
            return JsonReply(game_state(session), 201)

    def setup(self, game: None, body: Dict[str, Any],
              query: Mapping[str, List[str]]) -> JsonReply:
        """An edit of a position being set up: `fen` (default: the game's start), then
        `clear` (take every piece off, the game's first side to move), then `turn`, then on
        `square` either `piece` (one of PIECE_NAMES, or "empty") or `cycle` (the next piece of
        CYCLE that the square can hold).  Each is optional; with none, the position as it is.
        Answers its set-up state (views.setup_state), or 400 saying what was wrong."""
        read_query(query, ())
        fields = Fields(body, ("variant", "fen", "clear", "turn", "square", "piece", "cycle"))
        variant = _variant(fields.text("variant", limit=100))
        fen = fields.text("fen")
        try:
            board = Board(variant) if fen is None else Board(variant, fen=fen)
        except InvalidFenError as error:
            raise RequestError(400, str(error), f"a FEN of {variant.name}, such as "
                                                f"{variant.start_fen}") from None
        if fields.flag("clear"):
            board.clear()
        turn = fields.choice("turn", COLOR_NAMES)
        if turn is not None:
            board.turn = COLOR_NAMES.index(turn)
        square = fields.whole("square", 0, variant.geometry.squares - 1)
        piece = fields.choice("piece", PIECE_NAMES + ("empty",))
        cycle = fields.flag("cycle")
        if (piece is not None or cycle) != (square is not None) or (piece is not None and cycle):
            raise RequestError(400, "an edit of a square takes the square and one of piece "
                                    "and cycle", "square with piece, or square with cycle: "
                                                 "true, or neither")
        if square is not None:
            try:
                if cycle:
                    _cycle(board, square)
                else:
                    board.set_piece_at(square, _PIECES.get(piece or ""))
            except InvalidPieceError as error:
                raise RequestError(400, str(error), "a piece the square can hold (a man "
                                                    "stands off its crowning row; a side has "
                                                    f"at most {variant.geometry.max_pieces})"
                                   ) from None
        return JsonReply(setup_state(board))

    def state(self, game: GameSession, body: None,
              query: Mapping[str, List[str]]) -> JsonReply:
        read_query(query, ())
        with game.lock:
            return JsonReply(game_state(game))

    def move(self, game: GameSession, body: Dict[str, Any],
             query: Mapping[str, List[str]]) -> JsonReply:
        fields = _fields(body, query, "move")
        text = fields.text("move", required=True, limit=1000)
        assert text is not None
        with game.lock:
            game.check_version(fields.version())
            board = game.board()
            outcome = game.outcome(board)
            if outcome is not None:
                raise RequestError(409, f"the game is over: {outcome.result()}",
                                   "a take-back, or a new game")
            try:
                move = board.parse_move(text)
            except IllegalMoveError as error:
                legal = " ".join(str(m) for m in error.alternatives or board.legal_moves)
                raise RequestError(400, str(error), f"a legal move: {legal}") from None
            except ShashkiError as error:
                raise RequestError(400, str(error), "a move in the game's notation, e.g. " +
                                   str(next(iter(board.legal_moves)))) from None
            game.play(move)
            return JsonReply(game_state(game))

    def undo(self, game: GameSession, body: Dict[str, Any],
             query: Mapping[str, List[str]]) -> JsonReply:
        fields = _fields(body, query, "plies")
        with game.lock:
            game.check_version(fields.version())
            if not game.ply:
                raise RequestError(409, "there is no move to take back",
                                   "a take-back after a move")
            plies = fields.whole("plies", 1, game.ply, 1)
            assert plies is not None
            game.take_back(plies)
            return JsonReply(game_state(game))

    def goto(self, game: GameSession, body: Dict[str, Any],
             query: Mapping[str, List[str]]) -> JsonReply:
        fields = _fields(body, query, "ply")
        with game.lock:
            game.check_version(fields.version())
            ply = fields.whole("ply", 0, len(game.moves), required=True)
            assert ply is not None
            game.go_to(ply)
            return JsonReply(game_state(game))

    def claim(self, game: GameSession, body: Dict[str, Any],
              query: Mapping[str, List[str]]) -> JsonReply:
        fields = _fields(body, query)
        with game.lock:
            game.check_version(fields.version())
            board = game.board()
            claimed = board.outcome(claim_draw=True)
            if game.outcome(board) is not None or not board.can_claim_draw() or claimed is None:
                raise RequestError(409, "there is no draw to claim here",
                                   "a claim where the game's rules allow one (english: "
                                   "threefold repetition, 40 moves without progress)")
            game.claim_draw(claimed)
            return JsonReply(game_state(game))

    def engine(self, game: GameSession, body: Dict[str, Any],
               query: Mapping[str, List[str]]) -> EngineMove:
        fields = _fields(body, query, "limit")
        return EngineMove(self.pool, game, fields.limit("limit"), fields.version())

    def download(self, game: GameSession, body: None,
                 query: Mapping[str, List[str]]) -> Download:
        names = read_query(query, ("white", "black"))
        for key, value in names.items():
            if len(value) > MAX_NAME or not value.isprintable():
                raise RequestError(400, f"{key} is not a player's name: {shown(value)}",
                                   f"{key}: printable text of at most {MAX_NAME} characters")
        with game.lock:
            board = game.board(len(game.moves))
            outcome = game.claimed or board.outcome()
            headers = dict(game.headers)
        extra = {k: v for k, v in headers.items() if k not in _OWN_TAGS}
        record = pdn_game(board, event=headers.get("Event", "shashki serve"),
                          white=names.get("white", headers.get("White", "?")),
                          black=names.get("black", headers.get("Black", "?")),
                          result="*" if outcome is None else outcome.result(),
                          termination=None if outcome is None else outcome.termination.value,
                          extra=extra)
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        return Download(str(record) + "\n", f"shashki-{game.variant.name}-{stamp}.pdn",
                        "application/x-chess-pdn; charset=utf-8")

    def analysis(self, game: GameSession, body: None,
                 query: Mapping[str, List[str]]) -> Analysis:
        seconds = _seconds(read_query(query, ("seconds",)).get("seconds"))
        return Analysis(game, self.pool, seconds)


class EngineMove:
    """The engine's move in `game` within `limit`, searched and played by run(gone); `gone`
    says whether the client that asked has gone away, and is asked every WATCH seconds while
    the engine searches: the search is stopped then, its move dropped (nobody would see it,
    and the engine is free for the next search at once)."""

    def __init__(self, pool: EnginePool, game: GameSession, limit: Limit,
                 version: Optional[int]) -> None:
        self.pool, self.game, self.limit, self.version = pool, game, limit, version

    def run(self, gone: Callable[[], bool]) -> JsonReply:
        """The game's state after the engine's move; RequestError 409 when the game changed
        meanwhile, ConnectionAbortedError when the client went away."""
        game = self.game
        board, version = self._begin()
        try:
            result = self._search(board, version, gone)
        finally:
            with game.lock:
                game.thinking = False
        return self._play(board, version, result)

    def _begin(self) -> Tuple[Board, int]:
        """The position to search and its version; the game is marked thinking."""
        game = self.game
        with game.lock:
            game.check_version(self.version)
            if game.thinking:
                raise RequestError(409, "the engine is already thinking in this game",
                                   "one engine move at a time")
            board = game.board()
            if game.outcome(board) is not None:
                raise RequestError(409, "the game is over", "a take-back, or a new game")
            game.thinking = True
            return board, game.version

    def _search(self, board: Board, version: int, gone: Callable[[], bool]) -> SearchResult:
        game = self.game
        finished, abandoned = threading.Event(), threading.Event()
        with self.pool.engine(game) as engine:
            def watch() -> None:
                # (stopped again at each look: a stop may come before the search begins)
                while not finished.wait(WATCH):
                    if abandoned.is_set() or gone():
                        abandoned.set()
                        engine.stop()

            def stale(_: object) -> None:
                # a change that came before the search began has no search to stop yet
                if game.version != version:
                    engine.stop()
            watcher = threading.Thread(target=watch, name="shashki-engine-watch", daemon=True)
            watcher.start()
            try:
                result = engine.search(board, limit=self.limit, info=stale)
            finally:
                finished.set()
                watcher.join()
        if abandoned.is_set():
            raise ConnectionAbortedError("the client went away during the engine's search")
        return result

    def _play(self, board: Board, version: int, result: SearchResult) -> JsonReply:
        game = self.game
        with game.lock:
            if game.version != version:
                raise RequestError(409, "the game changed while the engine was thinking; its "
                                        "move was dropped", "an engine move for the position "
                                                            "now shown")
            if board.can_claim_draw() and result.score.value <= 0:
                # where draws are claimed, the engine claims one unless it expects to win
                # (as in shashki play)
                claimed = board.outcome(claim_draw=True)
                assert claimed is not None
                game.claim_draw(claimed)
            else:
                assert result.best_move is not None     # the game is not over
                game.play(result.best_move)
            state = game_state(game)
        state["search"] = search_view(result, board.turn)
        return JsonReply(state)


#: the pieces a set-up puts on a square, by the names the page sends (str of the Piece)
_PIECES: Dict[str, Piece] = {str(p): p for p in (Piece(WHITE), Piece(WHITE, True),
                                                  Piece(BLACK), Piece(BLACK, True))}
PIECE_NAMES = tuple(_PIECES)
#: what a click on a square of the set-up board puts there, in turn: nothing, then each piece
CYCLE: Tuple[Optional[Piece], ...] = (None,) + tuple(_PIECES.values())


def _cycle(board: Board, square: int) -> None:
    """Put on `square` the piece after the one there in CYCLE that the board editor takes
    (a man is passed over on its crowning row, a side's pieces once it has as many as it
    may); the empty square is always taken, so the cycle always ends."""
    now = CYCLE.index(board.piece_at(square))
    for step in range(1, len(CYCLE)):
        try:
            board.set_piece_at(square, CYCLE[(now + step) % len(CYCLE)])
            return
        except InvalidPieceError:
            continue


def _variant(name: Optional[str]) -> Variant:
    """The game a request names (default: the first of VARIANTS); RequestError 400 for an
    unknown one."""
    try:
        return get_variant(name or VARIANTS[0].name)
    except InvalidVariantError as error:
        raise RequestError(400, str(error), "variant: one of " +
                           ", ".join(v.name for v in VARIANTS)) from None


def _fields(body: Dict[str, Any], query: Mapping[str, List[str]], *names: str) -> Fields:
    """The fields of a change's body: `names` and `version` (the game's version the page last
    saw, checked under the game's lock with GameSession.check_version); no query."""
    read_query(query, ())
    return Fields(body, names + ("version",))


def _seconds(text: Optional[str]) -> float:
    """The analysis's time: ?seconds=, more than 0 and at most MAX_MOVETIME."""
    if text is None:
        return ANALYSIS_SECONDS
    try:
        seconds = float(text)
    except ValueError:
        seconds = float("nan")
    if not 0 < seconds <= MAX_MOVETIME:             # NaN fails too
        raise RequestError(400, f"seconds is {shown(text)}",
                           f"seconds: a number more than 0 and at most {MAX_MOVETIME:g}")
    return seconds


def _read_pdn(text: str, variant: str) -> pdn.Game:
    """The first game of a PDN text; a game without a GameType or Variant tag is read as
    `variant`, the game the page has chosen."""
    try:
        # the tags first (a lenient read never raises), then the game by them or by `variant`
        tags = pdn.read_game(io.StringIO(text), strict=False)
        named = tags is not None and {"GameType", "Variant"} & set(tags.headers)
        record = pdn.read_game(io.StringIO(text), variant=None if named else variant)
    except InvalidPdnError as error:
        raise RequestError(400, str(error), "a PDN game: [Tags \"...\"] and numbered "
                                            "moves in the game's notation") from None
    if record is None:
        raise RequestError(400, "the PDN text holds no game", "a PDN game")
    return record


_GAME_ROUTES: Dict[str, Dict[str, Route]] = {
    "": {"GET": Api.state}, "move": {"POST": Api.move}, "engine": {"POST": Api.engine},
    "undo": {"POST": Api.undo}, "goto": {"POST": Api.goto}, "claim": {"POST": Api.claim},
    "pdn": {"GET": Api.download}, "analysis": {"GET": Api.analysis},
}
