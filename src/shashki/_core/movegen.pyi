"""Type stubs of the compiled move generator (movegen.pyx).

Positions cross the edge as four ints: the 32-bit square masks of White's pieces, Black's
pieces and the kings (a1 = bit 0 ... h8 = bit 31), and the side to move (0 White, 1 Black).
"""

from typing import List, Tuple

# origin, destination, captured mask, routes, promote, landing squares, captured squares
_RawMove = Tuple[int, int, int, int, bool, Tuple[int, ...], Tuple[int, ...]]

class RuleSet:
    """The rules record of one game, as the core reads it (see shashki.variants)."""

    @property
    def name(self) -> str: ...
    def __init__(
        self,
        name: str,
        *,
        flying_kings: bool,
        men_capture_backward: bool,
        men_capture_kings: bool,
        promotion: str,
        precedence: str,
    ) -> None: ...

def legal_moves(white: int, black: int, kings: int, turn: int, rules: RuleSet) -> List[_RawMove]: ...
def apply_move(
    white: int,
    black: int,
    kings: int,
    turn: int,
    origin: int,
    destination: int,
    captured: int,
    promote: bool,
) -> Tuple[int, int, int, int]: ...
