# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""Random games played to their end in C: `playouts(variant, n)` plays n random games.

The primitive for rollouts (MCTS), baselines and data generation.  The games are played by the
game's kernel (kernel_playouts.pxi, KernelOps.play), which has the rules as constants, without
the GIL, in `jobs` threads, each move chosen uniformly among the legal moves, each game ended
by the game's full rules: no legal move, or a draw rule (the same C implementation as
Board.outcome).  This module checks the arguments, fills the kernel's configuration
(playouts.pxd), records the plies when asked, and shares the games out.  Game i draws its moves
from its own random stream, seeded by (seed, i): a seed gives the same games for any `jobs`.
The games are split into `jobs` contiguous chunks, one thread each; a chunk keeps its own move
list, history and records, which are joined in game order at the end (taken over without a
copy when one chunk holds them all).

>>> import shashki
>>> games = shashki.playouts("russian", 100, seed=1)
>>> len(games), sum(games.lengths.tolist()) == games.plies
(100, True)
>>> games == shashki.playouts("russian", 100, seed=1, jobs=2)   # the same games for any jobs
True
"""

from libc.stdint cimport int32_t, int64_t
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memcpy, memset

from .bits cimport u64, ctz, pext, fast_pdep
from .kernel cimport (WHITE, BLACK, MAXMOVES, Pos, Move as KMove, MoveList, color_value, list_init,
                      list_free)
from .position cimport Kernel, PositionBase, Position, new_position
from .board cimport BoardCore
from .game cimport Game
from .draws cimport draws_start, history_free
from .actions cimport move_actions
from .arrays cimport Buffer, new_buffer, adopt_buffer
from .arrays import from_bytes
from cpython.mem cimport PyMem_RawFree

import os
import struct
import threading

from ..colors import BLACK as _BLACK, WHITE as _WHITE
from ..errors import ActionSpaceError, PlayoutsError
from ..limits import as_int, physical_memory_mb
from ..outcome import TERMINATION_CODES, Termination, make_outcome
from ..variants import Variant, get_variant
from .position import _trusted_position

__all__ = ["Playouts", "playouts"]

#: the Termination of each code of Playouts.terminations (the C rules' codes,
#: shashki._core.draws.pxd); 0 is a game cut at max_plies
_CODES = {TERMINATION_CODES[t.value]: t for t in Termination}


# --- the Python edge ------------------------------------------------------------------------------

cdef class Playouts:
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
      and the kings, and the side to move (int(shashki.WHITE), 1, or BLACK, 0); game i's plies are rows
      ``offsets[i]`` to ``offsets[i + 1] - 1``;
    - with ``actions=True``, `actions` (int32, one per ply): the action number
      (Board.move_to_action) of the move played at each of those plies.
    """

    cdef readonly object variant
    #: whether the game's endgame draw rules were in force (the board's fmjd_draw_rules)
    cdef readonly bint fmjd_draw_rules
    cdef readonly Buffer results
    cdef readonly Buffer lengths
    cdef readonly Buffer terminations
    cdef readonly Buffer offsets
    cdef readonly Buffer positions
    cdef readonly Buffer actions

    def __init__(self, variant, bint fmjd_draw_rules, Buffer results not None,
                 Buffer lengths not None, Buffer terminations not None, Buffer offsets not None,
                 Buffer positions=None, Buffer actions=None):
        self.variant = variant
        self.fmjd_draw_rules = fmjd_draw_rules
        self.results = results
        self.lengths = lengths
        self.terminations = terminations
        self.offsets = offsets
        self.positions = positions
        self.actions = actions

    def __len__(self):
        return len(self.results)

    def position(self, row):
        """The Position before the ply of record `row` (positions=True): game i's plies are
        rows offsets[i] to offsets[i + 1] - 1.  (The records keep the pieces and the side to
        move: a frisian position comes without its kings' runs.)"""
        cdef const u64 *rec
        if self.positions is None:
            raise PlayoutsError("the playouts kept no positions: ask for positions=True")
        if isinstance(row, bool) or not isinstance(row, int) or not 0 <= row < self.plies:
            raise PlayoutsError(f"record {row!r} is not one of the {self.plies} plies kept")
        rec = <const u64 *>self.positions.data + 4 * <Py_ssize_t>row
        return _trusted_position(self.variant, rec[0], rec[1], rec[2], <int>rec[3], None)

    @property
    def plies(self):
        """The plies of all the games together."""
        # (the last offset: this module is compiled without negative indexing)
        return (<const int64_t *>self.offsets.data)[len(self.results)]

    def termination(self, int game):
        """Why game `game` ended (None: it was cut at max_plies)."""
        return _CODES.get(self.terminations[game])

    def outcome(self, int game):
        """The Outcome of game `game`, as Board.outcome would give it at its end (None: it was
        cut at max_plies)."""
        code = self.terminations[game]
        if code == 0:
            return None
        result = self.results[game]
        winner = _WHITE if result == 1 else _BLACK if result == -1 else None
        return make_outcome(code, winner, self.variant, self.fmjd_draw_rules)

    def __eq__(self, other):
        if not isinstance(other, Playouts):
            return NotImplemented
        cdef Playouts o = other
        return (self.variant == o.variant and self.results == o.results and
                self.lengths == o.lengths and self.terminations == o.terminations and
                self.positions == o.positions and self.actions == o.actions)

    __hash__ = None     # mutable buffers: not hashable

    def __repr__(self):
        return f"<Playouts of {len(self)} {self.variant.name} games, {self.plies} plies>"


def playouts(variant, n, *, seed=None, jobs=1, max_plies=None, bint claim_draw=True,
             positions=False, actions=False, perspective=False):
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

    PlayoutsError for an argument out of range, and for more games than the memory holds:
    before any game is played when their results alone would not fit (GAME_BYTES a game),
    and when an allocation fails.
    """
    cdef Game game
    cdef PositionBase start
    if isinstance(variant, BoardCore):
        start = variant
        game = start.game
    elif isinstance(variant, Position):
        start = variant
        game = start.game
    else:
        game = variant if isinstance(variant, Game) else Game.of(get_variant(variant))
        start = game.position()
    count = as_int(n)
    if count is None or count < 0:
        raise PlayoutsError(f"n must be a whole number of games >= 0, not {n!r}")
    threads = _jobs(jobs)
    limit = 0 if max_plies is None else as_int(max_plies)
    if limit is None or limit < 0 or (max_plies is not None and limit == 0):
        raise PlayoutsError(f"max_plies must be a whole number >= 1 or None, not {max_plies!r}")
    if seed is None:
        seed_value = int.from_bytes(os.urandom(8), "little")
    else:
        given = as_int(seed)
        if given is None:
            raise PlayoutsError(f"seed must be an int or None, not {seed!r}")
        seed_value = given % (1 << 64)
    for name, flag in (("claim_draw", claim_draw), ("positions", positions),
                       ("actions", actions), ("perspective", perspective)):
        if not isinstance(flag, bool):
            raise PlayoutsError(f"{name} must be True or False, not {flag!r}")
    _check_memory(count)
    over = variant.outcome(claim_draw=claim_draw) if isinstance(variant, BoardCore) else \
        game.outcome(start, claim_draw=claim_draw)
    if over is not None:
        return _finished(game, count, over, positions, actions)
    try:
        run = Run(game, start, count, seed_value, max(1, min(threads, count)), limit,
                  claim_draw, perspective, positions, actions)
        run.run()
    except MemoryError:
        raise PlayoutsError(f"out of memory playing {count:,} games"
                            + (" and recording their plies" if positions or actions else "")
                            + "; play them in batches of fewer games") from None
    recorded_positions, recorded_actions = run.records()
    return Playouts(game.variant, game.fmjd_draw_rules, run.results, run.lengths,
                    run.terminations, run.offsets(), recorded_positions, recorded_actions)


def _finished(game, count, over, positions, actions):
    """`count` games of no ply from a start whose game is over: each ends as its outcome
    says (a set-up position may show an end that no move made, which the C rules, asked after
    each move, do not look for)."""
    result = 0 if over.winner is None else 1 if over.winner == _WHITE else -1
    code = TERMINATION_CODES[over.termination.value]
    return Playouts(game.variant, game.fmjd_draw_rules,
                    from_bytes("b", (count,), struct.pack("b", result) * count),
                    from_bytes("i", (count,), bytes(4 * count)),
                    from_bytes("B", (count,), bytes([code]) * count),
                    from_bytes("q", (count + 1,), bytes(8 * (count + 1))),
                    from_bytes("Q", (0, 4), b"") if positions else None,
                    from_bytes("i", (0,), b"") if actions else None)


#: the bytes each game takes in the results, whatever is recorded: results (1), lengths (4),
#: terminations (1), offsets (8)
GAME_BYTES = 14


def _check_memory(count):
    """PlayoutsError, before anything is allocated, when the results of `count` games alone
    would not fit in this machine's memory."""
    memory = physical_memory_mb()
    if memory is not None and count * GAME_BYTES > memory << 20:
        raise PlayoutsError(f"{count:,} games need {count * GAME_BYTES / 2 ** 30:,.1f} GiB of "
                            f"memory for their results, more than this machine's "
                            f"{memory / 1024:,.1f} GiB; play them in batches of fewer games")


def _jobs(jobs):
    if jobs is None:
        return os.cpu_count() or 1
    count = as_int(jobs)
    if count is None or count < 1:
        raise PlayoutsError(f"jobs must be a whole number >= 1 or None (every core), "
                            f"not {jobs!r}")
    return count


# --- the records ---------------------------------------------------------------------------------

cdef bint PEXT = fast_pdep()


cdef inline u64 squares_of(const Config *cf, u64 ghost) noexcept nogil:
    # the squares are the board's bits in order: one PEXT where it is fast
    if PEXT:
        return pext(ghost, cf.ops.board)
    return squares_by_rows(ghost, cf.ops.width, cf.ops.rows, cf.ops.files)


cdef bint grow_records(const Config *cf, Chunk *ch) noexcept nogil:
    cdef int64_t cap = ch.cap_rec * 2 if ch.cap_rec else 4096
    if cf.record_positions and not regrow(<void **>&ch.positions, cap * 4 * sizeof(u64)):
        return False
    if cf.record_actions and not regrow(<void **>&ch.actions, cap * sizeof(int32_t)):
        return False
    ch.cap_rec = cap
    return True


cdef void record_ply(const Config *cf, Chunk *ch, const Pos *p, const MoveList *ml,
                     const KMove *m, int choice) noexcept nogil:
    # the position before the ply and the action of its move (Config.record_ply)
    cdef int32_t acts[MAXMOVES]
    cdef u64 *out
    cdef bint flip = cf.perspective and p.turn == BLACK
    if ch.nrec == ch.cap_rec and not grow_records(cf, ch):
        ch.error = OUT_OF_MEMORY
        return
    if cf.record_positions:
        out = &ch.positions[4 * ch.nrec]
        out[0] = squares_of(cf, p.pieces[WHITE])
        out[1] = squares_of(cf, p.pieces[BLACK])
        out[2] = squares_of(cf, p.kings)
        out[3] = color_value(p.turn)     # (as shashki.Color: WHITE 1)
    if cf.record_actions:
        if choice >= 0 and m.ncapt:
            if ml.n > MAXMOVES:
                ch.error = OVERFLOW     # (acts holds MAXMOVES)
                return
            # a capture of the list: its action depends on the other captures (actions.pyx).  A
            # move drawn without the list (choice < 0) is a quiet move or a single jump where
            # every capture is one, so no other move joins its two squares: f * S + t
            move_actions(ml.moves, ml.n, cf.square, cf.nsq, flip, acts)
            ch.actions[ch.nrec] = acts[choice]
        else:
            ch.actions[ch.nrec] = (cf.nsq - 1 - cf.square[m.frm] if flip else cf.square[m.frm]) \
                * cf.nsq + (cf.nsq - 1 - cf.square[m.to] if flip else cf.square[m.to])
    ch.nrec += 1


# --- the games of one call, played -------------------------------------------------------------

cdef class Run:
    """One call of shashki.playouts: the configuration, the chunks and the results."""

    cdef Config cf
    cdef Chunk *chunks
    cdef int nchunks
    cdef Pos *prefix
    cdef readonly Buffer results
    cdef readonly Buffer lengths
    cdef readonly Buffer terminations

    def __cinit__(self):
        self.chunks = NULL
        self.nchunks = 0
        self.prefix = NULL

    def __dealloc__(self):
        cdef int c
        if self.chunks != NULL:
            for c in range(self.nchunks):
                if self.chunks[c].ml != NULL:
                    list_free(self.chunks[c].ml)
                free(self.chunks[c].ml)
                history_free(&self.chunks[c].hist)
                PyMem_RawFree(self.chunks[c].positions)
                PyMem_RawFree(self.chunks[c].actions)
            free(self.chunks)
        free(self.prefix)

    def __init__(self, Game game not None, PositionBase start not None, int64_t n, u64 seed,
                 int jobs, int64_t max_plies, bint claim_draw, bint perspective, bint positions,
                 bint actions):
        # the rules from the Game; the start from a Position, or from a Board with its draw
        # counters and history
        cdef Kernel k = game.kernel
        cdef BoardCore board = start if isinstance(start, BoardCore) else None
        cdef int c, i, keep = 0
        cdef Config *cf = &self.cf
        cf.ops = k.ops
        cf.step = game.step_rules(claim_draw)

        cf.reversed_goal = game.reversed_goal
        cf.start = start.pos
        if board is None:
            draws_start(&cf.start_draws, &cf.start, &game.draw_rules)
        else:
            cf.start_draws = board.state.draws
            # the rules look back halfmove + 1 plies at most
            keep = min(board.state.hist.n, board.state.draws.halfmove + 1)
        self.prefix = <Pos *>malloc((keep if keep else 1) * sizeof(Pos))
        if self.prefix == NULL:
            raise MemoryError()
        for i in range(keep):
            self.prefix[i] = board.state.hist.pos[board.state.hist.n - keep + i]
        cf.prefix = self.prefix
        cf.nprefix = keep
        cf.seed = seed
        cf.max_plies = max_plies if max_plies > 0 else -1
        cf.square = k.square
        cf.nsq = k.squares
        cf.perspective = perspective
        cf.record_positions = positions
        cf.record_actions = actions
        cf.record = positions or actions
        cf.record_ply = record_ply
        self.results = new_buffer("b", 1, n)
        self.lengths = new_buffer("i", 1, n)
        self.terminations = new_buffer("B", 1, n)
        cf.results = <int8_t *>self.results.data
        cf.lengths = <int32_t *>self.lengths.data
        cf.terminations = <uint8_t *>self.terminations.data
        # (zeroed: if a buffer below cannot be had, __dealloc__ frees only real ones)
        self.chunks = <Chunk *>calloc(jobs, sizeof(Chunk))
        if self.chunks == NULL:
            raise MemoryError()
        self.nchunks = jobs
        for c in range(jobs):
            self.chunks[c].first = n * c // jobs
            self.chunks[c].last = n * (c + 1) // jobs
            self.chunks[c].positions = NULL
            self.chunks[c].actions = NULL
            self.chunks[c].nrec = 0
            self.chunks[c].cap_rec = 0
            self.chunks[c].error = 0
            self.chunks[c].ml = <MoveList *>malloc(sizeof(MoveList))
            if self.chunks[c].ml == NULL:
                raise MemoryError()
            list_init(self.chunks[c].ml, NULL)

    def run_chunk(self, int c):
        """Play the games of chunk c (0 <= c < jobs), without the GIL."""
        if not 0 <= c < self.nchunks:
            raise IndexError(f"chunk {c} of {self.nchunks}")
        with nogil:
            self.cf.ops.play(&self.cf, &self.chunks[c])

    def run(self):
        """Play every game: chunk 0 in this thread, the others in threads of their own."""
        cdef int c
        threads = [threading.Thread(target=self.run_chunk, args=(c,))
                   for c in range(1, self.nchunks)]
        for t in threads:
            t.start()
        try:
            self.run_chunk(0)
        finally:
            for t in threads:
                t.join()
        for c in range(self.nchunks):
            if self.chunks[c].error == OUT_OF_MEMORY:
                raise MemoryError("out of memory recording the playouts")
            if self.chunks[c].error == OVERFLOW:
                raise ActionSpaceError(f"a position of the playouts has more than {MAXMOVES} "
                                       f"legal moves, which actions cannot number "
                                       f"(docs/actions.md): play them without recording actions")

    def records(self):
        """(positions, actions): the records of every ply in game order, joined from the
        chunks (None for what was not recorded).  Called once: the Buffers take over the
        chunks' blocks where one chunk holds them all."""
        cdef int64_t total = 0, at = 0
        cdef int c, only = -1
        cdef Buffer positions = None, actions = None
        for c in range(self.nchunks):
            total += self.chunks[c].nrec
            if self.chunks[c].nrec:
                only = c if only == -1 else -2
        if only >= 0:
            return self._adopt(&self.chunks[only])
        if self.cf.record_positions:
            positions = new_buffer("Q", 2, total, 4)
        if self.cf.record_actions:
            actions = new_buffer("i", 1, total)
        for c in range(self.nchunks):
            if self.chunks[c].nrec == 0:
                continue    # a chunk that recorded nothing may have no buffers at all
            if positions is not None:
                memcpy(positions.data + 4 * at * sizeof(u64), self.chunks[c].positions,
                       4 * self.chunks[c].nrec * sizeof(u64))
            if actions is not None:
                memcpy(actions.data + at * sizeof(int32_t), self.chunks[c].actions,
                       self.chunks[c].nrec * sizeof(int32_t))
            at += self.chunks[c].nrec
        return positions, actions

    cdef tuple _adopt(self, Chunk *ch):
        # the chunk's blocks, cut to their records, become the Buffers: no copy (and none of
        # the page faults a copy of a large record makes)
        cdef Buffer positions = None, actions = None
        cdef int64_t n = ch.nrec
        if self.cf.record_positions:
            regrow(<void **>&ch.positions, 4 * n * sizeof(u64))    # (smaller: cannot fail)
            positions = adopt_buffer(ch.positions, "Q", 2, n, 4)
            ch.positions = NULL
        if self.cf.record_actions:
            regrow(<void **>&ch.actions, n * sizeof(int32_t))
            actions = adopt_buffer(ch.actions, "i", 1, n)
            ch.actions = NULL
        ch.nrec = ch.cap_rec = 0
        return positions, actions

    def offsets(self):
        """An int64 Buffer of n + 1 items: game i's plies are records offsets[i]..offsets[i+1]."""
        cdef int64_t n = self.results.dims[0]
        cdef Buffer out = new_buffer("q", 1, n + 1)
        cdef int64_t *o = <int64_t *>out.data
        cdef int32_t *lengths = <int32_t *>self.lengths.data
        cdef int64_t i
        o[0] = 0
        for i in range(n):
            o[i + 1] = o[i] + lengths[i]
        return out
