# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""Perft: count the leaves of the move tree, in C, with bulk counting at the last ply.

Two conventions (see RULES.md): by default a leaf is a legal move (origin, destination,
captured set); with `paths` every route with a distinct order of captures counts.  Routes of
one move lead to the same position, so the paths count is the unique count weighted by the
number of routes: one tree walk serves both.

Each ply keeps its move list on the C stack: memory is flat whatever the depth.
"""

from .board cimport u64, Position, Move, MoveList, Rules, make_move
from .movegen cimport RuleSet, gen_moves, count_moves, position_from_masks


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


cdef u64 perft_c(const Position *p, const Rules *r, int depth, bint paths) noexcept nogil:
    if depth <= 0:
        return 1
    return perft_rec(p, r, depth, paths)


def perft(white, black, kings, turn, RuleSet rules not None, int depth, bint paths=False):
    """Leaf count of a position given as 32-bit square masks (see movegen.legal_moves)."""
    cdef Position p
    cdef u64 n
    if depth < 0:
        raise ValueError(f"depth must be 0 or more, not {depth}")
    position_from_masks(&p, white, black, kings, turn)
    with nogil:
        n = perft_c(&p, &rules.c, depth, paths)
    return n
