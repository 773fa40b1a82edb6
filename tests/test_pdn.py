"""PDN reading and writing (issue 3, part 4): tags, movetext, dialects, errors, round trips."""

import gc
import io
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

from pdn_support import (MULTI, PDN_PIECES, VARIANTS, CountingHandle, game_tree,
                          playstrategy_name, random_games, read, same_game, texts)


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
    # nested variations skipped (variations=False: read, the illegal 2. f4xd6 is an error)
    "1. c3-d4 (1. e3-f4 f6-e5 (1... b6-a5) 2. f4xd6) f6-g5 *",
    "%escaped line\n1. c3-d4\n%another\nf6-g5 *",
    "1. c3-d4\n  f6-g5\n*",
])
def test_tolerated_movetext(movetext):
    game = read('[GameType "25"]\n\n' + movetext, variations=False)
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
    ("1. c3-d4 (e3-f4 *", "variation '(' is not closed"),
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


# --- a visitor that raises (issue 30.15) ---------------------------------------------------------

class Raised(Exception):
    pass


# three games: the first with comments, NAGs, a variation with a blank line inside it, one
# inside another, and an illegal move in a variation (so handle_error is called)
RAISING_TEXT = ('[Event "one"]\n[FEN "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,'
                'c7,e7,g7,b8,d8,f8,h8"]\n\n{start} 1. c3-d4 $1 (1. e3-f4\n\nf6-g5 (1... b6-a5)'
                ' (1... c3-c4)) f6-g5 2. g3-h4 *\n\n'
                '[Event "two"]\n\n1. c3-d4 f6-g5 *\n\n[Event "three"]\n\n1. c3-c4 *\n')
HOOKS = ["begin_game", "begin_headers", "visit_header", "end_headers", "visit_board",
         "visit_move", "visit_comment", "visit_nag", "begin_variation", "end_variation",
         "visit_result", "handle_error", "end_game", "result"]


def raising_builder(hook, when):
    """A GameBuilder whose `hook` raises Raised at its `when`-th call in the first game."""
    calls = {"game": 0, "hook": 0}

    class Builder(pdn.GameBuilder):
        pass

    def wrapped(self, *args):
        if calls["game"] == 1:
            calls["hook"] += 1
            if calls["hook"] == when:
                raise Raised(hook)
        return getattr(pdn.GameBuilder, hook)(self, *args)

    def make():
        calls["game"] += 1
        return Builder()
    setattr(Builder, hook, wrapped)
    return make


@pytest.mark.parametrize("when", [1, 2])
@pytest.mark.parametrize("hook", HOOKS)
def test_a_visitor_that_raises_leaves_the_handle_at_the_next_game(hook, when):
    handle = io.StringIO(RAISING_TEXT)
    make = raising_builder(hook, when)
    try:
        first = read_game(handle, Visitor=make, variations=True, strict=False)
    except Raised:
        first = None
    else:       # (a hook called fewer than `when` times in that game)
        assert first.headers["Event"] == "one"
    second = read_game(handle, Visitor=make, variations=True)
    assert second.headers["Event"] == "two" and [str(m) for m in second.moves] == \
        ["c3-d4", "f6-g5"]
    with pytest.raises(InvalidPdnError, match="game 3, line 14"):  # numbered as the third
        read_game(handle, Visitor=make)
    assert read_game(handle, Visitor=make) is None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hook=st.sampled_from(HOOKS), when=st.integers(1, 12),
       first=st.sampled_from(["", RAISING_TEXT]),
       pieces=st.lists(st.sampled_from(PDN_PIECES + ['\n\n[Event "x"]\n\n', "(", ")", "{c}",
                                                    "$3", "\n\n", "\n"]), max_size=40))
def test_fuzzing_raising_visitors(hook, when, first, pieces):
    """Whatever the text and wherever the visitor raises, the games read after it are those
    a reader that never raised would read next."""
    text = first + "".join(pieces)
    games = list(read_games(io.StringIO(text), strict=False))
    handle = io.StringIO(text)
    try:
        read_game(handle, Visitor=raising_builder(hook, when), strict=False)
    except Raised:
        pass
    rest = [(g.headers, texts(g)) for g in read_games(handle, strict=False)]
    assert rest == [(g.headers, texts(g)) for g in games[1:]]
