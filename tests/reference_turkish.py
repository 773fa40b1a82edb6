"""A slow, independent reference of turkish draughts' move rules, for the tests only.

Written from shared/RULES.md ("Turkish") and the rule book's points that the TURKISH record's
docstring cites, without reading shashki's core, so that the tests can cross-check the
kernel on positions no data file holds.  Plain Python over a dict board {(file, rank): Piece}
that favours being obviously right over being fast.

Board: all 64 squares of 8x8, (file, rank) 0..7 from White's side, a1 = (0, 0); squares are
numbered as shashki numbers them, row by row from a1: square = 8 * rank + file.  White's men
move up (rank + 1).  The rules:

- a man moves one square straight forward or sideways to an empty square; a king moves any
  distance along a rank or a file over empty squares;
- a man captures forward or sideways, jumping an adjacent enemy piece (man or king) to the
  empty square right beyond; a king captures along a rank or a file at any distance, over
  empty squares to the enemy piece and landing on any empty square beyond it;
- a captured piece leaves the board at once (it opens the line, it cannot be jumped twice);
- a capture may not turn 180 degrees between two jumps;
- capturing is compulsory and the route taking the most pieces must be chosen (men and kings
  count one each); a capture goes on while it can;
- a man that reaches the far row in the middle of a capture goes on capturing as a man and is
  crowned when the move ends there (it cannot leave the far row: it never moves backward).

A move is (origin, destination, set of captured squares); a route is (origin, captured squares
in capture order, destination), landing squares between captures aside.
"""

from collections import namedtuple

from reference import Listing

WHITE, BLACK = 0, 1
SIZE = 8
ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
FILES = "abcdefgh"
START_FEN = ("W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:"
             "Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7")

Piece = namedtuple("Piece", "color king")


def square_of(coord):
    return SIZE * coord[1] + coord[0]


def coord_of(square):
    return square % SIZE, square // SIZE


def name_of(coord):
    return FILES[coord[0]] + str(coord[1] + 1)


def on_board(file, rank):
    return 0 <= file < SIZE and 0 <= rank < SIZE


class Position(Listing):
    """A board {(file, rank): Piece} and the side to move."""

    def __init__(self, board, turn):
        self.board = dict(board)
        self.turn = turn

    @classmethod
    def from_fen(cls, fen):
        """Read a FEN with algebraic squares, 'W:Wa2,Kd4:Bh7'."""
        fields = fen.strip().rstrip(".").split(":")
        turn = {"W": WHITE, "B": BLACK}[fields[0].upper()]
        board = {}
        for section in fields[1:]:
            if not section or section[0].upper() not in "WB":
                continue
            color = {"W": WHITE, "B": BLACK}[section[0].upper()]
            for item in section[1:].split(","):
                if not item:
                    continue
                king = item[0].upper() == "K"
                name = (item[1:] if king else item).lower()
                coord = (FILES.index(name[0]), int(name[1:]) - 1)
                assert on_board(*coord) and coord not in board, fen
                board[coord] = Piece(color, king)
        return cls(board, turn)

    def fen(self):
        sides = []
        for color, letter in ((WHITE, "W"), (BLACK, "B")):
            items = [("K" if p.king else "") + name_of(c)
                     for c, p in sorted(self.board.items(), key=lambda cp: square_of(cp[0]))
                     if p.color == color]
            sides.append(letter + ",".join(items))
        return f"{'WB'[self.turn]}:{sides[0]}:{sides[1]}"

    def __repr__(self):
        return f"Position({self.fen()!r})"

    def forward(self, color):
        return 1 if color == WHITE else -1

    def far_rank(self, color):
        return SIZE - 1 if color == WHITE else 0

    def directions(self, piece):
        """A man's directions: forward and the two sideways; a king's: all four."""
        if piece.king:
            return ORTHOGONAL
        return ((0, self.forward(piece.color)), (1, 0), (-1, 0))

    # --- captures --------------------------------------------------------------------------
    # (Listing.capture_routes asks _routes_from for each piece of the side to move)

    def _routes_from(self, origin, piece, routes):
        others = {c: p for c, p in self.board.items() if c != origin}

        def jumps(pos, captured, last):
            """Each single capture from pos: (captured coord, direction, landing coords)."""
            occupied = {c: p for c, p in others.items() if c not in captured}  # gone at once
            out = []
            for df, dr in self.directions(piece):
                if last is not None and (df, dr) == (-last[0], -last[1]):
                    continue            # no turn of 180 degrees between two jumps
                f, r = pos[0] + df, pos[1] + dr
                if piece.king:
                    while on_board(f, r) and (f, r) not in occupied:
                        f, r = f + df, r + dr
                if not on_board(f, r) or occupied.get((f, r), Piece(piece.color, 0)).color \
                        == piece.color:
                    continue
                landings = []
                lf, lr = f + df, r + dr
                while on_board(lf, lr) and (lf, lr) not in occupied:
                    landings.append((lf, lr))
                    if not piece.king:
                        break           # a man lands right beyond
                    lf, lr = lf + df, lr + dr
                if landings:
                    out.append(((f, r), (df, dr), landings))
            return out

        def extend(pos, captured, last):
            found = jumps(pos, captured, last)
            if not found and captured:
                promoted = not piece.king and pos[1] == self.far_rank(piece.color)
                key = (square_of(origin), tuple(square_of(c) for c in captured), square_of(pos))
                routes[key] = promoted
            for victim, direction, landings in found:
                for land in landings:
                    extend(land, captured + (victim,), direction)

        extend(origin, (), None)

    def legal_routes(self):
        """The capture routes the side to move may choose: those that take the most."""
        routes = self.capture_routes()
        if not routes:
            return routes
        most = max(len(k[1]) for k in routes)
        return {k: v for k, v in routes.items() if len(k[1]) == most}

    # --- moves -----------------------------------------------------------------------------

    def simple_moves(self):
        """Non-capturing moves: {(origin, destination): promoted}."""
        moves = {}
        for coord, piece in self.board.items():
            if piece.color != self.turn:
                continue
            for df, dr in self.directions(piece):
                f, r = coord[0] + df, coord[1] + dr
                while on_board(f, r) and (f, r) not in self.board:
                    promoted = not piece.king and r == self.far_rank(piece.color)
                    moves[(square_of(coord), square_of((f, r)))] = promoted
                    if not piece.king:
                        break
                    f, r = f + df, r + dr
        return moves

    def play(self, move, promoted):
        origin, dest, taken = move
        child = Position(self.board, 1 - self.turn)
        piece = child.board.pop(coord_of(origin))
        for square in taken:
            del child.board[coord_of(square)]
        assert coord_of(dest) not in child.board
        child.board[coord_of(dest)] = Piece(piece.color, piece.king or promoted)
        return child
