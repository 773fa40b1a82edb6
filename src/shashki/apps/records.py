"""What a front end writes about a game it played: the PDN record and the outcome in words."""

from __future__ import annotations

import datetime
from typing import Any, Mapping, Optional, Union

from .. import pdn
from ..board import Board
from ..outcome import Outcome, Termination
from ..colors import WHITE
from ..variants import COLOR_NAMES, Variant, get_variant

__all__ = ["article_text", "describe_outcome", "pdn_game"]


def pdn_game(board: Board, *, event: str, white: str, black: str, result: str,
             round: str = "?", termination: Optional[str] = None,
             extra: Optional[Mapping[str, str]] = None) -> pdn.Game:
    """The game that led to `board` (its start and its move stack) as a pdn.Game, headed by
    the Seven Tag Roster (Event, Site, Date: today, Round, White, Black, Result), then the
    `extra` headers and Termination."""
    headers = {"Event": event, "Site": "?", "Date": datetime.date.today().strftime("%Y.%m.%d"),
               "Round": round, "White": white, "Black": black, "Result": result}
    headers.update(extra or {})
    if termination:
        headers["Termination"] = termination
    return pdn.Game.from_board(board, headers=headers)


def describe_outcome(outcome: Outcome, variant: Union[str, Variant],
                     position: Any = None) -> str:
    """The rule that ended a game, in words: "black has no legal move", "white crowned a king
    first", "draw: ...").  With the final `position` (a Position or Board), a side left with
    no piece is said to have none: a set-up position may end with the other side to move
    (issue 30.17, ``W:Wa1:B``)."""
    variant = get_variant(variant)
    winner = outcome.winner
    if outcome.termination is Termination.NO_MOVES and winner is not None:  # (always a winner)
        stuck = winner if variant.reversed_goal else winner.other
        what = "has no legal move"
        if position is not None and not (position.white if stuck == WHITE else position.black):
            what = "has no pieces left"
        if variant.reversed_goal:
            return f"{COLOR_NAMES[stuck]} {what}, and in {variant.name} that wins"
        return f"{COLOR_NAMES[stuck]} {what}"
    if winner is not None:          # breakthrough: the only other rule with a winner
        return f"{COLOR_NAMES[winner]} wins: {outcome.termination.text}"
    text = f"draw: {outcome.termination.text}"
    article = article_text(outcome, variant)
    if article:
        text += f" ({article})"
    return text


def article_text(outcome: Outcome, variant: Union[str, Variant]) -> Optional[str]:
    """The article of the rule book that ended the game ("FMJD-64 art. 7.2.3", "FMJD art.
    6.1"), or None."""
    if not outcome.article:
        return None
    variant = get_variant(variant)
    # the rule book whose articles the game's draw rules cite: FMJD-64 (russian), FMJD
    # (international and its family); only those set articles
    book = variant.endgame_draws.name if variant.endgame_draws else "FMJD-64"
    return f"{book} art. {outcome.article}"
