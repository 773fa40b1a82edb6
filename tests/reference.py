"""A slow, independent reference of the move rules in shared/RULES.md, for the tests only.

It was written from RULES.md alone, without reading shashki's core, so that the tests can
cross-check the Cython move generator on positions that no data file holds.  Everything is
plain Python over a dict board, {(file, rank): Piece}, and favours being obviously right over
being fast.

Geometry: a board of `size` x `size` squares (8, or 10 for international and its family);
(file, rank) are 0..size-1 seen from White (a1 = (0, 0), dark); the dark squares are those
with file + rank even.  White starts on the lowest ranks and its men move up (rank + 1) in
every game.  Squares are numbered as shashki numbers them, so results compare directly:
square = size // 2 * rank + file // 2 (a1 = 0, c1 = 1, ...; h8 = 31 on 8x8, j10 = 49 on
10x10).  The italian and spanish boards have a light a1; they are mirrored left to right onto
this geometry (a mirror keeps every rule), so the italian a8 = 1 is square h8 = 31 here.

A capture route is (origin, captured squares in capture order, destination), the unit of the
"keep duplicates" perft convention; a move is (origin, destination, set of captured squares)
and may be made by several routes (RULES.md "Move identity and perft").
"""

from collections import namedtuple

WHITE, BLACK = 0, 1
DIAGONALS = ((1, 1), (-1, 1), (1, -1), (-1, -1))
#: frisian's captures along ranks and files: the next dark square of a rank or a file is two
#: squares away (the light square between is no square of the game)
ORTHOGONALS = ((2, 0), (-2, 0), (0, 2), (0, -2))

Piece = namedtuple("Piece", "color king")

#: name; board size; flying kings; men capture backward; men may capture kings; promotion
#: during a capture ("king": crowned at once and goes on as a king; "man": goes on as a man,
#: crowned only if it ends on the far row; "stop": the move ends and the man is crowned);
#: choice among captures ("free", "majority", "italian", "most_kings": most pieces then most
#: kings, "by_king": a king's capture beats a man's); first to move; square notation; capture
#: separator; where a capturing flying king lands ("beyond": any empty square behind the
#: piece, "behind": only the square right behind it); when captured pieces leave the board
#: ("end": the Turkish strike rule, "at_once": as each is taken); whether men and kings also
#: capture along ranks and files (frisian); the most quiet moves in a row of one king while
#: its side has men (frisian: 3; 0 none).  Frisian's choice is "value": the captures of the
#: highest value, a king worth more than a man and less than two, then a king's capture.
Rules = namedtuple("Rules", "name size flying men_back men_take_kings promotion precedence "
                            "first notation sep landing removal orthogonal king_limit")


def _rules(name, size, flying, men_back, men_take_kings, promotion, precedence, first,
           notation, sep, landing="beyond", removal="end", orthogonal=False, king_limit=0):
    return Rules(name, size, flying, men_back, men_take_kings, promotion, precedence, first,
                 notation, sep, landing, removal, orthogonal, king_limit)


RULES = {
    "russian": _rules("russian", 8, True, True, True, "king", "free", WHITE, "algebraic", ":"),
    "giveaway": _rules("giveaway", 8, True, True, True, "king", "free", WHITE, "algebraic",
                       ":"),
    "brazilian": _rules("brazilian", 8, True, True, True, "man", "majority", WHITE,
                        "algebraic", "x"),
    "italian": _rules("italian", 8, False, False, False, "stop", "italian", WHITE, "italian",
                      "x"),
    "english": _rules("english", 8, False, False, True, "stop", "free", BLACK, "english", "x"),
    # "More games".  The move text of these is not checked here (no published move lists),
    # so their separator is PDN's "x".  International's family differs only in the goal.
    "international": _rules("international", 10, True, True, True, "man", "majority", WHITE,
                            "english", "x"),
    "antidraughts": _rules("antidraughts", 10, True, True, True, "man", "majority", WHITE,
                           "english", "x"),
    "breakthrough": _rules("breakthrough", 10, True, True, True, "man", "majority", WHITE,
                           "english", "x"),
    "pool": _rules("pool", 8, True, True, True, "man", "free", BLACK, "english", "x"),
    "spanish": _rules("spanish", 8, True, False, True, "stop", "most_kings", WHITE, "italian",
                      "x"),
    "czech": _rules("czech", 8, True, False, True, "stop", "by_king", WHITE, "algebraic", "x"),
    "thai": _rules("thai", 8, True, False, True, "stop", "free", WHITE, "algebraic", "x",
                   landing="behind", removal="at_once"),
    "frisian": _rules("frisian", 10, True, True, True, "man", "value", WHITE, "english", "x",
                      orthogonal=True, king_limit=3),
    "frysk": _rules("frysk", 10, True, True, True, "man", "value", WHITE, "english", "x",
                    orthogonal=True, king_limit=3),
}

_ALGEBRAIC_START = ("W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:"
                    "Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8")
START_FEN = {
    "russian": _ALGEBRAIC_START,
    "giveaway": _ALGEBRAIC_START,
    "brazilian": _ALGEBRAIC_START,
    "italian": "W:W21-32:B1-12",
    "english": "B:W21-32:B1-12",
    "international": "W:W31-50:B1-20",
    "antidraughts": "W:W31-50:B1-20",
    "breakthrough": "W:W31-50:B1-20",
    "pool": "B:W21-32:B1-12",
    "spanish": "W:W21-32:B1-12",
    "czech": _ALGEBRAIC_START,
    # thai: 8 men a side on the two nearest rows
    "thai": "W:Wa1,c1,e1,g1,b2,d2,f2,h2:Ba7,c7,e7,g7,b8,d8,f8,h8",
    "frisian": "W:W31-50:B1-20",
    # frysk: five men each on the back row
    "frysk": "W:W46-50:B1-5",
}


# --- squares and their names ---------------------------------------------------------------

def on_board(file, rank, size=8):
    return 0 <= file < size and 0 <= rank < size


def square_of(coord, size=8):
    file, rank = coord
    assert on_board(file, rank, size) and (file + rank) % 2 == 0, coord
    return size // 2 * rank + file // 2


def coord_of(square, size=8):
    rank, col = divmod(square, size // 2)
    # the dark squares of an even rank are on even files (a1, c1, ...), of an odd rank on odd
    return 2 * col + rank % 2, rank


def _numbered_coord(number, notation, size=8):
    """(file, rank) of square `number` 1..size*size/2: counted row by row from the top-left
    seen from White, size / 2 dark squares a row."""
    row, col = divmod(number - 1, size // 2)
    rank = size - 1 - row
    if notation == "english":
        # a1 dark: the dark squares of the top row are b8, d8, ... (1 = b8 on 8x8, 29 = a1;
        # 1 = b10 on 10x10, 46 = a1)
        return 2 * col + rank % 2, rank
    # italian, spanish: the real board has a light a1, so rank 8's dark squares are a8, c8,
    # e8, g8 (1 = a8, 32 = h1); mirror the file to put the square on the a1-dark geometry
    real_file = 2 * col + (1 - rank % 2)
    return size - 1 - real_file, rank


def square_from_name(name, notation, size=8):
    """Square of a name in the game's notation.  The algebraic games also accept numbers in
    the english numbering (RULES.md, FEN)."""
    name = name.strip().lower()
    if name.isdigit():
        number = int(name)
        assert 1 <= number <= size * size // 2, name
        return square_of(_numbered_coord(number, "english" if notation == "algebraic"
                                         else notation, size), size)
    assert notation == "algebraic", name
    return square_of(("abcdefghij".index(name[0]), int(name[1:]) - 1), size)


def square_name(square, notation, size=8):
    if notation != "algebraic":
        for number in range(1, size * size // 2 + 1):
            if square_from_name(str(number), notation, size) == square:
                return str(number)
    file, rank = coord_of(square, size)
    return "abcdefghij"[file] + str(rank + 1)


# --- positions -----------------------------------------------------------------------------

class Listing:
    """What a reference derives from its rules (_routes_from, legal_routes, simple_moves,
    play): the capture routes, the legal moves with their routes, and perft.  Shared with
    tests/reference_turkish.py."""

    def capture_routes(self):
        """Every capture route of the side to move, before the choice rules: a dict
        {(origin, captured tuple, destination): promoted}."""
        routes = {}
        for coord, piece in self.board.items():
            if piece.color == self.turn:
                self._routes_from(coord, piece, routes)
        return routes

    def moves(self):
        """The legal moves: {(origin, destination, frozenset captured): (routes, promoted)}.
        A capture, when there is one, is compulsory."""
        out = {}
        routes = self.legal_routes()
        if routes:
            for (origin, taken, dest), promoted in routes.items():
                key = (origin, dest, frozenset(taken))
                count, was = out.get(key, (0, promoted))
                assert was == promoted, ("promotion differs by route", key)
                out[key] = (count + 1, promoted)
            return out
        for (origin, dest), promoted in self.simple_moves().items():
            out[(origin, dest, frozenset())] = (1, promoted)
        return out

    def perft(self, depth, paths=False):
        """Leaves `depth` plies down: unique moves, or every route with paths=True."""
        if depth == 0:
            return 1
        total = 0
        for move, (routes, promoted) in self.moves().items():
            below = 1 if depth == 1 else self.play(move, promoted).perft(depth - 1, paths)
            total += below * (routes if paths else 1)
        return total


class Position(Listing):
    """A board {(file, rank): Piece} and the side to move, in one game.  In frisian also
    `runs`: {color: (coord, count)}, the king of that side that made the last `count` of its
    moves, all of them quiet (no capture), while its side had men."""

    def __init__(self, variant, board, turn, runs=None):
        self.rules = RULES[variant]
        self.size = self.rules.size
        self.board = dict(board)
        self.turn = turn
        self.runs = dict(runs or {})

    @classmethod
    def from_fen(cls, variant, fen):
        """Read a PDN FEN such as 'W:W21,22,K30:B1-12' or 'B:Wa1,Kc3:Bd8' (ranges allowed)."""
        notation, size = RULES[variant].notation, RULES[variant].size
        fields = fen.strip().rstrip(".").split(":")
        turn = {"W": WHITE, "B": BLACK}[fields[0].upper()]
        board = {}
        runs = {}
        for section in fields[1:]:
            if not section:
                continue
            if section[0] == "+":
                # the kings' runs, lidraughts' way: "+<count><square>" for Black, then White
                for color, item in zip((BLACK, WHITE), section[1:].split("+")):
                    if int(item[0]):
                        runs[color] = (coord_of(square_from_name(item[1:], notation, size),
                                                size), int(item[0]))
                continue
            color = {"W": WHITE, "B": BLACK}[section[0].upper()]
            for item in section[1:].split(","):
                if not item:
                    continue
                king = item[0].upper() == "K"
                item = item[1:] if king else item
                if "-" in item:
                    first, last = item.split("-")
                    names = [str(n) for n in range(int(first), int(last) + 1)]
                else:
                    names = [item]
                for name in names:
                    coord = coord_of(square_from_name(name, notation, size), size)
                    assert coord not in board, fen
                    board[coord] = Piece(color, king)
        return cls(variant, board, turn, runs)

    def square(self, coord):
        return square_of(coord, self.size)

    def coord(self, square):
        return coord_of(square, self.size)

    def on_board(self, file, rank):
        return on_board(file, rank, self.size)

    def fen(self):
        """The FEN in the game's notation (shashki reads it; used to print disagreements)."""
        notation = self.rules.notation
        parts = ["W" if self.turn == WHITE else "B"]
        for color in (WHITE, BLACK):
            items = [("K" if p.king else "") + square_name(self.square(c), notation, self.size)
                     for c, p in sorted(self.board.items(), key=lambda kv: self.square(kv[0]))
                     if p.color == color]
            parts.append("WB"[color] + ",".join(items))
        if self.runs:
            parts.append(self.runs_field())
        return ":".join(parts)

    def runs_field(self):
        """The kings' runs as a FEN field, "+<count><square>" for Black then White."""
        out = ""
        for color in (BLACK, WHITE):
            coord, count = self.runs.get(color, (None, 0))
            out += f"+{count}" + (square_name(self.square(coord), self.rules.notation,
                                              self.size) if count else "")
        return out

    def copy(self):
        return Position(self.rules.name, self.board, self.turn, self.runs)

    def __repr__(self):
        return f"Position({self.rules.name!r}, {self.fen()!r})"

    # --- the rules -------------------------------------------------------------------------

    def forward(self, color):
        return 1 if color == WHITE else -1

    def far_rank(self, color):
        return self.size - 1 if color == WHITE else 0

    def _routes_from(self, origin, piece, routes):
        # The moving piece's origin counts as empty.  Turkish strike: captured pieces stay on
        # the board (they block and cannot be jumped twice) until the move ends; in thai each
        # captured piece leaves the board as it is taken, so its square is free at once.
        others = {c: p for c, p in self.board.items() if c != origin}
        rules = self.rules
        color = piece.color
        at_once = rules.removal == "at_once"

        def jumps(pos, king, captured):
            """Each single capture from pos: (captured coord, list of landing coords)."""
            occupied = ({c: p for c, p in others.items() if c not in captured} if at_once
                        else others)
            out = []
            if king:
                directions = list(DIAGONALS)
            else:
                fwd = self.forward(color)
                directions = [d for d in DIAGONALS if d[1] == fwd or rules.men_back]
            if rules.orthogonal:
                # frisian: men and kings capture along ranks and files too, backward included
                directions += ORTHOGONALS
            for df, dr in directions:
                if king and rules.flying:
                    # a flying king slides over empty squares to the first piece on the line
                    f, r = pos[0] + df, pos[1] + dr
                    while self.on_board(f, r) and (f, r) not in occupied:
                        f, r = f + df, r + dr
                else:
                    f, r = pos[0] + df, pos[1] + dr
                if not self.on_board(f, r) or (f, r) not in occupied:
                    continue
                victim = occupied[(f, r)]
                if victim.color == color or (f, r) in captured:
                    continue
                if not king and victim.king and not rules.men_take_kings:
                    continue
                landings = []
                lf, lr = f + df, r + dr
                while self.on_board(lf, lr) and (lf, lr) not in occupied:
                    landings.append((lf, lr))
                    # men, short kings and thai kings land right behind the captured piece
                    if not (king and rules.flying and rules.landing == "beyond"):
                        break
                    lf, lr = lf + df, lr + dr
                if landings:
                    out.append(((f, r), landings))
            return out

        def extend(pos, king, crowned, captured):
            for victim, landings in jumps(pos, king, captured):
                taken = captured + (victim,)
                after = []  # (landing, king, crowned, may go on)
                for land in landings:
                    if not king and land[1] == self.far_rank(color):
                        if rules.promotion == "king":
                            after.append((land, True, True, True))
                        elif rules.promotion == "stop":
                            after.append((land, False, True, False))
                        else:  # "man": goes on as a man, crowned only if it ends here
                            after.append((land, False, False, True))
                    else:
                        after.append((land, king, crowned, True))
                # FMJD-64 4.6: if the capture can go on from some landing squares, the piece
                # must land on one of them and go on; otherwise every landing ends a route
                going_on = [a for a in after if a[3] and jumps(a[0], a[1], taken)]
                if going_on:
                    for land, k, c, _ in going_on:
                        extend(land, k, c, taken)
                else:
                    for land, k, c, _ in after:
                        if not k and land[1] == self.far_rank(color):
                            c = True  # "man" rule: ends on the far row
                        key = (self.square(origin), tuple(self.square(v) for v in taken),
                               self.square(land))
                        if key in routes:
                            assert routes[key] == c, ("promotion differs by route", key)
                        routes[key] = c

        extend(origin, piece.king, False, ())

    def legal_routes(self):
        """The capture routes the side to move may choose (after the game's choice rules),
        as {(origin, captured tuple, destination): promoted}; empty when it cannot capture."""
        routes = self.capture_routes()
        precedence = self.rules.precedence
        if not routes or precedence == "free":
            return routes

        def piece(square):
            return self.board[self.coord(square)]

        def by_king(routes):
            kings = {k: v for k, v in routes.items() if piece(k[0]).king}
            return kings or routes

        def most_kings(routes):
            kings = {k: sum(piece(s).king for s in k[1]) for k in routes}
            best = max(kings.values())
            return {k: v for k, v in routes.items() if kings[k] == best}

        if precedence == "by_king":
            # czech: a capture with a king must be chosen over one with a man; else free
            return by_king(routes)
        if precedence == "value":
            # frisian: the highest value, a king worth more than one man and less than two (two
            # kings beat three men, one king loses to two men).  Its exact value is taken as a
            # little less than two: captures are compared on men + 2 x kings, and at equal
            # counts fewer kings is worth more.  Then a king's capture beats a man's.
            def value(key):
                kings = sum(piece(s).king for s in key[1])
                return (len(key[1]) + kings, -kings)

            best = max(value(k) for k in routes)
            return by_king({k: v for k, v in routes.items() if value(k) == best})
        most = max(len(k[1]) for k in routes)
        routes = {k: v for k, v in routes.items() if len(k[1]) == most}
        if precedence == "majority":
            return routes
        if precedence == "most_kings":
            # spanish: the most pieces (done above), then the most kings
            return most_kings(routes)

        # italian (FID 6.6-6.10), in order: most pieces (done above); a king's capture beats
        # a man's; most kings captured; the kings met earliest (kinds in capture order, king
        # before man at the first difference); the rest are free.
        routes = most_kings(by_king(routes))
        order = {k: tuple(piece(s).king for s in k[1]) for k in routes}
        best = max(order.values())  # True > False: king before man wins
        return {k: v for k, v in routes.items() if order[k] == best}

    def has_men(self, color):
        return any(p.color == color and not p.king for p in self.board.values())

    def locked(self):
        """The king of the side to move that may not make a quiet move now (frisian: it made
        the last `king_limit` moves of its side, all quiet, and its side has men), or None."""
        coord, count = self.runs.get(self.turn, (None, 0))
        if self.rules.king_limit and count >= self.rules.king_limit and \
                self.has_men(self.turn):
            return coord
        return None

    def simple_moves(self):
        """Non-capturing moves: {(origin, destination): promoted}."""
        moves = {}
        locked = self.locked()
        for coord, piece in self.board.items():
            if piece.color != self.turn or coord == locked:
                continue
            if piece.king:
                directions = DIAGONALS
            else:
                directions = [d for d in DIAGONALS if d[1] == self.forward(piece.color)]
            for df, dr in directions:
                f, r = coord[0] + df, coord[1] + dr
                while self.on_board(f, r) and (f, r) not in self.board:
                    promoted = not piece.king and r == self.far_rank(piece.color)
                    moves[(self.square(coord), self.square((f, r)))] = promoted
                    if not (piece.king and self.rules.flying):
                        break
                    f, r = f + df, r + dr
        return moves

    def play(self, move, promoted):
        """The position after move (origin, destination, captured set)."""
        origin, dest, taken = move
        child = self.copy()
        piece = child.board.pop(self.coord(origin))
        for square in taken:
            del child.board[self.coord(square)]
        assert self.coord(dest) not in child.board
        child.board[self.coord(dest)] = Piece(piece.color, piece.king or promoted)
        child.turn = 1 - self.turn
        if self.rules.king_limit:
            # the mover's run: a quiet move of a king goes on with the king that moved last,
            # or starts a new run of 1; a man's move or a capture ends it.  Only a side with
            # men has runs; a run ends when its king is taken.
            color, them = self.turn, 1 - self.turn
            coord, count = self.runs.get(color, (None, 0))
            child.runs.pop(color, None)
            if piece.king and not taken and child.has_men(color):
                child.runs[color] = (self.coord(dest),
                                     count + 1 if coord == self.coord(origin) else 1)
            if them in child.runs and (not child.has_men(them) or
                                       self.square(child.runs[them][0]) in taken):
                del child.runs[them]
        return child

    # --- move text -------------------------------------------------------------------------

    def move_texts(self):
        """{text: move key} in the short notation: `from-to`, `from<sep>to` for a capture;
        a capture that shares its origin and destination with another move is named by its
        captured set instead (its long form depends on the route the writer picks)."""
        moves = self.moves()
        notation = self.rules.notation
        ends = {}
        for origin, dest, _ in moves:
            ends[origin, dest] = ends.get((origin, dest), 0) + 1
        out = {}
        for key in moves:
            origin, dest, taken = key
            name = (square_name(origin, notation, self.size),
                    square_name(dest, notation, self.size))
            if not taken:
                text = f"{name[0]}-{name[1]}"
            elif ends[origin, dest] == 1:
                text = f"{name[0]}{self.rules.sep}{name[1]}"
            else:
                text = ("ambiguous", origin, dest, taken)
            out[text] = key
        return out
