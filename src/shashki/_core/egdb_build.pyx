# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The builder of the endgame databases, and their verifier (see egdb.pyx for what a table
holds).

Signatures with fewer pieces first, then fewer men (a capture or a crowning leads to one built
before); within a signature, the placements of the men from the most advanced (a man's move
leads to one built before).  One placement of the men and its mirror image (the same position
with the other side to move) form a slice in which only kings move; its positions are solved
together by retrograde analysis: the moves that leave the slice (captures, man moves) are
looked up, the others are counted, and the results spread back from the positions won, lost
and ended, ply by ply, through the kings' moves un-made.  A win or loss is accepted only
within the plies the draw rules allow; what is never resolved is drawn.
"""

from libc.string cimport memset
from libc.stdlib cimport malloc, free
from libc.stdint cimport uint8_t, uint32_t, int64_t

from .bits cimport u64, popcount, ctz
from .kernel cimport (WHITE, BLACK, MAXMOVES, Pos, Move, MoveList, KernelOps, make_move, step_dir,
                      list_init)
from .draws cimport DrawState, configurations
from .egdb cimport *

from .position cimport color_of
from .position import _trusted_position


# --- the builder ---------------------------------------------------------------------------------

cdef int fresh_limit(const Egdb *db, const Pos *p) noexcept nogil:
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


cdef int child_value(const Egdb *db, const Pos *c) noexcept nogil:
    cdef int v = egdb_value(db, c)
    return EG_DRAW if v < 0 else v      # (a table the builder lacks: cannot happen)


cdef u64 init_slice(Egdb *db, Slice *s, uint32_t *nq, uint32_t *nn) noexcept nogil:
    """Look at every position of the slice: the moves that leave it, those that stay.  The
    positions that are over go to s.queue (nq of them, distance 0), those resolved by a
    move that leaves the slice to s.next (nn, distance 1)."""
    cdef MoveList ml
    cdef Pos p, c
    cdef SqPos q
    cdef int j, i, v, win, draw_exit, lose_all, n_in
    cdef u64 k
    cdef uint32_t id
    cdef uint8_t *t
    cdef Move *m
    # (an endgame of the databases' few pieces has far fewer than MAXMOVES moves: the list
    # never grows, so it has nothing to give back)
    list_init(&ml, NULL)
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
    cdef Pos pp
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
            empty = ((<u64>1) << db.N) - 1 if db.N < 64 else ~(<u64>0)
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
    """The square one step from `sq` (a square mask) in direction d (0-3, the directions the
    pieces move in), or 0 off the board."""
    cdef u64 g = step_dir(db.ops, (<u64>1) << db.ghost[ctz(sq)], d) & db.ops.board
    return ((<u64>1) << db.square[ctz(g)]) if g else 0


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


cdef int expected_value(const Egdb *db, int code, int wm, int wk, int bm, int bk,
                        u64 i) noexcept nogil:
    """The value index i of a table must have, from its successors' values (-1: no
    position)."""
    cdef int free = db.N - wm - bm
    cdef u64 kings = db.binom[free][wk] * db.binom[free - wk][bk]
    cdef u64 mi = i // kings
    cdef Half h
    cdef SqPos q
    cdef Pos p, c
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
    list_init(&ml, NULL)        # (few pieces: it never grows, see init_slice)
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


# --- the Python edge -----------------------------------------------------------------------------

def build(EgdbTables tables not None, int wm, int wk, int bm, int bk):
    """Solve a signature and its mirror (bm, bk, wm, wk) together; both tables must be
    attached (zeroed) and every table they lead to solved."""
    cdef Egdb *db = tables.db
    cdef int r
    if db.tables[sig_code(wm, wk, bm, bk)].data == NULL or \
            db.tables[sig_code(bm, bk, wm, wk)].data == NULL:
        raise ValueError("attach both tables first")
    db.max_pieces = max(db.max_pieces, wm + wk + bm + bk)
    with nogil:
        r = build_pair(db, wm, wk, bm, bk)
    if r < 0:
        raise MemoryError("not enough memory to build the tables")


def verify(EgdbTables tables not None, int wm, int wk, int bm, int bk, int limit=20):
    """Check every position of a signature against its successors' values: (positions
    checked, the indices of those that disagree, at most `limit` of them)."""
    cdef Egdb *db = tables.db
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


def position(EgdbTables tables not None, int wm, int wk, int bm, int bk, u64 i):
    """The Position of index i of a signature (White to move), or None for an index that is
    no position."""
    cdef Egdb *db = tables.db
    cdef Half h
    cdef SqPos q
    cdef int free = db.N - wm - bm
    cdef u64 kings = db.binom[free][wk] * db.binom[free - wk][bk]
    cdef u64 mi = i // kings
    h.wm = unrank(db, mi // db.binom[db.nm][bm], wm, db.nm)
    h.bm = unrank(db, mi % db.binom[db.nm][bm], bm, db.nm) << db.W
    if h.wm & h.bm:
        return None
    h.nwk = wk
    h.nbk = bk
    decode(db, &h, i - mi * kings, &q)
    # (WHITE here is the core's number: the Position takes shashki's colour)
    return _trusted_position(tables.variant, q.wm | q.wk, q.bm | q.bk, q.wk | q.bk,
                             color_of(WHITE), None)
