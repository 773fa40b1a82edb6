"""The one reader of square text (shashki.square_text) and the callers that word its reasons:
move text, FEN, the Hub protocol, Variant.square and SVG read a square the same way."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import shashki
from shashki import square_text
from shashki.errors import InvalidFenError, InvalidMoveError, InvalidSquareError
from shashki.fen import parse_fen
from shashki.hub.text import HubProtocolError, parse_move as hub_parse_move
from shashki.notation import parse_square
from shashki.square_text import SquareTextError, read_number, read_square
from shashki.variants import VARIANTS, get_variant

NAMES = [v.name for v in VARIANTS]


@pytest.mark.parametrize("name", NAMES)
def test_every_square_name_reads_back(name):
    variant = get_variant(name)
    for square in range(variant.geometry.squares):
        text = variant.square_name(square)
        assert read_square(text, variant) == square
        assert variant.square(text.upper()) == square
        assert parse_square(text, variant) == square


@pytest.mark.parametrize("name", NAMES)
def test_fen_numbers_name_squares_in_every_game(name):
    # FEN takes the game's numbers in the algebraic games too; moves do not
    variant = get_variant(name)
    for number in range(1, variant.geometry.squares + 1):
        square = read_square(str(number), variant, numbers="always")
        assert square == variant.square_from_number(number)
        if not variant.numeric:
            with pytest.raises(SquareTextError) as info:
                read_square(str(number), variant)
            assert info.value.reason == square_text.NUMBER_NOT_NAME


def _light_square_name(variant):
    g = variant.geometry
    for rank in range(g.rows):
        for column in range(g.files):
            if g.square_at(column, rank) is None:
                return "abcdefghijklmnop"[column] + str(rank + 1)
    raise AssertionError("a board with no light square")


@pytest.mark.parametrize("token, reason", [
    ("33", square_text.OUT_OF_RANGE), ("0", square_text.OUT_OF_RANGE),
    ("9" * 400, square_text.OUT_OF_RANGE), ("c3", square_text.NAME_NOT_NUMBER),
    ("", square_text.UNREADABLE), ("3c", square_text.UNREADABLE),
    ("٣", square_text.UNREADABLE),          # a digit, but not an ASCII one
])
def test_reasons_in_a_numeric_game(token, reason):
    variant = get_variant("english")
    with pytest.raises(SquareTextError) as info:
        read_square(token, variant)
    assert info.value.reason == reason
    assert isinstance(info.value, InvalidSquareError) and isinstance(info.value, ValueError)
    assert info.value.plain() == str(info.value) and info.value.token == token


@pytest.mark.parametrize("token, reason", [
    ("i1", square_text.OFF_BOARD), ("a9", square_text.OFF_BOARD), ("a0", square_text.OFF_BOARD),
    ("a" + "1" * 300, square_text.OFF_BOARD), ("light", square_text.UNREADABLE),
    ("22", square_text.NUMBER_NOT_NAME),
])
def test_reasons_in_an_algebraic_game(token, reason):
    with pytest.raises(SquareTextError) as info:
        read_square(token, get_variant("russian"))
    assert info.value.reason == reason


@pytest.mark.parametrize("name", [n for n in NAMES if not get_variant(n).numeric
                                  and get_variant(n).geometry.squares
                                  < get_variant(n).geometry.rows * get_variant(n).geometry.files])
def test_a_light_square_is_named_as_one(name):
    variant = get_variant(name)
    light = _light_square_name(variant)
    with pytest.raises(SquareTextError) as info:
        read_square(light, variant)
    assert info.value.reason == square_text.LIGHT
    # each caller words the same reason its own way
    with pytest.raises(InvalidMoveError, match=f"{light} in 'x' is a light square"):
        parse_square(light, variant, "x")
    with pytest.raises(InvalidSquareError, match="light square"):
        variant.square(light)
    with pytest.raises(InvalidFenError, match=f"{light} is a light square"):
        parse_fen(f"W:W{light}:B{variant.square_name(0)}", variant)


@given(st.text(max_size=8))
@settings(max_examples=300, deadline=None)
def test_callers_agree_with_the_reader(text):
    # a token the reader takes is a square for every caller; one it refuses, an error of each
    # caller's own class (never another exception)
    for name in ("russian", "english", "international"):
        variant = get_variant(name)
        token = text.strip().lower()
        try:
            square = read_square(token, variant)
        except SquareTextError:
            square = None
        if square is None:
            with pytest.raises(InvalidMoveError):
                parse_square(token, variant)
            with pytest.raises(InvalidSquareError):
                variant.square(text)
        else:
            assert parse_square(token, variant) == square == variant.square(text)


def test_the_hub_reads_numbers_in_range():
    board = shashki.Board("english")
    for number in ("0", "33", "1" * 200):
        with pytest.raises(HubProtocolError, match=r"off the board; squares are numbered 1 to 32"):
            hub_parse_move(board, f"9-{number}")
    variant = get_variant("english")
    assert read_number("032", variant) == 32
