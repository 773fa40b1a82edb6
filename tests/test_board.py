"""The Board / Move contract of issue 2: construction, legal moves, push/pop, errors."""

import copy
import pickle

import pytest

import shashki
from shashki import WHITE, Board, Move

VARIANT_NAMES = ["russian", "giveaway", "brazilian", "italian", "english"]


@pytest.mark.parametrize("alias,name", [
    ("poddavki", "giveaway"), ("american", "english"), ("checkers", "english"),
    ("RUSSIAN", "russian"), ("brazilian", "brazilian"), ("italian", "italian")])
def test_aliases(alias, name):
    assert Board(alias).variant.name == name


def test_unknown_variant_is_a_value_error():
    with pytest.raises(ValueError, match="unknown variant 'chess'"):
        Board("chess")
    with pytest.raises(shashki.InvalidVariantError):
        Board(None)


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_start_position(name):
    board = Board(name)
    assert board.fen() == board.variant.start_fen
    assert len(board.legal_moves) == 7
    assert board.turn == board.variant.first_to_move
    assert bin(board.white).count("1") == bin(board.black).count("1") == 12
    assert board.kings == 0


def test_english_black_moves_first_and_italian_white():
    assert Board("english").turn == shashki.BLACK
    assert Board("italian").turn == shashki.WHITE


def test_legal_moves_view():
    board = Board("russian")
    moves = board.legal_moves
    assert len(moves) == moves.count() == 7
    assert all(isinstance(m, Move) for m in moves)
    first = next(iter(moves))
    assert first in moves
    # move text is matched as push reads it (python-chess users write `"e2e4" in ...`)
    assert "c3-d4" in moves and "c3-e5" not in moves
    assert "not a move" not in moves and 42 not in moves
    board.push("c3-d4")
    assert len(moves) == 7 and first not in moves   # the view follows the board


def test_move_value_semantics():
    board = Board("russian", "W:Wc3:Bd4,f6,h6")
    (move,) = board.legal_moves
    assert str(move) == "c3:g7" and move.is_capture
    same = Move(move.origin, move.destination, captured=move.captured)
    assert same == move and hash(same) == hash(move)
    assert {move: 1}[same] == 1
    assert [board.variant.square_name(s) for s in move.path] == ["c3", "e5", "g7"]


def test_push_text_and_move_then_pop_restores():
    board = Board("russian")
    start = board.fen()
    move = board.push("c3-d4")
    assert isinstance(move, Move) and str(move) == "c3-d4"
    assert board.turn == shashki.BLACK
    reply = next(iter(board.legal_moves))
    board.push(reply)
    assert board.move_stack == [move, reply]
    assert board.pop() == reply
    assert board.pop() == move
    assert board.fen() == start
    with pytest.raises(IndexError):
        board.pop()


def test_capture_is_compulsory_and_error_leaves_board_unchanged():
    board = Board("russian", "W:Wc3,a1:Bd4")
    before = board.fen()
    with pytest.raises(shashki.IllegalMoveError, match="c3:e5"):
        board.push("a1-b2")
    assert board.fen() == before and board.move_stack == []
    for bad in ["", "c3", "c3-c4", "z9-a1", "c3-d4-", 42, None]:
        with pytest.raises(ValueError):
            board.push(bad)
        assert board.fen() == before


def test_russian_man_crowned_mid_capture_goes_on_as_king():
    # RULES.md / published.perft: h6 takes g7, is crowned on f8 and must go on as a king
    board = Board("russian", "W:Wh6:Bg7,c5,d2")
    (move,) = board.legal_moves
    names = [board.variant.square_name(s) for s in move.path]
    assert names == ["h6", "f8", "b4", "e1"]
    assert move.promotion
    board.push(move)
    assert board.piece_at(move.destination) == (shashki.WHITE, True)


def test_brazilian_man_passing_the_far_row_stays_a_man():
    # same position in brazilian: the man goes on capturing as a man and is not crowned
    board = Board("brazilian", "W:Wh6:Bg7,e7,c5")
    moves = list(board.legal_moves)
    assert [str(m) for m in moves] == ["h6xb4"]
    board.push(moves[0])
    assert board.piece_at(moves[0].destination) == (shashki.WHITE, False)


def test_english_capture_ends_on_crowning():
    # black man on 22 jumps 26 and lands on 31 (crowned): the move ends there
    board = Board("english", "B:W26,27:B22")
    moves = [str(m) for m in board.legal_moves]
    assert moves == ["22x31"]


def test_turkish_strike_a_piece_is_not_jumped_twice():
    # a russian king circling: captured pieces stay until the move ends
    board = Board("russian", "W:WKa1:Bc3,e5,c5,e3")
    for move in board.legal_moves:
        assert len(set(move.captured)) == len(move.captured)


def test_divide_matches_perft():
    board = Board("italian")
    table = board.divide(4)
    assert sum(table.values()) == board.perft(4) == 1469
    assert set(table) == set(board.legal_moves)


def test_perft_depth_zero_and_errors():
    board = Board("english")
    assert board.perft(0) == 1
    for bad in (-1, 1.5, "3", True):
        with pytest.raises(ValueError):
            board.perft(bad)


def test_str_is_a_diagram_with_coordinates():
    text = str(Board("russian"))
    assert "a b c d e f g h" in text
    lines = text.splitlines()
    assert lines[1].startswith("8 ") and lines[8].startswith("1 ")
    assert text.count("w") == 12 and text.count("b") == 12 + 1   # the file letter b


def test_copy_is_independent():
    board = Board("brazilian")
    board.push("c3-d4")
    twin = board.copy()
    twin.push(next(iter(twin.legal_moves)))
    assert len(board.move_stack) == 1 and len(twin.move_stack) == 2
    assert twin.pop() and twin == board


def test_illegal_move_lists_the_alternatives():
    # seeds 003/004: the touched piece goes back and must make one of its legal moves
    board = Board("russian")
    with pytest.raises(shashki.IllegalMoveError) as info:
        board.push("c3-c5")
    assert {str(m) for m in info.value.alternatives} == {"c3-b4", "c3-d4"}
    # a piece that cannot move: every legal move is an alternative
    with pytest.raises(shashki.IllegalMoveError) as info:
        board.push("a1-b2")
    assert set(info.value.alternatives) == set(board.legal_moves)
    # a compulsory capture elsewhere
    board = Board("russian", "W:Wc3,a1:Bd4")
    with pytest.raises(shashki.IllegalMoveError) as info:
        board.push("a1-b2")
    assert [str(m) for m in info.value.alternatives] == ["c3:e5"]


def test_a_move_repr_is_never_a_call_that_fails():
    # issue 31.5: repr(move) was Move('c3-d4'), and Move('c3-d4') is a TypeError (a move's
    # text needs its game): a game's move shows as <Move c3-d4>, not as a call
    move = Board("russian").parse_move("c3-d4")
    assert repr(move) == "<Move c3-d4>"
    with pytest.raises(SyntaxError):
        eval(repr(move), {"Move": Move})
    # a hand-made move's repr is the call that makes it again
    for hand in (Move(9, 13), Move(9, 17, (13,))):
        assert eval(repr(hand), {"Move": Move}) == hand


def test_a_move_knows_its_game():
    board = Board("english")
    move = board.parse_move("9-13")
    assert str(move) == "9-13" and move.variant is board.variant
    # made by hand, a move has no game: its text is the internal squares, which no game's
    # notation uses (9-13 would read as a different english move)
    hand = Move(move.origin, move.destination)
    assert hand == move and hand.variant is None
    assert str(hand) == f"s{move.origin}-s{move.destination}" and repr(hand).startswith("Move(")
    assert str(Move(9, 17, (13,))) == "s9:s17"
    # pushed, the board's own move (with its game and route) goes on the stack
    pushed = board.push(hand)
    assert pushed.variant is board.variant and str(board.peek()) == "9-13"


def test_colours_are_python_chess_bools():
    # issue 31.5: WHITE was 0, so `if board.turn:` meant Black to move and WHITE == True was
    # False; python-chess's habits hold now
    assert shashki.WHITE == True and shashki.BLACK == False  # noqa: E712 (the habit tested)
    assert shashki.WHITE and not shashki.BLACK
    assert (not shashki.WHITE) is False and (not shashki.BLACK) is True
    assert int(shashki.WHITE) == 1 and int(shashki.BLACK) == 0
    russian, english = Board("russian"), Board("english")
    if russian.turn:                        # White moves first in russian ...
        pass
    else:
        raise AssertionError("`if board.turn:` is not White to move")
    assert not english.turn                 # ... and Black first in english
    english.push(next(iter(english.legal_moves)))
    assert english.turn and english.turn is shashki.WHITE
    # the side as a bool goes in too, as python-chess's board.turn = True
    assert shashki.Position.from_masks("russian", 1, 1 << 31, 0, True).turn is shashki.WHITE
    # a pair indexed by colour is (black, white), python-chess's order
    assert shashki.variants.COLOR_NAMES[russian.turn] == "white"
    assert shashki.variants.COLOR_NAMES[shashki.BLACK] == "black"


def test_colours_print_as_names():
    assert repr(shashki.WHITE) == "shashki.WHITE" and str(shashki.BLACK) == "black"
    assert shashki.WHITE.other is shashki.BLACK and shashki.BLACK.other is shashki.WHITE
    assert Board("english").turn is shashki.BLACK
    outcome = Board("russian", "W:Wa1:Bc3,b2").outcome()
    assert "winner=shashki.BLACK" in repr(outcome)


def test_piece_at_takes_square_names():
    board = Board("russian")
    assert board.piece_at("c3") == board.piece_at(board.variant.square("c3")) == (WHITE, False)
    assert board.piece_at("D4") is None and Board("english").piece_at("22") == (WHITE, False)


@pytest.mark.parametrize("square", [-1, 32, 10**30, True, "z9", "d5x", "22", 2.0])
def test_piece_at_checks_its_square(square):
    with pytest.raises(shashki.InvalidSquareError):
        Board("russian").piece_at(square)


def test_peek_and_pop_on_an_empty_board_say_so():
    with pytest.raises(IndexError, match="no moves played"):
        Board().peek()
    with pytest.raises(IndexError, match="no moves played"):
        Board().pop()


def test_named_squares_per_game():
    russian, english, italian = (shashki.get_variant(n) for n in ("russian", "english", "italian"))
    assert russian.Square.C3 == russian.square("c3") == russian.square(" C3 ")
    assert russian.square_name(russian.Square.H8) == "h8"
    assert english.square_name(english.Square.S21) == "21" == english.square_name(english.square("21"))
    assert italian.square_name(italian.Square.S21) == "21"
    assert len(russian.Square) == 32
    with pytest.raises(shashki.InvalidSquareError, match="not a square of russian"):
        russian.square("i9")
    with pytest.raises(shashki.InvalidSquareError):
        english.square("33")


def test_the_top_level_namespace_holds_only_the_api():
    for name in ("Any", "Dict", "List", "Optional", "Tuple", "TYPE_CHECKING"):
        assert not hasattr(shashki, name), name
    assert set(shashki.__all__) <= set(dir(shashki))


def test_the_legal_moves_iterated_are_those_of_the_position_iterated():
    board = Board("russian")
    expected = [str(m) for m in board.legal_moves]
    # looking ahead: push and pop inside the loop
    seen = []
    for move in board.legal_moves:
        seen.append(str(move))
        board.push(move)
        board.push(next(iter(board.legal_moves)))
        board.pop()
        board.pop()
    assert seen == expected
    # playing on: the moves left are still the first position's
    seen = []
    for move in board.legal_moves:
        seen.append(str(move))
        if len(board.move_stack) < 3:
            board.push(next(iter(board.legal_moves)))
    assert seen == expected and len(board.move_stack) == 3


@pytest.mark.parametrize("depth", [2**70, -1, 65, 1.5, "3"])
def test_perft_and_divide_check_the_depth(depth):
    # 2**70 overflowed the C int (OverflowError) before the depth was bounded
    for call in (lambda: Board().perft(depth, jobs=1), lambda: Board().divide(depth)):
        with pytest.raises(ValueError, match="depth"):
            call()


def test_reading_one_board_from_many_threads_is_safe():
    # A Board is not shared between threads for writing (its docstring says so, as
    # python-chess's does); reading it is safe: legal moves, FEN, perft and copies from many
    # threads at once give what one thread gets.
    from concurrent.futures import ThreadPoolExecutor
    board = Board("russian")
    for text in ("c3-d4", "f6-e5", "d4:f6", "g7:e5"):
        board.push(text)
    expected = ([str(m) for m in board.legal_moves], board.fen(), board.perft(4),
                board.copy().fen(), board.outcome())

    def read(_):
        out = []
        for _ in range(50):
            out.append(([str(m) for m in board.legal_moves], board.fen(), board.perft(4, jobs=1),
                        board.copy().fen(), board.outcome()))
        return out

    with ThreadPoolExecutor(max_workers=8) as pool:
        for results in pool.map(read, range(8)):
            assert all(r == expected for r in results)


@pytest.mark.parametrize("variant", [v.name for v in shashki.VARIANTS])
def test_every_games_board_pickles_and_deep_copies(variant):
    # antidraughts, whose endgame rules are on by default, could not be unpickled (issue 22:
    # OpenSpiel clones states by deepcopy); deepcopy is copy(), the history copied in C
    board = shashki.Board(variant)
    for _ in range(6):
        moves = sorted(board.legal_moves)
        if not moves:
            break
        board.push(moves[len(moves) // 2])
    for again in (pickle.loads(pickle.dumps(board)), copy.deepcopy(board)):
        assert again == board and again.move_stack == board.move_stack
        assert again.fmjd_draw_rules == board.fmjd_draw_rules
        assert again.draw_counters == board.draw_counters
    deep = copy.deepcopy(board)
    deep.pop()
    assert len(board.move_stack) == len(deep.move_stack) + 1
