# The endgame databases in C: the tables of one game, their index, the retrograde builder and
# the probe (egdb.pyx).  The search cimports Egdb and egdb_probe.

from libc.stdint cimport uint8_t, int64_t
from .kernel cimport u64, Position, KernelOps
from .draws cimport DrawRules, DrawState

cdef enum:
    EG_MAXPIECES = 7            # per side and in all
    EG_SIGS = 4096              # signature codes: wm * 512 + wk * 64 + bm * 8 + bk
    # the value of a position, one byte: 0 not in the table (men on the same square), 1 a
    # draw, 2 + d a win, 129 + d a loss, d plies to the next capture or man move (0..126)
    EG_NONE = 0
    EG_DRAW = 1
    EG_WIN = 2
    EG_LOSS = 129
    EG_MAXD = 126

ctypedef struct EgTable:
    uint8_t *data               # NULL: not loaded
    u64 size

ctypedef struct Egdb:
    const KernelOps *ops
    int W
    int R
    int N                       # playable squares
    int nm                      # squares a man may stand on (all but its crowning row)
    int reversed                # giveaway: the side that cannot move wins
    int flying
    int fmjd                    # endgame rules with counters of their own (FMJD-64 7.2.4...)
    int limit                   # plies without a capture or man move before the draw
    DrawRules draws
    int max_pieces              # the most pieces of a loaded table
    int ghost[64]               # square -> ghost bit
    int square[64]              # ghost bit -> square, -1 for a ghost bit
    u64 binom[65][9]
    EgTable tables[EG_SIGS]

cdef int egdb_value(const Egdb *db, const Position *p) noexcept nogil
cdef int egdb_probe(const Egdb *db, const Position *p, const DrawState *d,
                    int *dtz) noexcept nogil
