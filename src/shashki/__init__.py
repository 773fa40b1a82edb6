"""shashki: draughts (checkers) for Python on a fast Cython core.

The games are those of ``shashki.VARIANTS``: russian, giveaway (poddavki), brazilian, italian,
english (american checkers), international and the others of the docs' games pages.

>>> import shashki
>>> board = shashki.Board("english")
>>> board.perft(6)
36768
"""

import typing as _typing

from ._core.game import Game
from ._core.position import Position
from .board import Board, LegalMoves
from .colors import BLACK, WHITE, Color
from .errors import (ActionSpaceError, AmbiguousMoveError, BatchError, IllegalActionError,
                     IllegalMoveError,
                     InvalidActionError, InvalidColorError, InvalidFenError, InvalidLimitError,
                     InvalidMoveError, InvalidOpeningError, InvalidOptionError, InvalidPdnError,
                     InvalidPieceError, InvalidSquareError, InvalidVariantError, PlayoutsError,
                     ShashkiError, VectorEnvError)
from .move import Move
from .outcome import Outcome, Termination
from .piece import Piece
from .status import Status
from .variants import VARIANTS, Variant, get_variant

if _typing.TYPE_CHECKING:
    # what the lazy names below are, for type checkers (nothing is imported at run time)
    from . import engine, pdn, perft, rl, svg  # noqa: F401
    from .opening import Opening, opening_tables, openings
    from ._core.playouts import Playouts, playouts

# Loaded on first use, so that `import shashki` stays cheap: the PDN reader, the opening
# tables, and the submodules that only some users need.
_LAZY: _typing.Dict[str, _typing.Tuple[str, _typing.Optional[str]]] = {
    "pdn": ("shashki.pdn", None),
    "Opening": ("shashki.opening", "Opening"),
    "openings": ("shashki.opening", "openings"),
    "opening_tables": ("shashki.opening", "opening_tables"),
    "engine": ("shashki.engine", None),
    "perft": ("shashki.perft", None),
    "svg": ("shashki.svg", None),
    "playouts": ("shashki._core.playouts", "playouts"),
    "Playouts": ("shashki._core.playouts", "Playouts"),
    "rl": ("shashki.rl", None),
}


def __getattr__(name: str) -> _typing.Any:
    try:
        module_name, attr = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'shashki' has no attribute {name!r}") from None
    import importlib  # (only when a lazy name is first asked for)
    module = importlib.import_module(module_name)
    value = module if attr is None else getattr(module, attr)
    globals()[name] = value
    return value


def __dir__() -> _typing.List[str]:
    return sorted(set(globals()) | set(_LAZY))

from ._version import __version__


def build_info() -> _typing.Dict[str, _typing.Any]:
    """What this install is: its version, the build of the kernels this CPU runs
    (``"x86-64-v2"`` with POPCNT, ``"x86-64"`` on any x86-64 CPU, ``"generic"`` elsewhere) and
    the CPU's instruction sets that matter to it (``shashki --version`` prints them)."""
    from ._core import cpu  # the compiled core, loaded on first use: `import shashki` stays cheap
    return {"version": __version__, "code_path": cpu.CODE_PATH, "cpu": cpu.features()}


__all__ = [
    "Board", "Game", "LegalMoves", "Move", "Position", "Variant", "VARIANTS", "get_variant", "Color", "WHITE", "BLACK",
    "ShashkiError", "InvalidFenError", "InvalidMoveError", "IllegalMoveError",
    "AmbiguousMoveError", "InvalidVariantError", "InvalidPdnError", "InvalidOpeningError",
    "InvalidSquareError", "InvalidActionError", "IllegalActionError", "ActionSpaceError",
    "PlayoutsError",
    "BatchError", "VectorEnvError",
    "InvalidLimitError", "InvalidOptionError", "InvalidPieceError", "InvalidColorError",
    "Piece", "Status",
    "playouts", "Playouts", "rl",
    "Opening", "openings", "opening_tables", "pdn", "Outcome", "Termination", "__version__",
    "build_info",
]
