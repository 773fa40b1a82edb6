# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""Moves as action numbers and positions as planes, for learning systems (Board.move_to_action,
Board.action_to_move, Board.legal_action_mask, Board.planes; the same for a Position).

The encoding (docs/actions.md has a picture of every game's squares):

- the squares 0..S-1 are the Board's squares (a1 = 0, row by row from White's side), or with
  `perspective` those seen from the side to move: for Black, square s is S-1-s (the board
  turned half a turn, so the side to move always plays up the board);
- a move from square f to square t is action ``f * S + t`` (f == t for a flying king whose
  capture ends where it began).  Quiet moves and captures of one piece are the only moves of
  their (f, t), so this is their action;
- several captures may join the same two squares with different captured pieces (a man's two
  double jumps around a square, a flying king's loops).  Among those of one (f, t), the one whose
  captured squares, read as a mask in the same numbering, is smallest keeps ``f * S + t``; every
  other one is an *alternate*.  The alternates of the position, in the order of (f, t, captured
  mask), are actions ``S * S + 0``, ``S * S + 1``, ... .

A position has at most MAXMOVES (512) legal moves (the kernels' move list; a Board refuses a
position with more), so at most 511 alternates: the action space of a game of S squares is
``S * S + 511`` actions (1535 on 8x8), fixed, and every legal move of every position has its own.
The action of a move depends only on the position and the move, never on the order in which
moves are generated.
"""

from libc.stdint cimport int32_t, uint8_t
from .kernel cimport u64, WHITE, BLACK, MAXMOVES, Move as KMove, KernelOps, ctz, popcount
from .move cimport Move
from .position cimport Kernel, Placement
from .board cimport BoardCore
from .arrays cimport Buffer, new_buffer
from .draws cimport DrawRules

from ..errors import IllegalActionError, InvalidActionError
from ..notation import illegal_move_error

#: the moves beyond the first of each (origin, destination) in one position, at most
ALTERNATES = MAXMOVES - 1
#: planes of an observation
OBSERVATION_PLANES = PLANES


cdef inline int view(int s, int nsq, bint flip) noexcept nogil:
    return nsq - 1 - s if flip else s


cdef u64 view_mask(u64 ghost, const int *square, int nsq, bint flip) noexcept nogil:
    # a ghost mask as a square mask of the view (only for ordering the alternates)
    cdef u64 out = 0
    while ghost:
        out |= (<u64>1) << view(square[ctz(ghost)], nsq, flip)
        ghost &= ghost - 1
    return out


cdef void move_actions(const KMove *moves, int n, const int *square, int nsq, bint flip,
                       int32_t *out) noexcept nogil:
    cdef int i, j, k, nalt, pairs = nsq * nsq
    cdef bint dup = False
    cdef u64 cap[MAXMOVES]
    cdef int alt[MAXMOVES]
    for i in range(n):
        out[i] = view(square[moves[i].frm], nsq, flip) * nsq + view(square[moves[i].to], nsq, flip)
    # captures are compulsory, so a list holds only quiet moves or only captures; quiet moves
    # are the only ones of their (f, t)
    if n < 2 or not moves[0].ncapt:
        return
    for i in range(n):
        for j in range(i + 1, n):
            if out[i] == out[j]:
                dup = True
                break
        if dup:
            break
    if not dup:
        return
    for i in range(n):
        cap[i] = view_mask(moves[i].captured, square, nsq, flip)
    nalt = 0
    for i in range(n):
        for j in range(n):
            if j != i and out[j] == out[i] and cap[j] < cap[i]:
                # insertion sort by (f, t, captured mask): lists hold a few moves
                k = nalt
                while k > 0 and (out[alt[k - 1]] > out[i] or
                                 (out[alt[k - 1]] == out[i] and cap[alt[k - 1]] > cap[i])):
                    alt[k] = alt[k - 1]
                    k -= 1
                alt[k] = i
                nalt += 1
                break
    for k in range(nalt):
        out[alt[k]] = pairs + k


def action_space_size(Kernel kernel):
    """The number of actions of a game played with `kernel`: squares * squares + ALTERNATES."""
    return kernel.squares * kernel.squares + ALTERNATES


cdef inline bint flipped(Placement board, bint perspective) noexcept:
    return perspective and board.pos.turn == BLACK


cdef int actions_of(Placement board, bint perspective, int32_t *out) except -1:
    board.generate()
    move_actions(board.table.moves, board.table.n, board.kernel.square, board.kernel.squares,
                 flipped(board, perspective), out)
    return board.table.n


def move_to_action(Placement board, move, bint perspective=False):
    """The action number of the legal Move `move`."""
    cdef int32_t acts[MAXMOVES]
    cdef int i
    if not isinstance(move, Move):
        raise InvalidActionError(f"an action is found for a Move, not {type(move).__name__}")
    i = board.find(move)
    if i < 0:
        raise illegal_move_error(board, move)
    actions_of(board, perspective, acts)
    return acts[i]


def action_to_move(Placement board, action, bint perspective=False):
    """The legal Move whose action number is `action`."""
    cdef int32_t acts[MAXMOVES]
    cdef int i, n
    cdef int size = board.kernel.squares * board.kernel.squares + ALTERNATES
    if isinstance(action, bool) or not hasattr(action, "__index__"):
        raise InvalidActionError(f"an action is an int, not {type(action).__name__}")
    action = action.__index__()
    if not 0 <= action < size:
        raise InvalidActionError(f"action {action} is out of range: {board.variant.name} "
                                 f"actions are 0..{size - 1}")
    n = actions_of(board, perspective, acts)
    for i in range(n):
        if acts[i] == action:
            return board.make(i)
    legal = sorted([acts[i] for i in range(n)])
    raise IllegalActionError(
        f"action {action} is not legal here; the legal actions are "
        f"{', '.join(map(str, legal)) if legal else 'none (the side to move has no move)'}",
        [board.make(i) for i in range(n)])


def legal_actions(Placement board, bint perspective=False):
    """The action numbers of the legal moves, ascending (as OpenSpiel's)."""
    cdef int32_t acts[MAXMOVES]
    cdef int n = actions_of(board, perspective, acts)
    return sorted([acts[i] for i in range(n)])


def legal_action_mask(Placement board, bint perspective=False):
    """A Buffer of action_space_size bytes ("B"): 1 at the action of each legal move."""
    cdef int32_t acts[MAXMOVES]
    cdef int n = actions_of(board, perspective, acts)
    cdef int i
    cdef Buffer mask = new_buffer("B", 1, board.kernel.squares * board.kernel.squares +
                                  ALTERNATES)
    cdef uint8_t *data = <uint8_t *>mask.data
    for i in range(n):
        data[acts[i]] = 1
    return mask


# --- observations ----------------------------------------------------------------------------

cdef inline float fraction(int count, int limit) noexcept nogil:
    if limit <= 0 or count <= 0:
        return 0.0
    return 1.0 if count >= limit else <float>count / limit


cdef inline void fill(float *plane, int cells, float value) noexcept nogil:
    cdef int i
    for i in range(cells):
        plane[i] = value


cdef void put(float *plane, u64 ghost, const KernelOps *ops, bint flip,
              float value=1.0) noexcept nogil:
    # `value` (1) on the cell of every square of `ghost`: row r of the picture is row r of the
    # board from the viewer's side, its cells the board's files (a light square stays 0)
    cdef int s
    while ghost:
        s = view(ops.square[ctz(ghost)], ops.squares, flip)
        ghost &= ghost - 1
        plane[(s // ops.width) * ops.files + ops.file[s]] = value


def planes(Placement position, bint perspective=False):
    """The position as a float32 Buffer of shape (PLANES, rows, files): see Board.planes.  A
    Position has no history: its planes of repetitions and draw counters are 0."""
    cdef const KernelOps *ops = position.kernel.ops
    cdef int cells = ops.rows * ops.files
    cdef bint flip = flipped(position, perspective)
    cdef int me = BLACK if flip else WHITE
    cdef Buffer out = new_buffer("f", 3, PLANES, ops.rows, ops.files)
    cdef float *p = <float *>out.data
    cdef u64 kings = position.pos.kings
    cdef int c
    cdef unsigned int run
    for c in range(2):
        put(p + (2 * c) * cells, position.pos.pieces[me ^ c] & ~kings, ops, flip)
        put(p + (2 * c + 1) * cells, position.pos.pieces[me ^ c] & kings, ops, flip)
    fill(p + 4 * cells, cells, 1.0 if position.pos.turn == WHITE else 0.0)
    if ops.king_limit:
        # frisian: plane 8 the kings' runs, on the square of each side's running king its quiet
        # moves in a row over the limit (1: it may only capture now)
        for c in range(2):
            run = (position.pos.run >> (8 * c)) & 0xFF
            if run:
                put(p + 8 * cells, (<u64>1) << (run & 63), ops, flip,
                    fraction(run >> 6, ops.king_limit))
    if isinstance(position, BoardCore):
        history_planes(<BoardCore>position, p, cells)
    return out


cdef void history_planes(BoardCore board, float *p, int cells) except *:
    """The planes of a Board's history: repetitions and draw counters."""
    cdef const DrawRules *r = &board.draw_rules
    cdef int limit
    # the position's earlier occurrences: 0, 1/2 (seen once before), 1 (drawn by repetition)
    fill(p + 5 * cells, cells,
         (board.repetitions(&board.pos, board.draws.halfmove, 3) - 1) / 2.0)
    limit = r.kings_only_plies if r.kings_only_plies else r.no_progress_plies
    fill(p + 6 * cells, cells, fraction(board.draws.halfmove, limit))
    # the endgame rules the game has (russian FMJD-64 7.2.4-7.2.8, international 6.3-6.4, ...)
    limit = r.balance_plies[1] if r.balance_plies[1] else 2 * r.lone_king_moves
    fill(p + 7 * cells, cells, fraction(board.draws.balance, limit))
    if r.three_moves and board.draws.road >= 0:
        fill(p + 8 * cells, cells, fraction(board.draws.road + 1, 2 * r.three_moves + 1))
    if r.few_moves and board.draws.few >= 0:
        fill(p + 9 * cells, cells, fraction(board.draws.few + 1, 2 * r.few_moves + 1))
    if board.ops.king_limit and board.draws.few >= 0:
        # frisian: plane 9 the count of two kings against one or of king against king, as
        # plane 9 of the other games
        limit = r.two_kings_plies if popcount(board.pos.pieces[0] | board.pos.pieces[1]) \
            == 3 else r.king_pair_plies
        fill(p + 9 * cells, cells, fraction(board.draws.few + 1, limit + 1))
