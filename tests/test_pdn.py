"""PDN reading and writing (issue 3, part 4): tags, movetext, dialects, errors, round trips."""

import gc
import io
import itertools
import re
import os
import tracemalloc
import warnings
import weakref

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import shashki
from shashki import Board, pdn
from shashki.pdn import Game, InvalidPdnError, read_game, read_games

VARIANTS = ["russian", "giveaway", "brazilian", "italian", "english"]


def read(text, **kwargs):
    return read_game(io.StringIO(text), **kwargs)


def texts(game):
    return [str(m) for m in game.moves]


# --- reading ------------------------------------------------------------------------------------

def test_tags_movetext_and_final_board():
    game = read('[Event "Club"]\n[White "A"]\n[Black "B"]\n[Result "1-0"]\n[GameType "25"]\n\n'
                "1. c3-d4 b6-c5 2. d4xb6 a7xc5 3. b2-c3 1-0\n")
    assert list(game.headers) == ["Event", "White", "Black", "Result", "GameType"]
    assert game.headers["White"] == "A"
    assert game.variant is shashki.get_variant("russian")
    assert game.result == "1-0"
    assert texts(game) == ["c3-d4", "b6-c5", "d4:b6", "a7:c5", "b2-c3"]
    board = Board("russian")
    for move in ["c3-d4", "b6-c5", "d4:b6", "a7:c5", "b2-c3"]:
        board.push(move)
    assert game.board() == board
    assert game.board().move_stack == list(game.moves)
    assert game.board(0) == Board("russian")
    assert game.board(2) == Board("russian", game.board(2).fen())
    assert len(game) == 5


@pytest.mark.parametrize("movetext", [
    "1. c3-d4 f6-g5 *",
    "1.c3-d4 f6-g5 *",                     # number glued to the move
    "1. c3-d4 1... f6-g5 *",               # repeated number for the second mover
    "1. c3-d4 ... f6-g5 *",
    "1. c3d4 f6-g5 *".replace("c3d4", "c3-d4"),
    "1. C3-D4 F6-G5 *",                    # upper case squares
    "1. c3-d4! f6-g5?! *",                 # glyphs
    "1. c3-d4 $1 f6-g5 $6 *",              # NAGs
    "1. c3-d4 {a comment} f6-g5 {another\n spanning lines} *",
    "1. c3-d4 ; to the end of the line f6-g5\nf6-g5 *",
    "1. c3-d4 (1. e3-f4 f6-e5 (1... b6-a5) 2. f4xd6) f6-g5 *",   # nested variations skipped
    "%escaped line\n1. c3-d4\n%another\nf6-g5 *",
    "1. c3-d4\n  f6-g5\n*",
])
def test_tolerated_movetext(movetext):
    game = read('[GameType "25"]\n\n' + movetext)
    assert texts(game) == ["c3-d4", "f6-g5"]
    assert game.errors == []


def test_comments_and_nags_stay_with_their_moves():
    game = read("{before} 1. c3-d4! {good} $14 f6-g5 {reply} {and more} 2. g3-h4 ?? *")
    assert game.comment == "before"
    assert game.comments == ["good", "reply and more", ""]
    assert game.nags == [{1, 14}, set(), {4}]
    text = str(game)
    assert "{before}" in text and "{good}" in text and "$1 $14" in text
    again = read(text)
    assert (again.comment, again.comments, again.nags) == (game.comment, game.comments, game.nags)


@pytest.mark.parametrize("result", ["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "*"])
def test_results(result):
    game = read(f"1. c3-d4 {result}")
    assert game.result == result
    assert str(game).endswith(" " + result)


def test_result_header_is_kept_over_a_missing_marker():
    assert read('[Result "0-2"]\n\n1. c3-d4').result == "0-2"
    assert read("1. c3-d4").result == "*"


@pytest.mark.parametrize("tag,name", [
    ('[GameType "21"]', "english"), ('[GameType "22"]', "italian"),
    ('[GameType "25"]', "russian"), ('[GameType "26"]', "brazilian"),
    ('[GameType "21,B,8,8,N1,0"]', "english"), ('[GameType "25,W,8,8,A0,0"]', "russian"),
    ('[GameType "26,W,8,8,A0,0"]', "brazilian"), ('[GameType "22,W,8,8,N2,1"]', "italian"),
    ('[Variant "Russian"]', "russian"), ('[Variant "Brazilian"]', "brazilian"),
    ('[Variant "American/English"]', "english"), ('[Variant "Italian"]', "italian"),
    ('[Variant "Giveaway"]', "giveaway"), ('[Variant "poddavki"]', "giveaway"),
    ('[GameType "25"]\n[Variant "Giveaway"]', "giveaway"),
    ('[GameType "26"]\n[Variant "Russian"]', "brazilian"),   # GameType decides
    ("", "russian"),
])
def test_variant_from_tags(tag, name):
    assert read(tag + "\n\n*").variant.name == name


def test_forced_variant_wins_over_tags():
    game = read('[GameType "25"]\n\n1. c3-d4 *', variant="brazilian")
    assert game.variant.name == "brazilian"
    assert texts(game) == ["c3-d4"]
    assert read("1. 11-15 *", variant="english").variant.name == "english"


def test_fen_setup_and_second_mover_numbering():
    fen = "B:W21,22,K30:B9,10"
    game = read(f'[GameType "21"]\n[FEN "{fen}"]\n\n1. 9-13 22-18 2. 13-17 *')
    assert game.starting_fen == Board("english", fen).fen()
    assert not game.is_standard_start()
    assert texts(game) == ["9-13", "22-18", "13-17"]
    game = read('[GameType "25"]\n[FEN "B:Wa1,c3:Bf6,h8"]\n\n1... f6-g5 2. c3-d4 *')
    assert texts(game) == ["f6-g5", "c3-d4"]
    text = str(game)
    assert f'[FEN "{Board("russian", "B:Wa1,c3:Bf6,h8").fen()}"]' in text
    assert "1... f6-g5 2. c3-d4 *" in text


def test_lidraughts_fen_with_counters():
    game = read('[GameType "26"]\n[FEN "W:W31,32:B1,2:H0:F1"]\n\n1. g1-h2 *')
    assert texts(game) == ["g1-h2"]


# --- PlayStrategy's english dialect -------------------------------------------------------------

def test_playstrategy_squares_are_seen_from_the_first_mover():
    # Seen from Black (english: Black moves first, men on 1-12) the board is turned half a
    # turn: c3 there is f6 from White, english 11 (square 1 = b8); d4 is e5, english 15.
    game = read('[Variant "American/English"]\n\n1. c3-d4 b6-c5 2. d4xb6 a7xc5 0-1')
    assert texts(game) == ["11-15", "24-19", "15x24", "28x19"]
    assert game.result == "0-1"


def playstrategy_name(number):
    """PlayStrategy's name of english square `number`: the algebraic name from White's side,
    turned half a turn (a1 <-> h8)."""
    english = shashki.get_variant("english")
    file, rank = english.geometry.coords(english.square_from_number(number))
    name = "abcdefgh"[file] + str(rank + 1)
    return "abcdefgh"[7 - "abcdefgh".index(name[0])] + str(9 - int(name[1]))


def test_playstrategy_names():
    # independent of the formula: the first-mover's corner squares and the opening move
    assert playstrategy_name(11) == "c3" and playstrategy_name(15) == "d4"
    assert playstrategy_name(32) == "b8"        # g1 from White is b8 from Black
    assert playstrategy_name(4) == "a1"         # h8 from White is a1 from Black


def test_playstrategy_multi_jump_is_one_move():
    # black's man on 10 jumps 14 and 22 (10x17x26); PlayStrategy writes one jump at a time
    fen = "B:W14,22,30:B10,1"
    board = Board("english", fen)
    (move,) = board.legal_moves
    assert move.path == tuple(board.variant.square_from_number(n) for n in (10, 17, 26))
    a, b, c = (playstrategy_name(n) for n in (10, 17, 26))
    for text in (f"1. {a}x{b} {b}x{c} *", f"1. {a}x{b}\n{b}x{c} 2. *", f"1. {a}x{b}x{c} *"):
        game = read(f'[Variant "American/English"]\n[FEN "{fen}"]\n\n{text}')
        assert list(game.moves) == [move], text
    # the dialect's FEN squares are turned too
    ps_fen = "B:W" + ",".join(playstrategy_name(n) for n in (14, 22, 30)) + ":B" + \
        ",".join(playstrategy_name(n) for n in (10, 1))
    assert read(f'[Variant "American/English"]\n[FEN "{ps_fen}"]\n\n*').starting_fen == \
        board.fen()


def test_playstrategy_results_are_scored_first_mover_first():
    # issue 12.10: PlayStrategy names its players P1 (who moves first: Black in english) and
    # P2, and scores P1 first; shashki scores White first in every game (Board.result())
    text = ('[P1 "first"]\n[P2 "second"]\n[Result "1-0"]\n[Variant "American/English"]\n\n'
            "1. c3-d4 1-0")
    game = read(text)
    assert game.result == "0-1"
    assert (game.headers["Black"], game.headers["White"]) == ("first", "second")
    assert read(str(game)).result == "0-1"   # written with a GameType: read as written
    assert read(text.replace('[Result "1-0"]\n', "")).result == "0-1"   # the movetext's
    assert read(text.replace("1-0", "1/2-1/2")).result == "1/2-1/2"
    # with a GameType tag the file is not PlayStrategy's: read as written
    assert read('[GameType "21"]\n[P1 "x"]\n\n1. 11-15 1-0').result == "1-0"


def test_split_jumps_across_move_numbers_and_comments():
    fen = "B:W14,22,30:B10,1"
    game = read(f'[GameType "21"]\n[FEN "{fen}"]\n\n1. 10x17 {{first}} 2. 17x26 {{second}} *')
    assert list(game.moves) == [Board("english", fen).parse_move("10x17x26")]
    assert game.comments == ["first second"]


def test_a_capture_then_the_reply_is_not_merged():
    # the reply starts elsewhere: two moves, as lidraughts writes them
    game = read('[GameType "25"]\n\n1. c3-d4 b6-c5 2. d4xb6 a7xc5 *')
    assert texts(game) == ["c3-d4", "b6-c5", "d4:b6", "a7:c5"]


# --- several games, laziness ----------------------------------------------------------------------

MULTI = """[Event "one"]
[GameType "25"]

1. c3-d4 f6-g5 2-0

[Event "two"]
[GameType "21"]

1. 11-15 23-19 *
[Event "three"]
[GameType "26"]
1. c3-d4
[Event "four"]

1. e3-f4 * 1. g3-h4 *
"""


def test_read_games_from_handle_and_path(tmp_path):
    events = [g.headers.get("Event") for g in read_games(io.StringIO(MULTI))]
    assert events == ["one", "two", "three", "four", None]
    path = tmp_path / "multi.pdn"
    path.write_text(MULTI, encoding="utf-8")
    assert [len(g) for g in read_games(path)] == [2, 2, 1, 1, 1]
    assert [len(g) for g in read_games(str(path))] == [2, 2, 1, 1, 1]


def test_read_game_one_call_at_a_time():
    handle = io.StringIO(MULTI)
    games = []
    while (game := read_game(handle)) is not None:
        games.append(game)
    assert [g.variant.name for g in games] == ["russian", "english", "brazilian", "russian",
                                               "russian"]
    assert read_game(handle) is None
    assert read_game(io.StringIO("")) is None
    assert read_game(io.StringIO("\n\n  \n")) is None


class CountingHandle:
    """An endless PDN file that counts the lines read from it."""

    def __init__(self):
        self.lines_read = 0
        game = '[Event "x"]\n[GameType "25"]\n\n1. c3-d4 f6-g5 *\n\n'.splitlines(True)
        self._lines = itertools.cycle(game)

    def readline(self):
        self.lines_read += 1
        return next(self._lines)


def test_reading_is_lazy():
    handle = CountingHandle()
    games = read_games(handle)
    next(games)
    assert handle.lines_read <= 6
    for _ in range(99):
        next(games)
    assert handle.lines_read <= 100 * 5 + 1


def test_bytes_and_bom():
    handle = io.BytesIO("\ufeff[GameType \"25\"]\n\n1. c3-d4 *\n".encode("utf-8"))
    assert texts(read_game(handle)) == ["c3-d4"]


# --- errors -------------------------------------------------------------------------------------

def test_illegal_move_names_the_move_its_number_and_the_legal_moves():
    text = '[Event "a"]\n\n1. c3-d4 *\n\n[Event "b"]\n\n1. c3-d4 b6-c5\n2. e3-f4 a7-b6 *'
    handle = io.StringIO(text)
    assert texts(read_game(handle)) == ["c3-d4"]
    with pytest.raises(InvalidPdnError) as info:
        read_game(handle)
    message = str(info.value)
    assert message.startswith("game 2, line 8:")
    assert "2. 'e3-f4' (white to move)" in message
    assert message.endswith("the legal moves were: d4:b6")
    assert info.value.game_number == 2 and info.value.line_number == 8
    assert isinstance(info.value, shashki.ShashkiError)
    assert read_game(handle) is None  # the bad game was read to its end


def test_lenient_mode_records_errors_and_goes_on():
    text = "1. c3-d4 b6-c5 2. d4xb6 a7xc5 3. zz 4. e3-f4 *\n\n1. c3-b4 *\n"
    games = list(read_games(io.StringIO(text), strict=False))
    assert len(games) == 2
    assert texts(games[0]) == ["c3-d4", "b6-c5", "d4:b6", "a7:c5"]
    assert len(games[0].errors) == 1 and "'zz'" in str(games[0].errors[0])
    assert games[1].errors == [] and texts(games[1]) == ["c3-b4"]
    with pytest.raises(InvalidPdnError, match="cannot read 'zz'"):
        list(read_games(io.StringIO(text)))


@pytest.mark.parametrize("text,problem", [
    ('[GameType "27"]\n\n1. 32-28 *', "GameType 27 is not a game shashki plays"),
    ('[GameType "abc"]\n\n*', "cannot read GameType"),
    ('[GameType "25,W,10,10,A0,0"]\n\n*', "10x10 board"),
    ('[Variant "Killer"]\n\n*', "unknown Variant 'Killer'"),
    ('[FEN "W:W21:B21"]\n\n*', "FEN tag: square"),
    ('[Event "x"\n\n*', "cannot read the tag line"),
    ("1. c3-d4 ) *", "')' without"),
    ("1. c3-d4 (f6-g5 *", "variation '(' is not closed"),
    ("1. c3-d4 {open comment *", "comment '{' is not closed"),
    ("1. c3-d4 c3-d4 *", "move 1... 'c3-d4' (black to move)"),
    ("1. c3-e5 *", "move 1. 'c3-e5'"),
    ("1. 11-15 *", "name squares a1-h8"),
    ('[GameType "21"]\n\n1. 11-15 24-19 2. 15-18 *', "move 2. '15-18' (black to move)"),
    ('[Variant "American/English"]\n\n1. c4-d5 *', "c4 is a light square"),
    ("1. c3-d4 hello *", "cannot read 'hello'"),
])
def test_malformed_pdn(text, problem):
    with pytest.raises(InvalidPdnError, match=problem.replace("(", r"\(").replace(")", r"\)")):
        read(text)
    game = read(text, strict=False)
    assert game.errors and all(isinstance(e, InvalidPdnError) for e in game.errors)


def test_unclosed_comment_stops_at_the_next_game():
    text = '1. c3-d4 {never closed\n\n[Event "next"]\n\n1. e3-f4 *'
    games = list(read_games(io.StringIO(text), strict=False))
    assert [g.headers.get("Event") for g in games] == [None, "next"]
    assert texts(games[0]) == ["c3-d4"] and texts(games[1]) == ["e3-f4"]


def test_ambiguous_short_form_is_an_error():
    # a russian king on d2 reaches a3 over f4, d6 and b4 or over h6, f8 and b4
    fen = "W:WKd2:Bh2,e5,e3,b4,g7"
    routes = [m for m in Board("russian", fen).legal_moves if str(m).endswith("a3")]
    assert len(routes) == 2
    with pytest.raises(InvalidPdnError, match="fits 2 legal moves"):
        read(f'[FEN "{fen}"]\n\n1. d2:a3 *')
    game = read(f'[FEN "{fen}"]\n\n1. d2:f4:d6:a3 *')
    assert texts(game) == ["d2:f4:d6:a3"]
    assert read(str(game)).moves == game.moves


# --- writing ------------------------------------------------------------------------------------

def test_new_game_and_from_board():
    board = Board("english")
    for move in ["11-15", "23-19", "8-11", "22-17"]:
        board.push(move)
    game = Game.from_board(board, headers={"Event": "Test", "Result": "1-0"})
    assert game.headers["Event"] == "Test"
    assert game.headers["GameType"] == "21,B,8,8,N1,0"
    assert game.moves == tuple(board.move_stack)
    assert game.board() == board
    text = str(game)
    assert text.splitlines()[0] == '[Event "Test"]'
    assert '[GameType "21,B,8,8,N1,0"]' in text
    assert "[FEN" not in text
    assert text.endswith("\n\n1. 11-15 23-19 2. 8-11 22-17 1-0")
    out = io.StringIO()
    game.write(out)
    pdn.write_game(game, out)
    assert out.getvalue() == (text + "\n\n") * 2


def test_add_move_rejects_illegal_moves_and_keeps_the_game():
    game = Game("italian")
    game.add_move("21-17")
    with pytest.raises(shashki.IllegalMoveError):
        game.add_move("21-17")
    assert texts(game) == ["21-17"] and game.comments == [""]
    with pytest.raises(InvalidPdnError):
        game.result = "3-0"


def test_game_from_a_position_writes_its_fen():
    board = Board("brazilian", "B:Wc3,e3:Bd6,Kh8")
    board.push(next(iter(board.legal_moves)))
    game = Game.from_board(board)
    text = str(game)
    assert f'[FEN "{Board("brazilian", "B:Wc3,e3:Bd6,Kh8").fen()}"]' in text
    assert "\n1... " in text


def test_giveaway_keeps_its_identity():
    game = Game("giveaway")
    game.add_move("c3-d4")
    text = str(game)
    assert '[GameType "25,W,8,8,A0,0"]' in text and '[Variant "Giveaway"]' in text
    assert read(text).variant.name == "giveaway"


def test_tag_values_are_escaped():
    game = Game("russian", headers={"Event": 'He said "hi" \\o/', "Site": "two\nlines"})
    again = read(str(game))
    assert again.headers["Event"] == 'He said "hi" \\o/'
    assert again.headers["Site"] == "two lines"


def test_long_games_wrap_at_80_columns():
    board = Board("russian")
    for _ in range(60):
        moves = sorted(board.legal_moves, key=str)
        if not moves:
            break
        board.push(moves[len(board.move_stack) % len(moves)])
    game = Game.from_board(board)
    game.comments[3] = "a long comment " * 12
    movetext = str(game).split("\n\n", 1)[1]
    assert len(movetext.splitlines()) > 3
    assert all(len(line) <= 80 for line in movetext.splitlines())
    assert read(str(game)).moves == game.moves


# --- round trips (hypothesis) -------------------------------------------------------------------

@st.composite
def random_games(draw, variant=None):
    name = variant or draw(st.sampled_from(VARIANTS))
    board = Board(name)
    if draw(st.booleans()):
        # start from a position reached by play, as a FEN tag
        for _ in range(draw(st.integers(0, 30))):
            moves = sorted(board.legal_moves, key=str)
            if not moves:
                break
            board.push(moves[draw(st.integers(0, len(moves) - 1))])
        board = Board(name, board.fen())
    plies = draw(st.integers(0, 80))
    for _ in range(plies):
        moves = sorted(board.legal_moves, key=str)
        if not moves:
            break
        board.push(moves[draw(st.integers(0, len(moves) - 1))])
    headers = draw(st.dictionaries(
        st.sampled_from(["Event", "Site", "White", "Black", "Date", "Round", "Annotator"]),
        st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=20), max_size=4))
    game = Game.from_board(board, headers=headers)
    game.result = draw(st.sampled_from(pdn.RESULTS))
    words = st.text(st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="{}"),
                    max_size=12)
    for i in range(len(game)):
        if draw(st.integers(0, 4)) == 0:
            game.comments[i] = draw(words)
        if draw(st.integers(0, 5)) == 0:
            game.nags[i] = set(draw(st.lists(st.integers(0, 255), max_size=2)))
    return game


def same_game(a, b):
    assert b.variant is a.variant
    assert b.starting_fen == a.starting_fen
    assert b.moves == a.moves
    assert b.result == a.result
    assert b.comments == [" ".join(c.split()) for c in a.comments]
    assert b.nags == a.nags
    for name, value in a.headers.items():
        if name not in ("GameType", "FEN", "Variant"):
            assert b.headers[name] == " ".join(value.splitlines())
    assert b.errors == []


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_round_trip_random_games(variant, data):
    game = data.draw(random_games(variant))
    text = str(game)
    again = read(text)
    same_game(game, again)
    assert str(again) == text
    third = read(str(again))
    same_game(again, third)
    movetext = text.split("\n\n", 1)[1]
    # a line longer than 80 columns only for a single word that cannot be broken
    assert all(len(line) <= 80 or " " not in line for line in movetext.splitlines())


@settings(max_examples=30, deadline=None)
@given(st.lists(random_games(), min_size=1, max_size=4))
def test_many_games_in_one_stream(games):
    out = io.StringIO()
    pdn.write_games(games, out)
    again = list(read_games(io.StringIO(out.getvalue())))
    assert len(again) == len(games)
    for a, b in zip(games, again):
        same_game(a, b)


# --- fuzzing (hypothesis) -----------------------------------------------------------------------

PDN_PIECES = ["[", "]", '"', "{", "}", "(", ")", ";", "%", "$", "!", "?", ".", "-", "x", ":",
              "*", "/", "\n", " ", "1-0", "0-1", "2-0", "1/2-1/2", "1.", "12...", "c3", "d4",
              "e5", "f6", "11", "15", "32", "0", "99", "c3-d4", "f6-g5", "11-15", "d8xf6",
              "f6xd4", '[GameType "25"]', '[GameType "21"]', '[GameType "2', '[Variant "',
              '[FEN "W:W21:B1"]', '[FEN "', "K", "W:", "B:", "\ufeff", "\x00", "é", "½-½",
              # issue 12: numbers past Python's 4,300 digits, a digit int() refuses, deep
              # nesting, PlayStrategy's players
              "0" * 4400, "$" + "0" * 4400 + "1", "$1000", '[GameType "' + "0" * 4400 + '25"]',
              '[FEN "B:W' + "0" * 4400 + '21:B1"]', "\u00b2", '[GameType "\u00b2"]',
              "(1. e3-f4 " * 100, ")" * 100, '[P1 "a"]', '[P2 "b"]']


@settings(max_examples=400, deadline=None)
@given(st.one_of(
    st.text(max_size=200),
    st.lists(st.sampled_from(PDN_PIECES), max_size=60).map("".join)))
def test_fuzzed_pdn_only_raises_documented_errors(text):
    # strict: a ShashkiError or games; lenient: never raises, errors are InvalidPdnErrors
    try:
        for game in read_games(io.StringIO(text)):
            assert game.errors == []
    except shashki.ShashkiError:
        pass
    count = 0
    for game in read_games(io.StringIO(text), strict=False):
        count += 1
        assert all(isinstance(e, InvalidPdnError) for e in game.errors)
        for move in game.moves:
            assert isinstance(move, shashki.Move)
        str(game)  # every game read can be written
    assert count <= len(text)  # every game consumes some of the text


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(VARIANTS),
       st.lists(st.sampled_from(PDN_PIECES + ["c1", "a1", "h8", "g7", "22", "18", "1", "9"]),
                max_size=40).map(" ".join))
def test_fuzzed_movetext_in_every_variant(variant, movetext):
    try:
        read(movetext, variant=variant)
    except shashki.ShashkiError:
        pass
    game = read(movetext, variant=variant, strict=False)
    if game is not None:
        assert game.variant.name == variant


# --- variations kept (variations=True) -----------------------------------------------------------

ANNOTATED = ('[GameType "25"]\n\n'
             "1. c3-d4 (1. e3-f4 f6-g5 (1... b6-a5 2. f4-e5) 2. f4-e5) f6-g5 "
             "(1... b6-a5 2. d4-c5) (1... d6-e5) 2. g3-h4 *")


def replay(board, line):
    """The board after `line` played on a copy of `board`, each move checked legal."""
    board = board.copy()
    for move in line:
        assert move in list(board.legal_moves)
        board.push(move)
    return board


def game_tree(game):
    """Every variation of a game as (parent, move index, move texts): `parent` numbers the
    line it hangs from (0 the mainline, k the k-th line listed), the index the move of that
    line it replaces.  Built with a loop, not recursion, and flat, so that lines nested
    thousands deep compare too."""
    tree = []
    todo = [(0, game.variations)]
    while todo:
        parent, per_move = todo.pop()
        for index, lines in enumerate(per_move):
            for line in lines:
                tree.append((parent, index, tuple(str(m) for m in line)))
                todo.append((len(tree), line.variations))
    return tree


def test_variations_are_skipped_by_default():
    game = read(ANNOTATED)
    assert texts(game) == ["c3-d4", "f6-g5", "g3-h4"]
    assert game.variations == [[], [], []]
    assert str(game) == str(read('[GameType "25"]\n\n1. c3-d4 f6-g5 2. g3-h4 *'))


def test_variations_kept_and_replayed_from_the_position_before_their_move():
    game = read(ANNOTATED, variations=True)
    assert texts(game) == ["c3-d4", "f6-g5", "g3-h4"]
    assert game.errors == []
    first, second, third = game.variations
    assert [[str(m) for m in line] for line in first] == [["e3-f4", "f6-g5", "f4-e5"]]
    assert [[str(m) for m in line] for line in second] == [["b6-a5", "d4-c5"], ["d6-e5"]]
    assert third == []
    for i, lines in enumerate(game.variations):
        for line in lines:
            assert isinstance(line, pdn.Variation) and isinstance(line, list)
            assert all(isinstance(m, shashki.Move) for m in line)
            replay(game.board(i), line)          # a variation replaces move i
    # the same moves, built by hand on a board, are what was read
    board = Board("russian")
    board.push("c3-d4")
    assert list(second[1]) == [board.parse_move("d6-e5")]


def test_nested_variations_are_kept_recursively():
    game = read(ANNOTATED, variations=True)
    (outer,) = game.variations[0]
    assert [len(lines) for lines in outer.variations] == [0, 1, 0]
    (inner,) = outer.variations[1]
    assert [str(m) for m in inner] == ["b6-a5", "f4-e5"]
    assert inner.variations == [[], []]
    # the inner line replaces the outer line's move 1 (f6-g5): played after e3-f4
    after_e3f4 = replay(game.board(0), outer[:1])
    end = replay(after_e3f4, inner)
    assert end.fen() == replay(Board("russian"), [Board("russian").parse_move("e3-f4")] +
                               list(inner)).fen()
    deeper = read('[GameType "25"]\n\n1. c3-d4 (1. e3-f4 (1. g3-h4 (1. a3-b4 (1. c3-b4)))) *',
                  variations=True)
    # each level: one line of one move, the next level replacing that move
    lines, seen = deeper.variations[0], []
    while lines:
        (line,) = lines
        seen.append([str(m) for m in line])
        lines = line.variations[0]
    assert seen == [["e3-f4"], ["g3-h4"], ["a3-b4"], ["c3-b4"]]
    assert game_tree(read(str(deeper), variations=True)) == game_tree(deeper)


def test_writing_variations_with_move_numbers():
    game = read(ANNOTATED, variations=True)
    movetext = str(game).split("\n\n", 1)[1]
    # PGN/PDN numbering: a variation opens with its move number ("1..." for the second
    # mover), and the second mover's move after a variation is numbered again
    assert " ".join(movetext.split()) == (
        "1. c3-d4 (1. e3-f4 f6-g5 (1... b6-a5 2. f4-e5) 2. f4-e5) 1... f6-g5 "
        "(1... b6-a5 2. d4-c5) (1... d6-e5) 2. g3-h4 *")
    again = read(str(game), variations=True)
    assert game_tree(again) == game_tree(game)
    assert str(again) == str(game)
    # read without variations, the written text gives the mainline
    assert read(str(game)).moves == game.moves


def test_variation_numbering_from_a_position_with_the_second_mover_to_move():
    fen = "B:Wa1,c3,e3:Bf6,h8,b8"
    game = read(f'[GameType "25"]\n[FEN "{fen}"]\n\n'
                "1... f6-g5 (1... h8-g7 2. c3-d4 b8-c7) 2. c3-d4 (2. e3-f4 g5xe3) g5-h4 *",
                variations=True)
    assert game.errors == [] and texts(game) == ["f6-g5", "c3-d4", "g5-h4"]
    assert [str(m) for m in game.variations[1][0]] == ["e3-f4", "g5:e3"]
    movetext = " ".join(str(game).split("\n\n", 1)[1].split())
    assert movetext == ("1... f6-g5 (1... h8-g7 2. c3-d4 b8-c7) 2. c3-d4 (2. e3-f4 g5:e3) "
                        "2... g5-h4 *")
    assert game_tree(read(str(game), variations=True)) == game_tree(game)


def test_comments_around_variations_stay_on_the_mainline():
    game = read('[GameType "25"]\n\n1. c3-d4 {main} (1. e3-f4 {inside} $1 f6-g5) {after} '
                "f6-g5 *", variations=True)
    assert game.comments == ["main after", ""]
    assert [str(m) for m in game.variations[0][0]] == ["e3-f4", "f6-g5"]
    again = read(str(game), variations=True)
    assert again.comments == game.comments and game_tree(again) == game_tree(game)


def test_read_games_keeps_variations_per_game():
    text = ANNOTATED + "\n\n" + '[GameType "21"]\n\n1. 11-15 (1. 9-13 22-18) 23-19 *\n'
    games = list(read_games(io.StringIO(text), variations=True))
    assert [len(g.variations[0]) for g in games] == [1, 1]
    assert [str(m) for m in games[1].variations[0][0]] == ["9-13", "22-18"]
    assert [g.variations for g in read_games(io.StringIO(text))] == [[[], [], []], [[], []]]


def test_playstrategy_split_jumps_inside_a_variation():
    # one jump at a time inside a variation is one move there too
    fen = "B:W14,22,30:B10,1"
    (move,) = Board("english", fen).legal_moves
    a, b, c = (playstrategy_name(n) for n in (10, 17, 26))
    game = read(f'[Variant "American/English"]\n[FEN "{fen}"]\n\n'
                f"1. {a}x{b} {b}x{c} (1. {a}x{b} {b}x{c}) *", variations=True)
    assert list(game.moves) == [move]
    assert game.variations == [[[move]]]


def test_add_variation_checks_moves_and_keeps_the_game_on_error():
    game = Game("russian")
    for move in ["c3-d4", "f6-g5"]:
        game.add_move(move)
    line = game.add_variation(1, ["b6-a5", "d4-c5"])
    assert game.variations == [[], [line]]
    with pytest.raises(shashki.IllegalMoveError):
        game.add_variation(0, ["e3-f4", "e3-f4"])
    with pytest.raises(ValueError):
        game.add_variation(2, ["g3-h4"])
    with pytest.raises(ValueError):
        game.add_variation(0, [])
    assert game.variations == [[], [line]]
    assert game_tree(read(str(game), variations=True)) == game_tree(game)


# errors inside variations: strict raises naming the variation, lenient drops only it
@pytest.mark.parametrize("movetext,problem,kept", [
    ("1. c3-d4 (1. e3-f4 f6-g5 2. f4-f5) f6-g5 *",
     "in the variation replacing 1. c3-d4 (line 3): move 2. 'f4-f5'", []),
    ("1. c3-d4 (1. e3-f4 b6-c6) f6-g5 (1... b6-a5) *",
     "in the variation replacing 1. c3-d4", [["b6-a5"]]),
    ("1. c3-d4 (1. e3-f4 zz) f6-g5 *", "cannot read 'zz'", []),
    ("1. c3-d4 (1. e3-f4 f6-g5 (1... c3-d4) 2. f4-e5) f6-g5 *",
     "in the variation replacing 1... f6-g5 (line 3) inside the variation replacing 1. c3-d4",
     [["e3-f4", "f6-g5", "f4-e5"]]),
    ("(1. e3-f4) 1. c3-d4 f6-g5 *", "opens before any move", []),
])
def test_errors_inside_variations(movetext, problem, kept):
    text = '[GameType "25"]\n\n' + movetext
    with pytest.raises(InvalidPdnError) as info:
        read(text, variations=True)
    assert problem in str(info.value)
    assert isinstance(info.value, shashki.ShashkiError)
    game = read(text, variations=True, strict=False)
    assert texts(game) == ["c3-d4", "f6-g5"]     # the mainline stands
    assert len(game.errors) == 1 and problem in str(game.errors[0])
    kept_lines = [[str(m) for m in line] for lines in game.variations for line in lines]
    assert kept_lines == kept
    # skipped by default, the same text reads without error, as before
    assert read(text).errors == [] and texts(read(text)) == ["c3-d4", "f6-g5"]


def test_lenient_keeps_the_outer_line_when_a_nested_one_is_illegal():
    game = read('[GameType "25"]\n\n1. c3-d4 (1. e3-f4 f6-g5 (1... c3-d4) 2. f4-e5) f6-g5 *',
                variations=True, strict=False)
    assert [[str(m) for m in line] for line in game.variations[0]] == [["e3-f4", "f6-g5",
                                                                        "f4-e5"]]
    assert game.variations[0][0].variations == [[], [], []]


def test_unclosed_variation_is_still_an_error_when_kept():
    with pytest.raises(InvalidPdnError, match="variation '\\(' is not closed"):
        read("1. c3-d4 (1. e3-f4 *", variations=True)
    game = read("1. c3-d4 (1. e3-f4 *", variations=True, strict=False)
    # read leniently, the variations left open keep the moves read, as the mainline does
    assert texts(game) == ["c3-d4"] and len(game.errors) == 1
    assert [[[str(m) for m in line] for line in lines] for lines in game.variations] == \
        [[["e3-f4"]]]
    nested = read("1. c3-d4 (1. e3-f4 f6-g5 (1... b6-a5", variations=True, strict=False)
    assert len(nested.errors) == 1 and game_tree(nested) == [(0, 0, ("e3-f4", "f6-g5")),
                                                             (1, 1, ("b6-a5",))]


@st.composite
def games_with_variations(draw, variant=None):
    game = draw(random_games(variant))
    if not len(game):
        return game

    def random_line(board, depth):
        board = board.copy()
        moves = []
        for _ in range(draw(st.integers(1, 6))):
            legal = sorted(board.legal_moves, key=str)
            if not legal:
                break
            moves.append(board.push(legal[draw(st.integers(0, len(legal) - 1))]))
        line = pdn.Variation(moves)
        if depth < 2:
            # nested lines: replace move j of this line, from the position before it
            before = board.copy()
            for j in reversed(range(len(line))):
                before.pop()
                if draw(st.integers(0, 3)) == 0:
                    sub = random_line(before, depth + 1)
                    if sub:
                        line.variations[j].append(sub)
        return line

    for i in range(len(game)):
        for _ in range(draw(st.integers(0, 2)) if draw(st.integers(0, 3)) == 0 else 0):
            line = random_line(game.board(i), 0)
            if line:
                game.variations[i].append(line)
    return game


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_round_trip_random_games_with_variations(variant, data):
    game = data.draw(games_with_variations(variant))
    text = str(game)
    again = read(text, variations=True)
    same_game(game, again)
    assert game_tree(again) == game_tree(game)
    assert str(again) == text
    # skipped, the same text gives the mainline
    plain = read(text)
    assert plain.moves == game.moves and plain.errors == []
    movetext = text.split("\n\n", 1)[1]
    assert all(len(line) <= 80 or " " not in line for line in movetext.splitlines())


@settings(max_examples=300, deadline=None)
@given(st.one_of(
    st.text(max_size=200),
    st.lists(st.sampled_from(PDN_PIECES + ["(", ")", "(1. e3-f4", "(1... b6-a5)", "2. f4-e5)"]),
             max_size=60).map("".join)))
def test_fuzzed_pdn_with_variations_only_raises_documented_errors(text):
    try:
        for game in read_games(io.StringIO(text), variations=True):
            assert game.errors == []
    except shashki.ShashkiError:
        pass
    for game in read_games(io.StringIO(text), variations=True, strict=False):
        assert all(isinstance(e, InvalidPdnError) for e in game.errors)
        assert len(game.variations) == len(game.moves)
        for i, lines in enumerate(game.variations):
            for line in lines:
                replay(game.board(i), line)
        again = read(str(game), variations=True)   # every game read writes back readably
        assert again.moves == game.moves and game_tree(again) == game_tree(game)


# --- the game tree (shashki.pdn.GameNode, Visitor) -----------------------------------------------

def test_the_lists_are_views_of_the_node_tree():
    game = read(ANNOTATED, variations=True)
    nodes = game.mainline()
    assert [node.move for node in nodes] == list(game.moves)
    assert nodes[0].parent is game.root and game.root.move is None
    assert [node.ply() for node in nodes] == [1, 2, 3]
    assert game.end() is nodes[-1] and nodes[1].path() == list(game.moves[:2])
    # a variation hangs from the move it replaces and is played from the position before it
    (first,) = nodes[0].variations
    assert first.parent is game.root
    assert [n.move for n in first.line()] == list(game.variations[0][0])
    # changed through the lists, the tree changes, and what is written with it
    game.comments[1] = "sharp"
    game.nags[1].add(3)
    assert (nodes[1].comment, nodes[1].nags) == ("sharp", {3})
    board = game.board(2)
    line = pdn.Variation([board.push("g3-f4")])
    game.variations[2].append(line)
    assert [n.move for n in nodes[2].variations[0].line()] == list(line)
    again = read(str(game), variations=True)
    assert again.comments == ["", "sharp", ""] and again.nags == [set(), {3}, set()]
    assert game_tree(again) == game_tree(game)
    del game.variations[2][0]
    assert nodes[2].variations == []
    with pytest.raises(ValueError):
        game.variations[2].append(pdn.Variation())   # an empty line is not a variation
    with pytest.raises(TypeError):
        game.variations[2].append(["g3-f4"])          # Moves, not text


def test_nested_and_side_by_side_variations_stay_apart():
    # a line inside a line and two lines side by side are different records
    inside = read('[GameType "25"]\n\n1. c3-d4 (1. e3-f4 (1. g3-h4)) *', variations=True)
    beside = read('[GameType "25"]\n\n1. c3-d4 (1. e3-f4) (1. g3-h4) *', variations=True)
    assert [len(lines) for lines in inside.variations] == [1]
    assert [len(lines) for lines in beside.variations] == [2]
    assert str(inside).endswith("1. c3-d4 (1. e3-f4 (1. g3-h4)) *")
    assert str(beside).endswith("1. c3-d4 (1. e3-f4) (1. g3-h4) *")


class Events(pdn.Visitor):
    """The visitor calls, in order, as words; a move with its number, counted on the board it
    is played from."""

    def __init__(self):
        self.events = []

    def begin_game(self):
        self.events.append("<")

    def visit_header(self, name, value):
        self.events.append(f"[{name}]")

    def end_headers(self):
        self.events.append("|")

    def visit_board(self, board):
        self.boards = getattr(self, "boards", 0) + 1

    def visit_comment(self, comment):
        self.events.append("{" + comment + "}")

    def visit_move(self, board, move):
        assert move in board.legal_moves          # the board is the position before the move
        self.events.append(f"{len(board.move_stack)}:{move}")

    def visit_nag(self, nag):
        self.events.append(f"${nag}")

    def begin_variation(self):
        self.events.append("(")

    def end_variation(self):
        self.events.append(")")

    def visit_result(self, result):
        self.events.append(result)

    def handle_error(self, error):
        self.events.append(f"error: {error}")

    def end_game(self):
        self.events.append(">")

    def result(self):
        return self.events


VISITED = '[GameType "25"]\n\n{start} 1. c3-d4 $1 {main} (1. e3-f4 f6-g5 (1... b6-a5)) ' \
          "f6-g5 2. g3-h4 2-0"
VISITED_EVENTS = [
    "<", "[GameType]", "|", "{start}", "0:c3-d4", "$1", "{main}", "(", "0:e3-f4", "1:f6-g5",
    "(", "1:b6-a5", ")", ")", "1:f6-g5", "2:g3-h4", "2-0", ">"]


def test_a_visitor_sees_the_game_in_file_order():
    # read from the text, as python-chess's read_game(handle, Visitor=...) does
    visitor = Events()
    assert read(VISITED, Visitor=lambda: visitor, variations=True) == VISITED_EVENTS
    assert visitor.boards == 1 + 6       # the start, then after each of the six moves
    # walked from the game read, the same calls (the Result tag the movetext filled in too)
    game = read(VISITED, variations=True)
    walked = Events()
    assert game.accept(walked) == VISITED_EVENTS[:2] + ["[Result]"] + VISITED_EVENTS[2:]
    assert walked.boards == visitor.boards
    # without variations=True, the reader skips them unseen
    assert read(VISITED, Visitor=Events) == [
        "<", "[GameType]", "|", "{start}", "0:c3-d4", "$1", "{main}", "1:f6-g5", "2:g3-h4",
        "2-0", ">"]


def test_the_visitor_sees_each_move_as_it_is_read():
    # the reader streams: the first move reaches the visitor before the game's last line is
    # read (an endless file of games: its handle counts the lines read)
    handle = CountingHandle()
    seen = []

    class Watch(pdn.Visitor):
        def visit_move(self, board, move):
            seen.append((str(move), handle.lines_read))

        def result(self):
            return None

    read_game(handle, Visitor=Watch)
    assert seen == [("c3-d4", 4), ("f6-g5", 4)]      # tags, blank line, then the movetext line
    # the errors of a game reach the visitor where they are met, and strict raises after
    text = '[GameType "25"]\n\n1. c3-d4 b6-a5 2. d4-d5 a5-b4 *\n\n[GameType "25"]\n\n1. e3-f4 *'
    handle = io.StringIO(text)
    visitor = Events()
    with pytest.raises(InvalidPdnError, match="'d4-d5'"):
        read_game(handle, Visitor=lambda: visitor)
    assert visitor.events[5].startswith("error: game 1, line 3: move 2. 'd4-d5'")
    assert visitor.events[:5] == ["<", "[GameType]", "|", "0:c3-d4", "1:b6-a5"]
    assert visitor.events[6:] == ["*", ">"]          # the moves after it are not sent
    assert texts(read_game(handle)) == ["e3-f4"]      # the next game is read next


class Skipping(Events):
    """Events that skips what `skip` names: "game", "moves" or "variations"."""

    def __init__(self, skip):
        super().__init__()
        self.skip = skip

    def begin_game(self):
        super().begin_game()
        return pdn.SKIP if self.skip == "game" else None

    def end_headers(self):
        super().end_headers()
        return pdn.SKIP if self.skip == "moves" else None

    def begin_variation(self):
        super().begin_variation()
        return pdn.SKIP if self.skip == "variations" else None


@pytest.mark.parametrize("skip,expected", [
    ("game", ["<", ">"]),
    ("moves", ["<", "[GameType]", "|", ">"]),
    ("variations", ["<", "[GameType]", "|", "{start}", "0:c3-d4", "$1", "{main}", "(",
                    "1:f6-g5", "2:g3-h4", "2-0", ">"]),
])
def test_skip_skips_what_the_visitor_says(skip, expected):
    # an illegal move in the skipped part is not read, so it is no error
    text = VISITED.replace("(1... b6-a5)", "(1... b6-b5)") + '\n\n[Event "next"]\n\n1. g3-f4 *'
    for source in (read(text, Visitor=lambda: Skipping(skip), variations=True),
                   read(VISITED, variations=True).accept(Skipping(skip))):
        kept = [e for e in source if e != "[Result]"]
        assert kept == expected
    # the game ends where a full read ends it: the next read_game reads the next game
    handle = io.StringIO(text)
    read_game(handle, Visitor=lambda: Skipping(skip), variations=True)
    assert read_game(handle).headers["Event"] == "next"


def test_read_headers_and_skip_game():
    handle = io.StringIO(MULTI)
    assert pdn.skip_game(handle) is True
    headers = pdn.read_headers(handle)
    assert headers == {"Event": "two", "GameType": "21"}
    assert [g.headers["Event"] for g in [read_game(handle)]] == ["three"]
    rest = list(read_games(handle, Visitor=pdn.HeadersBuilder))
    assert rest == [{"Event": "four"}, {}]
    assert pdn.read_headers(handle) is None and pdn.skip_game(handle) is False
    # a tag line that cannot be read is an error (strict), left out otherwise
    bad = '[Event "x"]\n[Round 3]\n\n1. c3-d4 *'
    with pytest.raises(InvalidPdnError, match="cannot read the tag line"):
        pdn.read_headers(io.StringIO(bad))
    assert pdn.read_headers(io.StringIO(bad), strict=False) == {"Event": "x"}
    assert pdn.skip_game(io.StringIO(bad)) is True


def test_the_writer_visits_the_reader_too():
    # PdnWriter is a visitor: read_game with it writes the game as read, without a Game
    game = read(VISITED, variations=True)
    assert read(VISITED, Visitor=pdn.PdnWriter, variations=True) == str(game)
    fen = "B:Wa1,c3,e3:Bf6,h8,b8"
    text = f'[GameType "25"]\n[FEN "{fen}"]\n\n1... f6-g5 2. c3-d4 *'
    assert read(text, Visitor=pdn.PdnWriter) == str(read(text))
    written = str(read(text))
    assert f'[FEN "{Board("russian", fen).fen()}"]' in written
    assert written.endswith("\n\n1... f6-g5 2. c3-d4 *")


def test_the_russian_short_form_reads():
    # Board.push takes the russian short form "gh4" (a man from the g-file to h4); the
    # reader reads it with the same code (shashki.notation)
    game = read('[GameType "25"]\n\n1. cd4 fg5 2. gh4 Gf6 3. dc5 *')
    assert texts(game) == ["c3-d4", "f6-g5", "g3-h4", "g7-f6", "d4-c5"]
    with pytest.raises(InvalidPdnError, match="illegal move 'ab6'"):
        read('[GameType "25"]\n\n1. ab6 *')
    with pytest.raises(InvalidPdnError, match="russian short form"):
        read('[GameType "21"]\n\n1. ab4 *')          # english squares are numbers


# --- issue 12: leaks, depth, long numbers --------------------------------------------------------

def _open_descriptors():
    try:
        return len(os.listdir("/proc/self/fd"))
    except OSError:   # no /proc: the weak references below still tell
        return None


def test_read_game_releases_its_handle(tmp_path):
    # issue 12.1: read_game's state of a handle (kept between calls) held handle.readline,
    # so the handle was never freed: 2,000 reads left 2,000 files open
    path = tmp_path / "one.pdn"
    path.write_text(MULTI, encoding="utf-8")
    before = _open_descriptors()
    handles = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)   # the files are left open on purpose
        for _ in range(200):
            handle = open(path, encoding="utf-8")
            assert texts(read_game(handle)) == ["c3-d4", "f6-g5"]
            handles.append(weakref.ref(handle))
            del handle
        for make in (lambda: io.StringIO(MULTI), lambda: io.BytesIO(MULTI.encode()),
                     lambda: (line for line in MULTI.splitlines(True))):
            handle = make()
            assert read_game(handle).headers["Event"] == "one"
            assert read_game(handle).headers["Event"] == "two"   # the state lasts
            handles.append(weakref.ref(handle))
            del handle
        gc.collect()
    assert [ref for ref in handles if ref() is not None] == []
    if before is not None:
        assert _open_descriptors() < before + 10


def _nested(depth, closed):
    return ('[GameType "25"]\n\n1. c3-d4 ' + "(1. e3-f4 " * depth + ")" * (depth if closed else 0)
            + " *\n")


def _peak_memory(text):
    tracemalloc.start()
    try:
        game = read(text, strict=False, variations=True)
        return tracemalloc.get_traced_memory()[1], game
    finally:
        tracemalloc.stop()


def test_nested_variations_cost_memory_linear_in_depth():
    # issue 12.2: each open variation's name held its parent's, so memory grew with the square
    # of the depth (10 GB for 20,000 levels).  Four times as deep costs about four times the
    # memory now; it was fifteen times (7 MB for 500 levels, 100 MB for 2,000)
    small, game = _peak_memory(_nested(500, closed=False))
    large, game = _peak_memory(_nested(2000, closed=False))
    assert texts(game) == ["c3-d4"] and len(game.errors) == 1   # never closed: dropped
    assert "not closed" in str(game.errors[0])
    assert large < 6 * small
    assert large < 2000 * 4000   # a few kB a level, far from the quadratic 100 MB


def test_deep_variations_read_and_write_back():
    # issue 12.3: a game read with 1,000 nested variations could not be written (the writer
    # recursed once per level): reading and writing both work at any depth
    depth = 3000
    game = read(_nested(depth, closed=True), variations=True)
    text = str(game)
    again = read(text, variations=True)
    for g in (game, again):
        lines, levels = g.variations[0], 0
        while lines:
            (line,) = lines
            assert [str(m) for m in line] == ["e3-f4"]
            lines, levels = line.variations[0], levels + 1
        assert levels == depth
    assert str(again) == text
    assert game_tree(again) == game_tree(game)


def test_errors_deep_in_variations_name_a_few_levels():
    # the name of a variation 50 levels deep names the innermost ones and counts the rest
    text = _nested(50, closed=False).replace(" *", " zz" + ")" * 50 + " *")
    with pytest.raises(InvalidPdnError) as info:
        read(text, variations=True)
    message = str(info.value)
    assert "cannot read 'zz'" in message and message.count("the variation replacing") == 3
    assert "inside 47 more variations" in message


PADDING = "0" * 5000   # past the 4,300 digits Python's int() converts


@pytest.mark.parametrize("tag,variant", [
    (f'[GameType "{PADDING}25"]', "russian"),
    (f'[GameType "{PADDING}21,B,{PADDING}8,8,N1,0"]', "english"),
    (f'[GameType "21"]\n[FEN "B:W{PADDING}21:B1"]', "english"),
])
def test_long_numbers_in_tags_read_as_their_value(tag, variant):
    # issue 12.6: a GameType of more than 4,300 digits raised Python's own ValueError, which
    # stopped read_games even with strict=False
    game = read(tag + "\n\n*")
    assert game.variant.name == variant and game.errors == []


def test_long_nags_read_as_their_value():
    game = read(f'[GameType "25"]\n\n1. c3-d4 ${PADDING}1 {PADDING}2. f6-g5 *')
    assert texts(game) == ["c3-d4", "f6-g5"] and game.nags == [{1}, set()]


def test_long_square_numbers_in_moves_read_as_their_value():
    # the move text of a PDN game reads numbers as FEN and Board.parse_move do
    assert texts(read(f'[GameType "21"]\n\n1. {PADDING}11-{PADDING}15 *')) == ["11-15"]
    with pytest.raises(InvalidPdnError, match="out of range") as info:
        read(f'[GameType "21"]\n\n1. 11-{"9" * 5000} *')
    assert len(str(info.value)) < 600   # the number is not repeated whole


@pytest.mark.parametrize("tag,problem", [
    ('[GameType "' + "9" * 5000 + '"]', "GameType 99999"),
    ('[GameType "\u00b2"]', "cannot read GameType"),      # a digit to str.isdigit, not to int
    ('[GameType "25,W,' + "9" * 5000 + ',8,A0,0"]', "board; russian is played on 8x8"),
])
def test_bad_long_numbers_in_tags_are_pdn_errors(tag, problem):
    text = f'{tag}\n\n1. c3-d4 *\n\n[GameType "25"]\n\n1. e3-f4 *\n'
    with pytest.raises(InvalidPdnError, match=re.escape(problem)) as info:
        list(read_games(io.StringIO(text)))
    assert len(str(info.value)) < 400   # the number is not repeated whole
    first, second = read_games(io.StringIO(text), strict=False)   # reading goes on
    assert first.errors and problem in str(first.errors[0])
    assert texts(second) == ["e3-f4"] and second.errors == []


def test_a_nag_out_of_range_is_a_pdn_error():
    with pytest.raises(InvalidPdnError, match=r"NAG \$1000 is out of range"):
        read("1. c3-d4 $1000 *")
    game = read("1. c3-d4 $" + "9" * 5000 + " f6-g5 *", strict=False)
    assert texts(game) == ["c3-d4"] and "out of range" in str(game.errors[0])


@pytest.mark.parametrize("game", ["international", "antidraughts", "breakthrough"])
def test_a_10x10_game_reads_back(game):
    # the reader refused GameType 20,W,10,10 ("shashki plays on 8x8"), so a game written by
    # shashki play international could not be read without naming the variant
    board = shashki.Board(game)
    for _ in range(6):
        board.push(sorted(board.legal_moves, key=str)[0])
    text = str(pdn.Game.from_board(board))
    again = pdn.read_game(io.StringIO(text))
    assert again.variant is board.variant
    assert [str(m) for m in again.moves] == [str(m) for m in board.move_stack]
