# Perft of one game's kernel (included by kernel.pxi): the tree walked with a move list on the C
# stack at each ply (grown on the heap past MAXMOVES moves: list_grow), the last two plies
# counted without lists, and an optional transposition table that keys the whole position
# (perft_table.pxd's tt_*).

# --- perft ----------------------------------------------------------------------------------------

cdef inline u64 child_count(Side *s, u64 w, u64 b, u64 k, bint unique,
                            int *overflow) noexcept nogil:
    # the count one ply further down, where the other side moves
    return (count_moves(<Black *>NULL, w, b, k, unique, overflow) if Side is White
            else count_moves(<White *>NULL, w, b, k, unique, overflow))


cdef inline u64 reply_count(Side *s, u64 w, u64 b, u64 k, u64 their_men, u64 their_kings,
                            u64 empty, bint unique, int *overflow) noexcept nogil:
    # the count one ply further down after a quiet move of the side `s`, the other side's men
    # and kings (which a quiet move leaves alone) and the new empty squares given
    return (count_reply(<Black *>NULL, w, b, k, their_men, their_kings, empty, unique, overflow)
            if Side is White else
            count_reply(<White *>NULL, w, b, k, their_men, their_kings, empty, unique, overflow))


cdef inline u64 quiet_men_children(Side *s, u64 w, u64 b, u64 k, u64 men, u64 empty, int d,
                                   bint unique, int *overflow) noexcept nogil:
    # the other side's men and kings, and the empty squares, are the same for every child but
    # for the two squares the move changes: worked out once, not again for each child
    cdef u64 theirs = enemy_of(s, w, b)
    cdef u64 their_men = theirs & ~k
    cdef u64 their_kings = theirs & k
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
            total += reply_count(s, w ^ ft, b, k | (t & K_ROW_TOP), their_men, their_kings,
                                 empty ^ ft, unique, overflow)
        else:
            total += reply_count(s, w, b ^ ft, k | (t & K_ROW_BOTTOM), their_men, their_kings,
                                 empty ^ ft, unique, overflow)
    return total


cdef inline u64 quiet_king_children(Side *s, u64 w, u64 b, u64 k, u64 king, u64 empty, int d,
                                    bint unique, int *overflow) noexcept nogil:
    cdef u64 theirs = enemy_of(s, w, b)
    cdef u64 their_men = theirs & ~k
    cdef u64 their_kings = theirs & k
    cdef u64 t = sh(king, d) & empty
    cdef u64 total = 0
    while t:
        if Side is White:
            total += reply_count(s, w ^ king ^ t, b, k ^ king ^ t, their_men, their_kings,
                                 empty ^ king ^ t, unique, overflow)
        else:
            total += reply_count(s, w, b ^ king ^ t, k ^ king ^ t, their_men, their_kings,
                                 empty ^ king ^ t, unique, overflow)
        if not K_FLYING:
            break
        t = sh(t, d) & empty
    return total


cdef u64 perft2(Side *s, u64 w, u64 b, u64 k, bint unique, int *overflow) noexcept nogil:
    """perft(2): the children of quiet moves are counted as the moves are found, with no list."""
    cdef MoveList ml
    cdef Ctx c
    cdef Move *mv
    cdef Move *moves
    cdef u64 cand = capturers(s, w, b, k)
    cdef u64 own, men, kings, king, empty, sub
    cdef u64 total = 0
    cdef int i
    if cand:
        list_ready(&ml)
        ml.n = 0
        ml.overflow = 0
        c.ml = &ml
        if K_ORTHO:
            search_captures_ordered(s, <Listing *>NULL, w, b, k, cand, &c)
        else:
            search_captures(s, <Listing *>NULL, w, b, k, cand, &c)
        if ml.overflow:
            overflow[0] = 1
        moves = ml.moves        # (in a register: the children's calls cannot change it)
        for i in range(ml.n):
            mv = &moves[i]
            if Side is White:
                sub = child_count(s, w ^ mv.ft, b & ~mv.captured, (k & ~mv.captured) ^ mv.kx,
                                  unique, overflow)
            else:
                sub = child_count(s, w & ~mv.captured, b ^ mv.ft, (k & ~mv.captured) ^ mv.kx,
                                  unique, overflow)
            total += sub if unique else sub * mv.routes
        list_drop(&ml)
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
    cdef Move *moves
    cdef u64 total = 0
    cdef u64 sub, nw, nb, nk
    cdef int i
    cdef bint wrapped = False
    cdef u64 slot = 0
    if tt != NULL:
        slot = tt_slot(tt, w, b, k, us_of(s), depth)
        if tt_probe(tt, slot, w, b, k, us_of(s), depth, &total):
            return total
    if depth == 2:
        total = perft2(s, w, b, k, unique, overflow)
    else:
        list_ready(&ml)
        gen_moves(s, <Listing *>NULL, w, b, k, &ml)
        if ml.overflow:
            overflow[0] = 1
        moves = ml.moves        # (in a register: the children's calls cannot change it)
        if tt != NULL:
            # the children's buckets are far apart in memory: ask for them all before the
            # first child is searched, so the probes below do not wait on memory one by one
            for i in range(ml.n):
                mv = &moves[i]
                nk = (k & ~mv.captured) ^ mv.kx
                if Side is White:
                    prefetch(&tt.buckets[tt_slot(tt, w ^ mv.ft, b & ~mv.captured, nk, BLACK,
                                                 depth - 1)])
                else:
                    prefetch(&tt.buckets[tt_slot(tt, w & ~mv.captured, b ^ mv.ft, nk, WHITE,
                                                 depth - 1)])
        for i in range(ml.n):
            mv = &moves[i]
            nk = (k & ~mv.captured) ^ mv.kx
            if Side is White:
                sub = perft(<Black *>NULL, w ^ mv.ft, b & ~mv.captured, nk, depth - 1, unique, tt,
                            overflow)
            else:
                sub = perft(<White *>NULL, w & ~mv.captured, b ^ mv.ft, nk, depth - 1, unique, tt,
                            overflow)
            if depth < WRAP_DEPTH:
                total += sub if unique else sub * mv.routes
            elif add_count(&total, sub, 1 if unique else mv.routes):
                wrapped = True
        list_drop(&ml)
        if wrapped:
            overflow[0] |= OVERFLOW_WRAP
    if tt != NULL and not overflow[0]:
        tt_store(tt, slot, w, b, k, us_of(s), depth, total)
    return total


cdef u64 perft_runs(const Pos *p, int depth, bint unique, PerftTable *tt,
                    int *overflow) noexcept nogil:
    """perft of a game whose positions carry the kings' runs: each child made by make_move
    (which keeps the runs), the runs part of the table's key (White's byte in the kings word's
    bits 56-63, Black's in the black word's bits 55-62: the board uses bits 0-54)."""
    cdef MoveList ml
    cdef Pos q
    cdef Move *mv
    cdef Move *moves
    cdef u64 total = 0
    cdef u64 sub, kw, bw
    cdef u64 slot = 0
    cdef int i
    cdef bint wrapped = False
    if depth <= 1:
        return ops_count(p, unique, overflow)
    kw = p.kings | ((<u64>(p.run & 0xFF)) << 56)
    bw = p.pieces[1] | ((<u64>((p.run >> 8) & 0xFF)) << 55)
    if tt != NULL:
        slot = tt_slot(tt, p.pieces[0], bw, kw, p.turn, depth)
        if tt_probe(tt, slot, p.pieces[0], bw, kw, p.turn, depth, &total):
            return total
    list_ready(&ml)
    ops_moves(p, &ml)
    if ml.overflow:
        overflow[0] = 1
    moves = ml.moves
    if depth == 2:
        # the children counted here, not by a call of perft_runs each that only calls
        # ops_count (most nodes of the tree are these)
        for i in range(ml.n):
            mv = &moves[i]
            make_move(&q, p, mv)
            sub = ops_count(&q, unique, overflow)
            total += sub if unique else sub * mv.routes
    elif depth < WRAP_DEPTH:
        for i in range(ml.n):
            mv = &moves[i]
            make_move(&q, p, mv)
            sub = perft_runs(&q, depth - 1, unique, tt, overflow)
            total += sub if unique else sub * mv.routes
    else:
        # (the sums of the deep subtrees checked: see perft_table.pxd's WRAP_DEPTH)
        for i in range(ml.n):
            mv = &moves[i]
            make_move(&q, p, mv)
            sub = perft_runs(&q, depth - 1, unique, tt, overflow)
            wrapped |= add_count(&total, sub, 1 if unique else mv.routes)
    list_drop(&ml)
    if wrapped:
        overflow[0] |= OVERFLOW_WRAP
    if tt != NULL and not overflow[0]:
        tt_store(tt, slot, p.pieces[0], bw, kw, p.turn, depth, total)
    return total
