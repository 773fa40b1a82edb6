"""Random games played to their end in C: `playouts(variant, n)` plays n random games.

The primitive for rollouts (MCTS), baselines and data generation; see the compiled module's
docstring (playouts.pyx) for how the games are shared out between threads.
"""

from typing import Optional, Tuple, Union

from ..board import Board
from ..outcome import Outcome, Termination
from ..variants import Variant
from .arrays import Buffer
from .game import Game
from .position import Position, PositionBase

__all__ = ["Playouts", "playouts"]

class Playouts:
    """The games of one `playouts` call: results, lengths, terminations and, on request,
    positions and actions, as Buffers, game i at index i."""

    @property
    def variant(self) -> Variant: ...
    @property
    def fmjd_draw_rules(self) -> bool:
        """Whether the game's endgame draw rules were in force (the board's fmjd_draw_rules)."""
    @property
    def results(self) -> Buffer: ...
    @property
    def lengths(self) -> Buffer: ...
    @property
    def terminations(self) -> Buffer: ...
    @property
    def offsets(self) -> Buffer: ...
    @property
    def positions(self) -> Optional[Buffer]: ...
    @property
    def actions(self) -> Optional[Buffer]: ...
    def __init__(self, variant: Variant, fmjd_draw_rules: bool, results: Buffer,
                 lengths: Buffer, terminations: Buffer, offsets: Buffer,
                 positions: Optional[Buffer] = None, actions: Optional[Buffer] = None) -> None: ...
    def __len__(self) -> int: ...
    @property
    def plies(self) -> int:
        """The plies of all the games together."""
    def termination(self, game: int) -> Optional[Termination]:
        """Why game `game` ended (None: it was cut at max_plies)."""
    def outcome(self, game: int) -> Optional[Outcome]:
        """The Outcome of game `game`, as Board.outcome would give it at its end (None: it was
        cut at max_plies)."""
    def position(self, row: int) -> Position:
        """The Position before the ply of record `row` (positions=True)."""
    def __eq__(self, other: object, /) -> bool: ...
    __hash__ = None  # type: ignore[assignment]

def playouts(variant: Union[str, Variant, Game, Position, Board], n: int, *, seed: Optional[int] = None,
             jobs: Optional[int] = 1, max_plies: Optional[int] = None, claim_draw: bool = True,
             positions: bool = False, actions: bool = False,
             perspective: bool = False) -> Playouts:
    """Play `n` random games to their end in C and return them (a Playouts).

    `variant`: where the games start: a game's name, Variant or Game (its start position), a
    Position (from there), or a Board (its position, draw counters and history, so
    repetitions count across the start).  `seed`: an int for the same games every
    time (None: a fresh seed); game i depends only on the seed and i, not on `jobs`, the
    number of threads (None: every core).  `claim_draw` (default): the draws a player may
    claim (english) are claimed at once, as by Board.outcome(claim_draw=True), so that every
    game ends; False plays on as Board.outcome() does.  `max_plies`: cut longer games (their
    termination is then 0).  `positions`, `actions`: record every ply (see Playouts), the
    actions numbered from the side to move's side with `perspective`.
    """

class Run:
    """The games of one playouts call while they are played: the configuration, the chunks
    and the results."""

    @property
    def results(self) -> Buffer: ...
    @property
    def lengths(self) -> Buffer: ...
    @property
    def terminations(self) -> Buffer: ...
    def __init__(self, game: Game, start: PositionBase, n: int, seed: int, jobs: int,
                 max_plies: int, claim_draw: bool, perspective: bool, positions: bool,
                 actions: bool) -> None: ...
    def run_chunk(self, c: int) -> None: ...
    def run(self) -> None: ...
    def records(self) -> Tuple[Optional[Buffer], Optional[Buffer]]: ...
    def offsets(self) -> Buffer: ...
