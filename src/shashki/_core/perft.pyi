"""Type stubs of the compiled perft counter (perft.pyx)."""

from typing import Optional

from .movegen import Kernel

class PerftTable:
    """A transposition table for perft of `size_mb` MiB (rounded down to a power of two)."""

    @property
    def size_bytes(self) -> int: ...
    @property
    def owner(self) -> Optional[str]: ...
    def __new__(cls, size_mb: float, shared: bool = True) -> PerftTable: ...
    def claim(self, owner: str) -> None: ...
    def clear(self) -> None: ...

def perft(
    white: int,
    black: int,
    kings: int,
    turn: int,
    rules: Kernel,
    depth: int,
    paths: bool = False,
    table: Optional[PerftTable] = None,
    runs: int = 0,
) -> int: ...
