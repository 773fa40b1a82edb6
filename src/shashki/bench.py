"""A build's signature and its speed: a fixed suite of perft counts and engine searches.

As Stockfish's ``bench``: every game's start and two middle-game positions are counted
(perft, both conventions: distinct moves and every capture route) and searched by the engine
to a fixed depth, one thread, no endgame databases.  The total of the leaves and the nodes,
with a short hash of every count, is the build's **signature**: it is the same on every build
of one version and on every CPU (the x86-64 baseline kernels and the POPCNT ones, GCC and
clang, an emulated CPU), and changes only when the move generator or the search was meant to
change.  The leaves and nodes per CPU-second say how fast this machine runs the core.

    >>> from shashki import bench
    >>> result = bench.run(quick=True)
    >>> result.signature == bench.RECORDED["quick"]
    True

`shashki bench [--quick] [--json]` prints the same (docs/perft.md, "shashki bench").
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from typing import Callable, Dict, Iterable, List, Optional, Tuple

from .board import Board
from .engine import Engine
from ._core.position import Position
from .variants import (ANTIDRAUGHTS, BRAZILIAN, BREAKTHROUGH, CZECH, ENGLISH, FRISIAN, FRYSK,
                       GIVEAWAY, INTERNATIONAL, ITALIAN, POOL, RUSSIAN, SPANISH, THAI, TURKISH,
                       Variant)

__all__ = ["HASH_MB", "RECORDED", "SUITE", "BenchResult", "Count", "Entry", "run"]

#: the engine's hash table (MiB): its size changes what a search keeps, so the node counts
#: depend on it; cleared before each search, so that no search depends on the one before
HASH_MB = 8

#: The signatures of this version's suites, as `BenchResult.signature` gives them.  A change
#: to move generation or search that changes them updates them here in the same commit, and
#: says so in its message; tests/test_bench.py checks both.
RECORDED: Dict[str, str] = {
    "quick": "84239045-bfe96b8f",
    "full": "735738267-666282e8",
}


@dataclass(frozen=True)
class Entry:
    """One position of the suite and its depths: perft's (both conventions) and the engine's,
    in the full suite and in the quick one."""
    game: str
    fen: Optional[str]       # None: the game's start
    perft_depth: int
    search_depth: int
    quick_perft_depth: int
    quick_search_depth: int


# (game, [(fen, perft, search, quick perft, quick search)]): the start and the positions
# after 12 and 24 plies of a fixed line.  The depths make each count about 40 ms of CPU and
# each quick one 4 ms on the machine the suite was made on (perft of both conventions
# together; a search about 100 ms and 10 ms), so that no game weighs much more than another
_TABLE: Tuple[Tuple[Variant, Tuple[Tuple[Optional[str], int, int, int, int], ...]], ...] = (
    (RUSSIAN, (
        (None, 9, 15, 8, 11),
        ("W:Wa1,c1,e1,g1,b2,h2,a3:Bd2,h4,e5,f6,h6,a7,c7,e7,g7,b8,f8,h8", 9, 19, 8, 14),
        ("W:Wa1,b2,d2,f2,b4,d4:Bh2,g3,g5,b6,d6,h6,e7,g7,b8,f8,h8", 9, 19, 8, 15),
    )),
    (GIVEAWAY, (
        (None, 9, 23, 8, 17),
        ("W:Wa1,c1,e1,g1,b2,h2,a3:Bd2,h4,e5,f6,h6,a7,c7,e7,g7,b8,f8,h8", 9, 25, 8, 19),
        ("W:Wa1,b2,d2,f2,b4,d4:Bh2,g3,g5,b6,d6,h6,e7,g7,b8,f8,h8", 9, 20, 8, 18),
    )),
    (BRAZILIAN, (
        (None, 9, 16, 8, 11),
        ("W:Wa1,c1,e1,g1,b2,h2,a3:Bd2,h4,e5,f6,h6,a7,c7,e7,g7,b8,f8,h8", 10, 17, 8, 12),
        ("W:Wa1,b2,d2,f2,b4,d4:Bh2,g3,g5,b6,d6,h6,e7,g7,b8,f8,h8", 10, 16, 8, 12),
    )),
    (ITALIAN, (
        (None, 9, 15, 8, 11),
        ("W:W20,21,23-26,28-31:B1-5,8-10,15,16", 10, 15, 8, 11),
        ("W:W21,24,26,27,29,30,K2:B1,5,7-9,15,K32", 8, 15, 7, 11),
    )),
    (ENGLISH, (
        (None, 10, 16, 8, 12),
        ("B:W18,21,25,28-32:B1-6,9,12", 8, 15, 7, 11),
        ("B:W18,23,25,28,31,32:B1,3,5,7,8,16", 9, 14, 7, 12),
    )),
    (INTERNATIONAL, (
        (None, 8, 13, 7, 10),
        ("W:W28,31,32,36,37,39-50:B1-12,14,15,18,20,21,24,26", 8, 15, 7, 11),
        ("W:W16,35-37,39-44,46-50:B1-7,9,14,15,18,20,24,26,31", 8, 12, 7, 9),
    )),
    (ANTIDRAUGHTS, (
        (None, 8, 19, 7, 14),
        ("W:W28,31,32,36,37,39-50:B1-12,14,15,18,20,21,24,26", 8, 19, 7, 15),
        ("W:W16,35-37,39-44,46-50:B1-7,9,14,15,18,20,24,26,31", 8, 20, 7, 14),
    )),
    (BREAKTHROUGH, (
        (None, 8, 14, 7, 10),
        ("W:W28,31,32,36,37,39-50:B1-12,14,15,18,20,21,24,26", 8, 13, 7, 9),
        ("W:W16,35-37,39-44,46-50:B1-7,9,14,15,18,20,24,26,31", 8, 13, 7, 10),
    )),
    (POOL, (
        (None, 9, 17, 8, 11),
        ("B:W18,21,23,24,27-32:B1-5,9,10,12", 8, 16, 7, 12),
        ("B:W22,23,27,28,31,32:B1,2,4,7,10", 9, 17, 7, 12),
    )),
    (SPANISH, (
        (None, 9, 15, 8, 10),
        ("W:W20,21,23-26,28-31:B1-5,8-10,15,16", 10, 17, 8, 12),
        ("W:W21,23,24,26-30,K20:B1,5,7,8,13,16", 8, 20, 7, 14),
    )),
    (CZECH, (
        (None, 9, 15, 8, 11),
        ("W:Wa1,c1,e1,b2,d2,h2,a3,e3,g3:Bc5,e5,f6,h6,a7,g7,b8,d8,f8,h8", 9, 17, 8, 14),
        ("W:Wa1,c1,b2,d2,h2:Bd4,h4,h6,a7,e7,g7,d8,h8,Ke1", 11, 20, 9, 15),
    )),
    (THAI, (
        (None, 8, 16, 7, 12),
        ("W:Wa1,e1,g1,b2,h2,c3,g3,Kb8:Bb6,d6,a7,g7,f8,h8", 10, 19, 8, 16),
        ("W:Wa1,g1,b2,h2,c3,f4,e5:Ba5,g5,a7,f8", 13, 17, 11, 14),
    )),
    (FRISIAN, (
        (None, 8, 14, 6, 10),
        ("W:W26,27,36-50:B1-10,13,16-20,24", 7, 16, 6, 12),
        ("W:W27,31,35,37,38,41-45,47-50:B1-6,8-11,13,19,24,25,36", 9, 15, 8, 11),
    )),
    (FRYSK, (
        (None, 7, 16, 6, 12),
        ("W:W33,39,42,46,50:B3,5,7,14,18", 8, 17, 7, 13),
        ("W:W12,27,39,45,46:B10", 11, 29, 10, 24),
    )),
    (TURKISH, (
        (None, 7, 12, 6, 9),
        ("W:Wa2,b2,c2,d2,f2,g2,h2,a3,b3,c3,d3,h3,d4,f4"
         ":Be3,b5,c5,c6,d6,e6,f6,h6,a7,b7,c7,d7,e7,f7,g7,h7",
         7, 12, 7, 8),
        ("W:Wa2,b2,e2,g2,h2,a3,c3,g3,h3,g4:Bc5,f5,b6,d6,e6,g6,h6,a7,b7,c7,d7,e7,g7,h7,Kd5",
         6, 13, 5, 11),
    )),
)

#: every position of the suite, game by game
SUITE: Tuple[Entry, ...] = tuple(Entry(variant.name, fen, *depths)
                                 for variant, rows in _TABLE for fen, *depths in rows)


@dataclass(frozen=True)
class Count:
    """One count of the suite: `kind` "perft" (`convention` "unique" or "paths") or
    "search" (`convention` ""), its result (leaves or nodes) and the CPU seconds it took."""
    kind: str
    game: str
    fen: str
    depth: int
    convention: str
    count: int
    seconds: float

    def line(self) -> str:
        """The count as the hash reads it: everything but the time."""
        return f"{self.kind} {self.game} {self.fen} {self.depth} {self.convention} {self.count}"


@dataclass(frozen=True)
class BenchResult:
    """What `run` counted: every Count, and the totals."""
    suite: str               # "full" or "quick"
    counts: Tuple[Count, ...]

    def _total(self, kind: str) -> Tuple[int, float]:
        rows = [c for c in self.counts if c.kind == kind]
        return sum(c.count for c in rows), sum(c.seconds for c in rows)

    @property
    def leaves(self) -> int:
        return self._total("perft")[0]

    @property
    def nodes(self) -> int:
        return self._total("search")[0]

    @property
    def perft_seconds(self) -> float:
        return self._total("perft")[1]

    @property
    def search_seconds(self) -> float:
        return self._total("search")[1]

    @property
    def digest(self) -> str:
        """A short hash of every count: two builds that give the same total but differ in one
        position differ here."""
        text = "\n".join(c.line() for c in self.counts)
        return hashlib.sha256(text.encode()).hexdigest()[:8]

    @property
    def signature(self) -> str:
        """The leaves and nodes together, and the digest: ``"1234567-89abcdef"``."""
        return f"{self.leaves + self.nodes}-{self.digest}"

    @property
    def recorded(self) -> bool:
        """Whether the signature is the one this version records for the suite."""
        return RECORDED.get(self.suite) == self.signature


def _timed(counter: Callable[[], int]) -> Tuple[int, float]:
    start = time.process_time()
    count = counter()
    return count, time.process_time() - start


def run(quick: bool = False, entries: Iterable[Entry] = SUITE) -> BenchResult:
    """Count the suite (`quick`: the quick one) in this thread and return what it counted."""
    counts: List[Count] = []
    engines: Dict[str, Engine] = {}
    for entry in entries:
        position = Position(entry.game, entry.fen)
        fen = position.fen()
        depth = entry.quick_perft_depth if quick else entry.perft_depth
        for paths in (False, True):
            leaves, seconds = _timed(lambda: position.count(depth, paths))
            counts.append(Count("perft", entry.game, fen, depth,
                                "paths" if paths else "unique", leaves, seconds))
        engine = engines.get(entry.game)
        if engine is None:
            engine = engines[entry.game] = Engine(entry.game, HASH_MB, egdb=False)
        board = Board(entry.game, fen=entry.fen)
        depth = entry.quick_search_depth if quick else entry.search_depth
        engine.new_game()
        nodes, seconds = _timed(lambda: engine.search(board, depth=depth).nodes)
        counts.append(Count("search", entry.game, fen, depth, "", nodes, seconds))
    return BenchResult("quick" if quick else "full", tuple(counts))
