"""Board: a position, its legal moves, and the stack of moves that led to it.

The state and everything done every ply (legal moves, push, pop, copy, outcome, FEN) are in C
(shashki._core.board.BoardCore); this class adds what is not: reading FEN and move text,
openings, perft, the diagram.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple, Type, Union

from . import notation as _notation
from .diagram import diagram
from ._core import actions as _actions
from ._core import perft as _perft
from ._core.arrays import Buffer
from ._text import quote
from ._core.board import BoardCore, LegalMoves, Move
from .errors import IllegalMoveError, InvalidVariantError
from .fen import parse_fen
from .variants import COLOR_NAMES, DEFAULT, Variant, get_variant

if TYPE_CHECKING:
    # (annotations only: `import shashki` stays cheap)
    import os
    from concurrent.futures import Executor

    from .ballots import Opening
    from .perft import Progress

#: the position as four ints: white, black and king masks, side to move
Masks = Tuple[int, int, int, int]

#: below this depth a perft is too small to be worth splitting across threads
PARALLEL_MIN_DEPTH = 8

__all__ = ["Board", "LegalMoves", "Move", "PARALLEL_MIN_DEPTH"]


class Board(BoardCore):
    """A draughts position of one game (`variant`) with its move history.

    >>> board = Board("russian")
    >>> len(board.legal_moves)
    7
    >>> board.push("c3-d4")
    Move('c3-d4')
    >>> board.fen()
    'B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,d4:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8'

    A Board is not shared between threads for writing (as python-chess's): push, pop and
    set_fen on one board from several threads at once may corrupt it.  Reading it (legal
    moves, fen, perft, copies) from many threads is safe.
    """

    __slots__ = ()

    variant: Variant
    fmjd_draw_rules: bool

    def __init__(self, variant: Union[str, Variant] = DEFAULT, fen: Optional[str] = None, *,
                 fmjd_draw_rules: Optional[bool] = None) -> None:
        chosen = get_variant(variant)
        self._setup(chosen, _fmjd_setting(chosen, fmjd_draw_rules),
                    chosen.start_fen if fen is None else fen)

    def _setup(self, variant: Variant, fmjd: bool, fen: str) -> None:
        white, black, kings, turn, counters = parse_fen(fen, variant)
        self._reset(variant, white, black, kings, turn, fmjd, counters.get("runs", 0))

    def set_fen(self, fen: str) -> None:
        """Set the position from a FEN; the move history is cleared.  On error (InvalidFenError)
        the board is unchanged.  The draw counters count from the set-up position (the game's
        history is unknown)."""
        self._setup(self.variant, self.fmjd_draw_rules, fen)

    def __reduce__(self) -> Tuple[Any, ...]:
        # pickled as the game, its starting position and the moves played from it
        white, black, kings, turn = self._root()
        moves = [(m.origin, m.destination, m.captured) for m in self.move_stack]
        return (_unpickle, (type(self), self.variant.name, self.fmjd_draw_rules,
                            (white, black, kings, turn), moves, tuple(self.draw_counters),
                            self._runs(True)))

    def parse_move(self, text: str) -> Move:
        """The legal move that `text` names, in the game's notation (shashki.notation).

        Accepts the short form (`c3-d4`, `c3:e5`, `22x18`), the full route (`c3:e5:g3`), any of
        the separators `-`, `x`, `:`, and in the algebraic games the russian short form `cd4`
        (a man from the c-file to d4).  Raises InvalidMoveError for text that is not a move,
        IllegalMoveError when no legal move fits, AmbiguousMoveError when several do.
        """
        return _notation.parse_move(self, text)

    @classmethod
    def from_opening(cls, variant: Union[str, Variant], opening: Union[str, Opening],
                     table: Optional[str] = None) -> Board:
        """A board at the start position of an opening of the tables (shashki.openings):
        `opening` is an Opening, its full name (`"I-1: ab4"`) or its code (`"I-1"`, `"001"`);
        `table` narrows the search when a code is in several tables.  When the opening's
        name lists moves (Opening.moves), the board starts from Opening.start_fen and those
        moves are played: they are on its move stack; otherwise it is set up at Opening.fen."""
        from .ballots import find_opening  # the opening tables: loaded on first use
        found = find_opening(variant, opening, table)
        if found.moves is not None and found.start_fen is not None:
            board = cls(variant, fen=found.start_fen)
            for text in found.moves:
                board.push(text)
            if board.fen() == found.fen:
                return board
        return cls(variant, fen=found.fen)

    def illegal_move_error(self, text: str, origin: object) -> IllegalMoveError:
        """The IllegalMoveError for move `text` from `origin`: the message says why, and
        `alternatives` lists the touched piece's legal moves, or every legal move."""
        moves = list(self.legal_moves)
        own = [m for m in moves if m.origin == origin]
        return IllegalMoveError(self._illegal_message(text, origin), own or moves)

    def _illegal_message(self, text: str, origin: object) -> str:
        """Why the move `text` from square `origin` is not legal: the legal moves of that piece
        (seeds 003 and 004: a touched piece must move if it can), or why it has none."""
        quoted = quote(text)
        squares = self.variant.geometry.squares
        if isinstance(origin, bool) or not isinstance(origin, int) or not 0 <= origin < squares:
            return (f"illegal move {quoted}: {origin!r} is not a square "
                    f"(squares are 0..{squares - 1})")
        moves = list(self.legal_moves)
        same_piece = ", ".join(str(m) for m in moves if m.origin == origin)
        every = ", ".join(map(str, moves))
        piece = self.piece_at(origin)
        name = self.variant.square_name(origin)
        side = COLOR_NAMES[self.turn]
        if not moves:
            why = f"{side} is to move and has no legal move"
        elif piece is None:
            why = f"there is no piece on {name}; legal moves: {every}"
        elif piece[0] != self.turn:
            why = (f"the piece on {name} is {COLOR_NAMES[piece[0]]}, and {side} is to move; "
                   f"legal moves: {every}")
        elif same_piece:
            why = f"legal moves of the piece on {name}: {same_piece}"
            if moves[0].is_capture:
                why = "a capture is compulsory; " + why
        elif moves[0].is_capture:
            why = f"a capture is compulsory and the piece on {name} cannot capture: {every}"
        else:
            why = f"the piece on {name} has no legal move; legal moves: {every}"
        return f"illegal move {quoted}: {why}"

    # --- perft ----------------------------------------------------------------------------

    def perft(self, depth: int, paths: bool = False, *, jobs: Optional[int] = None,
              hash_mb: float = 0, executor: Optional[Executor] = None,
              checkpoint: Union[str, os.PathLike[str], None] = None,
              progress: Optional[Progress] = None,
              table: Optional[_perft.PerftTable] = None) -> int:
        """Leaf nodes of the move tree `depth` plies deep: unique moves by default, every
        capture route with `paths=True` (RULES.md "Move identity and perft").

        `jobs` threads (default: all cores, for trees deep enough to be worth splitting),
        a transposition table of `hash_mb` MiB, any concurrent.futures `executor`, and a
        resumable `checkpoint` file: see shashki.perft.run.  `table`: a
        shashki.perft.PerftTable to count with (one thread), kept between runs of the same
        game and convention.
        """
        # the perft runner loads threads, hashing and JSON: imported when a count is asked for
        from .perft import PerftError, check_depth, check_options, checkpoint_path
        depth = check_depth(depth)
        check_options(jobs, hash_mb)
        if checkpoint is not None:
            checkpoint_path(checkpoint)     # a path that cannot be one, refused at once
        if table is not None:
            if hash_mb or executor is not None or checkpoint is not None or \
                    progress is not None or jobs not in (None, 1):
                raise PerftError("a perft table is for a single-threaded run: give it without "
                                 "hash_mb, jobs, executor, checkpoint or progress")
            table.claim(f"{self.variant.rules.name} {'paths' if paths else 'unique'}")
            return _perft.perft(*self.masks, self.variant.rules, depth, paths, table,
                                self._runs())
        # the split runner hands positions on as masks, which do not carry frisian's kings'
        # runs: a game that counts them is counted in one thread
        if (executor is None and checkpoint is None and progress is None and (
                jobs == 1 or depth < PARALLEL_MIN_DEPTH)) or self.variant.king_move_limit:
            table = _perft.PerftTable(hash_mb, shared=False) if hash_mb else None
            return _perft.perft(*self.masks, self.variant.rules, depth, paths, table,
                                self._runs())
        from . import perft as _runner  # (see above)
        return _runner.perft(self, depth, paths, jobs=jobs, hash_mb=hash_mb,
                             executor=executor, checkpoint=checkpoint, progress=progress)

    def divide(self, depth: int, paths: bool = False) -> Dict[Move, int]:
        """Perft split by first move: {move: leaves}."""
        from .perft import check_depth  # (see perft)
        depth = check_depth(depth)
        if depth == 0:
            return {}
        out: Dict[Move, int] = {}
        for move in self.legal_moves:
            child = self.copy(stack=False)
            child.push(move)
            count = _perft.perft(*child.masks, self.variant.rules, depth - 1, paths, None,
                                 child._runs())
            out[move] = count * move.routes if paths else count
        return out

    # --- learning systems: actions and observations (shashki._core.actions) ------------------

    def move_to_action(self, move: Move, *, perspective: bool = False) -> int:
        """The action number of a legal move (docs/actions.md): ``origin * S + destination``
        for S squares, or one of the game's alternate actions for a capture that joins the
        same two squares as another one with other pieces.  With `perspective` the squares are
        numbered from the side to move's side (for Black, square s is S - 1 - s).  Raises
        IllegalMoveError for a move that is not legal here.

        >>> board = Board("russian")
        >>> board.move_to_action(board.parse_move("c3-d4"))
        301
        >>> board.action_to_move(301)
        Move('c3-d4')
        """
        return int(_actions.move_to_action(self, move, perspective))

    def action_to_move(self, action: int, *, perspective: bool = False) -> Move:
        """The legal move of action number `action` (the inverse of move_to_action).  Raises
        InvalidActionError for a number outside 0..variant.action_space_size - 1 and
        IllegalActionError for one that no legal move has."""
        move: Move = _actions.action_to_move(self, action, perspective)
        return move

    def legal_actions(self, *, perspective: bool = False) -> List[int]:
        """The action numbers of the legal moves, ascending, as OpenSpiel's
        `legal_actions()` (not in the order of `legal_moves`: `move_to_action` maps a move,
        `action_to_move` an action)."""
        actions: List[int] = _actions.legal_actions(self, perspective)
        return actions

    def legal_action_mask(self, *, perspective: bool = False) -> Buffer:
        """A Buffer (uint8, one item per action of the game) with 1 at the action of every
        legal move: ``numpy.asarray(board.legal_action_mask())`` takes it without a copy."""
        mask: Buffer = _actions.legal_action_mask(self, perspective)
        return mask

    def planes(self, *, perspective: bool = False) -> Buffer:
        """The position as a float32 Buffer of shape ``variant.planes_shape``:
        (10, rows, 2 * width), (10, 8, 8) on 8x8; ``numpy.asarray(board.planes())`` takes it
        without a copy.

        Row r, column f of a plane is the square of row r from White's side (from the side to
        move's side with `perspective`: the board turned half a turn for Black), file f; the
        light squares are always 0.  Planes 0-3: the men and kings of White (of the side to
        move with `perspective`), then of the other side.  The others are constant: 4, 1 when
        White is to move; 5, the position's earlier occurrences (0, 1/2 seen once before, 1 the
        third time); 6, the kings-only or no-progress counter as a fraction of the game's limit;
        7-9, where the game's endgame draw rules are in force, the balance counter (7.2.4,
        7.2.6) and the counts of three pieces and of two or fewer against a lone king (7.2.7
        and 6.3, 7.2.8 and 6.4) over their limits (docs/actions.md).

        >>> Board("english").planes().shape
        (10, 8, 8)
        """
        planes: Buffer = _actions.planes(self, perspective)
        return planes

    # --- display --------------------------------------------------------------------------

    def __str__(self) -> str:
        return diagram(self)

    def __repr__(self) -> str:
        return f"Board({self.variant.name!r}, fen={self.fen()!r})"

    def _repr_svg_(self) -> str:
        """The board as an SVG picture (shashki.svg.board), for Jupyter; the last move played
        is highlighted, as python-chess does."""
        from . import svg  # imported on first display, so `import shashki` stays cheap
        return svg.board(self, last_move=self.move_stack[-1] if self.move_stack else None)


def _fmjd_setting(variant: Variant, value: Optional[bool]) -> bool:
    """Whether the FMJD-64 endgame draw rules (7.2.4-7.2.8) apply: by default where the game's
    record says so (russian); they may be turned on for brazilian, the other flying-king game
    played to win, and off anywhere."""
    if value is None:
        return variant.fmjd_endgame_rules
    if not isinstance(value, bool):
        raise InvalidVariantError(
            f"fmjd_draw_rules must be True, False or None (the game's default), not {value!r}")
    if value and not (variant.flying_kings and not variant.reversed_goal):
        raise InvalidVariantError(
            f"the FMJD-64 draw rules are for russian and brazilian, not {variant.name}")
    return value


def _unpickle(cls: Type[Board], variant: str, fmjd: bool, root: Masks, moves: Any,
              counters: Tuple[int, int, int, int], runs: int = 0) -> Board:
    board = cls.__new__(cls)
    board._reset(get_variant(variant), *root, fmjd, runs)
    if not moves:
        board._set_draws(*counters)
    for origin, destination, captured in moves:
        board.push(Move(origin, destination, captured))
    return board
