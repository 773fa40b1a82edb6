# The action encoding of a position's legal moves, in C, for the Board (actions.pyx) and the
# batched playouts (playouts.pyx).  shashki/actions.md in the docs describes it.

from libc.stdint cimport int32_t
from .kernel cimport Move

cdef enum:
    # the planes of an observation (Board.planes)
    PLANES = 10

# The action of each of the `n` moves (a list as a kernel gives it) into out[0..n-1]; `square`
# maps ghost bits to squares (Kernel.square), `nsq` is the number of squares; with `flip` the
# squares are numbered from Black's side (the board turned half a turn).
cdef void move_actions(const Move *moves, int n, const int *square, int nsq, bint flip,
                       int32_t *out) noexcept nogil
