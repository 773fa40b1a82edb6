# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The Board's state and its every-ply operations in C: the position, the history of positions
with their draw counters, the legal moves of the position (generated once by the game's
kernel and kept until the position changes), Move values, push/pop/copy, outcome, FEN.

shashki.board.Board subclasses BoardCore with what is not needed every ply (reading FEN and
move text, diagrams, perft, openings).  Python objects are made only at the edge: a Move when
one is asked for, an Outcome when the game ends.
"""

cimport cython
from cpython.mem cimport PyMem_Malloc, PyMem_Realloc, PyMem_Free
from libc.stdint cimport uint8_t, int64_t
from libc.string cimport memcpy, memset
from .kernel cimport (u64, WHITE, BLACK, MAXMOVES, MAXPATH, Position, Move as KMove, Route,
                      MoveList, KernelOps, make_move, ctz)
from .movegen cimport Kernel
from .draws cimport (DrawRules, DrawState, draws_start, draws_after, draw_rule, T_NONE,
                     T_NO_MOVES, T_REPETITION, T_KINGS_VS_LONE_KING, T_KINGS_ONLY, T_BALANCE,
                     T_MAIN_ROAD, T_FEW_PIECES, T_NO_PROGRESS, T_CROWNED)

from ..colors import Color
from ..errors import IllegalMoveError, InvalidMoveError, InvalidSquareError

cdef tuple COLORS = (Color.WHITE, Color.BLACK)
# a new number for every list of legal moves generated: a Move knows which list it came from
cdef int64_t STAMPS = 0
# Where the kernel writes the moves before the board keeps the n it needs: generation runs
# with the GIL held (it takes a fraction of a microsecond, less than releasing the GIL would
# cost), so one buffer serves every board, and no board carries 40 KB.
cdef MoveList SCRATCH
cdef Route SCRATCH_ROUTES[MAXMOVES]


cdef class Notation:
    """How a game names its squares and writes a capture (built by shashki.variants)."""

    def __init__(self, names, str capture_sep, variant):
        cdef int i
        self.names = tuple(names)
        self.capture_sep = capture_sep
        self.variant = variant
        self.numeric = variant.numeric
        self.nsquares = len(self.names)
        if self.nsquares > 64:
            raise ValueError("a board has at most 64 squares")
        # numeric games list squares by number (with ranges); the others by square
        if self.numeric:
            keyed = sorted(range(self.nsquares), key=lambda s: int(self.names[s]))
        else:
            keyed = list(range(self.nsquares))
        for i in range(self.nsquares):
            self.order[i] = keyed[i]
            self.number[i] = int(self.names[i]) if self.numeric else 0

    def __reduce__(self):
        return (_notation_of, (self.variant.name,))


def _notation_of(name):
    from ..variants import get_variant
    return get_variant(name).notation


# --- Move ----------------------------------------------------------------------------------

cdef inline int int_square(object value, str what) except -2:
    # a square number as given by a caller: any int is accepted here (push says whether it is
    # on the board), but not one too large for a C int
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidMoveError(f"{what} must be an int square, not {type(value).__name__}")
    if not -(1 << 30) < value < (1 << 30):
        raise InvalidMoveError(f"{what} {value} is far off any board")
    return value


@cython.freelist(256)
@cython.total_ordering
cdef class Move:
    """A legal move, as `Board.legal_moves` lists it.

    Two moves are equal when they have the same origin, destination and set of captured
    squares (RULES.md "Move identity"); the route (`path`, the order of `captured`) is one of
    possibly several that make the same move, and `routes` counts them.  Squares are ints
    0.. (see shashki.squares).  A move knows its game: `str(move)` is its text in the game's
    notation.  A Move made by hand (``Move(9, 13)``) has no game until a board finds it among
    its legal moves; its str is then the internal form ``s9-s13``, which no game writes.
    """

    def __init__(self, origin, destination, captured=(), path=None, routes=1,
                 promotion=False, text=None):
        cdef int i
        cdef object s
        self._origin = int_square(origin, "origin")
        self._destination = int_square(destination, "destination")
        self._captured = 0
        taken = tuple(captured)
        for s in taken:
            i = int_square(s, "a captured square")
            if not 0 <= i < 64:
                raise InvalidMoveError(f"captured square {i} is off any board")
            self._captured |= (<u64>1) << i
        if isinstance(routes, bool) or not isinstance(routes, int) or not 1 <= routes < (1 << 30):
            raise InvalidMoveError(f"routes must be a positive int, not {routes!r}")
        self._routes = routes
        self._promotion = bool(promotion)
        self.n = 0
        if path is not None:
            path = tuple(path)
            if len(path) - 1 == len(taken) and taken and len(taken) <= MAXPATH and \
                    path[0] == self._origin and path[len(path) - 1] == self._destination:
                for i in range(len(taken)):
                    self.land[i] = int_square(path[i + 1], "a landing square") & 0xFF
                    self.took[i] = int_square(taken[i], "a captured square")
                self.n = len(taken)
        elif len(taken) <= MAXPATH:
            # captured squares in the order given: with no path, the landing squares are
            # unknown, so the route is not kept
            pass
        self.ambiguous = False
        self.notation = None
        self.text = text
        self.stamp = 0

    @property
    def origin(self):
        return self._origin

    @property
    def destination(self):
        return self._destination

    @property
    def routes(self):
        """The number of routes (distinct orders of capture) that make this move."""
        return self._routes

    @property
    def promotion(self):
        """Whether a man is crowned by this move."""
        return self._promotion

    @property
    def is_capture(self):
        return self._captured != 0

    @property
    def captured_mask(self):
        return self._captured

    @property
    def captured(self):
        """The captured squares, in the order of the route in `path` (increasing, if the
        route is not known)."""
        cdef int i
        cdef u64 mask
        if self.n:
            return tuple([self.took[i] for i in range(self.n)])
        out = []
        mask = self._captured
        while mask:
            out.append(ctz(mask))
            mask &= mask - 1
        return tuple(out)

    @property
    def path(self):
        """The squares visited: the origin, then each landing square, ending on the
        destination."""
        cdef int i
        if self.n:
            return (self._origin,) + tuple([self.land[i] for i in range(self.n)])
        return (self._origin, self._destination)

    @property
    def variant(self):
        """The game the move was made in (None for a move written by hand)."""
        return None if self.notation is None else self.notation.variant

    def __eq__(self, other):
        if not isinstance(other, Move):
            return NotImplemented
        cdef Move o = other
        return (self._origin == o._origin and self._destination == o._destination
                and self._captured == o._captured)

    def __ne__(self, other):
        if not isinstance(other, Move):
            return NotImplemented
        cdef Move o = other
        return not (self._origin == o._origin and self._destination == o._destination
                    and self._captured == o._captured)

    def __hash__(self):
        return hash((self._origin, self._destination, self._captured))

    def __lt__(self, other):
        if not isinstance(other, Move):
            return NotImplemented
        cdef Move o = other
        return (self._origin, self._destination, self._captured) < \
            (o._origin, o._destination, o._captured)

    def __str__(self):
        cdef int i
        cdef tuple names
        cdef str sep
        if self.text is not None:
            return self.text
        if self.notation is None:
            # no game: the internal squares, in a form no game's notation uses
            sep = ":" if self._captured else "-"
            squares = [self._origin] + ([self.land[i] for i in range(self.n)] if self.n
                                        else [self._destination])
            self.text = sep.join([f"s{s}" for s in squares])
            return self.text
        names = self.notation.names
        if not self._captured:
            self.text = names[self._origin] + "-" + names[self._destination]
        elif self.ambiguous and self.n:
            # several moves join these two squares: only the route tells them apart
            sep = self.notation.capture_sep
            self.text = sep.join([names[self._origin]] +
                                 [names[self.land[i]] for i in range(self.n)])
        else:
            self.text = names[self._origin] + self.notation.capture_sep + \
                names[self._destination]
        return self.text

    def __repr__(self):
        if self.notation is None:
            captured = f", {self.captured!r}" if self._captured else ""
            return f"Move({self._origin}, {self._destination}{captured})"
        return f"Move({str(self)!r})"

    def __reduce__(self):
        return (_rebuild_move, (self._origin, self._destination, self.captured, self.path,
                                self._routes, self._promotion, self.notation,
                                self.ambiguous))


def _rebuild_move(origin, destination, captured, path, routes, promotion, notation, ambiguous):
    cdef Move m = Move(origin, destination, captured, path, routes, promotion)
    m.notation = notation
    m.ambiguous = ambiguous
    return m


# --- the legal-move view -------------------------------------------------------------------

@cython.freelist(16)
cdef class LegalMoves:
    """A live, cheap view of a board's legal moves: sized, iterable, supports `in`.  The moves
    are generated once per position; a Move is made for each only when iterated."""

    cdef BoardCore board

    def __cinit__(self, BoardCore board):
        self.board = board

    def __len__(self):
        self.board.generate()
        return self.board.nmoves

    def count(self):
        self.board.generate()
        return self.board.nmoves

    def __bool__(self):
        self.board.generate()
        return self.board.nmoves > 0

    def __iter__(self):
        self.board.generate()
        return MoveIterator(self.board)

    def __contains__(self, move):
        if not isinstance(move, Move):
            return False
        return self.board.find(move) >= 0

    def __repr__(self):
        return f"<LegalMoves ({', '.join(map(str, self))})>"


cdef inline bint same_position(const Position *a, const Position *b) noexcept:
    # the kings' runs (frisian) are part of the position: 0 in the other games
    return (a.pieces[0] == b.pieces[0] and a.pieces[1] == b.pieces[1] and a.kings == b.kings
            and a.turn == b.turn and a.run == b.run)


@cython.freelist(16)
cdef class MoveIterator:
    """The moves of a LegalMoves view, made one by one: the moves of the position the view was
    iterated in, whatever is played on the board meanwhile (``for m in board.legal_moves:
    board.push(m) ... board.pop()`` is the usual way to look ahead)."""

    cdef BoardCore board
    cdef int64_t stamp
    cdef Position pos
    cdef int i
    cdef list rest         # the moves left, made at once when the board moved on for good

    def __cinit__(self, BoardCore board):
        self.board = board
        self.stamp = board.stamp
        self.pos = board.pos
        self.i = 0
        self.rest = None

    def __iter__(self):
        return self

    def __length_hint__(self):
        if self.rest is not None:
            return len(self.rest) - self.i
        return self.board.nmoves - self.i if self.board.stamp == self.stamp else 0

    def __next__(self):
        cdef BoardCore b = self.board
        cdef Position now
        cdef int j
        if self.rest is not None:
            if self.i >= len(self.rest):
                raise StopIteration
            self.i += 1
            return self.rest[self.i - 1]
        if b.stamp != self.stamp:
            if same_position(&b.pos, &self.pos):
                # back on the position (a push and a pop): its list, generated again, is the
                # same list in the same order
                b.generate()
            else:
                # the board has moved on: the moves left of the position iterated are made now
                now = b.pos
                b.pos = self.pos
                b.stamp = 0
                b.generate()
                self.rest = [b.make(j) for j in range(b.nmoves)]
                b.pos = now
                b.stamp = 0
                return self.__next__()
            self.stamp = b.stamp
        if self.i >= b.nmoves:
            raise StopIteration
        self.i += 1
        return b.make(self.i - 1)


# --- the board ---------------------------------------------------------------------------------

cdef class BoardCore:
    """The C state of a Board (see shashki.board.Board, which is the class to use)."""

    def __cinit__(self, *args, **kwargs):
        self.hist = NULL
        self.nhist = 0
        self.cap_hist = 0
        self.moves = NULL
        self.routes = NULL
        self.amb = NULL
        self.nmoves = 0
        self.cap_moves = 0
        self.stamp = 0
        self.move_stack = []

    def __dealloc__(self):
        PyMem_Free(self.hist)
        PyMem_Free(self.moves)
        PyMem_Free(self.routes)
        PyMem_Free(self.amb)

    def _reset(self, variant, white, black, kings, turn, bint fmjd, runs=0):
        """Set the position (square masks) and the game; the history is cleared.  The caller
        (Board) has checked the position.  `runs` (frisian: shashki.fen.pack_runs) are the
        kings' quiet moves in a row of each side."""
        cdef Kernel kernel = variant.rules
        cdef Position p
        kernel.position(&p, white, black, kings, turn, runs)
        self.variant = variant
        self.fmjd_draw_rules = fmjd
        self.kernel = kernel
        self.ops = kernel.ops
        self.notation = variant.notation
        set_draw_rules(&self.draw_rules, variant, fmjd,
                       kernel.to_ghost(variant.geometry.main_road_mask))
        self.claims = 0
        for name in variant.draw_claims:
            self.claims |= 1 << _TERMINATION_CODES[name]
        self.reversed_goal = variant.reversed_goal
        self.pos = p
        draws_start(&self.draws, &self.pos, &self.draw_rules)
        self.nhist = 0
        self.move_stack = []
        self.stamp = 0

    # --- position ---------------------------------------------------------------------------

    @property
    def turn(self):
        """The side to move: shashki.WHITE or shashki.BLACK."""
        return COLORS[self.pos.turn]

    @property
    def white(self):
        """Mask of the white pieces (bit s for square s)."""
        return self.kernel.from_ghost(self.pos.pieces[WHITE])

    @property
    def black(self):
        """Mask of the black pieces."""
        return self.kernel.from_ghost(self.pos.pieces[BLACK])

    @property
    def kings(self):
        """Mask of the kings of both sides."""
        return self.kernel.from_ghost(self.pos.kings)

    @property
    def king_runs(self):
        """The kings' runs (frisian: a side that also has men may make at most three quiet
        moves in a row with the same king): for White and for Black, (square, count) of the
        king that side has moved in its last `count` moves without a capture, or (None, 0)."""
        cdef int c, byte
        out = []
        for c in range(2):
            byte = (self.pos.run >> (8 * c)) & 0xFF
            out.append((self.kernel.square[byte & 63], byte >> 6) if byte else (None, 0))
        return tuple(out)

    def _runs(self, bint root=False):
        """king_runs packed as shashki.fen.pack_runs does (of the position before the first
        move of the history with `root`)."""
        cdef Position *p = &self.hist[0].pos if root and self.nhist else &self.pos
        cdef int c, byte
        cdef int out = 0
        for c in range(2):
            byte = (p.run >> (8 * c)) & 0xFF
            if byte:
                out |= ((byte >> 6) | (self.kernel.square[byte & 63] << 2)) << (8 * c)
        return out

    @property
    def masks(self):
        """The position as square masks and the side to move: (white, black, kings, turn)."""
        return (self.kernel.from_ghost(self.pos.pieces[WHITE]),
                self.kernel.from_ghost(self.pos.pieces[BLACK]),
                self.kernel.from_ghost(self.pos.kings), COLORS[self.pos.turn])

    def piece_at(self, square):
        """None, or a (color, is_king) pair for the piece on `square`."""
        cdef u64 bit
        if isinstance(square, bool) or not isinstance(square, int):
            raise InvalidSquareError(f"a square is an int, not {type(square).__name__}")
        if not 0 <= square < self.kernel.squares:
            raise InvalidSquareError(f"square {square} is off the board; "
                                     f"{self.variant.name} squares are 0..{self.kernel.squares - 1}")
        bit = (<u64>1) << self.kernel.bit[<int>square]
        if self.pos.pieces[WHITE] & bit:
            return COLORS[WHITE], bool(self.pos.kings & bit)
        if self.pos.pieces[BLACK] & bit:
            return COLORS[BLACK], bool(self.pos.kings & bit)
        return None

    def fen(self):
        """The position as PDN FEN in the game's notation: White's section first, men then
        kings, squares in increasing order (numeric squares with ranges, as ``21-32``)."""
        cdef Notation nt = self.notation
        cdef int c, i, j, s, first, last
        cdef tuple names = nt.names
        cdef u64 men, kings
        cdef list items
        parts = ["W" if self.pos.turn == WHITE else "B"]
        for c in range(2):
            men = self.pos.pieces[c] & ~self.pos.kings
            kings = self.pos.pieces[c] & self.pos.kings
            items = []
            i = 0
            while i < nt.nsquares:
                s = nt.order[i]
                if not men >> self.kernel.bit[s] & 1:
                    i += 1
                    continue
                j = i
                if nt.numeric:
                    # consecutive numbers, three or more, are written as a range: "21-32"
                    while j + 1 < nt.nsquares and men >> self.kernel.bit[nt.order[j + 1]] & 1 \
                            and nt.number[nt.order[j + 1]] == nt.number[nt.order[j]] + 1:
                        j += 1
                if j - i >= 2:
                    items.append(names[s] + "-" + names[nt.order[j]])
                    i = j + 1
                else:
                    items.append(names[s])
                    i += 1
            for i in range(nt.nsquares):
                s = nt.order[i]
                if kings >> self.kernel.bit[s] & 1:
                    items.append("K" + names[s])
            parts.append(("W" if c == WHITE else "B") + ",".join(items))
        if self.pos.run & 0xFFFF:
            # the kings' runs as lidraughts writes them (Black's, then White's): "+" count and
            # the square of the king, e.g. ":+0+247" (White's king on 47 has made 2 moves)
            runs = ":"
            for c in (BLACK, WHITE):
                s = (self.pos.run >> (8 * c)) & 0xFF
                runs += f"+{s >> 6}{names[self.kernel.square[s & 63]] if s else ''}"
            parts.append(runs[1:])
        return ":".join(parts)

    # --- moves ---------------------------------------------------------------------------------

    cdef int generate(self) except -1:
        """Generate the legal moves of the position (routes of captures included) unless they
        are already known."""
        global STAMPS
        cdef MoveList *ml = &SCRATCH
        cdef int i, j, n
        if self.stamp:
            return 0
        ml.routes = SCRATCH_ROUTES
        ml.merge = 1
        self.ops.routes(&self.pos, ml)
        if ml.overflow:  # pragma: no cover - no position of these games has that many moves
            raise IllegalMoveError("the position has more legal moves than shashki can list")
        n = ml.n
        self.nmoves = n
        STAMPS += 1
        self.stamp = STAMPS
        if n == 0:
            return 0        # (the buffers may not exist yet: no copy, not even of nothing)
        if n > self.cap_moves:
            self.grow(n)
        memcpy(self.moves, ml.moves, n * sizeof(KMove))
        memset(self.amb, 0, n)
        if ml.moves[0].ncapt:
            memcpy(self.routes, SCRATCH_ROUTES, n * sizeof(Route))
            for i in range(n):
                for j in range(n):
                    if j != i and ml.moves[j].frm == ml.moves[i].frm and \
                            ml.moves[j].to == ml.moves[i].to:
                        self.amb[i] = 1
                        break
        return 0

    cdef int grow(self, int n) except -1:
        cdef int cap = max(n, 2 * self.cap_moves, 16)
        cdef void *a = PyMem_Realloc(self.moves, cap * sizeof(KMove))
        if a == NULL:
            raise MemoryError()
        self.moves = <KMove *>a
        a = PyMem_Realloc(self.routes, cap * sizeof(Route))
        if a == NULL:
            raise MemoryError()
        self.routes = <Route *>a
        a = PyMem_Realloc(self.amb, cap)
        if a == NULL:
            raise MemoryError()
        self.amb = <uint8_t *>a
        self.cap_moves = cap
        return 0

    cdef Move make(self, int i):
        """The Move object of legal move i."""
        cdef KMove *km = &self.moves[i]
        cdef Route *r
        cdef Move m = Move.__new__(Move)
        cdef Kernel k = self.kernel
        cdef int j
        m._origin = k.square[km.frm]
        m._destination = k.square[km.to]
        m._routes = km.routes
        m._promotion = km.promote
        m.ambiguous = self.amb[i]
        m.notation = self.notation      # (m.text is None, as a new object's fields are)
        m.stamp = self.stamp
        m.index = i
        if km.ncapt:
            m._captured = k.from_ghost(km.captured)
            r = &self.routes[i]
            m.n = km.ncapt
            for j in range(km.ncapt):
                m.land[j] = k.square[r.land[j]]
                m.took[j] = k.square[r.took[j]]
        else:
            m._captured = 0
            m.n = 0
        return m

    cdef int find(self, Move m) except -2:
        """The index of `m` among the legal moves, or -1."""
        cdef int i
        cdef int frm, to
        cdef u64 cap
        cdef Kernel k = self.kernel
        self.generate()
        if m.stamp == self.stamp:
            return m.index
        if not (0 <= m._origin < k.squares and 0 <= m._destination < k.squares):
            return -1
        if m._captured >> k.squares:
            return -1
        frm = k.bit[m._origin]
        to = k.bit[m._destination]
        cap = k.to_ghost(m._captured)
        for i in range(self.nmoves):
            if self.moves[i].frm == frm and self.moves[i].to == to and \
                    self.moves[i].captured == cap:
                return i
        return -1

    @property
    def legal_moves(self):
        """The legal moves: a live view (len, iteration, `in`)."""
        return LegalMoves(self)

    def is_capture_position(self):
        """True when the side to move must capture."""
        return self.ops.must_capture(&self.pos)

    cdef int push_index(self, int i, Move move) except -1:
        cdef KMove km = self.moves[i]
        cdef Position before = self.pos
        cdef Ply *ply
        if self.nhist == self.cap_hist:
            self.grow_history()
        ply = &self.hist[self.nhist]
        ply.pos = self.pos
        ply.draws = self.draws
        self.nhist += 1
        make_move(&self.pos, &before, &km)
        draws_after(&self.draws, &before, &km, &self.pos, &self.draw_rules)
        self.stamp = 0
        self.move_stack.append(move)
        return 0

    cdef int grow_history(self) except -1:
        cdef int cap = max(64, 2 * self.cap_hist)
        cdef void *a = PyMem_Realloc(self.hist, cap * sizeof(Ply))
        if a == NULL:
            raise MemoryError()
        self.hist = <Ply *>a
        self.cap_hist = cap
        return 0

    def push(self, move):
        """Play a legal Move (or its text); returns the Move.  The board is unchanged on error."""
        cdef Move m
        cdef int i
        if isinstance(move, str):
            move = self.parse_move(move)
        elif not isinstance(move, Move):
            raise InvalidMoveError(f"push takes a Move or move text, not {type(move).__name__}")
        m = move
        i = self.find(m)
        if i < 0:
            raise self.illegal_move_error(str(m), m._origin)
        if m.stamp != self.stamp or m.notation is None:
            m = self.make(i)    # the board's own Move carries the route and the text
        self.push_index(i, m)
        return m

    def pop(self):
        """Take back the last move and return it (IndexError if there is none)."""
        if not self.nhist:
            raise IndexError("pop from a board with no moves played")
        self.nhist -= 1
        self.pos = self.hist[self.nhist].pos
        self.draws = self.hist[self.nhist].draws
        self.stamp = 0
        return self.move_stack.pop()

    def peek(self):
        """The last move played (IndexError if there is none)."""
        if not self.move_stack:
            raise IndexError("peek at a board with no moves played")
        return self.move_stack[len(self.move_stack) - 1]

    def copy(self, bint stack=True):
        """A copy of the board; with stack=False without the moves that led here (the draw
        counters go along, as python-chess keeps its clocks; repetitions are then counted
        within the copied history only)."""
        cdef BoardCore b = type(self).__new__(type(self))
        b.kernel = self.kernel
        b.ops = self.ops
        b.notation = self.notation
        b.draw_rules = self.draw_rules
        b.claims = self.claims
        b.reversed_goal = self.reversed_goal
        b.variant = self.variant
        b.fmjd_draw_rules = self.fmjd_draw_rules
        b.pos = self.pos
        b.draws = self.draws
        if stack and self.nhist:
            b.hist = <Ply *>PyMem_Malloc(self.nhist * sizeof(Ply))
            if b.hist == NULL:
                raise MemoryError()
            memcpy(b.hist, self.hist, self.nhist * sizeof(Ply))
            b.nhist = b.cap_hist = self.nhist
            b.move_stack = list(self.move_stack)
        return b

    def __copy__(self):
        return self.copy()

    def __eq__(self, other):
        if not isinstance(other, BoardCore):
            return NotImplemented
        cdef BoardCore o = other
        return self.variant == o.variant and same_position(&self.pos, &o.pos)

    def __hash__(self):
        return hash((self.variant.name, self.pos.pieces[0], self.pos.pieces[1], self.pos.kings,
                     self.pos.turn, self.pos.run))

    def _root(self):
        """The square masks of the position before the first move of the history."""
        cdef Position *p = &self.hist[0].pos if self.nhist else &self.pos
        return (self.kernel.from_ghost(p.pieces[WHITE]), self.kernel.from_ghost(p.pieces[BLACK]),
                self.kernel.from_ghost(p.kings), p.turn)

    def _set_draws(self, int halfmove, int balance, int road, int few):
        self.draws.halfmove = halfmove
        self.draws.balance = balance
        self.draws.road = road
        self.draws.few = few

    # --- game end ------------------------------------------------------------------------------

    cdef int repetitions(self, const Position *p, int window, int limit) noexcept:
        """How many times `p` occurs in the last `window` plies of the history and now,
        stopping at `limit`: positions an even number of plies back have the same side to
        move, and a man move or capture can never be undone, so only the last halfmove-clock
        plies can hold it again."""
        cdef int count = 1
        cdef int back
        cdef Position *q
        if window > self.nhist:
            window = self.nhist
        back = 2
        while back <= window:
            q = &self.hist[self.nhist - back].pos
            if q.pieces[0] == p.pieces[0] and q.pieces[1] == p.pieces[1] and \
                    q.kings == p.kings and q.turn == p.turn and q.run == p.run:
                count += 1
                if count >= limit:
                    break
            back += 2
        return count

    cdef bint repetition_ahead(self) except -1:
        """Whether a legal move would make a position occur for the third time (WCDF's claim:
        "with their next move they would create the same position for the third time")."""
        cdef Position child
        cdef int i, count, back
        cdef Position *q
        self.generate()
        for i in range(self.nmoves):
            if self.moves[i].captured or not (self.pos.kings >> self.moves[i].frm) & 1:
                continue    # irreversible: the position after it is new
            make_move(&child, &self.pos, &self.moves[i])
            count = 1
            back = 1        # the child is one ply after the current position
            while back <= self.draws.halfmove + 1 and back <= self.nhist:
                q = &self.hist[self.nhist - back].pos
                if q.pieces[0] == child.pieces[0] and q.pieces[1] == child.pieces[1] and \
                        q.kings == child.kings and q.turn == child.turn and q.run == child.run:
                    count += 1
                    if count >= 3:
                        return True
                back += 2
        return False

    cdef int _termination(self, int skip) except -1:
        # the first rule that ends the game here (T_NONE: it goes on), draws in `skip` passed over
        if self.draw_rules.crowning_wins and self.pos.kings & self.pos.pieces[self.pos.turn ^ 1]:
            return T_CROWNED
        self.generate()
        if not self.nmoves:
            return T_NO_MOVES
        if not (skip >> T_REPETITION) & 1 and \
                self.repetitions(&self.pos, self.draws.halfmove, 3) >= 3:
            return T_REPETITION
        return draw_rule(&self.draws, &self.pos, &self.draw_rules, skip)

    def outcome(self, bint claim_draw=False):
        """None while the game goes on, else an Outcome(winner, termination).

        The side to move with no legal move loses (in giveaway it wins).  Draws follow the
        game's rules (RULES.md): threefold repetition, the kings-only move limit, the english
        40-move rule, and in russian (or brazilian with `fmjd_draw_rules=True`) FMJD-64
        7.2.4-7.2.8.  Draws a player must claim (english, WCDF) count only with
        `claim_draw=True`.
        """
        cdef int code = self._termination(0 if claim_draw else self.claims)
        if code == T_NONE:
            if claim_draw and (self.claims >> T_REPETITION) & 1 and self.repetition_ahead():
                return _make_outcome(T_REPETITION, None, self.variant, False)
            return None
        if code == T_NO_MOVES:
            loser = self.pos.turn
            return _make_outcome(code, COLORS[loser if self.reversed_goal else loser ^ 1],
                                 self.variant, self.fmjd_draw_rules)
        if code == T_CROWNED:
            return _make_outcome(code, COLORS[self.pos.turn ^ 1], self.variant,
                                 self.fmjd_draw_rules)
        return _make_outcome(code, None, self.variant, self.fmjd_draw_rules)

    def is_game_over(self, bint claim_draw=False):
        """Whether the game has ended: ``outcome(claim_draw) is not None`` (the side to move
        has no legal move, or a draw rule of the game applies; draws a player must claim count
        only with `claim_draw=True`)."""
        return self.outcome(claim_draw) is not None

    def result(self, bint claim_draw=False):
        """"1-0", "0-1", "1/2-1/2", or "*" while the game goes on."""
        outcome = self.outcome(claim_draw)
        return outcome.result() if outcome else "*"

    def can_claim_draw(self):
        """Whether the side to move may claim a draw now, in a game whose rule book makes the
        draw a claim (english: repetition, also before the repeating move, and 40 moves)."""
        cdef int code
        if not self.claims:
            return False
        code = self._termination(~self.claims)
        if code != T_NONE and code != T_NO_MOVES and code != T_CROWNED:
            return True
        return bool((self.claims >> T_REPETITION) & 1 and self.repetition_ahead())

    def is_repetition(self, int count=3):
        """Whether this position, with this side to move, has occurred `count` times or more."""
        return self.repetitions(&self.pos, self.draws.halfmove, count) >= count

    @property
    def halfmove_clock(self):
        """Plies since the last man move or capture (kings-only and 40-move rules)."""
        return self.draws.halfmove

    @property
    def draw_counters(self):
        """Every draw counter of the position (shashki.outcome.DrawCounters), in plies."""
        return _DrawCounters(self.draws.halfmove, self.draws.balance, self.draws.road,
                             self.draws.few)


# the Python side of game end (shashki.outcome), bound when that module is loaded
from ..outcome import DrawCounters as _DrawCounters, make_outcome as _make_outcome, \
    TERMINATION_CODES as _TERMINATION_CODES


cdef void set_draw_rules(DrawRules *r, object variant, bint endgame, u64 main_road) except *:
    """The draw rules of a game's record (shashki.variants.Variant), with or without its
    endgame rules (Variant.endgame_draws)."""
    memset(r, 0, sizeof(DrawRules))
    r.kings_only_plies = 2 * variant.kings_only_limit
    r.no_progress_plies = 2 * variant.no_progress_limit
    r.crowning_wins = variant.crowning_wins
    r.main_road = main_road
    e = variant.endgame_draws
    if endgame and e is not None:
        r.lone_king_moves = e.kings_vs_lone_king
        r.balance_plies[0] = 2 * e.balance[0]
        r.balance_plies[1] = 2 * e.balance[1]
        r.three_moves = e.three_vs_lone_king
        r.three_on_road = e.three_on_main_road
        r.few_moves = e.few_vs_lone_king
        r.each_side = e.each_side
        r.two_kings_plies = 2 * e.two_kings_vs_king
        r.king_pair_plies = 2 * e.king_vs_king
