from libc.stdint cimport uint8_t, int64_t
from .bits cimport u64
from .kernel cimport Pos, Move as KMove, Route, KernelOps, MAXPATH


# name keys: a square's name as a small int, so that move text is read without making strings
# (see name_key in move.pyx): a number 1-127 is itself, a letter and rank 128 + 32 * file + rank
cdef enum:
    NAME_KEYS = 640


cdef class Notation:
    cdef readonly tuple names           # square -> its name in the game's notation
    cdef readonly str capture_sep
    cdef readonly object variant        # the game's record (shashki.variants.Variant)
    cdef bint numeric                   # squares are numbers
    cdef int nsquares
    cdef int order[64]                  # the squares in the order a FEN lists them
    cdef int number[64]                 # square -> its number (numeric games)
    cdef signed char by_key[NAME_KEYS]  # name_key of a square's name -> the square (-1: none)


cdef class Move:
    cdef int _origin
    cdef int _destination
    cdef u64 _captured                  # square mask
    cdef int _routes
    cdef bint _promotion
    cdef uint8_t n                      # captures on the route below (0: no route known)
    cdef uint8_t land[MAXPATH]          # landing squares of one route, in order
    cdef uint8_t took[MAXPATH]          # squares captured, in the same order
    cdef bint ambiguous                 # another legal move joins the same two squares
    cdef Notation notation              # None: a move written by hand, with no game
    cdef object text                    # the text, once computed (or given)
    cdef int64_t stamp                  # the legal-move list it came from (0: none)
    cdef int index                      # its place in that list


ctypedef struct MoveTable:
    # The legal moves of one position as a Board or a Position keeps them: the kernel's moves,
    # one route of each, and which join the same two squares as another (their text is then
    # the whole route).  `stamp` names the list: a Move made from it carries it.
    KMove *moves
    Route *routes
    uint8_t *amb
    int n
    int cap
    int64_t stamp                       # 0: not generated


cdef int table_generate(MoveTable *t, const KernelOps *ops, const Pos *p) except -1
cdef void table_free(MoveTable *t) noexcept
cdef Move table_move(const MoveTable *t, int i, const int *square, Notation notation)
cdef int table_find(const MoveTable *t, Move m, const int *bit, int squares) noexcept
cdef int text_squares(Notation nt, str text, int *origin, int *destination) except -2
