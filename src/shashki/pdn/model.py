"""The game tree: a node per move, and a visitor that walks it.

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

from typing import Generic, Iterable, Iterator, List, Optional, Set, Tuple, TypeVar

from ..move import Move

__all__ = ["GameNode", "Visitor", "RESULTS", "walk"]

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

    __slots__ = ("parent", "move", "comment", "nags", "variations", "_next")

    parent: Optional[GameNode]
    move: Optional[Move]
    comment: str
    nags: Set[int]
    variations: List[GameNode]
    _next: Optional[GameNode]

    def __init__(self, parent: Optional[GameNode] = None, move: Optional[Move] = None,
                 comment: str = "", nags: Iterable[int] = ()) -> None:
        self.parent = parent
        self.move = move
        self.comment = comment
        self.nags = set(nags)
        self.variations = []
        self._next = None

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


class Visitor(Generic[_T]):
    """Receives a game's parts in file order from Game.accept (python-chess's visitor): the
    headers, the opening comment, then each move followed by its NAGs, its comment and the
    variations that replace it (each between begin_variation and end_variation, nested to
    any depth), then the result.  `result()` is what accept returns.  Every method but
    `result` does nothing by default."""

    def begin_game(self) -> None:
        pass

    def visit_header(self, name: str, value: str) -> None:
        pass

    def end_headers(self) -> None:
        pass

    def visit_comment(self, comment: str) -> None:
        """The game's opening comment, or the comment after the move last visited."""

    def visit_move(self, node: GameNode, ply: int) -> None:
        """`node.move`, played at `ply` (0 is the first mover's first move of the game)."""

    def visit_nag(self, nag: int) -> None:
        pass

    def begin_variation(self) -> None:
        pass

    def end_variation(self) -> None:
        pass

    def visit_result(self, result: str) -> None:
        pass

    def end_game(self) -> None:
        pass

    def result(self) -> _T:
        raise NotImplementedError(f"{type(self).__name__} must say what it returns (result)")


def walk(first: Optional[GameNode], ply: int, visitor: Visitor[_T]) -> None:
    """Visit the line that starts at `first` (played at `ply`) with everything hanging from
    it, in file order: a move, its NAGs and comment, the variations replacing it, then the
    next move.  A loop over an explicit stack, so any depth of nesting walks."""
    # what is left to do, last first: (kind, node, ply) with kind "line" (visit a line from
    # node), "begin" (open a variation, then visit its line) or "end" (close a variation)
    todo: List[Tuple[str, Optional[GameNode], int]] = [("line", first, ply)]
    while todo:
        kind, node, ply = todo.pop()
        if kind == "end":
            visitor.end_variation()
            continue
        if kind == "begin":
            visitor.begin_variation()
        if node is None:
            continue
        assert node.move is not None  # only the root has no move, and no walk starts there
        visitor.visit_move(node, ply)
        for nag in sorted(node.nags):
            visitor.visit_nag(nag)
        if node.comment:
            visitor.visit_comment(node.comment)
        todo.append(("line", node.next, ply + 1))
        for line in reversed(node.variations):
            todo.append(("end", None, ply))
            todo.append(("begin", line, ply))
