"""What the PDN tests share: sample games, a reader of text, game strategies."""

import io
import itertools

from hypothesis import strategies as st

import shashki
from shashki import Board, pdn
from shashki.pdn import Game, read_game

VARIANTS = ["russian", "giveaway", "brazilian", "italian", "english"]


def read(text, **kwargs):
    return read_game(io.StringIO(text), **kwargs)


def texts(game):
    return [str(m) for m in game.moves]


def playstrategy_name(number):
    """PlayStrategy's name of english square `number`: the algebraic name from White's side,
    turned half a turn (a1 <-> h8)."""
    english = shashki.get_variant("english")
    file, rank = english.geometry.coords(english.square_from_number(number))
    name = "abcdefgh"[file] + str(rank + 1)
    return "abcdefgh"[7 - "abcdefgh".index(name[0])] + str(9 - int(name[1]))


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


class CountingHandle:
    """An endless PDN file that counts the lines read from it."""

    def __init__(self):
        self.lines_read = 0
        game = '[Event "x"]\n[GameType "25"]\n\n1. c3-d4 f6-g5 *\n\n'.splitlines(True)
        self._lines = itertools.cycle(game)

    def readline(self):
        self.lines_read += 1
        return next(self._lines)


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
