# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The search: iterative deepening PVS with a transposition table, in C.

- Move ordering: the hash move, then captures (most pieces first), killers, history.
- Quiescence: below depth 0 a position whose side must capture is searched on (captures are
  compulsory, so there is no stand-pat there); only a quiet position is evaluated.  The
  search never stops in the middle of an exchange.
- Draws inside the search: repetition of a position with the same side to move (once is
  enough), and every draw rule of the game, from the same C implementation as Board.outcome()
  (draws.pxd), all counted as 0.
- Time: a node budget and a deadline checked every 1024 nodes, and a stop flag that another
  thread may set while the kernel runs without the GIL.
- Scores are from the side to move, in hundredths of a man; |score| > WIN - MAXPLY is a
  forced win (or loss) in (WIN - |score|) plies.
"""

from cpython.mem cimport PyMem_Malloc, PyMem_Free
from libc.string cimport memset
from libc.stdint cimport int8_t, int32_t, uint8_t, uint32_t

from .kernel cimport u64, WHITE, BLACK, Position, Move, MoveList, KernelOps, make_move, popcount, ctz
from .movegen cimport Kernel
from .board cimport BoardCore
from .draws cimport DrawRules, DrawState, draws_after, draw_rule, T_NONE

cdef extern from *:
    """
    #if defined(_WIN32)
    #include <windows.h>
    static double shashki_now(void) {
        LARGE_INTEGER f, c;
        QueryPerformanceFrequency(&f);
        QueryPerformanceCounter(&c);
        return (double)c.QuadPart / (double)f.QuadPart;
    }
    #else
    #include <time.h>
    static double shashki_now(void) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    }
    #endif
    """
    double now "shashki_now"() noexcept nogil

cdef enum:
    MAXPLY = 100        # search path, quiescence included
    HISTORY_MAX = 1024  # game positions kept for repetition
    WIN = 30000
    INF = 32000
    EXACT = 0
    LOWER = 1
    UPPER = 2


# --- Zobrist keys: one per (colour, man/king, bit), and one for Black to move ----------------------

cdef u64 ZOBRIST[2][2][64]
cdef u64 ZSIDE


cdef u64 splitmix64(u64 *state) noexcept nogil:
    # a fixed seed: keys are the same in every process
    state[0] += 0x9E3779B97F4A7C15ULL
    cdef u64 z = state[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef void init_zobrist() noexcept nogil:
    global ZSIDE
    cdef u64 state = 0x53484153484B4921ULL
    cdef int c, k, s
    for c in range(2):
        for k in range(2):
            for s in range(64):
                ZOBRIST[c][k][s] = splitmix64(&state)
    ZSIDE = splitmix64(&state)


init_zobrist()


cdef u64 zobrist(const Position *p) noexcept nogil:
    cdef u64 key = ZSIDE if p.turn else 0
    cdef u64 b
    cdef int c, s
    for c in range(2):
        b = p.pieces[c]
        while b:
            s = ctz(b)
            b &= b - 1
            key ^= ZOBRIST[c][(p.kings >> s) & 1][s]
    return key ^ run_key(p.run)


cdef inline u64 run_key(uint32_t run) noexcept nogil:
    # the kings' runs (frisian; 0 in the other games, whose keys they leave alone): a mix of
    # the two bytes, so that positions that differ only by them differ in the table and in the
    # repetition test
    cdef u64 h
    if not (run & 0xFFFF):
        return 0
    h = (<u64>(run & 0xFFFF)) * 0x9E3779B97F4A7C15ULL
    return h ^ (h >> 29) ^ 0x2545F4914F6CDD1DULL


cdef u64 key_after(u64 key, const Position *p, const Move *m) noexcept nogil:
    cdef int us = p.turn
    cdef int them = us ^ 1
    cdef int was_king = (p.kings >> m.frm) & 1
    cdef u64 cap = m.captured
    cdef int s
    key ^= ZOBRIST[us][was_king][m.frm] ^ ZOBRIST[us][was_king | m.promote][m.to] ^ ZSIDE
    while cap:
        s = ctz(cap)
        cap &= cap - 1
        key ^= ZOBRIST[them][(p.kings >> s) & 1][s]
    return key


cdef inline u64 child_key(u64 key, const Position *p, const Move *m,
                          const Position *child) noexcept nogil:
    # the key after m, the kings' runs included
    key = key_after(key, p, m)
    if p.run:
        key ^= run_key(p.run) ^ run_key(child.run)
    return key


ctypedef struct TTEntry:
    u64 key
    u64 captured        # the best move: origin, destination, captured squares
    int32_t score
    int8_t depth
    uint8_t flag        # EXACT, LOWER or UPPER
    uint8_t gen         # the search that stored it (Engine.gen)
    uint8_t frm
    uint8_t to


ctypedef struct MoveId:
    u64 captured
    uint8_t frm
    uint8_t to


ctypedef struct Eval:
    int man
    int king
    int advance         # per row a man has advanced
    int back_rank       # per man still guarding its own back row
    int centre          # per piece on the four centre squares
    int reversed        # giveaway: losing pieces is the goal


ctypedef struct Engine:
    const KernelOps *ops
    Eval ev
    TTEntry *tt
    u64 tt_mask
    u64 nodes
    u64 node_limit      # 0: none
    double deadline     # 0: none
    int stop            # set by stop(), by the node budget or by the deadline
    DrawRules draws     # the game's draw rules, as the board's
    int seldepth
    uint8_t gen         # counts searches, so entries of earlier moves can be replaced
    int history[64][64]
    MoveId killers[MAXPLY][2]
    u64 keys[HISTORY_MAX + MAXPLY]
    int nkeys
    Move pv[MAXPLY][MAXPLY]
    int pv_len[MAXPLY]


cdef inline bint same_move(const Move *m, const MoveId *id) noexcept nogil:
    return m.frm == id.frm and m.to == id.to and m.captured == id.captured


# --- evaluation --------------------------------------------------------------------------------

cdef u64 CENTRE = ((<u64>1) << 14) | ((<u64>1) << 15) | ((<u64>1) << 19) | ((<u64>1) << 20) | \
                  ((<u64>1) << 10) | ((<u64>1) << 11) | ((<u64>1) << 24) | ((<u64>1) << 25)
cdef u64 ROWS[8]
cdef int _r
for _r in range(8):
    ROWS[_r] = (<u64>0xF) << (9 * (_r // 2) + 5 * (_r % 2))


cdef int side_score(const Eval *ev, u64 own, u64 kings, int color) noexcept nogil:
    cdef u64 men = own & ~kings
    cdef int score = ev.man * popcount(men) + ev.king * popcount(own & kings)
    cdef int r, rows
    for r in range(1, 7):
        rows = r if color == WHITE else 7 - r
        score += ev.advance * rows * popcount(men & ROWS[r])
    score += ev.back_rank * popcount(men & ROWS[0 if color == WHITE else 7])
    score += ev.centre * popcount(own & CENTRE)
    return score


cdef int evaluate(const Engine *e, const Position *p) noexcept nogil:
    cdef int us = p.turn
    cdef int them = us ^ 1
    cdef int s
    if e.ev.reversed:
        # giveaway: fewer pieces is better; a lone piece that can still be taken is best
        s = (popcount(p.pieces[them]) - popcount(p.pieces[us])) * e.ev.man
        s += 2 * (popcount(p.pieces[them] & p.kings) - popcount(p.pieces[us] & p.kings))
        return s
    return side_score(&e.ev, p.pieces[us], p.kings, us) - \
        side_score(&e.ev, p.pieces[them], p.kings, them)


# --- search --------------------------------------------------------------------------------------

cdef inline bint repeated(const Engine *e, u64 key, int rev) noexcept nogil:
    # the same position with the same side to move, since the last irreversible move
    cdef int i = e.nkeys - 2
    cdef int back = 2
    while i >= 0 and back <= rev:
        if e.keys[i] == key:
            return True
        i -= 2
        back += 2
    return False


cdef inline void check_limits(Engine *e) noexcept nogil:
    if e.node_limit and e.nodes >= e.node_limit:
        e.stop = 1
    elif e.deadline > 0 and (e.nodes & 1023) == 0 and now() >= e.deadline:
        e.stop = 1


cdef int search(Engine *e, const Position *p, u64 key, int depth, int alpha, int beta,
                int ply, const DrawState *d) noexcept nogil:
    cdef MoveList ml
    cdef int order[512]
    cdef Position child
    cdef TTEntry *te
    cdef MoveId hash_move
    cdef int i, j, best_i, score, best, new_depth, tt_score, old_alpha
    cdef DrawState cd
    cdef bint captures, have_hash = False
    cdef Move *m
    cdef Move tmp
    cdef int tmpo

    e.pv_len[ply] = ply
    e.nodes += 1
    check_limits(e)
    if e.stop:
        return 0
    if ply > e.seldepth:
        e.seldepth = ply
    if ply > 0 and repeated(e, key, d.halfmove):
        return 0
    if e.draws.crowning_wins and p.kings & p.pieces[p.turn ^ 1]:
        return ply - WIN        # breakthrough: the side that just crowned a king has won
    e.ops.moves(p, &ml)
    if ml.n == 0:
        # no legal move: the side to move has lost (won, in giveaway); sooner is bigger.  As in
        # Board.outcome(), this comes before the draw rules.
        return WIN - ply if e.ev.reversed else ply - WIN
    if ply > 0 and draw_rule(d, p, &e.draws, 0) != T_NONE:
        return 0
    if ply >= MAXPLY - 1:
        return evaluate(e, p)
    captures = ml.moves[0].ncapt > 0
    if depth <= 0 and not captures:
        return evaluate(e, p)
    if depth < 0:
        depth = 0

    # transposition table
    te = &e.tt[key & e.tt_mask]
    if te.key == key:
        have_hash = True
        hash_move.frm = te.frm
        hash_move.to = te.to
        hash_move.captured = te.captured
        if ply > 0 and te.depth >= depth:
            tt_score = te.score
            if tt_score > WIN - MAXPLY:
                tt_score -= ply
            elif tt_score < -WIN + MAXPLY:
                tt_score += ply
            if te.flag == EXACT or (te.flag == LOWER and tt_score >= beta) or \
                    (te.flag == UPPER and tt_score <= alpha):
                return tt_score

    # move ordering scores
    for i in range(ml.n):
        m = &ml.moves[i]
        if have_hash and same_move(m, &hash_move):
            order[i] = 1 << 30
        elif m.ncapt:
            order[i] = (1 << 29) + m.ncapt * 64 + popcount(m.captured & p.kings) * 8
        elif same_move(m, &e.killers[ply][0]):
            order[i] = (1 << 28) + 1
        elif same_move(m, &e.killers[ply][1]):
            order[i] = 1 << 28
        else:
            order[i] = e.history[m.frm][m.to] + (64 if m.promote else 0)

    best = -INF
    best_i = 0
    old_alpha = alpha
    e.keys[e.nkeys] = key
    e.nkeys += 1
    for i in range(ml.n):
        # selection sort: the best remaining move goes to slot i
        j = i
        for best_i in range(i + 1, ml.n):
            if order[best_i] > order[j]:
                j = best_i
        if j != i:
            tmp = ml.moves[i]
            ml.moves[i] = ml.moves[j]
            ml.moves[j] = tmp
            tmpo = order[i]
            order[i] = order[j]
            order[j] = tmpo
        m = &ml.moves[i]
        make_move(&child, p, m)
        cd = d[0]
        draws_after(&cd, p, m, &child, &e.draws)
        # a forced reply (one legal move) costs no depth
        new_depth = depth if ml.n == 1 and depth > 0 else depth - 1
        if i == 0:
            score = -search(e, &child, child_key(key, p, m, &child), new_depth, -beta, -alpha, ply + 1,
                            &cd)
        else:
            score = -search(e, &child, child_key(key, p, m, &child), new_depth, -alpha - 1, -alpha,
                            ply + 1, &cd)
            if alpha < score < beta and not e.stop:
                score = -search(e, &child, child_key(key, p, m, &child), new_depth, -beta, -alpha,
                                ply + 1, &cd)
        if e.stop:
            e.nkeys -= 1
            return 0
        if score > best:
            best = score
            if score > alpha:
                alpha = score
                e.pv[ply][ply] = m[0]
                for j in range(ply + 1, e.pv_len[ply + 1]):
                    e.pv[ply][j] = e.pv[ply + 1][j]
                e.pv_len[ply] = e.pv_len[ply + 1] if e.pv_len[ply + 1] > ply + 1 else ply + 1
                hash_move.frm = m.frm
                hash_move.to = m.to
                hash_move.captured = m.captured
                have_hash = True
                if alpha >= beta:
                    if not m.ncapt:
                        if not same_move(m, &e.killers[ply][0]):
                            e.killers[ply][1] = e.killers[ply][0]
                            e.killers[ply][0] = hash_move
                        e.history[m.frm][m.to] += depth * depth
                        if e.history[m.frm][m.to] > (1 << 20):
                            for j in range(64 * 64):
                                (&e.history[0][0])[j] >>= 1
                    break
        if i == 0 and not have_hash:
            hash_move.frm = m.frm
            hash_move.to = m.to
            hash_move.captured = m.captured
            have_hash = True
    e.nkeys -= 1

    # Store, mate scores relative to this node.  An entry of another position is replaced only
    # by a search as deep or deeper, unless it is left over from an earlier move; quiescence
    # nodes (depth 0) never push out a real search.
    if te.key == key or te.gen != e.gen or (depth > 0 and depth >= te.depth):
        te.key = key
        te.gen = e.gen
        te.depth = <int8_t>depth
        te.frm = hash_move.frm
        te.to = hash_move.to
        te.captured = hash_move.captured
        tt_score = best
        if tt_score > WIN - MAXPLY:
            tt_score += ply
        elif tt_score < -WIN + MAXPLY:
            tt_score -= ply
        te.score = tt_score
        te.flag = LOWER if best >= beta else (EXACT if best > old_alpha else UPPER)
    return best


cdef class Searcher:
    """The C search state of one game: its rules, evaluation weights and hash table.

    `search()` releases the GIL; `stop()` may be called from another thread meanwhile.
    """
    cdef Engine *e
    cdef Kernel rules
    cdef readonly u64 hash_bytes

    def __cinit__(self, Kernel rules not None, int hash_mb=16, *, int man=100, int king=300,
                  int advance=3, int back_rank=6, int centre=4, bint reversed=False):
        cdef u64 n = 1
        if hash_mb < 1:
            raise ValueError(f"hash size must be at least 1 MiB, not {hash_mb}")
        self.e = <Engine *>PyMem_Malloc(sizeof(Engine))
        if self.e == NULL:
            raise MemoryError()
        memset(self.e, 0, sizeof(Engine))
        while n * 2 * sizeof(TTEntry) <= (<u64>hash_mb) * 1024 * 1024:
            n *= 2
        self.e.tt = <TTEntry *>PyMem_Malloc(n * sizeof(TTEntry))
        if self.e.tt == NULL:
            raise MemoryError(f"cannot allocate a {hash_mb} MiB search table")
        self.e.tt_mask = n - 1
        self.hash_bytes = n * sizeof(TTEntry)
        self.rules = rules
        self.e.ops = rules.ops
        self.e.ev.man = man
        self.e.ev.king = king
        self.e.ev.advance = advance
        self.e.ev.back_rank = back_rank
        self.e.ev.centre = centre
        self.e.ev.reversed = reversed
        self.clear()

    def __dealloc__(self):
        if self.e != NULL:
            PyMem_Free(self.e.tt)
            PyMem_Free(self.e)

    def clear(self):
        """Forget the hash table, killers and history (a new game)."""
        memset(self.e.tt, 0, (self.e.tt_mask + 1) * sizeof(TTEntry))
        memset(self.e.history, 0, sizeof(self.e.history))
        memset(self.e.killers, 0, sizeof(self.e.killers))

    def new_search(self):
        """Mark the start of the search of a new move: the table's entries from earlier moves
        may then be replaced by shallower ones."""
        self.e.gen = <uint8_t>(self.e.gen + 1)

    def stop(self):
        """Ask a running search to stop as soon as possible (thread-safe)."""
        self.e.stop = 1

    cdef int check(self, BoardCore board) except -1:
        if board.kernel is not self.rules:
            raise ValueError(f"this searcher plays with the {self.rules.name} kernel, "
                             f"not {board.kernel.name}")
        return 0

    def evaluate(self, BoardCore board not None):
        """The static evaluation of the board's position, from the side to move."""
        self.check(board)
        return evaluate(self.e, &board.pos)

    def search(self, BoardCore board not None, int depth, node_limit=0, double deadline=0.0):
        """One fixed-depth search of the board's position; returns (score, pv, nodes,
        seldepth, completed).

        The board's history since the last irreversible move gives the positions a repetition
        returns to, and its draw rules and counters are the search's own (one implementation,
        shashki/_core/draws.pxd).  `deadline` is on the clock of shashki_now (see `now()`);
        `pv` is a list of (origin, destination, captured mask).  A search cut short (stop,
        node budget, deadline) returns completed=False.
        """
        cdef Position p = board.pos
        cdef DrawState d = board.draws
        cdef int score, i, first
        cdef u64 key
        self.check(board)
        if not 1 <= depth < MAXPLY - 10:
            raise ValueError(f"search depth must be 1..{MAXPLY - 11}, not {depth}")
        first = board.nhist - min(d.halfmove, board.nhist, HISTORY_MAX)
        self.e.nkeys = 0
        for i in range(first, board.nhist):
            self.e.keys[self.e.nkeys] = zobrist(&board.hist[i].pos)
            self.e.nkeys += 1
        self.e.draws = board.draw_rules
        self.e.nodes = 0
        self.e.node_limit = node_limit
        self.e.deadline = deadline
        self.e.seldepth = 0
        self.e.stop = 0
        memset(self.e.pv_len, 0, sizeof(self.e.pv_len))
        key = zobrist(&p)
        with nogil:
            score = search(self.e, &p, key, depth, -INF, INF, 0, &d)
        completed = not self.e.stop
        pv = [(self.rules.square[self.e.pv[0][i].frm], self.rules.square[self.e.pv[0][i].to],
               self.rules.from_ghost(self.e.pv[0][i].captured)) for i in range(self.e.pv_len[0])]
        return score, pv, self.e.nodes, self.e.seldepth, completed


def now_seconds():
    """The monotonic clock the search's deadline is measured on."""
    return now()


WIN_SCORE = WIN
MAX_PLY = MAXPLY
