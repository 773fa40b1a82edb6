"""Type stubs of the compiled kernels' Python edge (movegen.pyx).

Positions cross the edge as four ints: the square masks of White's pieces, Black's pieces and
the kings (bit s for square s, a1 = 0 on 8x8), and the side to move (0 White, 1 Black).
"""

from typing import List, Tuple

# origin, destination, captured mask, routes, promote, landing squares, captured squares
_RawMove = Tuple[int, int, int, int, bool, Tuple[int, ...], Tuple[int, ...]]

class Kernel:
    """The compiled move generator of one set of rules and one board (see shashki.variants)."""

    @property
    def name(self) -> str: ...
    @property
    def squares(self) -> int: ...
    def __new__(cls, name: str, capsule: object) -> Kernel: ...
    def legal_moves(self, white: int, black: int, kings: int, turn: int,
                    runs: int = 0) -> List[_RawMove]: ...
    def routes(self, white: int, black: int, kings: int, turn: int,
               runs: int = 0) -> List[_RawMove]: ...
    def apply_move(
        self,
        white: int,
        black: int,
        kings: int,
        turn: int,
        origin: int,
        destination: int,
        captured: int,
        promote: bool,
    ) -> Tuple[int, int, int, int]: ...
