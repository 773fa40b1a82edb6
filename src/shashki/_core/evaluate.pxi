# The evaluation of the search (included by search.pyx): a sum of weighted terms, tapered
# between a middlegame and an endgame weight by the number of pieces on the board.
#
# Every term is written from the board's geometry as the kernel gives it (KernelOps: its squares,
# files, directions and men's directions), not from 8x8 literals: the square tables have one
# entry per playable square, seen from the side that owns the piece (a square of Black's is
# turned half round, square s -> N - 1 - s), and the masks below (cones, the squares behind a
# man, the opposition's system) are computed when a Searcher is made.
#
# The same function computes the terms' values (for the tuner, shashki.tuner) and the score,
# so what is tuned is exactly what is searched.

cdef enum:
    NSQMAX = 64             # playable squares of the largest board (turkish: every square)
    # the terms; each has a middlegame and an endgame weight
    F_MAN = 0               # men
    F_KING = 1              # kings
    F_TEMPO = 2             # 1 for the side to move
    F_RUNAWAY = 3           # men no piece of the other side can stop (their cone is clear,
                            # and the other side has no king)
    F_RUNAWAY_ROW = 4       # the rows those men have advanced
    F_KING_MOBILITY = 5     # squares the kings can move to
    F_KING_TRAPPED = 6      # kings that cannot move
    F_MAN_MOBILITY = 7      # quiet moves of the men
    F_MAN_BLOCKED = 8       # men that cannot move forward
    F_SUPPORTED = 9         # men with both squares behind them held (or off the board)
    F_THREAT = 10           # the side not to move threatens a capture
    F_FIRST_KING = 11       # a side has a king and the other has none
    F_OPPOSITION = 12       # equal numbers in an ending: +1 when the side to move has "the
                            # move" by the count of its system (english), else -1
    F_KING_MAIN_ROAD = 13   # kings on the long diagonal
    F_MAN_CENTRE_HOLD = 14  # men on the centre squares with a man behind them
    F_SPARE = 15
    PST_MAN = 16            # one weight per square for a man, from its owner's side
    PST_KING = PST_MAN + NSQMAX
    NFEATURES = PST_KING + NSQMAX

FEATURE_NAMES = (["man", "king", "tempo", "runaway", "runaway_row", "king_mobility",
                  "king_trapped", "man_mobility", "man_blocked", "supported", "threat",
                  "first_king", "opposition", "king_main_road", "man_centre_hold", "spare"]
                 + [f"pst_man_{i}" for i in range(NSQMAX)]
                 + [f"pst_king_{i}" for i in range(NSQMAX)])


ctypedef struct Eval:
    int w[2][NFEATURES]     # [0]: middlegame weights, [1]: endgame weights
    int reversed            # giveaway: losing pieces is the goal (the weights say how much)
    int flying              # kings move any distance
    int rows
    int nsq
    int maxph               # pieces at the start: the phase is pieces on the board / maxph
    int opp_pieces          # the opposition term counts with this many pieces or fewer
    u64 board
    u64 centre              # the middle squares (the middle two rows, less the edges)
    u64 main_road           # the long diagonal from White's left corner
    u64 system[2]           # the squares of each side's system (english "move" count)
    int men_dirs[2]         # the directions a man of each colour moves in (bit d)
    int forward[2]          # those that take it a row forward (not sideways, in turkish)
    int8_t rel_sq[2][64]    # ghost bit -> square seen from White's / Black's side, -1 ghost
    int8_t rel_row[2][64]
    u64 cone[2][64]         # the squares ahead of a man that could stop it
    u64 behind[2][64]       # the squares behind a man (on the board) that support it


cdef void init_geometry(Eval *ev, const KernelOps *ops, bint flying) noexcept nogil:
    cdef int W = ops.width
    cdef int R = ops.rows
    cdef int F = ops.files
    cdef int s, s2, g, g2, row, file, row2, file2, c, rel, d
    ev.rows = R
    ev.nsq = ops.squares
    ev.flying = flying
    ev.board = ops.board
    ev.maxph = 2 * ops.max_pieces
    ev.opp_pieces = (ev.maxph * 5) // 12
    ev.centre = 0
    ev.main_road = 0
    ev.system[0] = 0
    ev.system[1] = 0
    for c in range(2):
        ev.men_dirs[c] = ops.men[c]
        ev.forward[c] = 0
        for d in range(4):
            # a direction is forward when a step along it leaves the row
            if (ops.men[c] >> d) & 1 and (ops.shift[d] >= W or ops.shift[d] <= -W):
                ev.forward[c] |= 1 << d
    for g in range(64):
        for c in range(2):
            ev.rel_sq[c][g] = -1
            ev.rel_row[c][g] = -1
            ev.cone[c][g] = 0
            ev.behind[c][g] = 0
    for s in range(ev.nsq):
        row = s // W
        g = ops.bit[s]
        file = ops.file[s]
        ev.rel_sq[0][g] = <int8_t>s
        ev.rel_sq[1][g] = <int8_t>(ev.nsq - 1 - s)
        ev.rel_row[0][g] = <int8_t>row
        ev.rel_row[1][g] = <int8_t>(R - 1 - row)
        if (R // 2 - 1 <= row <= R // 2) and 0 < file < F - 1:
            ev.centre |= (<u64>1) << g
        if file == row:
            ev.main_road |= (<u64>1) << g
        # each side's system: the files of even number seen from its own side
        if file % 2 == 0:
            ev.system[0] |= (<u64>1) << g
        if (F - 1 - file) % 2 == 0:
            ev.system[1] |= (<u64>1) << g
        for c in range(2):
            for d in range(4):
                if (ev.forward[c] >> d) & 1:
                    ev.behind[c][g] |= step_dir(ops, (<u64>1) << g, 3 - d) & ops.board
        for s2 in range(ev.nsq):
            row2 = s2 // W
            file2 = ops.file[s2]
            g2 = ops.bit[s2]
            for c in range(2):
                rel = row2 - row if c == WHITE else row - row2
                if rel > 0 and abs(file2 - file) <= rel:
                    ev.cone[c][g] |= (<u64>1) << g2


cdef inline int reversed_dirs(int dirs) noexcept nogil:
    # the directions 3 - d of those of `dirs` (bit d)
    return ((dirs & 1) << 3) | ((dirs & 2) << 1) | ((dirs & 4) >> 1) | ((dirs & 8) >> 3)


cdef inline u64 along(const KernelOps *ops, u64 b, int dirs) noexcept nogil:
    # every square one step from `b` in one of the directions of `dirs` (bit d)
    cdef u64 out = 0
    cdef int d
    for d in range(4):
        if (dirs >> d) & 1:
            out |= step_dir(ops, b, d)
    return out


cdef inline void term(const Eval *ev, int i, int v, int *mg, int *eg, int *f) noexcept nogil:
    mg[0] += ev.w[0][i] * v
    eg[0] += ev.w[1][i] * v
    if f != NULL:
        f[i] += v


cdef void side_terms(const Eval *ev, const KernelOps *ops, const Pos *p, int c, int sign,
                     int *mg, int *eg, int *f) noexcept nogil:
    """The terms of the pieces of colour `c`, added with `sign` (+1 the side to move)."""
    cdef u64 own = p.pieces[c]
    cdef u64 opp = p.pieces[c ^ 1]
    cdef u64 men = own & ~p.kings
    cdef u64 kings = own & p.kings
    cdef u64 empty = ev.board & ~(own | opp)
    cdef u64 b, t, held, support
    cdef int g, d, mob, n, supported = 0, runaway = 0, runrow = 0, trapped = 0, kmob = 0
    term(ev, F_MAN, sign * popcount(men), mg, eg, f)
    term(ev, F_KING, sign * popcount(kings), mg, eg, f)
    b = men
    while b:
        g = ctz(b)
        b &= b - 1
        term(ev, PST_MAN + ev.rel_sq[c][g], sign, mg, eg, f)
        # supported: every square behind it (on the board) held by its own side
        support = ev.behind[c][g]
        supported += (own & support) == support
        if not (opp & p.kings) and not (ev.cone[c][g] & opp):
            runaway += 1
            runrow += ev.rel_row[c][g]
    if runaway:
        term(ev, F_RUNAWAY, sign * runaway, mg, eg, f)
        term(ev, F_RUNAWAY_ROW, sign * runrow, mg, eg, f)
    b = kings
    while b:
        g = ctz(b)
        b &= b - 1
        term(ev, PST_KING + ev.rel_sq[c][g], sign, mg, eg, f)
        mob = 0
        for d in range(4):
            t = step_dir(ops, (<u64>1) << g, d)
            while t & empty:
                mob += 1
                if not ev.flying:
                    break
                t = step_dir(ops, t, d)
        kmob += mob
        if mob == 0:
            trapped += 1
    if kings:
        term(ev, F_KING_MOBILITY, sign * kmob, mg, eg, f)
        term(ev, F_KING_TRAPPED, sign * trapped, mg, eg, f)
        term(ev, F_KING_MAIN_ROAD, sign * popcount(kings & ev.main_road), mg, eg, f)
    if men:
        # the men's quiet moves: each direction's steps counted apart
        n = 0
        for d in range(4):
            if (ev.men_dirs[c] >> d) & 1:
                n += popcount(step_dir(ops, men, d) & empty)
        term(ev, F_MAN_MOBILITY, sign * n, mg, eg, f)
        # blocked: no empty square in any of its directions (the empty squares stepped back)
        n = popcount(men & ~along(ops, empty, reversed_dirs(ev.men_dirs[c])))
        term(ev, F_MAN_BLOCKED, sign * n, mg, eg, f)
        term(ev, F_SUPPORTED, sign * supported, mg, eg, f)
        # centre hold: a man on the centre with a man on every square behind it (the men
        # stepped forward land on the squares they hold from behind)
        held = men & ev.centre
        for d in range(4):
            if (ev.forward[c] >> d) & 1:
                held &= step_dir(ops, men, d)
        term(ev, F_MAN_CENTRE_HOLD, sign * popcount(held), mg, eg, f)


cdef int eval_terms(const Eval *ev, const KernelOps *ops, const Pos *p,
                    int *f) noexcept nogil:
    """The evaluation of `p` from the side to move; with `f` not NULL, each term's value is
    added to f[term] (f has NFEATURES entries, zeroed by the caller)."""
    cdef int us = p.turn
    cdef int them = us ^ 1
    cdef int mg = 0, eg = 0, ph, n, k_us, k_them
    cdef Pos q
    cdef u64 all_ = p.pieces[0] | p.pieces[1]
    side_terms(ev, ops, p, us, 1, &mg, &eg, f)
    side_terms(ev, ops, p, them, -1, &mg, &eg, f)
    term(ev, F_TEMPO, 1, &mg, &eg, f)
    q = p[0]
    q.turn = them
    if ops.must_capture(&q):
        term(ev, F_THREAT, 1, &mg, &eg, f)
    k_us = popcount(p.pieces[us] & p.kings)
    k_them = popcount(p.pieces[them] & p.kings)
    if (k_us > 0) != (k_them > 0):
        term(ev, F_FIRST_KING, 1 if k_us else -1, &mg, &eg, f)
    n = popcount(all_)
    if n <= ev.opp_pieces and popcount(p.pieces[us]) == popcount(p.pieces[them]):
        term(ev, F_OPPOSITION, 1 if popcount(all_ & ev.system[us]) & 1 else -1, &mg, &eg, f)
    ph = n if n < ev.maxph else ev.maxph
    return (mg * ph + eg * (ev.maxph - ph)) // ev.maxph


cdef inline int phase_of(const Eval *ev, const Pos *p) noexcept nogil:
    cdef int n = popcount(p.pieces[0] | p.pieces[1])
    return n if n < ev.maxph else ev.maxph
