"""shashki's move generator against the slow reference in reference.py, on positions no data
file holds.

The reference is first checked against the data (the published rule tests and perft lines,
the start-position perft, the random.perft suite), then hypothesis builds positions three
ways per game: random placements, king-heavy placements made for long (flying) captures and
for men crowned mid-capture, and random games from the start.  For each one the legal moves
must agree exactly: the set of (origin, destination, captured set), each move's route count
and promotion; the route shashki reports must be one of the reference's legal routes and a
real path on the board.  Any disagreement fails with the position's FEN and both move lists.
Small perfts (depth 1-3, both conventions) are compared on a few random positions too.
Every game shashki plays is covered, the 10x10 ones on their own board; antidraughts and
breakthrough, which move as international does, on fewer positions.
`pytest -s` prints how many positions each game compared.
"""

import collections
import random
import re

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

import shashki
from perftfile import read_blocks, shared_dir
from reference import (BLACK, RULES, START_FEN, WHITE, Piece, Position, coord_of,
                       square_from_name, square_name, square_of)

VARIANTS = list(RULES)
#: the 10x10 games whose moves are international's (only the goal differs): cross-checked on
#: fewer positions, since the moves are the same rules again
SAME_MOVES = {"antidraughts", "breakthrough"}


def all_squares(size):
    return range(size * size // 2)


def dark(size):
    return [coord_of(s, size) for s in all_squares(size)]


def interior(size):
    """Squares off the edge of the board: only there can a piece be captured from every
    side."""
    return [c for c in dark(size) if 1 <= c[0] <= size - 2 and 1 <= c[1] <= size - 2]


#: positions compared per (game, kind of test) and the longest capture seen per game, printed
#: by the last test
COMPARED = collections.Counter()
LONGEST = collections.Counter()


# --- helpers ------------------------------------------------------------------------------

def _mask(squares):
    mask = 0
    for s in squares:
        mask |= 1 << s
    return mask


def _unmask(mask, size):
    return frozenset(s for s in all_squares(size) if mask >> s & 1)


def shashki_fen(position):
    """The position's FEN in the game's notation, named by shashki's own square_name."""
    variant = shashki.get_variant(position.rules.name)
    parts = ["W" if position.turn == WHITE else "B"]
    for color in (WHITE, BLACK):
        items = [("K" if p.king else "") + variant.square_name(position.square(c))
                 for c, p in position.board.items() if p.color == color]
        parts.append("WB"[color] + ",".join(items))
    if position.runs:
        # frisian's kings' runs, as the FEN field "+<count><square>" (Black, then White)
        field = ""
        for color in (BLACK, WHITE):
            coord, count = position.runs.get(color, (None, 0))
            field += f"+{count}" + (variant.square_name(position.square(coord)) if count else "")
        parts.append(field)
    return ":".join(parts)


def _text(variant, origin, dest, captured):
    sep = "x" if captured else "-"
    names = [variant.square_name(s) for s in (origin,) + tuple(captured) + (dest,)]
    if not captured:
        return f"{names[0]}-{names[-1]}"
    return f"{names[0]}{sep}{names[-1]} (takes {','.join(names[1:-1])})"


def _listing(variant, moves):
    return "\n".join(f"    {_text(variant, o, d, sorted(t))} routes={r} promotes={p}"
                     for (o, d, t), (r, p) in sorted(moves.items(),
                                                     key=lambda kv: (kv[0][0], kv[0][1],
                                                                     sorted(kv[0][2]))))


def _path_is_a_route(position, move):
    """Whether shashki's path for `move` jumps exactly move.captured, one per leg, over
    otherwise empty squares (captured pieces stay on the board, or in thai leave it as they
    are taken; the origin counts as empty)."""
    occupied = {position.square(c) for c in position.board} - {move.origin}
    if len(move.path) != len(move.captured) + 1:
        return False
    for (a, b), victim in zip(zip(move.path, move.path[1:]), move.captured):
        (fa, ra), (fb, rb) = position.coord(a), position.coord(b)
        if b in occupied or a == b:
            return False
        if position.rules.orthogonal and (fa == fb or ra == rb):
            # frisian: a leg along a rank or a file, over its dark squares (every other one)
            df, dr = 2 * ((fb > fa) - (fb < fa)), 2 * ((rb > ra) - (rb < ra))
            steps = max(abs(fa - fb), abs(ra - rb)) // 2
        elif abs(fa - fb) == abs(ra - rb):
            df, dr = (fb > fa) - (fb < fa), (rb > ra) - (rb < ra)
            steps = abs(fa - fb)
        else:
            return False
        between = [position.square((fa + i * df, ra + i * dr)) for i in range(1, steps)]
        if [s for s in between if s in occupied] != [victim]:
            return False
        if position.rules.removal == "at_once":
            occupied.discard(victim)
    return True


def side(color):
    """shashki's colour for the reference's, which numbers the sides on its own (White 0,
    Black 1; shashki's are python-chess's, WHITE 1): compared by name, never by value."""
    return shashki.WHITE if color == WHITE else shashki.BLACK


def compare(position, kind="example"):
    """Fail, printing the FEN and both move lists, unless shashki agrees with the reference."""
    name = position.rules.name
    variant = shashki.get_variant(name)
    fen = shashki_fen(position)
    board = shashki.Board(name, fen)
    # the FEN carried the position over unchanged
    assert board.turn == side(position.turn), fen
    for coord, piece in position.board.items():
        assert board.piece_at(position.square(coord)) == (side(piece.color), piece.king), fen
    assert bin(board.white | board.black).count("1") == len(position.board), fen

    want = {(o, d, _mask(t)): v for (o, d, t), v in position.moves().items()}
    got = {}
    for move in board.legal_moves:
        got[move.origin, move.destination, move.captured_mask] = (move.routes, move.promotion)
    if got != want:
        shown = {(o, d, _unmask(m, position.size)): v for (o, d, m), v in got.items()}
        expected = {(o, d, _unmask(m, position.size)): v for (o, d, m), v in want.items()}
        message = (f"{name} {fen}: shashki and the reference disagree\n"
                   f"  shashki ({len(got)}):\n{_listing(variant, shown)}\n"
                   f"  reference ({len(want)}):\n{_listing(variant, expected)}")
        print(message)
        pytest.fail(message)

    routes = position.legal_routes()
    assert sum(m.routes for m in board.legal_moves) == (len(routes) or len(want)), fen
    for move in board.legal_moves:
        if move.captured:
            # the route shashki shows is one the rules allow (italian rule 4 picks routes)
            assert (move.origin, move.captured, move.destination) in routes, (fen, str(move))
            assert _path_is_a_route(position, move), (fen, str(move), move.path)
            LONGEST[name] = max(LONGEST[name], len(move.captured))
        assert move.path[0] == move.origin and move.path[-1] == move.destination, (fen, move)
    COMPARED[name, kind] += 1
    return board


# --- the reference against the data -------------------------------------------------------

def test_reference_numbers_squares_as_shashki():
    for name in VARIANTS:
        variant = shashki.get_variant(name)
        size = RULES[name].size
        assert variant.geometry.squares == len(all_squares(size))
        for square in all_squares(size):
            assert square_name(square, RULES[name].notation, size) == variant.square_name(square)
        start = Position.from_fen(name, START_FEN[name])
        assert start.turn == RULES[name].first
        assert shashki.Board(name).fen() == shashki.Board(name, shashki_fen(start)).fen()


def _blocks(filename):
    path = shared_dir() / "perft" / filename
    # without shared/ the module is skipped (conftest); collecting it must still work.
    return [b for b in read_blocks(path) if b.variant in RULES] if path.is_file() else []


def _long_form_move(position, text):
    """The move (origin, destination, captured set) that a long-form capture text spells,
    following it leg by leg on the reference board, or None."""
    notation = position.rules.notation
    squares = [square_from_name(n, notation) for n in re.split(r"[-x:]", text)]
    occupied = {square_of(c) for c in position.board} - {squares[0]}
    taken = []
    for a, b in zip(squares, squares[1:]):
        (fa, ra), (fb, rb) = coord_of(a), coord_of(b)
        if abs(fa - fb) != abs(ra - rb) or fa == fb:
            return None
        df, dr = (fb > fa) - (fb < fa), (rb > ra) - (rb < ra)
        between = [square_of((fa + i * df, ra + i * dr)) for i in range(1, abs(fa - fb))]
        pieces = [s for s in between if s in occupied]
        if len(pieces) != 1:
            return None
        taken.append(pieces[0])
    return squares[0], squares[-1], frozenset(taken)


@pytest.mark.parametrize("block", [b for b in _blocks("published.perft") if b.moves],
                         ids=lambda b: b.id)
def test_reference_published_moves(block):
    position = Position.from_fen(block.variant, block.fen)
    texts = position.move_texts()
    assert len(texts) == len(block.moves), (block.id, sorted(texts, key=str), block.moves)
    for text in block.moves:
        if text in texts:
            continue
        # a long form names every landing square: the move it spells must be one that the
        # reference cannot name by origin and destination alone
        move = _long_form_move(position, text)
        assert move is not None and texts.get(("ambiguous",) + move) == move, (block.id, text)


SMALL = 3000  # leaves the reference counts in a blink


def _small_lines(filename, max_depth):
    for block in _blocks(filename):
        for convention in ("perft", "paths"):
            for depth, count in sorted(getattr(block, convention).items()):
                if depth <= max_depth and count <= SMALL:
                    yield pytest.param(block, convention, depth, count,
                                       id=f"{block.id}-{convention}-{depth}")


@pytest.mark.parametrize("block,convention,depth,count",
                         list(_small_lines("published.perft", 9))
                         + list(_small_lines("start.perft", 9))
                         + list(_small_lines("more/games.perft", 9)))
def test_reference_published_perft(block, convention, depth, count):
    position = Position.from_fen(block.variant, block.fen)
    assert position.perft(depth, paths=convention == "paths") == count


def test_reference_random_perft_suite():
    # every block of random.perft at depth 1 and 2, both conventions (~0.3 s)
    blocks = _blocks("random.perft")
    assert len(blocks) >= 300
    wrong = []
    for block in blocks:
        position = Position.from_fen(block.variant, block.fen)
        for convention in ("perft", "paths"):
            for depth in (1, 2):
                got = position.perft(depth, paths=convention == "paths")
                if got != getattr(block, convention)[depth]:
                    wrong.append((block.id, convention, depth, got))
    assert not wrong


# --- hand-made cases of the rules that random positions reach least often ---------------

def _squares(*names, size=8):
    return frozenset(square_from_name(n, "algebraic", size) for n in names)


def _sq(name, size=8):
    return square_from_name(name, "algebraic", size)


def _position(name, white, black, turn=WHITE):
    """A position from algebraic names (a1 dark, on any board: the reference's geometry)."""
    size = RULES[name].size

    def put(names, color):
        return {coord_of(_sq(n.lstrip("K"), size), size): Piece(color, n.startswith("K"))
                for n in names}

    return Position(name, {**put(white, WHITE), **put(black, BLACK)}, turn)


#: what a man does on reaching the far row mid-capture, per RULES.md
CROWNED_MIDWAY = {"russian": "king", "giveaway": "king", "brazilian": "man", "italian": "stop",
                  "english": "stop", "international": "man", "antidraughts": "man",
                  "breakthrough": "man", "pool": "man", "spanish": "stop", "czech": "stop",
                  "thai": "stop", "frisian": "man", "frysk": "man"}


@pytest.mark.parametrize("name", VARIANTS)
def test_man_crowned_mid_capture(name):
    """The man takes c7 (c9 on 10x10) and lands on d8 (d10), the far row; e7 (e9) is then in
    reach backward.  "king": crowned on d8, goes on as a flying king over e7 to any square
    beyond; "man": goes on as a man, lands right behind e7 and ends a man; "stop": the move
    ends on d8 and the man is crowned."""
    size = RULES[name].size
    top = size  # the far rank's number
    man, prey = f"b{top - 2}", (f"c{top - 1}", f"e{top - 1}")
    position = _position(name, [man], list(prey))
    beyond = [f"f{top - 2}", f"g{top - 3}", f"h{top - 4}"]
    expected = {"king": {d: (prey, True) for d in beyond},
                "man": {beyond[0]: (prey, False)},
                "stop": {f"d{top}": (prey[:1], True)}}[CROWNED_MIDWAY[name]]
    want = {(_sq(man, size), _sq(d, size), _squares(*taken, size=size)): (1, crowned)
            for d, (taken, crowned) in expected.items()}
    assert position.moves() == want
    compare(position)


@pytest.mark.parametrize("name", [n for n in VARIANTS if RULES[n].landing == "beyond"])
@pytest.mark.parametrize("kings", [(), ("d4",), ("f4",), ("d4", "d2"), ("f4", "f2")])
def test_capture_round_a_square(name, kings):
    """A king on c3 takes d4, f4, f2, d2 in either direction round the square and may land
    back on c3, its own origin (which counts as empty).  The two directions are two routes of
    one move, except in italian when one of them meets a black king earlier (rule 4): the
    kinds in capture order are read forwards one way and backwards the other."""
    size = RULES[name].size
    ring = ("d4", "f4", "f2", "d2")
    position = _position(name, ["Kc3"], ["K" + n if n in kings else n for n in ring])
    moves = position.moves()
    home = (_sq("c3", size), _sq("c3", size), _squares(*ring, size=size))
    kinds = [n in kings for n in ring]
    one_way = name == "italian" and kinds != kinds[::-1]
    assert moves[home] == (1 if one_way else 2, False)
    if one_way:
        (route,) = [k for k in position.legal_routes() if k[2] == _sq("c3")]
        first_king = min(ring.index(n) for n in kings)
        assert route[1][0] == _sq(ring[0] if first_king < 2 else ring[-1])
    compare(position)


def _named_moves(position):
    size = position.size
    name = lambda s: square_name(s, "algebraic", size)  # noqa: E731
    return {(name(o), name(d), tuple(sorted(name(s) for s in t))): v
            for (o, d, t), v in position.moves().items()}


def test_frisian_routes_of_one_order_count_once():
    """Black's three kings among fourteen white kings: 1,029 routes of the best class (5,156
    before the choice), more than the kernel's first table of routes (64) holds, which then
    grows on the heap.  Routes that take the same pieces in the same order from the same
    origin to the same destination, landing elsewhere between, are one route."""
    fen = "B:WK44,K36,K38,K27,K29,K30,K22,K23,K17,K13,K15,K6,K9,K10:BK46,K49,K45"
    position = Position.from_fen("frisian", fen)
    assert len(position.legal_routes()) == 1029 and len(position.moves()) == 53
    board = compare(position, "example")
    assert board.perft(1, paths=True) == 1029 and board.perft(1) == 53
    assert board.perft(2, paths=True) == position.perft(2, paths=True)


def test_thai_king_lands_right_behind():
    # a flying king reaches d4 from a1 across b2, c3, but lands on e5 only (czech: anywhere)
    assert _named_moves(_position("thai", ["Ka1"], ["d4"])) == {
        ("a1", "e5", ("d4",)): (1, False)}
    assert {d for _, d, _ in _named_moves(_position("czech", ["Ka1"], ["d4"]))} == {
        "e5", "f6", "g7", "h8"}
    for name in ("thai", "czech"):
        compare(_position(name, ["Ka1"], ["d4"]))


def test_thai_removes_each_captured_piece_at_once():
    """h4 takes g5, e7, c7, d4 and f4 and lands on g5, the square of the first piece it took:
    that piece has left the board (no Turkish strike), so the square is free."""
    position = _position("thai", ["Kh4"], ["d4", "f4", "g5", "c7", "e7"])
    moves = _named_moves(position)
    assert moves[("h4", "g5", ("c7", "d4", "e7", "f4", "g5"))] == (1, False)
    assert position.legal_routes()[(_sq("h4"), tuple(map(_sq, ("g5", "e7", "c7", "d4", "f4"))),
                                    _sq("g5"))] is False
    compare(position)
    # RULES.md names no ban on turning back: d6 takes c7, lands on b8 and comes back the
    # same way over the square c7 has left, to take f4 (under the Turkish strike c7 blocks)
    position = _position("thai", ["Kd6"], ["f4", "c7"])
    assert _named_moves(position) == {("d6", "g3", ("c7", "f4")): (1, False),
                                      ("d6", "b8", ("c7", "f4")): (1, False)}
    compare(position)


def test_czech_king_capture_comes_first():
    # the man on a3 could take two (b4, d6); the king on h2 takes one (d6), and must
    white, black = ["a3", "Kh2"], ["b4", "d6"]
    position = _position("czech", white, black)
    assert set(_named_moves(position)) == {("h2", "c7", ("d6",)), ("h2", "b8", ("d6",))}
    compare(position)
    # russian (free choice) may take with either
    russian = _named_moves(_position("russian", white, black))
    assert {o for o, _, _ in russian} == {"a3", "h2"}


def test_spanish_most_pieces_then_most_kings():
    # a3 takes the king on b4, g3 the man on f4: one piece each, and the king must be taken
    position = _position("spanish", ["a3", "g3"], ["Kb4", "f4"])
    assert set(_named_moves(position)) == {("a3", "c5", ("b4",))}
    compare(position)
    # but e1 taking two men (f2, f4) beats a3 taking the one king
    position = _position("spanish", ["a3", "e1"], ["Kb4", "f2", "f4"])
    assert set(_named_moves(position)) == {("e1", "e5", ("f2", "f4"))}
    compare(position)


# --- positions for the cross-check ---------------------------------------------------------

def max_pieces(size):
    """The men a side starts with on this board (12, 20): more than enough per side."""
    return size // 2 * (size // 2 - 1)


def _crown_if_on_far_row(coord, color, king, size):
    """Men never stand on their own promotion row: such a piece is a king."""
    far = size - 1 if color == WHITE else 0
    return Piece(color, king or coord[1] == far)


def masks(size):
    """One bit a dark square."""
    return st.integers(0, 2 ** len(all_squares(size)) - 1)


def _bits(mask, items):
    return [item for i, item in enumerate(items) if mask >> i & 1]


@st.composite
def random_placements(draw, name, max_per_side=None):
    """1..max_per_side pieces a side anywhere, about half of them kings.  Positions are drawn
    as a few masks, one bit a square: hypothesis spends far more time per draw than the
    comparison takes, and masks shrink well (fewer pieces, fewer kings)."""
    size = RULES[name].size
    limit = max_per_side or max_pieces(size)
    occupied = draw(masks(size))
    if draw(st.booleans()):
        occupied &= draw(masks(size))  # sparser boards, about a quarter of the squares
    colors, kings = draw(masks(size)), draw(masks(size))
    board = {}
    for square in _bits(occupied, all_squares(size)):
        color = colors >> square & 1
        if sum(p.color == color for p in board.values()) < limit:
            coord = coord_of(square, size)
            board[coord] = _crown_if_on_far_row(coord, color, kings >> square & 1, size)
    assume({p.color for p in board.values()} == {WHITE, BLACK})
    return with_runs(draw, Position(name, board, draw(st.sampled_from((WHITE, BLACK)))))


def with_runs(draw, position):
    """Frisian: kings' runs for either side that has kings and men (a count of 3 forbids the
    king a quiet move), else the position as it is."""
    limit = position.rules.king_limit
    if not limit:
        return position
    for color in (WHITE, BLACK):
        kings = sorted(c for c, p in position.board.items() if p.color == color and p.king)
        if kings and position.has_men(color) and draw(st.booleans()):
            position.runs[color] = (draw(st.sampled_from(kings)), draw(st.integers(1, limit)))
    return position


@st.composite
def king_hunts(draw, name):
    """One to three kings of the side to move among scattered enemy pieces off the edges:
    the shapes that make long captures, many landing squares and several routes to one
    move.  In a "raid" the hunters are men two to four rows from their far row instead, so
    that captures crown a man midway (and go on as a king, as a man, or stop, per game).
    A few men of either side add blockers and competing captures."""
    size = RULES[name].size
    inner, squares = interior(size), dark(size)
    most_prey = 10 if size == 8 else 16
    mover = draw(st.sampled_from((WHITE, BLACK)))
    prey = []
    for coord in _bits(draw(st.integers(0, 2 ** len(inner) - 1)), inner):
        # no two prey diagonally adjacent: gaps to land in make the long captures
        if len(prey) < most_prey and not any(abs(coord[0] - f) == 1 and abs(coord[1] - r) == 1
                                             for f, r in prey):
            prey.append(coord)
    prey_kings = draw(st.integers(0, 2 ** most_prey - 1))
    board = {c: Piece(1 - mover, bool(prey_kings >> i & 1)) for i, c in enumerate(prey)}
    raid = draw(st.booleans())
    if raid:
        ranks = (size - 5, size - 4, size - 3) if mover == WHITE else (2, 3, 4)
        spots = [c for c in squares if c[1] in ranks]
    else:
        spots = squares
    for index in draw(st.lists(st.integers(0, len(spots) - 1), min_size=1, max_size=3)):
        board.setdefault(spots[index], Piece(mover, not raid))
    extra = draw(masks(size)) & draw(masks(size)) & draw(masks(size))  # an eighth of them
    colors = draw(masks(size))
    for square in _bits(extra, all_squares(size)):
        coord, color = coord_of(square, size), colors >> square & 1
        if coord not in board and sum(p.color == color for p in board.values()) < max_pieces(size):
            board[coord] = _crown_if_on_far_row(coord, color, False, size)
    assume(len(prey) >= 2 and any(p.color == mover for p in board.values()))
    return with_runs(draw, Position(name, board, mover))


def _both_sides(position):
    """The position and the same pieces with the other side to move."""
    other = position.copy()
    other.turn = 1 - position.turn
    return position, other


# --- the cross-check ------------------------------------------------------------------------

# ~150 examples of each kind, 300 positions each, per game: hypothesis's own cost per example
# (about 2 ms) is several times the comparison's, so this is what keeps the run to seconds
PLACES = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CROSS_CHECKED = [n for n in VARIANTS if n not in SAME_MOVES]


@pytest.mark.parametrize("name", CROSS_CHECKED)
@PLACES
@given(data=st.data())
def test_random_placements(name, data):
    for position in _both_sides(data.draw(random_placements(name), label="position")):
        compare(position, "placement")


@pytest.mark.parametrize("name", CROSS_CHECKED)
@PLACES
@given(data=st.data())
def test_king_hunts(name, data):
    for position in _both_sides(data.draw(king_hunts(name), label="position")):
        compare(position, "king hunt")


@pytest.mark.parametrize("name", sorted(SAME_MOVES))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_same_moves_as_international(name, data):
    """antidraughts and breakthrough move as international does: their records are checked
    on fewer positions, and each must list international's moves exactly."""
    strategy = st.one_of(random_placements(name), king_hunts(name))
    for position in _both_sides(data.draw(strategy, label="position")):
        board = compare(position, "same moves")
        same = shashki.Board("international", board.fen())
        assert sorted(map(str, board.legal_moves)) == sorted(map(str, same.legal_moves))


@pytest.mark.parametrize("name", CROSS_CHECKED)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_random_games(name, seed):
    """Play a random game from the start (to its end, or 200 plies) with the reference's
    moves, comparing every position, and the position shashki reaches by pushing the same
    move.  The seed drives the game: a game is too long for hypothesis to draw move by move
    in the time budget, and a failure prints the FEN where it went wrong."""
    rng = random.Random(seed)
    position = Position.from_fen(name, START_FEN[name])
    board = compare(position, "game")
    for _ in range(200):
        moves = sorted(position.moves().items(),
                       key=lambda kv: (kv[0][0], kv[0][1], sorted(kv[0][2])))
        if not moves:
            break
        (origin, dest, taken), (_, promoted) = rng.choice(moves)
        fen = board.fen()
        pushed = next(m for m in board.legal_moves
                      if (m.origin, m.destination, m.captured_mask)
                      == (origin, dest, _mask(taken)))
        board.push(pushed)
        position = position.play((origin, dest, taken), promoted)
        assert board.fen() == shashki.Board(name, shashki_fen(position)).fen(), \
            (name, fen, str(pushed))
        board = compare(position, "game")


@pytest.mark.parametrize("name", CROSS_CHECKED)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_perft_against_reference(name, data):
    strategy = st.one_of(random_placements(name, max_per_side=6), king_hunts(name))
    position = data.draw(strategy, label="position")
    board = shashki.Board(name, shashki_fen(position))
    for paths in (False, True):
        for depth in (1, 2, 3):
            want = position.perft(depth, paths)
            got = board.perft(depth, paths=paths)
            assert got == want, (f"{name} {board.fen()} perft {depth} paths={paths}: "
                                 f"shashki {got}, reference {want}")
            if want > 2000:
                break  # deeper would be slow in the reference


def test_zz_report_counts():
    """Print how many positions each game compared (visible with -s) and check that the
    king hunts did make long captures."""
    kinds = sorted({kind for _, kind in COMPARED})
    print("\npositions compared with the reference:")
    for name in VARIANTS:
        counts = ", ".join(f"{kind} {COMPARED[name, kind]}" for kind in kinds)
        total = sum(COMPARED[name, kind] for kind in kinds)
        print(f"  {name:13} {total:5}  ({counts}; longest capture {LONGEST[name]})")
    # the games whose king hunts ran (all of them, unless -k picked some)
    hunted = [name for name in CROSS_CHECKED if COMPARED[name, "king hunt"]]
    assert all(LONGEST[name] >= 4 for name in hunted), dict(LONGEST)
