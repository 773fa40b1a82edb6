# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The Board's state and its every-ply operations in C: a position with the history of the
positions before it and their draw counters, the legal moves of the position (generated once by
the game's kernel and kept until the position changes), push/pop/copy, outcome.

A Board is a Position (shashki._core.position) plus that history: `board.position` is the
value, and the Board keeps the same C struct in place so that push and pop make no object.
shashki.board.Board subclasses BoardCore with what is not needed every ply (openings, the
learning planes, the diagram).  Python objects are made only at the edge: a Move when one is
asked for, an Outcome when the game ends.
"""

cimport cython
from cpython.mem cimport PyMem_RawMalloc, PyMem_RawRealloc, PyMem_RawFree
from libc.stdint cimport uint8_t, int64_t
from libc.string cimport memcpy, memset
from .bits cimport u64
from .kernel cimport WHITE, BLACK, RUN_ON, Pos, Move as KMove, KernelOps, make_move, same_pos
from .move cimport Move, Notation, MoveTable, table_move
from .position cimport Kernel, PositionBase, Position, new_position, pos_hash
from .game cimport Game, game_of
from .draws cimport (DrawRules, DrawState, draws_start, draws_after, reversible, occurrences,
                     game_end, history_reserve, history_push, history_free)
from . cimport draws
from .enums cimport (T_NONE, T_NO_MOVES, T_THREEFOLD_REPETITION, T_KINGS_VS_LONE_KING,
                     T_KINGS_ONLY_MOVES, T_BALANCE_UNCHANGED, T_LONE_KING_ON_MAIN_ROAD,
                     T_FEW_PIECES_VS_LONE_KING, T_NO_PROGRESS, T_KING_CROWNED)

from ..colors import Color
from ..errors import InvalidColorError, InvalidMoveError
from ..notation import parse_move

cdef tuple COLORS = (Color.WHITE, Color.BLACK)


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
        return self.board.table.n

    def count(self):
        self.board.generate()
        return self.board.table.n

    def __bool__(self):
        self.board.generate()
        return self.board.table.n > 0

    def __iter__(self):
        self.board.generate()
        return MoveIterator(self.board)

    def __contains__(self, move):
        """Whether `move` (a Move, or move text in the game's notation) is legal."""
        return self.board.is_legal(move)

    def __repr__(self):
        return f"<LegalMoves ({', '.join(map(str, self))})>"


@cython.freelist(16)
cdef class MoveIterator:
    """The moves of a LegalMoves view, made one by one: the moves of the position the view was
    iterated in, whatever is played on the board meanwhile (``for m in board.legal_moves:
    board.push(m) ... board.pop()`` is the usual way to look ahead)."""

    cdef BoardCore board
    cdef int64_t stamp
    cdef Pos pos
    cdef int i
    cdef list rest         # the moves left, made at once when the board moved on for good

    def __cinit__(self, BoardCore board):
        self.board = board
        self.stamp = board.table.stamp
        self.pos = board.pos
        self.i = 0
        self.rest = None

    def __iter__(self):
        return self

    def __length_hint__(self):
        if self.rest is not None:
            return len(self.rest) - self.i
        return self.board.table.n - self.i if self.board.table.stamp == self.stamp else 0

    def __next__(self):
        cdef BoardCore b = self.board
        cdef Pos now
        cdef int j
        if self.rest is not None:
            if self.i >= len(self.rest):
                raise StopIteration
            self.i += 1
            return self.rest[self.i - 1]
        if b.table.stamp != self.stamp:
            if same_pos(&b.pos, &self.pos):
                # back on the position (a push and a pop): its list, generated again, is the
                # same list in the same order
                b.generate()
            else:
                # the board has moved on: the moves left of the position iterated are made now
                now = b.pos
                b.pos = self.pos
                b.table.stamp = 0
                b.generate()
                self.rest = [b.make(j) for j in range(b.table.n)]
                b.pos = now
                b.table.stamp = 0
                return self.__next__()
            self.stamp = b.table.stamp
        if self.i >= b.table.n:
            raise StopIteration
        self.i += 1
        # table_move, not b.make: the hot line of every Python loop over the moves
        return table_move(&b.table, self.i - 1, b.kernel.square, b.notation)


# --- the board ---------------------------------------------------------------------------------

cdef class BoardCore(PositionBase):
    """The C state of a Board (see shashki.board.Board, which is the class to use)."""

    def __cinit__(self, *args, **kwargs):
        self.hist_draws = NULL
        self.move_stack = []

    def __dealloc__(self):
        history_free(&self.state.hist)
        PyMem_RawFree(self.hist_draws)

    @property
    def fmjd_draw_rules(self):
        """Whether the FMJD-64 endgame draw rules apply: the setting of the board's Game
        (read only: a Board of the other setting is ``Board(..., fmjd_draw_rules=...)``)."""
        return self.game.fmjd_draw_rules

    def _reset(self, Position position not None, bint fmjd, int root_ply=-1):
        """Set the position and its game; the history is cleared and the draw counters count
        from here.  `root_ply`: the plies of the game before this position (-1: as if it
        were the game's first move, or the reply to it)."""
        cdef Game game = game_of(position.notation.variant, fmjd)
        self.game = game
        self.kernel = game.kernel
        self.ops = game.kernel.ops
        self.notation = game.notation
        self.restart(&position.pos, root_ply)

    cdef int restart(self, const Pos *p, int root_ply) except -1:
        """Set the position `p` of the board's game: the history is cleared and the draw
        counters count from here (see _reset for `root_ply`)."""
        self.root_ply = root_ply if root_ply >= 0 else \
            int(COLORS[p.turn] != self.notation.variant.first_to_move)
        self.pos = p[0]
        draws_start(&self.state.draws, &self.pos, &self.game.draw_rules)
        self.state.hist.n = 0
        self.move_stack = []
        self.table.stamp = 0
        return 0

    # --- the editor (shashki.board.Board.set_piece_at, ...) ------------------------------------

    def _edit(self, white, black, kings, turn):
        """Set the pieces (square masks) and the side to move, checked by the caller as a
        position of the game (shashki.status.position_status): here only what keeps the C
        structures sound (Kernel.set_position).  The kings' runs (frisian) are gone and the
        history is cleared, as by set_fen: the game's record no longer leads here.  Unchanged
        on error."""
        cdef Pos p
        self.kernel.set_position(&p, white, black, kings, turn, None)
        self.restart(&p, -1)

    @property
    def turn(self):
        """The side to move: shashki.WHITE or shashki.BLACK.  Setting it is an edit of the
        position (python-chess's ``board.turn = ...``): the move stack is cleared, and the
        draw counters count from here (see Board.set_piece_at); setting the side already to
        move changes nothing.  InvalidColorError for anything but shashki.WHITE or BLACK (1
        and 0, True and False as python-chess's)."""
        return COLORS[self.pos.turn]

    @turn.setter
    def turn(self, color):
        cdef Pos p
        cdef int turn
        if not isinstance(color, int) or color not in (Color.WHITE, Color.BLACK):
            raise InvalidColorError(f"the side to move is shashki.WHITE or shashki.BLACK, not "
                                    f"{repr(color)[:40]}")
        turn = WHITE if color == Color.WHITE else BLACK      # the core's numbering
        if turn == self.pos.turn:
            return
        p = self.pos
        p.turn = turn
        # (a king's run belongs to the game's record, which no longer leads here)
        p.run = RUN_ON if self.ops.king_limit else 0
        self.restart(&p, -1)

    # --- position ---------------------------------------------------------------------------

    @property
    def position(self):
        """The position now, as a Position value (the board's history stays here)."""
        return new_position(self.kernel, self.notation, &self.pos)

    @property
    def root(self):
        """The position before the first move of the history (the position now if none)."""
        return new_position(self.kernel, self.notation,
                            &self.state.hist.pos[0] if self.state.hist.n else &self.pos)

    # --- moves ---------------------------------------------------------------------------------

    @property
    def legal_moves(self):
        """The legal moves: a live view (len, iteration, `in`)."""
        return LegalMoves(self)


    cdef int push_index(self, int i, Move move) except -1:
        cdef KMove km = self.table.moves[i]
        cdef Pos before = self.pos
        if self.state.hist.n == self.state.hist.cap:
            self.grow_history()
        self.hist_draws[self.state.hist.n] = self.state.draws
        history_push(&self.state.hist, &before)     # (room made above: cannot fail)
        make_move(&self.pos, &before, &km)
        draws_after(&self.state.draws, &before, &km, &self.pos, &self.game.draw_rules)
        self.table.stamp = 0
        self.move_stack.append(move)
        return 0

    cdef int grow_history(self) except -1:
        # the positions' room doubled, then the counters' to the same
        cdef void *a
        if not history_reserve(&self.state.hist, self.state.hist.n + 1):
            raise MemoryError()
        a = PyMem_RawRealloc(self.hist_draws, self.state.hist.cap * sizeof(DrawState))
        if a == NULL:
            raise MemoryError()
        self.hist_draws = <DrawState *>a
        return 0

    def push(self, move):
        """Play a legal Move (or its text); returns the Move.  The board is unchanged on error."""
        cdef Move m
        cdef int i
        if isinstance(move, str):
            i = self.find_text(move)
            if i >= 0:          # (the common text, read in C: PositionBase.find_text)
                m = self.make(i)
                self.push_index(i, m)
                return m
            move = parse_move(self, move)
        elif not isinstance(move, Move):
            raise InvalidMoveError(f"push takes a Move or move text, not {type(move).__name__}")
        m = move
        i = self.legal_index(m)
        if m.stamp != self.table.stamp or m.notation is None:
            m = self.make(i)    # the board's own Move carries the route and the text
        self.push_index(i, m)
        return m

    def pop(self):
        """Take back the last move and return it (IndexError if there is none)."""
        if not self.state.hist.n:
            raise IndexError("pop from a board with no moves played")
        self.state.hist.n -= 1
        self.pos = self.state.hist.pos[self.state.hist.n]
        self.state.draws = self.hist_draws[self.state.hist.n]
        self.table.stamp = 0
        return self.move_stack.pop()

    def ply(self):
        """The plies (half-moves) played in the game so far: those before the board's first
        position (a FEN's move number, lidraughts' ``:F<n>``, says how many) and those of its
        move stack (python-chess's ply)."""
        return self.root_ply + self.state.hist.n

    @property
    def fullmove_number(self):
        """The number of the move being played: 1 at the start, one more each time the side
        that moves first is to move again (in english Black, elsewhere White)."""
        return 1 + (self.root_ply + self.state.hist.n) // 2

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
        b.game = self.game
        b.pos = self.pos
        cdef int n = self.state.hist.n
        b.state.draws = self.state.draws
        b.root_ply = self.root_ply if stack else self.root_ply + n
        if stack and n:
            if not history_reserve(&b.state.hist, n):
                raise MemoryError()
            b.hist_draws = <DrawState *>PyMem_RawMalloc(b.state.hist.cap * sizeof(DrawState))
            if b.hist_draws == NULL:
                raise MemoryError()     # (b's __dealloc__ gives back what was taken)
            memcpy(b.state.hist.pos, self.state.hist.pos, n * sizeof(Pos))
            memcpy(b.hist_draws, self.hist_draws, n * sizeof(DrawState))
            b.state.hist.n = n
            b.move_stack = list(self.move_stack)
        return b

    def __copy__(self):
        return self.copy()

    def __eq__(self, other):
        if not isinstance(other, BoardCore):
            return NotImplemented
        cdef BoardCore o = other
        return self.variant == o.variant and same_pos(&self.pos, &o.pos)

    def __hash__(self):
        return pos_hash(self.variant, &self.pos)

    def _set_draws(self, int halfmove, int balance, int road, int few):
        self.state.draws.halfmove = halfmove
        self.state.draws.balance = balance
        self.state.draws.road = road
        self.state.draws.few = few

    # --- game end ------------------------------------------------------------------------------

    cdef int repetitions(self, int limit) noexcept:
        """How many times the position now has occurred (now included), counting up to
        `limit` (draws.pxd occurrences over the board's history)."""
        return occurrences(&self.pos, self.state.hist.pos, self.state.hist.n,
                           self.state.draws.halfmove, limit)

    cdef bint repetition_ahead(self) except -1:
        """Whether a legal move would make a position occur for the third time (WCDF's claim:
        "with their next move they would create the same position for the third time")."""
        self.generate()
        return draws.repetition_ahead(&self.pos, self.state.draws.halfmove, self.table.moves,
                                      self.table.n, self.state.hist.pos, self.state.hist.n,
                                      &self.game.draw_rules)

    cdef int _termination(self, int skip) except -1:
        # the rule that ends the game here (T_NONE: it goes on), draws in `skip` passed over:
        # draws.pxd's game_end, the one decider
        self.generate()
        return game_end(&self.pos, &self.game.draw_rules, &self.state.draws, self.table.n,
                        self.state.hist.pos, self.state.hist.n, skip)

    def outcome(self, bint claim_draw=False):
        """None while the game goes on, else an Outcome(winner, termination).

        The side to move with no legal move loses (in giveaway it wins).  Draws follow the
        game's rules (docs/games/draws.md, "Draws and the end of the game"): threefold
        repetition, the kings-only move limit, the english 40-move rule, and in russian (or
        brazilian with `fmjd_draw_rules=True`) FMJD-64 7.2.4-7.2.8.  Draws a player must claim
        (english, WCDF) count only with `claim_draw=True`.

        A set-up position may show an end that no move made: a side with no pieces has lost
        (in giveaway and antidraughts, won), whoever is to move (Termination.NO_MOVES, as the
        side to move would be left without a move at its turn); in breakthrough a side that
        has a king has won (KING_CROWNED), whoever is to move (if both have one, the side
        that has just moved, as when it crowns).
        """
        self.generate()
        return self.game.outcome_at(&self.pos, &self.state.draws, self.table.n, self.table.moves,
                                    self.state.hist.pos, self.state.hist.n, claim_draw)

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
        if not self.game.claims:
            return False
        code = self._termination(~self.game.claims)
        if code != T_NONE and code != T_NO_MOVES and code != T_KING_CROWNED:
            return True
        return bool((self.game.claims >> T_THREEFOLD_REPETITION) & 1 and self.repetition_ahead())

    def is_repetition(self, int count=3):
        """Whether this position, with this side to move, has occurred `count` times or more."""
        return self.repetitions(count) >= count

    def is_irreversible(self, move):
        """Whether a legal `move` can never be undone: a capture, or a man's step forward (a
        king's quiet move, or a turkish man's sideways step, can be).  No position before it
        can occur again, and the halfmove clock starts afresh (python-chess's
        Board.is_irreversible)."""
        cdef int i
        if not isinstance(move, Move):
            raise InvalidMoveError(f"is_irreversible takes a Move, not {type(move).__name__}")
        i = self.legal_index(move)
        return not reversible(&self.pos, &self.table.moves[i], &self.game.draw_rules)

    @property
    def halfmove_clock(self):
        """Plies since the last irreversible move (is_irreversible): the count the kings-only
        and 40-move rules keep, and the stretch in which a position can repeat."""
        return self.state.draws.halfmove

    @property
    def draw_counters(self):
        """Every draw counter of the position (shashki.outcome.DrawCounters), in plies."""
        return _DrawCounters(self.state.draws.halfmove, self.state.draws.balance, self.state.draws.road,
                             self.state.draws.few)


# the Python side of game end (shashki.outcome), bound when that module is loaded
from ..outcome import DrawCounters as _DrawCounters
