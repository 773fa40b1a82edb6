"""A built-in engine for every game of shashki.VARIANTS.

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

import dataclasses
import threading
from dataclasses import dataclass, field
from typing import (TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Sequence,
                    Tuple, Union)

from ._core import search as _search
from ._core.game import Game
from .errors import InvalidLimitError, InvalidOptionError, InvalidVariantError
from .limits import (MAX_DEPTH, MAX_PLY, SEARCH_OPTIONS, Limit, as_int, check_hash_mb,
                     check_threads, shown)
from .egdb import for_engine as egdb_tables
from .variants import RUSSIAN, Variant, get_variant
from .weights import SCALAR_TERMS, WeightsError, check_weight
from .weights import load as load_weights

if TYPE_CHECKING:
    from .board import Board
    from .move import Move
    from .outcome import Outcome

__all__ = ["DEFAULT_DEPTH", "EVAL_WEIGHTS", "MAX_DEPTH", "SEARCH_OPTIONS", "Engine", "Limit",
           "Score", "SearchResult", "search"]

_WIN = _search.WIN_SCORE


@dataclass(frozen=True)
class Score:
    """A score from the side to move's point of view.

    `value` is in hundredths of a man (centi-men): +100 is a man ahead, -1 a hundredth of a
    man behind; str() shows it in men (``-0.01``).  Beyond ±(search.WIN_SCORE -
    search.MAX_PLY) it is a forced result: `win_in` is the number of the side to move's own
    moves to a forced win (negative: the opponent's moves to a forced loss), or None; `egdb`
    is 1 or -1 for a win or loss the endgame databases hold.

    >>> Score(-1)
    <Score -0.01 men (value=-1 centi-men)>
    """
    #: hundredths of a man (centi-men), from the side to move's point of view
    value: int

    @property
    def win_in(self) -> Optional[int]:
        if self.value > _WIN - MAX_PLY:
            return (_WIN - self.value + 1) // 2
        if self.value < -_WIN + MAX_PLY:
            return -((_WIN + self.value) // 2)
        return None

    @property
    def is_win(self) -> bool:
        w = self.win_in
        # (win_in 0: the game is over, won or lost already)
        return w is not None and (w > 0 or (w == 0 and self.value > 0))

    @property
    def egdb(self) -> Optional[int]:
        """1 (-1) when the score is a win (loss) that the endgame databases hold, else
        None."""
        if self.win_in is None and abs(self.value) > _search.EGDB_BOUND:
            return 1 if self.value > 0 else -1
        return None

    def __str__(self) -> str:
        w = self.win_in
        if w == 0:
            return "won" if self.value > 0 else "lost"     # a finished game
        if w is not None:
            return f"win in {w}" if w > 0 else f"loss in {-w}"
        if self.egdb is not None:
            return "egdb win" if self.egdb > 0 else "egdb loss"
        return f"{self.value / 100:+.2f}"

    def __repr__(self) -> str:
        # the unit said with the number: a bare Score(value=-1) read as anything
        if self.win_in is not None or self.egdb is not None:
            return f"<Score {self} (value={self.value})>"
        return f"<Score {self} men (value={self.value} centi-men)>"


@dataclass(frozen=True)
class SearchResult:
    """What a search found.  `outcome` is ``board.outcome()``: None while the game goes on.
    A game won or lost (the side to move has no legal move, or no piece, as ``W:Wa1:B``, or
    a king was crowned in breakthrough) is not searched: `best_move` is None and `score` the
    result for the side to move ("won" or "lost").  A game drawn by a rule of the game still
    has legal moves, which a GUI may want played (the Hub engine plays on): it is searched
    as usual, with the draw in `outcome`."""
    best_move: Optional[Move]  # a Move of the searched board, or None: the game is over
    score: Score
    pv: List[Move] = field(default_factory=list)
    depth: int = 0
    nodes: int = 0
    time: float = 0.0
    seldepth: int = 0
    #: board.outcome() of the searched board (None: the game goes on)
    outcome: Optional[Outcome] = None

    @property
    def nps(self) -> float:
        return self.nodes / self.time if self.time > 0 else 0.0


#: the evaluation terms that Engine(**weights) sets, both phases at once (the square tables and
#: separate middlegame and endgame weights come from a weights file: shashki.weights)
EVAL_WEIGHTS = SCALAR_TERMS
#: a search without limits searches this deep
DEFAULT_DEPTH = 8
#: the largest value of a search option
MAX_OPTION = 10_000


def _check_weights(weights: Mapping[str, object]) -> Dict[str, int]:
    """`weights` checked: ValueError for an unknown name, a value that is not a whole number,
    or one too large."""
    unknown = sorted(set(weights) - set(EVAL_WEIGHTS))
    if unknown:
        raise WeightsError(f"unknown evaluation weight {unknown[0]!r}; expected "
                           f"{', '.join(EVAL_WEIGHTS)}")
    values: Dict[str, int] = {}
    for name, value in weights.items():
        values[name] = check_weight(name, value)
    return values


def _check_options(options: Optional[Mapping[str, object]]) -> Dict[str, int]:
    values: Dict[str, int] = {}
    for name, value in (options or {}).items():
        if name not in SEARCH_OPTIONS:
            raise InvalidOptionError(f"unknown search option {name!r}; expected one of "
                             f"{', '.join(SEARCH_OPTIONS)}")
        number = as_int(value)
        if number is None or not 0 <= number <= MAX_OPTION:
            raise InvalidOptionError(f"search option {name} must be a whole number from 0 to "
                             f"{MAX_OPTION}, not {shown(value)}")
        values[name] = number
    return values


class Engine:
    """A search engine for one game, with its own hash table (`hash_mb` MiB) kept between
    moves.  `stop()` may be called from another thread to end a running search.

    `evaluation`: the weights (see shashki.weights.load: None for the game's own, "classic",
    a JSON file, Weights); `**weights` then set single terms (EVAL_WEIGHTS).  `options`
    switches parts of the search (SEARCH_OPTIONS), to measure what each is worth.  `egdb`:
    the endgame databases to probe (a shashki.egdb.Databases, a folder, or None for the
    default folder when it holds this game's; False for none).

    `threads`: searches with a time limit run on that many threads (lazy SMP: every thread
    searches the position, helpers a ply ahead every other one, and they share what they
    find through the hash table).  A search bounded by depth or nodes alone runs on one
    thread, so that its result stays reproducible.
    """

    def __init__(self, variant: Union[str, Variant] = RUSSIAN.name, hash_mb: int = 32, *,
                 evaluation: Any = None, options: Optional[Mapping[str, object]] = None,
                 egdb: Any = None, threads: int = 1, **weights: int) -> None:
        self.variant = get_variant(variant)
        check_hash_mb(hash_mb, whole=True)
        check_threads(threads)
        chosen = load_weights(evaluation, self.variant)
        if weights:
            chosen = chosen.replace(**_check_weights(weights))
        self.weights = chosen
        self._searcher = _search.Searcher(Game.of(self.variant), hash_mb, weights=chosen.flat(),
                                          options=_check_options(options))
        self.egdb = _attach_egdb(self._searcher, self.variant, egdb)
        self._helpers = [self._searcher.helper() for _ in range(int(threads) - 1)]
        self._lock = threading.Lock()
        self._stopped = False
        self._pondering = False         # a ponder search waits for ponder_hit()
        self._prepared = False          # prepare_ponder() was called for the next search
        self._hit: Optional[Limit] = None
        self._ponder_done = threading.Event()
        self._plan_lock = threading.Lock()
        self._plan: List[float] = [0.0, 0.0, 0.0]   # start, soft and hard limit (seconds)

    @property
    def options(self) -> Dict[str, int]:
        """The search options in force."""
        return dict(self._searcher.options())

    @property
    def threads(self) -> int:
        """The threads a search with a time limit runs on."""
        return 1 + len(self._helpers)

    def new_game(self) -> None:
        self._searcher.clear()
        for helper in self._helpers:
            helper.clear()

    def stop(self) -> None:
        self._stopped = True
        self._ponder_done.set()
        self._searcher.stop()
        for helper in self._helpers:
            helper.halt()

    def prepare_ponder(self) -> None:
        """Make the next `search(..., ponder=True)` a ponder search now, so that a
        ponder_hit() arriving before that search has begun (from another thread) is not
        lost."""
        with self._plan_lock:
            self._pondering = True
            self._prepared = True
            self._hit = None
            self._ponder_done.clear()

    def ponder_hit(self, limit: Limit) -> None:
        """The move a `search(..., ponder=True)` was pondering on has been played: the ponder
        search now has `limit`'s time, counted from when it began (time spent pondering is
        time spent thinking), and answers when it is over."""
        soft, hard = _time_plan(limit)
        with self._plan_lock:
            self._hit = limit
            self._pondering = False
            if hard is not None:
                self._plan[1:] = [soft if soft is not None else hard, hard]
                self._searcher.set_deadline(self._plan[0] + hard)
                for helper in self._helpers:
                    helper.set_deadline(self._plan[0] + hard)
            self._ponder_done.set()

    def evaluate(self, board: Board) -> int:
        """The static evaluation of `board` from the side to move."""
        return int(self._searcher.evaluate(board))

    @property
    def egdb_hits(self) -> int:
        """Positions of the last search found in the endgame databases."""
        return int(self._searcher.egdb_hits)

    def features(self, board: Board) -> Tuple[List[int], int]:
        """(the value of each evaluation term at `board`, from the side to move, in the order
        of shashki.weights.FEATURE_NAMES; the phase, the number of pieces up to max_phase):
        what the tuner fits the weights to."""
        values, phase = self._searcher.features(board)
        return list(values), int(phase)

    @property
    def max_phase(self) -> int:
        """The phase of the start position: the evaluation's middlegame weights count fully
        there, the endgame ones with no piece left."""
        return int(self._searcher.max_phase)

    def search(self, board: Board, depth: Optional[int] = None, nodes: Optional[int] = None,
               movetime: Optional[float] = None, *, clock: Optional[float] = None,
               increment: float = 0.0, limit: Optional[Limit] = None,
               info: Optional[Callable[[SearchResult], object]] = None,
               ponder: bool = False) -> SearchResult:
        """Search `board` and return a SearchResult.

        Limits (any combination; none given means depth DEFAULT_DEPTH): `depth` in plies,
        `nodes`, `movetime` in seconds, or `clock` (seconds left for the side to move) with
        `increment`; or all of them as one `limit` (a shashki.limits.Limit).  A movetime is
        used in full: iterations go on until the deadline, and the move that a cut-short
        iteration has found better than the last one's is played.  A clock gives a target
        time (time_budget) that the search stretches when its best move changes or its score
        drops, up to three times, and shortens when the move stays the same.  `info(result)`
        is called after each completed iteration.  With `ponder`, the time limits wait for
        ponder_hit() (or stop()); until then the search goes on, and waits at its end.
        """
        if board.variant != self.variant:
            raise InvalidVariantError(f"this engine plays {self.variant.name}, not "
                                      f"{board.variant.name}")
        if limit is None:
            limit = Limit(depth, nodes, movetime, clock, increment)
        elif not isinstance(limit, Limit):
            raise InvalidLimitError(f"limit must be a shashki.limits.Limit, not "
                             f"{type(limit).__name__}")
        elif (depth, nodes, movetime, clock, increment) != (None, None, None, None, 0.0):
            raise InvalidLimitError("give the limits either as a Limit or as keywords, not "
                                    "both")
        with self._lock:
            self._stopped = False
            if not ponder:
                self._pondering = False
            elif not self._prepared:
                self.prepare_ponder()
            self._prepared = False
            try:
                result = self._search(board, limit, info, ponder)
                if ponder and not self._stopped:
                    self._ponder_done.wait()    # a ponder search answers after ponder_hit()
            finally:
                self._pondering = False
            return result

    def _search(self, board: Board, limit: Limit,
                info: Optional[Callable[[SearchResult], object]],
                ponder: bool = False) -> SearchResult:
        start = _search.now_seconds()
        depth, nodes = limit.depth, limit.nodes
        with self._plan_lock:
            if ponder:
                # no time limit until ponder_hit(), which may already have come
                soft, hard = _time_plan(self._hit) if self._hit is not None else (None, None)
            else:
                soft, hard = _time_plan(limit)
                if depth is None and nodes is None and hard is None:
                    depth = DEFAULT_DEPTH
            self._plan = [start, soft or 0.0, hard or 0.0]
        max_depth = depth or MAX_DEPTH
        self._searcher.new_search()
        for helper in self._helpers:
            helper.new_search()
        legal = list(board.legal_moves)
        outcome = board.outcome()
        if (outcome is not None and outcome.winner is not None) or not legal:
            # the game is won or lost: no move, and its result (issue 30.17: W:Wa1:B, Black
            # without a piece, got a move and "win in 1")
            if outcome is None or outcome.winner is None:   # (outcome() says so first)
                end = Score(_WIN if self.variant.reversed_goal else -_WIN)
            else:
                end = Score(_WIN if outcome.winner == board.turn else -_WIN)
            return SearchResult(None, end, [], 0, 0, 0.0, 0, outcome)
        timed = nodes is None and (hard is not None or ponder)
        helping = self._start_helpers(board, max_depth) if timed else []
        try:
            best = self._iterate(board, legal, max_depth, depth, nodes, start, info)
        finally:
            helper_nodes = self._stop_helpers(helping)
        if helper_nodes:
            best = dataclasses.replace(best, nodes=best.nodes + helper_nodes)
        return best if outcome is None else dataclasses.replace(best, outcome=outcome)

    def _iterate(self, board: Board, legal: List[Move], max_depth: int, depth: Optional[int],
                 nodes: Optional[int], start: float,
                 info: Optional[Callable[[SearchResult], object]]) -> SearchResult:
        """Iterative deepening on this thread: the result of the last iteration (or of the
        move a cut-short one found better)."""
        best: Optional[SearchResult] = None
        total_nodes = 0
        prev_score: Optional[int] = None
        stable = 0
        for d in range(1, max_depth + 1):
            left = None if nodes is None else nodes - total_nodes
            if left is not None and left <= 0:
                break
            deadline = start + self._plan[2] if self._plan[2] else 0.0
            score, pv, n, seldepth, completed = self._searcher.search(
                board, d, left or 0, deadline)
            total_nodes += n
            now = _search.now_seconds()
            elapsed = now - start
            if not completed and best is not None:
                moves = pv
                if moves and moves[0] != best.best_move:
                    # a move of the cut-short iteration searched in full, better than the
                    # last iteration's
                    best = SearchResult(moves[0], Score(score), moves, best.depth,
                                        total_nodes, elapsed, max(seldepth, best.seldepth))
                else:
                    best = SearchResult(best.best_move, best.score, best.pv, best.depth,
                                        total_nodes, elapsed, best.seldepth)
                break
            moves = pv
            if not moves:           # stopped before any move was searched
                moves = [legal[0]]
            changed = best is not None and moves[0] != best.best_move
            dropped = prev_score is not None and score < prev_score - 30
            stable = 0 if changed or best is None else stable + 1
            best = SearchResult(moves[0], Score(score), moves, d, total_nodes, elapsed, seldepth)
            prev_score = score
            if info is not None and completed:
                info(best)
            if not completed or self._stopped:
                break
            win_in = Score(score).win_in
            if win_in is not None and d > 2 * abs(win_in) + 2:
                break               # a forced result found: deeper search will not change it
            if len(legal) == 1 and depth is None and not self._pondering:
                break               # a forced move needs no thought
            _, soft_now, hard_now = self._plan
            if soft_now and soft_now < hard_now:
                # a clock: stretch the target when the move changed or the score dropped,
                # shorten it when the move has stayed the same a while
                factor = (1.6 if changed else 1.0) * (1.5 if dropped else 1.0) * \
                    (0.7 if stable >= 4 else 1.0)
                if elapsed >= min(soft_now * factor, hard_now) * 0.6:
                    break           # the next iteration would most likely not finish in time
        assert best is not None     # the first iteration always sets it
        return best

    def _start_helpers(self, board: Board, max_depth: int) -> List[Tuple[threading.Thread,
                                                                           List[int]]]:
        """Start each helper's iterative deepening of `board` on a thread of its own; the
        threads with the node count each keeps."""
        started = []
        for index, helper in enumerate(self._helpers, 1):
            helper.resume()
            counted = [0]
            thread = threading.Thread(target=self._help, name=f"shashki-helper-{index}",
                                      args=(helper, board, 1 + index % 2, max_depth, counted),
                                      daemon=True)
            thread.start()
            started.append((thread, counted))
        return started

    def _help(self, helper: Any, board: Board, first: int, max_depth: int,
              counted: List[int]) -> None:
        # a helper's iterations, to the deadline of the plan (which a ponder_hit may set)
        # or until halted; odd helpers go a ply ahead, so the threads do not keep step
        for d in range(first, max_depth + 1):
            start, _, hard = self._plan
            deadline = start + hard if hard else 0.0
            _, _, n, _, completed = helper.search(board, d, 0, deadline)
            counted[0] += n
            if not completed:
                break

    def _stop_helpers(self, started: List[Tuple[threading.Thread, List[int]]]) -> int:
        """Halt the helpers, wait for their threads; the nodes they searched."""
        for helper in self._helpers[:len(started)]:
            helper.halt()
        for thread, _ in started:
            thread.join()
        return sum(counted[0] for _, counted in started)


def _time_plan(limit: Limit) -> Tuple[Optional[float], Optional[float]]:
    """(target, hard limit) in seconds for `limit`: a movetime is both; a clock's target is
    its time_budget, which may be stretched up to three times, never past a quarter of the
    clock (the movetime still caps both); (None, None) without a time limit."""
    budget = limit.budget()
    if budget is None:
        return None, None
    if limit.clock is None:
        return budget, budget
    hard = max(budget, min(3 * budget, 0.25 * limit.clock + limit.increment))
    if limit.movetime is not None:
        hard = min(hard, limit.movetime)
    return budget, hard


def _attach_egdb(searcher: Any, variant: Variant, egdb: Any) -> Any:
    """The endgame databases the searcher probes (see Engine), or None."""
    if egdb is False:
        return None
    databases = egdb_tables(variant, egdb)
    if databases is not None:
        searcher.set_egdb(databases.c_tables)
    return databases


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
