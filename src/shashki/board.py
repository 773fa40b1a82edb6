"""Board: a position with the moves that led to it, as a game is played.

A Board is a game in play: its position now (`board.position`, a Position value; a Board is
not itself a Position), the history that led there and its rules (`board.game`, a
shashki.Game); `Board.from_position` starts a game from a Position.  The state and everything done every ply (legal
moves, push, pop, copy, outcome, FEN) are in C (shashki._core.board.BoardCore); this class adds
what is not: openings, perft, the learning planes, the diagram.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple, Type, Union

from .diagram import UNICODE_PIECES, diagram
from ._core import actions as _actions
from ._core.arrays import Buffer
from ._core.board import BoardCore, LegalMoves
from ._core.game import fmjd_setting
from ._core.move import Move
from ._core.position import Position
from .colors import BLACK, WHITE, Color
from .errors import InvalidPieceError
from .fen import parse_fen
from .piece import Piece
from .status import CROWNED, HELD, Status, position_status
from .variants import DEFAULT, Variant, get_variant

if TYPE_CHECKING:
    # (annotations only: `import shashki` stays cheap)
    import os
    from concurrent.futures import Executor

    from .opening import Opening
    from .perft import PerftTable, Progress

__all__ = ["Board", "LegalMoves", "Move"]


class Board(BoardCore):
    """A draughts position of one game (`variant`) with its move history.

    >>> board = Board("russian")
    >>> len(board.legal_moves)
    7
    >>> board.push("c3-d4")
    <Move c3-d4>
    >>> board.fen()
    'B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,d4:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8'

    A Board is not shared between threads for writing (as python-chess's): push, pop and
    set_fen on one board from several threads at once may corrupt it.  Reading it (legal
    moves, fen, perft, copies) from many threads is safe.
    """

    __slots__ = ()

    def __init__(self, variant: Union[str, Variant] = DEFAULT.name, fen: Optional[str] = None, *,
                 fmjd_draw_rules: Optional[bool] = None) -> None:
        chosen = get_variant(variant)
        position = Position(chosen, fen)
        self._reset(position, fmjd_setting(chosen, fmjd_draw_rules), _root_ply(position, fen))

    @classmethod
    def from_position(cls, position: Position, *,
                      fmjd_draw_rules: Optional[bool] = None) -> Board:
        """A board at `position` with no moves played (the draw counters count from there).

        >>> import shashki
        >>> board = Board.from_position(shashki.Position("english").apply("11-15"))
        >>> board.position == shashki.Position("english", board.fen())
        True
        """
        if not isinstance(position, Position):
            raise TypeError(f"from_position takes a shashki.Position, not "
                            f"{type(position).__name__}")
        board = cls.__new__(cls)
        board._reset(position, fmjd_setting(position.variant, fmjd_draw_rules))
        return board

    def set_fen(self, fen: str) -> None:
        """Set the position from a FEN; the move history is cleared.  On error (InvalidFenError)
        the board is unchanged.  The draw counters count from the set-up position (the game's
        history is unknown)."""
        position = Position(self.variant, fen)
        self._reset(position, self.fmjd_draw_rules, _root_ply(position, fen))

    def __reduce__(self) -> Tuple[Any, ...]:
        # pickled as its first position and the moves played from it
        moves = [(m.origin, m.destination, m.captured) for m in self.move_stack]
        return (_unpickle, (type(self), self.root, self.fmjd_draw_rules, moves,
                            tuple(self.draw_counters), self.root_ply))

    def __deepcopy__(self, memo: Dict[int, Any]) -> Board:
        # copy() is already deep: the history is copied in C and the Moves are immutable
        # values (deepcopy would otherwise pickle the board and replay its moves)
        return self.copy()

    @classmethod
    def from_opening(cls, variant: Union[str, Variant], opening: Union[str, Opening],
                     table: Optional[str] = None) -> Board:
        """A board at the start position of an opening of the tables (shashki.openings):
        `opening` is an Opening, its full name (`"I-1: ab4"`) or its code (`"I-1"`, `"001"`);
        `table` narrows the search when a code is in several tables.  When the opening's
        name lists moves (Opening.moves), the board starts from Opening.start_fen and those
        moves are played: they are on its move stack; otherwise it is set up at Opening.fen."""
        from .opening import find_opening  # the opening tables: loaded on first use
        found = find_opening(variant, opening, table)
        if found.moves is not None and found.start_fen is not None:
            board = cls(variant, fen=found.start_fen)
            for text in found.moves:
                board.push(text)
            if board.fen() == found.fen:
                return board
        return cls(variant, fen=found.fen)

    # --- the editor: setting a position up piece by piece ---------------------------------------
    #
    # Every edit that changes the position clears the move stack and counts the draw rules'
    # counters from the new position (python-chess keeps its move stack when a piece is set:
    # here the game's record no longer leads to the board, and its repetitions and counters
    # would be of another position); the kings' runs of frisian go with it.  An edit that
    # changes nothing (the piece already there, a square already empty) leaves the board as
    # it is.  A board holds only what a FEN can give, so the editor refuses (InvalidPieceError)
    # a man on its own crowning row and a piece more than a side's men at the start; status()
    # tells what else keeps a set-up position from being one to play from.

    @classmethod
    def empty(cls, variant: Union[str, Variant] = DEFAULT.name, *,
              fmjd_draw_rules: Optional[bool] = None) -> Board:
        """A board of `variant` with no pieces, the side that moves first in the game to move
        (python-chess's Board.empty), to set a position up on with set_piece_at.

        >>> board = Board.empty("english")
        >>> board.fen(), board.turn
        ('B:W:B', shashki.BLACK)
        """
        chosen = get_variant(variant)
        return cls.from_position(Position.from_masks(chosen, 0, 0, 0, chosen.first_to_move),
                                 fmjd_draw_rules=fmjd_draw_rules)

    def clear(self) -> None:
        """Take every piece off: the board of Board.empty, with the side that moves first in
        the game to move (python-chess's clear sets White to move, chess's first side: here
        Black in english and the other games where Black starts) and no moves played."""
        self._edit(0, 0, 0, self.variant.first_to_move)

    def set_piece_at(self, square: Union[int, str], piece: Optional[Tuple[int, bool]]) -> None:
        """Put `piece` (a Piece, or a (color, is_king) pair; None: take off what is there) on
        `square` (an int square or its name, as piece_at takes it), replacing any piece there.

        Raises InvalidSquareError for a square that is not one of the game's, and
        InvalidPieceError for a piece that is not one, a man on its own crowning row (a man
        there is crowned: put a king) or a piece more than a side may have (the men of a full
        start on the game's board: 12 on 8x8, 16 in turkish, 20 on 10x10, in every game of
        the board); the board is then unchanged.  An edit clears the move stack (see above).

        >>> import shashki
        >>> board = Board("russian")
        >>> board.remove_piece_at("c3")
        Piece(WHITE, king=False)
        >>> board.set_piece_at("d4", shashki.Piece(shashki.WHITE, king=True))
        >>> board.fen()
        'W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,Kd4:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8'
        """
        s = self._square(square)
        bit = 1 << s
        white, black, kings, turn = self.masks
        white &= ~bit
        black &= ~bit
        kings &= ~bit
        color, king = WHITE, False
        if piece is not None:
            color, king = _piece(piece)
            if color == WHITE:
                white |= bit
            else:
                black |= bit
            if king:
                kings |= bit
        if (white, black, kings) == self.masks[:3]:
            return      # (nothing changes: the game's record still leads here)
        status = position_status(self.variant, white, black, kings)
        if status & ~HELD:
            raise InvalidPieceError(_refusal(self.variant, s, color, king, status))
        self._edit(white, black, kings, turn)

    def remove_piece_at(self, square: Union[int, str]) -> Optional[Piece]:
        """Take the piece on `square` off the board and return it (None for an empty square,
        which leaves the board as it is).  InvalidSquareError as set_piece_at; the move stack
        is cleared (see above)."""
        piece = self.piece_at(square)
        if piece is not None:
            self.set_piece_at(square, None)
        return piece

    # --- perft ----------------------------------------------------------------------------

    def perft(self, depth: int, paths: bool = False, *, jobs: Optional[int] = None,
              hash_mb: float = 0, executor: Optional[Executor] = None,
              checkpoint: Union[str, os.PathLike[str], None] = None,
              progress: Optional[Progress] = None,
              table: Optional[PerftTable] = None) -> int:
        """Leaf nodes of the move tree `depth` plies deep from the board's position (see
        Position.perft: the options, and shashki.perft for the runner)."""
        count: int = self.position.perft(depth, paths, jobs=jobs, hash_mb=hash_mb,
                                         executor=executor, checkpoint=checkpoint,
                                         progress=progress, table=table)
        return count

    def divide(self, depth: int, paths: bool = False) -> Dict[Move, int]:
        """Perft split by first move: {move: leaves}."""
        divided: Dict[Move, int] = self.position.divide(depth, paths)
        return divided

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
        <Move c3-d4>
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

    def mirror(self) -> Board:
        """A new board at the position with the colours swapped (Position.mirror: the board
        turned half round, White's pieces Black's), without the moves that led here, as
        python-chess's mirror."""
        return type(self).from_position(self.position.mirror(),
                                        fmjd_draw_rules=self.fmjd_draw_rules)

    def unicode(self, *, flipped: bool = False) -> str:
        """The board as a diagram with draughts symbols: ⛀ a white man, ⛁ a white king, ⛂ a
        black man, ⛃ a black king, · an empty square (see shashki.diagram)."""
        return diagram(self, flipped=flipped, symbols=UNICODE_PIECES)

    def __str__(self) -> str:
        return diagram(self)

    def __repr__(self) -> str:
        return f"Board({self.variant.name!r}, fen={self.fen()!r})"

    def _repr_svg_(self) -> str:
        """The board as an SVG picture (shashki.svg.board), for Jupyter; the last move played
        is highlighted, as python-chess does."""
        from . import svg  # imported on first display, so `import shashki` stays cheap
        return svg.board(self, last_move=self.move_stack[-1] if self.move_stack else None)


def _piece(piece: object) -> Tuple[Color, bool]:
    """(color, king) of a piece for set_piece_at: a Piece, or a (color, is_king) pair with
    color shashki.WHITE or BLACK (1 or 0, True or False as python-chess's) and is_king True or
    False; InvalidPieceError else."""
    if isinstance(piece, tuple) and len(piece) == 2:
        color, king = piece
        if isinstance(color, int) and color in (WHITE, BLACK) and isinstance(king, bool):
            return Color(color), king
    raise InvalidPieceError(f"a piece is a shashki.Piece (a colour and whether it is a king), "
                            f"e.g. Piece(WHITE, king=True), or None for none; not "
                            f"{repr(piece)[:40]}")


def _refusal(variant: Variant, square: int, color: Color, king: bool, status: Status) -> str:
    """Why set_piece_at refuses a piece on `square`: the reasons of `status` the core cannot
    hold, which only that piece can have brought (the board held none before)."""
    name = variant.square_name(square)
    piece = Piece(color, king)
    if status & CROWNED[color]:
        return (f"a {piece} on {name} stands on its own crowning row, where a man is crowned; "
                f"put a {color} king there")
    most = variant.geometry.max_pieces
    return (f"a {piece} on {name} would give {color} {most + 1} pieces; a side has at most "
            f"{most} in {variant.name} (the men of a full start on its board)")


def _root_ply(position: Position, fen: Optional[str]) -> int:
    """The plies before `position` by its FEN's move number (lidraughts' ``:F<n>``), or -1
    when the FEN gives none."""
    if fen is None:
        return -1
    number: int = parse_fen(fen, position.variant)[4].get("F") or 0
    if not number:
        return -1
    return 2 * (number - 1) + int(position.turn != position.variant.first_to_move)


def _unpickle(cls: Type[Board], root: Position, fmjd: bool, moves: Any,
              counters: Tuple[int, int, int, int], root_ply: int = -1) -> Board:
    board = cls.__new__(cls)
    board._reset(root, fmjd_setting(root.variant, fmjd), root_ply)
    if not moves:
        board._set_draws(*counters)
    for origin, destination, captured in moves:
        board.push(Move(origin, destination, captured))
    return board
