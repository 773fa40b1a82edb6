"""Move text: writing, reading, errors, and illegal moves (RULES.md "Squares, notation and FEN";
seeds 003 and 004: an illegal move changes nothing, and the touched piece must move if it can).
"""

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shashki import (AmbiguousMoveError, Board, IllegalMoveError, InvalidMoveError, Move,
                     Position, get_variant)

from mutation import mutated

VARIANTS = ["russian", "giveaway", "brazilian", "italian", "english"]
ALGEBRAIC = ["russian", "giveaway", "brazilian"]
SETTINGS = settings(max_examples=120, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
MOVE_ERRORS = (InvalidMoveError, IllegalMoveError)  # AmbiguousMoveError is an IllegalMoveError


def square_named(variant, name):
    v = get_variant(variant)
    return next(s for s in range(32) if v.square_name(s) == name)


def snapshot(board):
    return board.fen(), list(board.move_stack), list(board.legal_moves)


@st.composite
def played_boards(draw, variants=VARIANTS):
    """A board after random play from the start, or at a random position (kings included, so
    flying-king captures with many routes come up)."""
    variant = draw(st.sampled_from(variants))
    if draw(st.booleans()):
        board = Board(variant)
        for choice in draw(st.lists(st.integers(0, 999), max_size=70)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(moves[choice % len(moves)])
        return board
    order = draw(st.permutations(range(32)))
    white = order[:draw(st.integers(1, 8))]
    black = order[len(white):len(white) + draw(st.integers(1, 8))]
    kings = 0
    for s in white + black:
        if (s in white and s >= 28) or (s in black and s < 4) or draw(st.booleans()):
            kings |= 1 << s
    turn = draw(st.integers(0, 1))
    return Board.from_position(Position.from_masks(
        variant, sum(1 << s for s in white), sum(1 << s for s in black), kings, turn))


# --- every legal move's text reads back as that move ----------------------------------------

@SETTINGS
@given(board=played_boards(), data=st.data())
def test_every_legal_moves_text_parses_back_to_it(board, data):
    v = board.variant
    name = v.square_name
    moves = list(board.legal_moves)
    for move in moves:
        text = str(move)
        assert board.parse_move(text) == move
        # the full route, with any separator a capture may have ('-' alone for a quiet move)
        seps = ["-", "x", ":"] if move.is_capture else ["-"]
        route = data.draw(st.sampled_from(seps)).join(name(s) for s in move.path)
        assert board.parse_move(route) == move
        # a capture's separator may be any; a quiet move written as a capture is refused
        for sep in "-x:":
            other = re.sub(r"[-x:]", sep, text)
            if move.is_capture or sep == "-":
                assert board.parse_move(other) == move
            else:
                with pytest.raises(IllegalMoveError, match="quiet move"):
                    board.parse_move(other)
        decorated = " " + text.upper() + data.draw(st.sampled_from(["", "!", "?", "!?", "*"]))
        assert board.parse_move(decorated + " ") == move
        # the short form names one move unless another joins the same two squares
        short = f"{name(move.origin)}{v.capture_sep}{name(move.destination)}"
        same_ends = [m for m in moves
                     if (m.origin, m.destination) == (move.origin, move.destination)]
        if len(same_ends) == 1:
            assert text == (short if move.is_capture else short.replace(v.capture_sep, "-"))
        else:
            assert text == v.capture_sep.join(name(s) for s in move.path)


@SETTINGS
@given(board=played_boards(ALGEBRAIC))
def test_russian_short_form_of_every_man_move(board):
    moves = list(board.legal_moves)
    for move in moves:
        if board.kings >> move.origin & 1:
            continue
        file = board.variant.square_name(move.origin)[0]
        text = file + board.variant.square_name(move.destination)
        fits = [m for m in moves if not board.kings >> m.origin & 1
                and board.variant.square_name(m.origin)[0] == file
                and m.destination == move.destination]
        if len(fits) == 1:
            assert board.parse_move(text) == move
        else:
            with pytest.raises(AmbiguousMoveError) as info:
                board.parse_move(text)
            assert set(info.value.candidates) == set(fits)


def test_russian_short_form_from_the_start():
    board = Board("russian")
    assert str(board.parse_move("ab4")) == "a3-b4"
    assert str(board.parse_move("cd4")) == "c3-d4"
    assert str(board.parse_move(" GH4! ")) == "g3-h4"
    board.push("cd4")
    assert str(board.parse_move("ba5")) == "b6-a5"


def test_russian_short_form_errors():
    board = Board("russian")
    with pytest.raises(IllegalMoveError, match="no man on the a-file can move to c5"):
        board.parse_move("ac5")
    with pytest.raises(InvalidMoveError, match="light square"):
        board.parse_move("ab5")
    with pytest.raises(InvalidMoveError, match="algebraic games"):
        Board("english").parse_move("ab4")
    # it names men only: a king's move is written with both squares
    board = Board("russian", "W:WKc1:Bh8")
    with pytest.raises(IllegalMoveError):
        board.parse_move("cd2")
    assert str(board.parse_move("c1-d2")) == "c1-d2"


def test_russian_short_form_ambiguous():
    # two men of the a-file capture to c5: a3 forward over b4, a7 backward over b6
    board = Board("russian", "W:Wa3,a7:Bb4,b6")
    with pytest.raises(AmbiguousMoveError) as info:
        board.parse_move("ac5")
    assert {str(m) for m in info.value.candidates} == {"a3:c5", "a7:c5"}
    assert "a3:c5" in str(info.value) and "a7:c5" in str(info.value)


# --- short forms that fit several moves -----------------------------------------------------

@pytest.mark.parametrize("variant, fen, short", [
    ("russian", "B:Wb2,d2,f2,b4,f4:Ba5,h6,e7,g7", "a5:a1"),
    ("brazilian", "W:WKd8:Bg3,f4,f6,Kd4", "d8xc5"),
    ("italian", "B:W19,20,25-28,32:B7-11,15", "15x31"),
    ("english", "B:W10,11,18,19,26-32:B1,3-9,12", "7x23"),
])
def test_an_ambiguous_short_form_lists_the_moves(variant, fen, short):
    board = Board(variant, fen)
    origin, dest = (square_named(variant, s) for s in re.split("[x:]", short))
    expected = {m for m in board.legal_moves if (m.origin, m.destination) == (origin, dest)}
    assert len(expected) >= 2
    with pytest.raises(AmbiguousMoveError) as info:
        board.parse_move(short)
    assert set(info.value.candidates) == expected
    for move in expected:
        # each is written with its whole route, which the message lists and which reads back
        assert str(move).count(board.variant.capture_sep) >= 2
        assert str(move) in str(info.value)
        assert board.parse_move(str(move)) == move
    before = snapshot(board)
    with pytest.raises(AmbiguousMoveError):
        board.push(short)
    assert snapshot(board) == before


def test_two_squares_are_also_the_whole_route_of_a_single_capture():
    # the king e1 takes b4 and lands on a5, or goes round four pieces to a5: the short form
    # e1:a5 is the whole route of the first, so it reads as that one
    board = Board("russian", "B:Wa1,f2,h2,b4,d4,f4:Bf6,h6,c7,g7,Ke1")
    ends = [m for m in board.legal_moves if str(m).startswith("e1") and str(m).endswith("a5")]
    assert sorted(len(m.captured) for m in ends) == [1, 4]
    single = next(m for m in ends if len(m.captured) == 1)
    assert str(single) == "e1:a5"
    assert board.parse_move("e1:a5") == single
    assert board.parse_move("e1-a5") == single
    assert board.parse_move("e1:g3:e5:c3:a5") == next(m for m in ends if len(m.captured) == 4)


def test_any_route_of_a_move_with_several_reads_as_it():
    # the man c3 takes four men round the square b4-b6-d6-d4 in either direction, back on c3
    board = Board("russian", "W:Wc3:Bb4,b6,d6,d4,h8")
    (move,) = board.legal_moves
    assert move.routes == 2 and len(move.captured) == 4
    assert str(move) == "c3:c3"
    assert board.parse_move("c3:a5:c7:e5:c3") == move
    assert board.parse_move("c3:e5:c7:a5:c3") == move
    assert board.parse_move("C3xC3") == move
    for wrong in ["c3:a5:c3", "c3:a5:c7:e5:g3:c3", "c3:e5:g7:e5:c3", "c3:a5:c7:a5:c3"]:
        with pytest.raises(IllegalMoveError):
            board.parse_move(wrong)


def test_a_man_route_jumps_one_square_at_a_time():
    # the english man on 22 (c3) takes 18 (d4) and lands on 15 (e5): a route of longer legs
    # over the same piece is not this move's
    board = Board("english", "W:W22:B18,1")
    (move,) = board.legal_moves
    assert str(move) == "22x15"
    assert board.parse_move("22x15") == move
    with pytest.raises(IllegalMoveError):
        board.parse_move("22x11")


def test_flying_king_landing_squares_are_distinct_moves():
    board = Board("russian", "W:WKa1:Bc3")
    texts = sorted(map(str, board.legal_moves))
    assert texts == ["a1:d4", "a1:e5", "a1:f6", "a1:g7", "a1:h8"]
    for text in texts:
        assert str(board.parse_move(text.replace(":", "x"))) == text


# --- text that is not a move, moves that are not legal --------------------------------------

@pytest.mark.parametrize("variant, text, words", [
    ("russian", "", "empty move text"),
    ("russian", "  !? ", "empty move text"),
    ("russian", "c3", "expected squares joined by"),
    ("russian", "c3d4", "expected squares joined by"),
    ("russian", "c3--d4", "expected squares joined by"),
    ("russian", "c3-", "expected squares joined by"),
    ("russian", "1. c3-d4", "cannot read square"),
    ("russian", "c3-d5", "d5 in 'c3-d5' is a light square"),
    ("russian", "c3-i9", "off the board"),
    ("russian", "c3-c10", "off the board"),
    ("russian", "22-18", "russian moves name squares a1-h8, not numbers"),
    ("brazilian", "c3/d4", "expected squares joined by"),
    ("english", "c3-d4", "english moves name squares 1-32"),
    ("italian", "22-33", "square 33 in '22-33' is out of range"),
    ("italian", "0-5", "out of range"),
    ("italian", "22-" + "1" * 5000, "out of range"),
    ("english", "\u0661\u0662-16", "1-32"),  # arabic-indic digits are not square numbers
])
def test_invalid_move_text(variant, text, words):
    board = Board(variant)
    before = snapshot(board)
    with pytest.raises(InvalidMoveError) as info:
        board.push(text)
    assert words in str(info.value), str(info.value)
    assert snapshot(board) == before


@pytest.mark.parametrize("bad", [None, 22, ("c3", "d4"), b"c3-d4"])
def test_move_text_must_be_a_string(bad):
    with pytest.raises(InvalidMoveError, match="must be a string"):
        Board("russian").parse_move(bad)
    with pytest.raises(InvalidMoveError):
        Board("russian").push(bad)


# --- illegal moves: the board is unchanged and the message lists the piece's moves ----------

def illegal(board, move):
    before = snapshot(board)
    with pytest.raises(IllegalMoveError) as info:
        board.push(move)
    assert snapshot(board) == before
    return str(info.value)


def listed(message, square_name):
    match = re.search(f"legal moves of the piece on {square_name}: (.*)$", message)
    assert match, message
    return set(match.group(1).split(", "))


def test_illegal_move_of_a_piece_lists_its_moves():
    board = Board("russian")
    message = illegal(board, "c3-c5")
    assert listed(message, "c3") == {"c3-b4", "c3-d4"}
    message = illegal(board, Move(square_named("russian", "c3"), square_named("russian", "e5")))
    assert listed(message, "c3") == {"c3-b4", "c3-d4"}
    message = illegal(Board("english"), "9-18")
    assert listed(message, "9") == {"9-13", "9-14"}


def test_no_piece_there():
    message = illegal(Board("russian"), "d4-e5")
    assert "there is no piece on d4" in message
    message = illegal(Board("italian"), "17-13")
    assert "there is no piece on 17" in message


def test_wrong_colour():
    message = illegal(Board("russian"), "b6-a5")
    assert "the piece on b6 is black, and white is to move" in message
    message = illegal(Board("english"), "22-18")
    assert "the piece on 22 is white, and black is to move" in message


def test_a_piece_that_cannot_move():
    message = illegal(Board("russian"), "a1-b2")
    assert "the piece on a1 has no legal move" in message
    # and the moves that are legal
    for text in ("a3-b4", "c3-d4", "g3-h4"):
        assert text in message


def test_capture_compulsory_elsewhere():
    # white to move: the man on e3 must take d4; g3 and a1 have quiet moves that are not legal
    board = Board("russian", "W:Wa1,g3,e3:Bd4,h8")
    assert [str(m) for m in board.legal_moves] == ["e3:c5"]
    message = illegal(board, "a1-b2")
    assert "a capture is compulsory and the piece on a1 cannot capture: e3:c5" in message
    message = illegal(board, "g3-h4")
    assert "a capture is compulsory and the piece on g3 cannot capture" in message
    # a piece that can capture is told its captures
    message = illegal(board, "e3-f4")
    assert "a capture is compulsory" in message and listed(message, "e3") == {"e3:c5"}


def test_no_legal_moves_at_all():
    board = Board("russian", "W:Wa1:Bc3,b2")
    assert not board.legal_moves
    assert "white is to move and has no legal move" in illegal(board, "a1-b2")


def test_illegal_move_objects():
    board = Board("russian")
    # a capture that is not there, a Move with squares off the board
    assert "legal moves of the piece on c3" in illegal(board, Move(9, 17, (13,)))
    assert "is not a square" in illegal(board, Move(40, 44))
    # a square no board has is refused when the Move is made (issue 30.3: -2 raised a
    # SystemError, -1 and -3 were taken)
    for origin, destination in ((-1, 3), (3, -2), (0, 64)):
        with pytest.raises(InvalidMoveError, match="off any board"):
            Move(origin, destination)


def test_seed_003_004_illegal_then_legal_move_with_the_same_piece():
    # the piece goes back, and the player can make a legal move with it
    board = Board("russian")
    message = illegal(board, "e3-e5")
    alternatives = listed(message, "e3")
    for text in alternatives:
        board.push(text)
        assert board.peek().origin == square_named("russian", "e3")
        board.pop()
    assert board.fen() == Board("russian").fen()


@SETTINGS
@given(board=played_boards(), origin=st.integers(0, 31), dest=st.integers(0, 31),
       taken=st.lists(st.integers(0, 31), max_size=3))
def test_illegal_moves_in_random_positions(board, origin, dest, taken):
    move = Move(origin, dest, taken)
    moves = list(board.legal_moves)
    if move in moves:
        return
    name = board.variant.square_name
    message = illegal(board, move)
    own = {str(m) for m in moves if m.origin == origin}
    if own:
        assert listed(message, name(origin)) == own
    else:
        assert "legal moves of the piece" not in message
    # the same as text (unless the text names a legal capture between the two squares: the
    # separator does not tell a quiet move from a capture)
    if not taken and not any(m.origin == origin and m.destination == dest for m in moves):
        message = illegal(board, f"{name(origin)}-{name(dest)}")
        if own:
            assert listed(message, name(origin)) == own


# --- fuzzing: only the documented errors ----------------------------------------------------

MOVE_ALPHABET = "abcdefghiABCDH0123456789x:-× !?*+#."


def check_text(board, text):
    before = snapshot(board)
    try:
        move = board.parse_move(text)
    except MOVE_ERRORS as error:
        assert str(error)
        if isinstance(error, AmbiguousMoveError):
            assert len(error.candidates) >= 2
        with pytest.raises(type(error)):
            board.push(text)
        assert snapshot(board) == before
        return
    assert move in board.legal_moves
    assert board.push(text) == move
    board.pop()
    assert snapshot(board) == before


@settings(max_examples=300, deadline=None)
@given(board=played_boards(), text=st.text(max_size=30))
def test_random_text_raises_only_move_errors(board, text):
    check_text(board, text)


@settings(max_examples=300, deadline=None)
@given(board=played_boards(), text=st.text(alphabet=MOVE_ALPHABET, max_size=16))
def test_move_like_text_raises_only_move_errors(board, text):
    check_text(board, text)


@settings(max_examples=300, deadline=None)
@given(board=played_boards(), data=st.data())
def test_mutated_move_text_raises_only_move_errors(board, data):
    moves = list(board.legal_moves)
    text = str(data.draw(st.sampled_from(moves))) if moves else "c3-d4"
    check_text(board, data.draw(mutated(text, st.sampled_from(MOVE_ALPHABET), max_edits=3)))


def test_numbers_of_any_length():
    # int() of more than 4,300 digits raised a plain ValueError instead of reading the number
    pad = "0" * 5000
    assert Board("english").parse_move(f"{pad}9-{pad}13") == Board("english").parse_move("9-13")
    with pytest.raises(InvalidMoveError, match="out of range"):
        Board("english").push("9-" + "1" * 5000)


def test_a_route_must_be_one_the_rules_allow():
    # Issue 12.7: the black man crowned on c1 must land on f4 after taking d2 to go on over
    # e5 (a king lands where it can keep capturing, FMJD-64 4.6), so the route through c5
    # first is not legal; it was read as the move e3:e3 because Python re-derived the capture
    # geometry and ignored that rule.
    board = Board("russian", "B:Wb2,d2,b4,d4,e5:Be3")
    with pytest.raises(IllegalMoveError, match="takes that route"):
        board.push("e3:c5:a3:c1:e3")
    assert board.fen() == Board("russian", "B:Wb2,d2,b4,d4,e5:Be3").fen()
    move = board.parse_move("e3:c1:a3:c5:e3")
    assert [board.variant.square_name(s) for s in move.path] == ["e3", "c1", "a3", "c5", "e3"]


def test_a_flying_king_going_on_straight_may_land_anywhere_between():
    # the king takes c3 and goes on in the same direction over f6: the route may name d4 or e5
    # as the square between the two pieces; a square beyond f6 is another move
    board = Board("russian", "W:WKa1:Bc3,f6")
    move = board.parse_move("a1:g7")
    for between in ("d4", "e5"):
        assert board.parse_move(f"a1:{between}:g7") == move
    with pytest.raises(IllegalMoveError):
        board.parse_move("a1:b2:g7")


@pytest.mark.parametrize("variant,text,quiet", [
    ("russian", "c3xd4", "c3-d4"), ("russian", "c3:d4", "c3-d4"), ("russian", "c3×d4", "c3-d4"),
    ("english", "9x14", "9-14"), ("international", "31x27", "31-27"),
    ("italian", "21:17", "21-17")])
def test_a_quiet_move_written_as_a_capture_is_refused(variant, text, quiet):
    # issue 20.10: the capture separators name a capture
    board = Board(variant)
    before = board.fen()
    with pytest.raises(IllegalMoveError, match="written as a capture") as caught:
        board.push(text)
    assert quiet in str(caught.value) and [str(m) for m in caught.value.alternatives] == [quiet]
    assert board.fen() == before and not board.move_stack
    assert str(board.push(quiet)) == quiet


def test_a_capture_written_with_a_dash_is_read():
    # '-' joins the squares of any move: a capture written with it is the capture
    board = Board("russian", "W:Wc3:Bd4")
    assert str(board.push("c3-e5")) == "c3:e5"
