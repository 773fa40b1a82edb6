"""A built-in engine for all five games.

    >>> import shashki
    >>> from shashki import engine
    >>> result = engine.search(shashki.Board("russian"), depth=6)
    >>> result.best_move in shashki.Board("russian").legal_moves
    True

The search itself (shashki._core.search) is iterative-deepening PVS in C with a
transposition table, quiescence over captures and the game's draw rules; this module turns a
Board into its inputs, manages time and turns the principal variation back into Moves.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import (TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Sequence,
                    Tuple, Union)

from ._core import search as _search
from .limits import MAX_DEPTH, Limit, as_int, check_hash_mb, shown
from .variants import RUSSIAN, Variant, get_variant

if TYPE_CHECKING:
    from .board import Board
    from .hubclient import HubEngine as HubEngine, HubError as HubError
    from .move import Move

__all__ = ["DEFAULT_DEPTH", "EVAL_WEIGHTS", "MAX_DEPTH", "Engine", "HubEngine", "HubError",
           "Limit", "Score", "SearchResult", "search"]

_WIN = _search.WIN_SCORE


@dataclass(frozen=True)
class Score:
    """A score from the side to move's point of view, in hundredths of a man.

    `win_in` is the number of the side to move's own moves to a forced win (negative: the
    opponent's moves to a forced loss), or None.
    """
    value: int

    @property
    def win_in(self) -> Optional[int]:
        if self.value > _WIN - _search.MAX_PLY:
            return (_WIN - self.value + 1) // 2
        if self.value < -_WIN + _search.MAX_PLY:
            return -((_WIN + self.value) // 2)
        return None

    @property
    def is_win(self) -> bool:
        w = self.win_in
        return w is not None and w > 0

    def __str__(self) -> str:
        w = self.win_in
        if w is not None:
            return f"win in {w}" if w > 0 else f"loss in {-w}"
        return f"{self.value / 100:+.2f}"


@dataclass(frozen=True)
class SearchResult:
    best_move: Optional[Move]  # a Move of the searched board, or None with no legal move
    score: Score
    pv: List[Move] = field(default_factory=list)
    depth: int = 0
    nodes: int = 0
    time: float = 0.0
    seldepth: int = 0

    @property
    def nps(self) -> float:
        return self.nodes / self.time if self.time > 0 else 0.0


#: the evaluation terms that Engine(**weights) lets a user tune; the other settings of the
#: search (the giveaway goal, the draw rules) follow from the game's rules
EVAL_WEIGHTS = ("man", "king", "advance", "back_rank", "centre")
#: a search without limits searches this deep
DEFAULT_DEPTH = 8
#: the largest evaluation a position may have: beyond it a score would read as a forced win
_MAX_EVAL = _WIN - _search.MAX_PLY - 1


def _weights(variant: Variant) -> Dict[str, Any]:
    # the game's record holds its weights; the draw rules are the board's own (the searcher
    # takes them from the board searched)
    return dict(variant.engine.weights(), reversed=variant.reversed_goal)


def _check_weights(variant: Variant, weights: Mapping[str, object]) -> Dict[str, int]:
    """The evaluation weights of `variant` with `weights` put in; ValueError for an unknown
    name, a value that is not a whole number, or weights so large that a position could
    score beyond what the search can tell from a forced win."""
    unknown = sorted(set(weights) - set(EVAL_WEIGHTS))
    if unknown:
        raise ValueError(f"unknown evaluation weight {unknown[0]!r}; expected "
                         f"{', '.join(EVAL_WEIGHTS)}")
    values: Dict[str, int] = {}
    for name, value in weights.items():
        number = as_int(value)
        if number is None:
            raise ValueError(f"evaluation weight {name} must be a whole number, "
                             f"not {shown(value)}")
        values[name] = number
    merged = {name: values.get(name, _weights(variant)[name]) for name in EVAL_WEIGHTS}
    geometry = variant.geometry
    # every square taken by a piece worth all terms at once: more than any position scores
    most = geometry.squares * (abs(merged["man"]) + abs(merged["king"])
                               + (geometry.rows - 2) * abs(merged["advance"])
                               + abs(merged["back_rank"]) + abs(merged["centre"]))
    if most > _MAX_EVAL:
        raise ValueError(f"evaluation weights {values} are too large: a position could score "
                         f"up to {shown(most)}, and scores must stay below {_MAX_EVAL}")
    return values


class Engine:
    """A search engine for one game, with its own hash table (`hash_mb` MiB) kept between
    moves.  `stop()` may be called from another thread to end a running search."""

    def __init__(self, variant: Union[str, Variant] = RUSSIAN, hash_mb: int = 32,
                 **weights: int) -> None:
        self.variant = get_variant(variant)
        check_hash_mb(hash_mb, whole=True)
        params = _weights(self.variant)
        params.update(_check_weights(self.variant, weights))
        self._searcher = _search.Searcher(self.variant.rules, hash_mb, **params)
        self._lock = threading.Lock()
        self._stopped = False

    def new_game(self) -> None:
        self._searcher.clear()

    def stop(self) -> None:
        self._stopped = True
        self._searcher.stop()

    def evaluate(self, board: Board) -> int:
        """The static evaluation of `board` from the side to move."""
        return self._searcher.evaluate(board)

    def search(self, board: Board, depth: Optional[int] = None, nodes: Optional[int] = None,
               movetime: Optional[float] = None, *, clock: Optional[float] = None,
               increment: float = 0.0, limit: Optional[Limit] = None,
               info: Optional[Callable[[SearchResult], object]] = None) -> SearchResult:
        """Search `board` and return a SearchResult.

        Limits (any combination; none given means depth DEFAULT_DEPTH): `depth` in plies,
        `nodes`, `movetime` in seconds, or `clock` (seconds left for the side to move) with
        `increment`; or all of them as one `limit` (a shashki.limits.Limit).  A time limit is
        used in full: a new iteration starts unless it cannot finish in the time left (it
        would take longer than the last one did), and the deadline stops the one running.
        `info(result)` is called after each completed iteration.
        """
        if board.variant != self.variant:
            raise ValueError(f"this engine plays {self.variant.name}, not {board.variant.name}")
        if limit is None:
            limit = Limit(depth, nodes, movetime, clock, increment)
        elif not isinstance(limit, Limit):
            raise ValueError(f"limit must be a shashki.limits.Limit, not "
                             f"{type(limit).__name__}")
        elif (depth, nodes, movetime, clock, increment) != (None, None, None, None, 0.0):
            raise ValueError("give the limits either as a Limit or as keywords, not both")
        with self._lock:
            self._stopped = False
            return self._search(board, limit, info)

    def _search(self, board: Board, limit: Limit,
                info: Optional[Callable[[SearchResult], object]]) -> SearchResult:
        start = _search.now_seconds()
        budget = limit.budget()
        depth, nodes = limit.depth, limit.nodes
        if depth is None and nodes is None and budget is None:
            depth = DEFAULT_DEPTH
        max_depth = depth or MAX_DEPTH
        deadline = start + budget if budget is not None else 0.0
        self._searcher.new_search()
        legal = list(board.legal_moves)
        if not legal:
            end = Score(_WIN if self.variant.reversed_goal else -_WIN)
            return SearchResult(None, end, [], 0, 0, 0.0, 0)
        best: Optional[SearchResult] = None
        total_nodes = 0
        for d in range(1, max_depth + 1):
            left = None if nodes is None else nodes - total_nodes
            if left is not None and left <= 0:
                break
            began = _search.now_seconds()
            score, pv, n, seldepth, completed = self._searcher.search(
                board, d, left or 0, deadline)
            total_nodes += n
            now = _search.now_seconds()
            elapsed = now - start
            if not completed and best is not None:
                best = SearchResult(best.best_move, best.score, best.pv, best.depth,
                                    total_nodes, elapsed, best.seldepth)
                break
            moves = self._pv_moves(board, pv)
            if not moves:           # stopped before any move was searched
                moves = [legal[0]]
            best = SearchResult(moves[0], Score(score), moves, d, total_nodes, elapsed, seldepth)
            if info is not None and completed:
                info(best)
            if not completed or self._stopped:
                break
            win_in = Score(score).win_in
            if win_in is not None and d > 2 * abs(win_in) + 2:
                break               # a forced result found: deeper search will not change it
            if len(legal) == 1 and depth is None:
                break               # a forced move needs no thought
            if budget is not None and deadline - now < now - began:
                break               # the next, deeper iteration takes longer: it cannot finish
        assert best is not None     # the first iteration always sets it
        return best

    @staticmethod
    def _pv_moves(board: Board, pv: Sequence[Tuple[int, int, int]]) -> List[Move]:
        moves: List[Move] = []
        replay = board.copy(stack=False)
        for origin, dest, captured in pv:
            match = [m for m in replay.legal_moves
                     if m.origin == origin and m.destination == dest
                     and m.captured_mask == captured]
            if not match:
                break
            moves.append(replay.push(match[0]))
        return moves


def search(board: Board, depth: Optional[int] = None, nodes: Optional[int] = None,
           movetime: Optional[float] = None, *, clock: Optional[float] = None,
           increment: float = 0.0, limit: Optional[Limit] = None,
           info: Optional[Callable[[SearchResult], object]] = None,
           hash_mb: int = 32) -> SearchResult:
    """Search `board` with a new Engine of its own (see Engine.search).

    Each call starts from an empty table, so its result depends on its arguments alone, not
    on earlier calls; to keep what was learnt from move to move, use one Engine.
    """
    return Engine(board.variant, hash_mb).search(board, depth, nodes, movetime, clock=clock,
                                                 increment=increment, limit=limit, info=info)


def __getattr__(name: str) -> Any:
    """HubEngine and HubError: an external engine driven through the Hub protocol (see
    shashki.hubclient), offered here beside the built-in one."""
    if name in ("HubEngine", "HubError"):
        # the Hub client imports this module (its scores are Scores): loaded on first use
        from . import hubclient
        return getattr(hubclient, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
