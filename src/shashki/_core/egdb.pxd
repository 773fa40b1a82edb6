# The endgame databases in C: the tables of one game and their index (here, inline), the probe
# and the tables' Python edge (egdb.pyx), the retrograde builder (egdb_build.pyx).  The search
# cimports Egdb and egdb_probe.

from libc.stdint cimport uint8_t, int64_t
from .bits cimport u64, popcount, ctz, scatter
from .kernel cimport WHITE, BLACK, Pos, KernelOps
from .draws cimport DrawRules, DrawState

cdef enum:
    EG_MAXPIECES = 7            # per side and in all
    EG_SIGS = 4096              # signature codes: wm * 512 + wk * 64 + bm * 8 + bk
    # the value of a position, one byte: 0 not in the table (men on the same square), 1 a
    # draw, 2 + d a win, 129 + d a loss, d plies to the next capture or man move (0..126)
    EG_NONE = 0
    EG_DRAW = 1
    EG_WIN = 2
    EG_LOSS = 129
    EG_MAXD = 126

ctypedef struct EgTable:
    uint8_t *data               # NULL: not loaded
    u64 size

ctypedef struct Egdb:
    const KernelOps *ops
    int W
    int R
    int N                       # playable squares
    int nm                      # squares a man may stand on (all but its crowning row)
    int reversed                # giveaway: the side that cannot move wins
    int flying
    int fmjd                    # endgame rules with counters of their own (FMJD-64 7.2.4...)
    int limit                   # plies without a capture or man move before the draw
    DrawRules draws
    int max_pieces              # the most pieces of a loaded table
    const int *ghost            # square -> the kernel's bit (the kernel's table)
    const int *square           # the kernel's bit -> square, -1 for a ghost bit
    u64 binom[65][9]
    EgTable tables[EG_SIGS]

cdef class EgdbTables:
    cdef Egdb *db
    cdef readonly object variant
    cdef object kernel
    cdef list _buffers


# --- the index: a position with White to move, as square masks, and its place in a table ----------

cdef inline int sig_code(int wm, int wk, int bm, int bk) noexcept nogil:
    return wm * 512 + wk * 64 + bm * 8 + bk


cdef inline u64 rotate(const Egdb *db, u64 m) noexcept nogil:
    # square s -> N - 1 - s: the board turned half round
    cdef u64 out = 0
    cdef int s
    while m:
        s = ctz(m)
        m &= m - 1
        out |= (<u64>1) << (db.N - 1 - s)
    return out


cdef inline u64 compress(u64 m, u64 taken) noexcept nogil:
    # the squares of `m` renumbered over the squares not in `taken` (a software pext)
    cdef u64 out = 0
    cdef int s
    while m:
        s = ctz(m)
        m &= m - 1
        out |= (<u64>1) << (s - popcount(taken & (((<u64>1) << s) - 1)))
    return out


cdef inline u64 expand(u64 m, u64 taken) noexcept nogil:
    # the inverse of compress: bit i of `m` is the i-th square not in `taken`
    cdef u64 out = 0
    cdef u64 free = ~taken
    cdef int i = 0
    while m:
        if m & 1:
            out |= free & (~free + 1)
        m >>= 1
        free &= free - 1
    return out


cdef inline u64 rank(const Egdb *db, u64 m) noexcept nogil:
    # colex rank of a set: sum of C(element, i) for its i-th element (from 1)
    cdef u64 r = 0
    cdef int i = 1
    while m:
        r += db.binom[ctz(m)][i]
        m &= m - 1
        i += 1
    return r


cdef inline u64 unrank(const Egdb *db, u64 r, int k, int n) noexcept nogil:
    cdef u64 m = 0
    cdef int c = n - 1
    while k > 0:
        while db.binom[c][k] > r:
            c -= 1
        r -= db.binom[c][k]
        m |= (<u64>1) << c
        c -= 1
        k -= 1
    return m


cdef inline u64 men_rows_mask(const Egdb *db) noexcept nogil:
    return ((<u64>1) << db.nm) - 1 if db.nm < 64 else ~(<u64>0)


cdef inline u64 sig_size(const Egdb *db, int wm, int wk, int bm, int bk) noexcept nogil:
    cdef int free = db.N - wm - bm
    if free < wk + bk:
        return 0
    return db.binom[db.nm][wm] * db.binom[db.nm][bm] * db.binom[free][wk] * \
        db.binom[free - wk][bk]


ctypedef struct SqPos:
    # a position with White to move, as square masks
    u64 wm
    u64 wk
    u64 bm
    u64 bk


cdef inline u64 men_index(const Egdb *db, u64 wm, u64 bm, int nbm) noexcept nogil:
    return rank(db, wm) * db.binom[db.nm][nbm] + rank(db, bm >> db.W)


cdef inline u64 king_index(const Egdb *db, const SqPos *q, int nwm, int nbm, int nwk,
                           int nbk) noexcept nogil:
    cdef u64 men = q.wm | q.bm
    cdef int free = db.N - nwm - nbm
    return rank(db, compress(q.wk, men)) * db.binom[free - nwk][nbk] + \
        rank(db, compress(q.bk, men | q.wk))


cdef inline int64_t index_of(const Egdb *db, const SqPos *q, int *code) noexcept nogil:
    cdef int nwm = popcount(q.wm), nwk = popcount(q.wk)
    cdef int nbm = popcount(q.bm), nbk = popcount(q.bk)
    cdef int free = db.N - nwm - nbm
    code[0] = sig_code(nwm, nwk, nbm, nbk)
    return <int64_t>(men_index(db, q.wm, q.bm, nbm) * db.binom[free][nwk] *
                     db.binom[free - nwk][nbk] + king_index(db, q, nwm, nbm, nwk, nbk))


cdef inline void to_sq(const Egdb *db, const Pos *p, SqPos *q) noexcept nogil:
    """`p` as square masks, White to move (turned round when Black is to move)."""
    cdef u64 w = 0, b = 0, k = 0, m
    cdef int g
    m = p.pieces[0]
    while m:
        g = ctz(m)
        m &= m - 1
        w |= (<u64>1) << db.square[g]
    m = p.pieces[1]
    while m:
        g = ctz(m)
        m &= m - 1
        b |= (<u64>1) << db.square[g]
    m = p.kings
    while m:
        g = ctz(m)
        m &= m - 1
        k |= (<u64>1) << db.square[g]
    if p.turn == BLACK:
        w, b, k = rotate(db, b), rotate(db, w), rotate(db, k)
    q.wm = w & ~k
    q.wk = w & k
    q.bm = b & ~k
    q.bk = b & k


cdef inline u64 ghost_of(const Egdb *db, u64 m) noexcept nogil:
    return scatter(m, db.ghost)


cdef inline void to_pos(const Egdb *db, const SqPos *q, Pos *p) noexcept nogil:
    p.pieces[0] = ghost_of(db, q.wm | q.wk)
    p.pieces[1] = ghost_of(db, q.bm | q.bk)
    p.kings = ghost_of(db, q.wk | q.bk)
    p.turn = WHITE


cdef inline int terminal_value(const Egdb *db) noexcept nogil:
    # the side to move has no move
    return EG_WIN if db.reversed else EG_LOSS


cdef int egdb_value(const Egdb *db, const Pos *p) noexcept nogil
cdef int plies_left(const Egdb *db, const Pos *p, const DrawState *d, int most) noexcept nogil
cdef int egdb_probe(const Egdb *db, const Pos *p, const DrawState *d,
                    int *dtz) noexcept nogil
