"""Game end: who won and by which rule (Outcome, Termination), and the counters behind the draw
rules, which Board keeps in its push/pop snapshots.

The rules are those of ../shared/RULES.md ("Draws and the end of the game").  Counts there are in
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
  request, and RULES.md adds repetition alongside it.  Automatic; with `fmjd_draw_rules=True`
  the FMJD-64 set above applies instead.
- giveaway: no federation rule book; seed 000 states both rules as "a draw if ...", as for
  russian.  Automatic.
- italian: seed 000 ("a draw after 40 king moves of each side ...", "a draw if the same position
  occurs the third time") states outcomes, not claims; the FID Capo I text was not at hand, so
  this follows the seed and RULES.md.  Automatic.
- english: the WCDF rules of draughts say a game "shall be declared drawn where, at any stage of
  the game, a player can demonstrate to the satisfaction of the referee that with their next move
  they would create the same position for the third time", or that "neither player has advanced
  an uncrowned man towards the king-row during their own previous 40 moves" and "no pieces have
  been removed from the board during their own previous 40 moves".  Both are claims
  (`_CLAIMED_DRAWS`); the repetition claim may be made before the move that repeats (WCDF's
  wording), and, as in chess, once the position has occurred three times.

Readings of FMJD-64 7.2 where RULES.md leaves a choice
------------------------------------------------------
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
from typing import (TYPE_CHECKING, Dict, FrozenSet, Iterator, List, NamedTuple, Optional,
                    Sequence, Tuple)

from . import squares as _sq
from .variants import BLACK, WHITE

if TYPE_CHECKING:
    from .board import Board
    from .move import Move

_popcount = _sq.popcount

#: the main road (большая дорога): the long diagonal a1-h8
MAIN_ROAD = _sq.squares_mask(_sq.ALGEBRAIC_INDEX[n]
                             for n in ("a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"))


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
                "in giveaway it wins")
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
                               "no win by the stronger side's 5th move")

    @property
    def is_draw(self) -> bool:
        return self is not Termination.NO_MOVES

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

    winner: Optional[int]
    termination: Termination
    article: Optional[str] = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.termination, Termination):
            raise TypeError(f"termination must be a Termination, not {self.termination!r}")
        if self.winner not in (WHITE, BLACK, None) or isinstance(self.winner, bool):
            raise ValueError(f"winner must be shashki.WHITE, shashki.BLACK or None, "
                             f"not {self.winner!r}")
        if (self.winner is None) != self.termination.is_draw:
            kind = "a draw" if self.termination.is_draw else "decisive"
            raise ValueError(f"{self.termination!r} is {kind}; winner {self.winner!r} "
                             f"does not fit")
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


# a NamedTuple built without its keyword handling (push makes one per move)
_new_counters = tuple.__new__

# FMJD-64 7.2: limits in moves of the stronger side (7.2.4, 7.2.7, 7.2.8) or of each side (7.2.6)
LONE_KING_CAPTURE_MOVES = 15        # 7.2.4
BALANCE_MOVES = ((4, 5, 30), (6, 7, 60))   # 7.2.6: (fewest pieces, most pieces, moves)
MAIN_ROAD_MOVES = 5                 # 7.2.7
FEW_PIECES_MOVES = 5                # 7.2.8

# The FMJD-64 articles of the two rules every algebraic game shares, named when the FMJD-64
# set is in force.
_FMJD_ARTICLES: Dict[Termination, Optional[str]] = {Termination.THREEFOLD_REPETITION: "7.2.3",
                  Termination.KINGS_ONLY_MOVES: "7.2.5"}

# Draws that a player must claim, by game (see the module docstring for the sources).
_CLAIMED_DRAWS: Dict[str, FrozenSet[Termination]] = {
    "english": frozenset({Termination.THREEFOLD_REPETITION, Termination.NO_PROGRESS}),
}


def _lone_king_opponents(white: int, black: int, kings: int) -> List[int]:
    """The colours whose opponent is down to a lone king (both, in king against king)."""
    out = []
    for color, strong, weak in ((WHITE, white, black), (BLACK, black, white)):
        if strong and weak and weak & (weak - 1) == 0 and weak & kings:
            out.append(color)
    return out


def _configurations(white: int, black: int, kings: int) -> Tuple[bool, bool]:
    """(7.2.7 holds, 7.2.8 holds) for a position."""
    if _popcount(white | black) > 4:
        return False, False
    road = few = False
    for strong, weak in ((white, black), (black, white)):
        if not (weak and weak & (weak - 1) == 0 and weak & kings and strong & kings):
            continue
        count = _popcount(strong)
        if count == 3 and weak & MAIN_ROAD:
            road = True
        elif count <= 2:
            few = True
    return road, few


def start_counters(white: int, black: int, kings: int, fmjd: bool) -> DrawCounters:
    """The counters of a set-up position: every count starts there."""
    road, few = _configurations(white, black, kings) if fmjd else (False, False)
    return DrawCounters(0, 0, 0 if road else -1, 0 if few else -1)


def counters_after(counters: DrawCounters, move: Move, man_moved: bool, white: int, black: int,
                   kings: int, fmjd: bool) -> DrawCounters:
    """The counters after `move` (a man's move when `man_moved`) led to the masks given.
    Board.push calls this on every move, so it stays small: bit counts, no move generation."""
    halfmove, balance, road_plies, few_plies = counters
    if move.captured_mask:
        halfmove = balance = 0
    else:
        halfmove = 0 if man_moved else halfmove + 1
        balance = 0 if move.promotion else balance + 1
    if fmjd and _popcount(white | black) <= 4:
        road, few = _configurations(white, black, kings)
        # 7.2.7 and 7.2.8 count from when their configuration arose and go on through changes
        # inside it (a man of the stronger side crowned, a piece of it taken by the lone
        # king): the rule names the configuration, not one balance of forces.
        road_plies = (road_plies + 1 if road_plies >= 0 else 0) if road else -1
        few_plies = (few_plies + 1 if few_plies >= 0 else 0) if few else -1
    else:
        road_plies = few_plies = -1
    return _new_counters(DrawCounters, (halfmove, balance, road_plies, few_plies))


def _moves_of(color: int, plies: int, turn: int) -> int:
    """How many of the last `plies` plies `color` made, `turn` being to move now."""
    return (plies + 1) // 2 if color != turn else plies // 2


def repetitions(masks: Tuple[int, int, int, int], stack: Sequence[Tuple[object, ...]],
                halfmove_clock: int, limit: Optional[int] = None) -> int:
    """How many times the position `masks` occurs in the game so far, this time included.

    Only the last `halfmove_clock` plies can hold it again: a man move or a capture can never be
    undone.  `stack` is Board._stack (its entries start with the masks of the position).
    """
    count = 1
    window = min(halfmove_clock, len(stack))
    # positions an even number of plies back have the same side to move
    for back in range(2, window + 1, 2):
        if stack[-back][0] == masks:
            count += 1
            if limit is not None and count >= limit:
                break
    return count


def _repetition_about_to_appear(board: Board) -> bool:
    """Whether a legal move would make a position occur for the third time (WCDF's claim:
    "with their next move they would create the same position for the third time")."""
    counters = board._counters
    masks = board._masks()
    stack: List[Tuple[object, ...]] = [*board._stack, (masks,)]
    for move in board._legal():
        if move.is_capture or not board._kings >> move.origin & 1:
            continue    # irreversible: the position after it is new
        child = board.variant.rules.apply_move(*masks, move.origin, move.destination, 0,
                                               move.promotion)
        if repetitions(child, stack, counters.halfmove_clock + 1, 3) >= 3:
            return True
    return False


def _draws(board: Board) -> Iterator[Tuple[Termination, Optional[str]]]:
    """The draw rules of the board's game that hold now, in the order of their articles, as
    (termination, article) pairs."""
    variant = board.variant
    counters = board._counters
    fmjd = board.fmjd_draw_rules
    articles = _FMJD_ARTICLES if fmjd else {}
    white, black, kings, turn = board._masks()

    if repetitions(board._masks(), board._stack, counters.halfmove_clock, 3) >= 3:
        yield Termination.THREEFOLD_REPETITION, articles.get(Termination.THREEFOLD_REPETITION)

    if fmjd:
        # 7.2.4: "three kings (or more) against a single enemy king": the stronger side may have
        # men as well; its moves count from when the balance of forces arose.
        for strong in _lone_king_opponents(white, black, kings):
            own = white if strong == WHITE else black
            if (_popcount(own & kings) >= 3
                    and _moves_of(strong, counters.balance_plies, turn)
                    >= LONE_KING_CAPTURE_MOVES):
                yield Termination.KINGS_VS_LONE_KING, "7.2.4"
                break

    if variant.kings_only_limit and counters.halfmove_clock >= 2 * variant.kings_only_limit:
        yield Termination.KINGS_ONLY_MOVES, articles.get(Termination.KINGS_ONLY_MOVES)

    if fmjd and white & kings and black & kings:
        pieces = _popcount(white | black)
        for low, high, moves in BALANCE_MOVES:
            if low <= pieces <= high and counters.balance_plies >= 2 * moves:
                yield Termination.BALANCE_UNCHANGED, "7.2.6"

    if fmjd and (counters.main_road_plies >= 0 or counters.lone_king_plies >= 0):
        # which side is the stronger one does not change inside these configurations; in king
        # against king both are, and the first to make its 5th move ends it
        strongs = _lone_king_opponents(white, black, kings)
        if counters.main_road_plies >= 0 and any(
                _moves_of(s, counters.main_road_plies, turn) >= MAIN_ROAD_MOVES
                for s in strongs):
            yield Termination.LONE_KING_ON_MAIN_ROAD, "7.2.7"
        if counters.lone_king_plies >= 0 and any(
                _moves_of(s, counters.lone_king_plies, turn) >= FEW_PIECES_MOVES
                for s in strongs):
            yield Termination.FEW_PIECES_VS_LONE_KING, "7.2.8"

    if variant.no_progress_limit and counters.halfmove_clock >= 2 * variant.no_progress_limit:
        yield Termination.NO_PROGRESS, None


def outcome(board: Board, claim_draw: bool = False) -> Optional[Outcome]:
    """Board.outcome: None, or the Outcome of the game at this position."""
    if not board._legal():
        loser = board.turn
        return Outcome(loser if board.variant.reversed_goal else 1 - loser,
                       Termination.NO_MOVES)
    claimed = _CLAIMED_DRAWS.get(board.variant.name, frozenset())
    for termination, article in _draws(board):
        if claim_draw or termination not in claimed:
            return Outcome(None, termination, article)
    if (claim_draw and Termination.THREEFOLD_REPETITION in claimed
            and _repetition_about_to_appear(board)):
        return Outcome(None, Termination.THREEFOLD_REPETITION)
    return None


def can_claim_draw(board: Board) -> bool:
    """Board.can_claim_draw: whether the side to move may claim a draw now (only the games
    whose rule book makes a draw a claim have claims; automatic draws are in outcome())."""
    claimed = _CLAIMED_DRAWS.get(board.variant.name)
    if not claimed:
        return False
    if any(termination in claimed for termination, _ in _draws(board)):
        return True
    return (Termination.THREEFOLD_REPETITION in claimed
            and _repetition_about_to_appear(board))
