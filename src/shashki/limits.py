"""What bounds a search: `Limit` (when it stops) and the size of a hash table.

    >>> from shashki.limits import Limit
    >>> Limit(depth=6)
    Limit(depth=6)
    >>> Limit(clock=60.0, increment=1.0).budget()
    2.3
    >>> Limit(nodes=10**30)
    Traceback (most recent call last):
    ...
    shashki.errors.InvalidLimitError: nodes must be a whole number from 1 to 9223372036854775807, not 1000000000000000000000000000000

A Limit is what the engine and every front end (play, match, the Hub protocol) pass around,
python-chess's ``chess.engine.Limit`` being the model; it checks its values when it is made, so
a bad number is refused where it enters, with the same message everywhere.  `time_budget` is
the one rule for how much of a clock a move may spend.
"""

from __future__ import annotations

import math
import numbers
import operator
import os
from dataclasses import dataclass, fields
from typing import Dict, Optional

from .errors import InvalidLimitError

#: the longest path of the C search, quiescence included (setup.py writes it into the C
#: search: _core/enums.pxd MAXPLY)
MAX_PLY = 100
#: the parts of the C search that can be switched, to measure each (Engine(options=...)), and
#: their defaults; setup.py writes them into the C search as O_<NAME>, in this order.  A part
#: stays only while the strength-testing harness accepts it: those it rejected or could not
#: decide on (aspiration windows, the threat and exchange extensions, the history malus, the
#: older time rule) are gone from the search, and its log (benchmarks/sprt) keeps their
#: history.
#:
#: - egdb: probe the endgame databases (0: off)
#: - fade: plies without progress after which the evaluation is halved, in the games without
#:   a kings-only or no-progress rule (0: never)
#: - lmr: late quiet moves are searched a ply (two, late in a non-PV node) less deep first,
#:   and again in full when they beat alpha (0: off; on by default since its SPRT, +50.6 Elo
#:   at 20,000 nodes in russian: benchmarks/sprt/README.md)
#: - probcut: at a non-PV node of depth 3 or more, a null-window search of 40% of the depth
#:   that beats beta by this margin (centi-men) a ply of depth cuts the node off (0: off; 15
#:   by default since its SPRTs at 20,000 nodes: +44.3 Elo in english, +37.4 in russian,
#:   +34.3 in international)
SEARCH_OPTIONS: Dict[str, int] = {"egdb": 1, "fade": 60, "lmr": 1, "probcut": 15}

#: the deepest search, in plies (the C search keeps room for quiescence beyond it)
MAX_DEPTH = MAX_PLY - 11
#: the largest node budget (the C search counts nodes in 64 bits)
MAX_NODES = (1 << 63) - 1
#: the longest time accepted, in seconds (about 31 years): more is a typo, and a thread
#: cannot wait that long (threading.TIMEOUT_MAX)
MAX_SECONDS = 1e9
#: the most moves to a time control
MAX_MOVES = 10_000
#: the least time a move is given: a clock that has run out still gets a move
MIN_BUDGET = 0.001
#: the largest hash table accepted, in MiB (1 TiB): a bigger number is a typo
MAX_HASH_MB = 1 << 20


def shown(value: object) -> str:
    """`value` for an error message: repr, but a huge int by its length (Python will not turn
    an int of over 4,300 digits into text)."""
    if isinstance(value, int) and value.bit_length() > 128:
        return f"a number of about {int(value.bit_length() * math.log10(2)) + 1} digits"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def as_int(value: object) -> Optional[int]:
    """`value` as an int when it is a whole number (an int, or numpy's), else None; bool is
    not a number here."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)    # type: ignore[arg-type]  # any object with __index__
    except TypeError:
        return None


def as_float(value: object) -> float:
    """`value` as a float when it is a real number that fits one, else NaN; bool is not a
    number here."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return math.nan
    try:
        return float(value)
    except OverflowError:               # an int too large for a float
        return math.nan


def _whole(name: str, value: object, low: int, high: int) -> int:
    number = as_int(value)
    if number is None or not low <= number <= high:
        raise InvalidLimitError(f"{name} must be a whole number from {low} to {high}, "
                         f"not {shown(value)}")
    return number


def _seconds(name: str, value: object, positive: bool) -> float:
    seconds = as_float(value)
    low_ok = seconds > 0 if positive else seconds >= 0
    if not (low_ok and seconds <= MAX_SECONDS):      # NaN fails both comparisons
        least = "more than 0" if positive else "0 or more"
        raise InvalidLimitError(f"{name} must be a number of seconds, {least} and at most "
                         f"{MAX_SECONDS:g}, not {shown(value)}")
    return seconds


def time_budget(clock: float, increment: float = 0.0, moves: int = 0) -> float:
    """Seconds to spend on a move with `clock` seconds left, `increment` seconds added after
    the move and `moves` moves to the next time control (0: the rest of the game).

    The clock shared over the moves still to come (a fortieth of it when their number is
    unknown) plus most of the increment, never more than half the clock (or 0.8 of it when
    the time control is near), and never less than MIN_BUDGET.
    """
    if moves:
        spend = min(clock / moves, 0.8 * clock)
    else:
        spend = min(clock / 40 + 0.8 * increment, clock / 2)
    return max(spend, MIN_BUDGET)


@dataclass(frozen=True)
class Limit:
    """When a search stops: any combination of a `depth` in plies, a number of `nodes`, a
    `movetime` in seconds, or a `clock` (seconds left for the side to move) with its
    `increment` and the `moves` to the next time control; whichever is reached first.  No
    limit at all is an infinite search (until Engine.stop()).

    Every value is checked when the Limit is made: InvalidLimitError (a ShashkiError, so a
    ValueError) names the one that is wrong and says what is allowed (whole numbers for
    depth, nodes and moves; finite, non-negative seconds for the times).
    """

    depth: Optional[int] = None
    nodes: Optional[int] = None
    movetime: Optional[float] = None
    clock: Optional[float] = None
    increment: float = 0.0
    moves: int = 0

    def __post_init__(self) -> None:
        def put(name: str, value: object) -> None:
            object.__setattr__(self, name, value)   # a frozen dataclass sets its own fields

        if self.depth is not None:
            put("depth", _whole("depth", self.depth, 1, MAX_DEPTH))
        if self.nodes is not None:
            put("nodes", _whole("nodes", self.nodes, 1, MAX_NODES))
        if self.movetime is not None:
            put("movetime", _seconds("movetime", self.movetime, positive=True))
        if self.clock is not None:
            put("clock", _seconds("clock", self.clock, positive=False))
        put("increment", _seconds("increment", self.increment, positive=False))
        put("moves", _whole("moves", self.moves, 0, MAX_MOVES))
        if self.clock is None and (self.increment or self.moves):
            raise InvalidLimitError("increment and moves go with clock, the time left")

    def budget(self) -> Optional[float]:
        """Seconds the move may take (the movetime, or the clock's time_budget, whichever is
        less), or None for no time limit."""
        budget = self.movetime
        if self.clock is not None:
            spend = time_budget(self.clock, self.increment, self.moves)
            budget = spend if budget is None else min(budget, spend)
        return budget

    @property
    def is_infinite(self) -> bool:
        """True when nothing but stop() ends the search."""
        return self.depth is None and self.nodes is None and self.budget() is None

    def __repr__(self) -> str:
        given = [f"{f.name}={getattr(self, f.name)!r}" for f in fields(self)
                 if getattr(self, f.name) != f.default]
        return f"Limit({', '.join(given)})"


#: the most threads a search may run on
MAX_THREADS = 256


def check_threads(value: object) -> None:
    """InvalidLimitError unless `value` is a whole number of threads from 1 to MAX_THREADS."""
    count = as_int(value)
    if count is None or not 1 <= count <= MAX_THREADS:
        raise InvalidLimitError(f"threads must be a whole number from 1 to {MAX_THREADS}, "
                                f"not {shown(value)}")


def check_hash_mb(value: object, *, zero_ok: bool = False, whole: bool = False) -> None:
    """InvalidLimitError unless `value` is a table size in MiB from 1 (or 0, no table, when
    `zero_ok`) to MAX_HASH_MB and no more than this machine's memory; a whole number when
    `whole`."""
    low = 0 if zero_ok else 1
    size = as_int(value) if whole else as_float(value)
    if size is None or not low <= size <= MAX_HASH_MB:          # NaN fails the comparison
        what = "a whole number" if whole else "a number"
        none = " (0: none)" if zero_ok else ""
        raise InvalidLimitError(f"hash size must be {what} of MiB from {low}{none} to "
                                f"{MAX_HASH_MB}, not {shown(value)}")
    memory = physical_memory_mb()
    if memory is not None and size > memory:
        # zeroing a table larger than the memory would bring the machine to its knees
        raise InvalidLimitError(f"hash size {value} MiB is more than this machine's memory "
                                f"({memory} MiB)")


def physical_memory_mb() -> Optional[int]:
    """This machine's memory in MiB, or None where the system does not say."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // (1 << 20)
    except (AttributeError, ValueError, OSError):
        return None
