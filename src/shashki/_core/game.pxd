from .kernel cimport Pos, Move as KMove
from .draws cimport DrawRules, DrawState, StepRules
from .move cimport Notation
from .position cimport Kernel


cdef class Game:
    cdef readonly object variant        # the game's record (shashki.variants.Variant)
    cdef readonly bint fmjd_draw_rules  # the game's endgame draw rules in force
    cdef Kernel kernel
    cdef Notation notation
    cdef DrawRules draw_rules
    cdef int claims                     # bits (1 << Termination) of the draws a player claims
    cdef bint reversed_goal             # giveaway, antidraughts: the side with no move wins

    cdef int build(self, object variant, bint fmjd) except -1
    cdef int check(self, object position, str name) except -1
    cdef object outcome_at(self, const Pos *p, const DrawState *d, int nmoves,
                           const KMove *moves, const Pos *hist, int nh, bint claim_draw)
    cdef StepRules step_rules(self, bint claim_draw) noexcept


cdef Game game_of(object variant, bint fmjd_draw_rules)
