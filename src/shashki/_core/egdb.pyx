# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""Endgame databases in C: the tables of one game in memory and their probe (the index of
positions is in egdb.pxd, the retrograde builder in egdb_build.pyx).

A table holds every position of one material signature (white men, white kings, black men,
black kings) with White to move; a position with Black to move is looked up turned half
round with the colours swapped (the rules of every game are the same seen from either side).
Its index: the white men among the squares a white man may stand on (all but White's
crowning row), the black men likewise, then the white kings among the squares the men leave
free and the black kings among the rest, each set ranked in colex order.  An index whose men
share a square is no position (value 0).

The value of a position is one byte: a draw, or a win or loss with its distance in plies to
the next capture or man move on the best line (as Syzygy's DTZ).  The values are those of the
game's rules with the counters of its draw rules fresh at the position: a win that cannot
be converted before a draw rule ends the game (15 moves of kings only in russian, 40 moves
without progress in english ...) is a draw.  The probe compares the distance with what the
board's counters leave (egdb_probe).

The builder: signatures with fewer pieces first, then fewer men (a capture or a crowning
leads to one built before); within a signature, the placements of the men from the most
advanced (a man's move leads to one built before).  One placement of the men and its mirror
image (the same position with the other side to move) form a slice in which only kings move;
its positions are solved together by retrograde analysis: the moves that leave the slice
(captures, man moves) are looked up, the others are counted, and the results spread back from
the positions won, lost and ended, ply by ply, through the kings' moves un-made.  A win or
loss is accepted only within the plies the draw rules allow; what is never resolved is drawn.
"""

from cpython.mem cimport PyMem_Malloc, PyMem_Free
from libc.string cimport memset
from libc.stdint cimport uint8_t, int64_t

from .bits cimport u64, popcount
from .kernel cimport WHITE, BLACK, Pos, KernelOps
from .position cimport Kernel
from .board cimport BoardCore
from .game cimport Game
from .draws cimport DrawRules, DrawState, draw_rule
from .enums cimport T_NONE


# --- the probe ---------------------------------------------------------------------------------

cdef int egdb_value(const Egdb *db, const Pos *p) noexcept nogil:
    """The table's byte for `p`, or -1 when its table is not loaded (or too many pieces)."""
    cdef SqPos q
    cdef int code
    cdef int64_t i
    to_sq(db, p, &q)
    if not (q.wm | q.wk):
        return terminal_value(db)           # the side to move has no piece left
    if popcount(q.wm | q.wk | q.bm | q.bk) > db.max_pieces or not (q.bm | q.bk):
        return -1
    if q.wm & ~men_rows_mask(db) or q.bm & ~(men_rows_mask(db) << db.W):
        return -1                           # a man on its crowning row: no position
    i = index_of(db, &q, &code)
    if db.tables[code].data == NULL or <u64>i >= db.tables[code].size:
        return -1
    return db.tables[code].data[i]


cdef int plies_left(const Egdb *db, const Pos *p, const DrawState *d,
                           int most) noexcept nogil:
    """Plies from `p` (counters `d`) before a draw rule ends the game, at most `most`: the
    first t at which a rule holds, the counters grown by t plies and the side to move
    alternating (the pieces as they stand)."""
    cdef DrawState e
    cdef Pos q = p[0]
    cdef int t
    for t in range(most):
        e.halfmove = d.halfmove + t
        e.balance = d.balance + t
        e.road = d.road + t if d.road >= 0 else -1
        e.few = d.few + t if d.few >= 0 else -1
        q.turn = p.turn ^ (t & 1)
        if draw_rule(&e, &q, &db.draws, 0) != T_NONE:
            return t
    return most


cdef int egdb_probe(const Egdb *db, const Pos *p, const DrawState *d,
                    int *dtz) noexcept nogil:
    """-2 when `p` is not in the loaded tables; else 1 (a win for the side to move), 0 (a
    draw) or -1 (a loss) by the rules with the counters `d`, and the distance in `dtz`."""
    cdef int v = egdb_value(db, p)
    cdef int dist
    if v < 0:
        return -2
    dtz[0] = 0
    if v == EG_DRAW or v == EG_NONE:
        return 0
    dist = v - EG_WIN if v < EG_LOSS else v - EG_LOSS
    # the conversion is made from the position `dist - 1` plies ahead: every position before
    # it must be live
    if dist > 0 and plies_left(db, p, d, dist) < dist:
        return 0
    dtz[0] = dist
    return 1 if v < EG_LOSS else -1


# --- the tables' Python edge ------------------------------------------------------------------

cdef class EgdbTables:
    """The endgame tables of one game in memory, for probing (and for building and
    verifying them: shashki._core.egdb_build)."""

    def __cinit__(self, Game game not None):
        # the game's rules: its kernel, its draw rules, whether the side with no move wins
        # (giveaway) and whether kings fly
        cdef Kernel kernel = game.kernel
        cdef int W, n, k
        self.db = <Egdb *>PyMem_Malloc(sizeof(Egdb))
        if self.db == NULL:
            raise MemoryError()
        memset(self.db, 0, sizeof(Egdb))
        self.db.ops = kernel.ops
        W = kernel.ops.width
        self.db.W = W
        self.db.R = kernel.ops.rows
        self.db.N = W * kernel.ops.rows
        self.db.nm = self.db.N - W
        self.db.reversed = game.reversed_goal
        self.db.flying = game.variant.flying_kings
        self.db.draws = game.draw_rules
        # endgame rules with their own counters (FMJD-64 7.2.4, 7.2.6-7.2.8; FMJD 6.3-6.4)
        self.db.fmjd = (game.draw_rules.lone_king_moves or game.draw_rules.balance_plies[0]
                        or game.draw_rules.three_moves or game.draw_rules.few_moves) != 0
        self.db.limit = game.draw_rules.kings_only_plies or game.draw_rules.no_progress_plies
        self.db.max_pieces = 0
        self.variant = game.variant
        self.kernel = kernel      # (its tables of squares are the Egdb's)
        self._buffers = []
        self.db.ghost = kernel.bit
        self.db.square = kernel.square
        for n in range(65):
            for k in range(9):
                if k == 0:
                    self.db.binom[n][k] = 1
                elif n == 0:
                    self.db.binom[n][k] = 0
                else:
                    self.db.binom[n][k] = self.db.binom[n - 1][k - 1] + self.db.binom[n - 1][k]

    def __dealloc__(self):
        if self.db != NULL:
            PyMem_Free(self.db)

    @property
    def squares(self):
        return self.db.N

    @property
    def limit(self):
        """Plies without a capture or man move that the draw rules allow (fresh counters)."""
        return self.db.limit

    @property
    def max_pieces(self):
        return self.db.max_pieces

    def size(self, int wm, int wk, int bm, int bk):
        """Positions (indices) of the table of a signature."""
        return sig_size(self.db, wm, wk, bm, bk)

    def attach(self, int wm, int wk, int bm, int bk, buffer):
        """Use `buffer` (a writable bytes-like object of size() bytes, kept alive here) as
        the table of a signature."""
        cdef uint8_t[::1] view = buffer
        cdef int code = sig_code(wm, wk, bm, bk)
        if <u64>view.shape[0] != sig_size(self.db, wm, wk, bm, bk):
            raise ValueError(f"a table of {wm}{wk}{bm}{bk} has "
                             f"{sig_size(self.db, wm, wk, bm, bk)} bytes, not {view.shape[0]}")
        self._buffers.append(buffer)
        self.db.tables[code].data = &view[0] if view.shape[0] else NULL
        self.db.tables[code].size = view.shape[0]
        if wm + wk + bm + bk > self.db.max_pieces:
            self.db.max_pieces = wm + wk + bm + bk

    def has(self, int wm, int wk, int bm, int bk):
        return self.db.tables[sig_code(wm, wk, bm, bk)].data != NULL

    def value(self, BoardCore board not None):
        """The table's byte for the board's position (-1: no table loaded for it)."""
        return egdb_value(self.db, &board.pos)

    def probe(self, BoardCore board not None):
        """(-2 not in the tables, or 1 / 0 / -1 for the side to move by the rules and the
        board's counters; the distance in plies to the next capture or man move)."""
        cdef int dtz = 0
        cdef int r = egdb_probe(self.db, &board.pos, &board.state.draws, &dtz)
        return r, dtz

    def address(self):
        """The address of the C tables (for the search, which keeps this object alive)."""
        return <size_t>self.db
