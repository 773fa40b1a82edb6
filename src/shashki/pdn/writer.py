"""Writing PDN: a Visitor that turns a game into text (python-chess's StringExporter).

The tags come first, one a line, with GameType in full, FEN when the game does not start from
the standard position, and a Variant tag where GameType alone would name another game.  The
movetext is wrapped at LINE_WIDTH columns; each move is numbered before the first mover's
move, and before the second mover's where a comment or a variation broke the line
(``3... e7-d6``); a variation stands after the move it replaces, in parentheses that stay on
the words they enclose (a line never starts with ``)``).
"""

from __future__ import annotations

from typing import Dict, List, Optional

from ..board import Board
from ..move import Move
from ..variants import Variant
from .dialects import DEFAULT_VARIANT, variant_tag
from .model import RESULTS, Visitor

LINE_WIDTH = 80


def escape(value: object) -> str:
    """A tag value as written between quotes: one line, quotes and backslashes escaped."""
    value = " ".join(str(value).splitlines())
    return value.replace("\\", "\\\\").replace('"', '\\"')


def header_items(headers: Dict[str, str], variant: Variant,
                 starting_fen: Optional[str]) -> Dict[str, str]:
    """The tags to write for a game with these headers: GameType in full, FEN when the game
    starts from `starting_fen` (None: the standard position), a Variant tag that agrees."""
    items = dict(headers)
    items.setdefault("Result", "*")
    items["GameType"] = variant.pdn_gametype
    if starting_fen is None:
        items.pop("FEN", None)
        items.pop("SetUp", None)
    else:
        items["FEN"] = starting_fen
    tag = variant_tag(variant, items.get("Variant"))
    if tag is not None:
        items["Variant"] = tag
    return items


def comment_words(comment: str) -> List[str]:
    # "}" would end the comment early; python-chess drops it the same way
    words = comment.replace("}", "").split()
    if not words:
        return []
    words[0] = "{" + words[0]
    words[-1] = words[-1] + "}"
    return words


def numbered(move: Move, ply: int, renumber: bool) -> str:
    """A move's token at `ply` (counted from the first mover's first move) with its number:
    always before the first mover's move (a number stays on the line of its move), before the
    second mover's when the line was broken by a comment or variation ("3... e7-d6")."""
    if ply % 2 == 0:
        return f"{1 + ply // 2}. {move}"
    if renumber:
        return f"{1 + ply // 2}... {move}"
    return str(move)


def wrap(tokens: List[str], width: int = LINE_WIDTH) -> List[str]:
    lines: List[str] = []
    line = ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > width:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    if line:
        lines.append(line)
    return lines


class PdnWriter(Visitor[str]):
    """The PDN text of the game it visits (``Game.accept``, or ``read_game(handle,
    Visitor=PdnWriter)``), without a trailing newline.

    `variant` and `starting_fen` (None: the standard start, no FEN tag) are the game's;
    left out, they are taken from the starting board the visit begins with."""

    def __init__(self, variant: Optional[Variant] = None,
                 starting_fen: Optional[str] = None) -> None:
        self.variant = variant
        self.starting_fen = starting_fen
        self.headers: Dict[str, str] = {}
        self.tokens: List[str] = []
        self.renumber = True    # the next second-mover move is numbered
        self.opening = 0        # variations opened before the next move
        self.first: Optional[int] = None   # the ply, from the first mover's first move, ...
        self.base = 0           # ... of a move played from a board with `base` moves
        self.ending: Optional[str] = None   # the result visited

    def visit_header(self, name: str, value: str) -> None:
        self.headers[name] = value

    def visit_board(self, board: Board) -> None:
        if self.first is not None:
            return
        # the starting position: the ply of its side to move
        self.first = 0 if board.turn == board.variant.first_to_move else 1
        self.base = len(board.move_stack)
        if self.variant is None:
            self.variant = board.variant
            if board != Board(board.variant):
                self.starting_fen = board.fen()

    def visit_comment(self, comment: str) -> None:
        words = comment_words(comment)
        self.tokens += words
        if words:
            self.renumber = True

    def visit_move(self, board: Board, move: Move) -> None:
        ply = (self.first or 0) + len(board.move_stack) - self.base
        token = numbered(move, ply, self.renumber)
        self.tokens.append("(" * self.opening + token)
        self.opening = 0
        self.renumber = False

    def visit_nag(self, nag: int) -> None:
        self.tokens.append(f"${nag}")

    def begin_variation(self) -> None:
        self.opening += 1
        self.renumber = True

    def end_variation(self) -> None:
        self.tokens[-1] += ")"
        self.renumber = True

    def visit_result(self, result: str) -> None:
        self.ending = result

    def result(self) -> str:
        variant = self.variant if self.variant is not None else DEFAULT_VARIANT
        headers = self.headers
        if "Result" not in headers and self.ending is not None:
            headers = {**headers, "Result": self.ending}   # as GameBuilder fills it in
        items = header_items(headers, variant, self.starting_fen)
        lines = [f'[{name} "{escape(value)}"]' for name, value in items.items()]
        # the movetext ends with the result visited (the Result tag's, from a Game), or the
        # tag's when the movetext had none
        ending = self.ending if self.ending is not None else items["Result"]
        tokens = self.tokens + [ending if ending in RESULTS else "*"]
        return "\n".join(lines + [""] + wrap(tokens))
