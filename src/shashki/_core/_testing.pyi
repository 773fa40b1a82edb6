"""The core's C internals laid open for the tests (see the compiled module's docstring)."""

from typing import List, Optional, Tuple

from .board import BoardCore
from .position import PositionBase

def child_keys_agree(board: PositionBase) -> bool: ...
def drawn_moves(board: BoardCore) -> Optional[List[Tuple[int, int, bool, Tuple[int, ...]]]]: ...
def square_masks(
    board: BoardCore,
) -> Tuple[Optional[Tuple[int, int, int]], Tuple[int, int, int]]: ...
