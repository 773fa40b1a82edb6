# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""Endgame databases in C: the index of positions, the retrograde builder and the probe.

A table holds every position of one material signature (white men, white kings, black men,
black kings) with White to move; a position with Black to move is looked up turned half
round with the colours swapped (the rules of every game are the same seen from either side).
Its index: the white men among the squares a white man may stand on (all but White's
crowning row), the black men likewise, then the white kings among the squares the men leave
free and the black kings among the rest, each set ranked in colex order.  An index whose men
share a square is no position (value 0).

The value of a position is one byte: a draw, or a win or loss with its distance in plies to
the next capture or man move on the best line (as Syzygy's DTZ).  The values are those of the
game's rules with the counters of its draw rules fresh at the position: a win that cannot
be converted before a draw rule ends the game (15 moves of kings only in russian, 40 moves
without progress in english ...) is a draw.  The probe compares the distance with what the
board's counters leave (egdb_probe).

The builder: signatures with fewer pieces first, then fewer men (a capture or a crowning
leads to one built before); within a signature, the placements of the men from the most
advanced (a man's move leads to one built before).  One placement of the men and its mirror
image (the same position with the other side to move) form a slice in which only kings move;
its positions are solved together by retrograde analysis: the moves that leave the slice
(captures, man moves) are looked up, the others are counted, and the results spread back from
the positions won, lost and ended, ply by ply, through the kings' moves un-made.  A win or
loss is accepted only within the plies the draw rules allow; what is never resolved is drawn.
"""

from cpython.mem cimport PyMem_Malloc, PyMem_Free
from libc.string cimport memset
from libc.stdlib cimport malloc, free
from libc.stdint cimport uint8_t, uint32_t, int64_t

from .kernel cimport (u64, WHITE, BLACK, MAXMOVES, Position, Move, MoveList, KernelOps,
                      make_move, popcount, ctz, scatter)
from .movegen cimport Kernel
from .board cimport BoardCore
from .draws cimport DrawRules, DrawState, draw_rule, configurations, T_NONE


# --- index ---------------------------------------------------------------------------------------

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
    return ((<u64>1) << db.nm) - 1


cdef u64 sig_size(const Egdb *db, int wm, int wk, int bm, int bk) noexcept nogil:
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


cdef inline void to_sq(const Egdb *db, const Position *p, SqPos *q) noexcept nogil:
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


cdef inline void to_pos(const Egdb *db, const SqPos *q, Position *p) noexcept nogil:
    p.pieces[0] = ghost_of(db, q.wm | q.wk)
    p.pieces[1] = ghost_of(db, q.bm | q.bk)
    p.kings = ghost_of(db, q.wk | q.bk)
    p.turn = WHITE


cdef inline int terminal_value(const Egdb *db) noexcept nogil:
    # the side to move has no move
    return EG_WIN if db.reversed else EG_LOSS


cdef int egdb_value(const Egdb *db, const Position *p) noexcept nogil:
    """The table's byte for `p`, or -1 when its table is not loaded (or too many pieces)."""
    cdef SqPos q
    cdef int code
    cdef int64_t i
    to_sq(db, p, &q)
    if not (q.wm | q.wk):
        return terminal_value(db)           # the side to move has no piece left
    if popcount(q.wm | q.wk | q.bm | q.bk) > db.max_pieces or not (q.bm | q.bk):
        return -1
    if q.wm & ~men_rows_mask(db) or q.bm & ~(men_rows_mask(db) << db.W):
        return -1                           # a man on its crowning row: no position
    i = index_of(db, &q, &code)
    if db.tables[code].data == NULL or <u64>i >= db.tables[code].size:
        return -1
    return db.tables[code].data[i]


cdef inline int plies_left(const Egdb *db, const Position *p, const DrawState *d,
                           int most) noexcept nogil:
    """Plies from `p` (counters `d`) before a draw rule ends the game, at most `most`: the
    first t at which a rule holds, the counters grown by t plies and the side to move
    alternating (the pieces as they stand)."""
    cdef DrawState e
    cdef Position q = p[0]
    cdef int t
    for t in range(most):
        e.halfmove = d.halfmove + t
        e.balance = d.balance + t
        e.road = d.road + t if d.road >= 0 else -1
        e.few = d.few + t if d.few >= 0 else -1
        q.turn = p.turn ^ (t & 1)
        if draw_rule(&e, &q, &db.draws, 0) != T_NONE:
            return t
    return most


cdef int egdb_probe(const Egdb *db, const Position *p, const DrawState *d,
                    int *dtz) noexcept nogil:
    """-2 when `p` is not in the loaded tables; else 1 (a win for the side to move), 0 (a
    draw) or -1 (a loss) by the rules with the counters `d`, and the distance in `dtz`."""
    cdef int v = egdb_value(db, p)
    cdef int dist
    if v < 0:
        return -2
    dtz[0] = 0
    if v == EG_DRAW or v == EG_NONE:
        return 0
    dist = v - EG_WIN if v < EG_LOSS else v - EG_LOSS
    # the conversion is made from the position `dist - 1` plies ahead: every position before
    # it must be live
    if dist > 0 and plies_left(db, p, d, dist) < dist:
        return 0
    dtz[0] = dist
    return 1 if v < EG_LOSS else -1


# --- the builder ---------------------------------------------------------------------------------

cdef int fresh_limit(const Egdb *db, const Position *p) noexcept nogil:
    """The plies the draw rules allow from `p` with its counters fresh."""
    cdef DrawState d
    cdef bint road = False, few = False
    cdef int c
    cdef bint special = False
    if not db.fmjd:
        return db.limit if 0 < db.limit < EG_MAXD else EG_MAXD
    # the FMJD-64 rules other than 7.2.5 need a lone king, or kings on both sides
    for c in range(2):
        if (p.pieces[c] & (p.pieces[c] - 1)) == 0 and p.pieces[c] & p.kings:
            special = True
    if p.pieces[0] & p.kings and p.pieces[1] & p.kings:
        special = True
    if not special:
        return db.limit if 0 < db.limit < EG_MAXD else EG_MAXD
    configurations(p, &db.draws, &road, &few)
    d.halfmove = 0
    d.balance = 0
    d.road = 0 if road else -1
    d.few = 0 if few else -1
    return plies_left(db, p, &d, EG_MAXD)


ctypedef struct Half:
    int code                # the signature
    u64 base                # index of the slice's first position in its table
    u64 count               # positions in the slice
    u64 wm                  # the men (square masks)
    u64 bm
    int nwk
    int nbk
    uint32_t offset         # id of its first position in the slice


ctypedef struct Slice:
    Half h[2]
    int nh                  # 1 when the slice is its own mirror image
    uint8_t *cnt            # moves inside the slice not yet known to lose
    uint8_t *flag           # 1: a move leaving the slice draws; 2: resolved
    uint8_t *lim            # plies the draw rules allow from the position
    uint32_t *queue
    uint32_t *next


cdef inline void decode(const Egdb *db, const Half *h, u64 k, SqPos *q) noexcept nogil:
    cdef u64 men = h.wm | h.bm
    cdef int free = db.N - popcount(men)
    cdef u64 nb = db.binom[free - h.nwk][h.nbk]
    cdef u64 rw = k // nb
    cdef u64 rb = k - rw * nb
    q.wm = h.wm
    q.bm = h.bm
    q.wk = expand(unrank(db, rw, h.nwk, free), men)
    q.bk = expand(unrank(db, rb, h.nbk, free - h.nwk), men | q.wk)


cdef inline int half_of(const Slice *s, int code, u64 i) noexcept nogil:
    cdef int j
    for j in range(s.nh):
        if s.h[j].code == code and s.h[j].base <= i < s.h[j].base + s.h[j].count:
            return j
    return -1


cdef inline uint8_t *cell(Egdb *db, const Slice *s, uint32_t id, int *which) noexcept nogil:
    cdef int j = 1 if s.nh == 2 and id >= s.h[1].offset else 0
    which[0] = j
    return &db.tables[s.h[j].code].data[s.h[j].base + id - s.h[j].offset]


cdef int child_value(const Egdb *db, const Position *c) noexcept nogil:
    cdef int v = egdb_value(db, c)
    return EG_DRAW if v < 0 else v      # (a table the builder lacks: cannot happen)


cdef u64 init_slice(Egdb *db, Slice *s, uint32_t *nq, uint32_t *nn) noexcept nogil:
    """Look at every position of the slice: the moves that leave it, those that stay.  The
    positions that are over go to s.queue (nq of them, distance 0), those resolved by a
    move that leaves the slice to s.next (nn, distance 1)."""
    cdef MoveList ml
    cdef Position p, c
    cdef SqPos q
    cdef int j, i, v, win, draw_exit, lose_all, n_in
    cdef u64 k
    cdef uint32_t id
    cdef uint8_t *t
    cdef Move *m
    nq[0] = 0
    nn[0] = 0
    for j in range(s.nh):
        for k in range(s.h[j].count):
            id = s.h[j].offset + <uint32_t>k
            t = &db.tables[s.h[j].code].data[s.h[j].base + k]
            decode(db, &s.h[j], k, &q)
            to_pos(db, &q, &p)
            s.lim[id] = <uint8_t>fresh_limit(db, &p)
            db.ops.moves(&p, &ml)
            s.flag[id] = 0
            s.cnt[id] = 0
            if ml.n == 0:
                t[0] = <uint8_t>terminal_value(db)
                s.flag[id] = 2
                s.queue[nq[0]] = id
                nq[0] += 1
                continue
            win = 0
            draw_exit = 0
            lose_all = 1
            n_in = 0
            for i in range(ml.n):
                m = &ml.moves[i]
                if m.captured == 0 and (p.kings >> m.frm) & 1:
                    n_in += 1
                    lose_all = 0
                    continue
                make_move(&c, &p, m)
                v = child_value(db, &c)
                if v >= EG_LOSS:
                    win = 1
                elif v == EG_DRAW:
                    draw_exit = 1
                    lose_all = 0
            if win and s.lim[id] >= 1:
                t[0] = EG_WIN + 1
                s.flag[id] = 2
            elif n_in == 0:
                if lose_all and not win and s.lim[id] >= 1:
                    t[0] = EG_LOSS + 1
                else:
                    t[0] = EG_DRAW
                s.flag[id] = 2
            else:
                t[0] = EG_NONE
                s.cnt[id] = <uint8_t>(n_in if n_in < 255 else 255)
                s.flag[id] = draw_exit
                continue
            if t[0] != EG_DRAW:
                s.next[nn[0]] = id
                nn[0] += 1
    return 0


cdef void spread(Egdb *db, Slice *s, uint32_t nq, uint32_t nn) noexcept nogil:
    """Retrograde analysis of the slice, ply by ply, from the positions already resolved:
    s.queue holds those at distance 0 (nq), s.next those at distance 1 (nn)."""
    cdef uint32_t i, id, pid
    cdef int level, which, d, j, v, code
    cdef uint8_t *t
    cdef uint8_t *pt
    cdef SqPos q, pq
    cdef Position pp
    cdef u64 kings, y, x, empty, taken
    cdef int64_t idx
    cdef bint lost
    level = 0
    while nq > 0 or nn > 0:
        for i in range(nq):
            id = s.queue[i]
            t = cell(db, s, id, &which)
            v = t[0]
            lost = v >= EG_LOSS
            d = (v - EG_LOSS) if lost else (v - EG_WIN)
            if d + 1 > EG_MAXD:
                continue
            decode(db, &s.h[which], id - s.h[which].offset, &q)
            # the position before: the side that has just moved (Black here) moved a king
            taken = q.wm | q.wk | q.bm | q.bk
            empty = ((<u64>1) << db.N) - 1
            empty &= ~taken
            kings = q.bk
            while kings:
                y = kings & (~kings + 1)
                kings &= kings - 1
                for j in range(4):
                    x = step(db, y, j)
                    while x & empty:
                        # Black's king stood on x and went to y
                        pq.wm = rotate(db, q.bm)
                        pq.wk = rotate(db, (q.bk & ~y) | x)
                        pq.bm = rotate(db, q.wm)
                        pq.bk = rotate(db, q.wk)
                        to_pos(db, &pq, &pp)
                        if not db.ops.must_capture(&pp):
                            idx = index_of(db, &pq, &code)
                            pid = slice_id(s, code, <u64>idx)
                            if s.flag[pid] != 2:
                                pt = cell(db, s, pid, &which)
                                if lost:
                                    if d + 1 <= s.lim[pid]:
                                        pt[0] = <uint8_t>(EG_WIN + d + 1)
                                        s.flag[pid] = 2
                                        s.next[nn] = pid
                                        nn += 1
                                else:
                                    s.cnt[pid] -= 1
                                    if s.cnt[pid] == 0 and s.flag[pid] == 0:
                                        if d + 1 <= s.lim[pid]:
                                            pt[0] = <uint8_t>(EG_LOSS + d + 1)
                                            s.next[nn] = pid
                                            nn += 1
                                        s.flag[pid] = 2
                        if not db.flying:
                            break
                        x = step(db, x, j)
        level += 1
        for i in range(nn):
            s.queue[i] = s.next[i]
        nq = nn
        nn = 0
    # what is left is drawn
    for j in range(s.nh):
        for i in range(<uint32_t>s.h[j].count):
            t = &db.tables[s.h[j].code].data[s.h[j].base + i]
            if t[0] == EG_NONE:
                t[0] = EG_DRAW


cdef inline uint32_t slice_id(const Slice *s, int code, u64 idx) noexcept nogil:
    cdef int j = half_of(s, code, idx)
    return s.h[j].offset + <uint32_t>(idx - s.h[j].base)


cdef inline u64 step(const Egdb *db, u64 sq, int d) noexcept nogil:
    """The square one diagonal step from `sq` (a square mask) in direction d, or 0."""
    cdef int s = ctz(sq)
    cdef int row = s // db.W
    cdef int col = s % db.W
    cdef int file = 2 * col + (row % 2)
    cdef int nrow = row + (1 if d < 2 else -1)
    cdef int nfile = file + (1 if d % 2 == 0 else -1)
    if nrow < 0 or nrow >= db.R or nfile < 0 or nfile >= 2 * db.W:
        return 0
    return (<u64>1) << (nrow * db.W + nfile // 2)


cdef int build_pair(Egdb *db, int wm, int wk, int bm, int bk) noexcept nogil:
    """Solve the signature (wm, wk, bm, bk) and its mirror image, slice by slice, the most
    advanced placements of the men first.  -1 when memory runs out."""
    cdef int c0 = sig_code(wm, wk, bm, bk), c1 = sig_code(bm, bk, wm, wk)
    cdef u64 nb = db.binom[db.nm][bm]
    cdef u64 nmen0 = db.binom[db.nm][wm] * nb
    cdef u64 nmen1 = db.binom[db.nm][bm] * db.binom[db.nm][wm]
    cdef int nfree = db.N - wm - bm
    cdef u64 kings0 = db.binom[nfree][wk] * db.binom[nfree - wk][bk]
    cdef u64 kings1 = db.binom[nfree][bk] * db.binom[nfree - bk][wk]
    cdef u64 mi, mi1, a_w, a_b, m, most = (kings0 if kings0 > kings1 else kings1) * 2
    cdef int adv, maxadv = (wm + bm) * db.R, r = 0
    cdef u64 *order = NULL
    cdef u64 *start = NULL
    cdef uint8_t *adv_of = NULL
    cdef uint8_t *done0 = NULL
    cdef uint8_t *done1 = NULL
    cdef Slice s
    cdef uint32_t nq, nn
    s.cnt = <uint8_t *>malloc(most)
    s.flag = <uint8_t *>malloc(most)
    s.lim = <uint8_t *>malloc(most)
    s.queue = <uint32_t *>malloc(most * sizeof(uint32_t))
    s.next = <uint32_t *>malloc(most * sizeof(uint32_t))
    order = <u64 *>malloc(nmen0 * sizeof(u64))
    start = <u64 *>malloc((maxadv + 2) * sizeof(u64))
    adv_of = <uint8_t *>malloc(nmen0)
    done0 = <uint8_t *>malloc(nmen0)
    done1 = done0 if c1 == c0 else <uint8_t *>malloc(nmen1)
    if not (s.cnt and s.flag and s.lim and s.queue and s.next and order and start and
            adv_of and done0 and done1):
        r = -1
    else:
        memset(done0, 0, nmen0)
        if done1 != done0:
            memset(done1, 0, nmen1)
        # the placements of the men by advancement (counting sort, most advanced first)
        for adv in range(maxadv + 2):
            start[adv] = 0
        for mi in range(nmen0):
            a_w = unrank(db, mi // nb, wm, db.nm)
            a_b = unrank(db, mi % nb, bm, db.nm) << db.W
            if a_w & a_b:
                adv_of[mi] = 255
                continue
            adv = 0
            m = a_w
            while m:
                adv += ctz(m) // db.W
                m &= m - 1
            m = a_b
            while m:
                adv += db.R - 1 - ctz(m) // db.W
                m &= m - 1
            adv_of[mi] = <uint8_t>adv
            start[maxadv - adv + 1] += 1
        for adv in range(1, maxadv + 2):
            start[adv] += start[adv - 1]
        for mi in range(nmen0):
            if adv_of[mi] != 255:
                adv = maxadv - adv_of[mi]
                order[start[adv]] = mi
                start[adv] += 1
        # start[maxadv] is now the number of valid placements
        for m in range(start[maxadv]):
            mi = order[m]
            if done0[mi]:
                continue
            a_w = unrank(db, mi // nb, wm, db.nm)
            a_b = unrank(db, mi % nb, bm, db.nm) << db.W
            # the mirror image: Black's men turned round are White's
            mi1 = men_index(db, rotate(db, a_b), rotate(db, a_w), wm)
            s.h[0].code = c0
            s.h[0].base = mi * kings0
            s.h[0].count = kings0
            s.h[0].wm = a_w
            s.h[0].bm = a_b
            s.h[0].nwk = wk
            s.h[0].nbk = bk
            s.h[0].offset = 0
            done0[mi] = 1
            if c1 == c0 and mi1 == mi:
                s.nh = 1
            else:
                s.nh = 2
                s.h[1].code = c1
                s.h[1].base = mi1 * kings1
                s.h[1].count = kings1
                s.h[1].wm = rotate(db, a_b)
                s.h[1].bm = rotate(db, a_w)
                s.h[1].nwk = bk
                s.h[1].nbk = wk
                s.h[1].offset = <uint32_t>kings0
                done1[mi1] = 1
            init_slice(db, &s, &nq, &nn)
            spread(db, &s, nq, nn)
    free(s.cnt)
    free(s.flag)
    free(s.lim)
    free(s.queue)
    free(s.next)
    free(order)
    free(start)
    free(adv_of)
    if done1 != done0:
        free(done1)
    free(done0)
    return r


cdef class EgdbTables:
    """The endgame tables of one game in memory, for building, verifying and probing."""
    cdef Egdb *db
    cdef readonly object variant
    cdef list _buffers

    def __cinit__(self, Kernel kernel not None, BoardCore board not None, *,
                  bint reversed=False, bint flying=True):
        cdef int s, row, col, W, n, k
        self.db = <Egdb *>PyMem_Malloc(sizeof(Egdb))
        if self.db == NULL:
            raise MemoryError()
        memset(self.db, 0, sizeof(Egdb))
        self.db.ops = kernel.ops
        W = kernel.ops.width
        self.db.W = W
        self.db.R = kernel.ops.rows
        self.db.N = W * kernel.ops.rows
        self.db.nm = self.db.N - W
        self.db.reversed = reversed
        self.db.flying = flying
        self.db.draws = board.draw_rules
        # endgame rules with their own counters (FMJD-64 7.2.4, 7.2.6-7.2.8; FMJD 6.3-6.4)
        self.db.fmjd = (board.draw_rules.lone_king_moves or board.draw_rules.balance_plies[0]
                        or board.draw_rules.three_moves or board.draw_rules.few_moves) != 0
        self.db.limit = board.draw_rules.kings_only_plies or board.draw_rules.no_progress_plies
        self.db.max_pieces = 0
        self.variant = board.variant
        self._buffers = []
        for s in range(64):
            self.db.square[s] = -1
        for s in range(self.db.N):
            row = s // W
            col = s % W
            self.db.ghost[s] = (2 * W + 1) * (row // 2) + (W + 1) * (row % 2) + col
            self.db.square[self.db.ghost[s]] = s
        for n in range(65):
            for k in range(9):
                if k == 0:
                    self.db.binom[n][k] = 1
                elif n == 0:
                    self.db.binom[n][k] = 0
                else:
                    self.db.binom[n][k] = self.db.binom[n - 1][k - 1] + self.db.binom[n - 1][k]

    def __dealloc__(self):
        if self.db != NULL:
            PyMem_Free(self.db)

    @property
    def squares(self):
        return self.db.N

    @property
    def limit(self):
        """Plies without a capture or man move that the draw rules allow (fresh counters)."""
        return self.db.limit

    @property
    def max_pieces(self):
        return self.db.max_pieces

    def size(self, int wm, int wk, int bm, int bk):
        """Positions (indices) of the table of a signature."""
        return sig_size(self.db, wm, wk, bm, bk)

    def attach(self, int wm, int wk, int bm, int bk, buffer):
        """Use `buffer` (a writable bytes-like object of size() bytes, kept alive here) as
        the table of a signature."""
        cdef uint8_t[::1] view = buffer
        cdef int code = sig_code(wm, wk, bm, bk)
        if <u64>view.shape[0] != sig_size(self.db, wm, wk, bm, bk):
            raise ValueError(f"a table of {wm}{wk}{bm}{bk} has "
                             f"{sig_size(self.db, wm, wk, bm, bk)} bytes, not {view.shape[0]}")
        self._buffers.append(buffer)
        self.db.tables[code].data = &view[0] if view.shape[0] else NULL
        self.db.tables[code].size = view.shape[0]
        if wm + wk + bm + bk > self.db.max_pieces:
            self.db.max_pieces = wm + wk + bm + bk

    def has(self, int wm, int wk, int bm, int bk):
        return self.db.tables[sig_code(wm, wk, bm, bk)].data != NULL

    def build(self, int wm, int wk, int bm, int bk):
        """Solve a signature and its mirror (bm, bk, wm, wk) together; both tables must be
        attached (zeroed) and every table they lead to solved."""
        cdef int r
        if self.db.tables[sig_code(wm, wk, bm, bk)].data == NULL or \
                self.db.tables[sig_code(bm, bk, wm, wk)].data == NULL:
            raise ValueError("attach both tables first")
        self.db.max_pieces = max(self.db.max_pieces, wm + wk + bm + bk)
        with nogil:
            r = build_pair(self.db, wm, wk, bm, bk)
        if r < 0:
            raise MemoryError("not enough memory to build the tables")

    def verify(self, int wm, int wk, int bm, int bk, int limit=20):
        """Check every position of a signature against its successors' values: (positions
        checked, the indices of those that disagree, at most `limit` of them)."""
        cdef Egdb *db = self.db
        cdef int code = sig_code(wm, wk, bm, bk)
        cdef u64 i, n = sig_size(db, wm, wk, bm, bk), checked = 0
        cdef int expected, nbad = 0
        cdef u64 bad[64]
        if db.tables[code].data == NULL:
            raise ValueError("the table is not attached")
        limit = max(1, min(limit, 64))
        with nogil:
            for i in range(n):
                expected = expected_value(db, code, wm, wk, bm, bk, i)
                if expected < 0:
                    continue
                checked += 1
                if expected != db.tables[code].data[i]:
                    bad[nbad] = i
                    nbad += 1
                    if nbad >= limit:
                        break
        return checked, [bad[i] for i in range(nbad)]

    def position(self, int wm, int wk, int bm, int bk, u64 i):
        """The square masks (white, black, kings) of index i of a signature, White to move;
        None for an index that is no position."""
        cdef SqPos q
        cdef Half h
        if not self.decode_index(wm, wk, bm, bk, i, &q):
            return None
        return (q.wm | q.wk, q.bm | q.bk, q.wk | q.bk)

    cdef bint decode_index(self, int wm, int wk, int bm, int bk, u64 i, SqPos *q):
        cdef Egdb *db = self.db
        cdef Half h
        cdef int free = db.N - wm - bm
        cdef u64 kings = db.binom[free][wk] * db.binom[free - wk][bk]
        cdef u64 mi = i // kings
        h.wm = unrank(db, mi // db.binom[db.nm][bm], wm, db.nm)
        h.bm = unrank(db, mi % db.binom[db.nm][bm], bm, db.nm) << db.W
        if h.wm & h.bm:
            return False
        h.nwk = wk
        h.nbk = bk
        decode(db, &h, i - mi * kings, q)
        return True

    def value(self, BoardCore board not None):
        """The table's byte for the board's position (-1: no table loaded for it)."""
        return egdb_value(self.db, &board.pos)

    def probe(self, BoardCore board not None):
        """(-2 not in the tables, or 1 / 0 / -1 for the side to move by the rules and the
        board's counters; the distance in plies to the next capture or man move)."""
        cdef int dtz = 0
        cdef int r = egdb_probe(self.db, &board.pos, &board.draws, &dtz)
        return r, dtz

    cdef const Egdb *tables(self):
        return self.db

    def address(self):
        """The address of the C tables (for the search, which keeps this object alive)."""
        return <size_t>self.db


cdef int expected_value(const Egdb *db, int code, int wm, int wk, int bm, int bk,
                        u64 i) noexcept nogil:
    """The value index i of a table must have, from its successors' values (-1: no
    position)."""
    cdef int free = db.N - wm - bm
    cdef u64 kings = db.binom[free][wk] * db.binom[free - wk][bk]
    cdef u64 mi = i // kings
    cdef Half h
    cdef SqPos q
    cdef Position p, c
    cdef MoveList ml
    cdef Move *m
    cdef int j, v, d, lim, win = 1000, lose = -1, all_lose = 1
    cdef bint zero
    h.wm = unrank(db, mi // db.binom[db.nm][bm], wm, db.nm)
    h.bm = unrank(db, mi % db.binom[db.nm][bm], bm, db.nm) << db.W
    if h.wm & h.bm:
        return -1
    h.nwk = wk
    h.nbk = bk
    decode(db, &h, i - mi * kings, &q)
    to_pos(db, &q, &p)
    db.ops.moves(&p, &ml)
    if ml.n == 0:
        return terminal_value(db)
    lim = fresh_limit(db, &p)
    for j in range(ml.n):
        m = &ml.moves[j]
        zero = m.captured != 0 or not ((p.kings >> m.frm) & 1)
        make_move(&c, &p, m)
        v = child_value(db, &c)
        if v == EG_DRAW or v == EG_NONE:
            all_lose = 0
            continue
        if v >= EG_LOSS:
            d = 1 if zero else v - EG_LOSS + 1
            if d < win:
                win = d
            all_lose = 0
        else:
            d = 1 if zero else v - EG_WIN + 1
            if d > lose:
                lose = d
    if win <= lim and win <= EG_MAXD:
        return EG_WIN + win
    if all_lose and lose <= lim and lose <= EG_MAXD:
        return EG_LOSS + lose
    return EG_DRAW
