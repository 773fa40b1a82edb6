from .kernel cimport Pos, KernelOps
from .move cimport Move
from .position cimport PositionBase
from .draws cimport DrawRules, DrawState
from .game cimport Game


cdef class BoardCore(PositionBase):
    cdef readonly Game game             # the rules: kernel, notation, draw rules (shashki.Game)
    cdef const KernelOps *ops
    cdef DrawState draws
    # the history: before each ply played, the position and the draw counters (two arrays:
    # the positions are the history that draws.pxd counts repetitions over)
    cdef Pos *hist
    cdef DrawState *hist_draws
    cdef int nhist
    cdef int cap_hist
    cdef public list move_stack
    cdef readonly int root_ply          # plies of the game before the first position

    cdef int restart(self, const Pos *p, int root_ply) except -1
    cdef int grow_history(self) except -1
    cdef int push_index(self, int i, Move move) except -1
    cdef int repetitions(self, int limit) noexcept
    cdef bint repetition_ahead(self) except -1
    cdef int _termination(self, int skip) except -1
