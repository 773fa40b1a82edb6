# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The core's C internals laid open for the tests, kept out of the modules that serve users
(as CPython's _testcapi and numpy's _multiarray_tests: helpers that reach C functions must be
compiled with the core).  No user calls these; their names and results may change at will."""

from libc.string cimport memset
from .bits cimport u64, ctz, pext, fast_pdep
from .kernel cimport WHITE, BLACK, Pos, Move, MoveList, KernelOps, make_move, list_init, list_free
from .position cimport Kernel, PositionBase
from .board cimport BoardCore
from .playouts cimport squares_by_rows
from .keys cimport init_keys, zobrist, child_key

init_keys()         # (this module's copy of the keys' table)


def child_keys_agree(PositionBase board not None):
    """Whether the key the search gives each child of the board's position (updated from its
    parent's, the kings' runs included) is the key of the child itself."""
    cdef MoveList ml
    cdef Pos child
    cdef const KernelOps *ops = board.kernel.ops
    cdef u64 key = zobrist(&board.pos)
    cdef int i
    list_init(&ml, NULL)
    ops.moves(&board.pos, &ml)
    try:
        for i in range(ml.n):
            make_move(&child, &board.pos, &ml.moves[i])
            if child_key(key, &board.pos, &ml.moves[i], &child) != zobrist(&child):
                return False
        return True
    finally:
        list_free(&ml)


def drawn_moves(BoardCore board not None):
    """Every move the playouts can draw in the board's position without listing them, as
    (origin, destination, promotion, captured squares) in the order of their index, or None
    when they list the moves (a capture other than one man's single jump).  They must be the
    legal moves.  Move i is drawn by the random number that picks it."""
    cdef Move m
    cdef int i, n
    cdef u64 high, cap
    cdef Kernel k = board.kernel
    memset(&m, 0, sizeof(m))
    n = k.ops.pick(&board.pos, 0, &m)
    if n < 0:
        return None
    out = []
    for i in range(n):
        # the smallest high half that random_below scales to i
        high = ((<u64>i << 32) + <u64>n - 1) // <u64>n
        if k.ops.pick(&board.pos, high << 32, &m) != n:
            raise AssertionError("pick counted the moves differently")
        captured = []
        cap = m.captured
        while cap:
            captured.append(k.square[ctz(cap)])
            cap &= cap - 1
        out.append((k.square[m.frm], k.square[m.to], bool(m.promote), tuple(captured)))
    return out


def square_masks(BoardCore board not None):
    """The board's white, black and king masks as the playouts' records write them, both ways:
    by PEXT (None where the processor does not have it fast) and by rows.  They must agree."""
    cdef u64 masks[3]
    cdef int i
    masks[0] = board.pos.pieces[WHITE]
    masks[1] = board.pos.pieces[BLACK]
    masks[2] = board.pos.kings
    by_rows = tuple([squares_by_rows(masks[i], board.ops.width, board.ops.rows, board.ops.files)
                     for i in range(3)])
    if not fast_pdep():
        return None, by_rows
    return tuple([pext(masks[i], board.ops.board) for i in range(3)]), by_rows
