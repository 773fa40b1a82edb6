# cython: language_level=3
"""shashki.Game: the rules of one game as the core plays them, built once from its record.

A Game is what a game's record (shashki.variants.Variant) and a draw setting make in C: the
compiled kernel that generates its moves, its notation, and its draw rules (the limits of
shashki.variants with the FMJD-64 endgame rules on or off), and which draws a player must
claim.  One object serves every Board and Position of the same game and draw setting
(OpenSpiel's Game beside its States): `board.game is Game.of("russian")` for a russian
board with the default setting.  A Board, the search, the playouts, the vector env and the
endgame tables read their rules from a Game, and the learning surfaces their sizes (the
action space and the observation planes are the C's, named here once)."""

from cpython.mem cimport PyMem_Malloc, PyMem_Free
from libc.string cimport memset
from .bits cimport u64
from .kernel cimport Pos, Move as KMove, make_move, same_pos
from .spaces cimport action_size
from .draws cimport (DrawRules, DrawState, StepRules, draws_start, draws_after, game_end,
                     winner_of, repetition_ahead, step_rules_init)
from .enums cimport T_NONE, T_THREEFOLD_REPETITION
from .move cimport Notation
from .position cimport Kernel, Position

from .move import notation_of
from .position import Position, kernel_of
from ..colors import Color
from ..errors import IllegalMoveError, InvalidVariantError
from ..outcome import TERMINATION_CODES, make_outcome
from ..variants import DEFAULT, get_variant

# (variant name, fmjd_draw_rules) -> its Game: one per game and setting, built on first use
cdef dict GAMES = {}
# the core's colour numbers -> shashki's colours
cdef tuple COLORS = (Color.WHITE, Color.BLACK)


cdef Game game_of(object variant, bint fmjd_draw_rules):
    """The Game of a record and a draw setting already checked (fmjd_setting)."""
    cdef Game game = GAMES.get((variant.name, fmjd_draw_rules))
    if game is None:
        game = Game.__new__(Game)
        game.build(variant, fmjd_draw_rules)
        game = GAMES.setdefault((variant.name, fmjd_draw_rules), game)
    return game


def fmjd_setting(variant, value):
    """Whether the FMJD-64 endgame draw rules (7.2.4-7.2.8) apply: by default where the game's
    record says so (russian); they may be turned on for brazilian, the other flying-king game
    played to win, and off anywhere.  InvalidVariantError for any other value."""
    if value is None:
        return variant.fmjd_endgame_rules
    if not isinstance(value, bool):
        raise InvalidVariantError(
            f"fmjd_draw_rules must be True, False or None (the game's default), not {value!r}")
    if value and value != variant.fmjd_endgame_rules and \
            not (variant.flying_kings and not variant.reversed_goal):
        raise InvalidVariantError(
            f"the FMJD-64 draw rules are for russian and brazilian, not {variant.name}")
    return value


def default_game(variant):
    """The Game of a record with its default draw setting (Position.game)."""
    return game_of(variant, variant.fmjd_endgame_rules)


cdef class Game:
    """Game(variant=None, fmjd_draw_rules=None)
--

The rules of one game (`variant`: a name or a shashki.Variant; None: russian) with its
    endgame draw rules on or off (`fmjd_draw_rules`; None: the game's default, as Board
    takes it).  Immutable and hashable; equal Games are the same rules.  `Game.of(...)` is
    the one object that every Board and Position of that game and setting shares.

    >>> import shashki
    >>> game = shashki.Game("russian")
    >>> game
    Game('russian', fmjd_draw_rules=True)
    >>> shashki.Board("russian").game is shashki.Game.of("russian")
    True
    >>> game.board().perft(4)
    1469
    """

    def __init__(self, variant=None, fmjd_draw_rules=None):
        chosen = DEFAULT if variant is None else get_variant(variant)
        self.build(chosen, fmjd_setting(chosen, fmjd_draw_rules))

    @staticmethod
    def of(variant=None, fmjd_draw_rules=None):
        """The shared Game of `variant` and the draw setting (the arguments as Game's)."""
        chosen = DEFAULT if variant is None else get_variant(variant)
        return game_of(chosen, fmjd_setting(chosen, fmjd_draw_rules))

    cdef int build(self, object variant, bint fmjd) except -1:
        self.variant = variant
        self.fmjd_draw_rules = fmjd
        self.kernel = kernel_of(variant)
        self.notation = notation_of(variant)
        set_draw_rules(&self.draw_rules, variant, fmjd,
                       self.kernel.to_ghost(variant.geometry.main_road_mask))
        self.claims = 0
        for name in variant.draw_claims:
            self.claims |= 1 << TERMINATION_CODES[name]
        self.reversed_goal = variant.reversed_goal
        return 0

    @property
    def name(self):
        """The game's name (its record's)."""
        return self.variant.name

    @property
    def action_space_size(self):
        """The number of actions (Board.move_to_action): one for each (origin, destination)
        pair of squares, then the captures that join the same two squares as another one of
        the position (docs/actions.md).  1535 on 8x8, 3011 on 10x10."""
        return action_size(self.kernel.ops)

    @property
    def planes_shape(self):
        """The shape of an observation (Board.planes): (planes, rows, files), as the game's
        record states it (Variant.planes_shape)."""
        return self.variant.planes_shape

    def board(self, fen=None):
        """A new Board of this game and draw setting: its start, or the position of `fen`."""
        from ..board import Board   # (here: shashki.board imports the core, this among it)
        return Board(self.variant, fen=fen, fmjd_draw_rules=self.fmjd_draw_rules)

    def position(self, fen=None):
        """The game's start position, or the position of `fen` (a Position)."""
        return Position(self.variant, fen)

    def outcome(self, Position position not None, history=(), bint claim_draw=False):
        """None, or the Outcome of the game at `position` under these rules: what a Board
        that reached it says (``Board.outcome(claim_draw)``), decided by the one decider of
        game end (draws.pxd game_end).

        `history`: the positions of the game before `position`, oldest first, each followed
        by the next (the last by `position`) through a legal move.  The repetitions and the
        move-count draws are counted over them as a Board that played those moves counts
        them, so that a search tree or an MCTS over Positions knows a draw by repetition
        with no Board (docs/api/game.md).  With no history, the outcome `position` shows
        alone: the side to move with no legal move has lost (in giveaway and antidraughts
        won), in breakthrough a crowned king has won, and a draw that needs no history is a
        draw (turkish: one piece each).  Draws a player must claim (english, WCDF) count only
        with `claim_draw=True`, the claim of a repetition the next move would make too.

        InvalidVariantError for a position of another game; IllegalMoveError when a position
        of `history` does not lead to the next through a legal move."""
        cdef Position before, after
        cdef list chain = None
        cdef Pos *hist = NULL
        cdef Pos child
        cdef DrawState d
        cdef int i, j, nh
        if position.notation.variant is not self.variant:
            self.check(position, "the position")
        nh = 0
        if history is not ():       # (the usual call, a Position's own outcome, builds no list)
            chain = history if type(history) is list else list(history)
            nh = len(chain)
        for i in range(nh):
            self.check(chain[i], f"history[{i}]")
        if nh:
            hist = <Pos *>PyMem_Malloc(nh * sizeof(Pos))
            if hist == NULL:
                raise MemoryError()
        try:
            draws_start(&d, &(<Position>(chain[0] if nh else position)).pos, &self.draw_rules)
            for i in range(nh):
                before = <Position>chain[i]
                after = <Position>chain[i + 1] if i + 1 < nh else position
                before.generate()
                for j in range(before.table.n):
                    make_move(&child, &before.pos, &before.table.moves[j])
                    if same_pos(&child, &after.pos):
                        break
                else:
                    raise IllegalMoveError(
                        f"history[{i}] ({before.fen()}) does not lead to "
                        f"{'history[%d]' % (i + 1) if i + 1 < nh else 'the position'} "
                        f"({after.fen()}) by a legal move; expected the game's positions in "
                        f"order, each followed by the next")
                hist[i] = before.pos
                draws_after(&d, &before.pos, &before.table.moves[j], &after.pos,
                            &self.draw_rules)
            position.generate()
            return self.outcome_at(&position.pos, &d, position.table.n, position.table.moves,
                                   hist, nh, claim_draw)
        finally:
            PyMem_Free(hist)

    cdef StepRules step_rules(self, bint claim_draw) noexcept:
        """How the playouts and the vector env end this game's games (draws.pxd step_end):
        its draw rules, its claims made at once with `claim_draw` or never."""
        cdef StepRules s
        step_rules_init(&s, &self.draw_rules, self.claims, claim_draw, self.kernel.ops.moves)
        return s

    cdef object outcome_at(self, const Pos *p, const DrawState *d, int nmoves,
                           const KMove *moves, const Pos *hist, int nh, bint claim_draw):
        """None, or the Outcome at `p` (its `nmoves` legal `moves`), the `nh` positions
        before it in `hist` and its draw counters `d`: the one decider (draws.pxd game_end),
        and with `claim_draw` the claim of a repetition the next move would make.
        Board.outcome and Game.outcome both ask it."""
        cdef int code = game_end(p, &self.draw_rules, d, nmoves, hist, nh,
                                 0 if claim_draw else self.claims)
        cdef int winner
        if code == T_NONE:
            if claim_draw and (self.claims >> T_THREEFOLD_REPETITION) & 1 and \
                    repetition_ahead(p, d.halfmove, moves, nmoves, hist, nh, &self.draw_rules):
                return make_outcome(T_THREEFOLD_REPETITION, None, self.variant, False)
            return None
        winner = winner_of(code, p, self.reversed_goal)
        return make_outcome(code, COLORS[winner] if winner >= 0 else None, self.variant,
                            self.fmjd_draw_rules)

    cdef int check(self, object position, str name) except -1:
        """InvalidVariantError unless `position` is a Position of this game."""
        if not isinstance(position, Position):
            raise InvalidVariantError(f"{name} is a {type(position).__name__}, not a "
                                      f"Position of {self.variant.name}")
        if (<Position>position).notation.variant is not self.variant:
            other = (<Position>position).notation.variant.name
            raise InvalidVariantError(f"{name} is {'an' if other[0] in 'aeiou' else 'a'} "
                                      f"{other} position, not one of {self.variant.name}")
        return 0

    def __eq__(self, other):
        if not isinstance(other, Game):
            return NotImplemented
        return self.variant is (<Game>other).variant and \
            self.fmjd_draw_rules == (<Game>other).fmjd_draw_rules

    def __hash__(self):
        return hash((self.variant.name, self.fmjd_draw_rules))

    def __repr__(self):
        return f"Game({self.variant.name!r}, fmjd_draw_rules={bool(self.fmjd_draw_rules)})"

    def __reduce__(self):
        return (Game.of, (self.variant.name, bool(self.fmjd_draw_rules)))


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
        r.one_piece_each = e.one_piece_each
    # on a full board (turkish) men step sideways: the rows are `files` bits, bit = square
    r.sideways_row = 0 if variant.geometry.dark_squares else variant.geometry.files
