"""The visitors read_game is given (python-chess's ``chess.pgn`` visitors): `GameBuilder`
builds a Game (the default), `HeadersBuilder` keeps the headers and skips the moves unread,
`SkipVisitor` skips a whole game.  Each is made afresh for each game (``Visitor=GameBuilder``
is a class, or any function returning a visitor).
"""

from __future__ import annotations

from typing import Dict, List, Optional

from ..board import Board
from ..errors import InvalidPdnError
from ..move import Move
from ..variants import Variant
from .dialects import DEFAULT_VARIANT, game_variant
from .game import Game
from .model import SKIP, GameNode, SkipType, Visitor

__all__ = ["GameBuilder", "HeadersBuilder", "SkipVisitor"]


class _Open:
    """A line being built: the mainline, or a variation that joins the tree at its end."""

    __slots__ = ("anchor", "node", "first", "dead")

    def __init__(self, anchor: Optional[GameNode], node: Optional[GameNode],
                 dead: bool = False) -> None:
        self.anchor = anchor    # the node whose move a variation replaces (None: the mainline)
        self.node = node        # the line's last node (None: a variation without moves yet)
        self.first: Optional[GameNode] = None   # a variation's first node
        self.dead = dead        # an error was met in it: it is dropped at its end


class GameBuilder(Visitor[Game]):
    """Builds the Game (shashki.pdn.Game) of what it visits: the default visitor of
    read_game.

    Comments and NAGs are kept on the mainline (a comment before the first move is the
    game's `comment`); inside a variation they are not.  A variation joins the game when it
    ends, unless an error was met inside it (``handle_error``): then it is dropped, with the
    variations inside it, and the rest of the game stands.  Errors are kept in
    ``game.errors``.  The result written at the end of the movetext fills the ``Result`` tag
    when the headers have none.
    """

    def __init__(self) -> None:
        self._clear()

    def _clear(self) -> None:
        self.headers: Dict[str, str] = {}
        self.errors: List[InvalidPdnError] = []
        self.root = GameNode()
        self.lines: List[_Open] = [_Open(None, self.root)]
        self.start: Optional[Board] = None
        self.board: Optional[Board] = None
        self.game: Optional[Game] = None

    def begin_game(self) -> None:
        self._clear()

    def visit_header(self, name: str, value: str) -> None:
        self.headers[name] = value

    def visit_board(self, board: Board) -> None:
        if self.start is None:
            # the starting position; the board itself is followed to the mainline's end
            self.start = board.copy()
            self.board = board

    def visit_move(self, board: Board, move: Move) -> None:
        line = self.lines[-1]
        if line.dead:
            return
        if line.node is None:
            assert line.anchor is not None and line.anchor.parent is not None
            line.node = line.first = GameNode(line.anchor.parent, move)
        else:
            line.node = line.node.add_next(move)

    def visit_comment(self, comment: str) -> None:
        if len(self.lines) > 1:
            return      # comments inside variations are not kept
        node = self.lines[0].node
        assert node is not None
        node.comment = f"{node.comment} {comment}" if node.comment else comment

    def visit_nag(self, nag: int) -> None:
        node = self.lines[-1].node
        if len(self.lines) == 1 and node is not None and node.move is not None:
            node.nags.add(nag)

    def begin_variation(self) -> None:
        parent = self.lines[-1]
        anchor = parent.node if parent.node is not None and parent.node.move is not None \
            else None
        self.lines.append(_Open(anchor, None, dead=parent.dead or anchor is None))

    def end_variation(self) -> None:
        line = self.lines.pop()
        if not line.dead and line.first is not None and line.anchor is not None:
            line.anchor.variations.append(line.first)

    def visit_result(self, result: str) -> None:
        self.headers.setdefault("Result", result)

    def handle_error(self, error: InvalidPdnError) -> None:
        self.errors.append(error)
        if len(self.lines) > 1:
            self.lines[-1].dead = True

    def end_game(self) -> None:
        start = self.start if self.start is not None else Board(self._variant())
        end = self.board
        mainline = sum(1 for _ in self.root.line()) - 1
        if end is not None and len(end.move_stack) != len(start.move_stack) + mainline:
            end = None      # not followed to the mainline's end: the game replays it
        self.game = Game.from_tree(start, self.root, self.headers,
                                   end=None if end is None else end.copy())
        self.game.errors = self.errors

    def _variant(self) -> Variant:
        # a game visited without its starting position: the game its tags name
        try:
            return game_variant(self.headers, None)
        except InvalidPdnError:
            return DEFAULT_VARIANT

    def result(self) -> Game:
        if self.game is None:
            self.end_game()
        assert self.game is not None
        return self.game


class HeadersBuilder(Visitor[Dict[str, str]]):
    """The headers of a game, as a dict; the moves are skipped unread (nothing is replayed:
    a fast scan of a large file, and a game whose moves are illegal is no error).  The
    headers are as read_game gives them (PlayStrategy's results turned White first, with
    White and Black tags)."""

    def __init__(self) -> None:
        self.headers: Dict[str, str] = {}

    def begin_headers(self) -> None:
        self.headers = {}

    def visit_header(self, name: str, value: str) -> None:
        self.headers[name] = value

    def end_headers(self) -> SkipType:
        return SKIP

    def result(self) -> Dict[str, str]:
        return self.headers


class SkipVisitor(Visitor[bool]):
    """Skips a whole game, reading nothing of it; its result is True (skip_game)."""

    def begin_game(self) -> SkipType:
        return SKIP

    def result(self) -> bool:
        return True
