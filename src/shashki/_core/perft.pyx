# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""Perft: count the leaves of the move tree, in C, with bulk counting at the last ply.

Two conventions (see RULES.md): by default a leaf is a legal move (origin, destination,
captured set); with `paths` every route with a distinct order of captures counts.  Routes of
one move lead to the same position, so the paths count is the unique count weighted by the
number of routes: one tree walk serves both.

The walk itself is in each game's kernel (kernel.pxi), compiled with the game's rules as
constants.  Each ply keeps its move list on the C stack: memory is flat whatever the depth.
An optional transposition table (`PerftTable`) stores the whole position with the depth, so a
hash collision can never return another position's count.  Threads may share a table: each
bucket then has a spinlock held only while it is read or written.
"""

from cpython.mem cimport PyMem_Malloc, PyMem_Free
from libc.string cimport memset

from .kernel cimport u64, Position, PerftTable as Table, PerftBucket
from .movegen cimport Kernel


cdef class PerftTable:
    """A transposition table for perft of `size_mb` MiB (rounded down to a power of two).

    One table serves one (game, convention) at a time: `clear()` it before reusing it for
    another.  With `shared=True` (the default) threads may use it at once.
    """
    cdef Table t
    cdef char *locks
    cdef readonly u64 size_bytes
    cdef readonly str owner     # what the entries were counted for, set by the caller

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
        self.t.buckets = <PerftBucket *>PyMem_Malloc(nb * sizeof(PerftBucket))
        self.locks = <char *>PyMem_Malloc(nb) if shared else NULL
        if self.t.buckets == NULL or (shared and self.locks == NULL):
            PyMem_Free(self.t.buckets)
            PyMem_Free(self.locks)
            self.t.buckets = NULL
            self.locks = NULL
            raise MemoryError(f"cannot allocate a {size_mb} MiB perft table")
        self.t.locks = self.locks
        self.t.mask = nb - 1
        self.size_bytes = nb * sizeof(PerftBucket)
        self.owner = None
        self.clear()

    def clear(self):
        with nogil:
            memset(self.t.buckets, 0, (self.t.mask + 1) * sizeof(PerftBucket))
            if self.locks != NULL:
                memset(self.locks, 0, self.t.mask + 1)
        self.owner = None

    def __dealloc__(self):
        PyMem_Free(self.t.buckets)
        PyMem_Free(self.locks)


def perft(white, black, kings, turn, Kernel rules not None, int depth, bint paths=False,
          PerftTable table=None):
    """Leaf count of a position given as square masks (see movegen.Kernel.legal_moves).

    Releases the GIL while counting, so threads run in parallel.
    """
    cdef Position p
    cdef u64 n
    cdef Table *tt = NULL
    cdef int overflow = 0
    if depth < 0:
        raise ValueError(f"depth must be 0 or more, not {depth}")
    rules.position(&p, white, black, kings, turn)
    if table is not None:
        tt = &table.t
    with nogil:
        if depth == 0:
            n = 1
        else:
            n = rules.ops.perft(&p, depth, not paths, tt if depth >= 3 else NULL, &overflow)
    if overflow:
        raise OverflowError("a position in the tree has more moves than a move list holds")
    return n
