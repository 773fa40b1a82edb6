"""Game end: who won and by which rule (Outcome, Termination), and the counters behind the draw
rules (DrawCounters).

The rules themselves are computed in C, once, in shashki/_core/draws.pxd: Board.outcome() and
the search use that one implementation.  This module holds the Python values and documents
the readings of the rule books it follows.

The rules are stated in docs/games/draws.md ("Draws and the end of the game").  Counts there are in
moves of EACH side, so "15 moves" is 30 plies; the counters below count plies.

Automatic draws and claims
--------------------------
A rule book either says the game *is* drawn when a condition holds (the arbiter records it, no
one has to ask), or lets a player *claim* the draw.  `Board.outcome()` reports automatic draws;
`Board.outcome(claim_draw=True)` also grants the claims.

- russian: FMJD-64 rules, art. 7.2 ("the game is drawn ... if": 7.2.3 repetition, 7.2.4 ...
  7.2.8) state each case as an outcome of the game, not as a player's request, and the platforms
  that play under FMJD-64 rules (lidraughts) apply them automatically.  All automatic.
- brazilian: seed 001 states the 15 king-moves rule as an outcome ("a draw occurs"), not a
  request, and threefold repetition draws alongside it.  Automatic; with `fmjd_draw_rules=True`
  the FMJD-64 set above applies instead.
- giveaway: no federation rule book; seed 000 states both rules as "a draw if ...", as for
  russian.  Automatic.
- italian: seed 000 ("a draw after 40 king moves of each side ...", "a draw if the same position
  occurs the third time") states outcomes, not claims; the FID Capo I text was not at hand, so
  this follows the seed.  Automatic.
- english: the WCDF rules of draughts say a game "shall be declared drawn where, at any stage of
  the game, a player can demonstrate to the satisfaction of the referee that with their next move
  they would create the same position for the third time", or that "neither player has advanced
  an uncrowned man towards the king-row during their own previous 40 moves" and "no pieces have
  been removed from the board during their own previous 40 moves".  Both are claims
  (`_CLAIMED_DRAWS`); the repetition claim may be made before the move that repeats (WCDF's
  wording), and, as in chess, once the position has occurred three times.

Readings of FMJD-64 7.2 where the articles leave a choice
---------------------------------------------------------
- 7.2.4 ("three kings (or more) against a single enemy king"): the stronger side needs three
  kings; men beside them do not matter.  Its 15 moves count from the last capture or promotion.
- 7.2.6: "4-5 / 6-7 pieces" are the pieces of both sides on the board; 30 and 60 moves of each
  side, counted from the last capture or promotion.
- 7.2.7 and 7.2.8: the stronger side has a king (the articles list three kings, two kings and
  a man, a king and two men / two kings, a king and a man, a king).  The 5 moves count from
  when the configuration arose and go on while it lasts (a crowning inside it does not restart
  them); the lone king must stand on the main road after every move for 7.2.7.  In king
  against king each side is the stronger one: the first 5th move ends the game.
- No rule decides "achieved a winning position": while the configuration stands after the
  stronger side's 5th move, the game is drawn.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Dict, NamedTuple, Optional

from .colors import BLACK, WHITE, Color
from .errors import InvalidColorError
from .geometry import EIGHT

if TYPE_CHECKING:
    from .variants import Variant

#: the main road (большая дорога) of the 8x8 board: the long diagonal a1-h8
MAIN_ROAD = EIGHT.main_road_mask

class Termination(enum.Enum):
    """Why a game ended.  Members for an article of the FMJD-64 rules carry it in `.article`
    (e.g. ``Termination.KINGS_VS_LONE_KING.article == "7.2.4"``); `.text` states the rule."""

    article: Optional[str]
    text: str

    def __new__(cls, value: str, article: Optional[str], text: str) -> Termination:
        member = object.__new__(cls)
        member._value_ = value
        member.article = article
        member.text = text
        return member

    NO_MOVES = ("no_moves", None,
                "the side to move has no legal move (no pieces, or all blocked): it loses; "
                "in giveaway it wins.  Also a set-up position where the side that has just "
                "moved has no pieces: that side has lost (in giveaway, won)")
    THREEFOLD_REPETITION = ("threefold_repetition", None,
                            "the same position with the same side to move for the third time")
    KINGS_ONLY_MOVES = ("kings_only_moves", None,
                        "both sides moved only kings, no man moved and nothing was captured, "
                        "for 15 moves of each side (40 in italian)")
    NO_PROGRESS = ("no_progress", None,
                   "40 moves of each side with no man advanced and no piece captured (english)")
    KINGS_VS_LONE_KING = ("kings_vs_lone_king", "7.2.4",
                          "three or more kings against a lone king: the stronger side has not "
                          "captured it by its 15th move, counted from when that balance arose")
    BALANCE_UNCHANGED = ("balance_unchanged", "7.2.6",
                         "both sides have kings and the balance of forces has not changed (no "
                         "capture, no promotion) for 30 moves with 4-5 pieces on the board, "
                         "60 moves with 6-7")
    LONE_KING_ON_MAIN_ROAD = ("lone_king_on_main_road", "7.2.7",
                              "three pieces, at least one a king, against a lone king on the "
                              "main road a1-h8: no win by the stronger side's 5th move")
    FEW_PIECES_VS_LONE_KING = ("few_pieces_vs_lone_king", "7.2.8",
                               "two pieces or fewer, at least one a king, against a lone king: "
                               "no win by the stronger side's 5th move (FMJD 6.4: 5 moves each)")
    THREE_PIECES_VS_LONE_KING = ("three_pieces_vs_lone_king", "6.3",
                                 "three pieces, at least one a king, against a lone king: no "
                                 "win in 16 moves of each side (FMJD, international)")
    KING_CROWNED = ("king_crowned", None,
                    "the first side to crown a king wins (breakthrough); in a set-up position, "
                    "the side that has a king, whoever is to move")
    TWO_KINGS_VS_KING = ("two_kings_vs_king", None,
                         "two kings against one king, nothing else on the board: the stronger "
                         "side has not captured it in 7 moves of each side (frisian)")
    KING_VS_KING = ("king_vs_king", None,
                    "one king against one king: no capture in 2 moves of each side (frisian, "
                    "as lidraughts reads the rule)")
    ONE_PIECE_EACH = ("one_piece_each", None,
                      "one piece against one piece, a king or a man: drawn at once (turkish, "
                      "GAYYIM)")

    @property
    def is_draw(self) -> bool:
        return self not in (Termination.NO_MOVES, Termination.KING_CROWNED)

    def __repr__(self) -> str:
        return f"Termination.{self.name}"


@dataclass(frozen=True)
class Outcome:
    """The end of a game: `winner` is shashki.WHITE, shashki.BLACK, or None for a draw.

    `article` names the article of the game's rule book that decided it, when the rule book
    numbers it: the FMJD-64 article for russian (7.2.3 for repetition, 7.2.5 for king moves, the
    Termination's own article otherwise).  It is derived from the game and the termination, so
    two outcomes compare equal on winner and termination alone.
    """

    winner: Optional[Color]
    termination: Termination
    article: Optional[str] = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.termination, Termination):
            raise TypeError(f"termination must be a Termination, not {self.termination!r}")
        # True and False are WHITE and BLACK, as everywhere (python-chess's values); a float
        # or a str is refused, even one equal to 1
        if self.winner is not None and (not isinstance(self.winner, int)
                                        or self.winner not in (WHITE, BLACK)):
            raise InvalidColorError(f"winner must be shashki.WHITE (or True), shashki.BLACK "
                                    f"(or False) or None, not {self.winner!r}")
        if (self.winner is None) != self.termination.is_draw:
            kind = "a draw" if self.termination.is_draw else "decisive"
            raise ValueError(f"{self.termination!r} is {kind}; winner {self.winner!r} "
                             f"does not fit")
        if self.winner is not None and not isinstance(self.winner, Color):
            object.__setattr__(self, "winner", Color(self.winner))
        if self.article is None and self.termination.article is not None:
            object.__setattr__(self, "article", self.termination.article)

    def result(self) -> str:
        """"1-0" (White won), "0-1" (Black won) or "1/2-1/2"."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner == WHITE else "0-1"


class DrawCounters(NamedTuple):
    """The state the draw rules need beyond the position, in plies.  Board keeps one per
    position in its push/pop snapshots."""

    #: plies since the last man move or capture (the kings-only and no-progress rules; in these
    #: games a man only ever moves forward, so "no man advanced" is "no man moved")
    halfmove_clock: int
    #: plies since the balance of forces last changed, i.e. since the last capture or promotion
    #: (FMJD-64 7.2.4, 7.2.6)
    balance_plies: int
    #: plies since the 7.2.7 configuration (three pieces, one a king, against a lone king on the
    #: main road) began to hold without a break; -1 while it does not hold
    main_road_plies: int
    #: the same for 7.2.8 (two pieces or fewer, one a king, against a lone king)
    lone_king_plies: int


# (the limits of the FMJD-64 rules are in their record, shashki.variants.FMJD_64)

#: the codes of the C rules, by Termination value: setup.py writes the C enum (_core/enums.pxd,
#: T_<NAME>) from this class in its order, 1 for the first member (0: the game goes on)
TERMINATION_CODES: Dict[str, int] = {t.value: i + 1 for i, t in enumerate(Termination)}
_BY_CODE = {TERMINATION_CODES[t.value]: t for t in Termination}


def make_outcome(code: int, winner: Optional[Color], variant: Variant,
                 endgame: bool) -> Outcome:
    """The Outcome of the C rules' termination `code` (called by Board.outcome).  Its article is
    the one the game's endgame rules give the termination when they are in force
    (Variant.endgame_draws: 7.2.3 for a russian repetition, 6.4 for international's few pieces
    against a lone king), else none."""
    termination = _BY_CODE[code]
    outcome = Outcome(winner, termination)
    rules = variant.endgame_draws if endgame else None
    object.__setattr__(outcome, "article",
                       dict(rules.articles).get(termination.value) if rules else None)
    return outcome
