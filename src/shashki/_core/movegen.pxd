from .board cimport Position, Rules, Move, MoveList, u64

cdef void gen_captures(const Position *p, const Rules *r, MoveList *ml) noexcept nogil
cdef void gen_moves(const Position *p, const Rules *r, MoveList *ml) noexcept nogil
cdef u64 count_moves(const Position *p, const Rules *r, bint paths) noexcept nogil
cdef u64 zobrist(const Position *p) noexcept nogil
cdef u64 key_after(u64 key, const Position *p, const Move *m) noexcept nogil

cdef class RuleSet:
    cdef Rules c
    cdef readonly str name

cdef int position_from_masks(Position *p, object white, object black, object kings,
                             object turn) except -1
