# The draw rules of every game, in C: one implementation, used by Board.outcome() and by the
# search (shashki/outcome.py and docs/games/draws.md state the rules and their readings).
#
# The counters count plies.  Counts in the rule books are moves of EACH side: "15 moves" is 30
# plies.  A rule book's limit "by the stronger side's Nth move" counts that side's moves only.

from cpython.mem cimport PyMem_RawRealloc, PyMem_RawFree
from .bits cimport u64, popcount
from .kernel cimport Pos, Move, MoveList, make_move, same_pos, list_drop
from .enums cimport (T_NONE, T_NO_MOVES, T_THREEFOLD_REPETITION, T_KINGS_ONLY_MOVES,
                     T_NO_PROGRESS, T_KINGS_VS_LONE_KING, T_BALANCE_UNCHANGED,
                     T_LONE_KING_ON_MAIN_ROAD, T_FEW_PIECES_VS_LONE_KING,
                     T_THREE_PIECES_VS_LONE_KING, T_KING_CROWNED, T_TWO_KINGS_VS_KING,
                     T_KING_VS_KING, T_ONE_PIECE_EACH)

ctypedef struct DrawRules:
    # The limits come from the game's record (shashki.variants: kings_only_limit,
    # no_progress_limit, EndgameDraws); 0 means the game has no such rule.
    int kings_only_plies        # plies of kings-only moves before a draw
    int no_progress_plies       # plies with no man move and no capture (english)
    int lone_king_moves         # 7.2.4: moves of the stronger side with 3 kings against 1
    int balance_plies[2]        # 7.2.6: with 4-5 pieces, with 6-7 pieces on the board
    int three_moves             # 7.2.7 / 6.3: three pieces (a king among them) against 1
    bint three_on_road          # 7.2.7: only while the lone king is on the main road
    int few_moves               # 7.2.8 / 6.4: two pieces or fewer (a king among them)
    bint each_side              # the limits count the moves of each side, not the stronger's
    bint crowning_wins          # breakthrough
    u64 main_road               # the long diagonal a1-h8 (ghost layout), for 7.2.7
    # frisian: only kings on the board, two against one (plies of 7 moves each) and one
    # against one (2 moves each); counted in DrawState.few from when the configuration arose,
    # afresh after a capture
    int two_kings_plies
    int king_pair_plies
    # turkish: one piece against one piece, kings or men, is drawn at once
    bint one_piece_each
    # turkish: men also step sideways, and a sideways step can be undone; the kernel's bits per
    # row of its full board (bit = square), so a step within a row is told from one forward.
    # 0: men only step forward, and every man move is irreversible
    int sideways_row

ctypedef struct DrawState:
    int halfmove        # plies since the last irreversible move: a capture or a man's step
                        # forward (turkish men step sideways too, and that can be undone)
    int balance         # plies since the balance of forces changed: the last capture or promotion
    int road            # plies the 7.2.7 configuration has held without a break, -1: it does not
    int few             # the same for 7.2.8


cdef inline bint lone_king(u64 weak, u64 kings) noexcept nogil:
    return weak != 0 and (weak & (weak - 1)) == 0 and (weak & kings) != 0


cdef inline void configurations(const Pos *p, const DrawRules *r, bint *road,
                                bint *few) noexcept nogil:
    """Whether 7.2.7 / 6.3 (three pieces, one a king, against a lone king, on the main road
    where the rule says so) and 7.2.8 / 6.4 (two pieces or fewer, one a king, against a lone
    king) hold."""
    cdef int c, count
    cdef u64 strong, weak
    road[0] = False
    few[0] = False
    if popcount(p.pieces[0] | p.pieces[1]) > 4:
        return
    if r.two_kings_plies or r.king_pair_plies:
        # frisian: kings only, two against one or one against one
        count = popcount(p.pieces[0] | p.pieces[1])
        few[0] = ((p.pieces[0] | p.pieces[1]) & ~p.kings) == 0 and p.pieces[0] != 0 and \
            p.pieces[1] != 0 and (count == 2 or count == 3)
        return
    for c in range(2):
        strong = p.pieces[c]
        weak = p.pieces[c ^ 1]
        if not (lone_king(weak, p.kings) and strong & p.kings):
            continue
        count = popcount(strong)
        if count == 3 and (weak & r.main_road or not r.three_on_road):
            road[0] = True
        elif count <= 2:
            few[0] = True


cdef inline void draws_start(DrawState *d, const Pos *p, const DrawRules *r) noexcept nogil:
    """The counters of a set-up position: every count starts there."""
    cdef bint road = False, few = False
    if r.three_moves or r.few_moves or r.two_kings_plies or r.king_pair_plies:
        configurations(p, r, &road, &few)
    d.halfmove = 0
    d.balance = 0
    d.road = 0 if road else -1
    d.few = 0 if few else -1


cdef inline bint reversible(const Pos *before, const Move *m, const DrawRules *r) noexcept nogil:
    """Whether a later move could undo `m`, played from `before`: a king's quiet move, or
    (turkish) a man's sideways step.  A capture, and a man's step forward, never come back, so
    no position before them can occur again."""
    if m.captured:
        return False
    if (before.kings >> m.frm) & 1:
        return True
    return r.sideways_row != 0 and m.frm // r.sideways_row == m.to // r.sideways_row


cdef inline void draws_after(DrawState *d, const Pos *before, const Move *m,
                             const Pos *after, const DrawRules *r) noexcept nogil:
    """Update `d` (the counters of `before`) for `m`, which led to `after`."""
    cdef bint road, few
    if m.captured:
        d.halfmove = 0
        d.balance = 0
    else:
        d.halfmove = d.halfmove + 1 if reversible(before, m, r) else 0
        d.balance = 0 if m.promote else d.balance + 1
    if (r.three_moves or r.few_moves or r.two_kings_plies or r.king_pair_plies) and \
            popcount(after.pieces[0] | after.pieces[1]) <= 4:
        configurations(after, r, &road, &few)
        # 7.2.7 and 7.2.8 count from when their configuration arose and go on through changes
        # inside it (a man of the stronger side crowned, a piece of it taken): the rule names
        # the configuration, not one balance of forces.  Frisian's two rules are two
        # configurations: a capture (two kings against one becoming one against one) starts
        # the count again
        d.road = (d.road + 1 if d.road >= 0 else 0) if road else -1
        d.few = (d.few + 1 if d.few >= 0 and not (m.captured and (r.two_kings_plies or
                                                                  r.king_pair_plies)) else 0) \
            if few else -1
    else:
        d.road = -1
        d.few = -1


cdef inline int moves_of(int color, int plies, int turn) noexcept nogil:
    # how many of the last `plies` plies `color` made, `turn` being to move now
    return (plies + 1) // 2 if color != turn else plies // 2


cdef inline bint stronger_made(const Pos *p, const DrawRules *r, int plies,
                               int moves) noexcept nogil:
    """Whether a side whose opponent is down to a lone king has made `moves` moves in the last
    `plies` plies (in king against king each side is the stronger one); with `each_side`,
    whether each side has made them."""
    cdef int c
    if r.each_side:
        return plies >= 2 * moves
    for c in range(2):
        if p.pieces[c] and lone_king(p.pieces[c ^ 1], p.kings) and \
                moves_of(c, plies, p.turn) >= moves:
            return True
    return False


cdef inline int draw_rule(const DrawState *d, const Pos *p, const DrawRules *r,
                          int skip) noexcept nogil:
    """The first draw rule after the repetition rule, in the order of the articles, that holds
    at `p`, or T_NONE; rules whose bit (1 << termination) is in `skip` are passed over (the
    claims a player has not made)."""
    cdef int c, pieces
    if r.lone_king_moves and not (skip >> T_KINGS_VS_LONE_KING) & 1:
        # 7.2.4: three kings (or more) against a lone king; the stronger side may have men too
        for c in range(2):
            if lone_king(p.pieces[c ^ 1], p.kings) and popcount(p.pieces[c] & p.kings) >= 3 \
                    and moves_of(c, d.balance, p.turn) >= r.lone_king_moves:
                return T_KINGS_VS_LONE_KING
    if r.kings_only_plies and d.halfmove >= r.kings_only_plies and \
            not (skip >> T_KINGS_ONLY_MOVES) & 1:
        return T_KINGS_ONLY_MOVES
    if r.balance_plies[0] and p.pieces[0] & p.kings and p.pieces[1] & p.kings and \
            not (skip >> T_BALANCE_UNCHANGED) & 1:
        pieces = popcount(p.pieces[0] | p.pieces[1])
        if (4 <= pieces <= 5 and d.balance >= r.balance_plies[0]) or \
                (6 <= pieces <= 7 and d.balance >= r.balance_plies[1]):
            return T_BALANCE_UNCHANGED
    if r.three_moves and d.road >= 0 and stronger_made(p, r, d.road, r.three_moves) and \
            not (skip >> (T_LONE_KING_ON_MAIN_ROAD if r.three_on_road else T_THREE_PIECES_VS_LONE_KING)) & 1:
        return T_LONE_KING_ON_MAIN_ROAD if r.three_on_road else T_THREE_PIECES_VS_LONE_KING
    if r.few_moves and d.few >= 0 and stronger_made(p, r, d.few, r.few_moves) and \
            not (skip >> T_FEW_PIECES_VS_LONE_KING) & 1:
        return T_FEW_PIECES_VS_LONE_KING
    if r.no_progress_plies and d.halfmove >= r.no_progress_plies and \
            not (skip >> T_NO_PROGRESS) & 1:
        return T_NO_PROGRESS
    if (r.two_kings_plies or r.king_pair_plies) and d.few >= 0:
        pieces = popcount(p.pieces[0] | p.pieces[1])
        if pieces == 3 and r.two_kings_plies and d.few >= r.two_kings_plies and \
                not (skip >> T_TWO_KINGS_VS_KING) & 1:
            return T_TWO_KINGS_VS_KING
        if pieces == 2 and r.king_pair_plies and d.few >= r.king_pair_plies and \
                not (skip >> T_KING_VS_KING) & 1:
            return T_KING_VS_KING
    if r.one_piece_each and popcount(p.pieces[0]) == 1 and popcount(p.pieces[1]) == 1 and \
            not (skip >> T_ONE_PIECE_EACH) & 1:
        return T_ONE_PIECE_EACH
    return T_NONE


# --- the history a game keeps for the rules that look back -------------------------------------
# A History holds the positions before the last plies, the latest last, since the last
# irreversible move at least: all that repetitions look at (GameState, below).

ctypedef struct History:
    Pos *pos                # `cap` positions of room, on the raw heap (no GIL needed)
    int n
    int cap


cdef inline bint history_reserve(History *h, int need) noexcept nogil:
    """Room for `need` positions; False, `h` unchanged, when there is no memory."""
    cdef int cap = h.cap * 2 if h.cap else 64
    cdef void *a
    if need <= h.cap:
        return True
    while cap < need:
        cap *= 2
    a = PyMem_RawRealloc(h.pos, cap * sizeof(Pos))
    if a == NULL:
        return False
    h.pos = <Pos *>a
    h.cap = cap
    return True


cdef inline bint history_push(History *h, const Pos *p) noexcept nogil:
    """`p` added after the latest; False when there is no memory."""
    if h.n == h.cap and not history_reserve(h, h.n + 1):
        return False
    h.pos[h.n] = p[0]
    h.n += 1
    return True


cdef inline bint history_keep(History *h, const Pos *before, const DrawState *d) noexcept nogil:
    """After a ply from `before`, `d` being the counters after it: `before` added, or after an
    irreversible move (halfmove 0) kept alone, since the rules look back at most halfmove + 1
    plies.  False when there is no memory.  (A History that has room for one position: the
    first branch, the common one, needs no test of its room.)"""
    if d.halfmove == 0:
        h.pos[0] = before[0]
        h.n = 1
        return True
    return history_push(h, before)


cdef inline void history_free(History *h) noexcept nogil:
    PyMem_RawFree(h.pos)
    h.pos = NULL
    h.n = 0
    h.cap = 0


ctypedef struct GameState:
    # What the rules look back at, beside the position itself (Stockfish's StateInfo in
    # draughts form): the draw counters of the position now and the positions before it.  The
    # Board keeps one (every position of its game: it takes moves back), and so do the
    # playouts' games and the vector env's (since the last irreversible move: history_keep).
    DrawState draws
    History hist


cdef inline bint state_after(GameState *st, const Pos *before, const Move *m, const Pos *after,
                             const DrawRules *r) noexcept nogil:
    """The state of `after`, which `m` made from `before` (whose state `st` was); False when
    there is no memory for the history."""
    draws_after(&st.draws, before, m, after, r)
    return history_keep(&st.hist, before, &st.draws)


# --- repetitions, over such a history (`hist`: the `nh` positions before the last plies) ------

cdef inline int occurrences(const Pos *p, const Pos *hist, int nh, int halfmove,
                            int limit) noexcept nogil:
    """How many times `p` occurs now and in the history, counting up to `limit`: positions an
    even number of plies back have the same side to move, and none before the last
    irreversible move (`halfmove` plies back) can be the same."""
    cdef int count = 1
    cdef int back = 2
    cdef int window = halfmove if halfmove < nh else nh
    while back <= window:
        if same_pos(&hist[nh - back], p):
            count += 1
            if count >= limit:
                break
        back += 2
    return count


cdef inline bint third_time(const Pos *p, const Pos *hist, int nh, int halfmove) noexcept nogil:
    # the position is here for the third time
    return occurrences(p, hist, nh, halfmove, 3) >= 3


cdef inline bint repetition_ahead(const Pos *p, int halfmove, const Move *moves, int n,
                                  const Pos *hist, int nh, const DrawRules *r) noexcept nogil:
    # a reversible move among the `n` legal `moves` of `p` would make a position occur for the
    # third time (WCDF's claim, "with their next move they would create the same position for
    # the third time")
    cdef Pos child
    cdef int i, count, back
    for i in range(n):
        if not reversible(p, &moves[i], r):
            continue
        make_move(&child, p, &moves[i])
        count = 1
        back = 1        # the child is one ply after p
        while back <= halfmove + 1 and back <= nh:
            if same_pos(&hist[nh - back], &child):
                count += 1
                if count >= 3:
                    return True
            back += 2
    return False


# --- the end of a game: the one decider ---------------------------------------------------------
# Every end of a game is decided here: game_end for a Board (BoardCore._termination) and a
# Position (Game.outcome_at, over its history if given), step_end for the playouts and the
# vector env, which put their filter of the plies where no draw rule can hold (draw_filtered)
# between its two halves.

cdef inline int decisive_end(const Pos *p, const DrawRules *r, int nmoves) noexcept nogil:
    """T_KING_CROWNED (breakthrough: a side has a king), T_NO_MOVES (the side to move has no
    legal move, `nmoves` being its number of them, or a set-up leaves the side that has just
    moved no piece), or T_NONE.  winner_of says who has won."""
    if r.crowning_wins and p.kings:
        return T_KING_CROWNED
    if nmoves == 0 or not p.pieces[p.turn ^ 1]:
        return T_NO_MOVES
    return T_NONE


cdef inline int drawn_end(const Pos *p, const DrawRules *r, const DrawState *d, const Pos *hist,
                          int nh, int skip) noexcept nogil:
    """The draw that ends the game at `p` (a position with a legal move, not decided), or
    T_NONE: threefold repetition over the history (`hist`, `nh` positions before the last
    plies, the latest last), then draw_rule; draws whose bit is in `skip` passed over.  A
    position repeats only after 4 reversible plies (each side's move and its undoing)."""
    if not (skip >> T_THREEFOLD_REPETITION) & 1 and d.halfmove >= 4 and \
            third_time(p, hist, nh, d.halfmove):
        return T_THREEFOLD_REPETITION
    return draw_rule(d, p, r, skip)


cdef inline int draw_window(const DrawRules *r, int skip, bint ahead) noexcept nogil:
    """The halfmove clock below which no repetition or move limit can end a game (the
    playouts' and the vector env's filter before drawn_end): a repetition needs 4 reversible
    plies, a claim ahead (`ahead`) 2, the move limits their counts; a draw in `skip` (a claim
    not made) lowers it too, which only makes the filter safer."""
    cdef int window = 2 if ahead else 4 if not (skip >> T_THREEFOLD_REPETITION) & 1 else 1 << 30
    if 0 < r.kings_only_plies < window:
        window = r.kings_only_plies
    if 0 < r.no_progress_plies < window:
        window = r.no_progress_plies
    return window


cdef inline bint endgame_rules(const DrawRules *r) noexcept nogil:
    """Whether the game has endgame draw rules (7.2.4-7.2.8, 6.3, 6.4, turkish's one piece
    each), which the filter before drawn_end must then look at."""
    return (r.lone_king_moves != 0 or r.balance_plies[0] != 0 or r.balance_plies[1] != 0 or
            r.three_moves != 0 or r.few_moves != 0 or r.one_piece_each)


cdef inline bint draw_filtered(const Pos *p, const DrawRules *r, const DrawState *d, int window,
                               bint endgame) noexcept nogil:
    """Whether no draw rule can hold at `p`: the filter before drawn_end of the playouts and
    the vector env, true on most plies of most games.  A repetition needs 4 reversible plies (a
    claim ahead 2) and the kings-only and no-progress limits their counts (`window`:
    draw_window), 7.2.7/6.3 and 7.2.8/6.4 a running count, 7.2.4 a lone king, 7.2.6 kings on both
    sides and 7 pieces or fewer, turkish's one piece each a lone piece each (`endgame`:
    endgame_rules).  The playouts' tests replay their games on a Board, which asks every rule."""
    cdef u64 white = p.pieces[0], black = p.pieces[1]
    return d.halfmove < window and d.road < 0 and d.few < 0 and (
        not endgame or (not p.kings and not r.one_piece_each) or
        (white & (white - 1) and black & (black - 1) and popcount(white | black) > 7))


ctypedef struct StepRules:
    # How the games of a driver of steps end (the playouts, the vector env): the game's draw
    # rules, the claims made at once or not, the filter of the plies where no draw can hold.
    # Made by Game.step_rules, from the one Game of the driver.
    DrawRules rules
    int skip                # bits (1 << Termination) of the draws not granted: claims not made
    bint ahead              # a repetition may be claimed before the repeating move
    int window              # draw_window
    bint endgame            # endgame_rules
    void (*list_moves)(const Pos *p, MoveList *ml) noexcept nogil   # the game's kernel's
    # step_drawn, for a driver that calls it through this pointer to keep it out of line
    # (step_end's `in_line`)
    int (*drawn)(const StepRules *s, const Pos *p, const GameState *st, bint quiet,
                 MoveList *ml) noexcept nogil


cdef inline int step_drawn(const StepRules *s, const Pos *p, const GameState *st, bint quiet,
                           MoveList *ml) noexcept nogil:
    """step_end past its filter: the draws of the rules, and a repetition claimed ahead."""
    cdef const DrawState *d = &st.draws
    cdef int code = drawn_end(p, &s.rules, d, st.hist.pos, st.hist.n, s.skip)
    if code == T_NONE and s.ahead and quiet and d.halfmove >= 2:
        list_drop(ml)
        s.list_moves(p, ml)
        if repetition_ahead(p, d.halfmove, ml.moves, ml.n, st.hist.pos, st.hist.n, &s.rules):
            return T_THREEFOLD_REPETITION
    return code


cdef inline int step_end(const StepRules *s, const Pos *p, const GameState *st, int nmoves,
                         bint quiet, MoveList *ml, bint in_line) noexcept nogil:
    """The rule that ends a game at `p` after a step of the playouts or the vector env (T_NONE:
    it goes on), as game_end with draw_filtered between its halves: `nmoves` legal moves,
    `quiet` when they are quiet moves (only those can repeat a position: a claim ahead is then
    looked for, the moves listed into `ml` on the rare plies that get this far).

    `in_line` (a constant where it is called): the draws past the filter are looked for in
    line (the playouts: their random king endings pass the filter on most plies), else
    through `s.drawn`, out of line (the vector env, whose step then stays small)."""
    cdef int code = decisive_end(p, &s.rules, nmoves)
    if code != T_NONE or draw_filtered(p, &s.rules, &st.draws, s.window, s.endgame):
        return code
    if in_line:
        return step_drawn(s, p, st, quiet, ml)
    return s.drawn(s, p, st, quiet, ml)


cdef inline void step_rules_init(StepRules *s, const DrawRules *r, int claims, bint claim_draw,
                                 void (*list_moves)(const Pos *, MoveList *) noexcept nogil
                                 ) noexcept nogil:
    """The StepRules of a game whose draw rules are `r` and whose players must claim the draws
    in `claims` (bits 1 << Termination), claimed at once with `claim_draw` (as
    outcome(claim_draw=True)) or never."""
    s.rules = r[0]
    s.skip = 0 if claim_draw else claims
    s.ahead = claim_draw and (claims >> T_THREEFOLD_REPETITION) & 1
    s.window = draw_window(r, s.skip, s.ahead)
    s.endgame = endgame_rules(r)
    s.list_moves = list_moves
    s.drawn = step_drawn


cdef inline int game_end(const Pos *p, const DrawRules *r, const DrawState *d, int nmoves,
                         const Pos *hist, int nh, int skip) noexcept nogil:
    """The rule that ends the game at `p` (T_NONE: it goes on): decisive_end, then
    drawn_end."""
    cdef int code = decisive_end(p, r, nmoves)
    if code != T_NONE:
        return code
    return drawn_end(p, r, d, hist, nh, skip)


cdef inline int winner_of(int code, const Pos *p, bint reversed_goal) noexcept nogil:
    """The side (WHITE or BLACK, the core's numbers) that has won by `code` at `p`, or -1 for
    a draw.  No moves: the side to move has lost (in giveaway and antidraughts won), or in a
    set-up the side with no piece.  A crowned king: the side that has just moved, or the only
    side with a king."""
    cdef int side
    if code == T_NO_MOVES:
        side = p.turn
        if p.pieces[side] and not p.pieces[side ^ 1]:
            side ^= 1               # the side that has just moved has no pieces
        return side if reversed_goal else side ^ 1
    if code == T_KING_CROWNED:
        side = p.turn ^ 1
        if not p.kings & p.pieces[side]:
            side ^= 1               # only the side to move has a king
        return side
    return -1
