# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""Perft: count the leaves of the move tree, in C, with bulk counting at the last ply.

Two conventions (docs/games/index.md, "Move identity and perft"): by default a leaf is a legal move (origin, destination,
captured set); with `paths` every route with a distinct order of captures counts.  Routes of
one move lead to the same position, so the paths count is the unique count weighted by the
number of routes: one tree walk serves both.

The walk itself is in each game's kernel (kernel_perft.pxi), compiled with the game's rules
as constants; Position.perft calls it (shashki._core.position).  Each ply keeps its move list on the C stack: memory is flat whatever the depth.
An optional transposition table (`PerftTable`) stores the whole position with the depth, so a
hash collision can never return another position's count.  Threads may share a table: each
bucket then has a spinlock held only while it is read or written.
"""

from cpython.mem cimport PyMem_RawCalloc, PyMem_RawFree
from libc.string cimport memset

from .bits cimport u64
from .perft_table cimport PerftTable as Table, PerftBucket, add_count

cdef extern from *:
    """
    /* A big table is probed at random: with 4 KiB pages nearly every probe misses the TLB, and
       the first touch of each page is a fault.  On Linux the table is mapped in 2 MiB-aligned
       memory marked for transparent huge pages (used where the system allows them), zeroed by
       the system page by page as it is first touched.  Elsewhere: calloc. */
    #include <stddef.h>
    #include <stdint.h>
    #include <stdlib.h>
    #if defined(__linux__)
    #include <sys/mman.h>
    #define SHASHKI_HUGE ((size_t)2 << 20)
    static size_t shashki_table_span(size_t bytes) {
        return (bytes + SHASHKI_HUGE - 1) & ~(SHASHKI_HUGE - 1);
    }
    static void *shashki_table_alloc(size_t bytes) {
        size_t span = shashki_table_span(bytes);
        char *p = (char *)mmap(NULL, span + SHASHKI_HUGE, PROT_READ | PROT_WRITE,
                               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        char *a;
        if (p == (char *)MAP_FAILED) return NULL;
        a = (char *)(((uintptr_t)p + SHASHKI_HUGE - 1) & ~(uintptr_t)(SHASHKI_HUGE - 1));
        if (a > p) munmap(p, (size_t)(a - p));
        if (p + span + SHASHKI_HUGE > a + span) munmap(a + span, (size_t)(p + span + SHASHKI_HUGE - (a + span)));
    #ifdef MADV_HUGEPAGE
        madvise(a, span, MADV_HUGEPAGE);
    #endif
        return a;
    }
    static void shashki_table_free(void *p, size_t bytes) {
        if (p != NULL) munmap(p, shashki_table_span(bytes));
    }
    #else
    static void *shashki_table_alloc(size_t bytes) { return calloc(1, bytes); }
    static void shashki_table_free(void *p, size_t bytes) { (void)bytes; free(p); }
    #endif
    """
    void *table_alloc "shashki_table_alloc"(size_t bytes) noexcept nogil
    void table_free "shashki_table_free"(void *p, size_t bytes) noexcept nogil


cdef class PerftTable:
    """A transposition table for perft of `size_mb` MiB (rounded down to a power of two).

    One table serves one (game, convention) at a time: `clear()` it before reusing it for
    another (`claim` checks).  With `shared=True` (the default) threads may use it at once.
    """

    def __cinit__(self, size_mb, bint shared=True):
        cdef u64 nb
        cdef u64 want
        if size_mb <= 0:
            raise ValueError(f"hash size must be positive, not {size_mb} MiB")
        want = <u64>(size_mb * 1024 * 1024) // sizeof(PerftBucket)
        if want < 1:
            raise ValueError(f"hash size {size_mb} MiB is smaller than one bucket")
        nb = 1
        while nb * 2 <= want:
            nb *= 2
        # zeroed pages from the system as they are first touched: a big table costs nothing to
        # set up, and only the part a run uses is ever cleared
        self.t.buckets = <PerftBucket *>table_alloc(nb * sizeof(PerftBucket))
        self.locks = <char *>PyMem_RawCalloc(nb, 1) if shared else NULL
        if self.t.buckets == NULL or (shared and self.locks == NULL):
            table_free(self.t.buckets, nb * sizeof(PerftBucket))
            PyMem_RawFree(self.locks)
            self.t.buckets = NULL
            self.locks = NULL
            raise MemoryError(f"cannot allocate a {size_mb} MiB perft table")
        self.t.locks = self.locks
        self.t.mask = nb - 1
        self.size_bytes = nb * sizeof(PerftBucket)
        self.owner = None

    def claim(self, str owner):
        """Reserve the table for the counts of `owner` (a game's kernel and a convention);
        ValueError if it holds another's."""
        if self.owner is not None and self.owner != owner:
            raise ValueError(f"this perft table holds counts of {self.owner}, not {owner}; "
                             f"clear() it first")
        self.owner = owner

    def clear(self):
        """Empty the table (this also touches every page of it, so that a timed run that
        follows pays no page faults)."""
        with nogil:
            memset(self.t.buckets, 0, (self.t.mask + 1) * sizeof(PerftBucket))
            if self.locks != NULL:
                memset(self.locks, 0, self.t.mask + 1)
        self.owner = None

    def __dealloc__(self):
        table_free(self.t.buckets, (self.t.mask + 1) * sizeof(PerftBucket))
        PyMem_RawFree(self.locks)


def checked_sum(u64 total, u64 sub, u64 routes):
    """(total + sub * routes modulo 2^64, whether it passed 2^64): the kernels' checked add of
    a child's count into a sum (perft_table.pxd add_count), here for its tests."""
    cdef bint wrapped = add_count(&total, sub, routes)
    return total, bool(wrapped)

