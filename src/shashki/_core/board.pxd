# The C types every kernel shares: bitboards, positions, moves, rules.
#
# Geometry: the 32 playable squares live in a 64-bit word with one "ghost" bit after every
# second row (as in Scan), so that every diagonal step is the same shift everywhere:
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
# North-east is +5, north-west +4, south-east -4, south-west -5.  A step off the side of the
# board lands on a ghost bit (4, 13, 22, 31) and a step off the top or bottom leaves bits
# 0..35, so "& empty" removes every step that leaves the board: no edge masks are needed.
# White is the side on ranks 1-3 and moves north; Black moves south.

from libc.stdint cimport uint64_t, uint32_t, uint8_t

ctypedef uint64_t u64

cdef enum:
    WHITE = 0
    BLACK = 1
    MAXMOVES = 512      # more than any 8x8 position needs; overflow is flagged, never written
    MAXPATH = 16        # origin + at most 12 landings

# how a man that reaches the far row in the middle of a capture goes on
cdef enum Promotion:
    PROMO_KING = 0      # crowned at once, goes on capturing as a king (russian)
    PROMO_MAN = 1       # goes on as a man, crowned only if the move ends there (brazilian)
    PROMO_STOP = 2      # the move ends and the man is crowned (italian, english)

# which capture sequences may be chosen
cdef enum Precedence:
    PREC_FREE = 0       # any (russian, english)
    PREC_MAJORITY = 1   # most pieces (brazilian)
    PREC_ITALIAN = 2    # most pieces, by a king, most kings, kings met first

ctypedef struct Rules:
    int flying              # kings move and capture any distance
    int men_back            # men capture backward
    int men_take_kings      # men may capture kings
    int promo               # Promotion
    int precedence          # Precedence

ctypedef struct Position:
    u64 pieces[2]           # all pieces of White, of Black (ghost layout)
    u64 kings               # kings of both colours
    int turn                # WHITE or BLACK

ctypedef struct Move:
    u64 captured            # squares taken (ghost layout)
    uint32_t paths          # routes with distinct order of captures (keep-duplicates count)
    uint32_t key            # precedence key: higher is preferred
    uint8_t frm             # bit index of origin
    uint8_t to              # bit index of destination
    uint8_t promote         # a man that is crowned by this move
    uint8_t ncapt           # number of pieces captured

ctypedef struct MovePath:
    uint8_t n               # number of captures
    uint8_t land[MAXPATH]   # landing square after each capture (bit index)
    uint8_t took[MAXPATH]   # square captured at each step (bit index)

ctypedef struct MoveList:
    int n
    int overflow            # a move did not fit: the list is incomplete
    uint32_t best_key
    Move moves[MAXMOVES]
    MovePath *paths         # NULL, or MAXMOVES entries: one representative route per move

cdef extern from *:
    """
    #define SHASHKI_BOARD 0xF7FBFDFEFULL
    #define SHASHKI_ROW1  0x00000000FULL
    #define SHASHKI_ROW8  0xF00000000ULL
    #if defined(_MSC_VER)
    #include <intrin.h>
    static __inline int shashki_popcount(unsigned __int64 x) { return (int)__popcnt64(x); }
    static __inline int shashki_ctz(unsigned __int64 x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
    #else
    #define shashki_popcount(x) __builtin_popcountll(x)
    #define shashki_ctz(x) __builtin_ctzll(x)
    #endif
    """
    const u64 BOARD "SHASHKI_BOARD"     # the 32 playable bits
    const u64 ROW1 "SHASHKI_ROW1"       # Black's promotion row
    const u64 ROW8 "SHASHKI_ROW8"       # White's promotion row
    int popcount "shashki_popcount"(u64 x) noexcept nogil
    int ctz "shashki_ctz"(u64 x) noexcept nogil    # x must not be 0

cdef inline u64 step(u64 b, int d) noexcept nogil:
    # one diagonal step of every bit in b; d in {+4, +5, -4, -5}
    if d > 0:
        return b << d
    return b >> (-d)

cdef inline void make_move(Position *dst, const Position *src, const Move *m) noexcept nogil:
    cdef int us = src.turn
    cdef int them = us ^ 1
    cdef u64 f = (<u64>1) << m.frm
    cdef u64 t = (<u64>1) << m.to
    cdef u64 k = src.kings & ~m.captured
    # f ^ t is 0 when a king's capture ends on its own origin square: correct by itself
    dst.pieces[us] = src.pieces[us] ^ f ^ t
    dst.pieces[them] = src.pieces[them] & ~m.captured
    if k & f:
        k = (k ^ f) | t
    elif m.promote:
        k = k | t
    dst.kings = k
    dst.turn = them


# Square numbering at the Python edge: 0..31 row by row from a1 (a1 = 0, c1 = 1, ..., h8 = 31).
cdef inline int ghost_of(int s) noexcept nogil:
    return 9 * (s >> 3) + 5 * ((s >> 2) & 1) + (s & 3)

cdef inline int square_of(int g) noexcept nogil:
    # inverse of ghost_of on the 32 playable bits
    return g - g // 9 - (1 if g % 9 >= 5 else 0)

cdef inline u64 to_ghost(unsigned long long mask) noexcept nogil:
    cdef u64 out = 0
    cdef int s
    while mask:
        s = ctz(mask)
        mask &= mask - 1
        out |= (<u64>1) << ghost_of(s)
    return out

cdef inline unsigned long long from_ghost(u64 mask) noexcept nogil:
    cdef unsigned long long out = 0
    cdef int g
    while mask:
        g = ctz(mask)
        mask &= mask - 1
        out |= (<unsigned long long>1) << square_of(g)
    return out
