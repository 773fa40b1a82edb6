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

The actions number the legal moves of a position that has at most MAXMOVES (512), so at most 511
alternates: the action space of a game of S squares is ``S * S + 511`` actions (1535 on 8x8),
fixed, and every legal move of such a position has its own.  Only a set-up can have more moves
(the move lists grow past MAXMOVES); the functions here refuse it with ActionSpaceError.
The action of a move depends only on the position and the move, never on the order in which
moves are generated.
"""

from cpython.mem cimport PyMem_Malloc, PyMem_Free
from libc.stdint cimport int32_t, uint8_t
from libc.string cimport memset
from .bits cimport u64, ctz, popcount
from .kernel cimport (WHITE, BLACK, MAXMOVES, Pos, Move as KMove, MoveList, KernelOps, list_init,
                      list_free, list_drop)
from .move cimport Move
from .position cimport Kernel, PositionBase
from .board cimport BoardCore
from .arrays cimport Buffer, new_buffer
from .draws cimport DrawRules, DrawState
from .spaces cimport PLANES, ALTERNATE_ACTIONS, action_size

from ..errors import ActionSpaceError, BatchError, IllegalActionError, InvalidActionError

#: the moves beyond the first of each (origin, destination) in one position, at most
ALTERNATES = ALTERNATE_ACTIONS
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


cdef inline bint flipped(PositionBase board, bint perspective) noexcept:
    return perspective and board.pos.turn == BLACK


cdef object too_many(int n, str which="the position"):
    """The ActionSpaceError of a position with `n` legal moves (more than MAXMOVES)."""
    return ActionSpaceError(f"{which} has {n} legal moves; actions number at most {MAXMOVES} "
                            f"(docs/actions.md): list and play its moves instead")


cdef int actions_of(PositionBase board, bint perspective, int32_t *out) except -1:
    board.generate()
    if board.table.n > MAXMOVES:
        raise too_many(board.table.n)
    move_actions(board.table.moves, board.table.n, board.kernel.square, board.kernel.squares,
                 flipped(board, perspective), out)
    return board.table.n


cdef void sort_actions(int32_t *acts, KMove *moves, int n) noexcept nogil:
    cdef int k, j
    cdef int32_t a
    cdef KMove m
    for k in range(1, n):
        a = acts[k]
        if moves != NULL:
            m = moves[k]
        j = k
        while j > 0 and acts[j - 1] > a:
            acts[j] = acts[j - 1]
            if moves != NULL:
                moves[j] = moves[j - 1]
            j -= 1
        acts[j] = a
        if moves != NULL:
            moves[j] = m


cdef int sorted_actions(PositionBase board, bint perspective, int32_t *out) except -1:
    """The legal moves' actions, ascending: a quiet position's straight from the bitboards
    (KernelOps.quiet_actions), the captures' from the listed moves, sorted."""
    cdef bint flip = flipped(board, perspective)
    cdef int n = board.kernel.ops.quiet_actions(&board.pos, flip, out)
    if n >= 0:
        return n
    n = actions_of(board, perspective, out)
    sort_actions(out, NULL, n)
    return n


def move_to_action(PositionBase board, move, bint perspective=False):
    """The action number of the legal Move `move`."""
    cdef int32_t acts[MAXMOVES]
    cdef int i
    if not isinstance(move, Move):
        raise InvalidActionError(f"an action is found for a Move, not {type(move).__name__}")
    i = board.legal_index(move)
    actions_of(board, perspective, acts)
    return acts[i]


def action_to_move(PositionBase board, action, bint perspective=False):
    """The legal Move whose action number is `action`."""
    cdef int32_t acts[MAXMOVES]
    cdef int i, n
    cdef int size = action_size(board.kernel.ops)
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


def legal_actions(PositionBase board, bint perspective=False):
    """The action numbers of the legal moves, ascending (as OpenSpiel's)."""
    cdef int32_t acts[MAXMOVES]
    cdef int n = sorted_actions(board, perspective, acts)
    return [acts[i] for i in range(n)]


def legal_action_mask(PositionBase board, bint perspective=False):
    """A Buffer of action_space_size bytes ("B"): 1 at the action of each legal move."""
    cdef int32_t acts[MAXMOVES]
    cdef int n = sorted_actions(board, perspective, acts)
    cdef int i
    cdef Buffer mask = new_buffer("B", 1, action_size(board.kernel.ops))
    cdef uint8_t *data = <uint8_t *>mask.data
    for i in range(n):
        data[acts[i]] = 1
    return mask


cdef int position_actions(const KernelOps *ops, const Pos *p, bint flip, MoveList *ml,
                          int32_t *acts) noexcept nogil:
    """The actions of the legal moves of `p` into `acts` (from the side to move's side with
    `flip`), not in order (the captures listed into `ml`): their number, or -1 when there are
    more than MAXMOVES (or no memory to list them: ml.overflow tells)."""
    cdef int n = ops.quiet_actions(p, flip, acts)
    if n >= 0:
        return n
    list_drop(ml)                   # (the batch's list, filled again)
    ops.moves(p, ml)
    if ml.overflow or ml.n > MAXMOVES:
        return -1
    move_actions(ml.moves, ml.n, ops.square, ops.squares, flip, acts)
    return ml.n


# --- observations ----------------------------------------------------------------------------

cdef void put(float *plane, u64 ghost, const KernelOps *ops, bint flip,
              float value=1.0) noexcept nogil:
    # `value` (1) on the cell of every square of `ghost`: row r of the picture is row r of the
    # board from the viewer's side, its cells the board's files (a light square stays 0)
    cdef int s
    while ghost:
        s = view(ops.square[ctz(ghost)], ops.squares, flip)
        ghost &= ghost - 1
        plane[(s // ops.width) * ops.files + ops.file[s]] = value


cdef void position_planes(const KernelOps *ops, const Pos *p, bint flip,
                          float *out) noexcept nogil:
    """What the pieces and the side to move of `p` put in the planes (0-4, and frisian's
    kings' runs in 8) into `out`, PLANES x rows x files floats already zeroed, from the side
    to move's side with `flip` (see Board.planes)."""
    cdef int cells = ops.rows * ops.files
    cdef int me = BLACK if flip else WHITE
    cdef u64 kings = p.kings
    cdef int c
    cdef unsigned int run
    for c in range(2):
        put(out + (2 * c) * cells, p.pieces[me ^ c] & ~kings, ops, flip)
        put(out + (2 * c + 1) * cells, p.pieces[me ^ c] & kings, ops, flip)
    fill(out + 4 * cells, cells, 1.0 if p.turn == WHITE else 0.0)
    if ops.king_limit:
        # frisian: plane 8 the kings' runs, on the square of each side's running king its quiet
        # moves in a row over the limit (1: it may only capture now)
        for c in range(2):
            run = (p.run >> (8 * c)) & 0xFF
            if run:
                put(out + 8 * cells, (<u64>1) << (run & 63), ops, flip,
                    fraction(run >> 6, ops.king_limit))


def planes(PositionBase position, bint perspective=False):
    """The position as a float32 Buffer of shape (PLANES, rows, files): see Board.planes.  A
    Position has no history: its planes of repetitions and draw counters are 0."""
    cdef const KernelOps *ops = position.kernel.ops
    cdef Buffer out = new_buffer("f", 3, PLANES, ops.rows, ops.files)
    position_planes(ops, &position.pos, flipped(position, perspective), <float *>out.data)
    if isinstance(position, BoardCore):
        history_planes(<BoardCore>position, <float *>out.data, ops.rows * ops.files)
    return out


cdef void history_values(const DrawRules *r, const DrawState *d, const Pos *p, int seen,
                         bint king_limit, float *v) noexcept nogil:
    """The values of the planes of a game's history (repetitions and draw counters), each one
    value everywhere: plane k's in v[k] for k = 5..9 (frisian's plane 8 holds cells instead,
    position_planes's: its v[8] is 0).  `seen`: how many times the position has occurred
    (1-3)."""
    cdef int limit
    # the position's earlier occurrences: 0, 1/2 (seen once before), 1 (drawn by repetition)
    v[5] = (seen - 1) / 2.0
    limit = r.kings_only_plies if r.kings_only_plies else r.no_progress_plies
    v[6] = fraction(d.halfmove, limit)
    # the endgame rules the game has (russian FMJD-64 7.2.4-7.2.8, international 6.3-6.4, ...)
    limit = r.balance_plies[1] if r.balance_plies[1] else 2 * r.lone_king_moves
    v[7] = fraction(d.balance, limit)
    v[8] = 0.0
    v[9] = 0.0
    if r.three_moves and d.road >= 0:
        v[8] = fraction(d.road + 1, 2 * r.three_moves + 1)
    if r.few_moves and d.few >= 0:
        v[9] = fraction(d.few + 1, 2 * r.few_moves + 1)
    if king_limit and d.few >= 0:
        # frisian: plane 9 the count of two kings against one or of king against king, as
        # plane 9 of the other games
        limit = r.two_kings_plies if popcount(p.pieces[0] | p.pieces[1]) == 3 \
            else r.king_pair_plies
        v[9] = fraction(d.few + 1, limit + 1)


cdef void history_planes(BoardCore board, float *p, int cells) except *:
    """The planes of a Board's history: repetitions and draw counters."""
    cdef float v[PLANES]
    cdef int k
    history_values(&board.game.draw_rules, &board.state.draws, &board.pos,
                   board.repetitions(3),
                   board.ops.king_limit != 0, v)
    for k in range(5, PLANES):
        if v[k]:
            fill(p + k * cells, cells, v[k])


# --- many positions at once (shashki.rl.planes_batch, masks_batch) --------------------------------

cdef PositionBase batch_game(list items):
    """The first of `items`, once every item is checked to be a Position or Board of its game
    (BatchError)."""
    cdef Py_ssize_t i, n = len(items)
    cdef PositionBase first, p
    if n == 0:
        raise BatchError("the batch holds no position: a batch of none has no game, so no "
                         "shape (give at least one Position)")
    for i in range(n):
        if not isinstance(items[i], PositionBase):
            raise BatchError(f"item {i} of the batch is a {type(items[i]).__name__}, not a "
                             f"shashki Position or Board")
    first = <PositionBase>items[0]
    for i in range(n):
        p = <PositionBase>items[i]
        if p.notation is not first.notation:
            raise BatchError(f"item {i} of the batch is a position of {p.variant.name}, item 0 "
                             f"of {first.variant.name}: a batch holds positions of one game")
    return first


cdef Pos *gather(list items) except NULL:
    """The positions of `items` (checked by batch_game) as one C array, which the caller frees
    (PyMem_Free)."""
    cdef Py_ssize_t i, n = len(items)
    cdef Pos *out = <Pos *>PyMem_Malloc(n * sizeof(Pos) if n else 1)
    if out == NULL:
        raise MemoryError()
    for i in range(n):
        out[i] = (<PositionBase>items[i]).pos
    return out


cdef tuple shape_of(Py_ssize_t *shape, int nd):
    return tuple([shape[i] for i in range(nd)])


def planes_batch(list items, bint perspective, float[:, :, :, ::1] out):
    """The planes of every item of `items` (Positions, or Boards: with their history's planes)
    into `out`, a C-contiguous float32 array of shape (len(items), PLANES, rows, files); the
    items are checked first (BatchError), the planes filled in C without the GIL."""
    cdef PositionBase first = batch_game(items)
    cdef const KernelOps *ops = first.kernel.ops
    cdef Py_ssize_t i, n = len(items)
    cdef int cells = ops.rows * ops.files
    cdef Pos *ps
    expected = (n, PLANES, ops.rows, ops.files)
    if shape_of(out.shape, 4) != expected:
        raise BatchError(f"the output array has shape {shape_of(out.shape, 4)}; the planes of "
                         f"{n} {first.variant.name} positions need {expected}")
    ps = gather(items)
    try:
        with nogil:
            memset(&out[0, 0, 0, 0], 0, n * PLANES * cells * sizeof(float))
            for i in range(n):
                position_planes(ops, &ps[i], perspective and ps[i].turn == BLACK,
                                &out[i, 0, 0, 0])
    finally:
        PyMem_Free(ps)
    for i in range(n):
        if isinstance(items[i], BoardCore):
            history_planes(<BoardCore>items[i], &out[i, 0, 0, 0], cells)


def masks_batch(list items, bint perspective, uint8_t[:, ::1] out):
    """The legal-action masks of every item of `items` (Positions or Boards of one game) into
    `out`, a C-contiguous uint8 array of shape (len(items), action_space_size): 1 at the action
    of each legal move, 0 elsewhere; the moves generated in C without the GIL."""
    cdef PositionBase first = batch_game(items)
    cdef const KernelOps *ops = first.kernel.ops
    cdef Py_ssize_t i, n = len(items)
    cdef int j, k, size = action_size(ops)
    cdef int32_t acts[MAXMOVES]
    cdef MoveList *ml = NULL
    cdef bint overflow = False
    cdef Pos *ps
    if shape_of(out.shape, 2) != (n, size):
        raise BatchError(f"the output array has shape {shape_of(out.shape, 2)}; the masks of "
                         f"{n} {first.variant.name} positions need {(n, size)}")
    ps = gather(items)
    try:
        ml = <MoveList *>PyMem_Malloc(sizeof(MoveList))
        if ml == NULL:
            raise MemoryError()
        list_init(ml, NULL)
        with nogil:
            memset(&out[0, 0], 0, n * size)
            for i in range(n):
                k = position_actions(ops, &ps[i], perspective and ps[i].turn == BLACK, ml, acts)
                if k < 0:
                    overflow = True
                    break
                for j in range(k):
                    out[i, acts[j]] = 1
        if overflow:
            if ml.overflow:
                raise MemoryError()
            raise too_many(ml.n, f"position {i} of the batch")
    finally:
        PyMem_Free(ps)
        if ml != NULL:
            list_free(ml)
        PyMem_Free(ml)
