"""The opening tables shipped as package data (RULES.md "Openings"; shashki/data/openings)."""

import json
import re
import subprocess
import sys
from importlib import resources

import pytest

import shashki
from shashki import Board, InvalidOpeningError, InvalidVariantError, Opening, get_variant
from shashki.fen import parse_fen

# (game, table id, file, entries whose name lists moves) — the counts of move lists are the
# numbers the openings README reports from an independent replay (349 russian, 342 brazilian,
# 149 basic positions, plus the free opening; every english ballot)
TABLES = [
    ("russian", "micro-match", "russian.json", 349),
    ("russian", "basic-150", "150russian_and_brazilian.json", 150),
    ("brazilian", "micro-match", "brazilian.json", 342),
    ("brazilian", "basic-150", "150russian_and_brazilian.json", 150),
    ("english", "2-move", "2move_english.json", 49),
    ("english", "3-move", "3move_english.json", 174),
    ("english", "4-move", "4move_english.json", 794),
    ("english", "5-move", "5move_english.json", 2700),
    ("english", "11-man", "11_english.json", 2500),
    ("italian", "11-man", "11_italian.json", 0),
]
# entries whose published FEN does not follow from the moves of their name (openings README)
FEN_CORRECTED = {
    ("russian.json", "XXVII-9: gh4 ba5 hg3 ab6 ef4 dc5"),
    ("brazilian.json", "XXVII-9: gh4 ba5 hg3 ab6 ef4 dc5"),
    ("150russian_and_brazilian.json", "2-IV ef4 fe5 ab4"),
}
# an opening of the 18 barred from the ACF three-move deck that the file lists as standard
BARRED = ("3move_english.json", "026 09-13 24-19 10-15")
CORRECTED = FEN_CORRECTED | {BARRED}


def raw(file):
    """A shipped file as published, read straight from the package data."""
    text = resources.files("shashki").joinpath(f"data/openings/{file}").read_text("utf-8")
    return json.loads(text)


def canonical(variant, fen):
    return Board(variant, fen).fen()


def replay(variant, start_fen, moves):
    board = Board(variant, start_fen)
    for text in moves:
        board.push(text)
    return board.fen()


@pytest.mark.parametrize("variant, table, file, move_lists", TABLES)
def test_every_entry_loads_and_every_move_list_replays_to_its_fen(variant, table, file,
                                                                   move_lists):
    published = raw(file)
    entries = shashki.openings(variant, table=table)
    assert [o.name for o in entries] == list(published["all"])
    replayed = 0
    for opening in entries:
        assert (opening.variant, opening.table) == (variant, table)
        flip = (file, opening.name) == BARRED
        assert opening.standard == ((opening.name in published["standard"]) != flip)
        assert opening.lost == ((opening.name in published.get("lost", ())) != flip)
        board = opening.position  # a valid FEN of this game
        assert board.fen() == canonical(variant, opening.fen)
        if opening.moves is not None:
            # the moves reach the FEN exactly, side to move included
            assert replay(variant, opening.start_fen, opening.moves) == board.fen(), opening.name
            replayed += 1
    assert replayed == move_lists


@pytest.mark.parametrize("variant, table, file, move_lists", TABLES)
def test_corrections_are_exactly_the_entries_whose_published_fen_disagrees(variant, table, file,
                                                                          move_lists):
    published = raw(file)["all"]
    disagree = set()
    for opening in shashki.openings(variant, table=table):
        if opening.moves is None:
            assert opening.correction is None
            continue
        reached = replay(variant, opening.start_fen, opening.moves)
        if canonical(variant, published[opening.name]) != reached:
            disagree.add((file, opening.name))
        assert (opening.correction is not None) == ((file, opening.name) in CORRECTED)
    assert disagree == {c for c in FEN_CORRECTED if c[0] == file}


def test_corrections_file_records_what_and_why():
    notes = raw("corrections.json")
    fixes = notes["corrections"]
    assert {(c["file"], c["name"]) for c in fixes} == CORRECTED
    for fix in fixes:
        published = raw(fix["file"])
        name = fix["name"]
        as_published = {"fen": published["all"][name], "standard": name in published["standard"],
                        "lost": name in published.get("lost", ())}
        assert fix["original"] == {k: as_published[k] for k in fix["original"]}
        assert fix["corrected"].keys() == fix["original"].keys()
        assert fix["corrected"] != fix["original"] and fix["reason"]
    for fix in (c for c in fixes if c["name"].startswith("XXVII-9")):
        # only the side to move changes
        original, corrected = fix["original"]["fen"], fix["corrected"]["fen"]
        assert corrected[1:] == original[1:] and (original[0], corrected[0]) == ("B", "W")
    barred = next(c for c in fixes if (c["file"], c["name"]) == BARRED)
    assert barred["corrected"] == {"standard": False, "lost": True}
    loaded = shashki.Board.from_opening("russian", "XXVII-9")
    assert loaded.turn == shashki.WHITE


@pytest.mark.parametrize("file, variant", [("russian.json", "russian"),
                                           ("brazilian.json", "brazilian")])
def test_category_names_that_move_men_describe_the_fen(file, variant):
    """`II-2: a1-a5 a7-h4` is the start position with White's man a1 put on a5 and Black's a7 on
    h4 (`---`: none moved); these names are not move lists."""
    v = get_variant(variant)
    names = {v.square_name(s): s for s in range(32)}
    start_white, start_black, _, _, _ = parse_fen(v.start_fen, v)
    described = 0
    for opening in shashki.openings(variant, table="micro-match"):
        body = opening.name.split(": ", 1)[1].split()
        if opening.moves is not None:
            assert all(re.fullmatch(r"[a-h][a-h][1-8]", t) for t in body)
            continue
        assert all(t == "---" or re.fullmatch(r"[a-h][1-8]-[a-h][1-8]", t) for t in body)
        white, black = start_white, start_black
        for token, color in zip(body, ("white", "black")):
            if token == "---":
                continue
            src, dst = (names[s] for s in token.split("-"))
            if color == "white":
                white = white & ~(1 << src) | 1 << dst
            else:
                black = black & ~(1 << src) | 1 << dst
        w, b, kings, _, _ = parse_fen(opening.fen, v)
        assert (w, b, kings) == (white, black, 0), opening.name
        described += 1
    assert described == len(raw(file)["all"]) - {"russian": 349, "brazilian": 342}[variant]


def test_eleven_man_ballots_remove_one_man_of_each_side():
    v = get_variant("english")
    start_white, start_black, _, _, _ = parse_fen(v.start_fen, v)
    for opening in shashki.openings("english", table="11-man"):
        removed = re.match(r"\d+\. Remove (\d+) and (\d+);", opening.name).groups()
        w, b, _, _, _ = parse_fen(opening.start_fen, v)
        squares = [v.square_from_number(int(n)) for n in removed]
        assert bin(w).count("1") == bin(b).count("1") == 11
        assert sorted(bin(m & ~n).count("1") for m, n in ((start_white, w), (start_black, b))) \
            == [1, 1]
        assert all((start_white | start_black) >> s & 1 and not (w | b) >> s & 1
                   for s in squares)
    vi = get_variant("italian")
    for opening in shashki.openings("italian"):
        w, b, kings, turn, _ = parse_fen(opening.fen, vi)
        assert bin(w).count("1") == bin(b).count("1") == 11 and kings == 0
        assert turn == vi.first_to_move and opening.moves is None


def test_names_that_are_move_lists():
    by_name = {o.name: o for o in shashki.openings("russian")}
    assert by_name["I-1: ab4"].moves == ("ab4",)
    assert by_name["I-3: ab4 ba5 ba3 ab6"].moves == ("ab4", "ba5", "ba3", "ab6")
    assert by_name["II-1: a1-a5"].moves is None
    assert by_name["X-1: --- a7-c5"].moves is None
    assert by_name["5-VII Free"].moves == ()
    assert by_name["5-VII Free"].start_fen == get_variant("russian").start_fen
    english = {o.name: o for o in shashki.openings("english")}
    assert english["001 09-13 21-17 05-09"].moves == ("09-13", "21-17", "05-09")
    assert english["1: 9-13 21-17 5-9 17-14 9x18"].moves[-1] == "9x18"
    assert english["1. Remove 11 and 28; 8-11 24-19"].moves == ("8-11", "24-19")


def test_counts_per_game():
    assert shashki.opening_tables("russian") == ("micro-match", "basic-150")
    assert shashki.opening_tables("brazilian") == ("micro-match", "basic-150")
    assert shashki.opening_tables("english") == ("2-move", "3-move", "4-move", "5-move",
                                                 "11-man")
    assert shashki.opening_tables("italian") == ("11-man",)
    assert shashki.opening_tables("giveaway") == ()
    assert len(shashki.openings("russian")) == 745 + 150
    assert len(shashki.openings("brazilian")) == 736 + 150
    assert len(shashki.openings("italian")) == 2400
    assert shashki.openings("giveaway") == []
    three = shashki.openings("english", table="3-move")
    assert sum(o.standard for o in three) == 156  # the ACF deck
    assert sum(o.lost for o in three) == 18  # and its barred openings (RULES.md)
    assert sum(o.standard for o in shashki.openings("english", table="2-move")) == 43


# --- starting a board from an opening --------------------------------------------------------

def test_board_from_opening():
    opening = shashki.openings("russian", table="micro-match")[1]
    assert opening.name == "I-2: ab4 ba5"
    for ref in (opening, opening.name, "I-2", " i-2 ", "I-2:"):
        board = Board.from_opening("russian", ref)
        assert board.fen() == canonical("russian", opening.fen) == opening.fen
        # the opening is a list of moves: they are played, on the move stack (issue 12.11:
        # the stack was empty)
        assert [str(m) for m in board.move_stack] == ["a3-b4", "b6-a5"]
        assert board.variant.name == "russian"
    board = Board.from_opening("english", "001", table="3-move")
    assert board.fen() == replay("english", "B:W21-32:B1-12", ["9-13", "21-17", "5-9"])
    assert [str(m) for m in board.move_stack] == ["9-13", "21-17", "5-9"]
    assert Board.from_opening("english", "1", table="11-man").turn == shashki.BLACK
    assert Board.from_opening("italian", "2400").fen() == canonical(
        "italian", raw("11_italian.json")["all"]["2400"])
    assert Board.from_opening("brazilian", "2-IV").fen() == replay(
        "brazilian", get_variant("brazilian").start_fen, ["ef4", "fe5", "ab4"])


@pytest.mark.parametrize("args, kwargs, words", [
    (("russian", "XL-1"), {}, "no opening 'XL-1' in the russian tables"),
    (("english", "1"), {}, "names 3 openings"),
    (("russian", "I-1"), {"table": "3-move"}, "no opening table '3-move' for russian"),
    (("giveaway", "I-1"), {}, "no opening tables for giveaway"),
    (("russian", 7), {}, "not int"),
])
def test_from_opening_errors(args, kwargs, words):
    with pytest.raises(InvalidOpeningError) as info:
        Board.from_opening(*args, **kwargs)
    assert words in str(info.value)


def test_an_opening_belongs_to_its_game():
    opening = shashki.openings("russian", table="basic-150")[0]
    with pytest.raises(InvalidOpeningError, match="russian tables"):
        Board.from_opening("brazilian", opening)
    with pytest.raises(InvalidVariantError):
        shashki.openings("chess")
    with pytest.raises(InvalidOpeningError, match="its tables are"):
        shashki.openings("italian", table="2-move")
    assert isinstance(opening, Opening)
    with pytest.raises(AttributeError):
        opening.fen = "W:W:B"  # frozen


def test_tables_load_lazily():
    code = ("import shashki, sys; from shashki import opening; "
            "print(opening._load.cache_info().currsize); "
            "shashki.openings('italian'); print(opening._load.cache_info().currsize)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["0", "1"]


def test_the_data_ships_with_its_source_and_license():
    folder = resources.files("shashki").joinpath("data/openings")
    readme = folder.joinpath("README.md").read_text("utf-8")
    assert "pydraughts" in readme and "MIT License" in readme and "Ioannis Pantidis" in readme
    files = {f for _, _, f, _ in TABLES} | {"corrections.json"}
    assert files <= {p.name for p in folder.iterdir()}


def test_barred_english_ballots_are_the_published_lists():
    # two-move: the six pairs excluded from the two-move restriction; three-move: the 18
    # ballots barred from the ACF deck (R. Pask, The Golden Dozen, 2005)
    two = {"9-14 21-17", "9-14 23-18", "10-14 21-17", "10-14 23-18", "11-16 23-19",
           "12-16 23-19"}
    three = {"9-13 21-17 10-14", "9-13 23-18 10-14", "9-13 24-19 10-15", "9-13 24-20 12-16",
             "9-14 22-18 12-16", "9-14 22-18 14-17", "9-14 23-19 10-15", "9-14 24-19 10-15",
             "10-14 24-19 11-15", "10-15 21-17 9-14", "10-15 22-17 9-14", "10-15 24-20 11-16",
             "11-15 21-17 10-14", "11-16 21-17 10-14", "11-16 22-18 10-15", "11-16 24-19 10-15",
             "12-16 23-18 9-14", "12-16 23-19 16-23"}
    for table, barred in (("2-move", two), ("3-move", three)):
        openings = shashki.openings("english", table=table)
        lost = {" ".join(re.sub(r"\b0(\d)", r"\1", m) for m in o.moves)
                for o in openings if o.lost}
        assert lost == barred
        assert all(o.standard != o.lost for o in openings)


@pytest.mark.parametrize("game", ["russian", "brazilian", "italian", "english"])
def test_opening_fens_are_canonical(game):
    # Opening.fen was the table's text, its squares in the authors' order (issue 12.11)
    for opening in shashki.openings(game):
        assert opening.fen == Board(game, opening.fen).fen()
