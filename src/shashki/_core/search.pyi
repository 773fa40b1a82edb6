"""Type stubs of the compiled search (search.pyx)."""

from typing import List, Tuple

from .board import BoardCore
from .movegen import Kernel

# (origin, destination, captured mask) of each move of the principal variation
_PvMove = Tuple[int, int, int]

WIN_SCORE: int
MAX_PLY: int

class Searcher:
    """The C search state of one game: its rules, evaluation weights and hash table."""

    @property
    def hash_bytes(self) -> int: ...
    def __new__(
        cls,
        rules: Kernel,
        hash_mb: int = 16,
        *,
        man: int = 100,
        king: int = 300,
        advance: int = 3,
        back_rank: int = 6,
        centre: int = 4,
        reversed: bool = False,
    ) -> Searcher: ...
    def clear(self) -> None: ...
    def new_search(self) -> None: ...
    def stop(self) -> None: ...
    def evaluate(self, board: BoardCore) -> int: ...
    def search(
        self,
        board: BoardCore,
        depth: int,
        node_limit: int = 0,
        deadline: float = 0.0,
    ) -> Tuple[int, List[_PvMove], int, int, bool]: ...

def now_seconds() -> float: ...
