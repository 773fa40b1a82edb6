# The move generator and perft of one game, written once for every game.
#
# This file is included by each generated module in _core/kernels/ (setup.py writes them from
# the rules records of shashki.variants).  That module defines, as C macros, the game's rules
# and geometry (the K_* names below) before including this file, so every rule is a constant
# to the C compiler: the branches of the other games and every runtime choice of shift
# disappear, and each kernel is as plain as a program written for its game alone.
#
# Two more things are fixed at compile time through fused types: the side to move (a `Side`
# tag, so the men's directions and the promotion row are constants) and what the capture
# search does with a finished capture (a `Mode` tag):
#
#   Counting   count it (the last ply of perft: no list is built)
#   Listing    add it to a move list, merged by (origin, destination, captured set)
#   Routing    the same, and record its route (landing and captured squares in order)

from libc.stdint cimport uint8_t, uint32_t
from cpython.pycapsule cimport PyCapsule_New
from ..kernel cimport (u64, WHITE, BLACK, MAXMOVES, MAXPATH, PROMO_KING, PROMO_MAN, PROMO_STOP,
                      Position, Move, Route, MoveList, PerftTable, KernelOps, popcount, ctz,
                      prefetch, nth_bit, fast_pdep, random_below,
                      tt_slot, tt_probe, tt_store, RUN_ON, run_count, run_king, make_move)

from libc.stdlib cimport malloc, free
from libc.string cimport memcpy

cdef enum:
    # K_ORTHO: the routes of one position told apart by the order of the pieces they take (see
    # Orders): ORDERS_INLINE on the stack, then on the heap, doubling, up to ORDERS_MAX.  Random
    # set-ups with a dozen kings have over a thousand routes of the best class; past ORDERS_MAX
    # (or if malloc fails) the move list's overflow is set, so that perft and the move list
    # raise an error rather than count a route twice.
    ORDERS_INLINE = 64
    ORDERS_MAX = 1 << 16

cdef extern from *:
    # the rules record and the geometry (see shashki.variants.Variant.kernel_constants)
    const int K_W               # squares per row: every diagonal step is a shift by W or W+1
    const int K_ROWS
    const u64 K_BOARD           # the playable bits
    const u64 K_ROW_TOP         # where White's men are crowned
    const u64 K_ROW_BOTTOM      # where Black's men are crowned
    const bint K_FLYING         # kings move and capture any distance
    const bint K_LANDS_NEXT     # a flying king lands on the square just beyond what it takes
    const bint K_REMOVE_AT_ONCE # each piece taken leaves the board at once (no Turkish strike)
    const bint K_MEN_BACK       # men capture backward
    const bint K_MEN_TAKE_KINGS
    const int K_PROMO           # a Promotion
    # Precedence among captures as one lexicographic key, compared as an integer:
    # (K_PREC_MEN * men taken + K_PREC_KINGS * kings taken, by a king, kings taken, how early
    # the kings were met).  A game with every weight 0 chooses freely.
    const int K_PREC_MEN
    const int K_PREC_KINGS
    const bint K_PREC_BY_KING
    const bint K_PREC_NKINGS
    const bint K_PREC_ORDER
    # frisian: men and kings capture along ranks and files too (the next dark square of the
    # same row is one bit away, of the same column 2W+1 bits away); the column masks stop a
    # step along a row at its ends
    const bint K_ORTHO
    const u64 K_COL_FIRST       # the first square of each row (no step west from it)
    const u64 K_COL_LAST        # the last square of each row (no step east from it)
    # the most quiet moves the same king may make in a row while its side has men (0: no
    # limit); the runs are kept in Position.run (kernel.pxd, make_move)
    const int K_KING_LIMIT


ctypedef struct White:
    char _
ctypedef struct Black:
    char _
ctypedef fused Side:
    White
    Black

ctypedef struct Counting:
    char _
ctypedef struct Listing:
    char _
ctypedef struct Routing:
    char _
ctypedef fused Mode:
    Counting
    Listing
    Routing


# --- geometry ---------------------------------------------------------------------------------
# Directions: 0 north-east, 1 north-west, 2 south-east, 3 south-west; 3 - d is the reverse of d.
# With K_ORTHO (captures only) also 4 north, 5 east, 6 west, 7 south (11 - d the reverse): the
# next dark square along a file is two rows up, a shift by 2W + 1 (the same column of the next
# pair of rows); along a rank it is the next bit, masked at the row's ends (a row's last bit
# is followed by a ghost bit or by the first square of the next row).
# Called with a literal direction, each of these folds to one shift.

cdef inline u64 sh(u64 b, int d) noexcept nogil:
    # (the orthogonal steps in a function of their own, so that the diagonal games' kernels
    # see the same small function as before they existed: GCC's inlining is unchanged)
    if K_ORTHO and d >= 4:
        return sh_orthogonal(b, d)
    if d == 0:
        return b << (K_W + 1)
    if d == 1:
        return b << K_W
    if d == 2:
        return b >> K_W
    return b >> (K_W + 1)


cdef inline u64 sh_orthogonal(u64 b, int d) noexcept nogil:
    if d == 4:
        return b << (2 * K_W + 1)
    if d == 5:
        return (b & ~K_COL_LAST) << 1
    if d == 6:
        return (b & ~K_COL_FIRST) >> 1
    return b >> (2 * K_W + 1)


cdef inline int rev(int d) noexcept nogil:
    return 11 - d if K_ORTHO and d >= 4 else 3 - d


cdef inline int us_of(Side *s) noexcept nogil:
    return WHITE if Side is White else BLACK


cdef inline u64 crown_row(Side *s) noexcept nogil:
    return K_ROW_TOP if Side is White else K_ROW_BOTTOM


cdef inline bint forward(Side *s, int d) noexcept nogil:
    # whether direction d is forward for the men of this side
    return d < 2 if Side is White else d >= 2


cdef inline bint prec_free() noexcept nogil:
    return not (K_PREC_MEN or K_PREC_KINGS or K_PREC_BY_KING or K_PREC_NKINGS or K_PREC_ORDER)


cdef inline bint prec_kinds() noexcept nogil:
    # precedence that looks at which pieces were kings
    return K_PREC_MEN != K_PREC_KINGS or K_PREC_NKINGS or K_PREC_ORDER


# --- the capture search -----------------------------------------------------------------------

ctypedef struct Ctx:
    u64 empty           # empty squares; the mover's origin counts as empty (Turkish strike)
    u64 enemy           # enemy pieces; captured ones stay here: they block until the move ends
    u64 enemy_kings
    u64 frm             # origin bit
    int by_king         # the capturing piece was a king when the move began
    int nkings          # kings among the pieces taken so far (precedence)
    uint32_t order      # bit (23 - i) is set when the i-th capture took a king
    u64 best            # precedence key of the best captures found so far
    u64 count           # Counting: captures found
    bint unique         # Counting: count moves, not routes
    MoveList *ml        # Listing, Routing; Counting: seen captures of 3 pieces or more
    Route route         # Routing: the route so far
    # K_ORTHO: the order of the pieces taken so far (6 bits each, 10 a word), and the orders
    # of the routes found, so that two ways of taking the same pieces in the same order (the
    # king lands on another square of the same line, then goes on in another direction: with
    # ranks and files, two landing squares can reach the same next piece) count as one route
    u64 order_bits[3]
    Orders *orders


ctypedef struct Orders:
    # the routes found in the best class so far: 4 words each, the order of the pieces taken
    # (Ctx.order_bits: it names the captured set too) and origin | destination << 8.  Looked up
    # one by one: most positions have a handful of routes, and the table is emptied per class.
    int n
    int size            # routes that `key` holds room for
    u64 *key            # `first`, or a heap block of `size` routes
    u64 first[ORDERS_INLINE * 4]


cdef inline u64 prec_key(const Ctx *c, int n) noexcept nogil:
    # bits 32-: the weighted count; 29: by a king; 24-28: kings taken; 0-23: kings met, the
    # i-th capture at bit 23 - i (MAXPATH captures at most)
    cdef u64 key = 0
    if prec_free():
        return 0
    if K_PREC_MEN or K_PREC_KINGS:
        key = (<u64>(K_PREC_MEN * (n - c.nkings) + K_PREC_KINGS * c.nkings)) << 32
    if K_PREC_BY_KING:
        key |= (<u64>c.by_king) << 29
    if K_PREC_NKINGS:
        key |= (<u64>c.nkings) << 24
    if K_PREC_ORDER:
        key |= c.order
    return key


cdef inline bint seen(MoveList *ml, int frm, int to, u64 cap) noexcept nogil:
    # Another order of the same captures is another route of the same move.  Only sequences of
    # three captures or more can have two orders (two diagonal legs cannot be taken the other
    # way round), so only those are looked up.
    cdef int i
    for i in range(ml.n):
        if ml.moves[i].captured == cap and ml.moves[i].to == to and ml.moves[i].frm == frm:
            ml.moves[i].routes += 1
            return True
    return False


cdef inline void finish(Mode *m, Ctx *c, u64 to, u64 cap, int n, bint king) noexcept nogil:
    """A capture sequence of `n` pieces (`cap`) ends on `to`; `king`: the piece is a king
    there (it was one, or it is crowned by this move)."""
    cdef u64 key = prec_key(c, n)
    cdef MoveList *ml = c.ml
    cdef Move *mv
    cdef int t = ctz(to)
    cdef int f = ctz(c.frm)
    if not prec_free():
        if key < c.best:
            return
        if key > c.best:
            # a better class of capture: everything found so far is illegal
            c.best = key
            c.count = 0
            ml.n = 0
            if K_ORTHO:
                c.orders.n = 0
    if K_ORTHO and not (Mode is Counting and c.unique) and not (Mode is Routing and not ml.merge):
        # one route per order of the pieces taken (a route written in full, Routing without
        # merging, keeps every way of landing)
        if not new_order(c, f, t, cap):
            return
    if Mode is Counting:
        if n >= 3 and c.unique:
            if seen(ml, f, t, cap):
                return
            if ml.n < MAXMOVES:
                mv = &ml.moves[ml.n]
                ml.n += 1
                mv.captured = cap
                mv.frm = <uint8_t>f
                mv.to = <uint8_t>t
            else:
                ml.overflow = 1
        c.count += 1
    else:
        add_capture(m, c, ml, f, t, to, cap, n, king)


cdef inline bint new_order(Ctx *c, int f, int t, u64 cap) noexcept nogil:
    """False if a route with this order of captures, origin and destination was found already
    (in the best class so far); else records it and returns True."""
    cdef Orders *o = c.orders
    cdef u64 ft = (<u64>f) | ((<u64>t) << 8)
    cdef u64 *e
    cdef u64 *grown
    cdef int i
    for i in range(o.n):
        e = &o.key[4 * i]
        if e[0] == c.order_bits[0] and e[1] == c.order_bits[1] and \
                e[2] == c.order_bits[2] and e[3] == ft:
            return False
    if o.n == o.size:
        # full: a table twice the size on the heap, or, past ORDERS_MAX or without memory, an
        # honest failure.  The route is counted, but the overflow flag makes perft and the
        # move list raise an error instead of returning a count that may hold a route twice.
        grown = NULL
        if o.size < ORDERS_MAX:
            grown = <u64 *>malloc(2 * o.size * 4 * sizeof(u64))
        if grown == NULL:
            c.ml.overflow = 1
            return True
        memcpy(grown, o.key, o.n * 4 * sizeof(u64))
        if o.key != o.first:
            free(o.key)
        o.key = grown
        o.size *= 2
    e = &o.key[4 * o.n]
    e[0] = c.order_bits[0]
    e[1] = c.order_bits[1]
    e[2] = c.order_bits[2]
    e[3] = ft
    o.n += 1
    return True


cdef inline void add_capture(Mode *m, Ctx *c, MoveList *ml, int f, int t, u64 to, u64 cap, int n,
                             bint king) noexcept nogil:
    cdef Move *mv
    if n >= 3 and (Mode is Listing or ml.merge) and seen(ml, f, t, cap):
        return
    if ml.n >= MAXMOVES:
        ml.overflow = 1
        return
    mv = &ml.moves[ml.n]
    mv.ft = c.frm ^ to
    mv.captured = cap
    mv.kx = mv.ft if c.by_king else (to if king else 0)
    mv.routes = 1
    mv.frm = <uint8_t>f
    mv.to = <uint8_t>t
    mv.ncapt = <uint8_t>n
    mv.promote = king and not c.by_king
    if Mode is Routing:
        ml.routes[ml.n] = c.route
        ml.routes[ml.n].n = <uint8_t>n
    ml.n += 1


cdef inline void take(Mode *m, Ctx *c, u64 victim, u64 land, int n) noexcept nogil:
    # the n-th capture (from 0) takes `victim` and lands on `land`
    if K_REMOVE_AT_ONCE:
        c.empty |= victim       # its square is free at once: to pass over or land on
    if K_ORTHO:
        c.order_bits[n // 10] |= (<u64>(ctz(victim) + 1)) << (6 * (n % 10))
    if prec_kinds() and victim & c.enemy_kings:
        c.nkings += 1
        c.order |= (<uint32_t>1) << (23 - n)
    if Mode is Routing:
        c.route.took[n] = <uint8_t>ctz(victim)
        c.route.land[n] = <uint8_t>ctz(land)


cdef inline void untake(Ctx *c, u64 victim, int n) noexcept nogil:
    if K_REMOVE_AT_ONCE:
        c.empty &= ~victim
    if K_ORTHO:
        c.order_bits[n // 10] &= ~((<u64>63) << (6 * (n % 10)))
    if prec_kinds() and victim & c.enemy_kings:
        c.nkings -= 1
        c.order &= ~((<uint32_t>1) << (23 - n))


cdef inline bint king_leg(Side *s, Mode *m, Ctx *c, u64 sq, u64 cap, int n, int came,
                          bint skip_same, int d) noexcept nogil:
    """A king on `sq` that has taken `cap` (n pieces) tries to capture in direction d."""
    cdef u64 t, land, l, ncap
    cdef bint cont, first
    # back the way it came the piece just taken blocks (unless it has left the board); on in
    # the same direction from a later landing square is the route from the first one
    if came >= 0 and ((came == rev(d) and not K_REMOVE_AT_ONCE) or (skip_same and d == came)):
        return False
    t = sh(sq, d)
    if K_FLYING:
        while t & c.empty:
            t = sh(t, d)
    if not (t & c.enemy & ~cap):
        return False
    land = sh(t, d) & c.empty
    if not land:
        return False
    ncap = cap | t
    take(m, c, t, land, n)
    if not K_FLYING:
        if not king_capture(s, m, c, land, ncap, n + 1, d, False):
            finish(m, c, land, ncap, n + 1, True)
    else:
        # FMJD-64 4.6: if the capture can go on from some landing squares, the king must land on
        # one of those; only when it cannot go on is every landing square a move.  Going on in
        # the same direction is one route whichever square it starts from: only the first
        # landing square tries it.
        cont = False
        first = True
        l = land
        while l:
            if Mode is Routing:
                c.route.land[n] = <uint8_t>ctz(l)
            if king_capture(s, m, c, l, ncap, n + 1, d, not first):
                cont = True
            first = False
            l = 0 if K_LANDS_NEXT else sh(l, d) & c.empty
        if not cont:
            l = land
            while l:
                if Mode is Routing:
                    c.route.land[n] = <uint8_t>ctz(l)
                finish(m, c, l, ncap, n + 1, True)
                l = 0 if K_LANDS_NEXT else sh(l, d) & c.empty
    untake(c, t, n)
    return True


cdef bint king_capture(Side *s, Mode *m, Ctx *c, u64 sq, u64 cap, int n, int came,
                       bint skip_same) noexcept nogil:
    """Continue (or start) a king's capture from `sq`; finish every complete sequence.
    `came`: the direction of the capture that brought it here (-1 at the start).  Returns
    whether any capture was possible from `sq`."""
    cdef bint found = king_leg(s, m, c, sq, cap, n, came, skip_same, 0)
    found |= king_leg(s, m, c, sq, cap, n, came, skip_same, 1)
    found |= king_leg(s, m, c, sq, cap, n, came, skip_same, 2)
    found |= king_leg(s, m, c, sq, cap, n, came, skip_same, 3)
    if K_ORTHO:
        found |= king_leg(s, m, c, sq, cap, n, came, skip_same, 4)
        found |= king_leg(s, m, c, sq, cap, n, came, skip_same, 5)
        found |= king_leg(s, m, c, sq, cap, n, came, skip_same, 6)
        found |= king_leg(s, m, c, sq, cap, n, came, skip_same, 7)
    return found


cdef inline bint man_can_jump(Side *s, u64 sq, u64 jumpable, u64 empty) noexcept nogil:
    """Whether a man on `sq` has a jump: tested before recursing, so that the common last jump
    of a sequence costs no call."""
    cdef u64 r = 0
    if K_MEN_BACK or forward(s, 0):
        r |= sh(sh(sq, 0) & jumpable, 0)
    if K_MEN_BACK or forward(s, 1):
        r |= sh(sh(sq, 1) & jumpable, 1)
    if K_MEN_BACK or forward(s, 2):
        r |= sh(sh(sq, 2) & jumpable, 2)
    if K_MEN_BACK or forward(s, 3):
        r |= sh(sh(sq, 3) & jumpable, 3)
    if K_ORTHO:
        r |= sh(sh(sq, 4) & jumpable, 4) | sh(sh(sq, 5) & jumpable, 5) | \
            sh(sh(sq, 6) & jumpable, 6) | sh(sh(sq, 7) & jumpable, 7)
    return (r & empty) != 0


cdef inline bint man_leg(Side *s, Mode *m, Ctx *c, u64 sq, u64 cap, int n, u64 jumpable,
                         int d) noexcept nogil:
    """A man on `sq` that has taken `cap` (n pieces) tries to jump in direction d."""
    cdef u64 over, land, ncap
    cdef bint crowned
    if not (K_MEN_BACK or forward(s, d) or d >= 4):
        return False
    over = sh(sq, d) & jumpable
    if not over:
        return False
    land = sh(over, d) & c.empty
    if not land:
        return False
    ncap = cap | over
    crowned = (land & crown_row(s)) != 0
    take(m, c, over, land, n)
    if K_PROMO == PROMO_KING and crowned:
        # crowned at once: it goes on capturing as a king
        if not king_capture(s, m, c, land, ncap, n + 1, d, False):
            finish(m, c, land, ncap, n + 1, True)
    elif (K_PROMO == PROMO_STOP and crowned) or not (
            man_can_jump(s, land, jumpable & ~over, c.empty)
            and man_capture(s, m, c, land, ncap, n + 1)):
        # PROMO_MAN: a man that passed the far row is crowned only if it ends there
        finish(m, c, land, ncap, n + 1, crowned)
    untake(c, over, n)
    return True


cdef bint man_capture(Side *s, Mode *m, Ctx *c, u64 sq, u64 cap, int n) noexcept nogil:
    """Continue (or start) a man's capture from `sq`; finish every complete sequence."""
    cdef u64 jumpable = c.enemy & ~cap
    cdef bint found
    if not K_MEN_TAKE_KINGS:
        jumpable &= ~c.enemy_kings
    found = man_leg(s, m, c, sq, cap, n, jumpable, 0)
    found |= man_leg(s, m, c, sq, cap, n, jumpable, 1)
    found |= man_leg(s, m, c, sq, cap, n, jumpable, 2)
    found |= man_leg(s, m, c, sq, cap, n, jumpable, 3)
    if K_ORTHO:
        found |= man_leg(s, m, c, sq, cap, n, jumpable, 4)
        found |= man_leg(s, m, c, sq, cap, n, jumpable, 5)
        found |= man_leg(s, m, c, sq, cap, n, jumpable, 6)
        found |= man_leg(s, m, c, sq, cap, n, jumpable, 7)
    return found


cdef inline u64 man_jumpers(Side *s, u64 men, u64 jumpable, u64 empty) noexcept nogil:
    """The men that can capture, bit-parallel: a piece to jump next to them and an empty
    square behind it."""
    cdef u64 r = 0
    if K_MEN_BACK or forward(s, 0):
        r |= sh(sh(empty, 3) & jumpable, 3)
    if K_MEN_BACK or forward(s, 1):
        r |= sh(sh(empty, 2) & jumpable, 2)
    if K_MEN_BACK or forward(s, 2):
        r |= sh(sh(empty, 1) & jumpable, 1)
    if K_MEN_BACK or forward(s, 3):
        r |= sh(sh(empty, 0) & jumpable, 0)
    if K_ORTHO:
        r |= sh(sh(empty, 7) & jumpable, 7) | sh(sh(empty, 6) & jumpable, 6) | \
            sh(sh(empty, 5) & jumpable, 5) | sh(sh(empty, 4) & jumpable, 4)
    return r & men


cdef inline bint king_ray_capture(u64 kings, u64 enemy, u64 empty, int d) noexcept nogil:
    cdef u64 front = sh(kings, d)
    if not K_FLYING:
        return (sh(front & enemy, d) & empty) != 0
    while front:
        if sh(front & enemy, d) & empty:
            return True
        front = sh(front & empty, d)
    return False


cdef inline bint kings_can_capture(u64 kings, u64 enemy, u64 empty) noexcept nogil:
    """Whether any of `kings` can capture, bit-parallel along each direction."""
    return (king_ray_capture(kings, enemy, empty, 0) or king_ray_capture(kings, enemy, empty, 1)
            or king_ray_capture(kings, enemy, empty, 2)
            or king_ray_capture(kings, enemy, empty, 3)
            or (K_ORTHO and kings_capture_orthogonally(kings, enemy, empty)))


cdef inline bint kings_capture_orthogonally(u64 kings, u64 enemy, u64 empty) noexcept nogil:
    return (king_ray_capture(kings, enemy, empty, 4) or king_ray_capture(kings, enemy, empty, 5)
            or king_ray_capture(kings, enemy, empty, 6)
            or king_ray_capture(kings, enemy, empty, 7))


cdef inline u64 own_of(Side *s, u64 w, u64 b) noexcept nogil:
    return w if Side is White else b


cdef inline u64 enemy_of(Side *s, u64 w, u64 b) noexcept nogil:
    return b if Side is White else w


cdef inline u64 capturers(Side *s, u64 w, u64 b, u64 k) noexcept nogil:
    """The men of the side to move that can capture, plus all its kings when one of those can:
    0 when the side has no capture (most positions: this is the hot test of perft)."""
    cdef u64 own = own_of(s, w, b)
    cdef u64 enemy = enemy_of(s, w, b)
    cdef u64 empty = K_BOARD & ~(w | b)
    cdef u64 kings = own & k
    cdef u64 cand = man_jumpers(s, own & ~k, enemy if K_MEN_TAKE_KINGS else enemy & ~k, empty)
    if kings and kings_can_capture(kings, enemy, empty):
        cand |= kings
    return cand


cdef inline void start_search(Side *s, Ctx *c, u64 w, u64 b, u64 k) noexcept nogil:
    c.enemy = enemy_of(s, w, b)
    c.enemy_kings = c.enemy & k
    c.best = 0
    c.count = 0
    c.nkings = 0
    c.order = 0
    if K_ORTHO:
        c.order_bits[0] = 0
        c.order_bits[1] = 0
        c.order_bits[2] = 0
        c.orders.n = 0


cdef void search_captures(Side *s, Mode *m, u64 w, u64 b, u64 k, u64 cand,
                          Ctx *c) noexcept nogil:
    """Every capture of the pieces in `cand` (from `capturers`) into `c`."""
    cdef u64 empty = K_BOARD & ~(w | b)
    cdef u64 men = cand & ~k
    cdef u64 kings = cand & k
    cdef u64 sq
    start_search(s, c, w, b, k)
    c.by_king = 0
    while men:
        sq = men & (~men + 1)
        men ^= sq
        c.frm = sq
        c.empty = empty | sq
        man_capture(s, m, c, sq, 0, 0)
    search_kings(s, m, c, kings, empty)


cdef void search_captures_ordered(Side *s, Mode *m, u64 w, u64 b, u64 k, u64 cand,
                                  Ctx *c) noexcept nogil:
    # K_ORTHO: search_captures with a table of the routes' orders (its own frame, so that the
    # other kernels' callers carry no such table)
    cdef Orders orders
    orders.n = 0
    orders.size = ORDERS_INLINE
    orders.key = orders.first
    c.orders = &orders
    search_captures(s, m, w, b, k, cand, c)
    if orders.key != orders.first:
        free(orders.key)


cdef inline void search_kings(Side *s, Mode *m, Ctx *c, u64 kings, u64 empty) noexcept nogil:
    cdef u64 sq
    c.by_king = 1
    while kings:
        sq = kings & (~kings + 1)
        kings ^= sq
        c.frm = sq
        c.empty = empty | sq
        king_capture(s, m, c, sq, 0, 0, -1, False)


# --- quiet moves --------------------------------------------------------------------------------

cdef inline int quiet_men(Side *s, MoveList *ml, int n, u64 men, u64 empty, int d) noexcept nogil:
    cdef u64 targets, t, f
    cdef Move *mv
    if not forward(s, d):
        return n
    targets = sh(men, d) & empty
    while targets:
        t = targets & (~targets + 1)
        targets ^= t
        f = sh(t, 3 - d)
        mv = &ml.moves[n]
        n += 1
        mv.ft = f | t
        mv.captured = 0
        mv.promote = (t & crown_row(s)) != 0
        mv.kx = t if mv.promote else 0
        mv.routes = 1
        mv.frm = <uint8_t>ctz(f)
        mv.to = <uint8_t>ctz(t)
        mv.ncapt = 0
    return n


cdef inline int quiet_king(MoveList *ml, int n, u64 k, u64 empty, int d) noexcept nogil:
    cdef u64 t = sh(k, d) & empty
    cdef Move *mv
    while t:
        mv = &ml.moves[n]
        n += 1
        mv.ft = k | t
        mv.captured = 0
        mv.kx = k | t
        mv.routes = 1
        mv.frm = <uint8_t>ctz(k)
        mv.to = <uint8_t>ctz(t)
        mv.ncapt = 0
        mv.promote = 0
        if not K_FLYING:
            break
        t = sh(t, d) & empty
    return n


cdef void gen_moves(Side *s, Mode *m, u64 w, u64 b, u64 k, MoveList *ml) noexcept nogil:
    """Fill `ml` with every legal move: the captures if there are any, else the quiet moves."""
    cdef Ctx c
    cdef u64 own = own_of(s, w, b)
    cdef u64 men = own & ~k
    cdef u64 kings = own & k
    cdef u64 empty = K_BOARD & ~(w | b)
    cdef u64 cand = capturers(s, w, b, k)
    cdef u64 king
    cdef int n
    ml.n = 0
    ml.overflow = 0
    if cand:
        c.ml = ml
        if K_ORTHO:
            search_captures_ordered(s, m, w, b, k, cand, &c)
        else:
            search_captures(s, m, w, b, k, cand, &c)
        return
    # the longest quiet list (20 flying kings on 10x10) fits MAXMOVES: no check is needed
    n = quiet_men(s, ml, 0, men, empty, 0)
    n = quiet_men(s, ml, n, men, empty, 1)
    n = quiet_men(s, ml, n, men, empty, 2)
    n = quiet_men(s, ml, n, men, empty, 3)
    while kings:
        king = kings & (~kings + 1)
        kings ^= king
        n = quiet_king(ml, n, king, empty, 0)
        n = quiet_king(ml, n, king, empty, 1)
        n = quiet_king(ml, n, king, empty, 2)
        n = quiet_king(ml, n, king, empty, 3)
    ml.n = n


# --- counting: the last ply of perft --------------------------------------------------------------

cdef inline u64 count_king_steps(u64 kings, u64 empty, int d) noexcept nogil:
    cdef u64 x = sh(kings, d) & empty
    cdef u64 total = 0
    if not K_FLYING:
        return popcount(x)
    while x:
        total += popcount(x)
        x = sh(x, d) & empty
    return total


cdef inline bint fast_count() noexcept nogil:
    # Counting single jumps bit-parallel needs every such jump to have the same precedence key
    # (no game that weighs the kings taken and whose men take kings) and the piece just taken
    # to block the way back (the Turkish strike, or men that only capture forward).
    return (prec_free() or not (prec_kinds() and K_MEN_TAKE_KINGS)) and \
        (not K_REMOVE_AT_ONCE or not K_MEN_BACK) and not K_ORTHO


cdef inline u64 final_jumps(Side *s, u64 men, u64 jumpable, u64 empty, int d,
                            u64 *going_on) noexcept nogil:
    """Men's jumps in direction d that end the move, counted bit-parallel; the landing squares of
    those that go on are added to `going_on[d]`.  Only the first jump is tested on the board as
    it stands: the second cannot use the origin square or the piece just taken (both lie behind
    the landing square, against the men's own direction of travel)."""
    cdef u64 land, more
    if not (K_MEN_BACK or forward(s, d)):
        going_on[d] = 0
        return 0
    land = sh(sh(men & sh(sh(empty, 3 - d) & jumpable, 3 - d), d), d)
    more = land & man_jumpers(s, land, jumpable, empty)
    if K_PROMO == PROMO_STOP:
        more &= ~crown_row(s)       # crowned: the move ends there
    elif K_PROMO == PROMO_KING:
        more |= land & crown_row(s)  # crowned: it may go on as a king, searched in full
    going_on[d] = more
    return popcount(land & ~more)


cdef inline void search_going_on(Side *s, Counting *m, Ctx *c, u64 going_on, u64 empty,
                                 int d) noexcept nogil:
    # the full search of the captures that go on after a first jump in direction d
    cdef u64 land, over, origin
    while going_on:
        land = going_on & (~going_on + 1)
        going_on ^= land
        over = sh(land, 3 - d)
        origin = sh(over, 3 - d)
        c.frm = origin
        c.empty = empty | origin
        take(m, c, over, land, 0)
        if K_PROMO == PROMO_KING and land & crown_row(s):
            if not king_capture(s, m, c, land, over, 1, d, False):
                finish(m, c, land, over, 1, True)
        elif not man_capture(s, m, c, land, over, 1):
            finish(m, c, land, over, 1, (land & crown_row(s)) != 0)
        untake(c, over, 0)


cdef u64 count_captures(Side *s, u64 w, u64 b, u64 k, u64 cand, bint unique,
                        int *overflow) noexcept nogil:
    """The captures of the pieces in `cand` (from `capturers`), counted without a list.

    Most are single jumps of a man that end there: those are counted bit-parallel, and only the
    jumps that go on and the kings' captures are searched, starting from the single jumps as
    the best captures found so far (they all have the same precedence key, unless the game
    weighs the kings taken and its men take kings: then everything is searched).
    """
    cdef Ctx c
    cdef MoveList seen3      # captures of 3 or more pieces, to count each move once
    cdef Counting *counting = NULL
    cdef u64 going_on[4]
    cdef u64 empty = K_BOARD & ~(w | b)
    cdef u64 enemy = enemy_of(s, w, b)
    cdef u64 jumpable = enemy if K_MEN_TAKE_KINGS else enemy & ~k
    cdef u64 men = cand & ~k
    cdef u64 final
    seen3.n = 0
    seen3.overflow = 0
    c.ml = &seen3
    c.unique = unique
    if fast_count():
        final = final_jumps(s, men, jumpable, empty, 0, going_on)
        final += final_jumps(s, men, jumpable, empty, 1, going_on)
        final += final_jumps(s, men, jumpable, empty, 2, going_on)
        final += final_jumps(s, men, jumpable, empty, 3, going_on)
        if not (going_on[0] | going_on[1] | going_on[2] | going_on[3] | (cand & k)):
            return final        # every capture is one man's single jump: all are equal
        start_search(s, &c, w, b, k)
        c.by_king = 0
        c.best = prec_key(&c, 1)
        c.count = final
        search_going_on(s, counting, &c, going_on[0], empty, 0)
        search_going_on(s, counting, &c, going_on[1], empty, 1)
        search_going_on(s, counting, &c, going_on[2], empty, 2)
        search_going_on(s, counting, &c, going_on[3], empty, 3)
        search_kings(s, counting, &c, cand & k, empty)
    elif K_ORTHO:
        search_captures_ordered(s, counting, w, b, k, cand, &c)
    else:
        search_captures(s, counting, w, b, k, cand, &c)
    if seen3.overflow:
        overflow[0] = 1
    return c.count


cdef inline u64 count_moves(Side *s, u64 w, u64 b, u64 k, bint unique,
                            int *overflow) noexcept nogil:
    """The number of legal moves (routes, unless `unique`), listing none: quiet moves by
    popcount, and a man's single jumps that end there bit-parallel, inline; any other capture
    is counted by count_captures.  Sets *overflow if the captures of 3 pieces or more were too
    many to tell apart."""
    cdef u64 own = own_of(s, w, b)
    cdef u64 enemy = enemy_of(s, w, b)
    cdef u64 men = own & ~k
    cdef u64 kings = own & k
    cdef u64 empty = K_BOARD & ~(w | b)
    cdef u64 jumpable = enemy if K_MEN_TAKE_KINGS else enemy & ~k
    cdef u64 cand = man_jumpers(s, men, jumpable, empty)
    cdef u64 going_on[4]
    cdef u64 total
    if kings and kings_can_capture(kings, enemy, empty):
        return count_captures(s, w, b, k, cand | kings, unique, overflow)
    if cand:
        if fast_count():
            total = final_jumps(s, cand, jumpable, empty, 0, going_on)
            total += final_jumps(s, cand, jumpable, empty, 1, going_on)
            total += final_jumps(s, cand, jumpable, empty, 2, going_on)
            total += final_jumps(s, cand, jumpable, empty, 3, going_on)
            if not (going_on[0] | going_on[1] | going_on[2] | going_on[3]):
                return total
        return count_captures(s, w, b, k, cand, unique, overflow)
    if Side is White:
        total = popcount(sh(men, 0) & empty) + popcount(sh(men, 1) & empty)
    else:
        total = popcount(sh(men, 2) & empty) + popcount(sh(men, 3) & empty)
    if kings:
        total += count_king_steps(kings, empty, 0) + count_king_steps(kings, empty, 1) + \
            count_king_steps(kings, empty, 2) + count_king_steps(kings, empty, 3)
    return total


# --- perft ----------------------------------------------------------------------------------------

cdef inline u64 child_count(Side *s, u64 w, u64 b, u64 k, bint unique,
                            int *overflow) noexcept nogil:
    # the count one ply further down, where the other side moves
    return (count_moves(<Black *>NULL, w, b, k, unique, overflow) if Side is White
            else count_moves(<White *>NULL, w, b, k, unique, overflow))


cdef inline u64 quiet_men_children(Side *s, u64 w, u64 b, u64 k, u64 men, u64 empty, int d,
                                   bint unique, int *overflow) noexcept nogil:
    cdef u64 targets, t, ft
    cdef u64 total = 0
    if not forward(s, d):
        return 0
    targets = sh(men, d) & empty
    while targets:
        t = targets & (~targets + 1)
        targets ^= t
        ft = t | sh(t, 3 - d)
        if Side is White:
            total += child_count(s, w ^ ft, b, k | (t & K_ROW_TOP), unique, overflow)
        else:
            total += child_count(s, w, b ^ ft, k | (t & K_ROW_BOTTOM), unique, overflow)
    return total


cdef inline u64 quiet_king_children(Side *s, u64 w, u64 b, u64 k, u64 king, u64 empty, int d,
                                    bint unique, int *overflow) noexcept nogil:
    cdef u64 t = sh(king, d) & empty
    cdef u64 total = 0
    while t:
        if Side is White:
            total += child_count(s, w ^ king ^ t, b, k ^ king ^ t, unique, overflow)
        else:
            total += child_count(s, w, b ^ king ^ t, k ^ king ^ t, unique, overflow)
        if not K_FLYING:
            break
        t = sh(t, d) & empty
    return total


cdef u64 perft2(Side *s, u64 w, u64 b, u64 k, bint unique, int *overflow) noexcept nogil:
    """perft(2): the children of quiet moves are counted as the moves are found, with no list."""
    cdef MoveList ml
    cdef Ctx c
    cdef Move *mv
    cdef u64 cand = capturers(s, w, b, k)
    cdef u64 own, men, kings, king, empty, sub
    cdef u64 total = 0
    cdef int i
    if cand:
        ml.n = 0
        ml.overflow = 0
        c.ml = &ml
        if K_ORTHO:
            search_captures_ordered(s, <Listing *>NULL, w, b, k, cand, &c)
        else:
            search_captures(s, <Listing *>NULL, w, b, k, cand, &c)
        if ml.overflow:
            overflow[0] = 1
        for i in range(ml.n):
            mv = &ml.moves[i]
            if Side is White:
                sub = child_count(s, w ^ mv.ft, b & ~mv.captured, (k & ~mv.captured) ^ mv.kx,
                                  unique, overflow)
            else:
                sub = child_count(s, w & ~mv.captured, b ^ mv.ft, (k & ~mv.captured) ^ mv.kx,
                                  unique, overflow)
            total += sub if unique else sub * mv.routes
        return total
    own = own_of(s, w, b)
    men = own & ~k
    kings = own & k
    empty = K_BOARD & ~(w | b)
    total = quiet_men_children(s, w, b, k, men, empty, 0, unique, overflow)
    total += quiet_men_children(s, w, b, k, men, empty, 1, unique, overflow)
    total += quiet_men_children(s, w, b, k, men, empty, 2, unique, overflow)
    total += quiet_men_children(s, w, b, k, men, empty, 3, unique, overflow)
    while kings:
        king = kings & (~kings + 1)
        kings ^= king
        total += quiet_king_children(s, w, b, k, king, empty, 0, unique, overflow)
        total += quiet_king_children(s, w, b, k, king, empty, 1, unique, overflow)
        total += quiet_king_children(s, w, b, k, king, empty, 2, unique, overflow)
        total += quiet_king_children(s, w, b, k, king, empty, 3, unique, overflow)
    return total


cdef u64 perft(Side *s, u64 w, u64 b, u64 k, int depth, bint unique, PerftTable *tt,
               int *overflow) noexcept nogil:
    """Leaves `depth` (>= 2) plies below the position: bulk counted at the last ply, each move
    weighted by its routes unless `unique`."""
    cdef MoveList ml
    cdef Move *mv
    cdef u64 total = 0
    cdef u64 sub, nw, nb, nk
    cdef int i
    cdef u64 slot = 0
    if tt != NULL:
        slot = tt_slot(tt, w, b, k, us_of(s), depth)
        if tt_probe(tt, slot, w, b, k, us_of(s), depth, &total):
            return total
    if depth == 2:
        total = perft2(s, w, b, k, unique, overflow)
    else:
        gen_moves(s, <Listing *>NULL, w, b, k, &ml)
        if ml.overflow:
            overflow[0] = 1
        if tt != NULL:
            # the children's buckets are far apart in memory: ask for them all before the
            # first child is searched, so the probes below do not wait on memory one by one
            for i in range(ml.n):
                mv = &ml.moves[i]
                nk = (k & ~mv.captured) ^ mv.kx
                if Side is White:
                    prefetch(&tt.buckets[tt_slot(tt, w ^ mv.ft, b & ~mv.captured, nk, BLACK,
                                                 depth - 1)])
                else:
                    prefetch(&tt.buckets[tt_slot(tt, w & ~mv.captured, b ^ mv.ft, nk, WHITE,
                                                 depth - 1)])
        for i in range(ml.n):
            mv = &ml.moves[i]
            nk = (k & ~mv.captured) ^ mv.kx
            if Side is White:
                sub = perft(<Black *>NULL, w ^ mv.ft, b & ~mv.captured, nk, depth - 1, unique, tt,
                            overflow)
            else:
                sub = perft(<White *>NULL, w & ~mv.captured, b ^ mv.ft, nk, depth - 1, unique, tt,
                            overflow)
            total += sub if unique else sub * mv.routes
    if tt != NULL:
        tt_store(tt, slot, w, b, k, us_of(s), depth, total)
    return total


# --- moves drawn at random without listing them (the playouts) ----------------------------------
# Most positions have no capture.  Listing their moves writes every move only for one to be kept;
# here they are counted by popcount and only the one drawn is made: a man's step, or a king's
# move (each square a king's ray reaches along a direction is one move; flying kings' rays are
# filled without a loop, ray_fill), and where every capture is one man's single jump, that jump
# (single_jump).  The rules are this kernel's: the same moves as gen_moves, in a fixed order.
# The playouts are bound by branches that go the wrong way more than by instructions: a choice
# that depends on the random index is made by masks and selects, not by a branch.

cdef bint PDEP = fast_pdep()


ctypedef struct Quiet:
    # A side's quiet moves, counted: the men's destinations in their two forward directions,
    # the squares the kings reach in each direction, and every quiet move (the kings'
    # included).  Index r < n names one move (quiet_nth).
    u64 steps[2]
    int count[2]
    u64 rays[4]
    int kcount[4]
    int n


cdef inline u64 step_any(u64 b, int d, int times) noexcept nogil:
    # `times` steps in diagonal direction d (0-3), known only at run time, without a branch
    cdef u64 down = (<u64>0) - <u64>(d >> 1)        # all ones for 2 and 3
    return ((b << ((K_W + 1 - d) * times)) & ~down) | ((b >> ((K_W + d - 2) * times)) & down)


cdef inline u64 ray_fill(u64 gen, u64 pro, int d) noexcept nogil:
    # gen and every square reached from it in direction d over squares of pro, without a loop
    # (Kogge-Stone: steps of 1, 2, 4 (and 8) squares, enough for the board's longest diagonal;
    # a step off the board lands on a ghost bit or past the word, never in pro).  With d a
    # literal each step is one constant shift
    gen |= pro & sh(gen, d)
    pro &= sh(pro, d)
    gen |= pro & sh(sh(gen, d), d)
    pro &= sh(sh(pro, d), d)
    gen |= pro & sh(sh(sh(sh(gen, d), d), d), d)
    if K_ROWS > 8:
        pro &= sh(sh(sh(sh(pro, d), d), d), d)
        gen |= pro & sh(sh(sh(sh(sh(sh(sh(sh(gen, d), d), d), d), d), d), d), d)
    return gen


cdef inline u64 ray_fill_any(u64 gen, u64 pro, int d) noexcept nogil:
    # ray_fill for a direction known only at run time
    gen |= pro & step_any(gen, d, 1)
    pro &= step_any(pro, d, 1)
    gen |= pro & step_any(gen, d, 2)
    pro &= step_any(pro, d, 2)
    gen |= pro & step_any(gen, d, 4)
    if K_ROWS > 8:
        pro &= step_any(pro, d, 4)
        gen |= pro & step_any(gen, d, 8)
    return gen


cdef inline bint king_rays(u64 kings, u64 enemy, u64 empty, int d, Quiet *q) noexcept nogil:
    # the kings' quiet moves in direction d counted into q, or True if one of them can capture
    # along it (the piece that stops its ray is an enemy with an empty square behind); flying
    # kings' rays without a loop over their squares, whose number is random
    cdef u64 reach
    if K_FLYING:
        reach = ray_fill(kings, empty, d)
        if sh(sh(reach, d) & enemy, d) & empty:
            return True
    else:
        # one step, and the piece it may take is the one next to it
        if sh(sh(kings, d) & enemy, d) & empty:
            return True
        reach = kings | (sh(kings, d) & empty)
    q.rays[d] = reach & ~kings
    q.kcount[d] = popcount(q.rays[d])
    q.n += q.kcount[d]
    return False


cdef inline bint scan_quiet(Side *s, u64 men, u64 kings, u64 enemy, u64 empty, u64 locked,
                            Quiet *q) noexcept nogil:
    # the quiet moves counted into q, where no man can capture; True (q unfinished) if a king
    # can.  `locked`: the king that may not make a quiet move now (K_KING_LIMIT), or 0
    if K_ORTHO and kings and kings_capture_orthogonally(kings, enemy, empty):
        return True
    if K_KING_LIMIT and locked:
        if kings_can_capture(locked, enemy, empty):
            return True
        kings &= ~locked
    q.steps[0] = sh(men, 0 if Side is White else 2) & empty
    q.steps[1] = sh(men, 1 if Side is White else 3) & empty
    q.count[0] = popcount(q.steps[0])
    q.count[1] = popcount(q.steps[1])
    q.n = q.count[0] + q.count[1]
    if kings:
        if (king_rays(kings, enemy, empty, 0, q) or king_rays(kings, enemy, empty, 1, q) or
                king_rays(kings, enemy, empty, 2, q) or king_rays(kings, enemy, empty, 3, q)):
            return True
    return False


cdef inline void quiet_move(Side *s, u64 frm, u64 to, bint king, Move *out) noexcept nogil:
    out.ft = frm | to
    out.captured = 0
    out.kx = out.ft if king else to & crown_row(s)
    out.promote = not king and out.kx != 0
    out.routes = 1
    out.frm = <uint8_t>ctz(frm)
    out.to = <uint8_t>ctz(to)
    out.ncapt = 0


cdef inline void king_nth(Side *s, u64 kings, u64 empty, const Quiet *q, int r,
                          Move *out) noexcept nogil:
    # the kings' quiet move r: its direction d and square without a branch (r is random), its
    # king the piece that the ray back from the square (direction 3 - d) meets: one step back
    # where kings do not fly
    cdef int starts[4]
    cdef int d
    cdef u64 to
    starts[0] = 0
    starts[1] = q.kcount[0]
    starts[2] = starts[1] + q.kcount[1]
    starts[3] = starts[2] + q.kcount[2]
    d = (r >= starts[1]) + (r >= starts[2]) + (r >= starts[3])
    to = nth_bit(q.rays[d], r - starts[d], PDEP)
    quiet_move(s, step_any(ray_fill_any(to, empty, 3 - d) if K_FLYING else to, 3 - d, 1) &
               kings, to, True, out)


cdef inline void quiet_nth_side(Side *s, u64 w, u64 b, u64 k, u64 locked, const Quiet *q, int r,
                                Move *out) noexcept nogil:
    cdef u64 to, sel
    cdef u64 kings = own_of(s, w, b) & k & ~locked
    cdef u64 empty = K_BOARD & ~(w | b)
    cdef int first
    if r < q.count[0] + q.count[1]:
        # a man's step, its direction chosen without a branch: r is random, and a branch on it
        # would go the wrong way half the time.  White's steps are shifts up by W + 1 (the
        # first direction) and W, Black's down by W and W + 1.
        first = r < q.count[0]
        sel = (<u64>0) - <u64>first
        to = nth_bit((q.steps[0] & sel) | (q.steps[1] & ~sel), r - (q.count[0] & (first - 1)),
                     PDEP)
        quiet_move(s, to >> (K_W + first) if Side is White else to << (K_W + 1 - first), to,
                   False, out)
        return
    r -= q.count[0] + q.count[1]
    king_nth(s, kings, empty, q, r, out)


# --- the entry points this kernel exports (KernelOps) --------------------------------------------

cdef inline void jump_move(Side *s, u64 frm, u64 over, u64 to, Move *out) noexcept nogil:
    # a man's single jump from frm over `over` to `to` (crowned there if it is the far row)
    out.ft = frm | to
    out.captured = over
    out.kx = to & crown_row(s)
    out.promote = out.kx != 0
    out.routes = 1
    out.frm = <uint8_t>ctz(frm)
    out.to = <uint8_t>ctz(to)
    out.ncapt = 1


cdef inline u64 jump_from(u64 empty, u64 jumpable, int d) noexcept nogil:
    # the squares from which a man can jump in direction d (whatever stands on them)
    return sh(sh(empty, rev(d)) & jumpable, rev(d))


cdef inline u64 chosen(int d, int e) noexcept nogil:
    # all ones if d == e, else 0
    return (<u64>0) - <u64>(d == e)


cdef inline u64 step8(u64 b, int d) noexcept nogil:
    # sh(b, d) for any of the 8 directions (K_ORTHO) known only at run time, without a branch:
    # every step made, one kept
    return ((sh(b, 0) & chosen(d, 0)) | (sh(b, 1) & chosen(d, 1)) | (sh(b, 2) & chosen(d, 2)) |
            (sh(b, 3) & chosen(d, 3)) | (sh(b, 4) & chosen(d, 4)) | (sh(b, 5) & chosen(d, 5)) |
            (sh(b, 6) & chosen(d, 6)) | (sh(b, 7) & chosen(d, 7)))


cdef extern from *:
    """
    #define K_NDIR (K_ORTHO ? 8 : 4)
    """
    # the directions a man may jump in: the diagonals, and with K_ORTHO the ranks and files
    # (arrays indexed by direction have room for 8)
    const int NDIR "K_NDIR"


cdef inline u64 goes_on(Side *s, const u64 *j, const u64 *before, const u64 *after,
                        int d) noexcept nogil:
    # The landing squares of the men's single jumps in direction d from which the capture goes
    # on: in any direction but back (over the piece it took, which stays until the move ends),
    # so the squares f of the other directions (before[rev(d)] | after[rev(d) + 1]), since
    # neither its origin (two steps back) nor the piece taken (one step back) is on such a
    # jump.  A man crowned there goes on as a king (PROMO_KING: it counts as going on) or
    # stops (PROMO_STOP).
    cdef u64 land = sh(sh(j[d], d), d)
    cdef u64 on = land & (before[rev(d)] | after[rev(d) + 1])
    if K_PROMO == PROMO_STOP:
        on &= ~crown_row(s)
    elif K_PROMO == PROMO_KING:
        on |= land & crown_row(s)
    return on


cdef inline int single_jump(Side *s, u64 enemy, u64 kings, u64 k, u64 empty, const u64 *f,
                            const u64 *j, u64 rnd, Move *out) noexcept nogil:
    # Most captures of a random game are one man's single jump.  When every capture is one
    # (no king can capture, no man can jump on from where it lands), their number n, and jump
    # random_below(rnd, n) of them made into out (those in direction 0 by origin, then 1, ...);
    # else -1.  f[d]: the squares from which a man can jump in direction d; j[d]: the men
    # that can (not all none).
    cdef u64 before[9]
    cdef u64 after[9]
    cdef int starts[9]
    cdef u64 on, frm, over
    cdef int d, r, i
    if prec_kinds() and K_MEN_TAKE_KINGS and enemy & k:
        return -1       # single jumps told apart by the kind of piece they take
    if kings and kings_can_capture(kings, enemy, empty):
        return -1
    # before[d]: the squares f of the directions below d; after[d]: of d and above
    before[0] = 0
    after[NDIR] = 0
    for d in range(NDIR):
        before[d + 1] = before[d] | f[d]
        after[NDIR - 1 - d] = after[NDIR - d] | f[NDIR - 1 - d]
    on = goes_on(s, j, before, after, 0) | goes_on(s, j, before, after, 1) | \
        goes_on(s, j, before, after, 2) | goes_on(s, j, before, after, 3)
    if K_ORTHO:
        on |= goes_on(s, j, before, after, 4) | goes_on(s, j, before, after, 5) | \
            goes_on(s, j, before, after, 6) | goes_on(s, j, before, after, 7)
    if on:
        return -1
    starts[0] = 0
    for d in range(NDIR):
        starts[d + 1] = starts[d] + popcount(j[d])
    r = random_below(rnd, starts[NDIR])
    # the direction without a branch (r is random): how many running counts r is past
    d = 0
    for i in range(1, NDIR):
        d += r >= starts[i]
    frm = nth_bit(j[d], r - starts[d], PDEP)
    over = step8(frm, d) if K_ORTHO else step_any(frm, d, 1)
    jump_move(s, frm, over, step8(over, d) if K_ORTHO else step_any(over, d, 1), out)
    return starts[NDIR]


cdef inline int pick_side(Side *s, u64 w, u64 b, u64 k, u64 locked, u64 rnd,
                          Move *out) noexcept nogil:
    """A ply of a random playout without the move list: the number n of legal moves, and
    (n > 0) move random_below(rnd, n) of them made into out (a quiet move, or one man's single
    jump when every capture is one); -1 when the captures must be listed (gen_moves)."""
    cdef Quiet q
    cdef u64 own = own_of(s, w, b)
    cdef u64 enemy = enemy_of(s, w, b)
    cdef u64 men = own & ~k
    cdef u64 kings = own & k
    cdef u64 empty = K_BOARD & ~(w | b)
    cdef u64 jumpable = enemy if K_MEN_TAKE_KINGS else enemy & ~k
    cdef u64 f[8]
    cdef u64 j[8]
    cdef u64 jumpers
    cdef int i
    f[0] = jump_from(empty, jumpable, 0) if K_MEN_BACK or forward(s, 0) else 0
    f[1] = jump_from(empty, jumpable, 1) if K_MEN_BACK or forward(s, 1) else 0
    f[2] = jump_from(empty, jumpable, 2) if K_MEN_BACK or forward(s, 2) else 0
    f[3] = jump_from(empty, jumpable, 3) if K_MEN_BACK or forward(s, 3) else 0
    jumpers = f[0] | f[1] | f[2] | f[3]
    if K_ORTHO:
        # (along ranks and files the men jump both ways, as man_jumpers)
        f[4] = jump_from(empty, jumpable, 4)
        f[5] = jump_from(empty, jumpable, 5)
        f[6] = jump_from(empty, jumpable, 6)
        f[7] = jump_from(empty, jumpable, 7)
        jumpers |= f[4] | f[5] | f[6] | f[7]
    if men & jumpers:
        for i in range(NDIR):
            j[i] = men & f[i]
        return single_jump(s, enemy, kings, k, empty, f, j, rnd, out)
    if scan_quiet(s, men, kings, enemy, empty, locked, &q):
        return -1
    if q.n:
        quiet_nth_side(s, w, b, k, locked, &q, random_below(rnd, q.n), out)
    return q.n


# --- the limit on one king's quiet moves in a row (K_KING_LIMIT: frisian) ------------------------

cdef inline u64 locked_king(const Position *p) noexcept nogil:
    """The king of the side to move that has made K_KING_LIMIT quiet moves in a row while
    its side has men: it may capture, but not make a quiet move (0: none, and in every game
    without the rule)."""
    if K_KING_LIMIT and run_count(p.run, p.turn) >= K_KING_LIMIT:
        return run_king(p.run, p.turn) & p.pieces[p.turn] & p.kings
    return 0


cdef inline void drop_locked(const Position *p, MoveList *ml) noexcept nogil:
    # a list of quiet moves without those of the locked king
    cdef u64 lk = locked_king(p)
    cdef int i, f
    cdef int n = 0
    if not lk or ml.n == 0 or ml.moves[0].ncapt:
        return
    f = ctz(lk)
    for i in range(ml.n):
        if ml.moves[i].frm != f:
            ml.moves[n] = ml.moves[i]
            n += 1
    ml.n = n


cdef inline u64 locked_steps(const Position *p) noexcept nogil:
    # the quiet moves the locked king would have, when the side to move has no capture
    cdef u64 lk = locked_king(p)
    cdef u64 empty
    if not lk or ops_must_capture(p):
        return 0
    empty = K_BOARD & ~(p.pieces[0] | p.pieces[1])
    return count_king_steps(lk, empty, 0) + count_king_steps(lk, empty, 1) + \
        count_king_steps(lk, empty, 2) + count_king_steps(lk, empty, 3)


cdef u64 perft_runs(const Position *p, int depth, bint unique, PerftTable *tt,
                    int *overflow) noexcept nogil:
    """perft of a game whose positions carry the kings' runs: each child made by make_move
    (which keeps the runs), the runs part of the table's key (White's byte in the kings word's
    bits 56-63, Black's in the black word's bits 55-62: the board uses bits 0-54)."""
    cdef MoveList ml
    cdef Position q
    cdef Move *mv
    cdef u64 total = 0
    cdef u64 sub, kw, bw
    cdef u64 slot = 0
    cdef int i
    if depth <= 1:
        return ops_count(p, unique, overflow)
    kw = p.kings | ((<u64>(p.run & 0xFF)) << 56)
    bw = p.pieces[1] | ((<u64>((p.run >> 8) & 0xFF)) << 55)
    if tt != NULL:
        slot = tt_slot(tt, p.pieces[0], bw, kw, p.turn, depth)
        if tt_probe(tt, slot, p.pieces[0], bw, kw, p.turn, depth, &total):
            return total
    ops_moves(p, &ml)
    if ml.overflow:
        overflow[0] = 1
    for i in range(ml.n):
        mv = &ml.moves[i]
        make_move(&q, p, mv)
        sub = perft_runs(&q, depth - 1, unique, tt, overflow)
        total += sub if unique else sub * mv.routes
    if tt != NULL:
        tt_store(tt, slot, p.pieces[0], bw, kw, p.turn, depth, total)
    return total


# --- the entry points this kernel exports (KernelOps) --------------------------------------------

cdef inline int pick(const Position *p, u64 rnd, Move *out) noexcept nogil:
    cdef u64 lk = locked_king(p) if K_KING_LIMIT else 0
    if p.turn == WHITE:
        return pick_side(<White *>NULL, p.pieces[0], p.pieces[1], p.kings, lk, rnd, out)
    return pick_side(<Black *>NULL, p.pieces[0], p.pieces[1], p.kings, lk, rnd, out)


cdef int ops_pick(const Position *p, u64 rnd, Move *out) noexcept nogil:
    return pick(p, rnd, out)


cdef void ops_moves(const Position *p, MoveList *ml) noexcept nogil:
    if p.turn == WHITE:
        gen_moves(<White *>NULL, <Listing *>NULL, p.pieces[0], p.pieces[1], p.kings, ml)
    else:
        gen_moves(<Black *>NULL, <Listing *>NULL, p.pieces[0], p.pieces[1], p.kings, ml)
    if K_KING_LIMIT:
        drop_locked(p, ml)


cdef void ops_routes(const Position *p, MoveList *ml) noexcept nogil:
    if p.turn == WHITE:
        gen_moves(<White *>NULL, <Routing *>NULL, p.pieces[0], p.pieces[1], p.kings, ml)
    else:
        gen_moves(<Black *>NULL, <Routing *>NULL, p.pieces[0], p.pieces[1], p.kings, ml)
    if K_KING_LIMIT:
        drop_locked(p, ml)


cdef u64 ops_count(const Position *p, bint unique, int *overflow) noexcept nogil:
    cdef u64 n
    if p.turn == WHITE:
        n = count_moves(<White *>NULL, p.pieces[0], p.pieces[1], p.kings, unique, overflow)
    else:
        n = count_moves(<Black *>NULL, p.pieces[0], p.pieces[1], p.kings, unique, overflow)
    if K_KING_LIMIT:
        n -= locked_steps(p)
    return n


cdef bint ops_must_capture(const Position *p) noexcept nogil:
    if p.turn == WHITE:
        return capturers(<White *>NULL, p.pieces[0], p.pieces[1], p.kings) != 0
    return capturers(<Black *>NULL, p.pieces[0], p.pieces[1], p.kings) != 0


cdef u64 ops_perft(const Position *p, int depth, bint unique, PerftTable *tt,
                   int *overflow) noexcept nogil:
    if K_KING_LIMIT:
        return perft_runs(p, depth, unique, tt, overflow)
    if depth == 1:
        return ops_count(p, unique, overflow)
    if p.turn == WHITE:
        return perft(<White *>NULL, p.pieces[0], p.pieces[1], p.kings, depth, unique, tt, overflow)
    return perft(<Black *>NULL, p.pieces[0], p.pieces[1], p.kings, depth, unique, tt, overflow)


# the random games of shashki.playouts, played by this kernel's rules (ops_play)
include "playout.pxi"


cdef KernelOps OPS
OPS.width = K_W
OPS.rows = K_ROWS
OPS.board = K_BOARD
OPS.promotion[WHITE] = K_ROW_TOP
OPS.promotion[BLACK] = K_ROW_BOTTOM
OPS.moves = ops_moves
OPS.routes = ops_routes
OPS.count = ops_count
OPS.must_capture = ops_must_capture
OPS.perft = ops_perft
OPS.pick = ops_pick
OPS.play = ops_play
OPS.king_limit = K_KING_LIMIT

#: the entry points, for shashki._core.movegen.Kernel
ops = PyCapsule_New(&OPS, "shashki._core.KernelOps", NULL)
