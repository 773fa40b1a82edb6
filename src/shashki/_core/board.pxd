from libc.stdint cimport uint8_t, int64_t
from .kernel cimport u64, Position, Move as KMove, Route, KernelOps, MAXPATH
from .movegen cimport Kernel
from .draws cimport DrawRules, DrawState


cdef class Notation:
    cdef readonly tuple names           # square -> its name in the game's notation
    cdef readonly str capture_sep
    cdef readonly object variant        # the game's record (shashki.variants.Variant)
    cdef bint numeric                   # squares are numbers
    cdef int nsquares
    cdef int order[64]                  # the squares in the order a FEN lists them
    cdef int number[64]                 # square -> its number (numeric games)


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


ctypedef struct Ply:
    Position pos                        # the position before the move
    DrawState draws


cdef class BoardCore:
    cdef Kernel kernel
    cdef const KernelOps *ops
    cdef Notation notation
    cdef DrawRules draw_rules
    cdef int claims                     # bits (1 << Termination) of the draws a player claims
    cdef bint reversed_goal
    cdef Position pos
    cdef DrawState draws
    cdef Ply *hist
    cdef int nhist
    cdef int cap_hist
    cdef public list move_stack
    cdef public object variant
    cdef public bint fmjd_draw_rules
    # the legal moves of `pos`, once generated
    cdef KMove *moves
    cdef Route *routes
    cdef uint8_t *amb
    cdef int nmoves
    cdef int cap_moves
    cdef int64_t stamp                  # 0: not generated

    cdef int generate(self) except -1
    cdef int grow(self, int n) except -1
    cdef int grow_history(self) except -1
    cdef int push_index(self, int i, Move move) except -1
    cdef int find(self, Move m) except -2
    cdef Move make(self, int i)
    cdef int repetitions(self, const Position *p, int window, int limit) noexcept
    cdef bint repetition_ahead(self) except -1
    cdef int _termination(self, int skip) except -1
