# The actions of a position's quiet moves straight from the bitboards (included by kernel.pxi),
# for shashki.rl's vector env.
#
# A vector env step must hand out every legal action of every env, ascending (its
# legal_actions rows, and the mask).  Listing the moves (gen_moves) writes a 32-byte Move per
# move, which the env then numbers and sorts, to keep one of them.  Most positions have no
# capture, and a quiet move is all in its action (origin * squares + destination): here the
# pieces that can move are taken in the order of their squares as the side to move sees them,
# and each one's destinations likewise, so the actions come out ascending with no list and no
# sort; the env makes the chosen move from its action.  Whether the side must capture is
# perft's test (capturers); the steps and rays are those of the move generator.

cdef int VIEW[2][64]        # bit -> its square as White sees the board (0) and as Black does (1)
cdef int _v
for _v in range(64):
    VIEW[0][_v] = VIEW[1][_v] = -1
for _v in range(K_SQUARES):
    VIEW[0][K_BITS[_v]] = _v
    VIEW[1][K_BITS[_v]] = K_SQUARES - 1 - _v


cdef inline int take_bit(u64 *m, bint down) noexcept nogil:
    # the lowest set bit of *m (the highest with `down`), cleared from it
    cdef int b = msb(m[0]) if down else ctz(m[0])
    m[0] ^= (<u64>1) << b
    return b


cdef inline u64 king_reach(u64 king, u64 empty) noexcept nogil:
    # the squares one king's quiet moves reach, every direction (flying: the whole ray)
    if K_FLYING:
        return (ray_fill(king, empty, 0) | ray_fill(king, empty, 1) | ray_fill(king, empty, 2) |
                ray_fill(king, empty, 3)) & ~king
    return (sh(king, 0) | sh(king, 1) | sh(king, 2) | sh(king, 3)) & empty


cdef inline u64 men_steps(Side *s, u64 men, u64 empty, int d) noexcept nogil:
    # the squares `men` step to in direction d, where this side's men move that way
    return sh(men, d) & empty if forward(s, d) else 0


cdef inline int quiet_actions_side(Side *s, u64 w, u64 b, u64 k, u64 locked, bint flip,
                                   int32_t *out) noexcept nogil:
    cdef u64 own = own_of(s, w, b)
    cdef u64 men = own & ~k
    cdef u64 kings = own & k & ~locked
    cdef u64 empty = K_BOARD & ~(w | b)
    cdef u64 movers, reach, one
    cdef const int *view = VIEW[flip]
    cdef int n = 0
    cdef int frm, base
    if capturers(s, w, b, k):
        return -1
    # the men that can step (back from where they step to), and the kings
    movers = (sh(men_steps(s, men, empty, 0), 3) | sh(men_steps(s, men, empty, 1), 2) |
              sh(men_steps(s, men, empty, 2), 1) | sh(men_steps(s, men, empty, 3), 0) | kings)
    while movers:
        # seen from Black's side the squares run the other way: the highest bit first
        frm = take_bit(&movers, flip)
        one = (<u64>1) << frm
        if one & kings:
            reach = king_reach(one, empty)
        else:
            reach = (men_steps(s, one, empty, 0) | men_steps(s, one, empty, 1) |
                     men_steps(s, one, empty, 2) | men_steps(s, one, empty, 3))
        base = view[frm] * K_SQUARES
        while reach:
            out[n] = base + view[take_bit(&reach, flip)]
            n += 1
    return n


cdef int ops_quiet_actions(const Pos *p, bint flip, int32_t *out) noexcept nogil:
    cdef u64 lk = locked_king(p) if K_KING_LIMIT else 0
    if p.turn == WHITE:
        return quiet_actions_side(<White *>NULL, p.pieces[0], p.pieces[1], p.kings, lk, flip,
                                  out)
    return quiet_actions_side(<Black *>NULL, p.pieces[0], p.pieces[1], p.kings, lk, flip, out)
