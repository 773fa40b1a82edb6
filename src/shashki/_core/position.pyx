# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""Positions: the value every layer of shashki passes, and the compiled kernels under it.

`Position` is an immutable draughts position of one game: the pieces, the side to move, and in
frisian the kings' runs.  It is hashable, picklable and cheap to make: `apply(move)` returns
the next position and leaves this one as it is, which is what search trees, MCTS, caches and
self-play want (OpenSpiel's `State.clone`, a functional state as in pgx).  A Board is a
Position plus the history that the draw rules need (`board.position`).

`Kernel` is the Python handle of one compiled kernel (shashki._core.kernels: one per set of
move rules and board, see setup.py), with its board's square numbering; `kernel_of(variant)`
gives a game's.  Squares at this edge are numbered 0.. row by row from White's side (a1 = 0),
masks use the same numbering, and the kernel's own layout of bits stays inside the core.
"""

cimport cython
from cpython.pycapsule cimport PyCapsule_GetPointer
from cpython.mem cimport PyMem_Malloc, PyMem_Free
from libc.stdint cimport uint8_t
from libc.string cimport memset
from .bits cimport u64, ctz, popcount, scatter
from .kernel cimport (WHITE, BLACK, MAXMOVES, Pos, Move as KMove, Route, MoveList, KernelOps,
                      make_move, RUN_ON, list_init, list_free, same_pos)
from .perft_table cimport OVERFLOW_LIST, OVERFLOW_WRAP
from .move cimport (Move, Notation, MoveTable, table_generate, table_free, table_move, table_find,
                   text_squares)
from .perft cimport PerftTable
from .perft_table cimport PerftTable as Table

import importlib
import threading

from ..colors import Color
from ..errors import IllegalMoveError, InvalidFenError, InvalidMoveError, InvalidSquareError
from ..fen import check_position, parse_fen
from ..notation import illegal_move_error, parse_move
from ..piece import Piece
from ..status import position_status
from ..variants import DEFAULT, get_variant
from .move import notation_of

# The core's side numbers (kernel.pxd: WHITE 0, BLACK 1) as shashki.Color, which is
# python-chess's (WHITE 1 and true, BLACK 0): indexed by a C `turn`, the one conversion from the
# core out; Kernel.set_position is the one conversion in.
cdef tuple COLORS = (Color.WHITE, Color.BLACK)
#: the four pieces, made once (piece_at and piece_map make no object): index 2 * color + king
cdef tuple PIECES = (Piece(Color.WHITE, False), Piece(Color.WHITE, True),
                     Piece(Color.BLACK, False), Piece(Color.BLACK, True))


cdef object color_of(int turn):
    # (for the other modules of the core, which cimport it)
    return COLORS[turn]


# --- the compiled kernels -------------------------------------------------------------------------

cdef class Kernel:
    """The compiled move generator of one set of rules and one board (see shashki.variants:
    games with the same move rules and board share one)."""

    def __cinit__(self, str name, object capsule):
        cdef int s, n
        self.ops = <const KernelOps *>PyCapsule_GetPointer(capsule, "shashki._core.KernelOps")
        self.name = name
        self.squares = self.ops.squares
        self.bit = self.ops.bit
        self.square = self.ops.square
        n = self.squares
        for s in range(64):
            self.turned[s] = -1
        for s in range(n):
            self.turned[self.bit[s]] = self.bit[n - 1 - s]

    def __repr__(self):
        return f"<Kernel {self.name}>"

    def __reduce__(self):
        # one Kernel a compiled module: found again by name
        return (kernel_by_name, (self.name,))

    cdef u64 to_ghost(self, unsigned long long mask) noexcept nogil:
        return scatter(mask, self.bit)

    cdef unsigned long long from_ghost(self, u64 mask) noexcept nogil:
        return scatter(mask, self.square)

    cdef int set_position(self, Pos *p, object white, object black, object kings,
                          object turn, object king_runs) except -1:
        """`p` from square masks, the side to move (shashki.WHITE or BLACK, or the int or bool
        of one: WHITE is 1 and True) and the kings' runs (None, or (square, count) of White's
        and of Black's, as Position.king_runs gives them); the checks that keep the C
        structures sound (shashki.fen checks the rules of the game)."""
        cdef unsigned long long w, b, k
        cdef int c
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
        if not isinstance(turn, int) or turn not in (Color.WHITE, Color.BLACK):
            raise ValueError("turn must be shashki.WHITE (1) or shashki.BLACK (0)")
        p.pieces[0] = self.to_ghost(w)
        p.pieces[1] = self.to_ghost(b)
        p.kings = self.to_ghost(k)
        # the side to move as the core numbers it (COLORS is the way back)
        p.turn = WHITE if turn == Color.WHITE else BLACK
        # a game that limits a king's moves in a row counts them in every position
        p.run = RUN_ON if self.ops.king_limit else 0
        if king_runs is not None:
            if not isinstance(king_runs, tuple) or len(king_runs) != 2:
                # (indexed below with no bounds checked: two pairs, or a crash; issue 30.2a)
                raise ValueError(f"bad kings' runs {king_runs!r}")
            for c in range(2):
                run = king_runs[c]
                if not isinstance(run, tuple) or len(run) != 2:
                    raise ValueError(f"bad kings' run {run!r}")
                square, count = run
                if not count:
                    continue
                if not p.run:
                    raise ValueError("this game does not count its kings' runs")
                if not (0 < count <= self.ops.king_limit and 0 <= square < self.squares) or \
                        not (k >> square) & 1 or not ((w if c == WHITE else b) >> square) & 1:
                    raise ValueError(f"bad kings' run {king_runs[c]!r}")
                p.run |= ((count << 6) | self.bit[<int>square]) << (8 * c)
        return 0

    cdef tuple runs_of(self, const Pos *p):
        cdef int c, byte
        out = []
        for c in range(2):
            byte = (p.run >> (8 * c)) & 0xFF
            out.append((self.square[byte & 63], byte >> 6) if byte else (None, 0))
        return tuple(out)


cdef dict KERNELS = {}
_KERNELS_LOCK = threading.Lock()


from .cpu import KERNEL_PACKAGE as _KERNEL_PACKAGE


def kernel_by_name(str name):
    """The Kernel of the compiled module shashki._core.kernels.<name>, loaded on first use: one
    object a kernel, whichever thread asks first."""
    kernel = KERNELS.get(name)
    if kernel is None:
        with _KERNELS_LOCK:
            kernel = KERNELS.get(name)
            if kernel is None:
                # the build of the kernels this CPU runs (shashki._core.cpu)
                module = importlib.import_module(
                    ".".join(filter(None, ("shashki._core.kernels", _KERNEL_PACKAGE, name))))
                kernel = KERNELS[name] = Kernel(name, module.ops)
    return kernel


def kernel_of(variant):
    """The compiled kernel a game (a shashki.variants.Variant) plays with."""
    return kernel_by_name(variant.kernel_name)


# --- FEN -------------------------------------------------------------------------------------------

cdef Py_hash_t pos_hash(object variant, const Pos *p) except? -1:
    """The hash of a position of `variant` (Position and Board, which are equal when their
    games and same_pos are)."""
    return hash((variant.name, p.pieces[0], p.pieces[1], p.kings, p.turn, p.run))


cdef str fen_of(Kernel kernel, Notation nt, const Pos *p):
    """The position as PDN FEN in the game's notation: White's section first, men then kings,
    squares in increasing order (numeric squares with ranges, as ``21-32``), and the kings'
    runs where the game counts them."""
    cdef int c, i, j, s, first, last
    cdef tuple names = nt.names
    cdef u64 men, kings
    cdef list items
    parts = ["W" if p.turn == WHITE else "B"]
    for c in range(2):
        men = p.pieces[c] & ~p.kings
        kings = p.pieces[c] & p.kings
        items = []
        i = 0
        while i < nt.nsquares:
            s = nt.order[i]
            if not men >> kernel.bit[s] & 1:
                i += 1
                continue
            j = i
            if nt.numeric:
                # consecutive numbers, three or more, are written as a range: "21-32"
                while j + 1 < nt.nsquares and men >> kernel.bit[nt.order[j + 1]] & 1 \
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
            if kings >> kernel.bit[s] & 1:
                items.append("K" + names[s])
        parts.append(("W" if c == WHITE else "B") + ",".join(items))
    if p.run & 0xFFFF:
        # the kings' runs as lidraughts writes them (Black's, then White's): "+" count and
        # the square of the king, e.g. ":+0+247" (White's king on 47 has made 2 moves)
        runs = ":"
        for c in (BLACK, WHITE):
            s = (p.run >> (8 * c)) & 0xFF
            runs += f"+{s >> 6}{names[kernel.square[s & 63]] if s else ''}"
        parts.append(runs[1:])
    return ":".join(parts)


# --- the position value ----------------------------------------------------------------------------

cdef Position new_position(Kernel kernel, Notation notation, const Pos *p):
    cdef Position out = Position.__new__(Position)
    out.pos = p[0]
    out.kernel = kernel
    out.notation = notation
    return out


cdef class PositionBase:
    """What a Position and a Board share: the pieces of one game (`variant`), the side to move,
    in frisian the kings' runs, and the legal moves, generated once per position.  A Position
    is this as a value; a Board is this with the history of the game.  (Named for what it is,
    the base of the two: in python-chess a "placement" is the pieces alone.)"""

    def __dealloc__(self):
        table_free(&self.table)

    # --- what it holds -------------------------------------------------------------------------

    @property
    def variant(self):
        """The game (a shashki.variants.Variant)."""
        return self.notation.variant

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
    def masks(self):
        """(white, black, kings, turn): the square masks and the side to move."""
        return (self.kernel.from_ghost(self.pos.pieces[WHITE]),
                self.kernel.from_ghost(self.pos.pieces[BLACK]),
                self.kernel.from_ghost(self.pos.kings), COLORS[self.pos.turn])

    @property
    def king_runs(self):
        """The kings' runs (frisian: a side that also has men may make at most three quiet
        moves in a row with the same king): for White and for Black, (square, count) of the
        king that side has moved in its last `count` moves without a capture, or (None, 0).
        The pair is in that order, White's first: it is not indexed by colour (shashki.WHITE
        is 1), as `masks` is not."""
        return self.kernel.runs_of(&self.pos)

    cpdef int _square(self, object square) except -1:
        """The square number of `square` (an int square, or its name in the game's notation:
        ``"c3"``, ``"22"``); InvalidSquareError, saying which squares there are, for anything
        else (piece_at, and the board editor: Board.set_piece_at)."""
        if isinstance(square, str):
            square = self.notation.variant.square(square)
        if isinstance(square, bool) or not isinstance(square, int):
            raise InvalidSquareError(f"a square is an int or its name, not "
                                     f"{type(square).__name__}")
        if not 0 <= square < self.kernel.squares:
            raise InvalidSquareError(f"square {square} is off the board; "
                                     f"{self.notation.variant.name} squares are "
                                     f"0..{self.kernel.squares - 1}")
        return square

    cdef object piece_on(self, int s):
        """The Piece on square s, or None."""
        cdef u64 bit = (<u64>1) << self.kernel.bit[s]
        cdef int king = (self.pos.kings & bit) != 0
        if self.pos.pieces[WHITE] & bit:
            return PIECES[2 * WHITE + king]
        if self.pos.pieces[BLACK] & bit:
            return PIECES[2 * BLACK + king]
        return None

    def piece_at(self, square):
        """None, or the Piece on `square` (an int square, or its name in the game's notation:
        ``"c3"``, ``"22"``): a named tuple (color, king), so ``color, king = ...`` unpacks
        it."""
        return self.piece_on(self._square(square))

    def piece_map(self):
        """Every piece on the board: {square: Piece}, in the order of the squares (ints, as
        piece_at takes them; python-chess's piece_map).  Board.set_piece_at on an empty board
        (Board.empty) puts them back."""
        cdef dict out = {}
        cdef int s
        for s in range(self.kernel.squares):
            piece = self.piece_on(s)
            if piece is not None:
                out[s] = piece
        return out

    def status(self):
        """The reasons this position is not one to play from: a shashki.status.Status flag,
        Status.VALID (0) when there is none (python-chess's status).  A position can show
        only NO_WHITE_PIECES and NO_BLACK_PIECES (EMPTY, both): the core holds no other
        position that a set-up could make (see shashki.status)."""
        w, b, k, _ = self.masks
        return position_status(self.notation.variant, w, b, k)

    def is_valid(self):
        """Whether the position is one to play from: ``status() == Status.VALID``, each side
        has pieces (python-chess's is_valid)."""
        return not self.status()

    def fen(self):
        """The position as PDN FEN in the game's notation (see shashki.fen)."""
        return fen_of(self.kernel, self.notation, &self.pos)

    # --- moves ---------------------------------------------------------------------------------

    cdef int generate(self) except -1:
        """Generate the legal moves (routes of captures included) unless they are known."""
        if self.table.stamp:
            return 0        # (most calls: tested here, before table_generate's frame is built)
        return table_generate(&self.table, self.kernel.ops, &self.pos)

    cdef Move make(self, int i):
        """The Move object of legal move i."""
        return table_move(&self.table, i, self.kernel.square, self.notation)

    cdef int find(self, Move m) except -2:
        """The index of `m` among the legal moves, or -1 (a move of another game, too)."""
        self.generate()
        if m.notation is not None and m.notation is not self.notation:
            return -1
        return table_find(&self.table, m, self.kernel.bit, self.kernel.squares)

    cdef int find_text(self, object text) except -2:
        """The index of the legal move that `text` (a str, or an instance of a subclass:
        numpy.str_, a str Enum) names when it is written as the game writes a move of two
        squares and exactly one legal move fits (move.text_squares); -1 for anything else,
        which shashki.notation.parse_move reads, or refuses saying why: the same move, only
        sooner."""
        cdef int origin, destination, frm, to, i, found = -1
        # a subclass's own text, as an exact str (its __str__ may say something else: an
        # Enum's names the member)
        cdef str exact = text if type(text) is str else str.__str__(text)
        cdef int sep = text_squares(self.notation, exact, &origin, &destination)
        if sep < 0:
            return -1
        self.generate()
        frm = self.kernel.bit[origin]
        to = self.kernel.bit[destination]
        for i in range(self.table.n):
            if self.table.moves[i].frm == frm and self.table.moves[i].to == to:
                if found >= 0:
                    return -1   # several moves join the two squares: notation decides
                found = i
        if found >= 0 and sep and not self.table.moves[found].ncapt:
            return -1           # a quiet move written as a capture: refused there
        return found

    cdef int legal_index(self, Move m) except -1:
        """The index of `m` among the legal moves; IllegalMoveError, saying why, if it is not
        one of them (a move of another game included)."""
        cdef int i = self.find(m)
        if i < 0:
            raise illegal_move_error(self, m)
        return i

    @property
    def must_capture(self):
        """Whether the side to move must capture."""
        return bool(self.kernel.ops.must_capture(&self.pos))

    def routes(self, move=None, bint every_landing=False):
        """Every route of every legal capture, one Move each (a move several routes make is
        listed once per route, with that route's path and order of captures, and written in
        full); the quiet moves as the legal moves list them.  With `move` (a legal Move, or
        its text), the routes of that move alone: only they are generated and kept.

        A flying king that may land on several squares before it captures on along the same
        line makes one route of them (the rules' "one capture", and a route is read from any
        of them); with `every_landing` each is a route of its own: every sequence of landing
        squares, the moves as kish (a turkish library) counts them (shashki.perft's
        landing_perft)."""
        cdef MoveList *ml
        cdef Route *routes
        cdef uint8_t *amb = NULL
        cdef MoveTable t
        cdef Move m
        cdef int i, only = -1
        if move is not None:
            if isinstance(move, str):
                move = self.parse_move(move)
            elif not isinstance(move, Move):
                raise InvalidMoveError(f"routes takes a Move or move text, not "
                                       f"{type(move).__name__}")
            only = self.legal_index(move)
            if not self.table.moves[only].ncapt:
                return [self.make(only)]
        ml = <MoveList *>PyMem_Malloc(sizeof(MoveList))
        routes = <Route *>PyMem_Malloc(MAXMOVES * sizeof(Route))
        if ml == NULL or routes == NULL:
            PyMem_Free(ml)
            PyMem_Free(routes)
            raise MemoryError()
        list_init(ml, routes)
        try:
            ml.merge = 0
            ml.every_landing = every_landing
            if only >= 0:
                ml.only_frm = self.table.moves[only].frm
                ml.only_to = self.table.moves[only].to
                ml.only_captured = self.table.moves[only].captured
            self.kernel.ops.routes(&self.pos, ml)     # (the list grows past MAXMOVES routes)
            amb = <uint8_t *>PyMem_Malloc(max(ml.n, 1))
            if ml.overflow or amb == NULL:
                raise MemoryError("out of memory listing the routes")
            memset(&t, 0, sizeof(t))
            t.moves = ml.moves
            t.routes = ml.routes
            t.amb = amb
            t.n = ml.n
            for i in range(ml.n):
                amb[i] = ml.moves[i].ncapt != 0     # a route's text is the route in full
            out = []
            for i in range(ml.n):
                m = table_move(&t, i, self.kernel.square, self.notation)
                m.stamp = 0                 # (not a move of a kept list)
                out.append(m)
            return out
        finally:
            list_free(ml)
            PyMem_Free(ml)
            PyMem_Free(routes)
            PyMem_Free(amb)

    def parse_move(self, text):
        """The legal move that `text` names, in the game's notation (shashki.notation).

        Accepts the short form (`c3-d4`, `c3:e5`, `22x18`), the full route (`c3:e5:g3`), any of
        the separators `-`, `x`, `:`, and in the algebraic games the russian short form `cd4`
        (a man from the c-file to d4).  Raises InvalidMoveError for text that is not a move,
        IllegalMoveError when no legal move fits, AmbiguousMoveError when several do.
        """
        cdef int i
        if isinstance(text, str):
            i = self.find_text(text)
            if i >= 0:
                return self.make(i)
        return parse_move(self, text)

    def is_legal(self, move):
        """Whether `move` (a Move, or move text in the game's notation) is a legal move."""
        if isinstance(move, str):
            try:
                parse_move(self, move)
            except ValueError:
                return False
            return True
        return isinstance(move, Move) and self.find(move) >= 0


# shashki._core.game.default_game, loaded on first use (the game module cimports this one)
cdef object _default_game = None

@cython.freelist(64)
cdef class Position(PositionBase):
    # The first line and "--" (at the start of its line) are the constructor's signature for
    # inspect.signature and help(), which cannot read a compiled __init__ (issue 31.5); Python
    # drops them from __doc__, and tests/test_position.py checks them against __init__.
    """Position(variant=None, fen=None)
--

A draughts position of one game (`variant`): the pieces, the side to move, and in
    frisian the kings' runs.  Immutable, hashable and picklable.

    >>> import shashki
    >>> start = shashki.Position("russian")
    >>> len(start.legal_moves)
    7
    >>> after = start.apply("c3-d4")
    >>> after.fen()
    'B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,d4:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8'
    >>> start.apply("c3-d4") == after, start == shashki.Position("russian")
    (True, True)
    >>> start.perft(6)
    37986

    `apply(move)` returns the position after a legal move (a Move of `legal_moves`, or its
    text) and leaves this one unchanged: a Position is the value to keep in a search tree, a
    cache or a replay buffer.  The draw rules that count moves or repetitions need the game's
    history, which a Board keeps (`Board.from_position`, `board.position`); `outcome()` here
    is what the position shows alone.
    """

    def __init__(self, variant=None, fen=None):
        chosen = DEFAULT if variant is None else get_variant(variant)
        white, black, kings, turn, counters = parse_fen(chosen.start_fen if fen is None
                                                        else fen, chosen)
        self.kernel = kernel_of(chosen)
        self.notation = notation_of(chosen)
        self.kernel.set_position(&self.pos, white, black, kings, turn, counters.get("runs"))

    @classmethod
    def from_masks(cls, variant, white, black, kings, turn, king_runs=None):
        """The position with these pieces (square masks: bit s for square s), side to move
        (shashki.WHITE or BLACK) and kings' runs (see king_runs; None: none), checked as a FEN
        is (shashki.fen.check_position): InvalidFenError if it is not a position of the
        game."""
        chosen = get_variant(variant)
        runs = check_position(chosen, white, black, kings, turn, king_runs)
        return _trusted_position(chosen, white, black, kings, int(turn), runs)

    @property
    def game(self):
        """The rules this position is played by: the shashki.Game of its game with the
        game's default draw setting (a Board's `game` has the board's setting)."""
        global _default_game
        if _default_game is None:
            from .game import default_game  # (here, once: the game module cimports this one)
            _default_game = default_game
        return _default_game(self.notation.variant)

    @property
    def legal_moves(self):
        """The legal moves, a tuple of Move (captures are compulsory: when there is one, only
        captures, and only those the game's precedence allows)."""
        cdef int i
        if self.moves is None:
            self.generate()
            self.moves = tuple([self.make(i) for i in range(self.table.n)])
        return self.moves

    def apply(self, move):
        """The position after `move` (a legal Move, or its text in the game's notation); this
        position is unchanged.  IllegalMoveError (a ValueError) for a move that is not legal
        here (a move of another game included), InvalidMoveError for text that is not a
        move."""
        cdef int i
        if isinstance(move, str):
            i = self.find_text(move)
            if i >= 0:
                return self.child(i)
            move = parse_move(self, move)
        elif not isinstance(move, Move):
            raise InvalidMoveError(f"apply takes a Move or move text, not "
                                   f"{type(move).__name__}")
        return self.child(self.legal_index(move))

    cdef Position child(self, int i):
        cdef Pos next_pos
        make_move(&next_pos, &self.pos, &self.table.moves[i])
        return new_position(self.kernel, self.notation, &next_pos)

    def children(self):
        """(move, position after it) for every legal move, in the order of legal_moves."""
        cdef int i
        moves = self.legal_moves
        return [(moves[i], self.child(i)) for i in range(self.table.n)]
    # --- game end, derived positions ----------------------------------------------------------

    def outcome(self):
        """None, or the Outcome this position shows alone: the side to move has no legal move
        (it loses; in giveaway and antidraughts it wins), in breakthrough a side has a king
        (it has won), or a draw that needs no history holds (turkish: one piece each).  The
        same as ``Board.from_position(position).outcome()`` (one decider: Game.outcome); the
        draws by repetition or move counts need the game's history: Game.outcome(position,
        history) counts them over the positions before this one, Board.outcome over a
        Board's moves."""
        if not self.ended_known:
            self.ended = self.game.outcome(self)
            self.ended_known = True
        return self.ended

    def mirror(self):
        """The same position with the colours swapped: the board turned half round, White's
        pieces Black's and Black's White's, the other side to move (python-chess's mirror).
        Every game's start is its own mirror when White moves first."""
        cdef Pos q
        cdef int c, byte
        q.pieces[WHITE] = scatter(self.pos.pieces[BLACK], self.kernel.turned)
        q.pieces[BLACK] = scatter(self.pos.pieces[WHITE], self.kernel.turned)
        q.kings = scatter(self.pos.kings, self.kernel.turned)
        q.turn = self.pos.turn ^ 1
        q.run = self.pos.run & ~0xFFFF
        for c in range(2):
            byte = (self.pos.run >> (8 * c)) & 0xFF
            if byte:
                q.run |= ((byte & 0xC0) | self.kernel.turned[byte & 63]) << (8 * (c ^ 1))
        return new_position(self.kernel, self.notation, &q)

    # --- perft -------------------------------------------------------------------------------

    def perft(self, depth, paths=False, *, jobs=None, hash_mb=0, executor=None,
              checkpoint=None, progress=None, table=None):
        """Leaf nodes of the move tree `depth` plies deep: unique moves by default, every
        capture route with `paths=True` (docs/games/index.md, "Move identity and perft").

        `jobs` threads (default: all cores, for trees deep enough to be worth splitting),
        a transposition table of `hash_mb` MiB, any concurrent.futures `executor`, and a
        resumable `checkpoint` file: see shashki.perft.perft.  `table`: a
        shashki.perft.PerftTable to count with (one thread), kept between runs of the same
        game and convention.
        """
        # (the runner brings threads, executors and JSON: loaded when a count is asked for)
        from ..perft import perft as run
        return run(self, depth, paths, jobs=jobs, hash_mb=hash_mb, executor=executor,
                   checkpoint=checkpoint, progress=progress, table=table)

    def count(self, depth, bint paths=False, PerftTable table=None):
        """perft(depth) in this thread, in C, with `table` if given (perft runs this on its
        threads and executors).  Releases the GIL while it counts.  PerftError for a depth
        that is not a whole number from 0 to shashki.perft.MAX_DEPTH, as perft."""
        cdef u64 n
        cdef Table *tt = NULL
        cdef int overflow = 0
        cdef int d
        if type(depth) is int and 0 <= depth <= 64:
            d = depth           # (the common case: no import)
        else:
            # 1.5 was counted as depth 1 (issue 30.19): perft's own check
            from ..perft import check_depth
            d = check_depth(depth)
        if table is not None:
            table.claim(f"{self.kernel.name} {'paths' if paths else 'unique'}")
            tt = &table.t
        with nogil:
            if d == 0:
                n = 1
            else:
                n = self.kernel.ops.perft(&self.pos, d, not paths, tt if d >= 3 else NULL,
                                          &overflow)
        if overflow & OVERFLOW_LIST:
            # (a list grows while there is memory; the orders of one capture's pieces, which
            # frisian and turkish tell apart, stop at kernel.pxi's ORDERS_MAX)
            raise OverflowError("a position in the tree has more capture routes than shashki "
                                "tells apart (65,536 of one kind), or memory ran out")
        if overflow & OVERFLOW_WRAP:
            return self.count_by_moves(d, paths, table)
        return n

    def count_by_moves(self, depth, bint paths=False, PerftTable table=None):
        """count(depth) as the sum of each legal move's count, in Python's integers: what
        count does when the tree has 2^64 leaves or more (a kernel's sums are 64-bit, and
        say when one does not fit), each child counted by count again."""
        cdef int i
        from ..perft import check_depth  # (the runner's rules for a depth, loaded on first use)
        depth = check_depth(depth)
        if depth == 0:
            return 1
        moves = self.legal_moves
        total = 0
        for i in range(self.table.n):
            n = self.child(i).count(depth - 1, paths, table)
            total += n * moves[i].routes if paths else n
        return total

    def divide(self, depth, bint paths=False):
        """Perft split by first move: {move: leaves}."""
        from ..perft import check_depth  # (the runner's rules for a depth, loaded on first use)
        cdef int i
        depth = check_depth(depth)
        if depth == 0:
            return {}
        moves = self.legal_moves
        out = {}
        for i in range(self.table.n):
            count = self.child(i).count(depth - 1, paths)
            out[moves[i]] = count * moves[i].routes if paths else count
        return out

    # --- value -------------------------------------------------------------------------------

    def __eq__(self, other):
        if not isinstance(other, Position):
            return NotImplemented
        cdef Position o = other
        return self.notation is o.notation and same_pos(&self.pos, &o.pos)

    def __hash__(self):
        return pos_hash(self.notation.variant, &self.pos)

    def __reduce__(self):
        w, b, k, turn = self.masks
        # the side by name: a pickle does not depend on the colours' int values (which were
        # White 0 before 0.3; those pickles name _position, which reads them so)
        return (_position_of, (self.notation.variant, w, b, k, turn.name, self.king_runs))

    def __copy__(self):
        return self         # immutable

    def __deepcopy__(self, memo):
        return self

    def __repr__(self):
        return f"Position({self.notation.variant.name!r}, {self.fen()!r})"

    def __str__(self):
        from ..diagram import diagram
        return diagram(self)

    def _repr_svg_(self):
        """The position as an SVG picture (shashki.svg.board), for Jupyter."""
        from .. import svg
        return svg.board(self)


def _position_of(variant, white, black, kings, side, king_runs):
    """A Position of the game from masks and the side to move's name ("WHITE" or "BLACK"),
    checked as from_masks checks them (unpickling: pickles name this function, and a pickle
    may be crafted).  InvalidFenError (a ValueError) if they are not a position of the game,
    InvalidVariantError for an unknown game."""
    if side not in ("WHITE", "BLACK"):
        raise InvalidFenError(f"the side to move is 'WHITE' or 'BLACK', not {side!r}")
    turn = Color[side]
    chosen = get_variant(variant)
    runs = check_position(chosen, white, black, kings, turn, king_runs)
    return _trusted_position(chosen, white, black, kings, turn, runs)


def _position(variant, white, black, kings, turn, king_runs):
    """The Position of a pickle made before 0.3, whose side to move is an int with White 0 and
    Black 1 (the colours' values then), checked as _position_of checks."""
    if type(turn) is not int or turn not in (0, 1):
        raise InvalidFenError(f"the side to move is 0 (White) or 1 (Black), not {turn!r}")
    return _position_of(variant, white, black, kings, "WHITE" if turn == 0 else "BLACK",
                        king_runs)


def _trusted_position(variant, white, black, kings, turn, king_runs):
    """A Position of the game from masks that come from shashki itself (a C position, or
    masks check_position has passed): only the checks that keep the C structures sound."""
    cdef Position out = Position.__new__(Position)
    out.kernel = kernel_of(variant)
    out.notation = notation_of(variant)
    out.kernel.set_position(&out.pos, white, black, kings, turn, king_runs)
    return out
