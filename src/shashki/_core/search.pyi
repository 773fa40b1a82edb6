"""Type stubs of the compiled search (search.pyx)."""

from typing import Iterable, List, Tuple

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
        draw_plies: int = 0,
        fmjd_draws: bool = False,
    ) -> Searcher: ...
    def clear(self) -> None: ...
    def new_search(self) -> None: ...
    def stop(self) -> None: ...
    def evaluate(self, white: int, black: int, kings: int, turn: int) -> int: ...
    def search(
        self,
        white: int,
        black: int,
        kings: int,
        turn: int,
        depth: int,
        history: Iterable[int] = (),
        reversible: int = 0,
        node_limit: int = 0,
        deadline: float = 0.0,
        balance: int = 0,
    ) -> Tuple[int, List[_PvMove], int, int, bool]: ...

def now_seconds() -> float: ...
def position_key(white: int, black: int, kings: int, turn: int, rules: Kernel) -> int: ...
