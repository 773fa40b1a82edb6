# The action encoding of a position's legal moves, in C, for the Board (actions.pyx) and the
# batched playouts (playouts.pyx).  shashki/actions.md in the docs describes it.

from libc.stdint cimport int32_t
from .kernel cimport Pos, Move, MoveList, KernelOps
from .draws cimport DrawRules, DrawState

# (the sizes, the action space's and the observation's, are spaces.pxd's)

# The action of each of the `n` moves (a list as a kernel gives it) into out[0..n-1]; `square`
# maps ghost bits to squares (Kernel.square), `nsq` is the number of squares; with `flip` the
# squares are numbered from Black's side (the board turned half a turn).
cdef void move_actions(const Move *moves, int n, const int *square, int nsq, bint flip,
                       int32_t *out) noexcept nogil

# The `n` actions `acts` sorted ascending, and the moves `moves` (unless NULL) with them: an
# insertion sort, for the few moves of a position with a capture.
cdef void sort_actions(int32_t *acts, Move *moves, int n) noexcept nogil

# The actions of the legal moves of `p` into `acts`, not in order (captures listed into `ml`):
# their number, or -1 when the move list overflowed.
cdef int position_actions(const KernelOps *ops, const Pos *p, bint flip, MoveList *ml,
                          int32_t *acts) noexcept nogil

# What the pieces and the side to move of `p` put in the planes (see Board.planes) into `out`,
# PLANES x rows x files floats already zeroed; with `flip` from Black's side.
cdef void position_planes(const KernelOps *ops, const Pos *p, bint flip,
                          float *out) noexcept nogil

# The values of the planes of a game's history (repetitions, draw counters), one value a plane:
# plane k's in v[k], k = 5..9 (see actions.pyx).  `seen`: the position's occurrences, 1-3.
cdef void history_values(const DrawRules *r, const DrawState *d, const Pos *p, int seen,
                         bint king_limit, float *v) noexcept nogil


cdef inline float fraction(int count, int limit) noexcept nogil:
    # a count over its limit, 0 to 1 (0 for a rule the game does not have)
    if limit <= 0 or count <= 0:
        return 0.0
    return 1.0 if count >= limit else <float>count / limit


cdef inline void fill(float *plane, int cells, float value) noexcept nogil:
    cdef int i
    for i in range(cells):
        plane[i] = value
