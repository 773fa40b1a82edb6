"""Type stubs of the compiled search (search.pyx)."""

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from .board import BoardCore
from .egdb import EgdbTables
from .movegen import Kernel

# (origin, destination, captured mask) of each move of the principal variation
_PvMove = Tuple[int, int, int]

WIN_SCORE: int
MAX_PLY: int
EGDB_BOUND: int
FEATURE_NAMES: List[str]
OPTION_NAMES: Tuple[str, ...]
OPTION_DEFAULTS: Tuple[Tuple[str, int], ...]

class Searcher:
    """The C search state of one game: its rules, evaluation weights, options and hash
    table."""

    @property
    def hash_bytes(self) -> int: ...
    @property
    def max_phase(self) -> int: ...
    @property
    def egdb_hits(self) -> int: ...
    def __new__(
        cls,
        rules: Kernel,
        hash_mb: int = 16,
        *,
        weights: Optional[Sequence[int]] = None,
        reversed: bool = False,
        flying: bool = True,
        options: Optional[Mapping[str, int]] = None,
    ) -> Searcher: ...
    def set_weights(self, weights: Sequence[int]) -> None: ...
    def set_options(self, options: Mapping[str, int]) -> None: ...
    def set_egdb(self, tables: Optional[EgdbTables]) -> None: ...
    def options(self) -> Dict[str, int]: ...
    def clear(self) -> None: ...
    def new_search(self) -> None: ...
    def stop(self) -> None: ...
    def set_deadline(self, deadline: float) -> None: ...
    def evaluate(self, board: BoardCore) -> int: ...
    def features(self, board: BoardCore) -> Tuple[List[int], int]: ...
    def search(
        self,
        board: BoardCore,
        depth: int,
        node_limit: int = 0,
        deadline: float = 0.0,
        prev_score: Optional[int] = None,
    ) -> Tuple[int, List[_PvMove], int, int, bool]: ...

def now_seconds() -> float: ...
def child_keys_agree(board: BoardCore) -> bool: ...
