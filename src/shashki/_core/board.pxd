from .kernel cimport Pos, KernelOps
from .move cimport Move
from .position cimport PositionBase
from .draws cimport DrawRules, DrawState, GameState
from .game cimport Game


cdef class BoardCore(PositionBase):
    cdef readonly Game game             # the rules: kernel, notation, draw rules (shashki.Game)
    cdef const KernelOps *ops
    # the draw counters now and the positions before each ply played (draws.pxd GameState,
    # as the playouts and the vector env keep it), and the draw counters before each ply
    # (room for state.hist.cap), which pop() restores
    cdef GameState state
    cdef DrawState *hist_draws
    cdef public list move_stack
    cdef readonly int root_ply          # plies of the game before the first position

    cdef int restart(self, const Pos *p, int root_ply) except -1
    cdef int grow_history(self) except -1
    cdef int push_index(self, int i, Move move) except -1
    cdef int repetitions(self, int limit) noexcept
    cdef bint repetition_ahead(self) except -1
    cdef int _termination(self, int skip) except -1
