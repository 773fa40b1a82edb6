"""Board: a position, its legal moves, and the stack of moves that led to it."""

import re

from . import squares as _sq
from ._core import movegen as _movegen
from ._core import perft as _perft
from .errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from .fen import parse_fen, write_fen
from .move import Move
from .variants import BLACK, WHITE, COLOR_NAMES, get_variant

_MOVE_TOKEN = re.compile(r"\s*([a-hA-H][1-8]|\d{1,2})\s*")
_SEPARATORS = "-x:×"


class LegalMoves:
    """A live, cheap view of a board's legal moves: sized, iterable, supports `in`."""

    __slots__ = ("_board",)

    def __init__(self, board):
        self._board = board

    def _moves(self):
        return self._board._legal()

    def __len__(self):
        return len(self._moves())

    def count(self):
        return len(self._moves())

    def __iter__(self):
        return iter(self._moves())

    def __contains__(self, move):
        return isinstance(move, Move) and move in self._board._legal_set()

    def __bool__(self):
        return bool(self._moves())

    def __repr__(self):
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

    def __init__(self, variant="russian", fen=None):
        self.variant = get_variant(variant)
        self.move_stack = []
        self._stack = []
        self._cache = None
        self.set_fen(self.variant.start_fen if fen is None else fen)

    # --- position -------------------------------------------------------------------------

    def set_fen(self, fen):
        """Set the position from a FEN; the move history is cleared.  On error (InvalidFenError)
        the board is unchanged."""
        white, black, kings, turn, _ = parse_fen(fen, self.variant)
        self._white, self._black, self._kings, self._turn = white, black, kings, turn
        self.move_stack = []
        self._stack = []
        self._cache = None

    def fen(self):
        return write_fen(self._white, self._black, self._kings, self._turn, self.variant)

    @property
    def turn(self):
        """The side to move: shashki.WHITE (0) or shashki.BLACK (1)."""
        return self._turn

    @property
    def white(self):
        """Mask of the white pieces (bit s for square s)."""
        return self._white

    @property
    def black(self):
        return self._black

    @property
    def kings(self):
        return self._kings

    def _masks(self):
        return self._white, self._black, self._kings, self._turn

    def piece_at(self, square):
        """None, or a (color, is_king) pair for the piece on `square` (0..31)."""
        bit = 1 << square
        if self._white & bit:
            return WHITE, bool(self._kings & bit)
        if self._black & bit:
            return BLACK, bool(self._kings & bit)
        return None

    def copy(self, stack=True):
        board = object.__new__(type(self))
        board.variant = self.variant
        board._white, board._black, board._kings, board._turn = self._masks()
        board.move_stack = list(self.move_stack) if stack else []
        board._stack = list(self._stack) if stack else []
        board._cache = self._cache
        return board

    def __eq__(self, other):
        if not isinstance(other, Board):
            return NotImplemented
        return self.variant == other.variant and self._masks() == other._masks()

    def __hash__(self):
        return hash((self.variant.name,) + self._masks())

    # --- moves ----------------------------------------------------------------------------

    def _legal(self):
        if self._cache is None:
            self._cache = self._generate()
        return self._cache[0]

    def _legal_set(self):
        self._legal()
        return self._cache[1]

    def _generate(self):
        try:
            raw = _movegen.legal_moves(*self._masks(), self.variant.rules)
        except OverflowError:  # pragma: no cover - no legal 8x8 position has that many moves
            raise IllegalMoveError("position has more legal moves than shashki can list")
        moves = []
        name = self.variant.square_name
        sep = self.variant.capture_sep
        ends = {}
        for origin, dest, _, _, _, _, _ in raw:
            ends[origin, dest] = ends.get((origin, dest), 0) + 1
        for origin, dest, captured, routes, promote, path, taken in raw:
            path = (origin,) + path
            if not taken:
                text = f"{name(origin)}-{name(dest)}"
            elif ends[origin, dest] == 1:
                text = f"{name(origin)}{sep}{name(dest)}"
            else:
                text = sep.join(name(s) for s in path)
            moves.append(Move(origin, dest, taken, path, routes, promote, text))
        return moves, frozenset(moves)

    @property
    def legal_moves(self):
        return LegalMoves(self)

    def is_capture_position(self):
        """True when the side to move must capture."""
        moves = self._legal()
        return bool(moves) and moves[0].is_capture

    def parse_move(self, text):
        """The legal move that `text` names, in the game's notation.

        Accepts the short form (`c3-d4`, `c3:e5`, `22x18`), the full route (`c3:e5:g3`) and any
        of the separators `-`, `x`, `:`.  Raises InvalidMoveError for text that is not a move,
        IllegalMoveError when no legal move fits, AmbiguousMoveError when several do.
        """
        if not isinstance(text, str):
            raise InvalidMoveError(f"move text must be a string, not {type(text).__name__}")
        squares = self._parse_squares(text)
        moves = self._legal()
        origin, dest = squares[0], squares[-1]
        fits = [m for m in moves if m.origin == origin and m.destination == dest]
        if len(squares) > 2:
            fits = [m for m in fits if self._route_matches(m, squares)]
        if not fits:
            raise IllegalMoveError(self._illegal_message(text, origin))
        if len(fits) > 1:
            raise AmbiguousMoveError(
                f"{text!r} fits {len(fits)} legal moves: {', '.join(map(str, fits))}; "
                f"write the whole route", fits)
        return fits[0]

    def _parse_squares(self, text):
        body = text.strip()
        # a result suffix or annotation is not part of the move
        body = body.rstrip("!?+#*")
        if not body:
            raise InvalidMoveError("empty move text")
        parts = re.split(r"[-x:×]", body.lower())
        if len(parts) < 2 or any(not p.strip() for p in parts):
            raise InvalidMoveError(
                f"cannot read move {text!r}; expected squares joined by '-', 'x' or ':', "
                f"e.g. {self._example()}")
        return [self._parse_square(p.strip(), text) for p in parts]

    def _parse_square(self, token, text):
        variant = self.variant
        if token.isdigit():
            number = int(token)
            if not 1 <= number <= 32:
                raise InvalidMoveError(f"square {number} in {text!r} is out of range 1-32")
            if not variant.numeric:
                raise InvalidMoveError(
                    f"{variant.name} moves name squares a1-h8, not numbers: {text!r}")
            return variant.square_from_number(number)
        if variant.numeric:
            raise InvalidMoveError(f"{variant.name} moves name squares 1-32, not {token!r}")
        if len(token) != 2 or token[0] not in "abcdefgh" or token[1] not in "12345678":
            raise InvalidMoveError(f"cannot read square {token!r} in {text!r}; "
                                   f"expected a1-h8")
        square = _sq.square_at(ord(token[0]) - 97, int(token[1]) - 1)
        if square is None:
            raise InvalidMoveError(f"{token} in {text!r} is a light square; "
                                   f"pieces move on dark squares")
        return square

    def _example(self):
        return "22-18 or 22x13" if self.variant.numeric else "c3-d4 or c3:e5"

    def _route_matches(self, move, squares):
        """Whether `squares` (origin, landings..., destination) is a route of `move`."""
        if len(squares) - 1 != len(move.captured):
            return False
        if tuple(squares) == move.path:
            return True
        # another order of the same captures: follow it square by square
        occupied = (self._white | self._black) & ~(1 << move.origin)
        taken = 0
        for a, b in zip(squares, squares[1:]):
            between = _between(a, b)
            if between is None:
                return False
            pieces = [s for s in between if occupied & (1 << s)]
            if len(pieces) != 1 or taken & (1 << pieces[0]):
                return False
            if occupied & (1 << b) and b != move.origin:
                return False
            taken |= 1 << pieces[0]
        return taken == move.captured_mask

    def _illegal_message(self, text, origin):
        same_piece = [str(m) for m in self._legal() if m.origin == origin]
        piece = self.piece_at(origin)
        name = self.variant.square_name(origin)
        if piece is None:
            why = f"there is no piece on {name}"
        elif piece[0] != self._turn:
            why = f"the piece on {name} is {COLOR_NAMES[piece[0]]}, and {COLOR_NAMES[self._turn]} is to move"
        elif same_piece:
            why = f"legal moves of the piece on {name}: {', '.join(same_piece)}"
        elif self.is_capture_position():
            why = "a capture is compulsory: " + ", ".join(map(str, self._legal()))
        else:
            why = f"the piece on {name} has no legal move"
        return f"illegal move {text!r}: {why}"

    def push(self, move):
        """Play a legal Move (or its text); returns the Move.  The board is unchanged on error."""
        if isinstance(move, str):
            move = self.parse_move(move)
        elif not isinstance(move, Move):
            raise InvalidMoveError(f"push takes a Move or move text, not {type(move).__name__}")
        else:
            legal = self._legal_set()
            if move not in legal:
                raise IllegalMoveError(self._illegal_message(str(move), move.origin))
            # the board's own instance carries the text and route
            move = next(m for m in self._legal() if m == move)
        self._stack.append((self._masks(), self._cache))
        self.move_stack.append(move)
        self._white, self._black, self._kings, self._turn = _movegen.apply_move(
            *self._masks(), move.origin, move.destination, move.captured_mask, move.promotion)
        self._cache = None
        return move

    def pop(self):
        """Take back the last move and return it (IndexError if there is none)."""
        if not self.move_stack:
            raise IndexError("pop from a board with no moves played")
        move = self.move_stack.pop()
        masks, self._cache = self._stack.pop()
        self._white, self._black, self._kings, self._turn = masks
        return move

    def peek(self):
        return self.move_stack[-1]

    # --- perft ----------------------------------------------------------------------------

    def perft(self, depth, paths=False):
        """Leaf nodes of the move tree `depth` plies deep: unique moves by default, every
        capture route with `paths=True` (RULES.md "Move identity and perft")."""
        depth = _check_depth(depth)
        return _perft.perft(*self._masks(), self.variant.rules, depth, paths)

    def divide(self, depth, paths=False):
        """Perft split by first move: {move: leaves}."""
        depth = _check_depth(depth)
        if depth == 0:
            return {}
        out = {}
        for move in self._legal():
            child = _movegen.apply_move(*self._masks(), move.origin, move.destination,
                                        move.captured_mask, move.promotion)
            count = _perft.perft(*child, self.variant.rules, depth - 1, paths)
            out[move] = count * move.routes if paths else count
        return out

    # --- display --------------------------------------------------------------------------

    def __str__(self):
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

    def __repr__(self):
        return f"Board({self.variant.name!r}, fen={self.fen()!r})"


def _between(a, b):
    """The squares strictly between a and b on a diagonal, or None if not on one."""
    fa, ra = _sq.square_file(a), _sq.square_rank(a)
    fb, rb = _sq.square_file(b), _sq.square_rank(b)
    if abs(fa - fb) != abs(ra - rb) or fa == fb:
        return None
    df = 1 if fb > fa else -1
    dr = 1 if rb > ra else -1
    return [_sq.square_at(fa + i * df, ra + i * dr) for i in range(1, abs(fa - fb))]


def _check_depth(depth):
    if isinstance(depth, bool) or not isinstance(depth, int):
        raise ValueError(f"depth must be an int, not {type(depth).__name__}")
    if depth < 0:
        raise ValueError(f"depth must be 0 or more, not {depth}")
    return depth
