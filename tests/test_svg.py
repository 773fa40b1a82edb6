"""shashki.svg: the pictures parse as SVG, hold the right pieces, and put every square where
its game's players see it (RULES.md "Squares, notation and FEN").  No rendering library: the
geometry is read back from the XML."""

import random
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

import shashki
import shashki.svg
from shashki.errors import InvalidSquareError

NS = "{http://www.w3.org/2000/svg}"
VARIANTS = ["russian", "giveaway", "brazilian", "italian", "english"]
CELL = 45  # the size of a square in the picture's units (its viewBox)


class Picture:
    """An SVG board read back: its squares and pieces by screen cell (column, row from the
    top-left)."""

    def __init__(self, text):
        self.root = ET.fromstring(text)  # raises on text that is not well-formed XML
        assert self.root.tag == NS + "svg"
        extent = float(self.root.get("viewBox").split()[2])
        self.margin = (extent - 8 * CELL) / 2
        self.squares = {}  # cell -> (classes, attributes)
        for rect in self.root.iter(NS + "rect"):
            classes = rect.get("class", "").split()
            if classes[:1] == ["square"]:
                self.squares[self.cell(float(rect.get("x")), float(rect.get("y")))] = (
                    classes, rect.attrib)
        self.pieces = []  # (color, kind, name of its square, cell)
        for group in self.root.iter(NS + "g"):
            classes = group.get("class", "").split()
            if classes[:1] == ["piece"]:
                circle = group.find(NS + "circle")
                cell = self.cell(float(circle.get("cx")) - CELL / 2,
                                 float(circle.get("cy")) - CELL / 2)
                self.pieces.append((classes[1], classes[2], group.get("data-square"), cell))

    def cell(self, x, y):
        column, row = (x - self.margin) / CELL, (y - self.margin) / CELL
        assert column == int(column) and row == int(row), (x, y)
        return int(column), int(row)

    def cell_named(self, name):
        """The cell of the square whose class (algebraic label) or number is `name`."""
        found = [cell for cell, (classes, attrib) in self.squares.items()
                 if name in classes[2:] or attrib.get("data-number") == name]
        assert len(found) == 1, (name, found)
        return found[0]

    def shade(self, cell):
        return self.squares[cell][0][1]

    def elements(self, cls):
        return [e for e in self.root.iter() if cls in e.get("class", "").split()]

    def texts(self, cls):
        return [(float(e.get("x")), float(e.get("y")), e.text) for e in self.elements(cls)]


def picture(board, **options):
    return Picture(shashki.svg.board(board, **options))


def expected_cell(variant, name):
    """Where the square `name` of a game stands seen from White, straight from the numbering
    facts of RULES.md (not from shashki.squares)."""
    if variant in ("italian", "english"):
        n = int(name) - 1
        row = n // 4
        # english: 1 = b8 (the top row starts light); italian: 1 = the top-left square
        first_dark = (row + (1 if variant == "english" else 0)) % 2
        return first_dark + 2 * (n % 4), row
    return "abcdefgh".index(name[0]), 8 - int(name[1])


@pytest.mark.parametrize("variant", VARIANTS)
def test_start_position_pieces_and_squares(variant):
    pic = picture(shashki.Board(variant))
    assert len(pic.squares) == 64
    assert sum(pic.shade(c) == "dark" for c in pic.squares) == 32
    assert len(pic.pieces) == 24
    assert all(kind == "man" for _, kind, _, _ in pic.pieces)
    for color, _, name, cell in pic.pieces:
        assert cell == expected_cell(variant, name)
        assert pic.shade(cell) == "dark"
        # White at the bottom (rows 5-7 from the top), Black at the top
        assert cell[1] >= 5 if color == "white" else cell[1] <= 2
    assert sum(color == "white" for color, *_ in pic.pieces) == 12


@pytest.mark.parametrize("variant", ["russian", "giveaway", "brazilian", "english"])
def test_dark_corner_at_whites_bottom_left(variant):
    pic = picture(shashki.Board(variant))
    assert pic.shade((0, 7)) == "dark"
    assert pic.shade((7, 7)) == "light"
    assert pic.cell_named("a1") == (0, 7)
    if variant == "english":
        assert pic.cell_named("1") == (1, 0)    # b8
        assert pic.cell_named("4") == (7, 0)    # h8
        assert pic.cell_named("29") == (0, 7)   # a1
        assert pic.cell_named("32") == (6, 7)   # g1


def test_italian_is_mirrored():
    russian = picture(shashki.Board("russian"))
    italian = picture(shashki.Board("italian"))
    # italian a1 is the light bottom-left corner, h1 the dark bottom-right one
    assert italian.cell_named("a1") == russian.cell_named("a1") == (0, 7)
    assert italian.shade((0, 7)) == "light" and russian.shade((0, 7)) == "dark"
    assert italian.shade((7, 7)) == "dark"
    assert italian.cell_named("32") == (7, 7)
    assert italian.cell_named("1") == (0, 0)
    # the same internal square (0: russian a1, italian 32) is drawn in opposite corners
    assert shashki.get_variant("italian").square_name(0) == "32"


@pytest.mark.parametrize("variant", VARIANTS)
def test_flipped_turns_the_board_half_a_turn(variant):
    board = shashki.Board(variant)
    plain, flipped = picture(board), picture(board, flipped=True)
    assert plain.root.get("class") == flipped.root.get("class")
    assert len(flipped.pieces) == 24
    plain_cells = {name: cell for _, _, name, cell in plain.pieces}
    for color, _, name, (column, row) in flipped.pieces:
        assert plain_cells[name] == (7 - column, 7 - row)
        assert row <= 2 if color == "white" else row >= 5
    # the file letters run h..a along the bottom edge when flipped
    bottom = sorted(t for t in flipped.texts("file") if t[1] > 200)
    assert [letter for _, _, letter in bottom] == list("hgfedcba")
    bottom = sorted(t for t in plain.texts("file") if t[1] > 200)
    assert [letter for _, _, letter in bottom] == list("abcdefgh")


def test_coordinates_and_square_numbers():
    russian = picture(shashki.Board("russian"))
    assert len(russian.texts("file")) == 16 and len(russian.texts("rank")) == 16
    assert russian.texts("square-number") == []
    for variant in ("italian", "english"):
        pic = picture(shashki.Board(variant))
        numbers = pic.texts("square-number")
        assert sorted(int(n) for _, _, n in numbers) == list(range(1, 33))
        for x, y, number in numbers:
            # each number sits inside its own (dark) square
            cell = (int((x - pic.margin) // CELL), int((y - pic.margin) // CELL))
            assert cell == expected_cell(variant, number)
    bare = picture(shashki.Board("english"), coordinates=False)
    assert bare.margin == 0
    assert bare.texts("file") == bare.texts("square-number") == []
    assert len(bare.pieces) == 24


def test_kings_are_drawn_as_kings():
    board = shashki.Board("russian", fen="W:WKa1,e3,g3,a3,c1:Bb2,e5,f6,Kh4,c7,b6,g7,h8,d8")
    pic = picture(board)
    kinds = sorted((color, kind, name) for color, kind, name, _ in pic.pieces)
    assert ("white", "king", "a1") in kinds and ("black", "king", "h4") in kinds
    assert sum(kind == "king" for _, kind, _ in kinds) == 2
    assert len(kinds) == 14  # 5 white, 9 black
    # a king carries a crown, a man does not
    assert len(pic.elements("crown")) == 2


def test_last_move_capture_highlights_route_and_captured():
    board = shashki.Board("russian", fen="W:WKa1,e3,g3,a3,c1:Bb2,e5,f6,Kh4,c7,b6,g7,h8,d8")
    move = board.push("a1:a7")  # the king takes b2 and b6, turning on d4
    pic = picture(board, last_move=move)
    ends = {pic.cell((float(e.get("x"))), float(e.get("y")))
            for e in pic.elements("lastmove") if e.tag == NS + "rect"
            and e.get("class") == "lastmove"}
    assert ends == {pic.cell_named("a1"), pic.cell_named("a7")}
    captured = {pic.cell(float(e.get("x")), float(e.get("y")))
                for e in pic.elements("captured")}
    assert captured == {pic.cell_named("b2"), pic.cell_named("b6")}
    path = [e for e in pic.elements("path") if e.tag == NS + "rect"]
    assert [pic.cell(float(e.get("x")), float(e.get("y"))) for e in path] == [
        pic.cell_named("d4")]
    assert len(pic.elements("cross")) == 2
    assert len(pic.elements("route")) == 1
    assert not picture(board).elements("lastmove")


def test_last_move_quiet():
    board = shashki.Board("italian")
    move = board.push("22-18")
    pic = picture(board, last_move=move)
    cells = {pic.cell(float(e.get("x")), float(e.get("y"))) for e in pic.elements("lastmove")}
    assert cells == {pic.cell_named("22"), pic.cell_named("18")}
    assert not pic.elements("captured") and not pic.elements("route")


def test_arrows():
    board = shashki.Board("english")
    move = next(iter(board.legal_moves))
    pic = picture(board, arrows=[move, (9, 13), ("22", "17"), ("21", "21")])
    assert len(pic.elements("arrow")) == 4
    assert len([e for e in pic.elements("arrow") if e.tag == NS + "circle"]) == 1


def test_capture_arrow_follows_the_route():
    board = shashki.Board("italian", fen="W:W22,K23:BK18,19,K10")
    moves = sorted(board.legal_moves, key=str)
    assert [str(m) for m in moves] == ["23x21", "23x5"]
    pic = picture(board, arrows=moves)
    shafts = [g.find(NS + "polyline") for g in pic.elements("arrow")]
    # two legs each: origin, the landing square 14, then towards the destination
    assert [len(s.get("points").split()) for s in shafts] == [3, 3]
    for shaft in shafts:
        x, y = map(float, shaft.get("points").split()[1].split(","))
        assert pic.cell(x - CELL / 2, y - CELL / 2) == pic.cell_named("14")


@pytest.mark.parametrize("options, error", [
    ({"arrows": [(0, 32)]}, InvalidSquareError),
    ({"arrows": [(-1, 3)]}, InvalidSquareError),
    ({"arrows": [("z9", "c3")]}, InvalidSquareError),
    ({"arrows": [("c4", "d5")]}, InvalidSquareError),   # light square
    ({"arrows": [("22", "18")]}, InvalidSquareError),   # numbers in an algebraic game
    ({"arrows": [(0, 1, 2)]}, TypeError),
    ({"arrows": "c3d4"}, TypeError),
    ({"arrows": [(0.5, 1)]}, TypeError),
    ({"last_move": "c3-d4"}, TypeError),
    ({"colors": {"squar dark": "#000"}}, ValueError),
    ({"colors": {"square dark": '"/><script>'}}, ValueError),
    ({"size": -3}, ValueError),
    ({"size": "400"}, TypeError),
])
def test_bad_arguments_raise(options, error):
    with pytest.raises(error):
        shashki.svg.board(shashki.Board("russian"), **options)


def test_size_and_colors():
    root = picture(shashki.Board("russian"), size=123,
                   colors={"square dark": "#123456"}).root
    assert root.get("width") == root.get("height") == "123"
    dark = [r for r in root.iter(NS + "rect") if "dark" in r.get("class", "").split()]
    assert {r.get("fill") for r in dark} == {"#123456"}


def test_repr_svg_shows_the_last_move():
    board = shashki.Board("brazilian")
    assert board._repr_svg_() == shashki.svg.board(board)
    move = board.push("c3-d4")
    assert board._repr_svg_() == shashki.svg.board(board, last_move=move)
    assert Picture(board._repr_svg_()).elements("lastmove")


def test_random_positions_draw_every_piece():
    rng = random.Random(6)
    for game in range(25):
        board = shashki.Board(VARIANTS[game % 5])
        for _ in range(rng.randrange(120)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        last = board.peek() if board.move_stack else None
        for flipped in (False, True):
            pic = picture(board, flipped=flipped, last_move=last)
            drawn = sorted((color, kind, name) for color, kind, name, _ in pic.pieces)
            expected = sorted(
                ("white" if piece[0] == shashki.WHITE else "black",
                 "king" if piece[1] else "man", board.variant.square_name(square))
                for square in range(board.variant.geometry.squares)
                if (piece := board.piece_at(square)) is not None)
            assert drawn == expected
            for _, _, name, cell in pic.pieces:
                expected_at = expected_cell(board.variant.name, name)
                if flipped:
                    expected_at = (7 - expected_at[0], 7 - expected_at[1])
                assert cell == expected_at


def test_import_shashki_does_not_load_svg():
    code = "import sys, shashki; print('shashki.svg' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("flipped", [False, True])
def test_cells_are_where_board_draws_each_square(variant, flipped):
    """svg.cells, the layout for boards drawn elsewhere (the page of shashki serve), puts
    every square where board() draws it, and where RULES.md says it stands."""
    board = shashki.Board(variant)
    cells = shashki.svg.cells(board.variant, flipped)
    drawn = picture(board, flipped=flipped)
    names = [board.variant.square_name(s) for s in range(32)]
    for color, kind, name, cell in drawn.pieces:
        assert cells[names.index(name)] == cell
    for square, name in enumerate(names):
        column, row = expected_cell(variant, name)
        assert cells[square] == ((7 - column, 7 - row) if flipped else (column, row))
