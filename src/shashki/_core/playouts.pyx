# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""Random games played to their end in C, without the GIL: the engine of shashki.playouts.

Each game starts from the same Board position (with its history, so repetitions count across
the start), chooses every move uniformly among the legal moves, and ends where Board.outcome
would end it: no legal move, or a draw rule of the game (draws.pxd, the one implementation the
Board and the search use), claims included when `claim_draw` is set, in the order
Board._termination applies them.

The side to move's moves are drawn without listing them where that is cheaper: the game's
kernel counts the quiet moves and makes only the one drawn (KernelOps.pick_quiet, with
the capture test); it lists the moves only when there is a capture.

Game i draws its moves from its own random stream, seeded by (seed, i): the games do not depend
on how they are shared out among threads, so a seed gives the same games for any `jobs`.  The
games are split into `jobs` contiguous chunks, one thread each; a chunk keeps its own move list,
history and records, which are joined in game order at the end.
"""

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy, memset

from .kernel cimport (u64, WHITE, BLACK, MAXMOVES, Position, Move as KMove, MoveList,
                      KernelOps, make_move, random_below, popcount, ctz)
from .movegen cimport Kernel
from .board cimport BoardCore
from .draws cimport (DrawRules, DrawState, draws_after, draw_rule, T_NONE, T_NO_MOVES,
                     T_REPETITION, T_CROWNED)
from .actions cimport move_actions
from .arrays cimport Buffer, new_buffer

import threading


ctypedef struct Config:
    const KernelOps *ops        # the game's kernel: its moves, listed or drawn one by one
    DrawRules rules
    int skip                    # bits (1 << Termination) of the draws not granted
    bint ahead                  # a repetition may be claimed before the repeating move
    int window                  # below this halfmove clock no repetition or move limit holds
    bint endgame                # the game's endgame draw rules (7.2.4-7.2.8, 6.3, 6.4) apply
    bint reversed_goal          # giveaway: the side with no move wins
    Position start
    DrawState start_draws
    const Position *prefix      # the start board's last positions, for repetitions
    int nprefix
    u64 seed
    int64_t max_plies           # -1: no limit
    const int *square           # ghost bit -> square
    int nsq
    int rows
    bint perspective            # actions numbered from the side to move's side
    bint record_positions
    bint record_actions
    bint record                 # either
    int8_t *results
    int32_t *lengths
    uint8_t *terminations

ctypedef struct Chunk:
    int64_t first               # games first..last-1
    int64_t last
    MoveList *ml
    Position *hist              # the positions before each ply since the last irreversible one
    int cap_hist
    u64 *positions              # 4 words a ply: white, black, kings (square masks), turn
    int32_t *actions
    int64_t nrec
    int64_t cap_rec
    int error                   # 1: out of memory, 2: a move list overflowed


cdef enum:
    OUT_OF_MEMORY = 1
    OVERFLOW = 2


# --- random numbers: one xorshift64* stream per game, seeded by splitmix64 -------------------

cdef inline u64 mix(u64 z) noexcept nogil:
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline u64 next_random(u64 *state) noexcept nogil:
    # xorshift64* (Vigna): its high 32 bits, the ones used, pass BigCrush
    cdef u64 x = state[0]
    x ^= x >> 12
    x ^= x << 25
    x ^= x >> 27
    state[0] = x
    return x * 0x2545F4914F6CDD1DULL


# --- the end of the game, as BoardCore._termination and outcome(claim_draw) ------------------

cdef inline bint same(const Position *a, const Position *b) noexcept nogil:
    return (a.pieces[0] == b.pieces[0] and a.pieces[1] == b.pieces[1] and a.kings == b.kings
            and a.turn == b.turn and a.run == b.run)


cdef bint third_time(const Position *p, const Position *hist, int nh, int halfmove) noexcept nogil:
    # the position is here for the third time: positions an even number of plies back have
    # the same side to move, and none before the last irreversible move can be the same
    cdef int count = 1
    cdef int back = 2
    cdef int window = halfmove if halfmove < nh else nh
    while back <= window:
        if same(&hist[nh - back], p):
            count += 1
            if count >= 3:
                return True
        back += 2
    return False


cdef bint repetition_ahead(const Position *p, int halfmove, const MoveList *ml,
                           const Position *hist, int nh) noexcept nogil:
    # a king's quiet move would make a position occur for the third time (WCDF's claim)
    cdef Position child
    cdef int i, count, back
    for i in range(ml.n):
        if ml.moves[i].captured or not (p.kings >> ml.moves[i].frm) & 1:
            continue
        make_move(&child, p, &ml.moves[i])
        count = 1
        back = 1
        while back <= halfmove + 1 and back <= nh:
            if same(&hist[nh - back], &child):
                count += 1
                if count >= 3:
                    return True
            back += 2
    return False


cdef int draw_termination(const Config *cf, const Position *p, const DrawState *d,
                          bint capture, MoveList *ml, const Position *hist, int nh) noexcept nogil:
    """The draw that ends the game at `p` (which has a legal move), or T_NONE.  A position
    repeats only after 4 reversible plies, and a repetition ahead needs 2 and a quiet king move
    (the loops would find nothing sooner)."""
    cdef int code
    if not (cf.skip >> T_REPETITION) & 1 and d.halfmove >= 4 and \
            third_time(p, hist, nh, d.halfmove):
        return T_REPETITION
    code = draw_rule(d, p, &cf.rules, cf.skip)
    if code == T_NONE and cf.ahead and not capture and d.halfmove >= 2:
        cf.ops.moves(p, ml)
        if repetition_ahead(p, d.halfmove, ml, hist, nh):
            return T_REPETITION
    return code


cdef inline int termination(const Config *cf, const Position *p, const DrawState *d, int n,
                            bint capture, MoveList *ml, const Position *hist,
                            int nh) noexcept nogil:
    """The rule that ends the game at `p` (T_NONE: it goes on), `n` being its number of legal
    moves, as BoardCore._termination (and outcome(claim_draw=True) with `cf.ahead`)."""
    cdef u64 white = p.pieces[WHITE], black = p.pieces[BLACK]
    if cf.rules.crowning_wins and p.kings & p.pieces[p.turn ^ 1]:
        return T_CROWNED        # breakthrough: the side that just moved has crowned a king
    if n == 0:
        return T_NO_MOVES
    if d.halfmove < cf.window and d.road < 0 and d.few < 0 and (
            not cf.endgame or not p.kings or
            (white & (white - 1) and black & (black - 1) and popcount(white | black) > 7)):
        # Most plies of most games: no rule of draws.pxd can hold.  A repetition needs 4
        # reversible plies (a claim ahead 2), the kings-only and no-progress limits their
        # counts, 7.2.7/6.3 and 7.2.8/6.4 a running count, 7.2.4 a lone king and 7.2.6 kings on
        # both sides and 7 pieces or fewer.  test_playouts replays the games on a Board, which asks
        # every rule every ply.
        return T_NONE
    return draw_termination(cf, p, d, capture, ml, hist, nh)


# --- one game ------------------------------------------------------------------------------------

cdef inline u64 squares_of(u64 ghost, int width, int rows) noexcept nogil:
    # a ghost mask as a square mask: each pair of rows is 2 * width + 1 bits, the ghost bit
    # after the first row of the pair
    cdef u64 out = 0
    cdef u64 row = ((<u64>1) << width) - 1
    cdef int k
    for k in range(rows // 2):
        out |= ((ghost >> ((2 * width + 1) * k)) & row) << (2 * width * k)
        out |= ((ghost >> ((2 * width + 1) * k + width + 1)) & row) << (2 * width * k + width)
    return out


cdef inline bint regrow(void **block, size_t size) noexcept nogil:
    # realloc in place; False (the block unchanged) when there is no memory
    cdef void *a = realloc(block[0], size)
    if a == NULL:
        return False
    block[0] = a
    return True


cdef bint grow_records(Chunk *ch) noexcept nogil:
    cdef int64_t cap = ch.cap_rec * 2 if ch.cap_rec else 4096
    if not (regrow(<void **>&ch.positions, cap * 4 * sizeof(u64)) and
            regrow(<void **>&ch.actions, cap * sizeof(int32_t))):
        return False
    ch.cap_rec = cap
    return True


cdef bint grow_history(Chunk *ch, int need) noexcept nogil:
    cdef int cap = ch.cap_hist * 2 if ch.cap_hist else 256
    while cap < need:
        cap *= 2
    if not regrow(<void **>&ch.hist, cap * sizeof(Position)):
        return False
    ch.cap_hist = cap
    return True


cdef void record(const Config *cf, Chunk *ch, const Position *p, const MoveList *ml,
                 const KMove *m, int choice) noexcept nogil:
    cdef int32_t acts[MAXMOVES]
    cdef u64 *out
    cdef bint flip = cf.perspective and p.turn == BLACK
    if ch.nrec == ch.cap_rec and not grow_records(ch):
        ch.error = OUT_OF_MEMORY
        return
    if cf.record_positions:
        out = &ch.positions[4 * ch.nrec]
        out[0] = squares_of(p.pieces[WHITE], cf.ops.width, cf.rows)
        out[1] = squares_of(p.pieces[BLACK], cf.ops.width, cf.rows)
        out[2] = squares_of(p.kings, cf.ops.width, cf.rows)
        out[3] = p.turn
    if cf.record_actions:
        if m.ncapt:
            # a capture: its action depends on the other captures (actions.pyx)
            move_actions(ml.moves, ml.n, cf.square, cf.nsq, flip, acts)
            ch.actions[ch.nrec] = acts[choice]
        else:
            ch.actions[ch.nrec] = (cf.nsq - 1 - cf.square[m.frm] if flip else cf.square[m.frm]) \
                * cf.nsq + (cf.nsq - 1 - cf.square[m.to] if flip else cf.square[m.to])
    ch.nrec += 1


cdef void play_game(const Config *shared, Chunk *ch, int64_t game) noexcept nogil:
    # the configuration on the stack: the compiler then knows that no store to the history or
    # the records changes it, and keeps its fields in registers
    cdef Config local = shared[0]
    cdef const Config *cf = &local
    # two positions, the current one and the next, swapped by pointer: copying the one just
    # written field by field as a whole struct would stall on store forwarding every ply
    cdef Position both[2]
    cdef Position *pos = &both[0]
    cdef Position *after = &both[1]
    cdef Position *swap
    cdef DrawState d = cf.start_draws
    cdef MoveList *ml = ch.ml
    cdef KMove quiet
    cdef u64 rnd
    cdef const KMove *m
    quiet.routes = 1
    # (never 0: xorshift would stay there)
    cdef u64 rng = mix(cf.seed + mix(<u64>game + 0x632BE59BD9B4E019ULL)) | 1
    cdef int64_t ply = 0
    cdef int nh = cf.nprefix
    cdef int code, choice, winner, n
    both[0] = cf.start
    if nh >= ch.cap_hist and not grow_history(ch, nh + 1):
        ch.error = OUT_OF_MEMORY
        return
    if nh:          # (no prefix may mean no buffer: memcpy's pointers must be real ones)
        memcpy(ch.hist, cf.prefix, nh * sizeof(Position))
    while True:
        # one random number a ply, drawn before the moves are known: the kernel makes the quiet
        # move it picks in the same call that finds there is no capture (one indirect call, not
        # two); on the last ply, the game over, the move made is not played
        rnd = next_random(&rng)
        # (one branch on `capture` a ply: it is taken at random, a third of the time)
        n = cf.ops.pick_quiet(pos, rnd, &quiet)
        if n < 0:
            cf.ops.moves(pos, ml)
            if ml.overflow:
                ch.error = OVERFLOW
                return
            n = ml.n
            code = termination(cf, pos, &d, n, True, ml, ch.hist, nh)
            if code != T_NONE or ply == cf.max_plies:
                break
            choice = random_below(rnd, n)
            m = &ml.moves[choice]
        else:
            code = termination(cf, pos, &d, n, False, ml, ch.hist, nh)
            if code != T_NONE or ply == cf.max_plies:
                break
            choice = random_below(rnd, n)
            m = &quiet
        if cf.record:
            record(cf, ch, pos, ml, m, choice)
            if ch.error:
                return
        make_move(after, pos, m)
        draws_after(&d, pos, m, after, &cf.rules)
        if d.halfmove == 0:
            # an irreversible move: the rules look back at most halfmove + 1 plies
            ch.hist[0] = pos[0]
            nh = 1
        else:
            if nh == ch.cap_hist and not grow_history(ch, nh + 1):
                ch.error = OUT_OF_MEMORY
                return
            ch.hist[nh] = pos[0]
            nh += 1
        swap = pos
        pos = after
        after = swap
        ply += 1
    if code == T_NO_MOVES or code == T_CROWNED:
        winner = pos.turn if cf.reversed_goal and code == T_NO_MOVES else pos.turn ^ 1
        cf.results[game] = 1 if winner == WHITE else -1
    else:
        cf.results[game] = 0
    cf.lengths[game] = <int32_t>ply
    cf.terminations[game] = <uint8_t>code


cdef void play_chunk(const Config *cf, Chunk *ch) noexcept nogil:
    cdef int64_t g
    for g in range(ch.first, ch.last):
        play_game(cf, ch, g)
        if ch.error:
            return


# --- the Python edge ------------------------------------------------------------------------------

cdef class Batch:
    """One call of shashki.playouts: the configuration, the chunks and the results."""

    cdef Config cf
    cdef Chunk *chunks
    cdef int nchunks
    cdef Position *prefix
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
                free(self.chunks[c].ml)
                free(self.chunks[c].hist)
                free(self.chunks[c].positions)
                free(self.chunks[c].actions)
            free(self.chunks)
        free(self.prefix)

    def __init__(self, BoardCore board, int64_t n, u64 seed, int jobs, int64_t max_plies,
                 bint claim_draw, bint perspective, bint positions, bint actions):
        # (the quiet moves drawn here are those of flying or stepping kings: the record says
        # which)
        cdef Kernel k = board.kernel
        cdef int c, i, keep
        cdef Config *cf = &self.cf
        cf.ops = board.ops
        cf.rules = board.draw_rules
        cf.skip = 0 if claim_draw else board.claims
        cf.ahead = claim_draw and (board.claims >> T_REPETITION) & 1
        # (a limit the rules skip, a claim not made, lowers it too: the filter is only safer)
        cf.window = 2 if cf.ahead else 4 if not (cf.skip >> T_REPETITION) & 1 else 1 << 30
        for limit in (cf.rules.kings_only_plies, cf.rules.no_progress_plies):
            if 0 < limit < cf.window:
                cf.window = limit
        cf.endgame = (cf.rules.lone_king_moves or cf.rules.balance_plies[0] or
                      cf.rules.balance_plies[1] or cf.rules.three_moves or cf.rules.few_moves)

        cf.reversed_goal = board.reversed_goal
        cf.start = board.pos
        cf.start_draws = board.draws
        # the rules look back halfmove + 1 plies at most
        keep = min(board.nhist, board.draws.halfmove + 1)
        self.prefix = <Position *>malloc((keep if keep else 1) * sizeof(Position))
        if self.prefix == NULL:
            raise MemoryError()
        for i in range(keep):
            self.prefix[i] = board.hist[board.nhist - keep + i].pos
        cf.prefix = self.prefix
        cf.nprefix = keep
        cf.seed = seed
        cf.max_plies = max_plies if max_plies > 0 else -1
        cf.square = k.square
        cf.nsq = k.squares
        cf.rows = board.ops.rows
        cf.perspective = perspective
        cf.record_positions = positions
        cf.record_actions = actions
        cf.record = positions or actions
        self.results = new_buffer("b", 1, n)
        self.lengths = new_buffer("i", 1, n)
        self.terminations = new_buffer("B", 1, n)
        cf.results = <int8_t *>self.results.data
        cf.lengths = <int32_t *>self.lengths.data
        cf.terminations = <uint8_t *>self.terminations.data
        self.chunks = <Chunk *>malloc(jobs * sizeof(Chunk))
        if self.chunks == NULL:
            raise MemoryError()
        self.nchunks = jobs
        for c in range(jobs):
            self.chunks[c].first = n * c // jobs
            self.chunks[c].last = n * (c + 1) // jobs
            self.chunks[c].hist = NULL
            self.chunks[c].cap_hist = 0
            self.chunks[c].positions = NULL
            self.chunks[c].actions = NULL
            self.chunks[c].nrec = 0
            self.chunks[c].cap_rec = 0
            self.chunks[c].error = 0
            self.chunks[c].ml = <MoveList *>malloc(sizeof(MoveList))
            if self.chunks[c].ml == NULL:
                raise MemoryError()

    def run_chunk(self, int c):
        """Play the games of chunk c (0 <= c < jobs), without the GIL."""
        if not 0 <= c < self.nchunks:
            raise IndexError(f"chunk {c} of {self.nchunks}")
        with nogil:
            play_chunk(&self.cf, &self.chunks[c])

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
            if self.chunks[c].error == OVERFLOW:  # pragma: no cover - no position has 512
                raise OverflowError("a position had more legal moves than the move list holds")

    def records(self):
        """(positions, actions): the records of every ply in game order, joined from the
        chunks (None for what was not recorded)."""
        cdef int64_t total = 0, at = 0
        cdef int c
        cdef Buffer positions = None, actions = None
        for c in range(self.nchunks):
            total += self.chunks[c].nrec
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


def quiet_moves(BoardCore board):
    """Every quiet move the playouts can draw in the board's position, as (origin,
    destination, promotion) in the order of their index (for the tests: they must be the legal
    moves when there is no capture).  Move i is drawn by the random number that picks it."""
    cdef Batch batch = Batch(board, 0, 0, 1, 0, True, False, False, False)
    cdef KMove m
    cdef int i, n
    cdef u64 high
    cdef Kernel k = board.kernel
    memset(&m, 0, sizeof(m))
    n = batch.cf.ops.pick_quiet(&board.pos, 0, &m)
    if n < 0:
        raise ValueError("the side to move must capture")
    out = []
    for i in range(n):
        # the smallest high half that random_below scales to i
        high = ((<u64>i << 32) + <u64>n - 1) // <u64>n
        if batch.cf.ops.pick_quiet(&board.pos, high << 32, &m) != n:
            raise AssertionError("pick_quiet counted the moves differently")
        out.append((k.square[m.frm], k.square[m.to], bool(m.promote)))
    return out


def must_capture_test(BoardCore board):
    """Whether the playouts find that the side to move must capture (for the tests: it must be
    the kernel's answer)."""
    cdef Batch batch = Batch(board, 0, 0, 1, 0, True, False, False, False)
    cdef KMove m
    return batch.cf.ops.pick_quiet(&board.pos, 0, &m) < 0
