"""Type stubs of the compiled builder and verifier of the endgame databases (egdb_build.pyx)."""

from typing import List, Optional, Tuple

from .egdb import EgdbTables
from .position import Position

def build(tables: EgdbTables, wm: int, wk: int, bm: int, bk: int) -> None: ...
def verify(tables: EgdbTables, wm: int, wk: int, bm: int, bk: int,
           limit: int = 20) -> Tuple[int, List[int]]: ...
def position(tables: EgdbTables, wm: int, wk: int, bm: int, bk: int,
             i: int) -> Optional[Position]: ...
