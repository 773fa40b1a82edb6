"""PDN FEN reading and writing (RULES.md "Squares, notation and FEN")."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shashki import BLACK, WHITE, Board, InvalidFenError, Position, get_variant
from shashki.fen import parse_fen

from mutation import mutated

VARIANTS = ["russian", "giveaway", "brazilian", "italian", "english"]
ALGEBRAIC = ["russian", "giveaway", "brazilian"]
SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def file_rank(square):
    # shashki's squares run a1=0, c1=1, e1=2, g1=3, b2=4, ... h8=31 (row by row from White)
    rank = square // 4
    return 2 * (square % 4) + rank % 2, rank


def algebraic(square):
    file, rank = file_rank(square)
    return "abcdefgh"[file] + str(rank + 1)


def english_number(square):
    # RULES.md: 1 = b8 ... 4 = h8, then row by row down to 29 = a1 ... 32 = g1
    file, rank = file_rank(square)
    return 4 * (7 - rank) + file // 2 + 1


def squares_of(mask):
    return [s for s in range(32) if mask >> s & 1]


@st.composite
def positions(draw):
    """(white, black, kings, turn) masks of a valid position: at most 12 pieces a side, no man
    on its own promotion row."""
    order = draw(st.permutations(range(32)))
    n_white = draw(st.integers(0, 12))
    n_black = draw(st.integers(0, 12))
    white = order[:n_white]
    black = order[n_white:n_white + n_black]
    kings = 0
    for s in white + black:
        crowned = (s in white and s >= 28) or (s in black and s < 4)
        if crowned or draw(st.booleans()):
            kings |= 1 << s
    return (sum(1 << s for s in white), sum(1 << s for s in black), kings,
            draw(st.sampled_from([WHITE, BLACK])))


def section(letter, squares, kings, name):
    return letter + ",".join(("K" if kings >> s & 1 else "") + name(s) for s in squares)


# --- writing and reading back ----------------------------------------------------------------

@SETTINGS
@given(variant=st.sampled_from(VARIANTS), position=positions())
def test_read_write_is_stable(variant, position):
    # the one FEN writer (the core's: Position.fen) and the reader agree
    v = get_variant(variant)
    fen = Position.from_masks(v, *position).fen()
    white, black, kings, turn, counters = parse_fen(fen, v)
    assert (white, black, kings, turn) == position
    assert counters == {}
    assert Position.from_masks(v, white, black, kings, turn).fen() == fen
    assert Board(variant, fen).fen() == fen


@SETTINGS
@given(variant=st.sampled_from(VARIANTS), position=positions(), data=st.data())
def test_other_spellings_of_a_position_read_the_same(variant, position, data):
    """Either colour order, a trailing dot, spaces, lowercase letters, quotes, single squares
    instead of ranges: all read as the same position."""
    v = get_variant(variant)
    white, black, kings, turn = position
    name = v.square_name
    sections = [section("W", squares_of(white), kings, name),
                section("B", squares_of(black), kings, name)]
    if data.draw(st.booleans()):
        sections.reverse()
    fen = ":".join(["W" if turn == WHITE else "B"] + sections)
    if data.draw(st.booleans()):
        fen += "."
    if data.draw(st.booleans()):
        fen = " " + fen.replace(",", ", ").replace(":", " : ") + "\n"
    if data.draw(st.booleans()):
        fen = fen.lower()
    if data.draw(st.booleans()):
        fen = '"' + fen + '"'
    assert parse_fen(fen, v)[:4] == position


@SETTINGS
@given(variant=st.sampled_from(ALGEBRAIC), position=positions(), numeric=st.data())
def test_algebraic_games_read_numeric_squares_in_english_numbering(variant, position, numeric):
    v = get_variant(variant)
    white, black, kings, turn = position
    def name(square):  # each square in either notation, chosen per square
        return str(english_number(square)) if numeric.draw(st.booleans()) else algebraic(square)

    fen = ":".join(["W" if turn == WHITE else "B", section("W", squares_of(white), kings, name),
                    section("B", squares_of(black), kings, name)])
    assert parse_fen(fen, v)[:4] == position
    # and it writes algebraic squares
    assert Board(variant, fen).fen() == Position.from_masks(v, *position).fen()


def test_start_positions():
    for variant in VARIANTS:
        v = get_variant(variant)
        white, black, kings, turn, _ = parse_fen(v.start_fen, v)
        assert bin(white).count("1") == bin(black).count("1") == 12
        assert white == 0x00000FFF and black == 0xFFF00000 and kings == 0
        assert turn == v.first_to_move
    assert Board("italian").fen() == "W:W21-32:B1-12"
    assert Board("english").fen() == "B:W21-32:B1-12"


@pytest.mark.parametrize("variant, fen, white, black, kings", [
    ("russian", "B:W29:B", ["a1"], [], []),
    ("russian", "W:W:B", [], [], []),
    ("russian", "W:B4,K5:WK29.", ["a1"], ["h8", "a7"], ["a1", "a7"]),
    ("russian", "W:Wc3,K1-3:B", ["c3", "b8", "d8", "f8"], [], ["b8", "d8", "f8"]),
    ("russian", "W:W30-32:B", ["c1", "e1", "g1"], [], []),
    ("english", "B:W18,K5:B1-3", ["d4", "a7"], ["b8", "d8", "f8"], ["a7"]),
    ("russian", "W:WC3,kE5:BH6:H0:F12", ["c3", "e5"], ["h6"], ["e5"]),
    ("russian", "W:Wc3,e3:", ["c3", "e3"], [], []),
])
def test_readings(variant, fen, white, black, kings):
    w, b, k, _, _ = parse_fen(fen, get_variant(variant))
    assert sorted(map(algebraic, squares_of(w))) == sorted(white)
    assert sorted(map(algebraic, squares_of(b))) == sorted(black)
    assert sorted(map(algebraic, squares_of(k))) == sorted(kings)


def test_italian_numbers_mirror_the_board():
    # RULES.md: italian 1 is the top-left dark square seen from White on a mirrored board, so
    # its square 1 is english 4 (h8 on shashki's unmirrored board), and White's corner 29 is h1
    w, b, k, _, _ = parse_fen("W:W29:B1", get_variant("italian"))
    assert squares_of(w) == [3] and squares_of(b) == [31]


def test_counters_are_returned():
    v = get_variant("brazilian")
    assert parse_fen("W:Wa1:Bh8:H7:F30", v)[4] == {"H": 7, "F": 30}


# --- errors name the problem -----------------------------------------------------------------

@pytest.mark.parametrize("variant, fen, words", [
    ("russian", "", "empty"),
    ("russian", "   ", "empty"),
    ("russian", "W:W21;22:B1", "unknown character ';'"),
    ("russian", "W:Wc3,e3:Bf6/h6", "unknown character '/'"),
    ("russian", "W:Wc3:Bf6\u00e9", "unknown character"),
    ("russian", "W:W\u0661:B1", "unknown character"),  # an arabic-indic digit
    ("russian", "X:W21:B1", "unknown character 'X'"),
    ("russian", "H:W21:B1", "bad side to move"),
    ("russian", "WB:W21:B1", "bad side to move"),
    ("russian", "W21:B1", "bad side to move"),
    ("russian", "W", "no pieces"),
    ("russian", "W:W33:B1", "33 in a FEN is out of range"),
    ("russian", "W:W0:B1", "out of range"),
    ("russian", "W:W" + "9" * 5000 + ":B1", "out of range"),
    ("russian", "W:Wi9:B1", "off the board"),
    ("russian", "W:Wa9:B1", "off the board"),
    ("russian", "W:Wa1:Bb1", "b1 is a light square"),
    ("english", "B:Wc3:B1", "numbers 1-32"),
    ("italian", "W:W21:Bh8", "numbers 1-32"),
    ("russian", "W:Wc3,c3:B1", "c3 is used twice"),
    ("russian", "W:W21,22:B22", "used twice"),
    ("russian", "W:W20-25:B21", "used twice"),
    ("english", "B:W21-32:B12,K12", "used twice"),
    ("russian", "W:Wb8:Bh6", "white man on b8, its own promotion row"),
    ("russian", "W:W21:Bc1", "black man on c1, its own promotion row"),
    ("english", "B:W1:B12", "white man on 1, its own promotion row"),
    ("italian", "W:W21:B30", "black man on 30, its own promotion row"),
    ("russian", "W:W1-13:B", "more than 12 white pieces"),
    ("english", "B:W21-32:B1-12,13", "more than 12 black pieces"),
    ("russian", "W:W21:B1:W22", "white pieces are listed twice"),
    ("russian", "W:W21:Q1", "bad colour 'Q'"),
    ("russian", "W:W21,,22:B1", "empty square"),
    ("russian", "W:WK:B1", "K without a square"),
    ("russian", "W:W25-21:B1", "runs backwards"),
    ("russian", "W:Wa1-c3:B1", "range"),
    ("russian", "W:W1-2-3:B1", "range"),
    ("russian", "W:W21:B1:H1:H2", "counter H is given twice"),
    ("russian", "W:W21..", "unknown character '.'"),
])
def test_errors_name_the_problem(variant, fen, words):
    with pytest.raises(InvalidFenError, match=None) as info:
        parse_fen(fen, get_variant(variant))
    assert words in str(info.value), str(info.value)


@pytest.mark.parametrize("bad", [None, 12, b"W:W21:B1", ["W:W21:B1"]])
def test_a_fen_must_be_a_string(bad):
    with pytest.raises(InvalidFenError, match="must be a string"):
        parse_fen(bad, get_variant("russian"))


def test_men_on_their_own_back_row_and_kings_anywhere_are_fine():
    v = get_variant("russian")
    white, black, kings, _, _ = parse_fen("W:Wc1,Kb8:Bh8,Ka1", v)
    assert squares_of(white) == [1, 28] and squares_of(black) == [0, 31]
    assert squares_of(kings) == [0, 28]


# --- fuzzing ---------------------------------------------------------------------------------

FEN_ALPHABET = "WBKwbkHF:,-. 0123456789abcdefghij\"x;"


def check_read(fen, v):
    """Read `fen`: either InvalidFenError, or a well-formed position that writes stably."""
    try:
        white, black, kings, turn, _ = parse_fen(fen, v)
    except InvalidFenError as error:
        assert str(error)
        return None
    assert white & black == 0
    assert kings & ~(white | black) == 0
    assert bin(white).count("1") <= 12 and bin(black).count("1") <= 12
    assert not (white & ~kings & 0xF0000000) and not (black & ~kings & 0x0000000F)
    assert turn in (WHITE, BLACK)
    written = Position.from_masks(v, white, black, kings, turn).fen()
    assert parse_fen(written, v)[:4] == (white, black, kings, turn)
    return written


@settings(max_examples=250, deadline=None)
@given(variant=st.sampled_from(VARIANTS), text=st.text(max_size=80))
def test_random_text_only_raises_invalid_fen(variant, text):
    check_read(text, get_variant(variant))


@settings(max_examples=250, deadline=None)
@given(variant=st.sampled_from(VARIANTS), text=st.text(alphabet=FEN_ALPHABET, max_size=60))
def test_fen_like_text_only_raises_invalid_fen(variant, text):
    check_read(text, get_variant(variant))


@st.composite
def mutated_fens(draw):
    variant = draw(st.sampled_from(VARIANTS))
    v = get_variant(variant)
    fen = Position.from_masks(v, *draw(positions())).fen()
    return variant, draw(mutated(fen, st.sampled_from(FEN_ALPHABET),
                                 edits=("insert", "delete", "replace", "duplicate"), max_span=6))


@settings(max_examples=300, deadline=None)
@given(mutated_fens())
def test_mutated_fens_only_raise_invalid_fen(case):
    variant, fen = case
    check_read(fen, get_variant(variant))


@settings(max_examples=200, deadline=None)
@given(variant=st.sampled_from(VARIANTS), plies=st.lists(st.integers(0, 99), max_size=12),
       fen=st.one_of(st.text(max_size=40), st.text(alphabet=FEN_ALPHABET, max_size=40)))
def test_set_fen_leaves_the_board_unchanged_on_error(variant, plies, fen):
    board = Board(variant)
    for choice in plies:
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(moves[choice % len(moves)])
    before = (board.fen(), list(board.move_stack), list(board.legal_moves))
    try:
        board.set_fen(fen)
    except InvalidFenError:
        assert (board.fen(), list(board.move_stack), list(board.legal_moves)) == before
        if board.move_stack:  # the history still works
            board.pop()
    else:
        assert board.move_stack == []


def test_numbers_of_any_length():
    # Zero-padded past a length check made before stripping the zeros, int() raised Python's
    # own "Exceeds the limit (4300 digits)" ValueError instead of reading the number.
    english = get_variant("english")
    pad = "0" * 5000
    assert parse_fen(f"W:W{pad}21:B1-{pad}9", english) == parse_fen("W:W21:B1-9", english)
    with pytest.raises(InvalidFenError, match="out of range"):
        parse_fen("W:W" + "9" * 5000 + ":B1", english)
