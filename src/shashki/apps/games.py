"""One game of a match: where it starts, how it is played and adjudicated, and its record.

Used by shashki.apps.match (one game after another) and shashki.apps.harness (pairs of games
in worker processes).  A game ends when `Board.outcome()` says so (no legal move, or a draw
rule of the game), or at a hard cap of `max_moves` moves of each side, which is scored as a
draw.  Draws that a player must claim (english, WCDF: threefold repetition, 40 moves without
progress) are claimed as soon as they have happened; the claim a player may make *before* a
repeating move is not, since the side to move may be playing on to win.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional

from ..board import Board
from ..colors import BLACK, WHITE, Color
from ..engine import SearchResult
from ..move import Move
from ..outcome import Outcome, Termination
from ..pdn import Game
from ..variants import RUSSIAN, Variant
from .players import PlayerStats
from .records import describe_outcome, pdn_game

__all__ = ["DEFAULT_MAX_MOVES", "GameRecord", "StartPosition", "adjudicate", "play_game",
           "play_record"]

#: moves of each side after which a game is stopped and scored as a draw
DEFAULT_MAX_MOVES = 200


@dataclass(frozen=True)
class StartPosition:
    """Where a pair of games starts: a name and a FEN (an Opening of the tables has both)."""
    name: str
    fen: str


@dataclass
class GameRecord:
    """One game of a match.  `a_white` says whether player A had White; `points_a` is A's
    score (1, 0.5, 0); `termination` is the Termination that ended it, or None when the move
    cap did (`reason` says which in words)."""

    number: int
    opening: StartPosition
    a_white: bool
    white: str
    black: str
    result: str
    winner: Optional[int]
    termination: Optional[Termination]
    reason: str
    start_fen: str
    moves: List[Move] = field(default_factory=list)
    variant: str = RUSSIAN.name

    @property
    def plies(self) -> int:
        return len(self.moves)

    @property
    def points_a(self) -> float:
        if self.winner is None:
            return 0.5
        return 1.0 if (self.winner == WHITE) == self.a_white else 0.0

    def board(self) -> Board:
        """The final position, with the game's moves on its stack."""
        board = Board(self.variant, fen=self.start_fen)
        for move in self.moves:
            board.push(move)
        return board

    def pdn(self, event: str = "shashki match") -> Game:
        """The game as a shashki.pdn.Game."""
        termination = self.termination.value if self.termination is not None else "move_cap"
        return pdn_game(self.board(), event=event, white=self.white, black=self.black,
                        result=self.result, round=str(self.number), termination=termination,
                        extra={"Opening": self.opening.name})


def adjudicate(board: Board) -> Optional[Outcome]:
    """The Outcome that ends a match game at `board`, or None: `Board.outcome()`, plus the
    claimed draws (english) once they hold, not merely the chance to repeat."""
    outcome = board.outcome()
    if outcome is not None:
        return outcome
    if board.can_claim_draw():
        claimed = board.outcome(claim_draw=True)
        if claimed is not None and (claimed.termination is not Termination.THREEFOLD_REPETITION
                                    or board.is_repetition(3)):
            return claimed
    return None


def play_game(white: Any, black: Any, board: Board, max_moves: int = DEFAULT_MAX_MOVES,
              stats: Optional[Mapping[Color, PlayerStats]] = None) -> Optional[Outcome]:
    """Play `white` against `black` (players with choose(board)) from `board` (changed in
    place) until adjudicate() ends the game or each side has made `max_moves` moves.
    Returns (outcome or None at the cap).  `stats` maps a colour to the PlayerStats to add to."""
    players: Dict[int, Any] = {WHITE: white, BLACK: black}
    for player in players.values():
        if hasattr(player, "new_game"):
            player.new_game(board.copy())
    plies = 0
    while True:
        outcome = adjudicate(board)
        if outcome is not None:
            return outcome
        if plies >= 2 * max_moves:
            return None
        side = board.turn
        chosen = players[side].choose(board.copy())
        record = stats.get(side) if stats else None
        if isinstance(chosen, SearchResult):
            if record is not None:
                record.searches += 1
                record.nodes += chosen.nodes
                record.time += chosen.time
                record.depth_sum += chosen.depth
            chosen = chosen.best_move
        if record is not None:
            record.moves += 1
        board.push(chosen)      # text is parsed; an illegal move raises IllegalMoveError
        plies += 1


def play_record(player_a: Any, player_b: Any, variant: Variant, start: StartPosition,
                a_white: bool, number: int, max_moves: int, stats_a: PlayerStats,
                stats_b: PlayerStats, name_a: str, name_b: str) -> GameRecord:
    """Play one game of a match from `start`, A on White when `a_white`, and return its
    GameRecord (game `number`); each player's effort is added to its PlayerStats."""
    board = Board(variant, fen=start.fen)
    white, black = (player_a, player_b) if a_white else (player_b, player_a)
    stats = {WHITE: stats_a if a_white else stats_b, BLACK: stats_b if a_white else stats_a}
    start_fen = board.fen()
    outcome = play_game(white, black, board, max_moves, stats)
    winner: Optional[int]
    termination: Optional[Termination]
    if outcome is None:
        res, winner, termination = "1/2-1/2", None, None
        reason = f"drawn at the cap of {max_moves} moves each"
    else:
        res, winner, termination = outcome.result(), outcome.winner, outcome.termination
        reason = describe_outcome(outcome, variant)
    return GameRecord(number, start, a_white, name_a if a_white else name_b,
                      name_b if a_white else name_a, res, winner, termination, reason,
                      start_fen, list(board.move_stack), variant.name)
