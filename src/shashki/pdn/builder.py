"""Building a Game from what the reader reads: the one replay path of the mainline and of
every variation.

One Board follows the text.  A move is played on it where it is read; a variation ``(``
takes back the move it replaces (the line is played from the position before it), and its
``)`` takes back the variation's moves and plays the replaced move again.  So the Board
always holds the position of the line being read, and memory grows with the text, not with
the depth of nesting.

Each open line (the mainline, or a variation) is a `_Line`; the lines form a stack, innermost
last.  A move is kept pending until the next token shows it complete: PlayStrategy writes a
multi-jump as single jumps, and a capture that starts where the pending capture ended is the
rest of the same move (the opponent cannot move from that square: the capturing piece stands
on it).  A variation joins the tree when it closes without error; one with an illegal or
unreadable move is dropped with the variations inside it, and its error names it.
"""

from __future__ import annotations

import re
from typing import Dict, List, Optional, Set, Tuple

from ..board import Board
from ..errors import InvalidPdnError, ShashkiError
from ..move import Move
from ..variants import COLOR_NAMES, Variant
from . import dialects
from .game import Game
from .model import RESULT_ALIASES, GameNode

#: the separators of the squares of a move
SEPARATOR = "[-xX:\u00d7]"
_SPLIT = re.compile(SEPARATOR)
_CAPTURE = re.compile("[xX:\u00d7]")
#: how many enclosing variations an error names before it counts the rest
NAMED_LEVELS = 3


def pdn_error(game_number: int, line: Optional[int], message: str) -> InvalidPdnError:
    """The error of a game, naming its number and line."""
    error = InvalidPdnError(f"game {game_number}, line {line}: {message}")
    error.game_number = game_number
    error.line_number = line
    return error


def move_label(ply: int) -> str:
    """The PDN move number of the move at `ply` counted from the first mover's first move."""
    return f"{1 + ply // 2}{'.' if ply % 2 == 0 else '...'}"


class _Pending:
    """A move read but not yet played: the square names of its route, as written."""

    __slots__ = ("segments", "raw", "line", "capture", "comments", "nags")

    segments: List[str]
    raw: List[str]
    line: Optional[int]
    capture: bool
    comments: List[str]
    nags: Set[int]

    def __init__(self, text: str, line: Optional[int]) -> None:
        self.segments = _SPLIT.split(text)
        self.raw = [text]
        self.line = line
        self.capture = bool(_CAPTURE.search(text))
        self.comments = []
        self.nags = set()

    def continues_with(self, text: str) -> bool:
        # a capture that starts where this capture ended is the rest of the same move
        return (self.capture and bool(_CAPTURE.search(text))
                and _SPLIT.split(text)[0].lower() == self.segments[-1].lower())

    def extend(self, text: str) -> None:
        self.segments += _SPLIT.split(text)[1:]
        self.raw.append(text)


class _Line:
    """An open line: the mainline (no parent) or a variation being read."""

    __slots__ = ("parent", "depth", "anchor", "replaced", "base", "opened", "node", "first",
                 "plies", "pending", "dead")

    parent: Optional[_Line]
    depth: int                  # variations from the mainline to this one (0: the mainline)
    anchor: Optional[GameNode]  # the node whose move this variation replaces
    replaced: Optional[Move]    # that move, taken back from the Board while the line is open
    base: int                   # the ply of the line's first move, from the first mover's first
    opened: Optional[int]       # the text line of its '('
    node: Optional[GameNode]    # the node of the last move played in the line
    first: Optional[GameNode]   # a variation's first node, joining the tree when it closes
    plies: int                  # the moves played in the line (on the Board while it is open)
    pending: Optional[_Pending]
    dead: bool                  # unreadable or illegal: the rest of it is skipped

    def __init__(self, parent: Optional[_Line], anchor: Optional[GameNode],
                 replaced: Optional[Move], base: int, opened: Optional[int],
                 node: Optional[GameNode] = None, dead: bool = False) -> None:
        self.parent = parent
        self.depth = 0 if parent is None else parent.depth + 1
        self.anchor = anchor
        self.replaced = replaced
        self.base = base
        self.opened = opened
        self.node = node
        self.first = None
        self.plies = 0
        self.pending = None
        self.dead = dead

    def title(self) -> str:
        if self.replaced is None:
            return "a variation"
        return (f"the variation replacing {move_label(self.base)} {self.replaced} "
                f"(line {self.opened})")


class GameBuilder:
    """Builds one game from the reader's tokens.  `line` is the text line being read (the
    reader keeps it up to date); `keep` reads variations (else they are skipped)."""

    movetext_result: Optional[str]

    def __init__(self, number: int, headers: Dict[str, str], forced: Optional[Variant],
                 line: Optional[int], keep: bool,
                 tag_errors: List[Tuple[int, str]]) -> None:
        self.number = number
        self.line = line
        self.keep = keep
        self.skipped = 0      # the depth of variations being skipped (when not kept)
        self.movetext_result = None
        self.errors = [pdn_error(number, at, message) for at, message in tag_errors]
        problems: List[str] = []
        try:
            variant = dialects.game_variant(headers, forced)
        except InvalidPdnError as exc:
            problems.append(str(exc))
            variant = forced or dialects.DEFAULT_VARIANT
        board = Board(variant)
        if "FEN" in headers:
            try:
                board = Board(variant, dialects.fen_text(headers["FEN"], variant))
            except ShashkiError as exc:
                problems.append(f"FEN tag: {exc}")
        self.swap_result = dialects.is_playstrategy(headers)
        if self.swap_result:
            dialects.normalise_headers(headers, variant)
        self.variant = variant
        self.headers = headers
        self.start = board.copy()
        self.board = board
        self.root = GameNode()
        offset = 0 if board.turn == variant.first_to_move else 1
        self.lines = [_Line(None, None, None, offset, line, self.root)]
        for problem in problems:
            self.fail(problem)

    @property
    def depth(self) -> int:
        """How deep in variations the text is."""
        return len(self.lines) - 1 + self.skipped

    # --- what the reader reads --------------------------------------------------------------

    def move(self, text: str, nag: Optional[int] = None) -> None:
        """A move token (with the NAG of a glyph written on it, as in ``c3-d4!``)."""
        if self.skipped or self.lines[-1].dead:
            return
        line = self.lines[-1]
        if line.pending is not None and line.pending.continues_with(text):
            line.pending.extend(text)
        else:
            self._flush(line)
            if line.dead:
                return
            line.pending = _Pending(text, self.line)
        if nag is not None:
            line.pending.nags.add(nag)

    def comment(self, text: str) -> None:
        """A comment: it belongs to the mainline move before it (or to the game's start);
        inside a variation it is not kept."""
        text = " ".join(text.split())
        main = self.lines[0]
        if not text or main.dead or self.depth:
            return
        if main.pending is not None:
            main.pending.comments.append(text)
        elif main.node is not None and main.node.move is not None:
            previous = main.node.comment
            main.node.comment = f"{previous} {text}" if previous else text
        else:
            self.root.comment = f"{self.root.comment} {text}".strip()

    def nag(self, nag: int) -> None:
        """A NAG of the mainline move before it; inside a variation it is not kept."""
        main = self.lines[0]
        if main.dead or self.depth:
            return
        if main.pending is not None:
            main.pending.nags.add(nag)
        elif main.node is not None and main.node.move is not None:
            main.node.nags.add(nag)

    def open(self) -> None:
        """A '(' : a line replacing the last move read (of the mainline or the enclosing
        variation), played from the position before that move."""
        if not self.keep:
            self.skipped += 1
            return
        parent = self.lines[-1]
        self._flush(parent)
        if parent.dead or not parent.plies:
            if not parent.dead:
                name = "a variation"
                if parent.parent is not None:
                    name += f" inside {self._name(parent)}"
                self.errors.append(pdn_error(
                    self.number, self.line,
                    f"{name} opens before any move; a variation '(' follows the move it "
                    f"replaces"))
            self.lines.append(_Line(parent, None, None, 0, self.line, dead=True))
            return
        replaced = self.board.pop()
        self.lines.append(_Line(parent, parent.node, replaced, parent.base + parent.plies - 1,
                                self.line))

    def close(self) -> None:
        """A ')': the innermost variation ends and joins the tree if it was read whole."""
        if not self.depth:
            self.fail("')' without a variation '(' before it")
            return
        if self.skipped:
            self.skipped -= 1
            return
        line = self.lines.pop()
        self._flush(line)
        self._take_back(line)
        if not line.dead and line.first is not None and line.anchor is not None:
            line.anchor.variations.append(line.first)

    def result(self, token: str) -> None:
        """The result at the end of the movetext (the reader reads none inside a variation)."""
        self._flush(self.lines[0])
        token = RESULT_ALIASES.get(token, token)
        if self.swap_result:
            token = dialects.first_mover_result(token, self.variant)
        self.movetext_result = token

    def unreadable(self, token: str) -> None:
        """A word that is none of PDN's."""
        if self.skipped:
            return
        example = "22-18 or 22x13" if self.variant.numeric else "c3-d4 or c3:e5"
        word = repr(token[:40])  # the first 40 characters, as always
        if not self.depth:
            self.fail(f"cannot read {word} in the movetext; expected moves such as {example}, "
                      f"move numbers, comments or a result")
            return
        line = self.lines[-1]
        self._flush(line)
        if not line.dead:
            self._line_error(line, self.line, f"cannot read {word}; expected moves such as "
                                              f"{example}, move numbers or comments")

    def fail(self, message: str) -> None:
        """A problem that ends the reading of the game's moves; the move read before it
        stands."""
        main = self.lines[0]
        self._flush(main)
        self.errors.append(pdn_error(self.number, self.line, message))
        main.dead = True

    def finish(self) -> Game:
        """The game, once its text has been read."""
        self._flush(self.lines[0])
        if self.depth:
            self.fail("a variation '(' is not closed at the end of the game")
        while len(self.lines) > 1:   # variations never closed: dropped
            self._take_back(self.lines.pop())
        if self.movetext_result is not None and "Result" not in self.headers:
            self.headers["Result"] = self.movetext_result
        game = Game.from_tree(self.start, self.root, self.headers, end=self.board)
        game.errors = self.errors
        return game

    # --- the replay -------------------------------------------------------------------------

    def _take_back(self, line: _Line) -> None:
        """Back to the position of the enclosing line: take back a variation's moves and
        play again the move it replaced."""
        for _ in range(line.plies):
            self.board.pop()
        if line.replaced is not None:
            self.board.push(line.replaced)

    def _flush(self, line: _Line) -> None:
        """Play the line's pending move."""
        pending, line.pending = line.pending, None
        if pending is None or line.dead:
            return
        written = " ".join(pending.raw)
        text = written
        try:
            text = dialects.move_text(self.variant, pending.segments, len(pending.raw) > 1,
                                      pending.capture, written)
            move = self.board.parse_move(text)
        except ShashkiError as exc:
            self._line_error(line, pending.line,
                             self._move_problem(pending, text, line.base + line.plies, exc))
            return
        self.board.push(move)
        line.plies += 1
        if line.parent is None:
            assert line.node is not None
            line.node = line.node.add_next(move, " ".join(pending.comments), pending.nags)
        elif line.node is None:
            # comments and NAGs inside a variation are not kept
            assert line.anchor is not None
            line.node = line.first = GameNode(line.anchor.parent, move)
        else:
            line.node = line.node.add_next(move)

    def _line_error(self, line: _Line, at: Optional[int], message: str) -> None:
        # a variation is dropped (with the variations inside it); the mainline reads on
        if line.parent is not None:
            message = f"in {self._name(line)}: {message}"
        self.errors.append(pdn_error(self.number, at, message))
        line.dead = True

    def _move_problem(self, pending: _Pending, text: str, ply: int, exc: ShashkiError) -> str:
        written = " ".join(pending.raw)
        read_as = "" if text == written else f" (read as {dialects.shorten(text)!r})"
        legal = ", ".join(str(m) for m in self.board.legal_moves) or "none"
        return (f"move {move_label(ply)} {dialects.shorten(written)!r} "
                f"({COLOR_NAMES[self.board.turn]} to move)"
                f"{read_as}: {exc}; the legal moves were: {legal}")

    @staticmethod
    def _name(line: _Line) -> str:
        """A variation and the ones around it, innermost first; past NAMED_LEVELS the rest
        are counted, so that a message stays short at any depth."""
        parts: List[str] = []
        current: Optional[_Line] = line
        while current is not None and current.parent is not None:
            if len(parts) == NAMED_LEVELS:
                parts.append(f"{current.depth} more variation{'s' if current.depth > 1 else ''}")
                break
            parts.append(current.title())
            current = current.parent
        return " inside ".join(parts)
