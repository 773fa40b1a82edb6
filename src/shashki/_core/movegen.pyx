# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The Python edge of the compiled kernels: a `Kernel` per game, and positions and moves
converted between square masks and the kernels' ghost layout.

The kernels themselves (one per rules record, compiled from kernel.pxi) are in
shashki._core.kernels; each exports its entry points as a KernelOps table in a capsule, which
`Kernel` holds.  Squares at this edge are numbered 0.. row by row from White's side (a1 = 0 on
8x8), and masks use the same numbering; the ghost layout stays inside the core.
"""

from cpython.mem cimport PyMem_Malloc, PyMem_Free
from cpython.pycapsule cimport PyCapsule_GetPointer
from .kernel cimport (u64, WHITE, BLACK, MAXMOVES, Position, Move, Route, MoveList,
                      KernelOps, ctz, make_move, scatter, RUN_ON)


cdef class Kernel:
    """The compiled move generator of one set of rules and one board (see shashki.variants)."""

    def __cinit__(self, str name, object capsule):
        cdef int s, row, col, w, g
        self.ops = <const KernelOps *>PyCapsule_GetPointer(capsule, "shashki._core.KernelOps")
        self.name = name
        w = self.ops.width
        self.squares = w * self.ops.rows
        for g in range(64):
            self.square[g] = -1
        for s in range(self.squares):
            row = s // w
            col = s % w
            g = (2 * w + 1) * (row // 2) + (w + 1) * (row % 2) + col
            self.bit[s] = g
            self.square[g] = s

    def __repr__(self):
        return f"<Kernel {self.name}>"

    def __reduce__(self):
        # a kernel is found again by name (shashki.variants loads it)
        return (_kernel_by_name, (self.name,))

    cdef u64 to_ghost(self, unsigned long long mask) noexcept nogil:
        return scatter(mask, self.bit)

    cdef unsigned long long from_ghost(self, u64 mask) noexcept nogil:
        return scatter(mask, self.square)

    cdef int position(self, Position *p, object white, object black, object kings,
                      object turn, object runs=0) except -1:
        # `runs`: the kings' runs packed as shashki.fen.pack_runs (frisian; the caller has
        # checked them), else 0
        cdef unsigned long long w, b, k
        cdef int c, n
        if not (isinstance(white, int) and isinstance(black, int) and isinstance(kings, int)):
            raise TypeError("square masks must be ints")
        if white < 0 or black < 0 or kings < 0 or (white | black | kings) >> self.squares:
            raise ValueError(f"square masks must fit in {self.squares} bits")
        w = white
        b = black
        k = kings
        if w & b:
            raise ValueError("a square holds both a white and a black piece")
        if k & ~(w | b):
            raise ValueError("a king mask bit is set on an empty square")
        if turn not in (WHITE, BLACK):
            raise ValueError("turn must be 0 (white) or 1 (black)")
        p.pieces[0] = self.to_ghost(w)
        p.pieces[1] = self.to_ghost(b)
        p.kings = self.to_ghost(k)
        p.turn = turn
        # no king has moved yet; a game that limits a king's moves in a row counts them here
        p.run = RUN_ON if self.ops.king_limit else 0
        if runs and p.run:
            for c in range(2):
                n = (runs >> (8 * c)) & 3
                if n:
                    p.run |= ((n << 6) | self.bit[(runs >> (8 * c + 2)) & 63]) << (8 * c)
        return 0

    def legal_moves(self, white, black, kings, turn, runs=0):
        """The legal moves of a position given as square masks.

        Returns a list of tuples (origin, destination, captured_mask, routes, promote, path,
        taken): `path` is one route's landing squares after the origin, `taken` the squares it
        captures in that order; `routes` counts the routes with distinct capture order.
        """
        return self._moves(white, black, kings, turn, True, runs)

    def routes(self, white, black, kings, turn, runs=0):
        """Every route of every legal move, one tuple each as legal_moves gives them (routes
        1): the routes a move written in full is checked against."""
        return self._moves(white, black, kings, turn, False, runs)

    def _moves(self, white, black, kings, turn, bint merge, runs=0):
        cdef Position p
        cdef MoveList *ml
        cdef Route *routes
        cdef Move *m
        cdef int i, j
        self.position(&p, white, black, kings, turn, runs)
        ml = <MoveList *>PyMem_Malloc(sizeof(MoveList))
        routes = <Route *>PyMem_Malloc(MAXMOVES * sizeof(Route))
        if ml == NULL or routes == NULL:
            PyMem_Free(ml)
            PyMem_Free(routes)
            raise MemoryError()
        try:
            ml.routes = routes
            ml.merge = merge
            with nogil:
                self.ops.routes(&p, ml)
            if ml.overflow:
                raise OverflowError("more legal moves than the move list holds")
            out = []
            for i in range(ml.n):
                m = &ml.moves[i]
                if m.ncapt:
                    path = tuple([self.square[routes[i].land[j]] for j in range(m.ncapt)])
                    taken = tuple([self.square[routes[i].took[j]] for j in range(m.ncapt)])
                else:
                    path = (self.square[m.to],)
                    taken = ()
                out.append((self.square[m.frm], self.square[m.to], self.from_ghost(m.captured),
                            m.routes, bool(m.promote), path, taken))
            return out
        finally:
            PyMem_Free(ml)
            PyMem_Free(routes)

    def apply_move(self, white, black, kings, turn, int origin, int destination, captured,
                   bint promote):
        """The square masks after a move (no legality check: pass a move from legal_moves)."""
        cdef Position p, q
        cdef Move m
        cdef u64 f, t
        self.position(&p, white, black, kings, turn)
        if not (0 <= origin < self.squares and 0 <= destination < self.squares):
            raise ValueError(f"squares are numbered 0..{self.squares - 1}")
        f = (<u64>1) << self.bit[origin]
        t = (<u64>1) << self.bit[destination]
        m.ft = f ^ t
        m.captured = self.to_ghost(captured)
        if p.kings & f:
            m.kx = m.ft
        else:
            m.kx = t if promote else 0
        make_move(&q, &p, &m)
        return (self.from_ghost(q.pieces[0]), self.from_ghost(q.pieces[1]),
                self.from_ghost(q.kings), q.turn)


def _kernel_by_name(name):
    from ..variants import get_variant
    return get_variant(name).rules
