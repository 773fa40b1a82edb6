# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""Perft: count the leaves of the move tree, in C, with bulk counting at the last ply.

Two conventions (see RULES.md): by default a leaf is a legal move (origin, destination,
captured set); with `paths` every route with a distinct order of captures counts.  Routes of
one move lead to the same position, so the paths count is the unique count weighted by the
number of routes: one tree walk serves both.

Each ply keeps its move list on the C stack: memory is flat whatever the depth.  An optional
transposition table (`PerftTable`) is keyed by a 64-bit Zobrist hash and stores the whole
position with the depth, so a hash collision can never return another position's count.
The table may be shared by threads: each bucket has a spinlock held only while it is read or
written.
"""

from cpython.mem cimport PyMem_Malloc, PyMem_Free
from libc.string cimport memset
from libc.stdint cimport uint8_t, uint64_t

from .board cimport u64, Position, Move, MoveList, Rules, make_move
from .movegen cimport (RuleSet, gen_moves, count_moves, position_from_masks, zobrist,
                       key_after)

cdef extern from *:
    """
    #if defined(_MSC_VER)
    #include <intrin.h>
    static __inline void shashki_lock(volatile char *l) { while (_InterlockedExchange8(l, 1)) { } }
    static __inline void shashki_unlock(volatile char *l) { _InterlockedExchange8(l, 0); }
    #else
    static inline void shashki_lock(volatile char *l) {
        while (__atomic_test_and_set((void *)l, __ATOMIC_ACQUIRE)) { }
    }
    static inline void shashki_unlock(volatile char *l) { __atomic_clear((void *)l, __ATOMIC_RELEASE); }
    #endif
    """
    void lock "shashki_lock"(volatile char *l) noexcept nogil
    void unlock "shashki_unlock"(volatile char *l) noexcept nogil


# --- the table -------------------------------------------------------------------------------

ctypedef struct Entry:
    u64 white       # bits 0-35: white pieces; bits 56-63: depth (0 = empty slot)
    u64 black       # bits 0-35: black pieces; bit 63: Black to move
    u64 kings
    u64 count

ctypedef struct Bucket:
    Entry slot[2]   # 0: deepest entry kept; 1: always replaced.  64 bytes, one cache line.

ctypedef struct Table:
    Bucket *buckets
    char *locks
    u64 mask


cdef inline bint tt_probe(Table *tt, const Position *p, u64 key, int depth,
                          u64 *count) noexcept nogil:
    cdef u64 i = key & tt.mask
    cdef Bucket *b = &tt.buckets[i]
    cdef u64 w = p.pieces[0] | ((<u64>depth) << 56)
    cdef u64 bl = p.pieces[1] | ((<u64>p.turn) << 63)
    cdef int j
    cdef bint hit = False
    lock(&tt.locks[i])
    for j in range(2):
        if b.slot[j].white == w and b.slot[j].black == bl and b.slot[j].kings == p.kings:
            count[0] = b.slot[j].count
            hit = True
            break
    unlock(&tt.locks[i])
    return hit


cdef inline void tt_store(Table *tt, const Position *p, u64 key, int depth,
                          u64 count) noexcept nogil:
    cdef u64 i = key & tt.mask
    cdef Bucket *b = &tt.buckets[i]
    cdef int j
    lock(&tt.locks[i])
    j = 0 if <int>(b.slot[0].white >> 56) <= depth else 1
    b.slot[j].white = p.pieces[0] | ((<u64>depth) << 56)
    b.slot[j].black = p.pieces[1] | ((<u64>p.turn) << 63)
    b.slot[j].kings = p.kings
    b.slot[j].count = count
    unlock(&tt.locks[i])


cdef class PerftTable:
    """A transposition table for perft of `size_mb` MiB (rounded down to a power of two).

    One table serves one (game, convention) at a time: `clear()` it before reusing it for
    another.  Threads may share it.
    """
    cdef Table t
    cdef readonly u64 size_bytes
    cdef readonly str owner     # what the entries were counted for, set by the caller

    def __cinit__(self, size_mb):
        cdef u64 nb
        cdef u64 want
        if size_mb <= 0:
            raise ValueError(f"hash size must be positive, not {size_mb} MiB")
        want = <u64>(size_mb * 1024 * 1024) // sizeof(Bucket)
        if want < 1:
            raise ValueError(f"hash size {size_mb} MiB is smaller than one bucket")
        nb = 1
        while nb * 2 <= want:
            nb *= 2
        self.t.buckets = <Bucket *>PyMem_Malloc(nb * sizeof(Bucket))
        self.t.locks = <char *>PyMem_Malloc(nb)
        if self.t.buckets == NULL or self.t.locks == NULL:
            PyMem_Free(self.t.buckets)
            PyMem_Free(self.t.locks)
            self.t.buckets = NULL
            self.t.locks = NULL
            raise MemoryError(f"cannot allocate a {size_mb} MiB perft table")
        self.t.mask = nb - 1
        self.size_bytes = nb * sizeof(Bucket)
        self.owner = None
        self.clear()

    def clear(self):
        with nogil:
            memset(self.t.buckets, 0, (self.t.mask + 1) * sizeof(Bucket))
            memset(self.t.locks, 0, self.t.mask + 1)
        self.owner = None

    def __dealloc__(self):
        PyMem_Free(self.t.buckets)
        PyMem_Free(self.t.locks)


# --- the walks -------------------------------------------------------------------------------

cdef u64 perft_rec(const Position *p, const Rules *r, int depth, bint paths) noexcept nogil:
    cdef MoveList ml
    cdef Position child
    cdef u64 total = 0
    cdef int i
    if depth == 1:
        return count_moves(p, r, paths)
    ml.paths = NULL
    gen_moves(p, r, &ml)
    for i in range(ml.n):
        make_move(&child, p, &ml.moves[i])
        if paths:
            total += ml.moves[i].paths * perft_rec(&child, r, depth - 1, paths)
        else:
            total += perft_rec(&child, r, depth - 1, paths)
    return total


cdef u64 perft_tt(const Position *p, u64 key, const Rules *r, int depth, bint paths,
                  Table *tt) noexcept nogil:
    cdef MoveList ml
    cdef Position child
    cdef u64 total = 0
    cdef u64 sub
    cdef int i
    if depth == 1:
        return count_moves(p, r, paths)
    if tt_probe(tt, p, key, depth, &total):
        return total
    ml.paths = NULL
    gen_moves(p, r, &ml)
    for i in range(ml.n):
        make_move(&child, p, &ml.moves[i])
        sub = perft_tt(&child, key_after(key, p, &ml.moves[i]), r, depth - 1, paths, tt)
        total += ml.moves[i].paths * sub if paths else sub
    tt_store(tt, p, key, depth, total)
    return total


def perft(white, black, kings, turn, RuleSet rules not None, int depth, bint paths=False,
          PerftTable table=None):
    """Leaf count of a position given as 32-bit square masks (see movegen.legal_moves).

    Releases the GIL while counting, so threads run in parallel.
    """
    cdef Position p
    cdef u64 n
    cdef Table *tt = NULL
    if depth < 0:
        raise ValueError(f"depth must be 0 or more, not {depth}")
    position_from_masks(&p, white, black, kings, turn)
    if table is not None:
        tt = &table.t
    with nogil:
        if depth == 0:
            n = 1
        elif tt != NULL and depth >= 3:
            n = perft_tt(&p, zobrist(&p), &rules.c, depth, paths, tt)
        else:
            n = perft_rec(&p, &rules.c, depth, paths)
    return n


def zobrist_key(white, black, kings, turn):
    """The Zobrist key of a position given as square masks."""
    cdef Position p
    position_from_masks(&p, white, black, kings, turn)
    return zobrist(&p)
