"""`shashki play`: a game against the built-in engine in a terminal.

    shashki play VARIANT [--color white|black] [--depth N | --movetime S] [--hash MB]
                         [--fen FEN | --opening NAME] [--save FILE.pdn]

Input is read with plain input(), line by line, so the game works the same in a terminal, in
tmux, or with its moves piped in (then each line read is echoed after the prompt, and the
output reads as a transcript).  End of input ends the game cleanly, as `quit` does; with
``--save FILE`` the game is then written to FILE as PDN (nothing is written unless asked).
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
from typing import Callable, Dict, Iterable, List, Optional, TextIO, Tuple

from .._text import natural_key
from ..board import Board
from ..colors import BLACK, WHITE
from ..diagram import diagram
from ..engine import Engine
from ..geometry import popcount
from ..errors import ShashkiError
from ..limits import MAX_DEPTH, MAX_HASH_MB, Limit
from ..move import Move
from ..outcome import Outcome
from ..pdn import Game
from ..variants import COLOR_NAMES, Variant
from .args import SubParsers, add_command, add_variant, seconds, whole
from .records import article_text, describe_outcome, pdn_game

__all__ = ["COMMANDS", "DEFAULT_LIMIT", "PlaySession", "add_parser", "cmd_play",
           "default_save_path"]

#: the engine's limit when neither --depth nor --movetime is given
DEFAULT_LIMIT = Limit(movetime=1.0)

COMMANDS = (
    ("MOVE", "play a move in the game's notation, e.g. {example}"),
    ("moves", "list your legal moves"),
    ("hint", "ask the engine for a move"),
    ("undo", "take back your last move and the engine's reply"),
    ("board", "draw the board again"),
    ("flip", "turn the board round"),
    ("fen", "print the position as FEN"),
    ("draw", "claim a draw, where the rules make it a claim"),
    ("resign", "resign the game"),
    ("quit", "stop playing (with --save, the game is saved unfinished); end of input does the same"),
    ("help", "this list"),
)
_ALIASES: Dict[str, str] = {
    "?": "help", "exit": "quit", "q": "quit", "m": "moves", "u": "undo", "h": "hint",
    "takeback": "undo", "legal": "moves"}


# --- what is shown -------------------------------------------------------------------------------

def _material(board: Board) -> str:
    parts: List[str] = []
    for color, mask in ((WHITE, board.white), (BLACK, board.black)):
        kings = popcount(mask & board.kings)
        men = popcount(mask) - kings
        text = f"{COLOR_NAMES[color]}: {men} {'man' if men == 1 else 'men'}"
        if kings:
            text += f", {kings} king{'s' if kings > 1 else ''}"
        parts.append(text)
    return "   ".join(parts)


def natural_order(moves: Iterable[Move]) -> List[Move]:
    """`moves` sorted as a player reads them: by origin, then destination, then route, with
    square numbers in numeric order (``9-14`` before ``10-15``) and algebraic squares by file,
    then rank (``a3-b4``, ``c3-b4``, ``c3-d4``)."""
    return sorted(moves, key=natural_key)


def _listed(moves: Iterable[Move]) -> str:
    return " ".join(map(str, natural_order(moves)))


def _error_text(error: ShashkiError, legal: List[Move]) -> Tuple[str, bool]:
    """The message of a move's error, with any list of moves in it in natural order, and
    whether it lists every legal move (then they need not be printed again)."""
    text = str(error)
    every = ", ".join(map(str, legal))
    if every and every in text:
        return text.replace(every, ", ".join(map(str, natural_order(legal)))), True
    # a list of some of them: the touched piece's moves, the candidates of ambiguous text
    some = getattr(error, "alternatives", ())
    shown = ", ".join(map(str, some))
    if shown and shown in text:
        text = text.replace(shown, ", ".join(map(str, natural_order(some))))
    return text, False


def _example(board: Board) -> str:
    moves = list(board.legal_moves)
    return str(moves[0]) if moves else ("22-18" if board.variant.numeric else "c3-d4")


# --- the session -------------------------------------------------------------------------------

class PlaySession:
    """One game between a person (on `color`) and the engine, reading commands with
    `read(prompt)` (input() by default) and writing to `out`."""

    termination: Optional[str]
    reason: Optional[str]

    def __init__(self, board: Board, color: int, *, limit: Limit = DEFAULT_LIMIT,
                 hash_mb: int = 32, out: Optional[TextIO] = None,
                 read: Optional[Callable[[str], str]] = None, echo: Optional[bool] = None,
                 save: Optional[str] = None) -> None:
        self.board = board
        self.variant = board.variant
        self.color = color
        self.engine_color = 1 - color
        self.limit = limit
        self.engine = Engine(self.variant, hash_mb)
        self.out = out or sys.stdout
        self.read = read or input
        # echo what was read when it came from a pipe, so the output is a readable transcript
        self.echo = (not sys.stdin.isatty()) if echo is None else echo
        self.save_path = save
        # White's men start on the rows drawn at the bottom in every game (in english too,
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
        limit = self.limit
        parts = ([f"depth {limit.depth}"] if limit.depth is not None else []) + \
            ([f"{limit.nodes} nodes"] if limit.nodes is not None else []) + \
            ([f"{limit.movetime:g} s a move"] if limit.movetime is not None else [])
        return f"shashki ({', '.join(parts) or 'default'})"

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
                self.say(diagram(board, self.flipped))
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
            self.say("legal moves: " + _listed(board.legal_moves))
            return None
        if word == "board":
            self.say(diagram(board, self.flipped))
            self.say(_material(board))
            return None
        if word == "flip":
            self.flipped = not self.flipped
            self.say(diagram(board, self.flipped))
            self.say(_material(board))
            return None
        if word == "fen":
            self.say(board.fen())
            return None
        if word == "hint":
            result = self.engine.search(board, limit=self.limit)
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
            who = ("a player claims them" if self.variant.draw_claims
                   else "they end the game by themselves")
            self.say(f"no draw to claim here (the draws of {self.variant.title}: "
                     f"{_draw_rules(self.variant)}; {who})")
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
            # the legal moves once, in natural order: in the error's message when it lists
            # them all, else after it
            legal = list(board.legal_moves)
            text, listed = _error_text(exc, legal)
            self.say(f"error: {text}")
            if not listed:
                self.say("legal moves: " + _listed(legal))
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
        result = self.engine.search(board, limit=self.limit)
        if thinking:
            self.out.write("\r\x1b[K")
        if board.can_claim_draw() and result.score.value <= 0:
            # where draws are claimed, the engine takes one unless it expects to win
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
        self.say(diagram(self.board, self.flipped))
        self.result = outcome.result()
        self.termination = outcome.termination.value
        self.reason = describe_outcome(outcome, self.variant, self.board)
        if outcome.winner is None:
            who = "draw"
        else:
            side = "you" if outcome.winner == self.color else "shashki"
            who = f"{COLOR_NAMES[outcome.winner]} ({side}) wins"
        tag = outcome.termination.value
        article = article_text(outcome, self.variant)
        if article:
            tag += f", {article}"
        reason = self.reason[len("draw: "):] if outcome.winner is None else self.reason
        self.say(f"result: {self.result}, {who}: {reason} [{tag}]")

    def abandon(self, termination: str) -> None:
        self.result = "*"
        self.termination = termination

    # saving
    def pdn_game(self) -> Game:
        you = f"you ({os.environ.get('USER') or 'player'})"
        names = {self.color: you, self.engine_color: self.engine_label()}
        return pdn_game(self.board, event="shashki play", white=names[WHITE],
                        black=names[BLACK], result=self.result, termination=self.termination)

    def save(self) -> None:
        # only when asked (--save): a game written into the current folder every time was a
        # file the player had not asked for (issue 33.5)
        if self.save_path is None:
            return
        if not self.board.move_stack:
            self.say("no moves were played; nothing saved")
            return
        path = self.save_path
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
        # imported only here: importing readline changes how input() reads lines
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


def _draw_rules(variant: Variant) -> str:
    """The draw rules of a game, in words, from its record."""
    rules = ["threefold repetition"]
    if variant.kings_only_limit:
        rules.append(f"{variant.kings_only_limit} moves of each side with kings only")
    if variant.no_progress_limit:
        rules.append(f"{variant.no_progress_limit} moves of each side without a man moved "
                     f"or a capture")
    endgame = variant.endgame_draws
    if variant.fmjd_endgame_rules and endgame is not None:
        articles = [a for _, a in endgame.articles]
        where = f" ({articles[0]}-{articles[-1]})" if articles else ""
        rules.append(f"the {endgame.name} rules of endings against a lone king{where}")
    return ", ".join(rules)


# --- the command -------------------------------------------------------------------------------

def add_parser(sub: SubParsers) -> None:
    """Add `shashki play` to the subcommands of the shashki parser."""
    p = add_command(
        sub, "play", cmd_play, help="play a game against the engine in the terminal",
        description="Play against the built-in engine: type moves in the game's notation; "
                    "'help' lists the commands.  The game is saved as PDN at the end.")
    add_variant(p)
    p.add_argument("--color", "--colour", choices=("white", "black"),
                   help="your colour (default: the side to move, so you move first)")
    limit = p.add_mutually_exclusive_group()
    limit.add_argument("--depth", type=whole("--depth", 1, MAX_DEPTH), metavar="N",
                       help="engine search depth")
    limit.add_argument("--movetime", type=seconds("--movetime"), metavar="S",
                       help=f"engine seconds per move (default {DEFAULT_LIMIT.movetime:g})")
    p.add_argument("--hash", type=whole("--hash", 1, MAX_HASH_MB), default=32, metavar="MB",
                   help="engine hash table size in MiB (default 32)")
    start = p.add_mutually_exclusive_group()
    start.add_argument("--fen", help="start from this position (PDN FEN)")
    start.add_argument("--opening", metavar="NAME",
                       help="start from an opening of the game's tables, by name or code: "
                            "I-1 (russian, brazilian), 1 (italian), 01 (english); the "
                            "other games have none (shashki.openings(VARIANT) lists them)")
    p.add_argument("--save", metavar="FILE.pdn",
                   help="write the game to FILE as PDN when it ends (replacing it); "
                        "without it nothing is written")


def cmd_play(args: argparse.Namespace, out: TextIO) -> int:
    if args.opening:
        board = Board.from_opening(args.variant, args.opening)
    else:
        board = Board(args.variant, fen=args.fen)
    color = board.turn if args.color is None else (WHITE if args.color == "white" else BLACK)
    limit = DEFAULT_LIMIT
    if args.depth is not None or args.movetime is not None:
        limit = Limit(depth=args.depth, movetime=args.movetime)
    session = PlaySession(board, color, limit=limit, hash_mb=args.hash, out=out,
                          save=args.save)
    if sys.stdin.isatty():
        _enable_line_editing(session)
    return session.run()
