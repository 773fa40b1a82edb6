# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""Moves: the Move value every board and position lists, the Notation that writes it, and the
table of a position's legal moves that a Board and a Position keep (generated once by the
game's kernel, kept until the position changes).

A Move is identified by origin, destination and the set of captured squares; it carries one
route (the landing and captured squares in order) and knows its game through its Notation.
"""

cimport cython
from cpython.mem cimport PyMem_Realloc, PyMem_Free
from libc.stdint cimport uint8_t, int64_t
from libc.string cimport memcpy, memset
from .bits cimport u64, ctz
from .kernel cimport (MAXMOVES, MAXPATH, Pos, Move as KMove, Route, MoveList, KernelOps, list_init,
                      list_free)

import threading

from ..errors import IllegalMoveError, InvalidMoveError

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
        # the names by key, for text_squares (a name no key fits leaves that fast path to
        # the notation module, which reads every name)
        memset(self.by_key, -1, sizeof(self.by_key))
        for i in range(self.nsquares):
            key = name_key(self.names[i], 0, len(self.names[i]), self.numeric)
            if key >= 0:
                self.by_key[key] = i

    def __reduce__(self):
        # one Notation a game: found again through the game's record, which pickles by name
        return (notation_of, (self.variant,))


# --- move text, the common forms read in C ------------------------------------------------

cdef int name_key(str text, Py_ssize_t a, Py_ssize_t b, bint numeric) noexcept:
    """The key of the square name text[a:b] as a game writes it (lowercase: ``c3``, ``22``),
    or -1 for anything else: numeric games a number 1-127 (leading zeros read, as the
    notation module reads them), the others a letter a-p and a rank 1-31."""
    # (characters compared as code points: a Py_UCS4 against a one-letter literal would be
    # a Python operation)
    cdef Py_ssize_t i
    cdef Py_UCS4 c
    cdef int value = 0, file = 0
    if b <= a or b - a > 4:
        return -1
    i = a
    if not numeric:
        c = text[i]
        if not (97 <= c <= 112) or b - a < 2:      # a-p
            return -1
        file = <int>c - 97
        i += 1
    while i < b:
        c = text[i]
        if not (48 <= c <= 57):                     # 0-9
            return -1
        value = 10 * value + (<int>c - 48)
        i += 1
    if numeric:
        return value if 0 < value < 128 else -1
    if not 0 < value < 32:
        return -1
    return 128 + 32 * file + value


cdef int text_squares(Notation nt, str text, int *origin, int *destination) except -2:
    """The two squares of move text written as the game writes a move, `from-to` or
    `from<sep>to` (any of '-', 'x', ':'), lowercase and bare: 0 for '-' and 1 for a
    capture separator; -1 for any other text (a route, the russian short form, capitals,
    spaces, marks, an error), which shashki.notation reads or refuses, saying why.  The
    common case of Position.apply and Board.push text, read with no string made (issue
    31.5: 9.6 us against 0.18 us for a Move)."""
    cdef Py_ssize_t n = len(text)
    cdef Py_ssize_t i, cut = -1
    cdef Py_UCS4 c
    cdef int a, b, sep = 0
    if n < 3 or n > 9:
        return -1
    for i in range(n):
        c = text[i]
        if c == 45 or c == 120 or c == 58:        # '-', 'x', ':'
            if cut >= 0:
                return -1       # a route: three squares or more
            cut = i
            sep = c != 45
    if cut < 0:
        return -1
    a = name_key(text, 0, cut, nt.numeric)
    b = name_key(text, cut + 1, n, nt.numeric)
    if a < 0 or b < 0 or nt.by_key[a] < 0 or nt.by_key[b] < 0:
        return -1
    origin[0] = nt.by_key[a]
    destination[0] = nt.by_key[b]
    return sep


# --- Move ----------------------------------------------------------------------------------

cdef inline int int_square(object value, str what) except? -2:
    # a square number as given by a caller: any int is accepted here (push says whether it is
    # on the board), but not one too large for a C int.  (`except? -2`: -2 is a square number
    # too, so the caller asks whether an error is set when it comes back; issue 30.3)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidMoveError(f"{what} must be an int square, not {type(value).__name__}")
    if not -(1 << 30) < value < (1 << 30):
        raise InvalidMoveError(f"{what} {value} is far off any board")
    return value


@cython.freelist(256)
@cython.total_ordering
@cython.no_gc     # it holds a Notation and a str, neither of which can lead back to a Move
cdef class Move:
    # the first line and "--": the constructor's signature for inspect.signature and help()
    # (see Position in position.pyx)
    """Move(origin, destination, captured=(), path=None, routes=1, promotion=False, text=None)
--

A legal move, as `Board.legal_moves` lists it.

    Two moves are equal when they have the same origin, destination and set of captured
    squares (docs/games/index.md, "Move identity and perft"); the route (`path`, the order of `captured`) is one of
    possibly several that make the same move, and `routes` counts them.  Squares are ints
    0.. (see shashki.geometry).  A move knows its game: `str(move)` is its text in the game's
    notation.  A Move made by hand (``Move(9, 13)``) has no game until a board finds it among
    its legal moves; its str is then the internal form ``s9-s13``, which no game writes.
    """

    def __init__(self, origin, destination, captured=(), path=None, routes=1,
                 promotion=False, text=None):
        cdef int i
        cdef object s
        self._origin = int_square(origin, "origin")
        self._destination = int_square(destination, "destination")
        for s, what in ((self._origin, "origin"), (self._destination, "destination")):
            # (as the captured and landing squares: 0..63 may be a square of some board, and
            # push says whether it is one of this board's; a negative one never is)
            if not 0 <= s < 64:
                raise InvalidMoveError(f"{what} {s} is off any board")
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
                    s = int_square(path[i + 1], "a landing square")
                    if not 0 <= s < 64:
                        raise InvalidMoveError(f"landing square {s} is off any board")
                    self.land[i] = <uint8_t>s
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
        # not a call: Move("c3-d4") cannot be made (a move's text needs its game; issue 31.5),
        # so the repr of a game's move is the <...> form, as python-chess's for objects that
        # are found rather than made (a hand-made Move's repr above is the call that makes it)
        return f"<Move {self}>"

    def __reduce__(self):
        return (_rebuild_move, (self._origin, self._destination, self.captured, self.path,
                                self._routes, self._promotion, self.notation,
                                self.ambiguous))


def _rebuild_move(origin, destination, captured, path, routes, promotion, notation, ambiguous):
    # (unpickling; pickles name this function.)  Everything is checked, as the Move
    # constructor checks a move made by hand, and the squares against the game's board: str()
    # reads the names of the squares with no bounds checked (issue 30.2b)
    cdef Move m
    cdef int i, size
    if notation is not None and not isinstance(notation, Notation):
        raise InvalidMoveError(f"a pickled Move's game is a Notation or None, not "
                               f"{type(notation).__name__}")
    if not isinstance(ambiguous, bool) or not isinstance(promotion, bool):
        raise InvalidMoveError("a pickled Move's promotion and ambiguous flags are bools")
    m = Move(origin, destination, captured, path, routes, promotion)
    if notation is not None:
        size = (<Notation>notation).nsquares
        squares = [m._origin, m._destination] + [m.land[i] for i in range(m.n)] + \
            [m.took[i] for i in range(m.n)]
        mask = m._captured
        while mask:
            squares.append(ctz(mask))
            mask &= mask - 1
        for s in squares:
            if not 0 <= s < size:
                raise InvalidMoveError(f"a pickled Move names square {s}, off the "
                                       f"{(<Notation>notation).variant.name} board "
                                       f"(0..{size - 1})")
    m.notation = notation
    m.ambiguous = ambiguous
    return m


# --- the notations of the games, made once each ---------------------------------------------------

cdef dict NOTATIONS = {}
_NOTATIONS_LOCK = threading.Lock()


def notation_of(variant):
    """The Notation of a game (a shashki.variants.Variant), made on first use: one object per
    game, whichever thread asks first."""
    notation = NOTATIONS.get(variant.name)
    if notation is None:
        with _NOTATIONS_LOCK:
            notation = NOTATIONS.get(variant.name)
            if notation is None:
                notation = NOTATIONS[variant.name] = Notation(
                    [variant.square_name(s) for s in range(variant.geometry.squares)],
                    variant.capture_sep, variant)
    return notation


# --- the legal moves of one position --------------------------------------------------------------

# a new number for every list of legal moves generated: a Move knows which list it came from
cdef int64_t STAMPS = 0
# Where the kernel writes the moves before a table keeps the n it needs: generation runs with
# the GIL held (it takes a fraction of a microsecond, less than releasing the GIL would cost),
# so one buffer serves every table, and no table carries 40 KB.  A position with more than
# MAXMOVES moves grows it on the heap, given back as soon as the table has the moves.
cdef MoveList SCRATCH
cdef Route SCRATCH_ROUTES[MAXMOVES]
list_init(&SCRATCH, SCRATCH_ROUTES)     # once: the kernel empties it, list_free restores it


cdef int table_generate(MoveTable *t, const KernelOps *ops, const Pos *p) except -1:
    """Generate the legal moves of `p` (routes of captures included) into `t`, unless they
    are already there (t.stamp set)."""
    cdef MoveList *ml = &SCRATCH
    if t.stamp:
        return 0
    ops.routes(p, ml)
    if ml.overflow:
        list_free(ml)
        raise MemoryError("out of memory listing the legal moves")
    if ml.moves == ml.first:
        return table_fill(t, ml)    # (every position of a real game: nothing to give back)
    return table_fill_grown(t, ml)


cdef int table_fill_grown(MoveTable *t, MoveList *ml) except -1:
    """table_fill from a list that grew on the heap, given back after.  Its own function: the
    try/finally's set-up would otherwise be paid by every call of table_generate, most of
    which find the table filled already."""
    try:
        table_fill(t, ml)
    finally:
        list_free(ml)               # (SCRATCH holds MAXMOVES in place again)
    return 0


cdef inline int table_fill(MoveTable *t, const MoveList *ml) except -1:
    """`t` made the table of the moves and routes of `ml`."""
    global STAMPS
    cdef int i, j
    cdef int cap
    cdef void *a
    cdef int n = ml.n
    if n > t.cap:
        cap = max(n, 2 * t.cap, 16)
        a = PyMem_Realloc(t.moves, cap * sizeof(KMove))
        if a == NULL:
            raise MemoryError()
        t.moves = <KMove *>a
        a = PyMem_Realloc(t.routes, cap * sizeof(Route))
        if a == NULL:
            raise MemoryError()
        t.routes = <Route *>a
        a = PyMem_Realloc(t.amb, cap)
        if a == NULL:
            raise MemoryError()
        t.amb = <uint8_t *>a
        t.cap = cap
    t.n = n
    STAMPS += 1
    t.stamp = STAMPS
    if n == 0:
        return 0        # (the buffers may not exist yet: no copy, not even of nothing)
    memcpy(t.moves, ml.moves, n * sizeof(KMove))
    memset(t.amb, 0, n)
    if ml.moves[0].ncapt:
        memcpy(t.routes, ml.routes, n * sizeof(Route))
        for i in range(n):
            for j in range(n):
                if j != i and ml.moves[j].frm == ml.moves[i].frm and \
                        ml.moves[j].to == ml.moves[i].to:
                    t.amb[i] = 1
                    break
    return 0


cdef void table_free(MoveTable *t) noexcept:
    PyMem_Free(t.moves)
    PyMem_Free(t.routes)
    PyMem_Free(t.amb)
    t.moves = NULL
    t.routes = NULL
    t.amb = NULL
    t.n = t.cap = 0
    t.stamp = 0


cdef Move table_move(const MoveTable *t, int i, const int *square, Notation notation):
    """The Move object of legal move i of the table (`square`: the kernel's bit -> square)."""
    cdef const KMove *km = &t.moves[i]
    cdef const Route *r
    cdef Move m = Move.__new__(Move)
    cdef int j
    cdef u64 cap
    m._origin = square[km.frm]
    m._destination = square[km.to]
    m._routes = km.routes
    m._promotion = km.promote
    m.ambiguous = t.amb[i]
    m.notation = notation           # (m.text is None, as a new object's fields are)
    m.stamp = t.stamp
    m.index = i
    if km.ncapt:
        m._captured = 0
        cap = km.captured
        while cap:
            m._captured |= (<u64>1) << square[ctz(cap)]
            cap &= cap - 1
        r = &t.routes[i]
        m.n = km.ncapt
        for j in range(km.ncapt):
            m.land[j] = square[r.land[j]]
            m.took[j] = square[r.took[j]]
    else:
        m._captured = 0
        m.n = 0
    return m


cdef int table_find(const MoveTable *t, Move m, const int *bit, int squares) noexcept:
    """The index of `m` among the table's moves (generated), or -1 (`bit`: square -> the
    kernel's bit)."""
    cdef int i, frm, to
    cdef u64 cap = 0
    cdef u64 rest
    if m.stamp == t.stamp:
        return m.index
    if not (0 <= m._origin < squares and 0 <= m._destination < squares):
        return -1
    if squares < 64 and m._captured >> squares:    # (a shift by 64 is undefined in C)
        return -1
    frm = bit[m._origin]
    to = bit[m._destination]
    rest = m._captured
    while rest:
        cap |= (<u64>1) << bit[ctz(rest)]
        rest &= rest - 1
    for i in range(t.n):
        if t.moves[i].frm == frm and t.moves[i].to == to and t.moves[i].captured == cap:
            return i
    return -1
