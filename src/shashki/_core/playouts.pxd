# What the random games of shashki.playouts share between playouts.pyx (the Python edge: it
# fills a Config, shares the games out into Chunks and joins their results) and each game's
# kernel, which plays them (playout.pxi, compiled into every kernel with the game's rules as
# constants: KernelOps.play).  Types and inline functions only: cimporting them imports nothing.

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t
from cpython.mem cimport PyMem_RawRealloc

from .bits cimport u64
from .kernel cimport Pos, Move, MoveList, KernelOps
from .draws cimport DrawRules, DrawState, History, StepRules


cdef struct Chunk:
    int64_t first               # games first..last-1
    int64_t last
    MoveList *ml
    History hist                # the positions before the plies of the game being played
    u64 *positions              # 4 words a ply: white, black, kings (square masks), turn
    int32_t *actions
    int64_t nrec
    int64_t cap_rec
    int error                   # OUT_OF_MEMORY or OVERFLOW


cdef struct Config:
    const KernelOps *ops        # the game's kernel
    StepRules step              # how its games end (Game.step_rules)
    bint reversed_goal          # giveaway: the side with no move wins
    Pos start
    DrawState start_draws
    const Pos *prefix      # the start board's last positions, for repetitions
    int nprefix
    u64 seed
    int64_t max_plies           # -1: no limit
    const int *square           # ghost bit -> square
    int nsq
    bint perspective            # actions numbered from the side to move's side
    bint record_positions
    bint record_actions
    bint record                 # either: then record_ply is called before each move is made
    void (*record_ply)(const Config *cf, Chunk *ch, const Pos *p, const MoveList *ml,
                       const Move *m, int choice) noexcept nogil
    int8_t *results
    int32_t *lengths
    uint8_t *terminations


cdef enum:
    OUT_OF_MEMORY = 1
    OVERFLOW = 2                # more legal moves than recorded actions can number


# --- random numbers: one xorshift64* stream per game, seeded by splitmix64 -------------------

cdef inline u64 mix(u64 z) noexcept nogil:
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline u64 next_random(u64 *state) noexcept nogil:
    # xorshift64* (Vigna): its high 32 bits, the ones used, pass BigCrush
    cdef u64 x = state[0]
    x ^= x >> 12
    x ^= x << 25
    x ^= x >> 27
    state[0] = x
    return x * 0x2545F4914F6CDD1DULL


cdef inline bint regrow(void **block, size_t size) noexcept nogil:
    # realloc in place; False (the block unchanged) when there is no memory.  The raw domain
    # (no GIL needed): the records' blocks become Buffers (arrays.adopt_buffer)
    cdef void *a = PyMem_RawRealloc(block[0], size)
    if a == NULL:
        return False
    block[0] = a
    return True


cdef inline u64 squares_by_rows(u64 ghost, int width, int rows, int files) noexcept nogil:
    # a kernel's mask as a square mask, where PEXT is slow or missing (the tests compare the
    # two): on a dark-square board each pair of rows is 2 * width + 1 bits, the ghost bit
    # after the first row of the pair; a full board's word is its squares
    cdef u64 out = 0
    cdef u64 row = ((<u64>1) << width) - 1
    cdef int k
    if width == files:
        return ghost
    for k in range(rows // 2):
        out |= ((ghost >> ((2 * width + 1) * k)) & row) << (2 * width * k)
        out |= ((ghost >> ((2 * width + 1) * k + width + 1)) & row) << (2 * width * k + width)
    return out
