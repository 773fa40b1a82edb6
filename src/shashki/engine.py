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
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from ._core import search as _search
from .variants import Variant, get_variant

if TYPE_CHECKING:
    from .board import Board
    from .move import Move

MAX_DEPTH = _search.MAX_PLY - 11
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


def _weights(variant: Variant) -> Dict[str, Any]:
    flying = variant.flying_kings
    # the draw rules are the board's own (the searcher takes them from the board searched)
    return dict(man=100, king=300 if flying else 150, advance=3 if flying else 4,
                back_rank=6, centre=4, reversed=variant.reversed_goal)


class Engine:
    """A search engine for one game, with its own hash table (`hash_mb` MiB) kept between
    moves.  `stop()` may be called from another thread to end a running search."""

    def __init__(self, variant: Union[str, Variant] = "russian", hash_mb: int = 32,
                 **weights: int) -> None:
        self.variant = get_variant(variant)
        params = _weights(self.variant)
        params.update(weights)
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
               increment: float = 0.0,
               info: Optional[Callable[[SearchResult], object]] = None) -> SearchResult:
        """Search `board` and return a SearchResult.

        Limits (any combination; none given means depth 8): `depth` in plies, `nodes`,
        `movetime` in seconds, or `clock` (seconds left for the side to move) with
        `increment`.  `info(result)` is called after each completed iteration.
        """
        if board.variant != self.variant:
            raise ValueError(f"this engine plays {self.variant.name}, not {board.variant.name}")
        if depth is not None and not (isinstance(depth, int) and 1 <= depth <= MAX_DEPTH):
            raise ValueError(f"depth must be an int from 1 to {MAX_DEPTH}, not {depth!r}")
        if nodes is not None and not (isinstance(nodes, int) and nodes > 0):
            raise ValueError(f"nodes must be a positive int, not {nodes!r}")
        for name, value in (("movetime", movetime), ("clock", clock)):
            if value is not None and not value > 0:
                raise ValueError(f"{name} must be a positive number of seconds, not {value!r}")
        with self._lock:
            self._stopped = False
            return self._search(board, depth, nodes, movetime, clock, increment, info)

    def _search(self, board: Board, depth: Optional[int], nodes: Optional[int],
                movetime: Optional[float], clock: Optional[float], increment: float,
                info: Optional[Callable[[SearchResult], object]]) -> SearchResult:
        start = _search.now_seconds()
        budget = movetime
        if clock is not None:
            # a fortieth of the clock plus most of the increment, never more than half of it
            budget = min(clock / 40 + 0.8 * increment, clock / 2)
            if movetime is not None:
                budget = min(budget, movetime)
        if depth is None and nodes is None and budget is None:
            depth = 8
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
            score, pv, n, seldepth, completed = self._searcher.search(
                board, d, left or 0, deadline)
            total_nodes += n
            elapsed = _search.now_seconds() - start
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
            if budget is not None and elapsed > 0.45 * budget:
                break               # the next iteration would not finish in time
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


_engines: Dict[Tuple[str, int], Engine] = {}


def search(board: Board, depth: Optional[int] = None, nodes: Optional[int] = None,
           movetime: Optional[float] = None, *, clock: Optional[float] = None,
           increment: float = 0.0, info: Optional[Callable[[SearchResult], object]] = None,
           hash_mb: int = 32) -> SearchResult:
    """Search `board` with a shared engine for its game; see Engine.search."""
    key = (board.variant.name, hash_mb)
    engine = _engines.get(key)
    if engine is None:
        engine = _engines[key] = Engine(board.variant, hash_mb)
    return engine.search(board, depth, nodes, movetime, clock=clock, increment=increment,
                         info=info)
