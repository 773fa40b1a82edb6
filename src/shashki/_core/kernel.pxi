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

from libc.stdint cimport uint8_t, uint32_t, int32_t
from cpython.pycapsule cimport PyCapsule_New
from ..enums cimport PROMO_KING, PROMO_MAN, PROMO_STOP
from ..bits cimport u64, popcount, ctz, msb, prefetch, nth_bit, fast_pdep, random_below
from ..kernel cimport (WHITE, BLACK, MAXMOVES, MAXPATH, Pos, Move, Route, MoveList, KernelOps,
                       RUN_ON, run_count, run_king, make_move, list_ready, list_full, list_drop)
from ..perft_table cimport (PerftTable, tt_slot, tt_probe, tt_store, add_count, OVERFLOW_WRAP,
                            WRAP_DEPTH)

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
    # the geometry (shashki.geometry.Geometry.kernel_constants: the layout and its directions)
    const int K_W               # playable squares per row
    const int K_ROWS
    const int K_FILES           # the board's columns
    const int K_SQUARES         # playable squares
    const int K_MAX_PIECES      # the most pieces a side can have
    const bint K_DARK           # pieces stand on the dark squares only (all but turkish)
    const u64 K_BOARD           # the playable bits
    const u64 K_ROW_TOP         # where White's men are crowned
    const u64 K_ROW_BOTTOM      # where Black's men are crowned
    const int K_MEN_WHITE       # the directions White's men move in (bit d), and Black's
    const int K_MEN_BLACK
    # direction d (see the geometry section below): shift the bits not in K_EDGE_d by
    # K_SHIFT_d (up if positive)
    const int K_SHIFT_0, K_SHIFT_1, K_SHIFT_2, K_SHIFT_3
    const int K_SHIFT_4, K_SHIFT_5, K_SHIFT_6, K_SHIFT_7
    const u64 K_EDGE_0, K_EDGE_1, K_EDGE_2, K_EDGE_3
    const u64 K_EDGE_4, K_EDGE_5, K_EDGE_6, K_EDGE_7
    const int K_BITS[64]        # square -> bit (-1 past the last square)
    const int K_FILE_OF[64]     # square -> its column from White's left
    # the rules record (shashki.variants.Variant.kernel_constants)
    const bint K_FLYING         # kings move and capture any distance
    const bint K_LANDS_NEXT     # a flying king lands on the square just beyond what it takes
    const bint K_REMOVE_AT_ONCE # each piece taken leaves the board at once (no Turkish strike)
    const bint K_NO_TURN_BACK   # a capture may not turn 180 degrees between two pieces
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
    # frisian: men and kings capture along ranks and files too (directions 4-7)
    const bint K_ORTHO
    # the most quiet moves the same king may make in a row while its side has men (0: no
    # limit); the runs are kept in Pos.run (kernel.pxd, make_move)
    const int K_KING_LIMIT
    const int K_ACTIONS         # the action space (shashki.variants.Variant.action_space_size)


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
# Directions 0-3 are those pieces move in, 3 - d the reverse of d: on a dark-square board 0
# north-east, 1 north-west, 2 south-east, 3 south-west; on the full board (turkish) 0 north,
# 1 east, 2 west, 3 south.  With K_ORTHO (a dark-square board's captures only) also 4 north,
# 5 east, 6 west, 7 south (11 - d the reverse): the next dark square along a file is two rows
# up, a shift by 2W + 1 (the same column of the next pair of rows); along a rank it is the next
# bit, masked at the row's ends.  Called with a literal direction, each step folds to one shift
# (and one mask, where the direction has an edge).

cdef inline u64 shifted(u64 b, int shift, u64 edge) noexcept nogil:
    b &= ~edge
    return (b << shift) if shift > 0 else (b >> (-shift))


cdef inline u64 sh(u64 b, int d) noexcept nogil:
    # (the orthogonal steps in a function of their own, so that the diagonal games' kernels
    # see the same small function as before they existed: GCC's inlining is unchanged)
    if K_ORTHO and d >= 4:
        return sh_orthogonal(b, d)
    if d == 0:
        return shifted(b, K_SHIFT_0, K_EDGE_0)
    if d == 1:
        return shifted(b, K_SHIFT_1, K_EDGE_1)
    if d == 2:
        return shifted(b, K_SHIFT_2, K_EDGE_2)
    return shifted(b, K_SHIFT_3, K_EDGE_3)


cdef inline u64 sh_orthogonal(u64 b, int d) noexcept nogil:
    if d == 4:
        return shifted(b, K_SHIFT_4, K_EDGE_4)
    if d == 5:
        return shifted(b, K_SHIFT_5, K_EDGE_5)
    if d == 6:
        return shifted(b, K_SHIFT_6, K_EDGE_6)
    return shifted(b, K_SHIFT_7, K_EDGE_7)


cdef inline int rev(int d) noexcept nogil:
    return 11 - d if K_ORTHO and d >= 4 else 3 - d


cdef inline int us_of(Side *s) noexcept nogil:
    return WHITE if Side is White else BLACK


cdef inline u64 crown_row(Side *s) noexcept nogil:
    return K_ROW_TOP if Side is White else K_ROW_BOTTOM


cdef inline bint forward(Side *s, int d) noexcept nogil:
    # whether the men of this side move in direction d (0-3): forward diagonally on a
    # dark-square board, forward or sideways on the full board
    return ((K_MEN_WHITE if Side is White else K_MEN_BLACK) >> d) & 1


cdef inline bint prec_free() noexcept nogil:
    return not (K_PREC_MEN or K_PREC_KINGS or K_PREC_BY_KING or K_PREC_NKINGS or K_PREC_ORDER)


cdef inline bint prec_kinds() noexcept nogil:
    # precedence that looks at which pieces were kings
    return K_PREC_MEN != K_PREC_KINGS or K_PREC_NKINGS or K_PREC_ORDER


# --- move generation, perft and the random games ---------------------------------------------

include "kernel_moves.pxi"
include "kernel_perft.pxi"
include "kernel_playouts.pxi"
include "kernel_actions.pxi"


# --- the entry points this kernel exports (KernelOps) --------------------------------------------

cdef inline int pick(const Pos *p, u64 rnd, Move *out) noexcept nogil:
    cdef u64 lk = locked_king(p) if K_KING_LIMIT else 0
    if p.turn == WHITE:
        return pick_side(<White *>NULL, p.pieces[0], p.pieces[1], p.kings, lk, rnd, out)
    return pick_side(<Black *>NULL, p.pieces[0], p.pieces[1], p.kings, lk, rnd, out)


cdef int ops_pick(const Pos *p, u64 rnd, Move *out) noexcept nogil:
    return pick(p, rnd, out)


cdef void ops_moves(const Pos *p, MoveList *ml) noexcept nogil:
    if p.turn == WHITE:
        gen_moves(<White *>NULL, <Listing *>NULL, p.pieces[0], p.pieces[1], p.kings, ml)
    else:
        gen_moves(<Black *>NULL, <Listing *>NULL, p.pieces[0], p.pieces[1], p.kings, ml)
    if K_KING_LIMIT:
        drop_locked(p, ml)


cdef void ops_routes(const Pos *p, MoveList *ml) noexcept nogil:
    if p.turn == WHITE:
        gen_moves(<White *>NULL, <Routing *>NULL, p.pieces[0], p.pieces[1], p.kings, ml)
    else:
        gen_moves(<Black *>NULL, <Routing *>NULL, p.pieces[0], p.pieces[1], p.kings, ml)
    if K_KING_LIMIT:
        drop_locked(p, ml)


cdef u64 ops_count(const Pos *p, bint unique, int *overflow) noexcept nogil:
    cdef u64 n
    if p.turn == WHITE:
        n = count_moves(<White *>NULL, p.pieces[0], p.pieces[1], p.kings, unique, overflow)
    else:
        n = count_moves(<Black *>NULL, p.pieces[0], p.pieces[1], p.kings, unique, overflow)
    if K_KING_LIMIT:
        n -= locked_steps(p)
    return n


cdef bint ops_must_capture(const Pos *p) noexcept nogil:
    if p.turn == WHITE:
        return capturers(<White *>NULL, p.pieces[0], p.pieces[1], p.kings) != 0
    return capturers(<Black *>NULL, p.pieces[0], p.pieces[1], p.kings) != 0


cdef u64 ops_perft(const Pos *p, int depth, bint unique, PerftTable *tt,
                   int *overflow) noexcept nogil:
    if K_KING_LIMIT:
        return perft_runs(p, depth, unique, tt, overflow)
    if depth == 1:
        return ops_count(p, unique, overflow)
    if p.turn == WHITE:
        return perft(<White *>NULL, p.pieces[0], p.pieces[1], p.kings, depth, unique, tt, overflow)
    return perft(<Black *>NULL, p.pieces[0], p.pieces[1], p.kings, depth, unique, tt, overflow)


cdef KernelOps OPS
# bit -> square, the inverse of K_BITS
cdef int SQUARE_OF[64]
cdef int _s
for _s in range(64):
    SQUARE_OF[_s] = -1
for _s in range(K_SQUARES):
    SQUARE_OF[K_BITS[_s]] = _s
OPS.squares = K_SQUARES
OPS.actions = K_ACTIONS
OPS.width = K_W
OPS.rows = K_ROWS
OPS.files = K_FILES
OPS.max_pieces = K_MAX_PIECES
OPS.board = K_BOARD
OPS.promotion[WHITE] = K_ROW_TOP
OPS.promotion[BLACK] = K_ROW_BOTTOM
OPS.bit = K_BITS
OPS.square = SQUARE_OF
OPS.file = K_FILE_OF
OPS.ndir = 8 if K_ORTHO else 4
OPS.shift = [K_SHIFT_0, K_SHIFT_1, K_SHIFT_2, K_SHIFT_3,
             K_SHIFT_4, K_SHIFT_5, K_SHIFT_6, K_SHIFT_7]
OPS.edge = [K_EDGE_0, K_EDGE_1, K_EDGE_2, K_EDGE_3, K_EDGE_4, K_EDGE_5, K_EDGE_6, K_EDGE_7]
OPS.men[WHITE] = K_MEN_WHITE
OPS.men[BLACK] = K_MEN_BLACK
OPS.moves = ops_moves
OPS.routes = ops_routes
OPS.count = ops_count
OPS.must_capture = ops_must_capture
OPS.perft = ops_perft
OPS.pick = ops_pick
OPS.play = ops_play
OPS.quiet_actions = ops_quiet_actions
OPS.king_limit = K_KING_LIMIT

#: the entry points, for shashki._core.position.Kernel
ops = PyCapsule_New(&OPS, "shashki._core.KernelOps", NULL)
