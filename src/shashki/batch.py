"""Batched random playouts in C: `playouts(variant, n)` plays n random games to their end.

The primitive for rollouts (MCTS), baselines and data generation.  The games are played by the
compiled core (shashki._core.playouts) without the GIL, in `jobs` threads, each move chosen
uniformly among the legal moves, each game ended by the game's full rules: no legal move, or a
draw rule (the same C implementation as Board.outcome).

>>> import shashki
>>> games = shashki.playouts("russian", 100, seed=1)
>>> len(games), sum(games.lengths.tolist()) == games.plies
(100, True)
>>> games == shashki.playouts("russian", 100, seed=1, jobs=2)   # the same games for any jobs
True
"""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass
from typing import Optional, Union

from ._core import playouts as _playouts
from ._core.arrays import Buffer, from_bytes
from .board import Board
from .colors import BLACK, WHITE, Color
from .errors import PlayoutsError
from .limits import _physical_memory_mb, as_int
from .outcome import TERMINATION_CODES, Outcome, Termination, make_outcome
from .variants import Variant, get_variant

__all__ = ["Playouts", "playouts"]

#: the Termination of each code of Playouts.terminations (the C rules' codes,
#: shashki._core.draws.pxd); 0 is a game cut at max_plies
_CODES = {TERMINATION_CODES[t.value]: t for t in Termination}


@dataclass(frozen=True, eq=False)
class Playouts:
    """The games of one `playouts` call.  Every array is a shashki Buffer (numpy.asarray takes
    it without a copy; without numpy it is a sequence: ``games.results[i]``, iteration,
    `.tolist()`), game i at index i.

    - `results` (int8): 1 White won, -1 Black won, 0 drawn (or cut at max_plies); the winner
      as Board.outcome names it (in giveaway the side left without a move, in breakthrough
      the first to crown);
    - `lengths` (int32): plies played;
    - `terminations` (uint8): why the game ended, a code of `termination(i)` (0: cut short);
    - with ``positions=True``, `positions` (uint64, shape (plies, 4)): the position before each
      ply of every game, in game order, as the square masks of White's pieces, Black's pieces
      and the kings, and the side to move (0 White, 1 Black); game i's plies are rows
      ``offsets[i]`` to ``offsets[i + 1] - 1``;
    - with ``actions=True``, `actions` (int32, one per ply): the action number
      (Board.move_to_action) of the move played at each of those plies.
    """

    variant: Variant
    #: whether the game's endgame draw rules were in force (the board's fmjd_draw_rules)
    fmjd_draw_rules: bool
    results: Buffer
    lengths: Buffer
    terminations: Buffer
    offsets: Buffer
    positions: Optional[Buffer] = None
    actions: Optional[Buffer] = None

    def __len__(self) -> int:
        return len(self.results)

    @property
    def plies(self) -> int:
        """The plies of all the games together."""
        total: int = self.offsets[-1]
        return total

    def termination(self, game: int) -> Optional[Termination]:
        """Why game `game` ended (None: it was cut at max_plies)."""
        return _CODES.get(self.terminations[game])

    def outcome(self, game: int) -> Optional[Outcome]:
        """The Outcome of game `game`, as Board.outcome would give it at its end (None: it was
        cut at max_plies)."""
        code = self.terminations[game]
        if code == 0:
            return None
        result = self.results[game]
        winner: Optional[Color] = WHITE if result == 1 else BLACK if result == -1 else None
        return make_outcome(code, winner, self.variant, self.fmjd_draw_rules)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Playouts):
            return NotImplemented
        return (self.variant == other.variant and self.results == other.results and
                self.lengths == other.lengths and self.terminations == other.terminations and
                self.positions == other.positions and self.actions == other.actions)

    __hash__ = None  # type: ignore[assignment]  # mutable buffers: not hashable


def playouts(variant: Union[str, Variant, Board], n: int, *, seed: Optional[int] = None,
             jobs: Optional[int] = 1, max_plies: Optional[int] = None, claim_draw: bool = True,
             positions: bool = False, actions: bool = False,
             perspective: bool = False) -> Playouts:
    """Play `n` random games to their end in C and return them (a Playouts).

    `variant`: a game (its start position) or a Board (its position, draw counters and
    history, so repetitions count across the start).  `seed`: an int for the same games every
    time (None: a fresh seed); game i depends only on the seed and i, not on `jobs`, the
    number of threads (None: every core).  `claim_draw` (default): the draws a player may
    claim (english) are claimed at once, as by Board.outcome(claim_draw=True), so that every
    game ends; False plays on as Board.outcome() does.  `max_plies`: cut longer games (their
    termination is then 0).  `positions`, `actions`: record every ply (see Playouts), the
    actions numbered from the side to move's side with `perspective`.

    PlayoutsError for an argument out of range, and for more games than the memory holds:
    before any game is played when their results alone would not fit (GAME_BYTES a game),
    and when an allocation fails.
    """
    board = variant if isinstance(variant, Board) else Board(get_variant(variant))
    count = as_int(n)
    if count is None or count < 0:
        raise PlayoutsError(f"n must be a whole number of games >= 0, not {n!r}")
    threads = _jobs(jobs)
    limit = 0 if max_plies is None else as_int(max_plies)
    if limit is None or limit < 0 or (max_plies is not None and limit == 0):
        raise PlayoutsError(f"max_plies must be a whole number >= 1 or None, not {max_plies!r}")
    if seed is None:
        start = int.from_bytes(os.urandom(8), "little")
    else:
        given = as_int(seed)
        if given is None:
            raise PlayoutsError(f"seed must be an int or None, not {seed!r}")
        start = given % (1 << 64)
    for name, flag in (("claim_draw", claim_draw), ("positions", positions),
                       ("actions", actions), ("perspective", perspective)):
        if not isinstance(flag, bool):
            raise PlayoutsError(f"{name} must be True or False, not {flag!r}")
    _check_memory(count)
    over = board.outcome(claim_draw=claim_draw)
    if over is not None:
        return _finished(board, count, over, positions, actions)
    try:
        batch = _playouts.Batch(board, count, start, max(1, min(threads, count)), limit,
                                claim_draw, perspective, positions, actions)
        batch.run()
    except MemoryError:
        raise PlayoutsError(f"out of memory playing {count:,} games"
                            + (" and recording their plies" if positions or actions else "")
                            + "; play them in batches of fewer games") from None
    recorded_positions, recorded_actions = batch.records()
    return Playouts(board.variant, board.fmjd_draw_rules, batch.results, batch.lengths,
                    batch.terminations, batch.offsets(), recorded_positions, recorded_actions)


def _finished(board: Board, count: int, over: Outcome, positions: bool,
              actions: bool) -> Playouts:
    """`count` games of no ply from `board`, whose game is over: each ends as
    Board.outcome says (a set-up position may show an end that no move made, which the C
    rules, asked after each move, do not look for)."""
    result = 0 if over.winner is None else 1 if over.winner == WHITE else -1
    code = TERMINATION_CODES[over.termination.value]
    return Playouts(board.variant, board.fmjd_draw_rules,
                    from_bytes("b", (count,), struct.pack("b", result) * count),
                    from_bytes("i", (count,), bytes(4 * count)),
                    from_bytes("B", (count,), bytes([code]) * count),
                    from_bytes("q", (count + 1,), bytes(8 * (count + 1))),
                    from_bytes("Q", (0, 4), b"") if positions else None,
                    from_bytes("i", (0,), b"") if actions else None)


#: the bytes each game takes in the results, whatever is recorded: results (1), lengths (4),
#: terminations (1), offsets (8)
GAME_BYTES = 14


def _check_memory(count: int) -> None:
    """PlayoutsError, before anything is allocated, when the results of `count` games alone
    would not fit in this machine's memory."""
    memory = _physical_memory_mb()
    if memory is not None and count * GAME_BYTES > memory << 20:
        raise PlayoutsError(f"{count:,} games need {count * GAME_BYTES / 2 ** 30:,.1f} GiB of "
                            f"memory for their results, more than this machine's "
                            f"{memory / 1024:,.1f} GiB; play them in batches of fewer games")


def _jobs(jobs: Optional[int]) -> int:
    if jobs is None:
        return os.cpu_count() or 1
    count = as_int(jobs)
    if count is None or count < 1:
        raise PlayoutsError(f"jobs must be a whole number >= 1 or None (every core), "
                            f"not {jobs!r}")
    return count
