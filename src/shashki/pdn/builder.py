"""Replaying what the reader reads: the one replay path of the mainline and of every
variation, telling a Visitor (shashki.pdn.model) each move as it is played.

One Board follows the text.  A move is played on it where it is read; a variation ``(``
takes back the move it replaces (the line is played from the position before it), and its
``)`` takes back the variation's moves and plays the replaced move again.  So the Board
always holds the position of the line being read, and memory grows with the text, not with
the depth of nesting.

Each open line (the mainline, or a variation) is a `_Line`; the lines form a stack, innermost
last.  A move is kept pending until the next token shows it complete: PlayStrategy writes a
multi-jump as single jumps, and a capture that starts where the pending capture ended is the
rest of the same move (the opponent cannot move from that square: the capturing piece stands
on it).  The NAGs and comments read after a pending move are sent after it.  An illegal or
unreadable move ends its line: the error is sent to the visitor while that line is the
innermost one open, and nothing more of the line is sent but its end_variation.

`MovetextSink` is what the reader's tokens go to; skipping a game's moves (a Visitor's SKIP),
it only counts the parentheses, so that the game ends where a full read would end it.
"""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Tuple

from ..board import Board
from ..errors import InvalidPdnError, ShashkiError
from ..move import Move
from ..notation import CAPTURE_PATTERN, SEPARATOR_PATTERN
from ..variants import COLOR_NAMES, Variant
from . import dialects
from .model import RESULT_ALIASES, SKIP, Visitor

_SPLIT = re.compile(SEPARATOR_PATTERN)
_CAPTURE = re.compile(CAPTURE_PATTERN)
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


def setup_game(headers: Dict[str, str],
               forced: Optional[Variant]) -> Tuple[Variant, Board, List[str], bool]:
    """The game of a PDN game's tags: (variant, starting Board, problems, PlayStrategy's).
    A tag that cannot be read is a problem (the game then falls back on `forced` or the
    default game, on its standard start); PlayStrategy's tags are turned into shashki's
    here, in `headers` (shashki.pdn.dialects)."""
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
    playstrategy = dialects.is_playstrategy(headers)
    if playstrategy:
        dialects.normalise_headers(headers, variant)
    return variant, board, problems, playstrategy


class MovetextSink:
    """Where the reader's movetext tokens go.  This one only follows the nesting of the
    variations (a blank line inside one does not end the game): it is how the moves of a
    game are skipped.  `line` is the text line being read (the reader keeps it up to
    date)."""

    def __init__(self, line: Optional[int] = None) -> None:
        self.line = line
        self.skipped = 0      # the depth of variations being skipped

    @property
    def depth(self) -> int:
        """How deep in variations the text is."""
        return self.skipped

    def move(self, text: str, nag: Optional[int] = None) -> None:
        """A move token (with the NAG of a glyph written on it, as in ``c3-d4!``)."""

    def comment(self, text: str) -> None:
        pass

    def nag(self, nag: int) -> None:
        pass

    def open(self) -> None:
        self.skipped += 1

    def close(self) -> None:
        if self.skipped:
            self.skipped -= 1

    def result(self, token: str) -> None:
        pass

    def unreadable(self, token: str) -> None:
        pass

    def fail(self, message: str) -> None:
        """A problem that ends the reading of the game's moves."""

class _Pending:
    """A move read but not yet played: the square names of its route, as written, and the
    NAGs and comments read after it."""

    __slots__ = ("segments", "raw", "line", "capture", "comments", "nags")

    segments: List[str]
    raw: List[str]
    line: Optional[int]
    capture: bool
    comments: List[str]
    nags: List[int]

    def __init__(self, text: str, line: Optional[int]) -> None:
        self.segments = _SPLIT.split(text)
        self.raw = [text]
        self.line = line
        self.capture = bool(_CAPTURE.search(text))
        self.comments = []
        self.nags = []

    def continues_with(self, text: str) -> bool:
        # a capture that starts where this capture ended is the rest of the same move
        return (self.capture and bool(_CAPTURE.search(text))
                and _SPLIT.split(text)[0].lower() == self.segments[-1].lower())

    def extend(self, text: str) -> None:
        self.segments += _SPLIT.split(text)[1:]
        self.raw.append(text)


class _Line:
    """An open line: the mainline (no parent) or a variation being read."""

    __slots__ = ("parent", "depth", "replaced", "base", "opened", "plies", "pending", "dead")

    parent: Optional[_Line]
    depth: int                  # variations from the mainline to this one (0: the mainline)
    replaced: Optional[Move]    # the move it replaces, taken back while the line is open
    base: int                   # the ply of the line's first move, from the first mover's first
    opened: Optional[int]       # the text line of its '('
    plies: int                  # the moves played in the line (on the Board while it is open)
    pending: Optional[_Pending]
    dead: bool                  # unreadable or illegal: the rest of it is skipped

    def __init__(self, parent: Optional[_Line], replaced: Optional[Move], base: int,
                 opened: Optional[int], dead: bool = False) -> None:
        self.parent = parent
        self.depth = 0 if parent is None else parent.depth + 1
        self.replaced = replaced
        self.base = base
        self.opened = opened
        self.plies = 0
        self.pending = None
        self.dead = dead

    def title(self) -> str:
        if self.replaced is None:
            return "a variation"
        return (f"the variation replacing {move_label(self.base)} {self.replaced} "
                f"(line {self.opened})")


class Replay(MovetextSink):
    """Plays one game's movetext as the reader reads it, from `board` (taken over), and
    sends it to `visitor`: each move as it is played, the NAGs and comments after it, the
    variations (read only with `keep`, else skipped unseen), the result, and each error
    (kept in `errors` too)."""

    def __init__(self, number: int, variant: Variant, board: Board, visitor: Visitor[Any],
                 line: Optional[int], keep: bool, swap_result: bool) -> None:
        super().__init__(line)
        self.number = number
        self.variant = variant
        self.board = board
        self.visitor = visitor
        self.keep = keep
        self.swap_result = swap_result
        self.errors: List[InvalidPdnError] = []
        offset = 0 if board.turn == variant.first_to_move else 1
        self.lines = [_Line(None, None, offset, line)]

    @property
    def depth(self) -> int:
        return len(self.lines) - 1 + self.skipped

    def report(self, error: InvalidPdnError) -> None:
        """An error of the line innermost open (the mainline when none is)."""
        self.errors.append(error)
        self.visitor.handle_error(error)

    # --- what the reader reads --------------------------------------------------------------

    def move(self, text: str, nag: Optional[int] = None) -> None:
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
            line.pending.nags.append(nag)

    def comment(self, text: str) -> None:
        """A comment: it follows the move before it (a pending one is sent first)."""
        text = " ".join(text.split())
        line = self.lines[-1]
        if not text or self.skipped or line.dead:
            return
        if line.pending is not None:
            line.pending.comments.append(text)
        else:
            self.visitor.visit_comment(text)

    def nag(self, nag: int) -> None:
        line = self.lines[-1]
        if self.skipped or line.dead:
            return
        if line.pending is not None:
            line.pending.nags.append(nag)
        elif line.plies:
            self.visitor.visit_nag(nag)

    def open(self) -> None:
        """A '(' : a line replacing the last move read (of the mainline or the enclosing
        variation), played from the position before that move."""
        if self.skipped or not self.keep:
            self.skipped += 1
            return
        parent = self.lines[-1]
        self._flush(parent)
        if parent.dead or self.visitor.begin_variation() is SKIP:
            self.skipped += 1
            return
        if not parent.plies:
            line = _Line(parent, None, 0, self.line)
            self.lines.append(line)
            name = "a variation"
            if parent.parent is not None:
                name += f" inside {self._name(parent)}"
            self._line_error(line, self.line, f"{name} opens before any move; a variation "
                                              f"'(' follows the move it replaces", named=False)
            return
        replaced = self.board.pop()
        self.lines.append(_Line(parent, replaced, parent.base + parent.plies - 1, self.line))

    def close(self) -> None:
        """A ')': the innermost variation ends."""
        if not self.depth:
            self.fail("')' without a variation '(' before it")
            return
        if self.skipped:
            self.skipped -= 1
            return
        self._end_variation()

    def result(self, token: str) -> None:
        """The result at the end of the movetext (the reader reads none inside a variation)."""
        self._flush(self.lines[0])
        token = RESULT_ALIASES.get(token, token)
        if self.swap_result:
            token = dialects.first_mover_result(token, self.variant)
        self.visitor.visit_result(token)

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
        """A problem that ends the reading of the game's moves; the moves read before it
        stand, the variations open are closed first (with their moves read so far)."""
        self.skipped = 0
        while len(self.lines) > 1:
            self._end_variation()
        main = self.lines[0]
        self._flush(main)
        self.report(pdn_error(self.number, self.line, message))
        main.dead = True

    def finish(self) -> None:
        """The end of the game's text."""
        if self.depth:
            self.fail("a variation '(' is not closed at the end of the game")
        self._flush(self.lines[0])

    # --- the replay -------------------------------------------------------------------------

    def _end_variation(self) -> None:
        """The innermost variation ends: its pending move is played, its moves are taken
        back and the move it replaced is played again."""
        line = self.lines[-1]
        self._flush(line)
        for _ in range(line.plies):
            self.board.pop()
        if line.replaced is not None:
            self.board.push(line.replaced)
        self.lines.pop()
        self.visitor.end_variation()

    def _flush(self, line: _Line) -> None:
        """Play the line's pending move, and send it with its NAGs and comments."""
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
        visitor = self.visitor
        visitor.visit_move(self.board, move)
        self.board.push(move)
        line.plies += 1
        visitor.visit_board(self.board)
        for nag in pending.nags:
            visitor.visit_nag(nag)
        for comment in pending.comments:
            visitor.visit_comment(comment)

    def _line_error(self, line: _Line, at: Optional[int], message: str,
                    named: bool = True) -> None:
        # the line reads no further: a variation is closed at its ')', the mainline reads on
        if line.parent is not None and named:
            message = f"in {self._name(line)}: {message}"
        line.dead = True
        self.report(pdn_error(self.number, at, message))

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
