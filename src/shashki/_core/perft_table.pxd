# Perft's transposition table in C: a position's leaf count at a depth, kept in buckets of
# two entries (the deepest and the newest), shared by threads through one spinlock per bucket;
# and the checked sums of counts that could pass 2^64.  The kernels probe it (kernel_perft.pxi);
# shashki._core.perft owns its memory (the PerftTable class).

from .bits cimport u64, lock, unlock

ctypedef struct PerftEntry:
    # the whole position is the key (a 64-square board leaves no spare bit in its words), the
    # depth and the side to move ride with the count: a count of 2**55 leaves or more is not
    # kept (no perft within reach of a computer comes near)
    u64 white
    u64 black
    u64 kings
    u64 meta                # bits 0-54: the count; 55: Black to move; 56-63: depth (0: empty)

ctypedef struct PerftBucket:
    PerftEntry slot[2]      # 0: deepest entry kept; 1: always replaced.  One cache line.

ctypedef struct PerftTable:
    PerftBucket *buckets
    char *locks             # one spinlock per bucket, or NULL: a table used by one thread
    u64 mask



cdef inline u64 tt_slot(PerftTable *tt, u64 white, u64 black, u64 kings, int turn,
                        int depth) noexcept nogil:
    # the bucket of a position: a multiplicative mix of the whole position (no incremental key
    # to keep up to date)
    cdef u64 h = white * 0x9E3779B97F4A7C15ULL
    h ^= (black + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL
    h ^= (kings ^ ((<u64>depth) << 56) ^ (<u64>turn << 63)) * 0x165667B19E3779F9ULL
    h ^= h >> 29
    h *= 0xBF58476D1CE4E5B9ULL
    return (h ^ (h >> 32)) & tt.mask


# --- counts past 64 bits ---------------------------------------------------------------------
# perft's sums are 64-bit in the kernels, and checked where they could pass 2^64: a sum that
# does not fit sets OVERFLOW_WRAP, and Position.count counts the children one by one in
# Python's integers instead, splitting again where one still does not fit.  Only the sums of
# nodes WRAP_DEPTH plies or more above the leaves are checked (one node in thousands): a tree
# of 4 plies passes 2^64 only with 65,536 routes a position on average, and a position with
# more routes than that of one kind is refused (kernel.pxi's ORDERS_MAX).

cdef enum:
    OVERFLOW_LIST = 1       # a list could not hold a position's moves (no memory, ORDERS_MAX)
    OVERFLOW_WRAP = 2       # a count passed 2^64: the count is not returned
    WRAP_DEPTH = 5          # the sums of subtrees this deep or deeper are checked

cdef extern from *:
    """
    /* *total += sub * routes; 1 when the result does not fit 64 bits (*total is then not a
       count).  GCC and Clang test the carry of the add and the multiply; elsewhere it is
       tested by hand. */
    static inline int shashki_add_count(unsigned long long *total, unsigned long long sub,
                                        unsigned long long routes) {
    #if defined(__GNUC__) || defined(__clang__)
        unsigned long long x;
        if (__builtin_mul_overflow(sub, routes, &x)) return 1;
        return __builtin_add_overflow(*total, x, total);
    #else
        unsigned long long x;
        if (routes != 0 && sub > 0xFFFFFFFFFFFFFFFFULL / routes) return 1;
        x = sub * routes;
        *total += x;
        return *total < x;
    #endif
    }
    """
    bint add_count "shashki_add_count"(u64 *total, u64 sub, u64 routes) noexcept nogil

cdef enum:
    TT_COUNT_BITS = 55      # PerftEntry.meta: the count below, the side to move and depth above


cdef inline u64 tt_tag(int turn, int depth) noexcept nogil:
    # the side to move and the depth, in the bits of PerftEntry.meta above the count
    return ((<u64>depth) << 56) | ((<u64>turn) << TT_COUNT_BITS)


cdef inline bint tt_probe(PerftTable *tt, u64 i, u64 white, u64 black, u64 kings, int turn,
                          int depth, u64 *count) noexcept nogil:
    cdef PerftBucket *b = &tt.buckets[i]
    cdef u64 tag = tt_tag(turn, depth)
    cdef u64 low = ((<u64>1) << TT_COUNT_BITS) - 1
    cdef int j
    cdef bint hit = False
    if tt.locks != NULL:
        lock(&tt.locks[i])
    for j in range(2):
        if b.slot[j].white == white and b.slot[j].black == black and \
                b.slot[j].kings == kings and (b.slot[j].meta & ~low) == tag:
            count[0] = b.slot[j].meta & low
            hit = True
            break
    if tt.locks != NULL:
        unlock(&tt.locks[i])
    return hit


cdef inline void tt_store(PerftTable *tt, u64 i, u64 white, u64 black, u64 kings, int turn,
                          int depth, u64 count) noexcept nogil:
    cdef PerftBucket *b = &tt.buckets[i]
    cdef int j
    if count >> TT_COUNT_BITS:
        return              # too many to keep beside the tag (see PerftEntry)
    if tt.locks != NULL:
        lock(&tt.locks[i])
    j = 0 if <int>(b.slot[0].meta >> 56) <= depth else 1
    b.slot[j].white = white
    b.slot[j].black = black
    b.slot[j].kings = kings
    b.slot[j].meta = count | tt_tag(turn, depth)
    if tt.locks != NULL:
        unlock(&tt.locks[i])
