# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The search: iterative deepening PVS with a transposition table, in C.

- Move ordering: the hash move, then captures (most pieces first), killers, history.
- Quiescence: below depth 0 a position whose side must capture is searched on (captures are
  compulsory, so there is no stand-pat there); only a quiet position is evaluated.  The
  search never stops in the middle of an exchange.
- Draws inside the search: repetition of a position with the same side to move (once is
  enough), and every draw rule of the game, from the same C implementation as Board.outcome()
  (draws.pxd), all counted as 0.
- Time: a node budget and a deadline checked every 1024 nodes, and a stop flag that another
  thread may set while the kernel runs without the GIL.
- Scores are from the side to move, in hundredths of a man; |score| > WIN - MAXPLY is a
  forced win (or loss) in (WIN - |score|) plies.
"""

from cpython.mem cimport PyMem_Malloc, PyMem_Free
from libc.string cimport memset
from libc.stdint cimport int8_t, int32_t, uint8_t, uint32_t
from libc.stdlib cimport abs, malloc, free

from .bits cimport u64, popcount, ctz
from .kernel cimport (WHITE, BLACK, MAXMOVES, Pos, Move, MoveList, KernelOps, make_move, step_dir,
                      list_init, list_free)
from .position cimport Kernel, PositionBase, Position, new_position
from .board cimport BoardCore
from .draws cimport DrawRules, DrawState, draws_after, draw_rule
from .game cimport Game
from .keys cimport init_keys, zobrist, child_key
from .enums cimport T_NONE, MAXPLY, O_EGDB, O_FADE, O_LMR, O_PROBCUT, NOPTIONS
from .egdb cimport Egdb, egdb_probe, EG_MAXD

from ..limits import SEARCH_OPTIONS
from .position import kernel_of

cdef extern from *:
    """
    #if defined(_WIN32)
    #include <windows.h>
    static double shashki_now(void) {
        LARGE_INTEGER f, c;
        QueryPerformanceFrequency(&f);
        QueryPerformanceCounter(&c);
        return (double)c.QuadPart / (double)f.QuadPart;
    }
    #else
    #include <time.h>
    static double shashki_now(void) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    }
    #endif
    """
    double now "shashki_now"() noexcept nogil

cdef enum:
    HISTORY_MAX = 1024  # game positions kept for repetition
    WIN = 30000
    INF = 32000
    EVAL_LIMIT = 15000  # the largest static evaluation
    EGDB_WIN = WIN - MAXPLY - 200   # a won position of the endgame databases, less the ply
                                    # and its distance to conversion
    BOUND = EGDB_WIN - MAXPLY - EG_MAXD - 10    # beyond it a score depends on the ply
    EXACT = 0
    LOWER = 1
    UPPER = 2


init_keys()         # (this module's copy of the keys' table: keys.pxd)


ctypedef struct TTEntry:
    u64 key             # the position's key, xor the rest of the entry (entry_key): threads
                        # share the table without a lock, and an entry that one wrote while
                        # another read it does not match the key it was read for
    u64 captured        # the best move: origin, destination, captured squares
    int32_t score
    int8_t depth
    uint8_t flag        # EXACT, LOWER or UPPER
    uint8_t gen         # the search that stored it (Engine.gen)
    uint8_t frm
    uint8_t to


ctypedef struct MoveId:
    u64 captured
    uint8_t frm
    uint8_t to


include "evaluate.pxi"


ctypedef struct Engine:
    const KernelOps *ops
    Eval ev
    int opt[NOPTIONS]
    TTEntry *tt
    u64 tt_mask
    u64 nodes
    u64 node_limit      # 0: none
    double deadline     # 0: none
    int stop            # set by stop(), by the node budget or by the deadline
    int halted          # set by halt(): every search stops at once until resume()
    DrawRules draws     # the game's draw rules, as the board's
    int seldepth
    uint8_t gen         # counts searches, so entries of earlier moves can be replaced
    int history[64][64]
    MoveId killers[MAXPLY][2]
    u64 keys[HISTORY_MAX + MAXPLY]
    int nkeys
    Move pv[MAXPLY][MAXPLY]
    int pv_len[MAXPLY]
    int root_score      # the score of the root move in pv[0] (of a search cut short too)
    const Egdb *db      # the endgame databases, or NULL
    int db_pieces       # the most pieces of their loaded tables
    u64 db_hits


cdef inline bint same_move(const Move *m, const MoveId *id) noexcept nogil:
    return m.frm == id.frm and m.to == id.to and m.captured == id.captured


cdef inline int evaluate(const Engine *e, const Pos *p) noexcept nogil:
    # clamped far below the scores of forced results (and of the endgame databases)
    cdef int v = eval_terms(&e.ev, e.ops, p, NULL)
    if v > EVAL_LIMIT:
        return EVAL_LIMIT
    return -EVAL_LIMIT if v < -EVAL_LIMIT else v


cdef inline int faded(const Engine *e, const Pos *p, const DrawState *d) noexcept nogil:
    """The evaluation at a leaf of the search.  In a game whose rules never end a shuffle of
    kings (no kings-only or no-progress limit: pool, spanish ...), it fades as the plies
    without a man move or capture pile up (to half after `fade` plies, 0 after twice as
    many), so that an advantage which makes no progress reads as the draw it is heading for
    and the game ends by repetition instead of wandering."""
    cdef int v = evaluate(e, p)
    cdef int f = e.opt[O_FADE]
    if f > 0 and d.halfmove > 0 and e.draws.kings_only_plies == 0 and \
            e.draws.no_progress_plies == 0:
        if d.halfmove >= 2 * f:
            return 0
        return v * (2 * f - d.halfmove) // (2 * f)
    return v


# --- search --------------------------------------------------------------------------------------

cdef inline bint repeated(const Engine *e, u64 key, int rev) noexcept nogil:
    # the same position with the same side to move, since the last irreversible move
    cdef int i = e.nkeys - 2
    cdef int back = 2
    while i >= 0 and back <= rev:
        if e.keys[i] == key:
            return True
        i -= 2
        back += 2
    return False


cdef inline void check_limits(Engine *e) noexcept nogil:
    if e.node_limit and e.nodes >= e.node_limit:
        e.stop = 1
    elif e.deadline > 0 and (e.nodes & 1023) == 0 and now() >= e.deadline:
        e.stop = 1


cdef inline TTEntry *tt_entry(Engine *e, u64 key) noexcept nogil:
    """The table's entry of `key`, or the one it would go to."""
    return &e.tt[key & e.tt_mask]


cdef inline u64 entry_key(const TTEntry *t) noexcept nogil:
    """The key of the position whose entry `t` is (as stored: the key xor the data)."""
    return t.key ^ t.captured ^ (<u64><uint32_t>t.score << 32) ^ \
        (<u64><uint8_t>t.depth << 24) ^ (<u64>t.flag << 16) ^ (<u64>t.frm << 8) ^ <u64>t.to


cdef inline void remember(MoveId *id, const Move *m) noexcept nogil:
    id.frm = m.frm
    id.to = m.to
    id.captured = m.captured


cdef inline void history_add(Engine *e, const Move *m, int bonus) noexcept nogil:
    # bounded: every entry is halved when one passes 2^20 either way
    cdef int j
    e.history[m.frm][m.to] += bonus
    if e.history[m.frm][m.to] > (1 << 20) or e.history[m.frm][m.to] < -(1 << 20):
        for j in range(64 * 64):
            (&e.history[0][0])[j] //= 2


cdef int search(Engine *e, const Pos *p, u64 key, int depth, int alpha, int beta,
                int ply, const DrawState *d, bint probe=False) noexcept nogil:
    # The node's move list, given back however the node returns: in place, or on the heap
    # past MAXMOVES moves (a set-up can have more: kernel.pxd), with the ordering scores then
    cdef MoveList ml
    cdef int *more_order = NULL
    cdef int score
    list_init(&ml, NULL)
    score = search_node(e, p, key, depth, alpha, beta, ply, d, probe, &ml, &more_order)
    list_free(&ml)
    free(more_order)
    return score


cdef int search_node(Engine *e, const Pos *p, u64 key, int depth, int alpha, int beta,
                     int ply, const DrawState *d, bint probe, MoveList *ml,
                     int **more_order) noexcept nogil:
    cdef int in_place[MAXMOVES]
    cdef int *order = in_place
    cdef Pos child
    cdef TTEntry *te
    cdef TTEntry seen       # the entry as read once (another thread may be writing it)
    cdef MoveId hash_move
    cdef int i, j, k, score, best, new_depth, tt_score, old_alpha, reduction, margin
    cdef bint pv_node = beta - alpha > 1
    cdef DrawState cd
    cdef bint captures, replace, have_hash = False
    cdef Move *m
    cdef Move tmp
    cdef int tmpo
    cdef u64 ckey

    e.pv_len[ply] = ply
    e.nodes += 1
    check_limits(e)
    if e.stop:
        return 0
    if ply > e.seldepth:
        e.seldepth = ply
    if ply > 0 and repeated(e, key, d.halfmove):
        return 0
    if e.draws.crowning_wins and p.kings & p.pieces[p.turn ^ 1]:
        return ply - WIN        # breakthrough: the side that just crowned a king has won
    e.ops.moves(p, ml)
    if ml.n > MAXMOVES:
        more_order[0] = <int *>malloc(ml.n * sizeof(int))
        if more_order[0] == NULL:
            e.stop = 1          # no memory for this node: the search ends as if stopped
            return 0
        order = more_order[0]
    if ml.n == 0:
        # no legal move: the side to move has lost (won, in giveaway); sooner is bigger.  As in
        # Board.outcome(), this comes before the draw rules.
        return WIN - ply if e.ev.reversed else ply - WIN
    if ply > 0 and draw_rule(d, p, &e.draws, 0) != T_NONE:
        return 0
    if ply > 0 and e.db != NULL and e.opt[O_EGDB] and \
            popcount(p.pieces[0] | p.pieces[1]) <= e.db_pieces:
        k = egdb_probe(e.db, p, d, &j)
        if k != -2:
            e.db_hits += 1
            if k == 0:
                return 0
            score = EGDB_WIN - ply - j
            return score if k > 0 else -score
    if ply >= MAXPLY - 1:
        return faded(e, p, d)
    captures = ml.moves[0].ncapt > 0
    if depth <= 0 and not captures:
        return faded(e, p, d)
    if depth < 0:
        depth = 0

    # transposition table
    te = tt_entry(e, key)
    seen = te[0]
    if entry_key(&seen) == key:
        have_hash = True
        hash_move.frm = seen.frm
        hash_move.to = seen.to
        hash_move.captured = seen.captured
        if ply > 0 and seen.depth >= depth:
            tt_score = seen.score
            if tt_score > BOUND:
                tt_score -= ply
            elif tt_score < -BOUND:
                tt_score += ply
            if seen.flag == EXACT or (seen.flag == LOWER and tt_score >= beta) or \
                    (seen.flag == UPPER and tt_score <= alpha):
                return tt_score

    # ProbCut: a shallow null-window search (40% of the depth) that beats beta by a margin
    # says a full one would beat beta too; the probe itself is not probed again
    if e.opt[O_PROBCUT] and not probe and not pv_node and depth >= 3 and \
            -BOUND < beta < BOUND:
        margin = depth * e.opt[O_PROBCUT]
        score = search(e, p, key, depth * 40 // 100, beta + margin - 1, beta + margin, ply, d,
                       True)
        if e.stop:
            return 0
        if score >= beta + margin:
            return score - margin

    # move ordering scores
    for i in range(ml.n):
        m = &ml.moves[i]
        if have_hash and same_move(m, &hash_move):
            order[i] = 1 << 30
        elif m.ncapt:
            order[i] = (1 << 29) + m.ncapt * 64 + popcount(m.captured & p.kings) * 8
        elif same_move(m, &e.killers[ply][0]):
            order[i] = (1 << 28) + 1
        elif same_move(m, &e.killers[ply][1]):
            order[i] = 1 << 28
        else:
            order[i] = e.history[m.frm][m.to] + (64 if m.promote else 0)

    best = -INF
    old_alpha = alpha
    e.keys[e.nkeys] = key
    e.nkeys += 1
    for i in range(ml.n):
        # selection sort: the best remaining move goes to slot i
        j = i
        for k in range(i + 1, ml.n):
            if order[k] > order[j]:
                j = k
        if j != i:
            tmp = ml.moves[i]
            ml.moves[i] = ml.moves[j]
            ml.moves[j] = tmp
            tmpo = order[i]
            order[i] = order[j]
            order[j] = tmpo
        m = &ml.moves[i]
        make_move(&child, p, m)
        cd = d[0]
        draws_after(&cd, p, m, &child, &e.draws)
        ckey = child_key(key, p, m, &child)
        # a forced reply (one legal move) costs no depth
        new_depth = depth if ml.n == 1 and depth > 0 else depth - 1
        # Late move reductions: a quiet move late in the ordering (not the hash move, a
        # capture, a promotion or a killer) is unlikely to be best, so it is searched first a
        # ply less deep (two, from the fifth move of a non-PV node) with a null window, and
        # again at full depth only if it beats alpha.
        reduction = 0
        if e.opt[O_LMR] and depth >= 2 and i >= (3 if pv_node else 1) and not m.ncapt and \
                not m.promote and order[i] < (1 << 28):
            reduction = 2 if not pv_node and i >= 4 else 1
        if i == 0:
            score = -search(e, &child, ckey, new_depth, -beta, -alpha, ply + 1, &cd, probe)
        else:
            score = -search(e, &child, ckey, new_depth - reduction, -alpha - 1, -alpha, ply + 1,
                            &cd, probe)
            if reduction and score > alpha and not e.stop:
                score = -search(e, &child, ckey, new_depth, -alpha - 1, -alpha, ply + 1, &cd,
                                probe)
            if alpha < score < beta and not e.stop:
                score = -search(e, &child, ckey, new_depth, -beta, -alpha, ply + 1, &cd, probe)
        if e.stop:
            e.nkeys -= 1
            return 0
        if score > best:
            best = score
            if score > alpha:
                alpha = score
                e.pv[ply][ply] = m[0]
                for j in range(ply + 1, e.pv_len[ply + 1]):
                    e.pv[ply][j] = e.pv[ply + 1][j]
                e.pv_len[ply] = e.pv_len[ply + 1] if e.pv_len[ply + 1] > ply + 1 else ply + 1
                if ply == 0:
                    e.root_score = score
                remember(&hash_move, m)
                have_hash = True
                if alpha >= beta:
                    if not m.ncapt:
                        if not same_move(m, &e.killers[ply][0]):
                            e.killers[ply][1] = e.killers[ply][0]
                            e.killers[ply][0] = hash_move
                        history_add(e, m, depth * depth)
                    break
        if i == 0 and not have_hash:
            remember(&hash_move, m)
            have_hash = True
    e.nkeys -= 1

    # Store, mate scores relative to this node.  An entry of another position is replaced only
    # by a search as deep or deeper, unless it is left over from an earlier move; quiescence
    # nodes (depth 0) never push out a real search.
    seen = te[0]
    replace = entry_key(&seen) == key or seen.gen != e.gen or (depth > 0 and depth >= seen.depth)
    if replace:
        seen.gen = e.gen
        seen.depth = <int8_t>depth
        seen.frm = hash_move.frm
        seen.to = hash_move.to
        seen.captured = hash_move.captured
        tt_score = best
        if tt_score > BOUND:
            tt_score += ply
        elif tt_score < -BOUND:
            tt_score -= ply
        seen.score = tt_score
        seen.flag = LOWER if best >= beta else (EXACT if best > old_alpha else UPPER)
        seen.key = 0
        seen.key = key ^ entry_key(&seen)
        te[0] = seen
    return best


cdef class Searcher:
    """The C search state of one game: its kernel, goal and kind of kings (from the Game it is
    made from; the draw rules are those of each board searched), evaluation weights, options
    and hash table.

    `search()` releases the GIL; `stop()`, `halt()` and `set_deadline()` may be called from
    another thread meanwhile.  `helper()` makes a Searcher that shares this one's hash table,
    for a search on several threads (lazy SMP: each thread searches the same position, and
    what one has found the others read from the table).
    """
    cdef Engine *e
    cdef Kernel kernel
    cdef readonly u64 hash_bytes
    cdef object tables          # the endgame tables probed (kept alive here)
    cdef Searcher owner         # a helper's: the Searcher whose table it shares
    cdef Game game

    def __cinit__(self, Game game not None, int hash_mb=16, *, weights=None, options=None,
                  Searcher share=None):
        cdef u64 n = 1
        if hash_mb < 1:
            raise ValueError(f"hash size must be at least 1 MiB, not {hash_mb}")
        self.e = <Engine *>PyMem_Malloc(sizeof(Engine))
        if self.e == NULL:
            raise MemoryError()
        memset(self.e, 0, sizeof(Engine))
        self.game = game
        if share is not None:
            # a helper: the owner's game, weights, options, tables and table
            if share.kernel is not game.kernel:
                raise ValueError("a helper searches the game of the Searcher it helps")
            self.owner = share
            self.kernel = share.kernel
            self.e.ops = share.e.ops
            self.e.ev = share.e.ev
            self.e.opt = share.e.opt
            self.e.tt = share.e.tt
            self.e.tt_mask = share.e.tt_mask
            self.e.gen = share.e.gen
            self.e.db = share.e.db
            self.e.db_pieces = share.e.db_pieces
            self.tables = share.tables
            return
        while n * 2 * sizeof(TTEntry) <= (<u64>hash_mb) * 1024 * 1024:
            n *= 2
        self.e.tt = <TTEntry *>PyMem_Malloc(n * sizeof(TTEntry))
        if self.e.tt == NULL:
            raise MemoryError(f"cannot allocate a {hash_mb} MiB search table")
        self.e.tt_mask = n - 1
        self.hash_bytes = n * sizeof(TTEntry)
        self.kernel = game.kernel
        self.e.ops = self.kernel.ops
        init_geometry(&self.e.ev, self.kernel.ops, game.variant.flying_kings)
        self.e.ev.reversed = game.reversed_goal
        if weights is not None:
            self.set_weights(weights)
        for i, value in enumerate(SEARCH_OPTIONS.values()):
            self.e.opt[i] = value
        self.set_options(options or {})
        self.clear()

    def __dealloc__(self):
        if self.e != NULL:
            if self.owner is None:
                PyMem_Free(self.e.tt)
            PyMem_Free(self.e)

    def helper(self):
        """A Searcher that shares this one's hash table (and its game, weights, options and
        endgame tables), to search beside it on another thread."""
        return Searcher(self.game, share=self)

    def set_weights(self, weights):
        """Set the evaluation weights: a sequence of 2 * len(FEATURE_NAMES) ints, the
        middlegame weight of every term, then the endgame ones."""
        values = [int(w) for w in weights]
        if len(values) != 2 * NFEATURES:
            raise ValueError(f"expected {2 * NFEATURES} weights, not {len(values)}")
        for i in range(NFEATURES):
            self.e.ev.w[0][i] = values[i]
            self.e.ev.w[1][i] = values[NFEATURES + i]

    def set_options(self, options):
        """Switch parts of the search on or off (shashki.limits.SEARCH_OPTIONS; others keep
        their values)."""
        for name in options:
            if name not in SEARCH_OPTIONS:
                raise ValueError(f"unknown search option {name!r}; expected one of "
                                 f"{', '.join(SEARCH_OPTIONS)}")
        for i, name in enumerate(SEARCH_OPTIONS):
            if name in options:
                self.e.opt[i] = int(options[name])

    def set_egdb(self, tables):
        """Probe `tables` (a shashki._core.egdb.EgdbTables of this game, or None for none)."""
        if tables is None:
            self.e.db = NULL
            self.e.db_pieces = 0
        else:
            if kernel_of(tables.variant) is not self.kernel:
                raise ValueError(f"these tables are {tables.variant.name}'s")
            self.e.db = <const Egdb *><size_t>tables.address()
            self.e.db_pieces = tables.max_pieces
        self.tables = tables

    @property
    def egdb_hits(self):
        """Positions of the last search found in the endgame tables."""
        return self.e.db_hits

    def options(self):
        """The current options, by name."""
        return {name: self.e.opt[i] for i, name in enumerate(SEARCH_OPTIONS)}

    def clear(self):
        """Forget the hash table, killers and history (a new game)."""
        memset(self.e.tt, 0, (self.e.tt_mask + 1) * sizeof(TTEntry))
        memset(self.e.history, 0, sizeof(self.e.history))
        memset(self.e.killers, 0, sizeof(self.e.killers))

    def new_search(self):
        """Mark the start of the search of a new move: the table's entries from earlier moves
        may then be replaced by shallower ones."""
        self.e.gen = <uint8_t>(self.e.gen + 1)

    def stop(self):
        """Ask a running search to stop as soon as possible (thread-safe)."""
        self.e.stop = 1

    def halt(self):
        """Stop a running search, and every search after it at once, until resume()
        (thread-safe): how a helper is told that the move is decided."""
        self.e.halted = 1
        self.e.stop = 1

    def resume(self):
        """Let searches run again after halt()."""
        self.e.halted = 0

    def set_deadline(self, double deadline):
        """Move the deadline of a running search (on the clock of now_seconds(); 0: none)."""
        self.e.deadline = deadline

    cdef int check(self, PositionBase board) except -1:
        if board.kernel is not self.kernel:
            raise ValueError(f"this searcher plays with the {self.kernel.name} kernel, "
                             f"not {board.kernel.name}")
        return 0

    def evaluate(self, PositionBase board not None):
        """The static evaluation of the position (a Board's or a Position), from the side to
        move."""
        self.check(board)
        return evaluate(self.e, &board.pos)

    def features(self, PositionBase board not None):
        """(the value of every evaluation term at the board's position, from the side to
        move, in the order of FEATURE_NAMES; the phase, from 0 to max_phase)."""
        cdef int f[NFEATURES]
        self.check(board)
        memset(f, 0, sizeof(f))
        eval_terms(&self.e.ev, self.e.ops, &board.pos, f)
        return [f[i] for i in range(NFEATURES)], phase_of(&self.e.ev, &board.pos)

    @property
    def max_phase(self):
        """The phase of the start position (its number of pieces)."""
        return self.e.ev.maxph

    def search(self, BoardCore board not None, int depth, node_limit=0, double deadline=0.0):
        """One iteration of the search of the board's position to `depth`; returns (score,
        pv, nodes, seldepth, completed).

        The board's history since the last irreversible move gives the positions a repetition
        returns to, and its draw rules and counters are the search's own (one implementation,
        shashki/_core/draws.pxd).  `deadline` is on the clock of shashki_now (see `now()`);
        `pv` is a list of Moves (each of the position the line has reached).  A search cut
        short (stop, node budget, deadline) returns completed=False, with the best root move
        found so far by this iteration as its pv (empty when none was) and that move's
        score.
        """
        cdef Pos p = board.pos
        cdef DrawState d = board.state.draws
        cdef int score, i, first
        cdef u64 key
        self.check(board)
        if not 1 <= depth < MAXPLY - 10:
            raise ValueError(f"search depth must be 1..{MAXPLY - 11}, not {depth}")
        first = board.state.hist.n - min(d.halfmove, board.state.hist.n, HISTORY_MAX)
        self.e.nkeys = 0
        for i in range(first, board.state.hist.n):
            self.e.keys[self.e.nkeys] = zobrist(&board.state.hist.pos[i])
            self.e.nkeys += 1
        self.e.draws = board.game.draw_rules     # (the rules of the board's Game)
        self.e.nodes = 0
        self.e.node_limit = node_limit
        self.e.deadline = deadline
        self.e.seldepth = 0
        self.e.stop = self.e.halted
        self.e.root_score = 0
        self.e.db_hits = 0
        memset(self.e.pv_len, 0, sizeof(self.e.pv_len))
        key = zobrist(&p)
        with nogil:
            score = search(self.e, &p, key, depth, -INF, INF, 0, &d)
        completed = not self.e.stop
        line = self.line_moves(board, self.e.pv[0], self.e.pv_len[0])
        if not completed:
            score = self.e.root_score
        return score, line, self.e.nodes, self.e.seldepth, completed

    cdef list line_moves(self, BoardCore board, const Move *line, int n):
        """The kernel's moves of a principal variation as Moves, each the legal move of the
        position the line has reached (found in its list by origin, destination and
        captured squares, in C)."""
        cdef Position at = new_position(board.kernel, board.notation, &board.pos)
        cdef int i, j, k
        out = []
        for k in range(n):
            at.generate()
            i = -1
            for j in range(at.table.n):
                if at.table.moves[j].frm == line[k].frm and at.table.moves[j].to == line[k].to \
                        and at.table.moves[j].captured == line[k].captured:
                    i = j
                    break
            if i < 0:  # pragma: no cover - the search plays only legal moves
                break
            out.append(at.make(i))
            at = at.child(i)
        return out


def now_seconds():
    """The monotonic clock the search's deadline is measured on."""
    return now()


WIN_SCORE = WIN
#: beyond this a score (not a forced win) is an endgame database's win
EGDB_BOUND = BOUND
