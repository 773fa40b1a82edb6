"""Type stubs of the compiled perft counter (perft.pyx)."""

from typing import Optional

from .movegen import RuleSet

class PerftTable:
    """A transposition table for perft of `size_mb` MiB (rounded down to a power of two)."""

    @property
    def size_bytes(self) -> int: ...
    @property
    def owner(self) -> Optional[str]: ...
    def __new__(cls, size_mb: float) -> PerftTable: ...
    def clear(self) -> None: ...

def perft(
    white: int,
    black: int,
    kings: int,
    turn: int,
    rules: RuleSet,
    depth: int,
    paths: bool = False,
    table: Optional[PerftTable] = None,
) -> int: ...
def zobrist_key(white: int, black: int, kings: int, turn: int) -> int: ...
