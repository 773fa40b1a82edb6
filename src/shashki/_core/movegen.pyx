# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""Move generation: quiet moves and the capture-sequence search, for every game at once.

The kernels take a `Rules` record and branch on its fields; nothing here is written per game.
Python objects appear only in the thin wrappers at the bottom, which convert at the edge.
"""

from cpython.mem cimport PyMem_Malloc, PyMem_Free
from libc.stdint cimport uint32_t, uint8_t
from .board cimport (u64, WHITE, BLACK, MAXMOVES, MAXPATH, PROMO_KING, PROMO_MAN, PROMO_STOP,
                     PREC_FREE, PREC_MAJORITY, PREC_ITALIAN, Rules, Position, Move, MovePath,
                     MoveList, BOARD, ROW1, ROW8, step, popcount, ctz, make_move,
                     ghost_of, square_of, to_ghost, from_ghost)

# Directions: index 0..3 = NE, NW, SE, SW.  OPP[i] is the reverse of direction i.
cdef int DIRS[4]
DIRS[:] = [5, 4, -4, -5]
cdef int OPP[4]
OPP[:] = [3, 2, 1, 0]
# forward directions of the men of each colour, as a range of DIRS
cdef int FWD_FIRST[2]
FWD_FIRST[:] = [0, 2]


# -------------------------------------------------------------------------------------------
# capture search

ctypedef struct Ctx:
    u64 empty           # empty squares; the mover's origin counts as empty (Turkish rule)
    u64 enemy           # enemy pieces; captured ones stay here: they block until the move ends
    u64 enemy_kings
    u64 captured        # taken so far in this sequence: may not be jumped again
    u64 promo_row
    MoveList *ml
    const Rules *r
    int us
    int frm             # origin, bit index
    int n               # captures so far
    int nkings          # kings among them
    uint32_t order      # bit (15 - i) is set when the i-th capture took a king
    int by_king         # the capturing piece was a king when the move began
    int crowned         # a man crowned during this capture, going on as a king
    MovePath path       # the current route


cdef inline uint32_t precedence_key(const Ctx *c) noexcept nogil:
    # One lexicographic key per game: brazilian (count), italian (count, by king, kings taken,
    # kings met first).  Free-choice games use 0 for every sequence.
    if c.r.precedence == PREC_MAJORITY:
        return <uint32_t>c.n
    if c.r.precedence == PREC_ITALIAN:
        return ((<uint32_t>c.n) << 24) | ((<uint32_t>c.by_king) << 23) | \
               ((<uint32_t>c.nkings) << 18) | c.order
    return 0


cdef void emit(Ctx *c, u64 to, int promote) noexcept nogil:
    """Record a finished capture sequence ending on `to`."""
    cdef MoveList *ml = c.ml
    cdef uint32_t key = precedence_key(c)
    cdef int t = ctz(to)
    cdef int i
    cdef Move *m
    if key < ml.best_key:
        return
    if key > ml.best_key:
        # a better class of capture: everything found so far is illegal
        ml.best_key = key
        ml.n = 0
    # One legal move per (origin, destination, captured set); another order of the same
    # captures is another route of the same move (the keep-duplicates count).
    for i in range(ml.n):
        m = &ml.moves[i]
        if m.to == t and m.frm == c.frm and m.captured == c.captured:
            m.paths += 1
            return
    if ml.n >= MAXMOVES:
        ml.overflow = 1
        return
    m = &ml.moves[ml.n]
    m.captured = c.captured
    m.paths = 1
    m.key = key
    m.frm = <uint8_t>c.frm
    m.to = <uint8_t>t
    m.promote = <uint8_t>promote
    m.ncapt = <uint8_t>c.n
    if ml.paths != NULL:
        ml.paths[ml.n] = c.path
    ml.n += 1


cdef inline void take(Ctx *c, u64 victim, u64 land) noexcept nogil:
    if victim & c.enemy_kings:
        c.nkings += 1
        c.order |= (<uint32_t>1) << (15 - c.n)
    c.captured |= victim
    c.path.took[c.n] = <uint8_t>ctz(victim)
    c.path.land[c.n] = <uint8_t>ctz(land)
    c.n += 1
    c.path.n = <uint8_t>c.n


cdef inline void untake(Ctx *c, u64 victim) noexcept nogil:
    c.n -= 1
    c.path.n = <uint8_t>c.n
    c.captured &= ~victim
    if victim & c.enemy_kings:
        c.nkings -= 1
        c.order &= ~((<uint32_t>1) << (15 - c.n))


cdef bint king_capture(Ctx *c, u64 sq, int came, bint skip_same) noexcept nogil:
    """Continue (or start) a king's capture from `sq`; emit every finished sequence.

    `came` is the direction of the capture that brought the king here (-1 at the start).
    Going back is always blocked by the piece just taken.  For a flying king that landed
    beyond the first landing square, going on in the same direction is the same route as
    from the first landing square, so `skip_same` avoids counting it twice.
    Returns whether any capture was possible from `sq`.
    """
    cdef bint found = False
    cdef bint cont, first
    cdef int i, d
    cdef u64 t, land, l
    cdef u64 capturable = c.enemy & ~c.captured
    for i in range(4):
        if came >= 0 and (i == OPP[came] or (skip_same and i == came)):
            continue
        d = DIRS[i]
        t = step(sq, d)
        if c.r.flying:
            while t & c.empty:
                t = step(t, d)
        if not (t & capturable):
            continue
        land = step(t, d)
        if not (land & c.empty):
            continue
        found = True
        take(c, t, land)
        if not c.r.flying:
            if not king_capture(c, land, i, False):
                emit(c, land, c.crowned)
        else:
            # FMJD-64 4.6: if the capture can go on from some landing squares, the king must
            # land on one of those; only when it cannot go on is every landing square a move.
            cont = False
            first = True
            l = land
            while l & c.empty:
                c.path.land[c.n - 1] = <uint8_t>ctz(l)
                if king_capture(c, l, i, not first):
                    cont = True
                first = False
                l = step(l, d)
            if not cont:
                l = land
                while l & c.empty:
                    c.path.land[c.n - 1] = <uint8_t>ctz(l)
                    emit(c, l, c.crowned)
                    l = step(l, d)
        untake(c, t)
    return found


cdef inline void man_jump(Ctx *c, u64 mid, u64 land, int i) noexcept nogil:
    """The man jumps `mid` in direction DIRS[i] and lands on `land`; go on or finish."""
    take(c, mid, land)
    if land & c.promo_row:
        if c.r.promo == PROMO_KING:
            c.crowned = 1
            if not king_capture(c, land, i, False):
                emit(c, land, 1)
            c.crowned = 0
        elif c.r.promo == PROMO_STOP:
            emit(c, land, 1)
        elif not man_capture(c, land):
            emit(c, land, 1)
    elif not man_capture(c, land):
        emit(c, land, 0)
    untake(c, mid)


cdef bint man_capture(Ctx *c, u64 sq) noexcept nogil:
    """Continue (or start) a man's capture from `sq`; emit every finished sequence.

    The four directions are written out so that every shift is a constant.
    """
    cdef bint found = False
    cdef u64 capturable = c.enemy & ~c.captured
    if not c.r.men_take_kings:
        capturable &= ~c.enemy_kings
    if c.r.men_back or c.us == WHITE:
        if (sq << 5) & capturable and (sq << 10) & c.empty:
            found = True
            man_jump(c, sq << 5, sq << 10, 0)
        if (sq << 4) & capturable and (sq << 8) & c.empty:
            found = True
            man_jump(c, sq << 4, sq << 8, 1)
    if c.r.men_back or c.us == BLACK:
        if (sq >> 4) & capturable and (sq >> 8) & c.empty:
            found = True
            man_jump(c, sq >> 4, sq >> 8, 2)
        if (sq >> 5) & capturable and (sq >> 10) & c.empty:
            found = True
            man_jump(c, sq >> 5, sq >> 10, 3)
    return found


cdef void gen_captures(const Position *p, const Rules *r, MoveList *ml) noexcept nogil:
    """Fill `ml` with the legal captures of the side to move (none: ml.n == 0)."""
    cdef Ctx c
    cdef int us = p.turn
    cdef u64 own = p.pieces[us]
    cdef u64 men = own & ~p.kings
    cdef u64 kings = own & p.kings
    cdef u64 empty = BOARD & ~(p.pieces[0] | p.pieces[1])
    cdef u64 enemy = p.pieces[us ^ 1]
    cdef u64 capturable = enemy if r.men_take_kings else enemy & ~p.kings
    cdef u64 cand = 0
    cdef u64 sq
    ml.n = 0
    ml.overflow = 0
    ml.best_key = 0
    # Men that can capture: an enemy piece next to them and an empty square behind it.  Most
    # positions have none and no kings, and return here: this test is the hot path of perft.
    if men:
        if r.men_back or us == WHITE:
            cand = (((empty >> 5) & capturable) >> 5) | (((empty >> 4) & capturable) >> 4)
        if r.men_back or us == BLACK:
            cand |= (((empty << 5) & capturable) << 5) | (((empty << 4) & capturable) << 4)
        cand &= men
    if not (cand or kings):
        return
    c.enemy = enemy
    c.enemy_kings = enemy & p.kings
    c.captured = 0
    c.promo_row = ROW8 if us == WHITE else ROW1
    c.ml = ml
    c.r = r
    c.us = us
    c.n = 0
    c.nkings = 0
    c.order = 0
    c.crowned = 0
    c.path.n = 0
    c.by_king = 0
    while cand:
        sq = cand & (~cand + 1)
        cand ^= sq
        c.frm = ctz(sq)
        c.empty = empty | sq
        man_capture(&c, sq)
    c.by_king = 1
    while kings:
        sq = kings & (~kings + 1)
        kings ^= sq
        c.frm = ctz(sq)
        c.empty = empty | sq
        king_capture(&c, sq, -1, False)


cdef void gen_moves(const Position *p, const Rules *r, MoveList *ml) noexcept nogil:
    """Fill `ml` with every legal move: the captures if there are any, else the quiet moves."""
    cdef int us = p.turn
    cdef int i, d, n
    cdef u64 own = p.pieces[us]
    cdef u64 men = own & ~p.kings
    cdef u64 kings = own & p.kings
    cdef u64 empty = BOARD & ~(p.pieces[0] | p.pieces[1])
    cdef u64 promo_row = ROW8 if us == WHITE else ROW1
    cdef u64 targets, t, k
    cdef Move *m
    gen_captures(p, r, ml)
    if ml.n or ml.overflow:
        return
    n = 0
    for i in range(FWD_FIRST[us], FWD_FIRST[us] + 2):
        d = DIRS[i]
        targets = step(men, d) & empty
        while targets:
            t = targets & (~targets + 1)
            targets ^= t
            m = &ml.moves[n]
            n += 1
            m.captured = 0
            m.paths = 1
            m.key = 0
            m.frm = <uint8_t>ctz(step(t, -d))
            m.to = <uint8_t>ctz(t)
            m.promote = (t & promo_row) != 0
            m.ncapt = 0
    while kings:
        k = kings & (~kings + 1)
        kings ^= k
        for i in range(4):
            d = DIRS[i]
            t = step(k, d)
            while t & empty:
                # 12 kings with at most 13 squares each fit in MAXMOVES: no overflow here
                m = &ml.moves[n]
                n += 1
                m.captured = 0
                m.paths = 1
                m.key = 0
                m.frm = <uint8_t>ctz(k)
                m.to = <uint8_t>ctz(t)
                m.promote = 0
                m.ncapt = 0
                if not r.flying:
                    break
                t = step(t, d)
    ml.n = n


cdef u64 count_moves(const Position *p, const Rules *r, bint paths) noexcept nogil:
    """The number of legal moves (or of routes, with `paths`), without listing quiet moves."""
    cdef MoveList ml
    cdef int us = p.turn
    cdef int i, d
    cdef u64 total = 0
    cdef u64 own = p.pieces[us]
    cdef u64 men = own & ~p.kings
    cdef u64 kings = own & p.kings
    cdef u64 empty = BOARD & ~(p.pieces[0] | p.pieces[1])
    cdef u64 t, k
    ml.paths = NULL
    gen_captures(p, r, &ml)
    if ml.n:
        if not paths:
            return <u64>ml.n
        for i in range(ml.n):
            total += ml.moves[i].paths
        return total
    for i in range(FWD_FIRST[us], FWD_FIRST[us] + 2):
        total += popcount(step(men, DIRS[i]) & empty)
    while kings:
        k = kings & (~kings + 1)
        kings ^= k
        for i in range(4):
            d = DIRS[i]
            t = step(k, d)
            if not r.flying:
                total += (t & empty) != 0
                continue
            while t & empty:
                total += 1
                t = step(t, d)
    return total


# -------------------------------------------------------------------------------------------
# Zobrist keys: one per (colour, man/king, square), and one for Black to move

cdef u64 ZOBRIST[2][2][64]
cdef u64 ZSIDE


cdef u64 splitmix64(u64 *state) noexcept nogil:
    # a fixed seed: keys are the same in every process, so tasks can move between machines
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
    return key


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


# -------------------------------------------------------------------------------------------
# The Python edge.  Squares are numbered 0..31 row by row from White's side (a1 = 0, c1 = 1,
# ..., h8 = 31); bitmasks use the same numbering.  The ghost layout stays inside the core.

cdef class RuleSet:
    """The rules record of one game, as the core reads it (see shashki.variants)."""

    def __init__(self, str name, *, bint flying_kings, bint men_capture_backward,
                 bint men_capture_kings, str promotion, str precedence):
        self.name = name
        self.c.flying = flying_kings
        self.c.men_back = men_capture_backward
        self.c.men_take_kings = men_capture_kings
        promotions = {"king": PROMO_KING, "man": PROMO_MAN, "stop": PROMO_STOP}
        precedences = {"free": PREC_FREE, "majority": PREC_MAJORITY, "italian": PREC_ITALIAN}
        if promotion not in promotions:
            raise ValueError(f"promotion must be one of {sorted(promotions)}, not {promotion!r}")
        if precedence not in precedences:
            raise ValueError(f"precedence must be one of {sorted(precedences)}, not {precedence!r}")
        self.c.promo = promotions[promotion]
        self.c.precedence = precedences[precedence]

    def __repr__(self):
        return f"<RuleSet {self.name}>"


cdef int position_from_masks(Position *p, object white, object black, object kings,
                             object turn) except -1:
    cdef unsigned long long w, b, k
    w = white
    b = black
    k = kings
    if (w | b | k) >> 32:
        raise ValueError("square masks must fit in 32 bits")
    if w & b:
        raise ValueError("a square holds both a white and a black piece")
    if k & ~(w | b):
        raise ValueError("a king mask bit is set on an empty square")
    if turn not in (WHITE, BLACK):
        raise ValueError("turn must be 0 (white) or 1 (black)")
    p.pieces[0] = to_ghost(w)
    p.pieces[1] = to_ghost(b)
    p.kings = to_ghost(k)
    p.turn = turn
    return 0


def legal_moves(white, black, kings, turn, RuleSet rules not None):
    """The legal moves of a position given as 32-bit square masks.

    Returns a list of tuples (origin, destination, captured_mask, routes, promote, path, taken):
    `path` is one route's landing squares after the origin, `taken` the squares it captures in
    that order; `routes` counts the routes with distinct capture order.
    """
    cdef Position p
    cdef MoveList *ml
    cdef MovePath buf[MAXMOVES]
    cdef Move *m
    cdef int i, j
    position_from_masks(&p, white, black, kings, turn)
    ml = <MoveList *>PyMem_Malloc(sizeof(MoveList))
    if ml == NULL:
        raise MemoryError()
    try:
        ml.paths = buf
        with nogil:
            gen_moves(&p, &rules.c, ml)
        if ml.overflow:
            raise OverflowError("more legal moves than the move list holds")
        out = []
        for i in range(ml.n):
            m = &ml.moves[i]
            if m.ncapt:
                path = tuple([square_of(buf[i].land[j]) for j in range(buf[i].n)])
                taken = tuple([square_of(buf[i].took[j]) for j in range(buf[i].n)])
            else:
                path = (square_of(m.to),)
                taken = ()
            out.append((square_of(m.frm), square_of(m.to), from_ghost(m.captured), m.paths,
                        bool(m.promote), path, taken))
        return out
    finally:
        PyMem_Free(ml)


def apply_move(white, black, kings, turn, int origin, int destination, captured, bint promote):
    """The square masks after a move (no legality check: pass a move from legal_moves)."""
    cdef Position p, q
    cdef Move m
    position_from_masks(&p, white, black, kings, turn)
    if not (0 <= origin < 32 and 0 <= destination < 32):
        raise ValueError("squares are numbered 0..31")
    m.frm = ghost_of(origin)
    m.to = ghost_of(destination)
    m.captured = to_ghost(captured)
    m.promote = promote
    make_move(&q, &p, &m)
    return from_ghost(q.pieces[0]), from_ghost(q.pieces[1]), from_ghost(q.kings), q.turn

