from .bits cimport u64
from .kernel cimport Pos, KernelOps
from .move cimport Move, Notation, MoveTable


cdef class Kernel:
    cdef const KernelOps *ops
    cdef readonly str name
    cdef readonly int squares       # playable squares: 32 on 8x8, 50 on 10x10, 64 in turkish
    cdef const int *bit             # square -> the kernel's bit
    cdef const int *square          # bit -> square (-1 for a ghost bit)
    cdef int turned[64]             # bit -> the bit of the square half a turn away

    cdef u64 to_ghost(self, unsigned long long mask) noexcept nogil
    cdef unsigned long long from_ghost(self, u64 mask) noexcept nogil
    cdef int set_position(self, Pos *p, object white, object black, object kings,
                          object turn, object king_runs) except -1
    cdef tuple runs_of(self, const Pos *p)


cdef class PositionBase:
    cdef Pos pos
    cdef Kernel kernel
    cdef Notation notation
    cdef MoveTable table            # the legal moves of `pos`, once generated

    cdef int generate(self) except -1
    cpdef int _square(self, object square) except -1
    cdef object piece_on(self, int s)
    cdef Move make(self, int i)
    cdef int find(self, Move m) except -2
    cdef int find_text(self, object text) except -2
    cdef int legal_index(self, Move m) except -1


cdef class Position(PositionBase):
    cdef tuple moves                # the legal moves as Move objects, once asked for
    cdef object ended               # outcome(), once asked for (a Position never changes)
    cdef bint ended_known

    cdef Position child(self, int i)


cdef Position new_position(Kernel kernel, Notation notation, const Pos *p)
cdef str fen_of(Kernel kernel, Notation nt, const Pos *p)
cdef Py_hash_t pos_hash(object variant, const Pos *p) except? -1
# shashki.WHITE or BLACK for the core's number of a side (kernel.pxd: WHITE 0)
cdef object color_of(int turn)
