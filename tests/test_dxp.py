"""shashki.dxp.messages: the DamExchange protocol's messages (issue 33.1, its first part), read and
written, against the examples pydraughts 0.6.7's DamExchange documents and writes (read off
its dxp_classes.py: facts of a peer no one here wrote), malformed messages, framing, and the
translation of moves and positions."""

import pytest
from hypothesis import given, settings, strategies as st

import shashki
from shashki import BLACK, WHITE
from shashki.dxp import messages as dxp
from shashki.dxp.messages import (BackAccept, BackRequest, Chat, DxpError, Frames, GameAccept,
                                  GameEnd, GameRequest, MoveMessage)

from positions import random_games, random_positions

GAME = shashki.get_variant("international").name


# --- pydraughts' examples, as it writes them -------------------------------------------------

def test_the_messages_pydraughts_writes_are_read():
    request = dxp.parse("R01" + "DXP Client".ljust(32) + "Z" + "005" + "050" + "A")
    assert request == GameRequest("DXP Client", BLACK, 5, 50)
    assert dxp.parse("M001205250422122320") == MoveMessage(12, 5, 25, (22, 12, 23, 20))
    assert dxp.parse("E00") == GameEnd(0, False)
    assert dxp.parse("E11") == GameEnd(dxp.I_LOSE, True)
    assert dxp.parse("B005Z") == BackRequest(5, BLACK)
    assert dxp.parse("K1") == BackAccept(dxp.BACK_NOT_SUPPORTED)
    assert dxp.parse("CWhat do you think about move 35?") == Chat("What do you think about "
                                                                   "move 35?")
    # its reader takes the follower's name at 1:33 and the code at 33
    accept = GameAccept("shashki", dxp.ACCEPTED).text()
    assert accept[1:33].strip() == "shashki" and accept[33:34] == "0" and len(accept) == 34


def test_a_request_with_a_position_of_its_own():
    position = shashki.Position(GAME, "B:W31-40,K45:B11-20,K6")
    request = GameRequest("initiator", WHITE, 90, 75, position)
    text = request.text()
    assert len(text) == 94 and text[42:44] == "BZ"
    assert text[44:] == dxp.position_squares(position)
    assert text[44 + 45 - 1] == "W" and text[44 + 6 - 1] == "Z"
    again = dxp.parse(text)
    assert again.position == position and again.follower_color is WHITE
    assert (again.minutes, again.moves, again.name) == (90, 75, "initiator")


# --- every message, both ways ------------------------------------------------------------------

squares = st.integers(1, 50)
messages = st.one_of(
    st.builds(Chat, st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=126)),
    st.builds(GameRequest, st.text("abcXYZ 0123.", max_size=32).map(str.strip),
              st.sampled_from([WHITE, BLACK]), st.integers(0, 999), st.integers(0, 999)),
    st.builds(GameAccept, st.text("abc 01", max_size=32).map(str.strip),
              st.sampled_from([0, 1, 2, 3, 9])),
    st.builds(MoveMessage, st.integers(0, 9999), squares, squares,
              st.lists(squares, max_size=20, unique=True).map(tuple)),
    st.builds(GameEnd, st.integers(0, 3), st.booleans()),
    st.builds(BackRequest, st.integers(1, 999), st.sampled_from([WHITE, BLACK])),
    st.builds(BackAccept, st.integers(0, 2)))


@settings(max_examples=300, deadline=None)
@given(messages)
def test_every_message_reads_back_as_written(message):
    text = message.text()
    assert len(text) <= dxp.MAX_LENGTH
    assert dxp.parse(text) == message
    assert Frames().feed(Frames.encode(message)) == [text]


# --- what is not a message ---------------------------------------------------------------------

@pytest.mark.parametrize("text,words", [
    ("", "starts with one of C, R, A, M, E, B, K"),
    ("X01", "starts with one of"),
    ("M00120525", "at least 11 characters"),
    ("M0012052501", "a MOVE with 1 capture has 13 characters, not 11"),
    ("M00a2052500", "the seconds must be 4 digits"),
    ("M0012005100", "the origin must be a square from 1 to 50, not 0"),
    ("M0012055100", "the destination must be a square from 1 to 50, not 51"),
    ("M00120525022222", "captures each square once"),
    ("E4", "a GAMEEND has 3 characters"),
    ("E41", "a reason 0-3"),
    ("B000W", "1 to 999, not 0"),
    ("B005X", "the side to move must be W (White) or Z (Black)"),
    ("K3", "a BACKACC code is 0, 1 or 2"),
    ("A" + "x" * 32 + "5", "a GAMEACC code is 0, 1, 2, 3 or 9"),
    ("R01" + " " * 32 + "Q005050A", "the follower's colour must be W (White) or Z (Black)"),
    ("R01" + " " * 32 + "W005050C", "a GAMEREQ's position is A"),
    ("R01" + " " * 32 + "W005050B", "a GAMEREQ's position is A"),
    ("R01" + " " * 32 + "W005050BW" + "q" * 50, "50 squares each one of e w z W Z"),
    ("R01" + " " * 32 + "W005050BW" + "w" * 50, "cannot be played"),
    ("C" + "x" * 127, "at most 127 characters"),
    ("Cnot ascii: \u00e9", "ASCII text without NUL"),
])
def test_a_malformed_message_says_what_was_expected(text, words):
    with pytest.raises(DxpError, match=words.replace("(", r"\(").replace(")", r"\)")):
        dxp.parse(text)
    assert issubclass(DxpError, ValueError)


def test_a_message_that_cannot_be_written_is_refused():
    for message, words in ((MoveMessage(0, 0, 5), "the origin must be a square"),
                           (MoveMessage(10000, 1, 5), "seconds are 0 to 9999"),
                           (GameEnd(7), "reason is 0, 1, 2 or 3"),
                           (BackRequest(0, WHITE), "1 to 999"),
                           (GameAccept("x", 5), "0, 1, 2, 3 or 9"),
                           (GameRequest("x", WHITE, 1000, 0), "minutes must fit"),
                           (Chat("x" * 200), "at most 127")):
        with pytest.raises(DxpError, match=words):
            message.text()


def test_frames_split_a_stream_anywhere():
    stream = b"".join(Frames.encode(m) for m in (GameEnd(2, True), MoveMessage(1, 32, 28),
                                                 Chat("hi")))
    for cut in range(len(stream) + 1):
        frames = Frames()
        got = frames.feed(stream[:cut]) + frames.feed(stream[cut:])
        assert got == ["E21", "M0001322800", "Chi"]
    with pytest.raises(DxpError, match="without its NUL"):
        Frames().feed(b"C" + b"x" * 200)
    with pytest.raises(DxpError, match="ASCII"):
        Frames().feed(b"C\xff\0")


# --- moves and positions ---------------------------------------------------------------------

@settings(max_examples=120, deadline=None)
@given(st.one_of(random_games([GAME]), random_positions([GAME])))
def test_every_legal_move_goes_there_and_back(board):
    position = board.position
    assert dxp.position_of(position.turn, dxp.position_squares(position)) == position
    for move in position.legal_moves:
        message = dxp.move_message(move, 3)
        assert dxp.parse(message.text()) == message
        assert dxp.move_of(position, message) == move
        # the captured squares in any order
        turned = MoveMessage(3, message.origin, message.destination, message.captured[::-1])
        assert dxp.move_of(position, turned) == move


def test_a_move_that_is_not_legal_is_refused_naming_the_legal_ones():
    position = shashki.Position(GAME)
    words = (r"no legal move goes from 32 to 26 taking nothing; the legal moves \(from, to, "
             r"count, captures\) are 312700, ")
    with pytest.raises(DxpError, match=words):
        dxp.move_of(position, MoveMessage(0, 32, 26))
    assert dxp.move_of(position, MoveMessage(0, 32, 28)) == position.parse_move("32-28")
