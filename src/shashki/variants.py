"""The variant registry: each game is a small record of data, and one core reads them all.

Adding a game means adding a record here, not code elsewhere.  See ../shared/RULES.md.
"""

from __future__ import annotations

import enum
import importlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Dict, Tuple, Type, Union

from . import squares as _sq
from .colors import BLACK as BLACK, WHITE as WHITE
from .errors import InvalidSquareError, InvalidVariantError
from .geometry import EIGHT, Geometry

if TYPE_CHECKING:
    from ._core.board import Notation
    from ._core.movegen import Kernel

COLOR_NAMES: Tuple[str, str] = ("white", "black")
#: actions beyond the (origin, destination) pairs: a position has at most 512 legal moves (the
#: kernels' MAXMOVES), so at most 511 captures share their two squares with another one
ALTERNATE_ACTIONS = 511
#: the planes of Board.planes() (shashki._core.actions.OBSERVATION_PLANES)
OBSERVATION_PLANES = 10


@dataclass(frozen=True)
class Variant:
    name: str
    aliases: Tuple[str, ...]
    title: str
    #: the rules record of the core
    flying_kings: bool
    men_capture_backward: bool
    men_capture_kings: bool
    #: a man reaching the far row mid-capture: "king" (goes on as a king), "man" (goes on as a
    #: man, crowned only if it ends there), "stop" (the move ends, the man is crowned)
    promotion: str
    #: which capture sequences may be chosen: "free", "majority", "italian"
    precedence: str
    first_to_move: int
    #: True in giveaway: the side that cannot move wins
    reversed_goal: bool
    #: notation: "algebraic" (a1..h8), "english" or "italian" (numbers 1..32)
    squares: str
    capture_sep: str
    gametype: int
    pdn_gametype: str
    start_fen: str
    #: moves (of each side) of kings only, with no man move and no capture, before a draw
    kings_only_limit: int
    #: moves (of each side) without a man move or capture before a draw (english), or 0
    no_progress_limit: int = 0
    #: the FMJD-64 endgame draw rules 7.2.4-7.2.8 (russian; optional in brazilian)
    fmjd_endgame_rules: bool = False
    #: PlayStrategy's PDN names this game's squares algebraically, as seen from the side that
    #: moves first, instead of by number (shashki.pdn reads that dialect)
    playstrategy_algebraic: bool = False
    #: the draws a player must claim (the values of shashki.outcome.Termination): english,
    #: by the WCDF rules; every other game's draws are automatic
    draw_claims: Tuple[str, ...] = ()
    geometry: Geometry = field(default=EIGHT, repr=False)
    #: the board is drawn mirrored, its bottom-left corner light and h1 dark (italian); the
    #: rules are the same either way
    mirrored: bool = False
    #: where `shashki match` takes its openings when none are named: the id of one of the
    #: game's opening tables (shashki.opening_tables), "start" or "random"
    match_openings: str = "random"

    @property
    def action_space_size(self) -> int:
        """The number of actions of the game (Board.move_to_action): an action for each
        (origin, destination) pair of squares, and ALTERNATE_ACTIONS more for the captures
        that join the same two squares as another one.  1535 on 8x8."""
        return self.geometry.squares ** 2 + ALTERNATE_ACTIONS

    @property
    def planes_shape(self) -> Tuple[int, int, int]:
        """The shape of Board.planes(): (planes, rows, files)."""
        return (OBSERVATION_PLANES, self.geometry.rows, 2 * self.geometry.width)

    def kernel_constants(self) -> Dict[str, int]:
        """The game's move rules and geometry as the compile-time constants of its kernel
        (shashki/_core/kernel.pxi); setup.py writes them into the kernel's module."""
        g = self.geometry
        prec = _PRECEDENCE_KEYS[self.precedence]
        return {
            "K_W": g.width, "K_ROWS": g.rows, "K_BOARD": g.board_mask,
            "K_ROW_TOP": g.row_mask(g.rows - 1), "K_ROW_BOTTOM": g.row_mask(0),
            "K_FLYING": int(self.flying_kings), "K_MEN_BACK": int(self.men_capture_backward),
            "K_MEN_TAKE_KINGS": int(self.men_capture_kings),
            "K_PROMO": _PROMOTIONS[self.promotion],
            "K_PREC_MEN": prec[0], "K_PREC_KINGS": prec[1], "K_PREC_BY_KING": prec[2],
            "K_PREC_NKINGS": prec[3], "K_PREC_ORDER": prec[4],
        }

    @property
    def kernel_name(self) -> str:
        """The compiled kernel this game plays with: named after the first game with the same
        move rules and geometry (giveaway moves as russian does, so it uses russian's)."""
        constants = self.kernel_constants()
        return next(v.name for v in VARIANTS if v.kernel_constants() == constants)

    @property
    def rules(self) -> Kernel:
        """The compiled kernel of the game (shashki._core.movegen.Kernel), loaded on first use."""
        kernel = _KERNELS.get(self.name)
        if kernel is None:
            kernel = _KERNELS[self.name] = _load_kernel(self.kernel_name)
        return kernel

    @property
    def notation(self) -> Notation:
        """How the compiled Board writes this game's squares and moves."""
        notation = _NOTATIONS.get(self.name)
        if notation is None:
            from ._core.board import Notation  # the compiled core, on first use
            names = [self.square_name(s) for s in range(self.geometry.squares)]
            notation = _NOTATIONS[self.name] = Notation(names, self.capture_sep, self)
        return notation

    @property
    def Square(self) -> Type[enum.IntEnum]:
        """The game's squares as named constants: ``RUSSIAN.Square.C3`` in the algebraic
        games, ``ENGLISH.Square.S21`` (square 21) in the numeric ones; each is the internal
        square number (an int) that boards and moves use."""
        squares = _SQUARE_ENUMS.get(self.name)
        if squares is None:
            names = [self.square_name(s) for s in range(self.geometry.squares)]
            members = [((n.upper() if not self.numeric else f"S{n}"), s)
                       for s, n in enumerate(names)]
            made: Type[enum.IntEnum] = enum.IntEnum(  # type: ignore[misc]
                f"{self.name.title()}Square", members, module=__name__)
            squares = _SQUARE_ENUMS[self.name] = made
        return squares

    def square(self, name: str) -> int:
        """The internal square of a square's name in this game's notation (``"c3"``, ``"21"``);
        InvalidSquareError for a name that is not one of its squares."""
        index = _SQUARE_INDEX.get(self.name)
        if index is None:
            index = _SQUARE_INDEX[self.name] = {
                self.square_name(s): s for s in range(self.geometry.squares)}
        if not isinstance(name, str):
            raise InvalidSquareError(f"a square name is a string, not {type(name).__name__}")
        square = index.get(name.strip().lower())
        if square is None:
            example = "c3" if not self.numeric else "21"
            raise InvalidSquareError(
                f"{name[:20]!r} is not a square of {self.name}; expected a name like {example!r}")
        return square

    @property
    def numeric(self) -> bool:
        return self.squares != "algebraic"

    def square_name(self, square: int) -> str:
        """The name of internal square 0..31 in this game's notation."""
        if self.squares == "algebraic":
            return _sq.ALGEBRAIC_NAMES[square]
        if self.squares == "italian":
            return str(_sq.italian_number(square))
        return str(_sq.english_number(square))

    def square_from_number(self, number: int) -> int:
        """Internal square of a number 1..32 in this game's numeric notation (the english
        numbering for the algebraic games, as their numeric FEN uses)."""
        if self.squares == "italian":
            return _sq.from_italian_number(number)
        return _sq.from_english_number(number)

    def promotion_row(self, color: int) -> int:
        """The mask of the row where men of `color` are crowned."""
        return 0xF0000000 if color == WHITE else 0x0000000F


# the kernel's encodings of `promotion` and `precedence` (shashki/_core/kernel.pxi)
_PROMOTIONS = {"king": 0, "man": 1, "stop": 2}
# (weight of a man taken, of a king taken, by a king first, most kings, kings met first)
_PRECEDENCE_KEYS = {"free": (0, 0, 0, 0, 0), "majority": (1, 1, 0, 0, 0),
                    "italian": (1, 1, 1, 1, 1)}
# the kernel and the notation of each game, by game name, once loaded
_KERNELS: Dict[str, Kernel] = {}
_NOTATIONS: Dict[str, Notation] = {}
_SQUARE_ENUMS: Dict[str, Type[enum.IntEnum]] = {}
_SQUARE_INDEX: Dict[str, Dict[str, int]] = {}


def _load_kernel(name: str) -> Kernel:
    from ._core.movegen import Kernel  # the compiled core, on first use of a game's rules
    for kernel in _KERNELS.values():
        if kernel.name == name:
            return kernel
    return Kernel(name, importlib.import_module(f"shashki._core.kernels.{name}").ops)

_ALGEBRAIC_START = ("W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:"
                    "Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8")

RUSSIAN = Variant(
    name="russian", aliases=("shashki", "russian-draughts"), title="Russian draughts",
    flying_kings=True, men_capture_backward=True, men_capture_kings=True,
    promotion="king", precedence="free", first_to_move=WHITE, reversed_goal=False,
    squares="algebraic", capture_sep=":", gametype=25, pdn_gametype="25,W,8,8,A0,0",
    start_fen=_ALGEBRAIC_START, kings_only_limit=15, fmjd_endgame_rules=True,
    match_openings="micro-match")

GIVEAWAY = Variant(
    name="giveaway", aliases=("poddavki", "russian-giveaway", "antidraughts"),
    title="Russian giveaway (poddavki)",
    flying_kings=True, men_capture_backward=True, men_capture_kings=True,
    promotion="king", precedence="free", first_to_move=WHITE, reversed_goal=True,
    squares="algebraic", capture_sep=":", gametype=25, pdn_gametype="25,W,8,8,A0,0",
    start_fen=_ALGEBRAIC_START, kings_only_limit=15)

BRAZILIAN = Variant(
    name="brazilian", aliases=("brazil",), title="Brazilian draughts",
    flying_kings=True, men_capture_backward=True, men_capture_kings=True,
    promotion="man", precedence="majority", first_to_move=WHITE, reversed_goal=False,
    squares="algebraic", capture_sep="x", gametype=26, pdn_gametype="26,W,8,8,A0,0",
    start_fen=_ALGEBRAIC_START, kings_only_limit=15, match_openings="micro-match")

ITALIAN = Variant(
    name="italian", aliases=("dama", "italian-draughts"), title="Italian draughts",
    flying_kings=False, men_capture_backward=False, men_capture_kings=False,
    promotion="stop", precedence="italian", first_to_move=WHITE, reversed_goal=False,
    squares="italian", capture_sep="x", gametype=22, pdn_gametype="22,W,8,8,N2,1",
    start_fen="W:W21-32:B1-12", kings_only_limit=40, mirrored=True, match_openings="11-man")

ENGLISH = Variant(
    name="english", aliases=("american", "checkers", "english-draughts"),
    title="English draughts (American checkers)",
    flying_kings=False, men_capture_backward=False, men_capture_kings=True,
    promotion="stop", precedence="free", first_to_move=BLACK, reversed_goal=False,
    squares="english", capture_sep="x", gametype=21, pdn_gametype="21,B,8,8,N1,0",
    start_fen="B:W21-32:B1-12", kings_only_limit=0, no_progress_limit=40,
    playstrategy_algebraic=True, draw_claims=("threefold_repetition", "no_progress"),
    match_openings="3-move")

VARIANTS = (RUSSIAN, GIVEAWAY, BRAZILIAN, ITALIAN, ENGLISH)


def kernels() -> Dict[str, Dict[str, int]]:
    """Every compiled kernel: its name and compile-time constants (what setup.py builds)."""
    return {v.kernel_name: v.kernel_constants() for v in VARIANTS}

_BY_NAME: Dict[str, Variant] = {}
for _v in VARIANTS:
    _BY_NAME[_v.name] = _v
    for _a in _v.aliases:
        _BY_NAME[_a] = _v


def get_variant(name: Union[str, Variant]) -> Variant:
    """The Variant for a name or alias (case-insensitive); a Variant is returned as is."""
    if isinstance(name, Variant):
        return name
    if not isinstance(name, str):
        raise InvalidVariantError(f"a variant name must be a string, not {type(name).__name__}")
    key = name.strip().lower().replace("_", "-")
    try:
        return _BY_NAME[key]
    except KeyError:
        raise InvalidVariantError(
            f"unknown variant {name!r}; expected one of {', '.join(sorted(_BY_NAME))}") from None
