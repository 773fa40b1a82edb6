"""The games: one frozen record per game, and the one place a game's rules are written.

Each record holds the game's move rules (which the compiled kernels take as constants: setup.py
reads these records and compiles one kernel per distinct set), its board, notation, draw rules,
names in file formats and protocols, opening tables and engine defaults.  Every other module
asks the record; none tests a game's name.  Adding a game that recombines existing rules is a
new record here (and its tests and data).  The rules are stated in docs/games/index.md, the
games' pages beside it, and docs/games/more.md.

This module imports nothing compiled, so setup.py can read it before the kernels exist.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Dict, Optional, Tuple, Type, Union

from .colors import BLACK as BLACK, WHITE as WHITE, Color
from .errors import InvalidSquareError, InvalidVariantError
from .geometry import EIGHT, FULL_EIGHT, TEN, Geometry
from .square_text import SquareTextError, read_square

#: the name of each side, indexed by colour (shashki.BLACK is 0, WHITE 1)
COLOR_NAMES: Tuple[str, str] = ("black", "white")
# The sizes of the learning surfaces (Game.action_space_size, Game.planes_shape), defined here
# once: setup.py writes them into the core's enums (_core/enums.pxd), which sizes its buffers
# by them (_core/spaces.pxd).
#: actions beyond the (origin, destination) pairs: the actions number positions of at most 512
#: legal moves (the move lists' room in place), so at most 511 captures share their two
#: squares with another one; a position with more is refused (ActionSpaceError).  One less than
#: the kernels' MAXMOVES (kernel.pxd), which sizes the surfaces' arrays: tests/test_actions.py
#: checks the two together
ALTERNATE_ACTIONS = 511
#: the planes of Board.planes()
OBSERVATION_PLANES = 10


class Promotion(str, enum.Enum):
    """What a man that reaches the far row in the middle of a capture does."""

    KING = "king"       #: it is crowned at once and goes on capturing as a king (russian)
    MAN = "man"         #: it goes on as a man, crowned only if the move ends there (brazilian)
    STOP = "stop"       #: the move ends there and the man is crowned (italian, english)


@dataclass(frozen=True)
class Precedence:
    """Which capture sequences may be chosen, as one lexicographic key (compared first on the
    weighted number of pieces taken, then on the flags in order); a game with every weight 0
    chooses freely.  The kernels compute the key with these weights as constants."""

    name: str
    men: int = 0                #: weight of a man taken
    kings: int = 0              #: weight of a king taken
    by_king: bool = False       #: a capture by a king beats one by a man
    most_kings: bool = False    #: then the most kings taken
    kings_first: bool = False   #: then the sequence that meets a king earliest

    @property
    def free(self) -> bool:
        return not (self.men or self.kings or self.by_king or self.most_kings or
                    self.kings_first)


FREE = Precedence("free")
#: brazilian and international (FMJD 4.13): the most pieces, men and kings alike
MAJORITY = Precedence("majority", men=1, kings=1)
#: FID art. 6.6-6.10: docs/games/italian.md, "Priority among captures", (1)-(4)
ITALIAN_PRIORITIES = Precedence("italian", men=1, kings=1, by_king=True, most_kings=True,
                                kings_first=True)


class Numbering(str, enum.Enum):
    """How a game names its squares."""

    ALGEBRAIC = "algebraic"     #: a1..h8, a1 the dark corner on White's left
    NUMERIC = "english"         #: 1.. row by row from the top-left dark square seen from White
    MIRRORED = "italian"        #: the same on a mirrored board: each row read right to left


@dataclass(frozen=True)
class EndgameDraws:
    """The draw rules of a game's endings against a lone king, in the words of its rule book.

    Each limit is a number of moves (0: no such rule).  Under FMJD-64 (russian) a limit counts
    the moves of the stronger side ("by its 5th move"); with `each_side` (FMJD international
    6.3-6.4: "16 moves each") the moves of each side.  The counts start when their
    configuration arose (7.2.4, and pool's rule: from the capture or promotion that made the
    balance); shashki.outcome documents the readings.
    """

    name: str
    #: three kings or more against a lone king (FMJD-64 7.2.4: 15; APCA pool: 13)
    kings_vs_lone_king: int = 0
    #: both sides have kings and the balance is unchanged: moves with 4-5 and with 6-7 pieces
    #: on the board (FMJD-64 7.2.6: 30 and 60)
    balance: Tuple[int, int] = (0, 0)
    #: three pieces, one a king, against a lone king (FMJD-64 7.2.7: 5, the lone king on the
    #: main road; FMJD 6.3: 16 moves each, anywhere)
    three_vs_lone_king: int = 0
    three_on_main_road: bool = False
    #: two pieces or fewer, one a king, against a lone king (7.2.8: 5; FMJD 6.4: 5 each)
    few_vs_lone_king: int = 0
    each_side: bool = False
    #: frisian: kings only, two against one: moves of each side before a draw (7), counted from
    #: when it arose; one king against one king (2 moves each)
    two_kings_vs_king: int = 0
    king_vs_king: int = 0
    #: turkish: one piece against one piece, of any kind, is drawn at once
    one_piece_each: bool = False
    #: the articles that name each termination while these rules are in force
    articles: Tuple[Tuple[str, str], ...] = ()


#: FMJD-64 7.2 (russian; an option in brazilian)
FMJD_64 = EndgameDraws(
    "FMJD-64", kings_vs_lone_king=15, balance=(30, 60), three_vs_lone_king=5,
    three_on_main_road=True, few_vs_lone_king=5,
    articles=(("threefold_repetition", "7.2.3"), ("kings_vs_lone_king", "7.2.4"),
              ("kings_only_moves", "7.2.5"), ("balance_unchanged", "7.2.6"),
              ("lone_king_on_main_road", "7.2.7"), ("few_pieces_vs_lone_king", "7.2.8")))
#: the highest value (frisian): a king counts more than a man and less than two (2 kings beat 3
#: men; 1 king loses to 2 men), as lidraughts counts it, 199 against 100: "a little less than
#: two men", so that captures are compared on men + 2 * kings, then on the fewer kings (which
#: no count of 20 pieces can tell from 2 - epsilon); at equal value a king's capture first
FRISIAN_VALUE = Precedence("frisian", men=100, kings=199, by_king=True)

#: FMJD rules of international draughts, art. 6 (and its family)
FMJD_INTERNATIONAL = EndgameDraws(
    "FMJD", three_vs_lone_king=16, few_vs_lone_king=5, each_side=True,
    articles=(("threefold_repetition", "6.1"), ("kings_only_moves", "6.2"),
              ("three_pieces_vs_lone_king", "6.3"), ("few_pieces_vs_lone_king", "6.4")))
#: frisian (KNDB/DFS rules as lidraughts and pydraughts read them; shashki.outcome): two kings
#: against one must win in 7 moves; one king against one is a draw (the rule book: at once,
#: unless a capture is forced now or next move; lidraughts and pydraughts allow 2 moves each
#: for it, and so does shashki)
FRISIAN_DRAWS = EndgameDraws("KNDB frisian", two_kings_vs_king=7, king_vs_king=2,
                             each_side=True)
#: APCA: three kings against one king must win within thirteen moves
APCA = EndgameDraws("APCA", kings_vs_lone_king=13)


@dataclass(frozen=True)
class OpeningTable:
    """An opening table shipped as package data (shashki/data/openings)."""

    id: str
    file: str
    description: str


@dataclass(frozen=True)
class EngineDefaults:
    """The engine's evaluation weights for a game (shashki.engine), in hundredths of a man."""

    man: int = 100
    king: int = 300
    advance: int = 3            #: per row a man has advanced
    back_rank: int = 6          #: per man still guarding its own back row
    centre: int = 4             #: per piece on the centre squares

    def weights(self) -> Dict[str, int]:
        return {"man": self.man, "king": self.king, "advance": self.advance,
                "back_rank": self.back_rank, "centre": self.centre}


@dataclass(frozen=True)
class Variant:
    name: str
    aliases: Tuple[str, ...]
    title: str
    # --- move rules (the kernel's compile-time constants) ---
    flying_kings: bool
    men_capture_backward: bool
    men_capture_kings: bool
    promotion: Promotion
    precedence: Precedence
    first_to_move: Color
    #: True in giveaway and antidraughts: the side that cannot move wins
    reversed_goal: bool
    # --- notation and files ---
    squares: Numbering
    capture_sep: str
    #: PDN GameType number, and the whole GameType tag shashki writes
    gametype: int
    pdn_gametype: str
    start_fen: str
    # --- draw rules ---
    #: moves (of each side) of kings only, with no man move and no capture, before a draw
    kings_only_limit: int
    #: moves (of each side) without a man move or capture before a draw (english), or 0
    no_progress_limit: int = 0
    #: the draw rules of endings against a lone king the game's rule book has (or may take)
    endgame_draws: Optional[EndgameDraws] = None
    #: whether those apply by default (brazilian may take the FMJD-64 set as an option)
    fmjd_endgame_rules: bool = False
    #: the draws a player must claim (the values of shashki.outcome.Termination): english,
    #: by the WCDF rules; every other game's draws are automatic
    draw_claims: Tuple[str, ...] = ()
    #: a capturing flying king lands on the square just beyond the piece it takes (thai)
    king_lands_next: bool = False
    #: each piece taken leaves the board at once, instead of when the move ends (thai: no
    #: Turkish strike)
    remove_at_once: bool = False
    #: a capture may not turn back the way it came between two pieces (a 180-degree turn):
    #: where the pieces taken stay on the board until the move ends the piece just taken
    #: blocks that way anyway; where they leave at once (turkish) the rule forbids it
    no_turn_back: bool = False
    #: the first side to crown a king wins (breakthrough)
    crowning_wins: bool = False
    #: men and kings capture along ranks and files too, not only diagonally (frisian): a man
    #: the piece on the next dark square of its row or column, a king at any distance
    orthogonal_captures: bool = False
    #: the most quiet moves the same king may make in a row while its side also has men (0: no
    #: such limit; frisian: 3).  The count is part of the position (Board.king_runs, the FEN)
    king_move_limit: int = 0
    # --- the board ---
    geometry: Geometry = field(default=EIGHT, repr=False)
    # --- dialects ---
    #: PlayStrategy's PDN names this game's squares algebraically, as seen from the side that
    #: moves first, instead of by number (shashki.pdn reads that dialect)
    playstrategy_algebraic: bool = False
    #: the values of the Hub protocol's `variant` parameter that name this game, the first the
    #: one `shashki hub` declares (Scan's names where Scan plays the game); none: its name
    hub_names: Tuple[str, ...] = ()
    # --- openings and engine ---
    #: the opening tables shipped for the game (shashki.openings), in the order listed
    opening_tables: Tuple[OpeningTable, ...] = ()
    #: where `shashki match` takes its openings when none are named: the id of one of the
    #: game's opening tables, "start" or "random"
    match_openings: str = "random"
    engine: EngineDefaults = field(default=EngineDefaults(), repr=False)

    # --- derived ---------------------------------------------------------------------------

    def __reduce__(self) -> Tuple[object, ...]:
        # one record a game: pickled by name, found again by it
        return (get_variant, (self.name,))

    @property
    def numeric(self) -> bool:
        return self.squares is not Numbering.ALGEBRAIC

    @property
    def hub_name(self) -> str:
        """The game's value of the Hub protocol's `variant` parameter."""
        return self.hub_names[0] if self.hub_names else self.name

    @property
    def mirrored(self) -> bool:
        """The board is drawn mirrored, its bottom-left corner light and h1 dark (italian);
        the rules are the same either way."""
        return self.squares is Numbering.MIRRORED

    def square_name(self, square: int) -> str:
        """The name of internal square `square` (0..) in this game's notation."""
        g = self.geometry
        if self.squares is Numbering.ALGEBRAIC:
            file, rank = g.coords(square)
            return "abcdefghijklmnop"[file] + str(rank + 1)
        return str(self._number(square))

    def _number(self, square: int) -> int:
        row, col = divmod(square, self.geometry.width)
        if self.squares is Numbering.MIRRORED:
            col = self.geometry.width - 1 - col
        return (self.geometry.rows - 1 - row) * self.geometry.width + col + 1

    def square_from_number(self, number: int) -> int:
        """Internal square of a number 1.. in this game's numeric notation (the english-style
        numbering for the algebraic games, as their numeric FEN uses)."""
        g = self.geometry
        row_from_top, col = divmod(number - 1, g.width)
        if self.squares is Numbering.MIRRORED:
            col = g.width - 1 - col
        return (g.rows - 1 - row_from_top) * g.width + col

    def promotion_row(self, color: int) -> int:
        """The square mask of the row where men of `color` are crowned."""
        g = self.geometry
        row = g.rows - 1 if color == WHITE else 0
        return ((1 << g.width) - 1) << (row * g.width)

    @property
    def Square(self) -> Type[enum.IntEnum]:
        """The game's squares as named constants: ``RUSSIAN.Square.C3`` in the algebraic
        games, ``ENGLISH.Square.S21`` (square 21) in the numeric ones; each is the internal
        square number (an int) that boards and moves use."""
        squares = _SQUARE_ENUMS.get(self.name)
        if squares is None:
            members = [((n.upper() if not self.numeric else f"S{n}"), s)
                       for s, n in enumerate(self._names())]
            made: Type[enum.IntEnum] = enum.IntEnum(  # type: ignore[misc]
                f"{self.name.title()}Square", members, module=__name__)
            squares = _SQUARE_ENUMS[self.name] = made
        return squares

    def square(self, name: str) -> int:
        """The internal square of a square's name in this game's notation (``"c3"``, ``"21"``);
        InvalidSquareError for a name that is not one of its squares."""
        if not isinstance(name, str):
            raise InvalidSquareError(f"a square name is a string, not {type(name).__name__}")
        try:
            return read_square(name.strip().lower(), self)
        except SquareTextError as error:
            raise InvalidSquareError(f"{name[:20]!r} is not a square of {self.name}: "
                                     f"{error.plain()}") from None

    def _names(self) -> Tuple[str, ...]:
        names = _NAMES.get(self.name)
        if names is None:
            names = _NAMES[self.name] = tuple(self.square_name(s)
                                              for s in range(self.geometry.squares))
        return names

    # --- the compiled core -------------------------------------------------------------------

    @property
    def action_space_size(self) -> int:
        """The number of actions of the game (Board.move_to_action; Game.action_space_size):
        an action for each (origin, destination) pair of squares, and ALTERNATE_ACTIONS more
        for the captures that join the same two squares as another one.  1535 on 8x8.  The
        one formula: the kernel is compiled with it (K_ACTIONS), which sizes the core's
        buffers (_core/spaces.pxd)."""
        return self.geometry.squares ** 2 + ALTERNATE_ACTIONS

    @property
    def planes_shape(self) -> Tuple[int, int, int]:
        """The shape of Board.planes(): (planes, rows, files) (Game.planes_shape)."""
        return (OBSERVATION_PLANES, self.geometry.rows, self.geometry.files)

    def kernel_constants(self) -> Dict[str, Union[int, Tuple[int, ...]]]:
        """The game's move rules and geometry as the compile-time constants of its kernel
        (shashki/_core/kernel.pxi); setup.py writes them into the kernel's module."""
        p = self.precedence
        return {
            **self.geometry.kernel_constants(),
            "K_FLYING": int(self.flying_kings), "K_LANDS_NEXT": int(self.king_lands_next),
            "K_REMOVE_AT_ONCE": int(self.remove_at_once),
            "K_NO_TURN_BACK": int(self.no_turn_back),
            "K_MEN_BACK": int(self.men_capture_backward),
            "K_MEN_TAKE_KINGS": int(self.men_capture_kings),
            "K_PROMO": _PROMOTION_CODES[self.promotion],
            "K_PREC_MEN": p.men, "K_PREC_KINGS": p.kings, "K_PREC_BY_KING": int(p.by_king),
            "K_PREC_NKINGS": int(p.most_kings), "K_PREC_ORDER": int(p.kings_first),
            "K_ORTHO": int(self.orthogonal_captures),
            "K_KING_LIMIT": self.king_move_limit,
            "K_ACTIONS": self.action_space_size,
        }

    @property
    def kernel_name(self) -> str:
        """The compiled kernel this game plays with: named after the first game with the same
        move rules and geometry (giveaway moves as russian does, so it uses russian's)."""
        name = _KERNEL_NAMES.get(self.name)
        if name is None:
            constants = self.kernel_constants()
            name = _KERNEL_NAMES[self.name] = next(
                v.name for v in VARIANTS if v.kernel_constants() == constants)
        return name


# the kernel's encoding of `promotion`: setup.py writes the C enum (_core/enums.pxd, PROMO_<NAME>)
# from the class in its order
_PROMOTION_CODES = {p: i for i, p in enumerate(Promotion)}
# what each game computed once, by game name
_KERNEL_NAMES: Dict[str, str] = {}
_NAMES: Dict[str, Tuple[str, ...]] = {}
_SQUARE_ENUMS: Dict[str, Type[enum.IntEnum]] = {}


# --- the records ---------------------------------------------------------------------------------

_ALGEBRAIC_START = ("W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:"
                    "Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8")
_MICRO_RU = OpeningTable("micro-match", "russian.json",
                         "IDF table by GM D. Tsinman (2017) for micro-matches: 745 positions in "
                         "categories I-XXXIII")
_MICRO_BR = OpeningTable("micro-match", "brazilian.json",
                         "FMJD Drawing Table 64 for brazilian: 736 positions in categories "
                         "I-XXXIII")
_BASIC = OpeningTable("basic-150", "150russian_and_brazilian.json",
                      "IDF table of 150 basic positions")
# the engine's weights: short kings are worth less and men's advance more
_FLYING_ENGINE = EngineDefaults(king=300, advance=3)
_SHORT_ENGINE = EngineDefaults(king=150, advance=4)

RUSSIAN = Variant(
    name="russian", aliases=("shashki", "russian-draughts"), title="Russian draughts",
    flying_kings=True, men_capture_backward=True, men_capture_kings=True,
    promotion=Promotion.KING, precedence=FREE, first_to_move=WHITE, reversed_goal=False,
    squares=Numbering.ALGEBRAIC, capture_sep=":", gametype=25, pdn_gametype="25,W,8,8,A0,0",
    start_fen=_ALGEBRAIC_START, kings_only_limit=15, endgame_draws=FMJD_64,
    fmjd_endgame_rules=True,
    opening_tables=(_MICRO_RU, _BASIC), match_openings="micro-match", engine=_FLYING_ENGINE)

# the russian rules, played to lose
GIVEAWAY = replace(
    RUSSIAN, name="giveaway", aliases=("poddavki", "russian-giveaway"),
    title="Russian giveaway (poddavki)", reversed_goal=True, endgame_draws=None,
    fmjd_endgame_rules=False, opening_tables=(), match_openings="random")

BRAZILIAN = Variant(
    name="brazilian", aliases=("brazil",), title="Brazilian draughts",
    flying_kings=True, men_capture_backward=True, men_capture_kings=True,
    promotion=Promotion.MAN, precedence=MAJORITY, first_to_move=WHITE, reversed_goal=False,
    squares=Numbering.ALGEBRAIC, capture_sep="x", gametype=26, pdn_gametype="26,W,8,8,A0,0",
    start_fen=_ALGEBRAIC_START, kings_only_limit=15, endgame_draws=FMJD_64,
    opening_tables=(_MICRO_BR, _BASIC), match_openings="micro-match", engine=_FLYING_ENGINE)

ITALIAN = Variant(
    name="italian", aliases=("dama", "italian-draughts"), title="Italian draughts",
    flying_kings=False, men_capture_backward=False, men_capture_kings=False,
    promotion=Promotion.STOP, precedence=ITALIAN_PRIORITIES, first_to_move=WHITE,
    reversed_goal=False, squares=Numbering.MIRRORED, capture_sep="x", gametype=22,
    pdn_gametype="22,W,8,8,N2,1", start_fen="W:W21-32:B1-12", kings_only_limit=40,
    opening_tables=(OpeningTable("11-man", "11_italian.json",
                                 "italian 11-man ballot: 2400 positions, one man of each side "
                                 "removed"),),
    match_openings="11-man", engine=_SHORT_ENGINE)

ENGLISH = Variant(
    name="english", aliases=("american", "checkers", "english-draughts"),
    title="English draughts (American checkers)",
    flying_kings=False, men_capture_backward=False, men_capture_kings=True,
    promotion=Promotion.STOP, precedence=FREE, first_to_move=BLACK, reversed_goal=False,
    squares=Numbering.NUMERIC, capture_sep="x", gametype=21, pdn_gametype="21,B,8,8,N1,0",
    start_fen="B:W21-32:B1-12", kings_only_limit=0, no_progress_limit=40,
    draw_claims=("threefold_repetition", "no_progress"), playstrategy_algebraic=True,
    opening_tables=(
        OpeningTable("2-move", "2move_english.json",
                     "two-move ballot: 49 openings, 6 barred as lost"),
        OpeningTable("3-move", "3move_english.json",
                     "ACF three-move ballot: 174 openings, 18 barred as lost"),
        OpeningTable("4-move", "4move_english.json", "four-move ballot: 794 openings"),
        OpeningTable("5-move", "5move_english.json", "five-move ballot: 2700 openings"),
        OpeningTable("11-man", "11_english.json",
                     "11-man ballot: 2500 openings, one man of each side removed, then two "
                     "moves"),
    ),
    match_openings="3-move", engine=_SHORT_ENGINE)

# --- 10x10: international and its family (FMJD) ---------------------------------------------

_INTERNATIONAL_START = "W:W31-50:B1-20"

INTERNATIONAL = Variant(
    name="international", aliases=("international-draughts", "fmjd", "polish"),
    title="International draughts",
    flying_kings=True, men_capture_backward=True, men_capture_kings=True,
    promotion=Promotion.MAN, precedence=MAJORITY, first_to_move=WHITE, reversed_goal=False,
    squares=Numbering.NUMERIC, capture_sep="x", gametype=20, pdn_gametype="20,W,10,10,N2,0",
    start_fen=_INTERNATIONAL_START, kings_only_limit=25, endgame_draws=FMJD_INTERNATIONAL,
    fmjd_endgame_rules=True, geometry=TEN,
    # Scan's name, and pydraughts' and lidraughts' ("standard")
    hub_names=("normal", "standard"), engine=_FLYING_ENGINE)

# the international rules, played to lose
ANTIDRAUGHTS = replace(
    INTERNATIONAL, name="antidraughts", aliases=("anti", "international-giveaway"),
    title="Antidraughts (international giveaway)", reversed_goal=True, hub_names=("losing",))

# the international rules; the first king wins
BREAKTHROUGH = replace(
    INTERNATIONAL, name="breakthrough", aliases=("breakthrough-draughts",),
    title="Breakthrough draughts (the first king wins)", crowning_wins=True,
    kings_only_limit=0, endgame_draws=None, fmjd_endgame_rules=False, hub_names=("bt",))

# --- 8x8: the other national games ---------------------------------------------------------------

POOL = Variant(
    name="pool", aliases=("pool-checkers", "american-pool"), title="Pool checkers (APCA)",
    flying_kings=True, men_capture_backward=True, men_capture_kings=True,
    promotion=Promotion.MAN, precedence=FREE, first_to_move=BLACK, reversed_goal=False,
    squares=Numbering.NUMERIC, capture_sep="x", gametype=23, pdn_gametype="23,B,8,8,N1,0",
    start_fen="B:W21-32:B1-12", kings_only_limit=0, endgame_draws=APCA,
    fmjd_endgame_rules=True, engine=_FLYING_ENGINE)

SPANISH = Variant(
    name="spanish", aliases=("spanish-draughts", "damas"), title="Spanish draughts",
    flying_kings=True, men_capture_backward=False, men_capture_kings=True,
    promotion=Promotion.STOP, precedence=Precedence("spanish", men=1, kings=1, most_kings=True),
    first_to_move=WHITE, reversed_goal=False, squares=Numbering.MIRRORED, capture_sep="x",
    gametype=24, pdn_gametype="24,W,8,8,N2,1", start_fen="W:W21-32:B1-12", kings_only_limit=0,
    engine=_FLYING_ENGINE)

CZECH = Variant(
    name="czech", aliases=("czech-draughts",), title="Czech draughts",
    flying_kings=True, men_capture_backward=False, men_capture_kings=True,
    promotion=Promotion.STOP, precedence=Precedence("czech", by_king=True),
    first_to_move=WHITE, reversed_goal=False, squares=Numbering.ALGEBRAIC, capture_sep=":",
    gametype=29, pdn_gametype="29,W,8,8,A0,0", start_fen=_ALGEBRAIC_START, kings_only_limit=0,
    engine=_FLYING_ENGINE)

THAI = Variant(
    name="thai", aliases=("thai-draughts", "mak-hos"), title="Thai draughts (mak-hos)",
    flying_kings=True, king_lands_next=True, remove_at_once=True, men_capture_backward=False,
    men_capture_kings=True, promotion=Promotion.STOP, precedence=FREE, first_to_move=WHITE,
    reversed_goal=False, squares=Numbering.ALGEBRAIC, capture_sep=":", gametype=31,
    pdn_gametype="31,W,8,8,A0,0", start_fen="W:Wa1,c1,e1,g1,b2,d2,f2,h2:Ba7,c7,e7,g7,b8,d8,f8,h8",
    kings_only_limit=0, engine=_FLYING_ENGINE)

# --- frisian (KNDB) ---------------------------------------------------------------------------

FRISIAN = replace(
    INTERNATIONAL, name="frisian", aliases=("frisian-draughts", "fries", "frysk-damjen"),
    title="Frisian draughts", orthogonal_captures=True, king_move_limit=3,
    precedence=FRISIAN_VALUE, gametype=40, pdn_gametype="40,W,10,10,N2,0",
    kings_only_limit=0, endgame_draws=FRISIAN_DRAWS, fmjd_endgame_rules=True,
    hub_names=("frisian",))

# frisian with five men each on the back row (lidraughts' "frysk")
FRYSK = replace(
    FRISIAN, name="frysk", aliases=("frysk!",), title="Frysk! (frisian, five men each)",
    start_fen="W:W46-50:B1-5", hub_names=("frysk",))

# --- turkish (dama) ---------------------------------------------------------------------------

#: Turkish draughts (dama), by the rules of the Türk Daması Federasyonu (TÜDAF), the federation
#: that holds the international championships; the Türkiye Dama Federasyonu's own rule book
#: of the game was not found (its published 2018/2019 tournament rules say only that White
#: begins).  docs/games/more.md, "Turkish", states the rules; the sources of its points:
#:
#: - A man that reaches the last row in the middle of a capture goes on capturing as a man
#:   (along the last row: it captures forward or sideways only) and is crowned when the move
#:   ends; it never goes on as a king within that move.  TÜDAF, Uluslararası Türk Dama
#:   Şampiyonası Kuralları 2021, rule 1h: "Oyuncu taş alarak damaya çıkıyorsa bitişikte
#:   rakibin daması varsa yoz taş gibi almaya devam eder ve kalır. Taş toplama işlemine
#:   başlayamaz. Rakibin hamlesinden sonra DAMA vasfını kazanır." (it goes on capturing like
#:   a man; it may not begin a king's collecting of pieces; it becomes a king after the
#:   opponent's move, which gives the same legal moves as at the end of its own).  Sources
#:   that crown it at once (draughts.github.io) or end the move there (setupgroup.com) are
#:   not the federation's.  As pydraughts 0.6.7 plays it.
#: - The maximum capture is compulsory, men and kings counting one each, with no priority
#:   for a king's capture; a piece taken leaves the board at once; a king lands on any empty
#:   square beyond; a capture may not turn 180 degrees between two pieces (TÜDAF's rule
#:   book, Türk Daması Kuralları, as transcribed; Ali Erdoğan Örnek, Dama, oyunlar ve
#:   açmazlar, 1974: the side with more pieces must be taken "even if the fewer hold the
#:   opponent's king").
#: - The game ends when the side to move has no piece or no legal move (it loses); one piece
#:   against one piece, a king included, is drawn at once (damaakademisi.com, Türk daması
#:   §19b: "Her iki oyuncunun birer taşı kaldığında ve bu iki taşın biri dama olsa bile oyun
#:   GAYYIM (berabere) olarak sonuçlanır"; TÜDAF "Beraberlik" likewise), and threefold
#:   repetition draws.  No rule makes a king against a lone man a win, and no move count
#:   draws (TÜDAF leaves a game without progress to the arbiter).  pydraughts draws one
#:   piece against one after two moves each, with no source: shashki follows the rule book.
#: - PDN GameType 30 (PDN 3.0; pydraughts writes "30,W,8,8,A0,0"); squares a1-h8 as in
#:   chess, White on ranks 2 and 3; moves d3-d4 and d4xd6, with every landing square where
#:   two captures join the same squares.
TURKISH_DRAWS = EndgameDraws("TÜDAF", one_piece_each=True,
                             articles=(("one_piece_each", "GAYYIM"),))

TURKISH = Variant(
    name="turkish", aliases=("turkish-draughts", "turk-damasi"), title="Turkish draughts (dama)",
    flying_kings=True, men_capture_backward=False, men_capture_kings=True,
    promotion=Promotion.MAN, precedence=MAJORITY, first_to_move=WHITE, reversed_goal=False,
    remove_at_once=True, no_turn_back=True,
    squares=Numbering.ALGEBRAIC, capture_sep="x", gametype=30, pdn_gametype="30,W,8,8,A0,0",
    start_fen=("W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:"
               "Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7"),
    kings_only_limit=0, endgame_draws=TURKISH_DRAWS, fmjd_endgame_rules=True,
    geometry=FULL_EIGHT, engine=_FLYING_ENGINE)

VARIANTS = (RUSSIAN, GIVEAWAY, BRAZILIAN, ITALIAN, ENGLISH, INTERNATIONAL, ANTIDRAUGHTS,
            BREAKTHROUGH, POOL, SPANISH, CZECH, THAI, FRISIAN, FRYSK, TURKISH)
#: the game a Board plays when none is named
DEFAULT = RUSSIAN


def kernels() -> Dict[str, Dict[str, Union[int, Tuple[int, ...]]]]:
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
