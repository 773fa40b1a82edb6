from .kernel cimport Position, KernelOps, u64

cdef class Kernel:
    cdef const KernelOps *ops
    cdef readonly str name
    cdef readonly int squares       # playable squares: 32 on 8x8, 50 on 10x10
    cdef int bit[64]                # square -> ghost bit
    cdef int square[64]             # ghost bit -> square (-1 for a ghost bit)

    cdef u64 to_ghost(self, unsigned long long mask) noexcept nogil
    cdef unsigned long long from_ghost(self, u64 mask) noexcept nogil
    cdef int position(self, Position *p, object white, object black, object kings,
                      object turn, object runs=*) except -1
