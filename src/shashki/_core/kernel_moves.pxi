# The move generation of one game's kernel (included by kernel.pxi, whose constants and
# geometry it uses): the capture search, the quiet moves, the count of the moves of a position
# without listing them (the last ply of perft), and the limit on one king's moves in a row.

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
        if n >= 3 and c.unique and not count_once(ml, f, t, cap):
            return
        c.count += 1
    else:
        add_capture(m, c, ml, f, t, to, cap, n, king)


cdef bint count_once(MoveList *ml, int f, int t, u64 cap) noexcept nogil:
    """Counting unique moves: False if a capture of 3 pieces or more (`cap`, from f to t) was
    counted already, in another order; else it is listed, to be found next time.  Out of line:
    rare, and kept out of the capture search's inlined code."""
    cdef Move *mv
    if seen(ml, f, t, cap):
        return False
    if not list_full(ml, False):
        mv = &ml.moves[ml.n]
        ml.n += 1
        mv.captured = cap
        mv.frm = <uint8_t>f
        mv.to = <uint8_t>t
    return True


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
    cdef Move mv
    if n >= 3 and (Mode is Listing or ml.merge) and seen(ml, f, t, cap):
        return
    if Mode is Routing and ml.only_frm >= 0 and \
            (f != ml.only_frm or t != ml.only_to or cap != ml.only_captured):
        return              # a route of another move (the class of captures is still kept)
    if list_full(ml, Mode is Routing):
        return
    # the move is made whole and stored at once: its byte fields, written one by one into
    # the list, may alias anything (char), so GCC read the list's pointer and length again
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
    ml.moves[ml.n] = mv
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
    # back the way it came the piece just taken blocks (unless it has left the board, where
    # the rules may still forbid the turn); on in the same direction from a later landing
    # square is the route from the first one
    if came >= 0 and ((came == rev(d) and (K_NO_TURN_BACK or not K_REMOVE_AT_ONCE)) or
                      (skip_same and d == came)):
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
        # landing square tries it (but for routes listed with every_landing, kish's count of
        # every sequence of landing squares).
        cont = False
        first = True
        l = land
        while l:
            if Mode is Routing:
                c.route.land[n] = <uint8_t>ctz(l)
            if king_capture(s, m, c, l, ncap, n + 1, d,
                            not first and not (Mode is Routing and c.ml.every_landing)):
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

cdef inline int quiet_men(Side *s, Move *moves, int n, u64 men, u64 empty, int d) noexcept nogil:
    # (`moves`, not the list: a list's `moves` pointer, read through the list, would be read
    # again after each byte of a move is stored, since a byte may alias it)
    cdef u64 targets, t, f
    cdef Move *mv
    if not forward(s, d):
        return n
    targets = sh(men, d) & empty
    while targets:
        t = targets & (~targets + 1)
        targets ^= t
        f = sh(t, 3 - d)
        mv = &moves[n]
        n += 1
        mv.ft = f | t
        mv.captured = 0
        # (a mask, not a choice: GCC made `t if promote else 0` a branch, mispredicted)
        mv.kx = t & crown_row(s)
        mv.promote = mv.kx != 0
        mv.routes = 1
        mv.frm = <uint8_t>ctz(f)
        mv.to = <uint8_t>ctz(t)
        mv.ncapt = 0
    return n


cdef inline int quiet_king(Move *moves, int n, u64 k, u64 empty, int d) noexcept nogil:
    cdef u64 t = sh(k, d) & empty
    cdef Move *mv
    while t:
        mv = &moves[n]
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
    cdef Move *moves
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
    # the longest quiet list (20 flying kings on 10x10) fits MAXMOVES, which a list holds
    # at least: no check is needed
    moves = ml.moves
    n = quiet_men(s, moves, 0, men, empty, 0)
    n = quiet_men(s, moves, n, men, empty, 1)
    n = quiet_men(s, moves, n, men, empty, 2)
    n = quiet_men(s, moves, n, men, empty, 3)
    while kings:
        king = kings & (~kings + 1)
        kings ^= king
        n = quiet_king(moves, n, king, empty, 0)
        n = quiet_king(moves, n, king, empty, 1)
        n = quiet_king(moves, n, king, empty, 2)
        n = quiet_king(moves, n, king, empty, 3)
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
    cdef u64 count
    c.unique = unique
    if fast_count():
        final = final_jumps(s, men, jumpable, empty, 0, going_on)
        final += final_jumps(s, men, jumpable, empty, 1, going_on)
        final += final_jumps(s, men, jumpable, empty, 2, going_on)
        final += final_jumps(s, men, jumpable, empty, 3, going_on)
        if not (going_on[0] | going_on[1] | going_on[2] | going_on[3] | (cand & k)):
            return final        # every capture is one man's single jump: all are equal
    # the captures searched, and those of 3 pieces or more listed (seen3) to count each once
    list_ready(&seen3)
    seen3.n = 0
    seen3.overflow = 0
    c.ml = &seen3
    if fast_count():
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
    count = c.count
    list_drop(&seen3)
    return count


cdef inline u64 count_moves(Side *s, u64 w, u64 b, u64 k, bint unique,
                            int *overflow) noexcept nogil:
    """The number of legal moves (routes, unless `unique`), listing none: quiet moves by
    popcount, and a man's single jumps that end there bit-parallel, inline; any other capture
    is counted by count_captures.  Sets *overflow if the captures of 3 pieces or more were too
    many to tell apart."""
    cdef u64 own = own_of(s, w, b)
    return count_reply(s, w, b, k, own & ~k, own & k, K_BOARD & ~(w | b), unique, overflow)


cdef inline u64 count_reply(Side *s, u64 w, u64 b, u64 k, u64 men, u64 kings, u64 empty,
                            bint unique, int *overflow) noexcept nogil:
    """count_moves, given the men, kings and empty squares of the position: perft's last ply
    passes them in, since a quiet move of the other side changes only the empty squares
    (kernel_perft.pxi quiet_men_children)."""
    cdef u64 enemy = enemy_of(s, w, b)
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
    total = 0
    if forward(s, 0):
        total += popcount(sh(men, 0) & empty)
    if forward(s, 1):
        total += popcount(sh(men, 1) & empty)
    if forward(s, 2):
        total += popcount(sh(men, 2) & empty)
    if forward(s, 3):
        total += popcount(sh(men, 3) & empty)
    if kings:
        total += count_king_steps(kings, empty, 0) + count_king_steps(kings, empty, 1) + \
            count_king_steps(kings, empty, 2) + count_king_steps(kings, empty, 3)
    return total


# --- the limit on one king's quiet moves in a row (K_KING_LIMIT: frisian) ------------------------

cdef inline u64 locked_king(const Pos *p) noexcept nogil:
    """The king of the side to move that has made K_KING_LIMIT quiet moves in a row while
    its side has men: it may capture, but not make a quiet move (0: none, and in every game
    without the rule)."""
    if K_KING_LIMIT and run_count(p.run, p.turn) >= K_KING_LIMIT:
        return run_king(p.run, p.turn) & p.pieces[p.turn] & p.kings
    return 0


cdef inline void drop_locked(const Pos *p, MoveList *ml) noexcept nogil:
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


cdef inline u64 locked_steps(const Pos *p) noexcept nogil:
    # the quiet moves the locked king would have, when the side to move has no capture
    cdef u64 lk = locked_king(p)
    cdef u64 empty
    if not lk or ops_must_capture(p):
        return 0
    empty = K_BOARD & ~(p.pieces[0] | p.pieces[1])
    return count_king_steps(lk, empty, 0) + count_king_steps(lk, empty, 1) + \
        count_king_steps(lk, empty, 2) + count_king_steps(lk, empty, 3)
