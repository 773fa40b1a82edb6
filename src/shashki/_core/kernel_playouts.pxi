# Random games in one game's kernel (included by kernel.pxi): a move drawn without listing the
# moves where that is cheaper (pick), and the loop of shashki.playouts that plays the games to
# their end (play).

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
    jump when every capture is one); -1 when the captures must be listed (gen_moves), and on
    a full board, where the draws below (two forward steps, diagonal rays) do not apply."""
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
    if not K_DARK:
        return -1
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


# --- the games played to their end (play) -------------------------------------------------------
# Random games played to their end: the loop of shashki.playouts, compiled into every kernel
# (kernel.pxi includes this file), so that the moves are drawn by the game's own inline code,
# its rules constants to the compiler, with no call through a table a ply.  playouts.pyx is the
# Python edge: it fills the Config (playouts.pxd) and calls KernelOps.play once per chunk.
#
# Each game starts from the same Board position (with its history, so repetitions count across
# the start), chooses every move uniformly among the legal moves, and ends where Board.outcome
# would end it: no legal move, or a draw rule of the game (draws.pxd, the one implementation the
# Board and the search use), claims included when `claim_draw` is set, in the order
# Board._termination applies them.
#
# The side to move's moves are drawn without listing them where that is cheaper (pick): the quiet
# moves are counted and only the one drawn is made, and so are the captures when each is one
# man's single jump; the moves are listed only for the other captures.

from libc.stdint cimport int64_t, int32_t
from libc.string cimport memcpy
from ..playouts cimport Config, Chunk, OUT_OF_MEMORY, OVERFLOW, mix, next_random
from ..draws cimport GameState, history_reserve, state_after, step_end, winner_of
from ..enums cimport T_NONE, T_NO_MOVES, T_THREEFOLD_REPETITION, T_KING_CROWNED


# --- one game ------------------------------------------------------------------------------------

cdef void play_game(const Config *shared, Chunk *ch, int64_t game) noexcept nogil:
    # Game i draws its moves from its own random stream, seeded by (seed, i): the games do not
    # depend on how they are shared out among threads.
    # The configuration on the stack: the compiler then knows that no store to the history or
    # the records changes it, and keeps its fields in registers.
    cdef Config local = shared[0]
    cdef const Config *cf = &local
    # two positions, the current one and the next, swapped by pointer: copying the one just
    # written field by field as a whole struct would stall on store forwarding every ply
    cdef Pos both[2]
    cdef Pos *pos = &both[0]
    cdef Pos *after = &both[1]
    cdef Pos *swap
    cdef MoveList *ml = ch.ml
    cdef Move drawn
    cdef u64 rnd
    cdef const Move *m
    # (never 0: xorshift would stay there)
    cdef u64 rng = mix(cf.seed + mix(<u64>game + 0x632BE59BD9B4E019ULL)) | 1
    cdef int64_t ply = 0
    # the game's state: the draw counters, and the chunk's history on the stack while the
    # game is played (its count in a register)
    cdef GameState st
    cdef int code, choice, winner, n
    cdef bint listed
    both[0] = cf.start
    st.draws = cf.start_draws
    st.hist = ch.hist
    if not history_reserve(&st.hist, cf.nprefix + 1):
        ch.error = OUT_OF_MEMORY
        return                          # (st.hist is ch.hist still: nothing to give back)
    st.hist.n = cf.nprefix
    if st.hist.n:   # (no prefix may mean no buffer: memcpy's pointers must be real ones)
        memcpy(st.hist.pos, cf.prefix, st.hist.n * sizeof(Pos))
    while True:
        # one random number a ply, drawn before the moves are known: the move it picks (a quiet
        # move or a single jump) is made in the same pass that counts the moves; on the last
        # ply, the game over, the move made is not played
        rnd = next_random(&rng)
        n = pick(pos, rnd, &drawn)
        listed = n < 0
        if listed:
            list_drop(ml)
            ops_moves(pos, ml)
            if ml.overflow:
                ch.error = OUT_OF_MEMORY    # (a list grows past MAXMOVES while it can)
                break
            n = ml.n
            code = step_end(&cf.step, pos, &st, n, n > 0 and ml.moves[0].ncapt == 0, ml, True)
        else:
            code = step_end(&cf.step, pos, &st, n, n > 0 and drawn.captured == 0, ml, True)
        if code != T_NONE or ply == cf.max_plies:
            break
        if listed:
            choice = random_below(rnd, n)
            m = &ml.moves[choice]
        else:
            choice = -1                 # (drawn, not listed)
            m = &drawn
        if cf.record:
            cf.record_ply(cf, ch, pos, ml, m, choice)
            if ch.error:
                break
        make_move(after, pos, m)
        if not state_after(&st, pos, m, after, &cf.step.rules):
            ch.error = OUT_OF_MEMORY
            break
        swap = pos
        pos = after
        after = swap
        ply += 1
    ch.hist = st.hist                   # (the one write-back: the history may have grown)
    if ch.error:
        return
    winner = winner_of(code, pos, cf.reversed_goal) if code != T_NONE else -1
    cf.results[game] = 1 if winner == WHITE else -1 if winner == BLACK else 0
    cf.lengths[game] = <int32_t>ply
    cf.terminations[game] = <uint8_t>code


cdef void ops_play(const void *config, void *chunk) noexcept nogil:
    cdef const Config *cf = <const Config *>config
    cdef Chunk *ch = <Chunk *>chunk
    cdef int64_t g
    for g in range(ch.first, ch.last):
        play_game(cf, ch, g)
        if ch.error:
            return
