"""shashki: draughts (checkers) for Python on a fast Cython core.

Five 8x8 games: russian, giveaway (poddavki), brazilian, italian, english (american checkers).

>>> import shashki
>>> board = shashki.Board("english")
>>> board.perft(6)
36768
"""

from .board import Board, LegalMoves
from .errors import (AmbiguousMoveError, IllegalMoveError, InvalidFenError, InvalidMoveError,
                     InvalidOpeningError, InvalidPdnError, InvalidVariantError,
                     ShashkiError)
from .move import Move
from .ballots import Opening, opening_tables, openings  # tables load on first use
from .outcome import Outcome, Termination
from .squares import SQUARES
from .variants import BLACK, VARIANTS, WHITE, Variant, get_variant
from . import pdn  # stdlib-only, cheap

__version__ = "0.1.0"

__all__ = [
    "Board", "LegalMoves", "Move", "Variant", "VARIANTS", "get_variant", "WHITE", "BLACK",
    "SQUARES", "ShashkiError", "InvalidFenError", "InvalidMoveError", "IllegalMoveError",
    "AmbiguousMoveError", "InvalidVariantError", "InvalidPdnError", "InvalidOpeningError",
    "Opening", "openings", "opening_tables", "pdn", "Outcome", "Termination", "__version__",
]
