"""The game record: a Game holds a tree of GameNodes (shashki.pdn.model) and shows it as the
lists it has always had: `moves`, `comments`, `nags` and `variations` (one entry per move of
the mainline), and Variation lines (lists of Moves with their own `variations`).

Those lists are views of the tree: ``game.comments[3] = "..."``, ``game.nags[i].add(1)`` and
``game.variations[i].append(line)`` change the nodes, and what the views show always agrees
with `moves` and with what is written.  A Variation read from a game is a copy of the line's
moves; its `variations` are views of the tree as well.
"""

from __future__ import annotations

from typing import (TYPE_CHECKING, Callable, Dict, Iterable, Iterator, List, Mapping,
                    MutableSequence, Optional, Sequence, Set, Tuple, TypeVar, Union, cast,
                    overload)

from ..board import Board
from ..errors import InvalidPdnError
from ..move import Move
from ..variants import Variant
from .dialects import DEFAULT_VARIANT
from .model import RESULT_ALIASES, RESULTS, SKIP, GameNode, Visitor, walk
from .writer import PdnWriter

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

__all__ = ["Game", "Variation", "write_game", "write_games"]

_T = TypeVar("_T")
#: python-chess's seven-tag roster, the headers of a new Game
_ROSTER = (("Event", "?"), ("Site", "?"), ("Date", "????.??.??"), ("Round", "?"),
           ("White", "?"), ("Black", "?"), ("Result", "*"))


class Variation(List[Move]):
    """A line of Moves that replaces one move of a game (or of an enclosing variation), played
    from the position before that move.  `variations[j]` lists the lines that replace move j
    of this line.  Equality compares the moves only, as for any list.

    Built by hand (``Variation(moves)``), `variations` is a list of empty lists to fill; the
    line joins a game with ``game.variations[i].append(line)`` (its nested lines with it).
    Read from a game, it is a copy of the line's moves and its `variations` are views of the
    game's tree.
    """

    variations: Sequence[MutableSequence[Variation]]

    def __init__(self, moves: Iterable[Move] = ()) -> None:
        super().__init__(moves)
        self.variations = [[] for _ in self]

    @classmethod
    def from_node(cls, first: GameNode) -> Variation:
        """The line of the tree that starts at node `first`, its variations live."""
        nodes = list(first.line())
        line = cls(node.move for node in nodes if node.move is not None)
        line.variations = _lines_view(lambda: nodes)
        return line

    def __repr__(self) -> str:
        return f"Variation({list.__repr__(self)})"


def _graft(line: Sequence[Move], parent: GameNode) -> GameNode:
    """Nodes for `line` (a Variation or a list of Moves) played from `parent`'s position,
    with the lines nested in its `variations`; returns the first node, not yet attached.
    Raises ValueError (an empty line) or TypeError (not a Move) and then attaches nothing."""
    first: Optional[GameNode] = None
    # (line, the position it is played from, the list its first node joins; None: the top)
    work: List[Tuple[Sequence[Move], GameNode, Optional[List[GameNode]]]] = [(line, parent, None)]
    while work:
        moves, start, owner = work.pop()
        if not len(moves):
            raise ValueError("a variation needs at least one move")
        nested: Sequence[Sequence[Sequence[Move]]] = getattr(moves, "variations", ())
        node: Optional[GameNode] = None
        for j, move in enumerate(moves):
            if not isinstance(move, Move):
                raise TypeError(f"a variation holds Moves, not {type(move).__name__}")
            node = GameNode(start, move) if node is None else node.add_next(move)
            if j == 0:
                if owner is None:
                    first = node
                else:
                    owner.append(node)
            # the lines replacing this move are played from the position before it
            assert node.parent is not None
            for sub in nested[j] if j < len(nested) else ():
                work.append((sub, node.parent, node.variations))
    assert first is not None
    return first


def _pick(nodes: List[GameNode], index: Union[int, slice],
          show: Callable[[GameNode], _T]) -> Union[_T, List[_T]]:
    """What a view shows of nodes[index] (a list for a slice)."""
    if isinstance(index, slice):
        return [show(node) for node in nodes[index]]
    return show(nodes[index])


class _ListView:
    """A view that compares and prints as the list it shows (a list it used to be)."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, _ListView)):
            return list(cast(Iterable[object], self)) == list(cast(Iterable[object], other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, as a list

    def __repr__(self) -> str:
        return repr(list(cast(Iterable[object], self)))


class _Sidelines(_ListView, MutableSequence[Variation]):
    """The lines replacing one node's move, as a list of Variations."""

    __slots__ = ("node",)

    def __init__(self, node: GameNode) -> None:
        self.node = node

    def __len__(self) -> int:
        return len(self.node.variations)

    @overload
    def __getitem__(self, index: int) -> Variation: ...

    @overload
    def __getitem__(self, index: slice) -> List[Variation]: ...

    def __getitem__(self, index: Union[int, slice]) -> Union[Variation, List[Variation]]:
        return _pick(self.node.variations, index, Variation.from_node)

    def _grafted(self, line: Sequence[Move]) -> GameNode:
        assert self.node.parent is not None  # a node with a move always has a parent
        return _graft(line, self.node.parent)

    @overload
    def __setitem__(self, index: int, value: Variation) -> None: ...

    @overload
    def __setitem__(self, index: slice, value: Iterable[Variation]) -> None: ...

    def __setitem__(self, index: Union[int, slice],
                    value: Union[Variation, Iterable[Variation]]) -> None:
        if isinstance(index, slice):
            lines = cast(Iterable[Variation], value)
            self.node.variations[index] = [self._grafted(line) for line in lines]
        else:
            self.node.variations[index] = self._grafted(cast(Variation, value))

    def __delitem__(self, index: Union[int, slice]) -> None:
        del self.node.variations[index]

    def insert(self, index: int, value: Variation) -> None:
        self.node.variations.insert(index, self._grafted(value))


class _PerMove(_ListView, Sequence[_T]):
    """One entry per move of a line, read from the move's node with `get` and written to it
    with `put`: a Game's comments, nags or variations, or a Variation's variations."""

    __slots__ = ("nodes", "get", "put")

    def __init__(self, nodes: Callable[[], List[GameNode]], get: Callable[[GameNode], _T],
                 put: Callable[[GameNode, _T], None]) -> None:
        self.nodes = nodes
        self.get = get
        self.put = put

    def __len__(self) -> int:
        return len(self.nodes())

    @overload
    def __getitem__(self, index: int) -> _T: ...

    @overload
    def __getitem__(self, index: slice) -> List[_T]: ...

    def __getitem__(self, index: Union[int, slice]) -> Union[_T, List[_T]]:
        return _pick(self.nodes(), index, self.get)

    def __iter__(self) -> Iterator[_T]:
        return iter([self.get(node) for node in self.nodes()])

    def __setitem__(self, index: int, value: _T) -> None:
        self.put(self.nodes()[index], value)


def _set_lines(node: GameNode, lines: Iterable[Variation]) -> None:
    _Sidelines(node)[:] = lines


def _lines_view(nodes: Callable[[], List[GameNode]]) -> _PerMove[_Sidelines]:
    """The lines replacing each move of `nodes`; ``view[j] = [line, ...]`` replaces them."""
    return _PerMove(nodes, _Sidelines, _set_lines)


def _set_comment(node: GameNode, comment: str) -> None:
    if not isinstance(comment, str):
        raise TypeError(f"a comment is a str, not {type(comment).__name__}")
    node.comment = comment


def _set_nags(node: GameNode, nags: Set[int]) -> None:
    node.nags = nags if isinstance(nags, set) else set(nags)


class Game:
    """A game record: headers, a starting position, the mainline of legal moves, comments.

    `headers` is a dict (tag name -> value, in file order).  `moves` are shashki Moves, each
    legal where it was played; `comments[i]` and `nags[i]` belong to `moves[i]`, `comment` to
    the start of the game.  `board()` is the position after the moves.  `errors` lists the
    InvalidPdnErrors met while reading with ``strict=False``.  `variations[i]` lists the
    alternative lines (Variations) to `moves[i]` (read_game keeps them unless told
    ``variations=False``).  `root` is the tree behind all of these (shashki.pdn.GameNode),
    each node with its ``board()``; `accept` walks it with a Visitor.
    """

    variant: Variant
    headers: Dict[str, str]
    errors: List[InvalidPdnError]
    root: GameNode
    _start: Board
    _nodes: List[GameNode]      # the mainline's nodes, as far as seen (see _mainline)
    _end: Optional[Board]       # the board after _nodes[:_end_plies], made on first use
    _end_plies: int

    def __init__(self, variant: Union[str, Variant] = DEFAULT_VARIANT.name, fen: Optional[str] = None,
                 headers: Optional[Mapping[str, str]] = None) -> None:
        board = Board(variant, fen)
        self._setup(board, dict(_ROSTER))
        self.headers["GameType"] = self.variant.pdn_gametype
        if not self.is_standard_start():
            self.headers["FEN"] = self.starting_fen
        if headers:
            self.headers.update(headers)

    def _setup(self, board: Board, headers: Dict[str, str]) -> None:
        self.variant = board.variant
        self._start = board
        self.headers = headers
        self.errors = []
        self.root = GameNode()
        self.root._start = board     # what node.board() replays from, for every node
        self._nodes = []
        self._end = None
        self._end_plies = 0

    @classmethod
    def from_tree(cls, start: Board, root: Optional[GameNode] = None,
                  headers: Optional[Dict[str, str]] = None, end: Optional[Board] = None) -> Game:
        """The game of the tree `root` (by default a new one, without moves) played from
        `start` (copied), with exactly these headers (no roster added): what the reader
        builds.  `end`, when given, is a Board that played the mainline from `start`; the
        game keeps it instead of replaying the moves (ValueError if it did not)."""
        game = object.__new__(cls)
        game._setup(start.copy(), {} if headers is None else headers)
        if root is not None:
            game.root = root
            root._start = game._start
        if end is not None:
            if end.move_stack != start.move_stack + game._moves():
                raise ValueError("end is not the Board after the mainline's moves")
            game._end, game._end_plies = end, len(game._mainline())
        return game

    @classmethod
    def from_board(cls, board: Board, headers: Optional[Mapping[str, str]] = None) -> Game:
        """The game that led to `board`: its starting position and its move stack."""
        start = board.copy()
        while start.move_stack:
            start.pop()
        game = cls(board.variant, start.fen(), headers)
        for move in board.move_stack:
            game.add_move(move)
        return game

    # --- the tree ---------------------------------------------------------------------------

    def _mainline(self) -> List[GameNode]:
        # the mainline only ever grows at its end (GameNode.add_next), so the nodes seen so
        # far stay right and only the new ones are followed
        nodes = self._nodes
        last = nodes[-1] if nodes else self.root
        while last.next is not None:
            last = last.next
            nodes.append(last)
        return nodes

    def _end_board(self) -> Board:
        nodes = self._mainline()
        if self._end is None:
            self._end = self._start.copy()
        for node in nodes[self._end_plies:]:
            assert node.move is not None
            self._end.push(node.move)
            self._end_plies += 1
        return self._end

    def mainline(self) -> List[GameNode]:
        """The nodes of the mainline, in order."""
        return list(self._mainline())

    def end(self) -> GameNode:
        """The last node of the mainline (the root for a game without moves); its
        ``board()`` is the final position, as ``game.board()`` is."""
        nodes = self._mainline()
        return nodes[-1] if nodes else self.root

    def accept(self, visitor: Visitor[_T]) -> _T:
        """Walk the game with a Visitor (shashki.pdn.Visitor), calling what the reader calls
        for the same text: its headers, its starting board, comment, moves (each played on
        a Board) and variations in file order, then its result; returns
        ``visitor.result()``."""
        if visitor.begin_game() is not SKIP:
            visitor.begin_headers()
            for name, value in self.headers.items():
                visitor.visit_header(name, value)
            if visitor.end_headers() is not SKIP:
                board = self._start.copy()
                visitor.visit_board(board)
                if self.root.comment:
                    visitor.visit_comment(self.root.comment)
                walk(self.root.next, board, visitor)
                visitor.visit_result(self.result)
        visitor.end_game()
        return visitor.result()

    # --- moves ------------------------------------------------------------------------------

    def add_move(self, move: Union[Move, str], comment: str = "",
                 nags: Iterable[int] = ()) -> Move:
        """Play a Move (or move text) at the end of the mainline; returns the Move.  An illegal
        move raises (IllegalMoveError ...) and leaves the game unchanged."""
        board = self._end_board()
        move = board.push(move)
        self._end_plies += 1
        self._nodes.append(self.end().add_next(move, comment, nags))
        return move

    def add_variation(self, ply: int, moves: Iterable[Union[Move, str]]) -> Variation:
        """Keep a line that replaces mainline move `ply` (0-based), replayed from the position
        before it; returns the Variation.  An illegal move raises (IllegalMoveError ...) and
        leaves the game unchanged.  Nested lines go into ``variation.variations[j]`` (not
        checked here; reading checks them)."""
        nodes = self._mainline()
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply < len(nodes):
            raise ValueError(f"ply must be an int 0..{len(nodes) - 1}, not {ply!r}")
        board = self.board(ply)
        line = [board.push(move) for move in moves]
        if not line:
            raise ValueError("a variation needs at least one move")
        sidelines = _Sidelines(nodes[ply])
        sidelines.append(Variation(line))
        return sidelines[-1]

    @property
    def moves(self) -> Tuple[Move, ...]:
        """The mainline, a tuple of Moves."""
        return tuple(self._moves())

    def _moves(self) -> List[Move]:
        return [node.move for node in self._mainline() if node.move is not None]

    def mainline_moves(self) -> List[Move]:
        return self._moves()

    def __len__(self) -> int:
        return len(self._mainline())

    def board(self, ply: Optional[int] = None) -> Board:
        """A new Board after the first `ply` moves (all of them by default), its move stack
        holding them."""
        if ply is None:
            return self._end_board().copy()
        nodes = self._mainline()
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= len(nodes):
            raise ValueError(f"ply must be an int 0..{len(nodes)}, not {ply!r}")
        board = self._start.copy()
        for node in nodes[:ply]:
            assert node.move is not None
            board.push(node.move)
        return board

    @property
    def starting_fen(self) -> str:
        return self._start.fen()

    def is_standard_start(self) -> bool:
        return self._start == Board(self.variant)

    # --- the lists of the mainline -----------------------------------------------------------

    @property
    def comment(self) -> str:
        """The comment before the first move."""
        return self.root.comment

    @comment.setter
    def comment(self, value: str) -> None:
        _set_comment(self.root, value)

    @property
    def comments(self) -> _PerMove[str]:
        """The comment after each mainline move ("" for none); ``comments[i] = text`` sets one."""
        return _PerMove(self._mainline, lambda node: node.comment, _set_comment)

    @comments.setter
    def comments(self, values: Sequence[str]) -> None:
        self._set_each(values, _set_comment)

    @property
    def nags(self) -> _PerMove[Set[int]]:
        """The NAGs of each mainline move, a set each."""
        return _PerMove(self._mainline, lambda node: node.nags, _set_nags)

    @nags.setter
    def nags(self, values: Sequence[Set[int]]) -> None:
        self._set_each(values, _set_nags)

    @property
    def variations(self) -> _PerMove[_Sidelines]:
        """The lines replacing each mainline move: ``variations[i]`` is a list of Variations."""
        return _lines_view(self._mainline)

    @variations.setter
    def variations(self, values: Sequence[Sequence[Variation]]) -> None:
        self._set_each(values, _set_lines)

    def _set_each(self, values: Sequence[_T], put: Callable[[GameNode, _T], None]) -> None:
        nodes = self._mainline()
        if len(values) != len(nodes):
            raise ValueError(f"one entry per move: {len(nodes)} expected, not {len(values)}")
        for node, value in zip(nodes, values):
            put(node, value)

    # --- result -----------------------------------------------------------------------------

    @property
    def result(self) -> str:
        """The result string as recorded (the Result tag), "*" when unknown.  "1-0" is a win
        of White in every game, english too (where Black moves first)."""
        return self.headers.get("Result", "*")

    @result.setter
    def result(self, value: str) -> None:
        value = RESULT_ALIASES.get(value, value)
        if value not in RESULTS:
            raise InvalidPdnError(f"unknown result {value!r}; expected one of {', '.join(RESULTS)}")
        self.headers["Result"] = value

    # --- writing ----------------------------------------------------------------------------

    def __str__(self) -> str:
        starting_fen = None if self.is_standard_start() else self.starting_fen
        return self.accept(PdnWriter(self.variant, starting_fen))

    def write(self, handle: SupportsWrite[str]) -> None:
        """Write the game as PDN to a text handle, followed by a blank line."""
        handle.write(str(self))
        handle.write("\n\n")

    def __repr__(self) -> str:
        names = " vs ".join(repr(self.headers.get(tag, "?")) for tag in ("White", "Black"))
        return f"<Game {self.variant.name} {names} {len(self)} plies {self.result}>"


def write_game(game: Game, handle: SupportsWrite[str]) -> None:
    """Write a Game as PDN to a text handle, followed by a blank line."""
    game.write(handle)


def write_games(games: Iterable[Game], handle: SupportsWrite[str]) -> None:
    for game in games:
        game.write(handle)
