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
from ..playouts cimport (Config, Chunk, OUT_OF_MEMORY, OVERFLOW, mix, next_random,
                         grow_history)
from ..draws cimport (DrawState, draws_after, draw_rule, T_NONE, T_NO_MOVES, T_REPETITION,
                      T_CROWNED)


# --- the end of the game, as BoardCore._termination and outcome(claim_draw) ------------------

cdef inline bint same(const Position *a, const Position *b) noexcept nogil:
    return (a.pieces[0] == b.pieces[0] and a.pieces[1] == b.pieces[1] and a.kings == b.kings
            and a.turn == b.turn and a.run == b.run)


cdef bint third_time(const Position *p, const Position *hist, int nh, int halfmove) noexcept nogil:
    # the position is here for the third time: positions an even number of plies back have
    # the same side to move, and none before the last irreversible move can be the same
    cdef int count = 1
    cdef int back = 2
    cdef int window = halfmove if halfmove < nh else nh
    while back <= window:
        if same(&hist[nh - back], p):
            count += 1
            if count >= 3:
                return True
        back += 2
    return False


cdef bint repetition_ahead(const Position *p, int halfmove, const MoveList *ml,
                           const Position *hist, int nh) noexcept nogil:
    # a king's quiet move would make a position occur for the third time (WCDF's claim)
    cdef Position child
    cdef int i, count, back
    for i in range(ml.n):
        if ml.moves[i].captured or not (p.kings >> ml.moves[i].frm) & 1:
            continue
        make_move(&child, p, &ml.moves[i])
        count = 1
        back = 1
        while back <= halfmove + 1 and back <= nh:
            if same(&hist[nh - back], &child):
                count += 1
                if count >= 3:
                    return True
            back += 2
    return False


cdef int draw_termination(const Config *cf, const Position *p, const DrawState *d,
                          bint capture, MoveList *ml, const Position *hist, int nh) noexcept nogil:
    """The draw that ends the game at `p` (which has a legal move), or T_NONE.  A position
    repeats only after 4 reversible plies, and a repetition ahead needs 2 and a quiet king move
    (the loops would find nothing sooner)."""
    cdef int code
    if not (cf.skip >> T_REPETITION) & 1 and d.halfmove >= 4 and \
            third_time(p, hist, nh, d.halfmove):
        return T_REPETITION
    code = draw_rule(d, p, &cf.rules, cf.skip)
    if code == T_NONE and cf.ahead and not capture and d.halfmove >= 2:
        ops_moves(p, ml)
        if repetition_ahead(p, d.halfmove, ml, hist, nh):
            return T_REPETITION
    return code


cdef inline int termination(const Config *cf, const Position *p, const DrawState *d, int n,
                            bint capture, MoveList *ml, const Position *hist,
                            int nh) noexcept nogil:
    """The rule that ends the game at `p` (T_NONE: it goes on), `n` being its number of legal
    moves, as BoardCore._termination (and outcome(claim_draw=True) with `cf.ahead`)."""
    cdef u64 white = p.pieces[WHITE], black = p.pieces[BLACK]
    if cf.rules.crowning_wins and p.kings & p.pieces[p.turn ^ 1]:
        return T_CROWNED        # breakthrough: the side that just moved has crowned a king
    if n == 0:
        return T_NO_MOVES
    if d.halfmove < cf.window and d.road < 0 and d.few < 0 and (
            not cf.endgame or not p.kings or
            (white & (white - 1) and black & (black - 1) and popcount(white | black) > 7)):
        # Most plies of most games: no rule of draws.pxd can hold.  A repetition needs 4
        # reversible plies (a claim ahead 2), the kings-only and no-progress limits their
        # counts, 7.2.7/6.3 and 7.2.8/6.4 a running count, 7.2.4 a lone king and 7.2.6 kings on
        # both sides and 7 pieces or fewer.  test_playouts replays the games on a Board, which asks
        # every rule every ply.
        return T_NONE
    return draw_termination(cf, p, d, capture, ml, hist, nh)


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
    cdef Position both[2]
    cdef Position *pos = &both[0]
    cdef Position *after = &both[1]
    cdef Position *swap
    cdef DrawState d = cf.start_draws
    cdef MoveList *ml = ch.ml
    cdef Move drawn
    cdef u64 rnd
    cdef const Move *m
    # (never 0: xorshift would stay there)
    cdef u64 rng = mix(cf.seed + mix(<u64>game + 0x632BE59BD9B4E019ULL)) | 1
    cdef int64_t ply = 0
    cdef int nh = cf.nprefix
    cdef int code, choice, winner, n
    cdef bint listed
    both[0] = cf.start
    if nh >= ch.cap_hist and not grow_history(ch, nh + 1):
        ch.error = OUT_OF_MEMORY
        return
    if nh:          # (no prefix may mean no buffer: memcpy's pointers must be real ones)
        memcpy(ch.hist, cf.prefix, nh * sizeof(Position))
    while True:
        # one random number a ply, drawn before the moves are known: the move it picks (a quiet
        # move or a single jump) is made in the same pass that counts the moves; on the last
        # ply, the game over, the move made is not played
        rnd = next_random(&rng)
        n = pick(pos, rnd, &drawn)
        listed = n < 0
        if listed:
            ops_moves(pos, ml)
            if ml.overflow:
                ch.error = OVERFLOW
                return
            n = ml.n
            code = termination(cf, pos, &d, n, True, ml, ch.hist, nh)
        else:
            code = termination(cf, pos, &d, n, n > 0 and drawn.captured != 0, ml, ch.hist, nh)
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
                return
        make_move(after, pos, m)
        draws_after(&d, pos, m, after, &cf.rules)
        if d.halfmove == 0:
            # an irreversible move: the rules look back at most halfmove + 1 plies
            ch.hist[0] = pos[0]
            nh = 1
        else:
            if nh == ch.cap_hist and not grow_history(ch, nh + 1):
                ch.error = OUT_OF_MEMORY
                return
            ch.hist[nh] = pos[0]
            nh += 1
        swap = pos
        pos = after
        after = swap
        ply += 1
    if code == T_NO_MOVES or code == T_CROWNED:
        winner = pos.turn if cf.reversed_goal and code == T_NO_MOVES else pos.turn ^ 1
        cf.results[game] = 1 if winner == WHITE else -1
    else:
        cf.results[game] = 0
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
