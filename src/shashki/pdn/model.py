"""The game tree: a node per move; and the Visitor, which the reader calls as it reads a game
and the tree's walk calls as it walks one.

Learned from python-chess's ``chess.pgn.GameNode`` and ``Visitor``, with one difference that
PDN's variations ask for: a variation hangs from the move it *replaces* (``node.variations``),
not from the position it is played from.  ``1. c3-d4 (1. e3-f4 (1. g3-h4))`` (a line inside a
line) and ``1. c3-d4 (1. e3-f4) (1. g3-h4)`` (two lines side by side) are different records,
and ``Game.variations`` / ``Variation.variations`` have always told them apart.

A node is one move of one line: `move`, the `comment` and `nags` after it, `next` (the
following move of the same line, None at its end) and `variations` (the first nodes of the
lines that replace this move; each is played from the position before it, so its `parent` is
this node's `parent`).  The root node stands for the starting position: it has no move, its
comment is the game's opening comment.

Every walk here is a loop, not a recursion: a record nested thousands of levels deep is read,
walked and written like any other.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Generic, Iterable, Iterator, List, Optional, Set, Tuple, TypeVar

from ..errors import InvalidPdnError
from ..move import Move

if TYPE_CHECKING:
    from ..board import Board

__all__ = ["GameNode", "Visitor", "SKIP", "SkipType", "RESULTS", "walk"]

#: the result strings PDN files use: international scoring (1-0, 1/2-1/2), the 2-point scoring
#: of russian and brazilian sites (2-0, 1-1), a double loss (0-0), and "*" for unknown.  The
#: first score is White's in every game, english too (where Black moves first).
RESULTS = ("1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*")
#: other spellings of those results, read as the standard one
RESULT_ALIASES = {"\u00bd-\u00bd": "1/2-1/2"}

_T = TypeVar("_T")


class GameNode:
    """One move of a line of the game tree (the root: the starting position, no move).

    `parent` is the node of the position the move is played from; `next` the following move
    of the same line; `variations` the first nodes of the lines replacing this move.  Nodes
    do not check legality: Game.add_move and Game.add_variation do, and the reader replays
    every move it reads.
    """

    __slots__ = ("parent", "move", "comment", "nags", "variations", "_next", "_start")

    parent: Optional[GameNode]
    move: Optional[Move]
    comment: str
    nags: Set[int]
    variations: List[GameNode]
    _next: Optional[GameNode]
    _start: Optional[Board]     # the root of a Game's tree: the game's starting Board

    def __init__(self, parent: Optional[GameNode] = None, move: Optional[Move] = None,
                 comment: str = "", nags: Iterable[int] = ()) -> None:
        self.parent = parent
        self.move = move
        self.comment = comment
        self.nags = set(nags)
        self.variations = []
        self._next = None
        self._start = None

    @property
    def next(self) -> Optional[GameNode]:
        """The following move of this node's line, or None at its end (set by add_next: a
        line only grows at its end, so the mainline a Game keeps track of never changes
        under it)."""
        return self._next

    def add_next(self, move: Move, comment: str = "", nags: Iterable[int] = ()) -> GameNode:
        """Continue this node's line with `move`; returns the new node.  ValueError when the
        line already goes on (add an alternative with add_variation on the following node)."""
        if self._next is not None:
            raise ValueError(f"the line already goes on with {self._next.move}; "
                             f"add an alternative to that move with its add_variation")
        node = GameNode(self, move, comment, nags)
        self._next = node
        return node

    def add_variation(self, move: Move) -> GameNode:
        """Start a line that replaces this node's move, played from the position before it;
        returns the line's first node."""
        if self.move is None:
            raise ValueError("the starting position has no move for a variation to replace")
        node = GameNode(self.parent, move)
        self.variations.append(node)
        return node

    def line(self) -> Iterator[GameNode]:
        """This node and the nodes that follow it in its line."""
        node: Optional[GameNode] = self
        while node is not None:
            yield node
            node = node._next

    def root(self) -> GameNode:
        node = self
        while node.parent is not None:
            node = node.parent
        return node

    def board(self) -> Board:
        """A new Board after this node's move: the game's starting position with the moves
        that lead here played, its move stack holding them (python-chess's
        ``node.board()``; the root's is the starting position).  ValueError for a node of
        no Game's tree (one made by hand, not attached to a game's root)."""
        start = self.root()._start
        if start is None:
            raise ValueError("this node is in no game's tree, so it has no starting position: "
                             "take the board of a node of a Game (game.root, game.end(), ...)")
        board = start.copy()
        for move in self.path():
            board.push(move)
        return board

    def ply(self) -> int:
        """The number of moves from the starting position to (and with) this one."""
        count, node = 0, self
        while node.parent is not None:
            count, node = count + 1, node.parent
        return count

    def path(self) -> List[Move]:
        """The moves from the starting position that lead to (and end with) this node's."""
        moves: List[Move] = []
        node = self
        while node.parent is not None and node.move is not None:
            moves.append(node.move)
            node = node.parent
        moves.reverse()
        return moves

    def __repr__(self) -> str:
        if self.move is None:
            return "<GameNode start>"
        return f"<GameNode {self.move} ply {self.ply()}, {len(self.variations)} variations>"


class SkipType(enum.Enum):
    """The type of SKIP (python-chess's ``chess.pgn.SkipType``)."""

    SKIP = "skip"


#: what a Visitor's begin_game, end_headers or begin_variation returns to skip what follows
SKIP = SkipType.SKIP


class Visitor(Generic[_T]):
    """Receives a game's parts in file order (python-chess's ``chess.pgn.BaseVisitor``), from
    the reader as it reads (``read_game(handle, Visitor=...)``) or from a Game's tree
    (``game.accept(visitor)``), which call the same methods in the same order:

    - ``begin_game()``: returning SKIP skips the whole game (its headers too);
    - ``begin_headers()``, ``visit_header(name, value)`` for each tag, ``end_headers()``:
      returning SKIP skips the moves (nothing is replayed: a scan of the headers);
    - ``visit_board(board)``: the starting position, then the position after each move;
    - ``visit_comment``: the game's opening comment, or the comment after the move last
      visited;
    - ``visit_move(board, move)`` (`board` is the position before `move`), then the move's
      NAGs, its comment, and the variations that replace it, each between
      ``begin_variation()`` (returning SKIP skips that variation) and ``end_variation()``,
      nested to any depth;
    - ``visit_result(result)`` (from the reader: the result written at the end of the
      movetext, when there is one), ``end_game()``, and ``result()``: what read_game or
      accept returns.

    The boards passed are the reader's (or the walk's) own: read them, copy them, but leave
    them as they are.  ``handle_error(error)`` receives each InvalidPdnError the reader meets,
    as it meets it; one met inside a variation (between its begin_variation and
    end_variation) is an error of that variation, and the reader sends nothing more of it
    but its end_variation.  Where python-chess's handle_error raises, here it does nothing by
    default: the reader reads the game to its end, then raises the first error when it reads
    with ``strict=True``.

    Every method but `result` does nothing by default.
    """

    def begin_game(self) -> Optional[SkipType]:
        """A game begins; SKIP skips all of it."""
        return None

    def begin_headers(self) -> None:
        pass

    def visit_header(self, name: str, value: str) -> None:
        pass

    def end_headers(self) -> Optional[SkipType]:
        """The headers are over; SKIP skips the moves."""
        return None

    def visit_board(self, board: Board) -> None:
        """The starting position, then the position after each move (mainline or
        variation)."""

    def visit_comment(self, comment: str) -> None:
        """The game's opening comment, or the comment after the move last visited."""

    def visit_move(self, board: Board, move: Move) -> None:
        """`move`, played from `board` (the position before it: ``board.turn`` moves)."""

    def visit_nag(self, nag: int) -> None:
        pass

    def begin_variation(self) -> Optional[SkipType]:
        """A variation replacing the move last visited begins (played from the position
        before that move); SKIP skips it."""
        return None

    def end_variation(self) -> None:
        pass

    def visit_result(self, result: str) -> None:
        pass

    def end_game(self) -> None:
        pass

    def handle_error(self, error: InvalidPdnError) -> None:
        """A problem of the game, as the reader meets it (see the class docstring)."""

    def result(self) -> _T:
        raise NotImplementedError(f"{type(self).__name__} must say what it returns (result)")


def walk(first: Optional[GameNode], board: Board, visitor: Visitor[_T]) -> None:
    """Visit the line that starts at `first`, played from `board`, with everything hanging
    from it, in file order: a move, its NAGs and comment, the variations replacing it, then
    the next move.  The moves are played on `board` as they are visited, and taken back: it
    ends as it began.  A loop over an explicit stack, so any depth of nesting walks."""
    base = len(board.move_stack)
    # what is left to do, last first: (kind, node, plies) with kind "line" (visit a line from
    # node, on the board `plies` moves after `base`), "begin" (open a variation, then visit its
    # line), "end" (close a variation) or "after" (play node's move, once the variations
    # replacing it have been walked, and visit the rest of its line).
    todo: List[Tuple[str, Optional[GameNode], int]] = [("line", first, 0)]
    while todo:
        kind, node, plies = todo.pop()
        if kind == "end":
            visitor.end_variation()
            continue
        while len(board.move_stack) > base + plies:
            board.pop()
        if kind == "after":
            assert node is not None and node.move is not None
            board.push(node.move)
            todo.append(("line", node.next, plies + 1))
            continue
        if kind == "begin" and visitor.begin_variation() is SKIP:
            # skipped: no end_variation either (its entry is the next one), as from the reader
            todo.pop()
            continue
        if node is None:
            continue
        assert node.move is not None  # only the root has no move, and no walk starts there
        visitor.visit_move(board, node.move)
        board.push(node.move)
        visitor.visit_board(board)
        board.pop()
        for nag in sorted(node.nags):
            visitor.visit_nag(nag)
        if node.comment:
            visitor.visit_comment(node.comment)
        todo.append(("after", node, plies))
        for line in reversed(node.variations):
            todo.append(("end", None, plies))
            todo.append(("begin", line, plies))
    while len(board.move_stack) > base:
        board.pop()
