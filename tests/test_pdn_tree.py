"""PDN variations kept and the game tree: GameNode, Visitor, read_headers, skip_game."""

import io

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import shashki
from shashki import Board, pdn
from shashki.pdn import Game, InvalidPdnError, read_game, read_games

from pdn_support import (MULTI, PDN_PIECES, VARIANTS, CountingHandle, game_tree,
                          playstrategy_name, random_games, read, replay, same_game, texts)


# --- variations kept (the default, variations=True) -----------------------------------------------------------

ANNOTATED = ('[GameType "25"]\n\n'
             "1. c3-d4 (1. e3-f4 f6-g5 (1... b6-a5 2. f4-e5) 2. f4-e5) f6-g5 "
             "(1... b6-a5 2. d4-c5) (1... d6-e5) 2. g3-h4 *")


def test_variations_are_kept_by_default_as_chess_pgn_keeps_them():
    # issue 33.3: read_game skipped them unless told variations=True; chess.pgn keeps them
    game = read(ANNOTATED)
    assert texts(game) == ["c3-d4", "f6-g5", "g3-h4"]
    assert [len(v) for v in game.variations] == [1, 2, 0]
    assert str(game) == str(read(ANNOTATED, variations=True))
    assert [len(v) for v in next(read_games(io.StringIO(ANNOTATED))).variations] == [1, 2, 0]


def test_variations_are_skipped_when_asked():
    game = read(ANNOTATED, variations=False)
    assert texts(game) == ["c3-d4", "f6-g5", "g3-h4"]
    assert game.variations == [[], [], []]
    assert str(game) == str(read('[GameType "25"]\n\n1. c3-d4 f6-g5 2. g3-h4 *'))


def test_every_node_has_its_board():
    # issue 33.3: game.end() was a node with no .board(); python-chess's nodes all have one
    game = read(ANNOTATED)
    assert game.end().board() == game.board() and game.end().board().move_stack == \
        list(game.moves)
    assert game.root.board() == game.board(0)
    for ply, node in enumerate(game.mainline(), 1):
        assert node.board() == game.board(ply)
    # a variation's nodes: the line's moves played from the position before the move it
    # replaces (1... b6-a5 2. d4-c5 replaces f6-g5)
    line = game.mainline()[1].variations[0]
    assert [str(m) for m in line.next.board().move_stack] == ["c3-d4", "b6-a5", "d4-c5"]
    nested = game.mainline()[0].variations[0].next.variations[0]
    assert [str(m) for m in nested.board().move_stack] == ["e3-f4", "b6-a5"]
    # a board is a new one each time: changing it leaves the game as it was
    board = game.end().board()
    board.pop()
    assert game.end().board() == game.board()
    # a game built by hand and one from a tree have them too
    built = Game("english")
    built.add_move("11-15")
    assert built.end().board() == built.board() and built.root.board() == Board("english")
    # a node of no game has no starting position
    with pytest.raises(ValueError, match="no game"):
        pdn.GameNode().board()


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
    assert [g.variations for g in read_games(io.StringIO(text), variations=False)] == \
        [[[], [], []], [[], []]]


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
    # skipped (variations=False), the same text reads without error
    assert read(text, variations=False).errors == []
    assert texts(read(text, variations=False)) == ["c3-d4", "f6-g5"]
    # kept by default, as with variations=True
    with pytest.raises(InvalidPdnError):
        read(text)


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
    # with variations=False, the reader skips them unseen
    assert read(VISITED, Visitor=Events, variations=False) == [
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
