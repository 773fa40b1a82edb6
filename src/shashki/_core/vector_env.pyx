# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The C core of shashki.rl.VectorEnv: many games of one kind stepped at once, each env's state
a C struct, the step of every env one `noexcept nogil` loop.

shashki.rl.VectorEnv is the class to use: it checks the arguments, gives numpy views of the
arrays this core owns (Buffers: numpy.asarray takes them without a copy) and shares the envs out
among threads.  Here, per env and per step: the chosen move is looked up among the legal moves
kept from the last step, made, the draw counters and the history updated, the next position's
legal moves listed (the mask and the legal actions come from them), and the game's end decided
by the same C rules as Board.outcome(claim_draw=True) and shashki.playouts (draws.pxd).  A
finished game's last observation goes to `final_obs`, and the env starts a new game at once
(Gymnasium's "same-step" autoreset).

The observations are two arrays used in turn, a step writing one (`page`) while the other
keeps the last step's.  An env's row in one array is thus two plies behind, the same side to
move (unless a new game began), seen from the same side and with the same side-to-move plane:
only the cells of the pieces that moved in those two plies and the planes whose one value
changed are written, a few cache lines a ply, not a whole observation.  (With one array and
`perspective`, the side seen from changes every ply and every piece moves in the picture.)
Each env keeps what each of its two rows shows (Env.shown) for that; the mask likewise keeps
its row's legal actions (`legal_actions`), so a ply clears and sets only those.  The arrays are
the env's: shashki.rl hands them out read-only.
"""

from cpython.mem cimport PyMem_RawMalloc, PyMem_RawFree
from libc.stdint cimport int32_t, int64_t, uint8_t
from libc.string cimport memcpy, memset

from .bits cimport u64, ctz, random_below, prefetch
from .kernel cimport (WHITE, BLACK, MAXMOVES, Pos, Move as KMove, MoveList, KernelOps, color_value,
                      make_move, list_init, list_free, list_drop)
from .game cimport Game
from .position cimport Kernel, Position, color_of
from .draws cimport (DrawState, GameState, StepRules, draws_start, state_after,
                     history_reserve, history_free, step_end, occurrences, winner_of)
from .enums cimport T_NONE, T_NO_MOVES, T_KING_CROWNED
from .actions cimport move_actions, sort_actions, position_planes, history_values, fraction, fill
from .spaces cimport PLANES, action_size
from .playouts cimport mix, next_random, regrow
from .arrays cimport Buffer, new_buffer

from ..errors import ActionSpaceError, IllegalActionError, InvalidActionError, VectorEnvError
from .position import _trusted_position

#: the most legal moves of a position (a row of `legal_actions`)
MAX_LEGAL = MAXMOVES
#: a game that a random opening keeps ending is started again this many times at most, then
#: from the start position itself
cdef enum:
    OPENING_TRIES = 64
    NO_MEMORY = 1
    OVERFLOW = 2
    ILLEGAL = 3                 # an action that check() would have refused (never, but bounded)


cdef struct Shown:
    u64 bits[4]                 # the bits of planes 0-3 that an observation row shows
    bint flip                   # seen from Black's side
    float fill[PLANES]          # the one value of planes 4-9 in the row


cdef struct Shared:
    # what every env of one VectorEnv shares: the game, its rules, the options, the arrays
    const KernelOps *ops
    StepRules step              # how its games end: claims made at once (Game.step_rules)
    bint reversed_goal          # giveaway: the side with no move wins
    bint perspective            # observations and actions from the side to move's side
    int64_t max_plies           # -1: no limit
    int opening_plies           # random plies at the start of each game
    int size                    # actions
    int cells                   # rows x files, the cells of a plane
    Pos start
    DrawState start_draws
    int cell[2][64]             # ghost bit -> its cell, seen from White's side and from Black's
    float *obs[2]               # the two observation arrays (the one a step writes: page)
    int page
    float *final_obs
    float *start_obs            # the start position's observation row (NULL: random openings)
    Shown start_shown           # what it shows
    uint8_t *mask
    int32_t *legal
    int32_t *counts
    float *rewards
    uint8_t *terminated
    uint8_t *truncated
    uint8_t *codes
    uint8_t *turns
    int32_t *plies


cdef struct Env:
    Pos pos
    GameState state             # the draw counters and the history
    u64 rng                     # the random opening's stream (xorshift64*, never 0)
    int64_t ply                 # plies of this game
    int n                       # legal moves of pos
    bint quiet                  # they are quiet moves, made from their actions (no list)
    int cap
    KMove *moves                # the moves (captures), in the order of acts
    int32_t *acts               # their actions, ascending (MAXMOVES of room)
    Shown shown[2]              # what the env's row of each observation array shows


# --- one env ----------------------------------------------------------------------------------

cdef inline bint flip_of(const Shared *sh, const Env *e) noexcept nogil:
    return sh.perspective and e.pos.turn == BLACK


cdef int list_moves(const Shared *sh, Env *e, MoveList *ml) noexcept nogil:
    """The legal actions of e.pos into e.acts, ascending: the quiet moves' straight from the
    bitboards (e.quiet: each move is made from its action), else the moves listed into e.moves
    in the same order (ml keeps them too, for the rules that look at them): 0, or NO_MEMORY /
    OVERFLOW (more moves than MAXMOVES, which actions cannot number)."""
    cdef int n, cap
    n = sh.ops.quiet_actions(&e.pos, flip_of(sh, e), e.acts)
    e.quiet = n >= 0
    if e.quiet:
        e.n = n
        return 0
    list_drop(ml)               # (the chunk's list, filled again)
    sh.ops.moves(&e.pos, ml)
    if ml.overflow:
        return NO_MEMORY
    n = ml.n
    if n > MAXMOVES:
        return OVERFLOW
    if n > e.cap:
        cap = n if n > 2 * e.cap else 2 * e.cap
        if not regrow(<void **>&e.moves, cap * sizeof(KMove)):
            return NO_MEMORY
        e.cap = cap
    memcpy(e.moves, ml.moves, n * sizeof(KMove))
    move_actions(e.moves, n, sh.ops.square, sh.ops.squares, flip_of(sh, e), e.acts)
    sort_actions(e.acts, e.moves, n)
    e.n = n
    return 0


cdef int move_of(const Shared *sh, const Env *e, int64_t action, KMove *m) noexcept nogil:
    """The legal move of e.pos whose action is `action`: a listed capture, or the quiet move
    from its origin to its destination; 0, or ILLEGAL for an action no capture has or no quiet
    move can have (check() has refused those already: the search stays within e.acts)."""
    cdef int j = 0
    cdef int nsq = sh.ops.squares
    cdef int f, t
    cdef u64 frm, to
    if not e.quiet:
        while j < e.n and e.acts[j] != action:
            j += 1
        if j == e.n:
            return ILLEGAL
        m[0] = e.moves[j]
        return 0
    if not 0 <= action < nsq * nsq:
        return ILLEGAL
    f = <int>(action // nsq)
    t = <int>(action % nsq)
    if flip_of(sh, e):
        f = nsq - 1 - f
        t = nsq - 1 - t
    m.frm = <uint8_t>sh.ops.bit[f]
    m.to = <uint8_t>sh.ops.bit[t]
    frm = (<u64>1) << m.frm
    to = (<u64>1) << m.to
    m.ft = frm | to
    m.captured = 0
    m.kx = m.ft if e.pos.kings & frm else to & sh.ops.promotion[e.pos.turn]
    m.promote = not (e.pos.kings & frm) and m.kx != 0
    m.routes = 1
    m.ncapt = 0
    return 0


cdef int game_end(const Shared *sh, const Env *e, MoveList *ml) noexcept nogil:
    """The rule that ends the game at e.pos (T_NONE: it goes on), as the playouts decide it
    (draws.pxd step_end), claims made at once (outcome(claim_draw=True)); `ml` is room for the
    moves, which the claim ahead looks at (a quiet position's actions came without them)."""
    return step_end(&sh.step, &e.pos, &e.state, e.n, e.quiet, ml, False)


cdef int play(const Shared *sh, Env *e, const KMove *m) noexcept nogil:
    """Make move `m` in e.pos, with the draw counters and the history: 0 or NO_MEMORY."""
    cdef Pos before = e.pos
    make_move(&e.pos, &before, m)
    if not state_after(&e.state, &before, m, &e.pos, &sh.step.rules):
        return NO_MEMORY
    e.ply += 1
    return 0


cdef int new_game(const Shared *sh, Env *e, MoveList *ml) noexcept nogil:
    """Start e's next game: the start position, then `opening_plies` random plies drawn from
    e's stream (a game that ends among them is started again); its moves listed."""
    cdef int tries, k, err
    cdef KMove m
    for tries in range(OPENING_TRIES + 1):
        e.pos = sh.start
        e.state.draws = sh.start_draws
        e.state.hist.n = 0
        e.ply = 0
        err = list_moves(sh, e, ml)
        if err:
            return err
        if tries == OPENING_TRIES:
            return 0            # (the start position itself: no game ends there)
        for k in range(sh.opening_plies):
            if game_end(sh, e, ml) != T_NONE:
                break
            move_of(sh, e, e.acts[random_below(next_random(&e.rng), e.n)], &m)
            err = play(sh, e, &m)
            if not err:
                err = list_moves(sh, e, ml)
            if err:
                return err
        if game_end(sh, e, ml) == T_NONE:
            return 0
    return 0


# --- the rows of the arrays --------------------------------------------------------------------

cdef inline void piece_planes(const Env *e, bint flip, u64 *out) noexcept nogil:
    # the bits of planes 0-3: the men and kings of the side seen from, then the other side's
    cdef int me = BLACK if flip else WHITE
    out[0] = e.pos.pieces[me] & ~e.pos.kings
    out[1] = e.pos.pieces[me] & e.pos.kings
    out[2] = e.pos.pieces[me ^ 1] & ~e.pos.kings
    out[3] = e.pos.pieces[me ^ 1] & e.pos.kings


cdef inline void plane_values(const Shared *sh, const Env *e, float *v) noexcept nogil:
    # the one value of each of planes 4-9 (frisian's plane 8: its cells, runs_plane)
    v[4] = 1.0 if e.pos.turn == WHITE else 0.0
    history_values(&sh.step.rules, &e.state.draws, &e.pos,
                   occurrences(&e.pos, e.state.hist.pos, e.state.hist.n, e.state.draws.halfmove,
                               3),
                   sh.ops.king_limit != 0, v)


cdef void runs_plane(const Shared *sh, const Env *e, bint flip, float *plane) noexcept nogil:
    # frisian's plane 8, the kings' runs (as position_planes draws it), written afresh
    cdef int c
    cdef unsigned int run
    fill(plane, sh.cells, 0.0)
    for c in range(2):
        run = (e.pos.run >> (8 * c)) & 0xFF
        if run:
            plane[sh.cell[flip][run & 63]] = fraction(run >> 6, sh.ops.king_limit)


cdef void write_obs(const Shared *sh, Env *e, float *row, Shown *shown) noexcept nogil:
    """The whole observation of e.pos into `row`; what it shows into `shown` unless NULL (the
    env's own rows: write_obs_step updates them from there)."""
    cdef bint flip = flip_of(sh, e)
    cdef float v[PLANES]
    cdef int k
    memset(row, 0, PLANES * sh.cells * sizeof(float))
    position_planes(sh.ops, &e.pos, flip, row)
    plane_values(sh, e, v)
    for k in range(5, PLANES):
        if v[k]:
            fill(row + k * sh.cells, sh.cells, v[k])
    if shown != NULL:
        piece_planes(e, flip, shown.bits)
        shown.flip = flip
        for k in range(4, PLANES):
            shown.fill[k] = v[k]


cdef void write_obs_step(const Shared *sh, Env *e, float *row, Shown *shown) noexcept nogil:
    """The observation of e.pos into `row`, which shows what `shown` says: only the cells and
    planes that changed are written."""
    cdef bint flip = flip_of(sh, e)
    cdef u64 now[4]
    cdef u64 d
    cdef float v[PLANES]
    cdef float *plane
    cdef const int *cell = sh.cell[flip]
    cdef int k, b
    piece_planes(e, flip, now)
    if flip == shown.flip:
        for k in range(4):
            plane = row + k * sh.cells
            d = shown.bits[k] ^ now[k]
            while d:
                b = ctz(d)
                d &= d - 1
                plane[cell[b]] = <float>((now[k] >> b) & 1)
            shown.bits[k] = now[k]
    else:
        # seen from the other side now (a new game began with the other side to move): every
        # piece is somewhere else in the picture
        memset(row, 0, 4 * sh.cells * sizeof(float))
        for k in range(4):
            plane = row + k * sh.cells
            d = now[k]
            while d:
                plane[cell[ctz(d)]] = 1.0
                d &= d - 1
            shown.bits[k] = now[k]
        shown.flip = flip
    plane_values(sh, e, v)
    for k in range(4, PLANES):
        if v[k] != shown.fill[k]:
            fill(row + k * sh.cells, sh.cells, v[k])
            shown.fill[k] = v[k]
    if sh.ops.king_limit:
        runs_plane(sh, e, flip, row + 8 * sh.cells)


cdef void show_moves(const Shared *sh, const Env *e, Py_ssize_t i) noexcept nogil:
    """Env i's legal actions (ascending) into its row of `legal` (-1 after them) and its mask
    row: the row's actions of the last position cleared, the new ones set."""
    cdef uint8_t *mask = sh.mask + i * sh.size
    cdef int32_t *legal = sh.legal + i * MAXMOVES
    cdef int old = sh.counts[i]
    cdef int k
    cdef int32_t a
    for k in range(old):
        mask[legal[k]] = 0
    for k in range(e.n):
        a = e.acts[k]
        legal[k] = a
        mask[a] = 1
    for k in range(e.n, old):
        legal[k] = -1
    sh.counts[i] = e.n


cdef inline float *obs_row(const Shared *sh, float *base, Py_ssize_t i) noexcept nogil:
    return base + i * PLANES * sh.cells


cdef int start_env(const Shared *sh, Env *e, Py_ssize_t i, MoveList *ml) noexcept nogil:
    """A new game in env i, written into its rows."""
    cdef int err = new_game(sh, e, ml)
    if err:
        return err
    if sh.start_obs != NULL:
        # every game starts from the start position: its row is copied, not drawn
        memcpy(obs_row(sh, sh.obs[sh.page], i), sh.start_obs, PLANES * sh.cells * sizeof(float))
        e.shown[sh.page] = sh.start_shown
    else:
        write_obs(sh, e, obs_row(sh, sh.obs[sh.page], i), &e.shown[sh.page])
    show_moves(sh, e, i)
    sh.turns[i] = <uint8_t>color_value(e.pos.turn)   # (as shashki.Color: WHITE 1)
    sh.plies[i] = <int32_t>e.ply
    return 0


cdef int step_env(const Shared *sh, Env *e, Py_ssize_t i, int64_t action,
                  MoveList *ml) noexcept nogil:
    """Env i plays `action` (a legal action: checked before), and starts a new game if that
    ended this one."""
    cdef int mover = e.pos.turn
    cdef int code, winner, err
    cdef float reward = 0.0
    cdef bint terminated = False, truncated = False
    cdef float *final
    cdef Shown shown
    cdef KMove m
    err = move_of(sh, e, action, &m)
    if err:
        return err
    err = play(sh, e, &m)
    if not err:
        err = list_moves(sh, e, ml)
    if err:
        return err
    code = game_end(sh, e, ml)
    if code == T_NO_MOVES or code == T_KING_CROWNED:
        # the side to move has no move (it has lost; in giveaway won), or the mover crowned
        winner = winner_of(code, &e.pos, sh.reversed_goal)
        reward = 1.0 if winner == mover else -1.0
        terminated = True
    elif code != T_NONE or e.ply == sh.max_plies:
        truncated = True        # a draw rule of the game, or the ply limit (code 0)
    sh.rewards[i] = reward
    sh.terminated[i] = terminated
    sh.truncated[i] = truncated
    sh.codes[i] = <uint8_t>code
    if terminated or truncated:
        # the last observation: the env's row two plies back, brought up to date
        final = obs_row(sh, sh.final_obs, i)
        memcpy(final, obs_row(sh, sh.obs[sh.page], i), PLANES * sh.cells * sizeof(float))
        shown = e.shown[sh.page]
        write_obs_step(sh, e, final, &shown)
        return start_env(sh, e, i, ml)
    write_obs_step(sh, e, obs_row(sh, sh.obs[sh.page], i), &e.shown[sh.page])
    show_moves(sh, e, i)
    sh.turns[i] = <uint8_t>color_value(e.pos.turn)   # (as shashki.Color: WHITE 1)
    sh.plies[i] = <int32_t>e.ply
    return 0


# The envs are stepped one after the other, and each touches a few dozen cache lines of its
# own (its state, its moves, the rows of its observation and mask) that the last step of the
# other envs has pushed out of the caches: fetched when needed, they cost more than the step's
# work.  So the lines of the envs AHEAD and AHEAD / 2 places on are asked for in advance: the
# rows first, then the lines the env's state points to (which it must have to find them).
cdef enum:
    AHEAD = 4
    CHECK_AHEAD = 16


cdef inline void fetch_rows(const Shared *sh, const Env *e, Py_ssize_t i) noexcept nogil:
    cdef const char *p = <const char *>e
    cdef const char *row = <const char *>obs_row(sh, sh.obs[sh.page], i)
    cdef int k
    for k in range(0, sizeof(Env), 64):
        prefetch(p + k)
    # planes 0-3, those a ply changes (the others rarely)
    for k in range(0, 4 * sh.cells * sizeof(float), 64):
        prefetch(row + k)
    prefetch(sh.legal + i * MAXMOVES)


cdef inline void fetch_state(const Shared *sh, const Env *e, Py_ssize_t i) noexcept nogil:
    cdef const int32_t *legal = sh.legal + i * MAXMOVES
    cdef const uint8_t *mask = sh.mask + i * sh.size
    cdef int k
    if not e.quiet:
        for k in range(0, e.n * sizeof(KMove), 64):
            prefetch(<const char *>e.moves + k)
    prefetch(e.acts)
    if e.state.hist.n:
        prefetch(&e.state.hist.pos[e.state.hist.n - 1])
    for k in range(sh.counts[i]):
        prefetch(mask + legal[k])


# --- the Python edge -------------------------------------------------------------------------

cdef class VectorCore:
    """The envs of one shashki.rl.VectorEnv and their arrays (Buffers, env i at index i):
    observations, two of (num_envs * PLANES, rows, files) float32 written in turn (the last
    written: page), final_obs the same, mask (num_envs, actions)
    uint8, legal_actions (num_envs, MAX_LEGAL) int32 (-1 after the legal ones), legal_counts
    int32, rewards float32, terminated, truncated, terminations (the Termination code of the
    step's end, 0: none), turns (the side to move as shashki.Color: 1 White, 0 Black) uint8, plies int32."""

    cdef Shared sh
    cdef Kernel kernel
    cdef object variant
    cdef Env *envs
    cdef Py_ssize_t n
    cdef int nchunks
    cdef MoveList **scratch     # one move list a chunk
    cdef int *errors            # a chunk's NO_MEMORY or OVERFLOW
    cdef readonly bint started
    cdef readonly bint busy     # a thread is in a step (begin() .. end()) or a reset
    cdef readonly tuple observations
    cdef readonly Buffer final_obs
    cdef Buffer start_row
    cdef readonly Buffer mask
    cdef readonly Buffer legal_actions
    cdef readonly Buffer legal_counts
    cdef readonly Buffer rewards
    cdef readonly Buffer terminated
    cdef readonly Buffer truncated
    cdef readonly Buffer terminations
    cdef readonly Buffer turns
    cdef readonly Buffer plies

    def __cinit__(self):
        self.envs = NULL
        self.n = 0
        self.scratch = NULL
        self.errors = NULL
        self.nchunks = 0

    def __dealloc__(self):
        cdef Py_ssize_t i
        if self.envs != NULL:
            for i in range(self.n):
                PyMem_RawFree(self.envs[i].moves)
                PyMem_RawFree(self.envs[i].acts)
                history_free(&self.envs[i].state.hist)
            PyMem_RawFree(self.envs)
        if self.scratch != NULL:
            for i in range(self.nchunks):
                if self.scratch[i] != NULL:
                    list_free(self.scratch[i])
                PyMem_RawFree(self.scratch[i])
            PyMem_RawFree(self.scratch)
        PyMem_RawFree(self.errors)

    def __init__(self, Game game not None, Py_ssize_t n, int chunks, bint perspective,
                 int64_t max_plies, int opening_plies):
        """`n` envs of `game` from its start, split into `chunks` for threads; the arguments
        are checked by shashki.rl.VectorEnv."""
        cdef Shared *sh = &self.sh
        cdef const KernelOps *ops = game.kernel.ops
        cdef Position start = game.position()
        cdef int f, b, s, v
        cdef Py_ssize_t i
        cdef Env first
        self.kernel = game.kernel
        self.variant = game.variant
        sh.ops = ops
        sh.step = game.step_rules(True)     # (as shashki.playouts with claim_draw)
        sh.reversed_goal = game.reversed_goal
        sh.perspective = perspective
        sh.max_plies = max_plies if max_plies > 0 else -1
        sh.opening_plies = opening_plies
        sh.size = action_size(ops)
        sh.cells = ops.rows * ops.files
        sh.start = start.pos
        draws_start(&sh.start_draws, &sh.start, &sh.step.rules)
        for f in range(2):
            for b in range(64):
                s = ops.square[b]
                if s < 0:
                    sh.cell[f][b] = -1
                    continue
                v = ops.squares - 1 - s if f else s
                sh.cell[f][b] = (v // ops.width) * ops.files + ops.file[v]
        self.observations = (new_buffer("f", 3, n * PLANES, ops.rows, ops.files),
                             new_buffer("f", 3, n * PLANES, ops.rows, ops.files))
        self.final_obs = new_buffer("f", 3, n * PLANES, ops.rows, ops.files)
        self.mask = new_buffer("B", 2, n, sh.size)
        self.legal_actions = new_buffer("i", 2, n, MAXMOVES)
        self.legal_counts = new_buffer("i", 1, n)
        self.rewards = new_buffer("f", 1, n)
        self.terminated = new_buffer("B", 1, n)
        self.truncated = new_buffer("B", 1, n)
        self.terminations = new_buffer("B", 1, n)
        self.turns = new_buffer("B", 1, n)
        self.plies = new_buffer("i", 1, n)
        for buffer in (*self.observations, self.final_obs, self.mask, self.legal_actions,
                       self.legal_counts, self.rewards, self.terminated, self.truncated,
                       self.terminations, self.turns, self.plies):
            # (written by the C loops alone: numpy's views of them can never be made
            # writeable, so no action the mask refuses can reach a step; issue 30.13)
            (<Buffer>buffer).readonly = True
        sh.obs[0] = <float *>(<Buffer>self.observations[0]).data
        sh.obs[1] = <float *>(<Buffer>self.observations[1]).data
        sh.page = 0
        sh.final_obs = <float *>self.final_obs.data
        sh.mask = <uint8_t *>self.mask.data
        sh.legal = <int32_t *>self.legal_actions.data
        sh.counts = <int32_t *>self.legal_counts.data
        sh.rewards = <float *>self.rewards.data
        sh.terminated = <uint8_t *>self.terminated.data
        sh.truncated = <uint8_t *>self.truncated.data
        sh.codes = <uint8_t *>self.terminations.data
        sh.turns = <uint8_t *>self.turns.data
        sh.plies = <int32_t *>self.plies.data
        for i in range(n * MAXMOVES):
            sh.legal[i] = -1
        self.start_row = new_buffer("f", 1, PLANES * sh.cells)
        sh.start_obs = NULL
        if opening_plies == 0:
            memset(&first, 0, sizeof(Env))
            first.pos = sh.start
            first.state.draws = sh.start_draws
            sh.start_obs = <float *>self.start_row.data
            write_obs(sh, &first, sh.start_obs, &sh.start_shown)
        self.envs = <Env *>PyMem_RawMalloc(n * sizeof(Env) if n else 1)
        if self.envs == NULL:
            raise MemoryError()
        memset(self.envs, 0, n * sizeof(Env))
        self.n = n
        for i in range(n):
            self.envs[i].acts = <int32_t *>PyMem_RawMalloc(MAXMOVES * sizeof(int32_t))
            if not history_reserve(&self.envs[i].state.hist, 64) or self.envs[i].acts == NULL:
                raise MemoryError()
            self.envs[i].rng = 1
        self.scratch = <MoveList **>PyMem_RawMalloc(chunks * sizeof(MoveList *))
        self.errors = <int *>PyMem_RawMalloc(chunks * sizeof(int))
        if self.scratch == NULL or self.errors == NULL:
            raise MemoryError()
        for i in range(chunks):
            self.scratch[i] = NULL
        self.nchunks = chunks
        for i in range(chunks):
            self.errors[i] = 0
            self.scratch[i] = <MoveList *>PyMem_RawMalloc(sizeof(MoveList))
            if self.scratch[i] == NULL:
                raise MemoryError()
            list_init(self.scratch[i], NULL)

    @property
    def num_envs(self):
        return self.n

    def begin(self):
        """Start a step (before check, turn_page and the chunks): VectorEnvError if a thread
        is in a step or a reset of these envs already.  (Under the GIL: the test and the set
        are one step for every other thread.)"""
        if self.busy:
            raise VectorEnvError(
                "another thread is stepping or resetting this VectorEnv: a VectorEnv is "
                "stepped by one thread at a time (give each thread its own VectorEnv, or "
                "share one under a lock; docs/learning.md, \"Threads\")")
        self.busy = True

    def end(self):
        """End the step begin() started."""
        self.busy = False

    @property
    def page(self):
        """The observation array the last reset or step wrote (0 or 1)."""
        return self.sh.page

    def turn_page(self):
        """Write the next step into the other observation array (once a step, before
        step_chunk)."""
        self.sh.page ^= 1

    @property
    def chunks(self):
        return self.nchunks

    cdef (Py_ssize_t, Py_ssize_t) bounds(self, int c):
        return self.n * c // self.nchunks, self.n * (c + 1) // self.nchunks

    def reset(self, const unsigned long long[::1] seeds=None):
        """Start a new game in every env; `seeds` (one a env, or None: the streams go on)
        seed the random openings."""
        cdef Py_ssize_t i
        cdef int err = 0
        if seeds is not None and seeds.shape[0] != self.n:
            raise VectorEnvError(f"{seeds.shape[0]} seeds for {self.n} envs")
        self.begin()
        try:
            if seeds is not None:
                for i in range(self.n):
                    # (never 0: xorshift would stay there)
                    self.envs[i].rng = mix(seeds[i] + 0x632BE59BD9B4E019ULL) | 1
            with nogil:
                for i in range(self.n):
                    err = start_env(&self.sh, &self.envs[i], i, self.scratch[0])
                    if err:
                        break
                    self.sh.rewards[i] = 0.0
                    self.sh.terminated[i] = 0
                    self.sh.truncated[i] = 0
                    self.sh.codes[i] = 0
        finally:
            self.end()
        raise_error(err)
        self.started = True

    def check(self, const int64_t[::1] actions, given=None):
        """InvalidActionError for an action out of range, IllegalActionError for one that the
        position of its env has no legal move for (nothing is played then); the messages
        quote `given` (the actions as the caller gave them, before a cast) when given."""
        cdef Py_ssize_t i, bad = -1
        cdef int64_t a
        cdef bint out_of_range = False
        if not self.started:
            raise VectorEnvError("step() before reset(): call reset() first")
        if actions.shape[0] != self.n:
            raise VectorEnvError(f"{actions.shape[0]} actions for {self.n} envs: one action a "
                                 f"env, shape ({self.n},)")
        with nogil:
            for i in range(self.n):
                if i + CHECK_AHEAD < self.n:
                    # (an env's mask row is cold here: the other envs' steps pushed it out)
                    a = actions[i + CHECK_AHEAD]
                    if 0 <= a < self.sh.size:
                        prefetch(self.sh.mask + (i + CHECK_AHEAD) * self.sh.size + a)
                a = actions[i]
                if a < 0 or a >= self.sh.size:
                    bad = i
                    out_of_range = True
                    break
                if not self.sh.mask[i * self.sh.size + a]:
                    bad = i
                    break
        if bad < 0:
            return
        action = actions[bad] if given is None else int(given[bad])
        if out_of_range:
            raise InvalidActionError(f"env {bad}: action {action} is out of range: the "
                                     f"actions are 0..{self.sh.size - 1}")
        legal = [self.sh.legal[bad * MAXMOVES + i] for i in range(self.sh.counts[bad])]
        raise IllegalActionError(f"env {bad}: action {action} is not legal there; the "
                                 f"legal actions are {', '.join(map(str, legal))}")

    def step_chunk(self, const int64_t[::1] actions, int c):
        """Step the envs of chunk c (0 <= c < chunks) with their `actions` (checked by check()),
        without the GIL."""
        cdef Py_ssize_t i, first, last
        cdef int err = 0
        if not self.busy:
            raise VectorEnvError("step_chunk outside a step: begin() first")
        if not 0 <= c < self.nchunks or actions.shape[0] != self.n:
            raise VectorEnvError(f"chunk {c} of {self.nchunks}, {actions.shape[0]} actions "
                                 f"for {self.n} envs")
        first, last = self.bounds(c)
        with nogil:
            for i in range(first, last):
                if i + AHEAD < last:
                    fetch_rows(&self.sh, &self.envs[i + AHEAD], i + AHEAD)
                if i + AHEAD // 2 < last:
                    fetch_state(&self.sh, &self.envs[i + AHEAD // 2], i + AHEAD // 2)
                err = step_env(&self.sh, &self.envs[i], i, actions[i], self.scratch[c])
                if err:
                    break
        self.errors[c] = err

    def position(self, Py_ssize_t i):
        """The Position of env i now."""
        cdef Env *e
        if self.busy:
            raise VectorEnvError("position() while another thread steps this VectorEnv: a "
                                 "VectorEnv is used by one thread at a time")
        if not 0 <= i < self.n:
            raise VectorEnvError(f"env {i!r} is not one of the {self.n} envs (0..{self.n - 1})")
        e = &self.envs[i]
        return _trusted_position(self.variant, self.kernel.from_ghost(e.pos.pieces[WHITE]),
                         self.kernel.from_ghost(e.pos.pieces[BLACK]),
                         self.kernel.from_ghost(e.pos.kings), color_of(e.pos.turn),
                         self.kernel.runs_of(&e.pos))

    def raise_errors(self):
        """MemoryError or OverflowError for a chunk whose step failed (the envs are then lost:
        reset() starts again)."""
        cdef int c, err
        for c in range(self.nchunks):
            err = self.errors[c]
            self.errors[c] = 0
            if err:
                self.started = False
                raise_error(err)


cdef raise_error(int err):
    if err == NO_MEMORY:
        raise MemoryError("out of memory stepping the envs")
    if err == OVERFLOW:
        raise ActionSpaceError(f"a position of the envs has more than {MAXMOVES} legal moves, "
                               f"which actions cannot number (docs/actions.md; the envs are "
                               f"lost: reset() starts again)")
    if err == ILLEGAL:
        raise IllegalActionError("an action that is not legal in its env reached the step "
                                 "(the envs are lost: reset() starts again)")
