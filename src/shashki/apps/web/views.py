"""What the page of `shashki serve` is sent, as JSON-ready dicts: the games with their boards'
layout, the engine's levels, a game's state (its moves, the position at the cursor with
every legal move's full route, how the game stands), and a position being set up.

Squares are the library's numbers (0.., shashki.squares); the page names them with the
`names` of the game and places them with its `cells`, so it never re-derives a game's board.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from ... import svg
from ...board import Board
from ...engine import SearchResult
from ...limits import Limit
from ...move import Move
from ...outcome import Outcome
from ...status import describe, reasons
from ...variants import COLOR_NAMES, VARIANTS, WHITE, Variant
from ..play import DEFAULT_LIMIT
from ..records import describe_outcome
from .games import GameSession

__all__ = ["LEVELS", "DEFAULT_LEVEL", "game_state", "games_list", "level_text", "move_view",
           "outcome_view", "search_view", "setup_state"]

#: the engine's strengths the page offers: fixed depths for quick, weaker play, then times a
#: move, `shashki play`'s default among them (the page's default too)
LEVELS: Tuple[Limit, ...] = (Limit(depth=1), Limit(depth=2), Limit(depth=4), Limit(depth=6),
                             Limit(depth=8), Limit(movetime=0.3), DEFAULT_LIMIT,
                             Limit(movetime=3.0), Limit(movetime=10.0))
DEFAULT_LEVEL = LEVELS.index(DEFAULT_LIMIT)


def level_text(limit: Limit) -> str:
    if limit.depth is not None:
        return f"depth {limit.depth}"
    return f"{limit.movetime:g} s a move"


def games_list() -> Dict[str, Any]:
    """Every game the server plays, with what the page needs to draw and name its squares,
    the engine's levels and the board's colours (those of shashki.svg)."""
    games = []
    for variant in VARIANTS:
        games.append({
            "name": variant.name, "title": variant.title, "size": variant.geometry.files,
            "names": [variant.square_name(s) for s in range(variant.geometry.squares)],
            "cells": svg.cells(variant), "numeric": variant.numeric,
            "first": COLOR_NAMES[variant.first_to_move], "start_fen": variant.start_fen,
            "claims": bool(variant.draw_claims)})
    levels = [{"name": level_text(limit), "limit": _limit_view(limit)} for limit in LEVELS]
    return {"games": games, "levels": levels, "default_level": DEFAULT_LEVEL,
            "colors": svg.DEFAULT_COLORS}


def _limit_view(limit: Limit) -> Dict[str, Any]:
    return {k: v for k, v in (("depth", limit.depth), ("movetime", limit.movetime))
            if v is not None}


def move_view(move: Move) -> Dict[str, Any]:
    """A legal move with its full route: the text the server takes back, the squares it
    passes (`path`, origin first) and those it takes (`captured`)."""
    return {"text": str(move), "from": move.origin, "to": move.destination,
            "path": list(move.path), "captured": list(move.captured),
            "promotion": move.promotion}


def outcome_view(outcome: Optional[Outcome], variant: Variant) -> Optional[Dict[str, Any]]:
    if outcome is None:
        return None
    return {"result": outcome.result(),
            "winner": None if outcome.winner is None else COLOR_NAMES[outcome.winner],
            "termination": outcome.termination.value,
            "reason": describe_outcome(outcome, variant)}


def _pieces(board: Board) -> List[Dict[str, Any]]:
    return [{"square": square, "color": COLOR_NAMES[piece.color], "king": piece.king}
            for square, piece in board.piece_map().items()]


def setup_state(board: Board) -> Dict[str, Any]:
    """A position being set up (shashki serve's set-up mode): its FEN (which the page sends
    back with its next edit), its pieces, the side to move, and the reasons it is not one to
    play from (Board.status: their names, and in words), `valid` when there are none."""
    status = board.status()
    return {"variant": board.variant.name, "fen": board.fen(), "turn": COLOR_NAMES[board.turn],
            "pieces": _pieces(board), "status": [str(r.name) for r in reasons(status)],
            "reasons": describe(status, board.variant), "valid": not status}


def game_state(session: GameSession) -> Dict[str, Any]:
    """The state of a game (read under its lock): the line of moves, the cursor, and the
    position there."""
    board = session.board()
    outcome = session.outcome(board)
    first = session.start.turn
    # moves are numbered from 1 at the start, a pair per number (the second mover's first
    # move is 1... when the game starts with that side to move)
    offset = 0 if first == session.variant.first_to_move else 1
    moves = [{"text": str(move), "number": 1 + (ply + offset) // 2,
              "color": COLOR_NAMES[first if ply % 2 == 0 else 1 - first]}
             for ply, move in enumerate(session.moves)]
    last = session.moves[session.ply - 1] if session.ply else None
    legal = [] if outcome is not None else [move_view(m) for m in board.legal_moves]
    return {
        "id": session.id, "variant": session.variant.name, "version": session.version,
        "start_fen": session.start.fen(), "moves": moves, "ply": session.ply,
        "fen": board.fen(), "turn": COLOR_NAMES[board.turn], "pieces": _pieces(board),
        "legal": legal, "last": None if last is None else move_view(last),
        "outcome": outcome_view(outcome, session.variant),
        "can_claim_draw": outcome is None and board.can_claim_draw(),
        "thinking": session.thinking, "headers": session.headers}


def search_view(result: SearchResult, turn: int) -> Dict[str, Any]:
    """One iteration of a search: the score from the side to move (`score`, as the engine
    says it) and from White's side (`white`, in hundredths of a man, for a bar), the
    principal variation as text."""
    score = result.score
    white = score.value if turn == WHITE else -score.value
    return {"depth": result.depth, "score": str(score), "value": score.value, "white": white,
            "win_in": score.win_in, "pv": [str(m) for m in result.pv],
            "nodes": result.nodes, "time": round(result.time, 3),
            "nps": round(result.nps), "seldepth": result.seldepth}
