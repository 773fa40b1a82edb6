# The interface of a compiled kernel: the position and move types it reads and writes, the
# move list it fills, and the table of entry points (KernelOps) it exports.  Everything that
# runs a game's rules - the Board, the search, the playouts, the learning surfaces, the
# endgame tables - calls the kernels through these.
#
# Geometry (shashki/geometry.py is the one place that lays it out; setup.py writes its tables
# into each kernel): a board's playable squares live in one 64-bit word.  On the dark-square
# boards, W squares a row (4 on 8x8, 5 on 10x10), with one "ghost" bit after every second row
# (as in Scan), so that every diagonal step is the same shift everywhere.  On 8x8 (W = 4):
#
#     rank 8:   32 33 34 35        (b8 d8 f8 h8)
#     rank 7: 27 28 29 30  [31]    (a7 c7 e7 g7)
#     rank 6:    23 24 25 26
#     rank 5: 18 19 20 21  [22]
#     rank 4:    14 15 16 17
#     rank 3:  9 10 11 12  [13]
#     rank 2:     5  6  7  8
#     rank 1:  0  1  2  3   [4]    (a1 c1 e1 g1)
#
# North-east is +(W+1), north-west +W, south-east -W, south-west -(W+1).  A step off the side
# lands on a ghost bit and a step off the top or bottom leaves the board's bits, so "& empty"
# removes every step that leaves the board: no edge masks are needed.  10x10 is the same with
# W = 5 (55 bits).  A board of all 64 squares (turkish) is the word itself, a1 = bit 0, row by
# row: north +8, south -8, and east and west +1 and -1 with the edge file masked off first.
# Each direction is a shift and a mask of the squares it would carry off the side (0 on the
# ghost layout); directions 0-3 are those pieces move in (d and 3 - d opposite), 4-7 the
# orthogonal captures of frisian (d and 11 - d opposite).  White is the side on the low rows
# and moves north; Black moves south.
#
# Nothing here depends on one game: a kernel (kernel.pxi) is compiled once per rules record,
# with the record's rules and geometry as compile-time constants, and exports a KernelOps.

from libc.stdint cimport uint32_t, uint8_t, int32_t
from libc.stdlib cimport free
from .bits cimport u64
from .perft_table cimport PerftTable

cdef enum:
    # the sides as the core numbers them (the index of Pos.pieces); shashki.Color has
    # python-chess's values instead (WHITE 1, BLACK 0): color_value converts for the arrays
    # handed to Python, position.pyx's COLORS and Kernel.set_position for the objects
    WHITE = 0
    BLACK = 1
    # The moves a list holds in place (MoveList.first).  Quiet moves are at most 20 kings x 17
    # squares on 10x10, and no real game has come near; but a set-up can have more captures
    # (538 distinct moves, 717 routes in a valid turkish position with five kings), so a list
    # grows on the heap past it (list_grow).  The learning surfaces, whose buffers and action
    # numbers are sized by it, refuse a position with more (actions.pyx).
    MAXMOVES = 512
    MAXPATH = 24        # captures in one move: at most the 20 pieces of the other side

# how a man that reaches the far row in the middle of a capture goes on: PROMO_KING (crowned
# at once, goes on as a king: russian), PROMO_MAN (goes on as a man, crowned only if the move
# ends there: brazilian), PROMO_STOP (the move ends and the man is crowned: english)

cdef inline int color_value(int turn) noexcept nogil:
    # the int of shashki.Color for the core's side `turn` (WHITE 0 -> 1, BLACK 1 -> 0), for
    # an array a Python caller reads as colours (VectorEnv.turns, the playouts' records)
    return turn ^ 1

ctypedef struct Pos:
    # A position, as every kernel reads it (shashki.Position is its Python value)
    u64 pieces[2]           # all pieces of White, of Black (the kernel's layout)
    u64 kings               # kings of both colours
    int turn                # WHITE or BLACK
    # The games with a limit on one king's moves in a row (frisian: a side that also has men
    # may move the same king at most 3 times in a row without capturing): RUN_ON, and for each
    # side a byte (White's bits 0-7, Black's 8-15): its king's bit index (bits 0-5) and how many
    # quiet moves in a row that king has made (bits 6-7; 0: none, and the byte is 0).  The byte
    # is 0 for a side without men.  0 in every other game: it lives in what was the struct's
    # padding, so no Pos grows, and it is compared as part of the position.
    uint32_t run

cdef enum:
    RUN_ON = 0x10000        # the game counts its kings' runs (set in every position of it)

ctypedef struct Move:
    # Making a move is three masks: own ^= ft, theirs &= ~captured, kings = (kings & ~captured)
    # ^ kx.  ft is 0 when a king's capture ends on its own origin square.
    u64 ft                  # origin bit ^ destination bit
    u64 captured            # squares taken (ghost layout)
    u64 kx                  # kings-mask change: ft for a king's move, the destination bit
                            # for a man crowned by the move, else 0
    uint32_t routes         # routes with distinct order of captures (keep-duplicates count)
    uint8_t frm             # bit index of origin
    uint8_t to              # bit index of destination
    uint8_t ncapt           # number of pieces captured
    uint8_t promote         # a man is crowned by this move

ctypedef struct Route:
    uint8_t n               # number of captures
    uint8_t land[MAXPATH]   # landing square after each capture (bit index)
    uint8_t took[MAXPATH]   # square captured at each step (bit index)

ctypedef struct MoveList:
    # Made ready by list_init and given back by list_free (the kernels' own lists: list_ready
    # and list_drop): `moves` points into the list itself until it grows, so a list is never
    # copied by value.
    int n
    int overflow            # no memory for a move: the list is incomplete (callers raise)
    int cap                 # the room in `moves` (and in `routes`, when there are routes)
    # Routing mode only: one route per move (the first found), or with `merge` = 0 every
    # route as a move of its own (to match a route the user wrote against the real ones)
    Route *routes           # `given_routes`, or a heap block once the list has grown
    Route *given_routes     # the caller's route buffer (MAXMOVES of room), or NULL
    int merge
    # Routing without merging: only the routes of one move (its origin and destination bits
    # and captured squares), so that reading a route the user wrote holds that move's routes
    # alone, not every route of the position; only_frm -1 (list_init): every route
    int only_frm
    int only_to
    u64 only_captured
    # Routing without merging: a flying king's every landing square before it captures on
    # along the same line is a route of its own (each sequence of landing squares, as kish
    # counts); 0 (list_init): those are one route
    int every_landing
    Move *moves             # `first`, or a heap block once the list has grown
    Move first[MAXMOVES]


cdef inline void list_init(MoveList *ml, Route *routes) noexcept nogil:
    """A list ready to fill, in place (`routes`: MAXMOVES routes of the caller's, or NULL)."""
    ml.n = 0
    ml.overflow = 0
    ml.cap = MAXMOVES
    ml.routes = routes
    ml.given_routes = routes
    ml.merge = 1
    ml.only_frm = -1
    ml.every_landing = 0
    ml.moves = ml.first


cdef inline void list_ready(MoveList *ml) noexcept nogil:
    """The least of list_init, for the kernels' own lists that hold no routes (perft's, the
    counted captures'), which the generator then empties: one store, the room in place (its
    `cap` is not read while `moves` is `first`).  Given back by list_drop."""
    ml.moves = ml.first


cdef inline void list_drop(MoveList *ml) noexcept nogil:
    """The moves' heap block given back, if the list grew: a list_ready list's when it is
    done with, or a list's that its caller fills again (a list keeps its block otherwise)."""
    if ml.moves != ml.first:
        free(ml.moves)
        ml.moves = ml.first


cdef inline void list_free(MoveList *ml) noexcept nogil:
    """A list_init list's heap blocks given back; it holds MAXMOVES in place again."""
    list_drop(ml)
    if ml.routes != ml.given_routes:
        free(ml.routes)
        ml.routes = ml.given_routes
    ml.cap = MAXMOVES


cdef extern from *:
    """
    #include <stdlib.h>
    #include <string.h>
    /* A list's blocks twice the size on the heap (its routes too, unless `routes` is NULL),
       the first n entries kept: 1, or 0 without memory.  Out of line, so that the generators
       that test for it on their hottest path stay as small, and as inlined, as before lists
       grew.  (Not marked cold: GCC then split the generators' hot code, 1-2% more
       instructions in perft.) */
    #if defined(_MSC_VER)
    #define SHASHKI_NOINLINE __declspec(noinline)
    #else
    #define SHASHKI_NOINLINE __attribute__((noinline))
    #endif
    static SHASHKI_NOINLINE int shashki_grow(void **moves, const void *first, void **routes,
                                         const void *given, int *cap, int n, size_t msize,
                                         size_t rsize) {
        int c = 2 * *cap;
        void *m = malloc((size_t)c * msize);
        void *r;
        if (m == NULL) return 0;
        if (routes != NULL) {
            r = malloc((size_t)c * rsize);
            if (r == NULL) { free(m); return 0; }
            memcpy(r, *routes, (size_t)n * rsize);
            if (*routes != given) free(*routes);
            *routes = r;
        }
        memcpy(m, *moves, (size_t)n * msize);
        if (*moves != first) free(*moves);
        *moves = m;
        *cap = c;
        return 1;
    }
    """
    bint grow_blocks "shashki_grow"(void **moves, const void *first, void **routes,
                                    const void *given, int *cap, int n, size_t msize,
                                    size_t rsize) noexcept nogil


cdef inline bint list_grow(MoveList *ml, bint with_routes) noexcept nogil:
    """Twice the room (for the moves, and for the routes `with_routes`) on the heap, the
    entries kept; False, with `overflow` set, when there is no memory for it."""
    if ml.moves == ml.first:
        ml.cap = MAXMOVES
    if grow_blocks(<void **>&ml.moves, ml.first, <void **>&ml.routes if with_routes else NULL,
                   ml.given_routes, &ml.cap, ml.n, sizeof(Move), sizeof(Route)):
        return True
    ml.overflow = 1
    return False


cdef inline bint list_full(MoveList *ml, bint with_routes) noexcept nogil:
    """Whether the list has no room for one more move, once it has tried to grow (True, with
    `overflow` set, only when there was no memory); `with_routes`: it holds routes too (a
    constant where it is called).  The first test is against the constant, so that a list that
    never passes MAXMOVES pays one comparison, as before lists grew."""
    return ml.n >= MAXMOVES and (ml.moves == ml.first or ml.n >= ml.cap) and \
        not list_grow(ml, with_routes)


# --- what a compiled kernel exports --------------------------------------------------------------

ctypedef struct KernelOps:
    # the board (shashki.geometry, compiled in): squares 0.. row by row from White's side
    int squares             # playable squares: 32, 50, 64
    int actions             # the action space's size (Variant.action_space_size, compiled in)
    int width               # playable squares per row
    int rows
    int files               # the board's columns
    int max_pieces          # the most pieces a side can have (its men at the start)
    u64 board               # the playable bits
    u64 promotion[2]        # the row where White's, Black's men are crowned
    const int *bit          # square -> its bit
    const int *square       # bit (0-63) -> its square, -1 for a ghost bit
    const int *file         # square -> its column from White's left (a = 0)
    # the directions (see step_dir): a step in direction d shifts the bits not in edge[d] by
    # shift[d]; ndir is 4, or 8 in a game that also captures along ranks and files (frisian);
    # men[c] has bit d set when the men of colour c move in direction d
    int ndir
    int shift[8]
    u64 edge[8]
    int men[2]
    # every legal move, merged by (origin, destination, captured set), routes counted, into
    # a list made ready by list_init (or list_ready), which grows past MAXMOVES moves
    void (*moves)(const Pos *p, MoveList *ml) noexcept nogil
    # the same, with the route of each move in ml.routes (which the caller provides)
    void (*routes)(const Pos *p, MoveList *ml) noexcept nogil
    # the number of legal moves (unique) or routes (not unique), listing none; sets *overflow
    # when there were too many captures to tell their moves apart (the count is then wrong)
    u64 (*count)(const Pos *p, bint unique, int *overflow) noexcept nogil
    # whether the side to move must capture
    bint (*must_capture)(const Pos *p) noexcept nogil
    # leaves of the tree `depth` plies deep (depth >= 1); with a table when tt is not NULL.
    # Sets *overflow when a move list overflowed (the count is then wrong).
    u64 (*perft)(const Pos *p, int depth, bint unique, PerftTable *tt,
                 int *overflow) noexcept nogil
    # the most quiet moves one king may make in a row while its side has men (0: no limit)
    int king_limit
    # a ply of a random playout without listing the moves: the number n of legal moves, and
    # (n > 0) move random_below(rnd, n) of them made into out, or -1 when they must be listed
    # (a capture other than one man's single jump, or a board the draw is not written for).
    # The order: the quiet moves (the men's in their two forward directions, then the kings'
    # in the four, nearest squares first), or the single jumps (direction 0, 1, 2, 3, by
    # origin)
    int (*pick)(const Pos *p, u64 rnd, Move *out) noexcept nogil
    # the actions of the quiet moves (shashki.rl's numbering: origin * squares + destination,
    # the squares seen from Black's side with `flip`), ascending, into out (MAXMOVES of room),
    # straight from the bitboards; their number, or -1 when the side to move must capture (or
    # on a full board): then the moves must be listed (kernel_actions.pxi)
    int (*quiet_actions)(const Pos *p, bint flip, int32_t *out) noexcept nogil
    # the random games of one chunk of shashki.playouts, each played to its end
    # (kernel_playouts.pxi): `config` and `chunk` are playouts.pxd's Config and Chunk, which
    # this file cannot name (they are made of its types)
    void (*play)(const void *config, void *chunk) noexcept nogil


cdef inline u64 step_dir(const KernelOps *k, u64 b, int d) noexcept nogil:
    """One step of every bit of `b` in direction d, d known only at run time (the kernels
    themselves step by constants): bits that leave the board land on no playable bit."""
    cdef int s = k.shift[d]
    b &= ~k.edge[d]
    return (b << s) if s > 0 else (b >> (-s))


cdef inline void make_move(Pos *dst, const Pos *src, const Move *m) noexcept nogil:
    cdef int us = src.turn
    dst.pieces[us] = src.pieces[us] ^ m.ft
    dst.pieces[us ^ 1] = src.pieces[us ^ 1] & ~m.captured
    dst.kings = (src.kings & ~m.captured) ^ m.kx
    dst.turn = us ^ 1
    dst.run = src.run
    if src.run:
        king_run_after(dst, src, m)


cdef inline bint same_pos(const Pos *a, const Pos *b) noexcept nogil:
    """Whether two positions are the same: pieces, kings, side to move, and the kings' runs
    (frisian; 0 in the other games).  The one comparison of positions: Position ==, the
    Board's, repetitions (draws.pxd), a history's moves (Game.outcome)."""
    return (a.pieces[0] == b.pieces[0] and a.pieces[1] == b.pieces[1] and a.kings == b.kings
            and a.turn == b.turn and a.run == b.run)


cdef inline uint32_t run_byte(uint32_t run, int color) noexcept nogil:
    return (run >> (8 * color)) & 0xFF


cdef inline int run_count(uint32_t run, int color) noexcept nogil:
    """How many quiet moves in a row `color`'s king has made (0-3)."""
    return <int>(run_byte(run, color) >> 6)


cdef inline u64 run_king(uint32_t run, int color) noexcept nogil:
    """The bit of the king `color` has moved last (0 when it has made no quiet move)."""
    cdef uint32_t byte = run_byte(run, color)
    return ((<u64>1) << (byte & 63)) if byte else 0


cdef inline void king_run_after(Pos *dst, const Pos *src, const Move *m) noexcept nogil:
    # The kings' runs after move m (src -> dst) in a game that counts them: the mover's run
    # goes on with a quiet move of the king it moved last, starts again at 1 with a quiet move
    # of another king, and ends with a man's move or any capture; a side without men, and a
    # side whose running king was just taken, has no run.
    cdef int us = src.turn
    cdef uint32_t mine = run_byte(src.run, us)
    cdef uint32_t theirs = run_byte(src.run, us ^ 1)
    if m.captured == 0 and m.ft != 0 and m.kx == m.ft:
        if mine and (mine & 63) == m.frm:
            mine = (mine & 0xC0) + (0x40 if (mine & 0xC0) != 0xC0 else 0)
        else:
            mine = 0x40
        mine |= m.to
    else:
        mine = 0
    if not (dst.pieces[us] & ~dst.kings):
        mine = 0
    if theirs and (m.captured & ((<u64>1) << (theirs & 63)) or
                   not (dst.pieces[us ^ 1] & ~dst.kings)):
        theirs = 0
    dst.run = RUN_ON | (mine << (8 * us)) | (theirs << (8 * (us ^ 1)))
