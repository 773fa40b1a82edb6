"""The strength-testing harness: engine A against engine B from the opening tables, colours
swapped, several games at once, stopped by a sequential probability ratio test.

    >>> from shashki.apps.harness import SPRT, Tally
    >>> tally = Tally()
    >>> for points in [2, 1.5, 1, 1, 0.5, 1.5, 1, 2]:   # A's points in 8 micro-matches
    ...     tally.add_pair(points)
    >>> round(tally.score(), 4), tally.pentanomial
    (0.6562, [0, 1, 3, 2, 2])
    >>> sprt = SPRT(elo0=0, elo1=10)
    >>> [round(b, 3) for b in sprt.bounds()]
    [-2.944, 2.944]
    >>> round(sprt.llr(tally), 3)
    0.227

The test is the generalized SPRT of fishtest and cutechess (Michel Van den Bergh's
approximation): H0 says A is `elo0` stronger than B, H1 says `elo1` (logistic Elo, 400 points
for 10:1 odds); after each result the log-likelihood ratio of the two is compared with the
bounds log(beta / (1 - alpha)) and log((1 - beta) / alpha), and the match stops when it
leaves them.  The likelihoods are those of the best-fitting distribution of results with the
hypothesised expected score, over the pentanomial outcomes of game pairs (0, 1/2, 1, 3/2 or
2 points from the two games of one opening; the default, since the games of a pair are not
independent) or the trinomial outcomes of single games.  The Elo difference is given with
its 95% confidence interval from the same model.

`run()` plays the pairs in worker processes (`concurrency` of them), each with its own two
players, and reports each finished pair; `shashki match --sprt ELO0,ELO1 --concurrency N`
uses it.
"""

from __future__ import annotations

import math
import multiprocessing
import os
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from ..errors import ShashkiError
from ..variants import get_variant
from .games import play_record
from .players import EngineSpec, PlayerStats, make_player, player_name

__all__ = ["HarnessError", "PairResult", "SPRT", "Tally", "elo_of", "run", "score_of"]

#: A's points in one game pair, by index of the pentanomial outcome
PAIR_POINTS = (0.0, 0.5, 1.0, 1.5, 2.0)


class HarnessError(ShashkiError):
    """Settings of the harness that cannot be used (bounds, error rates, model, workers)."""


def score_of(elo: float) -> float:
    """The expected score of a player `elo` points stronger (logistic)."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def elo_of(score: float) -> float:
    """The Elo difference a score implies (±inf at 1 and 0)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def _mle(outcomes: Sequence[Tuple[float, float]], s: float) -> List[float]:
    """The distribution closest (max likelihood) to the observed frequencies `outcomes`
    ((score, frequency) pairs) whose expected score is `s`: q_i = p_i / (1 + lam (a_i - s)),
    with lam found by bisection."""
    low = -1.0 / (max(a for a, _ in outcomes) - s)
    high = 1.0 / (s - min(a for a, _ in outcomes))

    def excess(lam: float) -> float:     # decreasing in lam
        return sum(p * (a - s) / (1.0 + lam * (a - s)) for a, p in outcomes)

    low, high = low + 1e-12 * abs(low), high - 1e-12 * abs(high)
    for _ in range(200):
        mid = 0.5 * (low + high)
        if excess(mid) > 0:
            low = mid
        else:
            high = mid
    lam = 0.5 * (low + high)
    return [p / (1.0 + lam * (a - s)) for a, p in outcomes]


@dataclass
class Tally:
    """The results so far, as counts of pair outcomes (pentanomial: A scored 0, 1/2, 1,
    3/2, 2 in a pair) and of game outcomes (A's losses, draws, wins)."""

    pentanomial: List[int] = field(default_factory=lambda: [0] * 5)
    trinomial: List[int] = field(default_factory=lambda: [0] * 3)

    def add_pair(self, points: float, games: Sequence[float] = ()) -> None:
        """Count a finished pair: A's `points` from it, and A's points in each of its games
        (if not given, a pair of 2 or 0 points is two wins or losses and 1 is counted as two
        draws, 1/2 as a draw and a loss, 3/2 as a draw and a win)."""
        index = int(round(points * 2))
        if not 0 <= index <= 4:
            raise HarnessError(f"a pair scores 0 to 2 points, not {points}")
        self.pentanomial[index] += 1
        if not games:
            games = {0: (0, 0), 1: (0.5, 0), 2: (0.5, 0.5), 3: (1, 0.5), 4: (1, 1)}[index]
        for g in games:
            self.trinomial[int(round(g * 2))] += 1

    @property
    def pairs(self) -> int:
        return sum(self.pentanomial)

    @property
    def games(self) -> int:
        return sum(self.trinomial)

    def outcomes(self, model: str = "pentanomial") -> List[Tuple[float, float]]:
        """(A's score per game, observed frequency) of each outcome of `model`; outcomes never
        seen get a small weight so the fitted distributions stay defined."""
        if model == "pentanomial":
            counts, scores = self.pentanomial, [p / 2 for p in PAIR_POINTS]
        else:
            counts, scores = self.trinomial, [0.0, 0.5, 1.0]
        eps = 1e-3
        total = sum(counts) + eps * len(counts)
        return [(a, (c + eps) / total) for a, c in zip(scores, counts)]

    def score(self) -> float:
        """A's mean score per game (0.5 before any result)."""
        if not self.games:
            return 0.5
        return (0.5 * self.trinomial[1] + self.trinomial[2]) / self.games

    def elo(self, model: str = "pentanomial") -> Tuple[float, float, float]:
        """(Elo, low, high): the Elo difference and its 95% confidence interval, which is
        unbounded (-inf, +inf) before two results of the model: one pair (or game) has no
        spread to measure the error by."""
        n = self.pairs if model == "pentanomial" else self.games
        if n == 0:
            return 0.0, -math.inf, math.inf
        counts = self.pentanomial if model == "pentanomial" else self.trinomial
        scores = [p / 2 for p in PAIR_POINTS] if model == "pentanomial" else [0.0, 0.5, 1.0]
        mean = sum(a * c for a, c in zip(scores, counts)) / n
        if n == 1:
            return elo_of(mean), -math.inf, math.inf
        var = sum(c * (a - mean) ** 2 for a, c in zip(scores, counts)) / n
        se = math.sqrt(var / n)
        return elo_of(mean), elo_of(mean - 1.959964 * se), elo_of(mean + 1.959964 * se)

    def los(self, model: str = "pentanomial") -> float:
        """The likelihood of superiority: the probability that A is the stronger."""
        n = self.pairs if model == "pentanomial" else self.games
        counts = self.pentanomial if model == "pentanomial" else self.trinomial
        scores = [p / 2 for p in PAIR_POINTS] if model == "pentanomial" else [0.0, 0.5, 1.0]
        if n == 0:
            return 0.5
        mean = sum(a * c for a, c in zip(scores, counts)) / n
        var = sum(c * (a - mean) ** 2 for a, c in zip(scores, counts)) / n
        if var == 0:
            return 0.5 if mean == 0.5 else float(mean > 0.5)
        return 0.5 * (1.0 + math.erf((mean - 0.5) / math.sqrt(2 * var / n)))

    def elo_text(self, model: str = "pentanomial") -> str:
        elo, low, high = self.elo(model)
        if not (math.isfinite(low) and math.isfinite(high)):
            unit = "pair" if model == "pentanomial" else "game"
            n = self.pairs if model == "pentanomial" else self.games
            why = (f"one {unit}: the interval is not known from one" if n == 1 else
                   "too few results for an error bar")
            return f"Elo {_signed(elo)} ({why})"
        return f"Elo {_signed(elo)} +/- {(high - low) / 2:.1f} (95%: {_signed(low)} .. " \
               f"{_signed(high)}), LOS {100 * self.los(model):.1f}%"


def _signed(x: float) -> str:
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x:+.1f}"


@dataclass(frozen=True)
class SPRT:
    """A sequential probability ratio test: H0 `elo0`, H1 `elo1` (logistic Elo, elo0 <
    elo1), false positive rate `alpha`, false negative rate `beta`, over the `model`'s
    outcomes ("pentanomial" or "trinomial")."""

    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "pentanomial"

    def __post_init__(self) -> None:
        if not (math.isfinite(self.elo0) and math.isfinite(self.elo1)
                and -1000 < self.elo0 < self.elo1 < 1000):
            raise HarnessError(f"SPRT bounds must be finite Elo values with elo0 < elo1 "
                               f"(within 1000), not {self.elo0}, {self.elo1}")
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0.0 < value < 0.5:
                raise HarnessError(f"SPRT {name} must be between 0 and 0.5, not {value}")
        if self.model not in ("pentanomial", "trinomial"):
            raise HarnessError(f"SPRT model must be pentanomial or trinomial, not "
                               f"{self.model!r}")

    def bounds(self) -> Tuple[float, float]:
        """(lower, upper): the LLR at which H0, H1 is accepted."""
        return (math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha))

    def llr(self, tally: Tally) -> float:
        """The log-likelihood ratio of H1 against H0 for the results so far."""
        n = tally.pairs if self.model == "pentanomial" else tally.games
        if n == 0:
            return 0.0
        outcomes = tally.outcomes(self.model)
        s0, s1 = score_of(self.elo0), score_of(self.elo1)
        q0, q1 = _mle(outcomes, s0), _mle(outcomes, s1)
        return n * sum(p * math.log(b / a) for (_, p), a, b in zip(outcomes, q0, q1))

    def decision(self, tally: Tally) -> Optional[str]:
        """"H1" (A is elo1 stronger), "H0" (A is elo0 stronger) or None (go on)."""
        low, high = self.bounds()
        llr = self.llr(tally)
        if llr >= high:
            return "H1"
        if llr <= low:
            return "H0"
        return None

    def __str__(self) -> str:
        return f"SPRT elo0={self.elo0:g} elo1={self.elo1:g} alpha={self.alpha:g} " \
               f"beta={self.beta:g} ({self.model})"


# --- the parallel runner ------------------------------------------------------------------

@dataclass
class PairResult:
    """The two games of one opening: `index` of the pair (from 0), the GameRecords (A white
    first), and what each player spent."""
    index: int
    games: List[Any]
    stats_a: PlayerStats
    stats_b: PlayerStats

    @property
    def points(self) -> float:
        return float(sum(g.points_a for g in self.games))


# one worker process's players, made once by _init
_WORKER: Dict[str, Any] = {}


def _init(spec_a: Any, spec_b: Any, variant: str, names: Optional[Tuple[str, str]],
          depth: Optional[int] = None, movetime: Optional[float] = None) -> None:
    v = get_variant(variant)
    _WORKER["a"] = make_player(spec_a, v, depth, movetime, "A")
    _WORKER["b"] = make_player(spec_b, v, depth, movetime, "B")
    _WORKER["variant"] = v
    if names is None:
        names = (player_name(_WORKER["a"]), player_name(_WORKER["b"]))
        if names[0] == names[1]:
            names = (f"A {names[0]}", f"B {names[1]}")
    _WORKER["names"] = names


def _pair(task: Tuple[int, Any, int]) -> PairResult:
    index, start, max_moves = task
    a, b, variant = _WORKER["a"], _WORKER["b"], _WORKER["variant"]
    name_a, name_b = _WORKER["names"]
    stats_a, stats_b = PlayerStats(), PlayerStats()
    games = [play_record(a, b, variant, start, a_white, 2 * index + (1 if a_white else 2),
                         max_moves, stats_a, stats_b, name_a, name_b)
             for a_white in (True, False)]
    return PairResult(index, games, stats_a, stats_b)


def _context() -> Any:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def run(a: Any, b: Any, variant: Any, starts: Sequence[Any], *, concurrency: int = 1,
        max_moves: int = 200, sprt: Optional[SPRT] = None,
        names: Optional[Tuple[str, str]] = None,
        on_pair: Optional[Callable[[PairResult, Tally], object]] = None,
        depth: Optional[int] = None, movetime: Optional[float] = None
        ) -> Tuple[List[PairResult], Tally, Optional[str]]:
    """Play a pair of games (colours swapped) from each of `starts` between `a` and `b`
    (engine specs, ``hub:COMMAND`` for an external engine, or -- with `concurrency` 1 --
    players), in `concurrency` worker processes, until the starts run out or `sprt` decides.
    `depth`/`movetime` are the limit of a spec that names none and of a Hub engine.  The
    players are named `names`, or by their own names (a Hub engine's is the one it gives).

    Returns (the pairs played, in the order they finished; the Tally; the SPRT's decision
    "H0"/"H1", None, or "stopped" after Ctrl-C).  `on_pair(pair, tally)` is called after
    each pair.
    """
    variant = get_variant(variant)
    if isinstance(concurrency, bool) or not isinstance(concurrency, int) or \
            not 1 <= concurrency <= (os.cpu_count() or 1) * 4:
        raise HarnessError(f"concurrency must be a whole number from 1 to "
                           f"{(os.cpu_count() or 1) * 4}, not {concurrency!r}")
    tally = Tally()
    done: List[PairResult] = []
    decision: Optional[str] = None
    tasks = [(i, start, max_moves) for i, start in enumerate(starts)]
    if concurrency == 1:
        _init(a, b, variant.name, names, depth, movetime)
        results: Iterator[PairResult] = map(_pair, tasks)
        pool = None
    else:
        for item in (a, b):
            if not isinstance(item, (str, EngineSpec)):
                raise HarnessError("players other than engine specs play with concurrency 1")
        pool = _context().Pool(concurrency, _init, (a, b, variant.name, names, depth, movetime))
        results = pool.imap_unordered(_pair, tasks, chunksize=1)
    try:
        for pair in results:
            done.append(pair)
            tally.add_pair(pair.points, [g.points_a for g in pair.games])
            if sprt is not None:
                decision = sprt.decision(tally)
            if on_pair is not None:
                on_pair(pair, tally)
            if decision is not None:
                break
    except KeyboardInterrupt:
        decision = "stopped"            # the results so far are reported
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
        _close_players()
    return done, tally, decision


def _close_players() -> None:
    for key in ("a", "b"):
        player = _WORKER.pop(key, None)
        close = getattr(player, "close", None)
        if close is not None:
            close()

