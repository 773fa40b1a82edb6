"""Board: a position, its legal moves, and the stack of moves that led to it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, FrozenSet, Iterator, List, Optional, Tuple, Union

from . import notation as _notation
from . import outcome as _outcome
from . import squares as _sq
from ._core import perft as _perft
from .errors import IllegalMoveError, InvalidMoveError, InvalidVariantError
from .fen import parse_fen, write_fen
from .move import Move
from .variants import BLACK, WHITE, COLOR_NAMES, Variant, get_variant

if TYPE_CHECKING:
    # (annotations only: `import shashki` stays cheap)
    import os
    from concurrent.futures import Executor

    from .ballots import Opening
    from .perft import Progress

#: the position as four ints: white, black and king masks, side to move
Masks = Tuple[int, int, int, int]
#: the legal moves of a position, as a list and as a set
_Cache = Tuple[List[Move], FrozenSet[Move]]
#: what push saves and pop restores
_Snapshot = Tuple[Masks, Optional[_Cache], _outcome.DrawCounters]

#: below this depth a perft is too small to be worth splitting across threads
PARALLEL_MIN_DEPTH = 8


class LegalMoves:
    """A live, cheap view of a board's legal moves: sized, iterable, supports `in`."""

    __slots__ = ("_board",)

    def __init__(self, board: Board) -> None:
        self._board = board

    def _moves(self) -> List[Move]:
        return self._board._legal()

    def __len__(self) -> int:
        return len(self._moves())

    def count(self) -> int:
        return len(self._moves())

    def __iter__(self) -> Iterator[Move]:
        return iter(self._moves())

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and move in self._board._legal_set()

    def __bool__(self) -> bool:
        return bool(self._moves())

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(map(str, self._moves()))})>"


class Board:
    """A draughts position of one game (`variant`) with its move history.

    >>> board = Board("russian")
    >>> len(board.legal_moves)
    7
    >>> board.push("c3-d4")
    Move('c3-d4')
    >>> board.fen()
    'B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,d4:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8'
    """

    variant: Variant
    fmjd_draw_rules: bool
    move_stack: List[Move]
    _stack: List[_Snapshot]
    _cache: Optional[_Cache]
    _white: int
    _black: int
    _kings: int
    _turn: int
    _counters: _outcome.DrawCounters

    def __init__(self, variant: Union[str, Variant] = "russian", fen: Optional[str] = None, *,
                 fmjd_draw_rules: Optional[bool] = None) -> None:
        self.variant = get_variant(variant)
        self.fmjd_draw_rules = _fmjd_setting(self.variant, fmjd_draw_rules)
        self.move_stack = []
        self._stack = []
        self._cache = None
        self.set_fen(self.variant.start_fen if fen is None else fen)

    # --- position -------------------------------------------------------------------------

    def set_fen(self, fen: str) -> None:
        """Set the position from a FEN; the move history is cleared.  On error (InvalidFenError)
        the board is unchanged."""
        white, black, kings, turn, _ = parse_fen(fen, self.variant)
        self._white, self._black, self._kings, self._turn = white, black, kings, turn
        self.move_stack = []
        self._stack = []
        self._cache = None
        # the draw counters count from the set-up position (the game's history is unknown)
        self._counters = _outcome.start_counters(white, black, kings, self.fmjd_draw_rules)

    def fen(self) -> str:
        return write_fen(self._white, self._black, self._kings, self._turn, self.variant)

    @property
    def turn(self) -> int:
        """The side to move: shashki.WHITE (0) or shashki.BLACK (1)."""
        return self._turn

    @property
    def white(self) -> int:
        """Mask of the white pieces (bit s for square s)."""
        return self._white

    @property
    def black(self) -> int:
        return self._black

    @property
    def kings(self) -> int:
        return self._kings

    @property
    def masks(self) -> Masks:
        """The position as square masks and the side to move: (white, black, kings, turn)."""
        return self._white, self._black, self._kings, self._turn

    def _masks(self) -> Masks:
        return self._white, self._black, self._kings, self._turn

    def piece_at(self, square: int) -> Optional[Tuple[int, bool]]:
        """None, or a (color, is_king) pair for the piece on `square` (0..31)."""
        bit = 1 << square
        if self._white & bit:
            return WHITE, bool(self._kings & bit)
        if self._black & bit:
            return BLACK, bool(self._kings & bit)
        return None

    def copy(self, stack: bool = True) -> Board:
        board = object.__new__(type(self))
        board.variant = self.variant
        board._white, board._black, board._kings, board._turn = self._masks()
        board.move_stack = list(self.move_stack) if stack else []
        board._stack = list(self._stack) if stack else []
        board._cache = self._cache
        board.fmjd_draw_rules = self.fmjd_draw_rules
        # the counters go along even without the stack (as python-chess keeps its clocks);
        # repetitions are then counted within the copied history only
        board._counters = self._counters
        return board

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self.variant == other.variant and self._masks() == other._masks()

    def __hash__(self) -> int:
        return hash((self.variant.name,) + self._masks())

    # --- moves ----------------------------------------------------------------------------

    def _legal(self) -> List[Move]:
        if self._cache is None:
            self._cache = self._generate()
        return self._cache[0]

    def _legal_set(self) -> FrozenSet[Move]:
        if self._cache is None:
            self._cache = self._generate()
        return self._cache[1]

    def _generate(self) -> _Cache:
        try:
            raw = self.variant.rules.legal_moves(*self._masks())
        except OverflowError:  # pragma: no cover - no legal 8x8 position has that many moves
            raise IllegalMoveError("position has more legal moves than shashki can list")
        texts = _notation.move_texts(raw, self.variant)
        moves = [Move(origin, dest, taken, (origin,) + path, routes, promote, text)
                 for (origin, dest, _, routes, promote, path, taken), text in zip(raw, texts)]
        return moves, frozenset(moves)

    @property
    def legal_moves(self) -> LegalMoves:
        return LegalMoves(self)

    def is_capture_position(self) -> bool:
        """True when the side to move must capture."""
        moves = self._legal()
        return bool(moves) and moves[0].is_capture

    def parse_move(self, text: str) -> Move:
        """The legal move that `text` names, in the game's notation (shashki.notation).

        Accepts the short form (`c3-d4`, `c3:e5`, `22x18`), the full route (`c3:e5:g3`), any of
        the separators `-`, `x`, `:`, and in the algebraic games the russian short form `cd4`
        (a man from the c-file to d4).  Raises InvalidMoveError for text that is not a move,
        IllegalMoveError when no legal move fits, AmbiguousMoveError when several do.
        """
        return _notation.parse_move(self, text)

    @classmethod
    def from_opening(cls, variant: Union[str, Variant], opening: Union[str, Opening],
                     table: Optional[str] = None) -> Board:
        """A board at the start position of an opening of the tables (shashki.openings):
        `opening` is an Opening, its full name (`"I-1: ab4"`) or its code (`"I-1"`, `"001"`);
        `table` narrows the search when a code is in several tables.  The board has no move
        history: Opening.moves, when the name lists moves, are the moves that lead there."""
        from .ballots import find_opening
        return cls(variant, fen=find_opening(variant, opening, table).fen)

    def _illegal_error(self, text: str, origin: object) -> IllegalMoveError:
        """The IllegalMoveError for move `text` from `origin`: the message says why, and
        `alternatives` lists the touched piece's legal moves, or every legal move."""
        moves = self._legal()
        own = [m for m in moves if m.origin == origin]
        return IllegalMoveError(self._illegal_message(text, origin), own or moves)

    def _illegal_message(self, text: str, origin: object) -> str:
        """Why the move `text` from square `origin` is not legal: the legal moves of that piece
        (seeds 003 and 004: a touched piece must move if it can), or why it has none."""
        quoted = _notation._quote(text)
        if isinstance(origin, bool) or not isinstance(origin, int) or not 0 <= origin < 32:
            return f"illegal move {quoted}: {origin!r} is not a square (squares are 0..31)"
        moves = self._legal()
        same_piece = ", ".join(str(m) for m in moves if m.origin == origin)
        every = ", ".join(map(str, moves))
        piece = self.piece_at(origin)
        name = self.variant.square_name(origin)
        side = COLOR_NAMES[self._turn]
        if not moves:
            why = f"{side} is to move and has no legal move"
        elif piece is None:
            why = f"there is no piece on {name}; legal moves: {every}"
        elif piece[0] != self._turn:
            why = (f"the piece on {name} is {COLOR_NAMES[piece[0]]}, and {side} is to move; "
                   f"legal moves: {every}")
        elif same_piece:
            why = f"legal moves of the piece on {name}: {same_piece}"
            if moves[0].is_capture:
                why = "a capture is compulsory; " + why
        elif moves[0].is_capture:
            why = f"a capture is compulsory and the piece on {name} cannot capture: {every}"
        else:
            why = f"the piece on {name} has no legal move; legal moves: {every}"
        return f"illegal move {quoted}: {why}"

    def push(self, move: Union[Move, str]) -> Move:
        """Play a legal Move (or its text); returns the Move.  The board is unchanged on error."""
        if isinstance(move, str):
            move = self.parse_move(move)
        elif not isinstance(move, Move):
            raise InvalidMoveError(f"push takes a Move or move text, not {type(move).__name__}")
        else:
            legal = self._legal_set()
            if move not in legal:
                raise self._illegal_error(str(move), move.origin)
            # the board's own instance carries the text and route
            move = next(m for m in self._legal() if m == move)
        # a snapshot is (masks, legal-move cache, draw counters): pop restores all three
        self._stack.append((self._masks(), self._cache, self._counters))
        man_moved = not self._kings >> move.origin & 1
        self.move_stack.append(move)
        self._white, self._black, self._kings, self._turn = self.variant.rules.apply_move(
            *self._masks(), move.origin, move.destination, move.captured_mask, move.promotion)
        self._cache = None
        self._counters = _outcome.counters_after(self._counters, move, man_moved, self._white,
                                                 self._black, self._kings, self.fmjd_draw_rules)
        return move

    def pop(self) -> Move:
        """Take back the last move and return it (IndexError if there is none)."""
        if not self.move_stack:
            raise IndexError("pop from a board with no moves played")
        move = self.move_stack.pop()
        masks, self._cache, self._counters = self._stack.pop()
        self._white, self._black, self._kings, self._turn = masks
        return move

    def peek(self) -> Move:
        return self.move_stack[-1]

    # --- game end (shashki.outcome) -------------------------------------------------------

    def outcome(self, claim_draw: bool = False) -> Optional[_outcome.Outcome]:
        """None while the game goes on, else an Outcome(winner, termination).

        The side to move with no legal move loses (in giveaway it wins).  Draws follow the
        game's rules (RULES.md): threefold repetition, the kings-only move limit, the english
        40-move rule, and in russian (or brazilian with `fmjd_draw_rules=True`) FMJD-64
        7.2.4-7.2.8.  Draws a player must claim (english, WCDF) count only with
        `claim_draw=True`.
        """
        return _outcome.outcome(self, claim_draw)

    def is_game_over(self, claim_draw: bool = False) -> bool:
        return self.outcome(claim_draw) is not None

    def result(self, claim_draw: bool = False) -> str:
        """"1-0", "0-1", "1/2-1/2", or "*" while the game goes on."""
        outcome = self.outcome(claim_draw)
        return outcome.result() if outcome else "*"

    def can_claim_draw(self) -> bool:
        """Whether the side to move may claim a draw now, in a game whose rule book makes the
        draw a claim (english: repetition, also before the repeating move, and 40 moves)."""
        return _outcome.can_claim_draw(self)

    def is_repetition(self, count: int = 3) -> bool:
        """Whether this position, with this side to move, has occurred `count` times or more."""
        return _outcome.repetitions(self._masks(), self._stack, self._counters.halfmove_clock,
                                    count) >= count

    @property
    def halfmove_clock(self) -> int:
        """Plies since the last man move or capture (kings-only and 40-move rules)."""
        return self._counters.halfmove_clock

    @property
    def draw_counters(self) -> _outcome.DrawCounters:
        """Every draw counter of the position (shashki.outcome.DrawCounters), in plies."""
        return self._counters

    # --- perft ----------------------------------------------------------------------------

    def perft(self, depth: int, paths: bool = False, *, jobs: Optional[int] = None,
              hash_mb: float = 0, executor: Optional[Executor] = None,
              checkpoint: Union[str, os.PathLike[str], None] = None,
              progress: Optional[Progress] = None,
              table: Optional[_perft.PerftTable] = None) -> int:
        """Leaf nodes of the move tree `depth` plies deep: unique moves by default, every
        capture route with `paths=True` (RULES.md "Move identity and perft").

        `jobs` threads (default: all cores, for trees deep enough to be worth splitting),
        a transposition table of `hash_mb` MiB, any concurrent.futures `executor`, and a
        resumable `checkpoint` file: see shashki.perft.run.  `table`: a
        shashki.perft.PerftTable to count with (one thread), kept between runs of the same
        game and convention.
        """
        depth = _check_depth(depth)
        from .perft import check_options
        check_options(jobs, hash_mb)
        if table is not None:
            if hash_mb or executor is not None or checkpoint is not None or \
                    progress is not None or jobs not in (None, 1):
                raise ValueError("a perft table is for a single-threaded run: give it without "
                                 "hash_mb, jobs, executor, checkpoint or progress")
            table.claim(f"{self.variant.rules.name} {'paths' if paths else 'unique'}")
            return _perft.perft(*self._masks(), self.variant.rules, depth, paths, table)
        if executor is None and checkpoint is None and progress is None and (
                jobs == 1 or depth < PARALLEL_MIN_DEPTH):
            table = _perft.PerftTable(hash_mb, shared=False) if hash_mb else None
            return _perft.perft(*self._masks(), self.variant.rules, depth, paths, table)
        from . import perft as _runner
        return _runner.perft(self, depth, paths, jobs=jobs, hash_mb=hash_mb,
                             executor=executor, checkpoint=checkpoint, progress=progress)

    def divide(self, depth: int, paths: bool = False) -> Dict[Move, int]:
        """Perft split by first move: {move: leaves}."""
        depth = _check_depth(depth)
        if depth == 0:
            return {}
        out: Dict[Move, int] = {}
        for move in self._legal():
            child = self.variant.rules.apply_move(*self._masks(), move.origin, move.destination,
                                        move.captured_mask, move.promotion)
            count = _perft.perft(*child, self.variant.rules, depth - 1, paths)
            out[move] = count * move.routes if paths else count
        return out

    # --- display --------------------------------------------------------------------------

    def __str__(self) -> str:
        mirrored = self.variant.squares == "italian"
        rows = ["  +-----------------+"]
        for rank in range(7, -1, -1):
            cells = []
            for col in range(8):
                file = 7 - col if mirrored else col
                square = _sq.square_at(file, rank)
                if square is None:
                    cells.append(" ")
                    continue
                piece = self.piece_at(square)
                if piece is None:
                    cells.append(".")
                else:
                    cells.append("wb"[piece[0]].upper() if piece[1] else "wb"[piece[0]])
            rows.append(f"{rank + 1} | {' '.join(cells)} |")
        rows.append("  +-----------------+")
        rows.append("    a b c d e f g h")
        return "\n".join(rows)

    def __repr__(self) -> str:
        return f"Board({self.variant.name!r}, fen={self.fen()!r})"

    def _repr_svg_(self) -> str:
        """The board as an SVG picture (shashki.svg.board), for Jupyter; the last move played
        is highlighted, as python-chess does."""
        from . import svg  # imported on first display, so `import shashki` stays cheap
        return svg.board(self, last_move=self.move_stack[-1] if self.move_stack else None)


def _fmjd_setting(variant: Variant, value: Optional[bool]) -> bool:
    """Whether the FMJD-64 endgame draw rules (7.2.4-7.2.8) apply: by default where the game's
    record says so (russian); they may be turned on for brazilian, the other flying-king game
    played to win, and off anywhere."""
    if value is None:
        return variant.fmjd_endgame_rules
    if not isinstance(value, bool):
        raise InvalidVariantError(
            f"fmjd_draw_rules must be True, False or None (the game's default), not {value!r}")
    if value and not (variant.flying_kings and not variant.reversed_goal):
        raise InvalidVariantError(
            f"the FMJD-64 draw rules are for russian and brazilian, not {variant.name}")
    return value


def _check_depth(depth: object) -> int:
    if isinstance(depth, bool) or not isinstance(depth, int):
        raise ValueError(f"depth must be an int, not {type(depth).__name__}")
    if depth < 0:
        raise ValueError(f"depth must be 0 or more, not {depth}")
    return depth
