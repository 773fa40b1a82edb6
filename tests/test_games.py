"""Every real game of ../shared/games/ replays move by move with legal moves only (issue 3).

The counts asserted here come from the files themselves (their tag sections, their move
tokens, their result strings) and from the games README, not from the reader under test.
"""

import io
import re

import pytest

import shashki
from shashki import pdn
from perftfile import shared_dir

GAMES_DIR = shared_dir() / "games"
FILES = sorted(GAMES_DIR.glob("*.pdn"))
# a move as the files write it: squares joined by '-' or 'x'
MOVE_TOKEN = re.compile(r"(?<!\S)(?:[a-h][1-8]|\d{1,2})(?:[-x](?:[a-h][1-8]|\d{1,2}))+(?!\S)")
RESULT_TOKEN = re.compile(r"(?<!\S)(1-0|0-1|1/2-1/2|2-0|0-2|1-1|\*)\s*$")


def file_sections(path):
    """(tags, movetext) of each game, split by hand: a game starts at a tag line that follows
    a non-tag line."""
    games = []
    tags, movetext, in_tags = None, [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("["):
            if not in_tags:
                tags, movetext = {}, []
                games.append((tags, movetext))
                in_tags = True
            name, value = re.match(r'\[(\w+) "(.*)"\]', line).groups()
            tags[name] = value
        elif line.strip():
            in_tags = False
            movetext.append(line)
    return [(tags, " ".join(text)) for tags, text in games]


def readme_counts():
    """The number of games the README announces per file, e.g. "`lidraughts-russian.pdn`: 9"."""
    text = (GAMES_DIR / "README.md").read_text(encoding="utf-8")
    return {name: int(count) for name, count in re.findall(r"`([\w.-]+\.pdn)`: (\d+)", text)}


def test_the_corpus_is_there():
    assert FILES, f"no PDN files in {GAMES_DIR}"
    assert {p.name for p in FILES} == set(readme_counts())


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_game_replays_with_legal_moves_only(path, record_property):
    sections = file_sections(path)
    games = list(pdn.read_games(path))  # strict: any unreadable or illegal move raises
    assert len(games) == len(sections) == readme_counts()[path.name]

    plies = 0
    for number, (game, (tags, movetext)) in enumerate(zip(games, sections), 1):
        assert game.errors == []
        assert game.headers == tags
        # replay from the start, checking each move against the legal moves of its position
        board = shashki.Board(game.variant, game.starting_fen)
        for move in game.moves:
            assert move in board.legal_moves, f"game {number}: {move} is not legal"
            board.push(move)
        assert board == game.board()
        plies += len(game.moves)

        # every move written in the file is one move of the game; PlayStrategy writes each
        # jump of a multi-jump (one square per jump in english) as a move of its own
        result = RESULT_TOKEN.search(movetext)
        written = len(MOVE_TOKEN.findall(movetext[:result.start()]))
        if "GameType" in tags:
            assert len(game.moves) == written
        else:
            assert sum(max(1, len(m.captured)) for m in game.moves) == written

        # the recorded result is kept, and it is the movetext's
        assert game.result == tags["Result"] == result.group(1)
    record_property("games", len(games))
    record_property("plies", plies)
    assert plies > 0


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_games_are_in_their_rules(path):
    expected = {"lidraughts-russian.pdn": "russian", "lidraughts-brazilian.pdn": "brazilian",
                "playstrategy-english.pdn": "english"}
    for game in pdn.read_games(path):
        assert game.variant.name == expected[path.name]
        assert game.is_standard_start()


def test_playstrategy_jumps_are_merged_into_multi_captures():
    games = list(pdn.read_games(GAMES_DIR / "playstrategy-english.pdn"))
    multi = [m for game in games for m in game.moves if len(m.captured) > 1]
    assert multi, "the corpus has multi-jumps written as single jumps"
    # PlayStrategy's first moves are written from Black's side of the board: c3-d4 there is
    # f6-e5 seen from White, which is english 11-15 (square 1 = b8, rows of four from the top)
    first = [str(game.moves[0]) for game in games if game.moves]
    assert "11-15" in first
    assert all(game.board(1).turn == shashki.WHITE for game in games if game.moves)


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_real_games_round_trip(path):
    for game in pdn.read_games(path):
        text = str(game)
        again = pdn.read_game(io.StringIO(text))
        assert again.variant is game.variant
        assert again.starting_fen == game.starting_fen
        assert again.moves == game.moves
        assert again.result == game.result
        assert str(again) == text
        for name, value in game.headers.items():
            if name not in ("GameType", "FEN"):
                assert again.headers[name] == value
        assert all(len(line) <= pdn.LINE_WIDTH for line in text.split("\n\n", 1)[1].splitlines())
