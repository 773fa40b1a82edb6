"""`shashki play`: a game against the built-in engine in a terminal; and the registration of
the `play` and `match` subcommands (the match itself is in shashki.match).

    shashki play VARIANT [--color white|black] [--depth N | --movetime S] [--hash MB]
                         [--fen FEN | --opening NAME] [--save FILE.pdn]

Input is read with plain input(), line by line, so the game works the same in a terminal, in
tmux, or with its moves piped in (then each line read is echoed after the prompt, and the
output reads as a transcript).  End of input ends the game cleanly, as `quit` does; either way
the game is saved as PDN.

The match API lives in shashki.match; `shashki.play.match` is the same function.
"""

from __future__ import annotations

import datetime
import os
import sys
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, TextIO

from . import squares as _sq
from .board import Board
from .errors import ShashkiError
from .variants import BLACK, COLOR_NAMES, WHITE, Variant

if TYPE_CHECKING:
    import argparse

    from .move import Move
    from .outcome import Outcome
    from .pdn import Game

# the match API, reachable from here as well (shashki.play.match)
from .match import EngineSpec, MatchResult, describe_outcome, match  # noqa: F401

#: seconds per engine move when neither --depth nor --movetime is given
DEFAULT_MOVETIME = 1.0

COMMANDS = (
    ("MOVE", "play a move in the game's notation, e.g. {example}"),
    ("moves", "list your legal moves"),
    ("hint", "ask the engine for a move"),
    ("undo", "take back your last move and the engine's reply"),
    ("board", "draw the board again"),
    ("flip", "turn the board round"),
    ("fen", "print the position as FEN"),
    ("draw", "claim a draw, where the rules make it a claim (english)"),
    ("resign", "resign the game"),
    ("quit", "stop playing (the game is saved unfinished); end of input does the same"),
    ("help", "this list"),
)
_ALIASES: Dict[str, str] = {
    "?": "help", "exit": "quit", "q": "quit", "m": "moves", "u": "undo", "h": "hint",
    "takeback": "undo", "legal": "moves"}


# --- the diagram -------------------------------------------------------------------------------

def _square_at(variant: Variant, flipped: bool, row: int, col: int) -> Optional[int]:
    """The square shown at display row `row` (0 = top) and column `col` (0 = left), or None
    for a light square.  White sits at the bottom unflipped, in every game; italian boards are
    mirrored (a1 light), as Board.__str__ draws them."""
    file, rank = col, 7 - row
    if flipped:
        file, rank = 7 - file, 7 - rank
    if variant.squares == "italian":
        file = 7 - file
    return _sq.square_at(file, rank)


def render(board: Board, flipped: bool = False) -> str:
    """The board as text: men w/b, kings W/B, empty dark squares '.'; with rank numbers and
    file letters around it in the algebraic games, and beside it a key of the square numbers
    in the numeric ones.  `flipped` turns it half round (Black at the bottom)."""
    variant = board.variant
    numeric = variant.numeric
    rows = []
    border = "+" + "-" * 17 + "+"
    key_border = "+" + "-" * 25 + "+"
    rows.append(f"  {border}" + (f"   {key_border}" if numeric else ""))
    for row in range(8):
        cells: List[str] = []
        keys: List[str] = []
        for col in range(8):
            square = _square_at(variant, flipped, row, col)
            if square is None:
                cells.append(" ")
                keys.append("  ")
                continue
            keys.append(f"{variant.square_name(square):>2}")
            piece = board.piece_at(square)
            if piece is None:
                cells.append(".")
            else:
                color, king = piece
                cells.append("WB"[color] if king else "wb"[color])
        label = " " if numeric else str(_square_rank_label(variant, flipped, row))
        line = f"{label} | {' '.join(cells)} |"
        if numeric:
            line += f"   | {' '.join(keys)} |"
        rows.append(line)
    rows.append(f"  {border}" + (f"   {key_border}" if numeric else ""))
    if not numeric:
        letters = _sq.FILES[::-1] if flipped else _sq.FILES
        rows.append("    " + " ".join(letters))
    return "\n".join(rows)


def _square_rank_label(variant: Variant, flipped: bool, row: int) -> int:
    return row + 1 if flipped else 8 - row


def _material(board: Board) -> str:
    parts: List[str] = []
    for color, mask in ((WHITE, board.white), (BLACK, board.black)):
        kings = _sq.popcount(mask & board.kings)
        men = _sq.popcount(mask) - kings
        text = f"{COLOR_NAMES[color]}: {men} {'man' if men == 1 else 'men'}"
        if kings:
            text += f", {kings} king{'s' if kings > 1 else ''}"
        parts.append(text)
    return "   ".join(parts)


def _example(board: Board) -> str:
    moves = list(board.legal_moves)
    return str(moves[0]) if moves else ("22-18" if board.variant.numeric else "c3-d4")


# --- the session -------------------------------------------------------------------------------

class PlaySession:
    """One game between a person (on `color`) and the engine, reading commands with
    `read(prompt)` (input() by default) and writing to `out`."""

    limits: Dict[str, Any]
    termination: Optional[str]
    reason: Optional[str]

    def __init__(self, board: Board, color: int, *, depth: Optional[int] = None,
                 movetime: Optional[float] = None, hash_mb: int = 32,
                 out: Optional[TextIO] = None, read: Optional[Callable[[str], str]] = None,
                 echo: Optional[bool] = None, save: Optional[str] = None) -> None:
        from .engine import Engine
        self.board = board
        self.variant = board.variant
        self.color = color
        self.engine_color = 1 - color
        self.limits = dict(depth=depth, movetime=movetime)
        if depth is None and movetime is None:
            self.limits["movetime"] = DEFAULT_MOVETIME
        self.engine = Engine(self.variant, hash_mb)
        self.out = out or sys.stdout
        self.read = read or input
        # echo what was read when it came from a pipe, so the output is a readable transcript
        self.echo = (not sys.stdin.isatty()) if echo is None else echo
        self.save_path = save
        # White's men start on the rows drawn at the bottom in all five games (in english too,
        # Black's 1-12 are at the top), so the player of Black looks from the other side
        self.flipped = color == BLACK
        self.start_turn = board.turn
        self.result = "*"
        self.termination = None
        self.reason = None

    # output helpers
    def say(self, text: str = "") -> None:
        print(text, file=self.out)
        self.out.flush()

    def engine_label(self) -> str:
        limit = (f"depth {self.limits['depth']}" if self.limits["depth"] is not None
                 else f"{self.limits['movetime']:g} s a move")
        return f"shashki ({limit})"

    def _mover(self, ply: int) -> int:
        """The colour that made move number `ply` (0-based) of this session."""
        return self.start_turn if ply % 2 == 0 else 1 - self.start_turn

    def _move_number(self) -> int:
        # full moves, counted from 1 at the session's start
        ply = len(self.board.move_stack) + (0 if self.start_turn == self.variant.first_to_move
                                            else 1)
        return 1 + ply // 2

    # the game
    def run(self) -> int:
        board = self.board
        you = COLOR_NAMES[self.color]
        first = "you move first" if board.turn == self.color else "shashki moves first"
        self.say(f"shashki play: {self.variant.title}. You play {you}; {first}. "
                 f"Engine: {self.engine_label()}.")
        self.say(f"Type a move (e.g. {_example(board)}) or a command: moves, hint, undo, "
                 f"board, fen, help, resign, quit.")
        show = True
        while True:
            outcome = board.outcome()
            if outcome is not None:
                self.finish(outcome)
                break
            if board.turn == self.engine_color:
                if self.engine_move():
                    break
                show = True
                continue
            if show:
                self.say()
                self.say(render(board, self.flipped))
                self.say(_material(board))
                show = False
            try:
                line = self.read(f"move {self._move_number()}, {you} (you)> ")
            except EOFError:
                self.say()
                self.say("end of input: the game stops here, unfinished")
                self.abandon("abandoned")
                break
            except KeyboardInterrupt:
                self.say()
                self.say("interrupted: the game stops here, unfinished")
                self.abandon("abandoned")
                break
            if self.echo:
                self.say(line)
            state = self.command(line.strip())
            if state == "end":
                break
            if state == "moved":
                show = True
        self.save()
        return 0

    def command(self, line: str) -> Optional[str]:
        """Carry out one line of input: returns "moved", "end" or None (nothing changed)."""
        board = self.board
        if not line:
            return None
        word = line.lower()
        word = _ALIASES.get(word, word)
        if word == "help":
            for name, text in COMMANDS:
                self.say(f"  {name:<7} {text.format(example=_example(board))}")
            return None
        if word == "moves":
            self.say("legal moves: " + " ".join(map(str, board.legal_moves)))
            return None
        if word == "board":
            self.say(render(board, self.flipped))
            self.say(_material(board))
            return None
        if word == "flip":
            self.flipped = not self.flipped
            self.say(render(board, self.flipped))
            self.say(_material(board))
            return None
        if word == "fen":
            self.say(board.fen())
            return None
        if word == "hint":
            result = self.engine.search(board, **self.limits)
            self.say(f"hint: {result.best_move}   (score {result.score} for you, "
                     f"depth {result.depth})")
            return None
        if word == "undo":
            return self.undo()
        if word == "draw":
            if board.can_claim_draw():
                self.say("you claim a draw")
                self.finish(_claimed(board))
                return "end"
            rule = ("threefold repetition, or 40 moves of each side without a man moved or "
                    "a capture" if self.variant.name == "english"
                    else f"{self.variant.name} draws are automatic, not claimed")
            self.say(f"no draw to claim here ({rule})")
            return None
        if word == "resign":
            winner = self.engine_color
            self.result = "1-0" if winner == WHITE else "0-1"
            self.termination = "resignation"
            self.reason = f"{COLOR_NAMES[self.color]} (you) resigned"
            self.say(f"result: {self.result}, {COLOR_NAMES[winner]} (shashki) wins: "
                     f"{self.reason}")
            return "end"
        if word == "quit":
            self.say("the game stops here, unfinished")
            self.abandon("abandoned")
            return "end"
        try:
            move = board.push(line)
        except ShashkiError as exc:
            self.say(f"error: {exc}")
            self.say("legal moves: " + " ".join(map(str, board.legal_moves)))
            return None
        self.say(f"you play {move}")
        return "moved"

    def undo(self) -> Optional[str]:
        board = self.board
        plies = len(board.move_stack)
        if not any(self._mover(i) == self.color for i in range(plies)):
            self.say("nothing to undo")
            return None
        taken: List[Move] = []
        while True:
            mover = self._mover(len(board.move_stack) - 1)
            taken.append(board.pop())
            if mover == self.color:
                break
        self.say("taken back: " + " ".join(str(m) for m in reversed(taken)))
        return "moved"     # redraw the board

    def engine_move(self) -> bool:
        """The engine's turn; returns True when that ends the game (a claimed draw)."""
        board = self.board
        thinking = self.out.isatty() if hasattr(self.out, "isatty") else False
        if thinking:
            self.out.write("shashki is thinking...")
            self.out.flush()
        result = self.engine.search(board, **self.limits)
        if thinking:
            self.out.write("\r\x1b[K")
        if board.can_claim_draw() and result.score.value <= 0:
            # english: the engine takes a draw it may claim unless it expects to win
            self.say("shashki claims a draw")
            self.finish(_claimed(board))
            return True
        number = self._move_number()
        # the game goes on (run() checked), so the side to move has a move
        assert result.best_move is not None
        move = board.push(result.best_move)
        self.say(f"move {number}, {COLOR_NAMES[self.engine_color]} (shashki): {move}   "
                 f"score {result.score} for shashki, depth {result.depth}, "
                 f"{result.nodes} nodes, {result.time:.2f} s")
        return False

    def finish(self, outcome: Outcome) -> None:
        self.say()
        self.say(render(self.board, self.flipped))
        self.result = outcome.result()
        self.termination = outcome.termination.value
        self.reason = describe_outcome(outcome, self.variant)
        if outcome.winner is None:
            who = "draw"
        else:
            side = "you" if outcome.winner == self.color else "shashki"
            who = f"{COLOR_NAMES[outcome.winner]} ({side}) wins"
        tag = outcome.termination.value
        if outcome.article:
            tag += f", FMJD-64 art. {outcome.article}"
        reason = self.reason[len("draw: "):] if outcome.winner is None else self.reason
        self.say(f"result: {self.result}, {who}: {reason} [{tag}]")

    def abandon(self, termination: str) -> None:
        self.result = "*"
        self.termination = termination

    # saving
    def pdn_game(self) -> Game:
        from . import pdn
        you = f"you ({os.environ.get('USER') or 'player'})"
        names = {self.color: you, self.engine_color: self.engine_label()}
        headers = {"Event": "shashki play", "Site": "?",
                   "Date": datetime.date.today().strftime("%Y.%m.%d"),
                   "White": names[WHITE], "Black": names[BLACK], "Result": self.result}
        if self.termination:
            headers["Termination"] = self.termination
        return pdn.Game.from_board(self.board, headers=headers)

    def save(self) -> None:
        if not self.board.move_stack:
            self.say("no moves were played; nothing saved")
            return
        path = self.save_path or default_save_path(self.variant)
        try:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(str(self.pdn_game()))
                handle.write("\n")
        except OSError as exc:
            self.say(f"could not save the game to {path}: {exc}")
            return
        self.say(f"game saved to {path}")


def default_save_path(variant: Variant, directory: str = ".") -> str:
    """A new file name for a game record: shashki-VARIANT-YYYYmmdd-HHMMSS.pdn (-2, -3 ...
    appended when that exists)."""
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    base = os.path.join(directory, f"shashki-{variant.name}-{stamp}")
    path, n = base + ".pdn", 1
    while os.path.exists(path):
        n += 1
        path = f"{base}-{n}.pdn"
    return path


def _claimed(board: Board) -> Outcome:
    """The outcome of a draw claimed where can_claim_draw() said it may be."""
    outcome = board.outcome(claim_draw=True)
    assert outcome is not None
    return outcome


def _enable_line_editing(session: PlaySession) -> None:
    """Line editing, history and tab completion of moves and commands, in a terminal only."""
    try:
        import readline
    except ImportError:     # pragma: no cover - not every Python has it
        return
    words = [name for name, _ in COMMANDS if name != "MOVE"]

    def complete(text: str, state: int) -> Optional[str]:
        options = [w for w in words + [str(m) for m in session.board.legal_moves]
                   if w.startswith(text)]
        return options[state] if state < len(options) else None

    readline.set_completer_delims(" \t")
    readline.set_completer(complete)
    readline.parse_and_bind("tab: complete")


# --- the commands ------------------------------------------------------------------------------

def add_parser(
        sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Add `shashki play` to the subcommands of the shashki parser."""
    from .cli import _variant_names
    from .match import _plies, _seconds
    p = sub.add_parser(
        "play", help="play a game against the engine in the terminal",
        description="Play against the built-in engine: type moves in the game's notation; "
                    "'help' lists the commands.  The game is saved as PDN at the end.")
    p.add_argument("variant", metavar="VARIANT", type=str.lower, choices=_variant_names(),
                   help="russian, giveaway, brazilian, italian or english (or an alias)")
    p.add_argument("--color", "--colour", choices=("white", "black"),
                   help="your colour (default: the side to move, so you move first)")
    limit = p.add_mutually_exclusive_group()
    limit.add_argument("--depth", type=_plies, metavar="N", help="engine search depth")
    limit.add_argument("--movetime", type=_seconds, metavar="S",
                       help=f"engine seconds per move (default {DEFAULT_MOVETIME:g})")
    p.add_argument("--hash", type=_plies, default=32, metavar="MB",
                   help="engine hash table size in MiB (default 32)")
    start = p.add_mutually_exclusive_group()
    start.add_argument("--fen", help="start from this position (PDN FEN)")
    start.add_argument("--opening", metavar="NAME",
                       help="start from an opening of the tables, by name or code (e.g. I-1)")
    p.add_argument("--save", metavar="FILE.pdn",
                   help="write the game to FILE (replacing it); default: a new "
                        "shashki-VARIANT-DATE-TIME.pdn here, named on exit")
    p.set_defaults(func=cmd_play)
    return p


def cmd_play(args: argparse.Namespace, out: TextIO) -> int:
    if args.opening:
        board = Board.from_opening(args.variant, args.opening)
    else:
        board = Board(args.variant, fen=args.fen)
    color = board.turn if args.color is None else (WHITE if args.color == "white" else BLACK)
    session = PlaySession(board, color, depth=args.depth, movetime=args.movetime,
                          hash_mb=args.hash, out=out, save=args.save)
    if sys.stdin.isatty():
        _enable_line_editing(session)
    return session.run()


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `play` and `match` subcommands (cli.build_parser calls this)."""
    from . import match as _match
    add_parser(sub)
    _match.add_parser(sub)
