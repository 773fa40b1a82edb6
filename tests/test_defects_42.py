"""Issue 42's defects in the newest surfaces, each pinned by the test that failed before its
fix: move text as a str subclass (4), one answer to a set-up's end (5), a Piece of no colour
(6), each game's own piece limit (7), True and False as the winner (8)."""

import enum

import pytest
from hypothesis import given, settings, strategies as st

import shashki
from shashki import BLACK, WHITE, Board, Piece, Position, Status
from shashki.errors import InvalidColorError, InvalidFenError, InvalidPieceError
from shashki.notation import parse_move
from shashki.outcome import Outcome, Termination
from shashki.status import describe, position_status

from positions import VARIANTS, boards


# --- 4: move text as a str subclass --------------------------------------------------------

class Text(str):
    pass


class Named(str, enum.Enum):
    OPENING = "c3-d4"


def _texts():
    out = [Text("c3-d4"), Named.OPENING]
    try:
        import numpy
    except ImportError:
        pass
    else:
        out.append(numpy.str_("c3-d4"))
    return out


@pytest.mark.parametrize("text", _texts(), ids=lambda t: type(t).__name__)
def test_move_text_may_be_a_str_subclass(text):
    # the C reader took an exact str and raised TypeError; `in legal_moves` took any
    position = Position("russian")
    move = position.parse_move("c3-d4")
    assert position.parse_move(text) == move
    assert parse_move(position, text) == move
    assert position.apply(text) == position.apply(move)
    board = Board("russian")
    assert text in board.legal_moves
    assert board.push(text) == move and board.fen() == position.apply(move).fen()


# --- 5: one answer to a set-up position's end ----------------------------------------------

@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("turn", [WHITE, BLACK])
def test_an_empty_board_ends_alike_on_the_board_and_its_position(name, turn):
    board = Board.empty(name)
    board.turn = turn
    outcome = board.outcome()
    assert outcome is not None and outcome == board.position.outcome()
    # the side to move has no move: it lost (in giveaway and antidraughts it won)
    variant = shashki.get_variant(name)
    assert outcome.winner == (turn if variant.reversed_goal else not turn)


@settings(max_examples=150, deadline=None)
@given(boards())
def test_a_set_up_position_ends_alike_on_the_board_and_its_position(board):
    # one decider (issue 31): a position alone ends as a board set up there does, draws that
    # need no history included (turkish's one piece each was the Board's alone before)
    fresh = Board.from_position(board.position)
    assert fresh.position.outcome() == fresh.outcome()


# --- 6: a Piece of no colour ----------------------------------------------------------------

@pytest.mark.parametrize("color", [2, None, "white", 1.0, -1])
def test_a_piece_of_no_colour_is_refused_saying_what_it_holds(color):
    board = Board("russian")
    before = board.fen()
    piece = Piece(color)
    assert repr(color) in repr(piece) and repr(color) in str(piece)    # never raises
    with pytest.raises(InvalidPieceError, match=f"not Piece\\({repr(color)}, king=False\\)"):
        board.set_piece_at("d4", piece)
    assert board.fen() == before


def test_a_piece_of_bools_and_ints_is_a_piece():
    assert repr(Piece(True)) == "Piece(WHITE, king=False)" and str(Piece(0, True)) == \
        "black king"


# --- 7: one limit on a side's pieces, said alike everywhere ---------------------------------
# The limit is the board's (Geometry.max_pieces, the men of a full start on it), in every game
# of that board: thai is also played from a 12-man start, frysk's positions are frisian's.
# The words said "the men it starts with", which frysk (5) and thai (8) contradicted.

@pytest.mark.parametrize("name", VARIANTS)
def test_one_piece_too_many_is_refused_alike_with_the_same_words(name):
    variant = shashki.get_variant(name)
    most = variant.geometry.max_pieces
    squares = variant.geometry.squares
    crowning = variant.promotion_row(WHITE)
    free = [s for s in range(squares) if not crowning >> s & 1]
    white = 0
    for s in free[:most + 1]:
        white |= 1 << s
    black = 1 << next(s for s in range(squares) if not (white | variant.promotion_row(BLACK))
                      >> s & 1)
    # status() and its words
    status = position_status(variant, white, black, 0)
    assert status & Status.TOO_MANY_WHITE_PIECES
    assert describe(status, variant) == [
        f"White has more than {most} pieces, a side's men in a full start on this board"]
    # the editor, one piece past a full side
    board = Board.empty(name)
    for s in free[:most]:
        board.set_piece_at(s, Piece(WHITE))
    board.set_piece_at(black.bit_length() - 1, Piece(BLACK))
    assert board.is_valid()
    with pytest.raises(InvalidPieceError, match=f"a side has at most {most} in {name} "
                                                f"\\(the men of a full start on its board\\)"):
        board.set_piece_at(free[most], Piece(WHITE))
    # FEN reading
    names = ",".join(variant.square_name(s) for s in free[:most + 1])
    with pytest.raises(InvalidFenError, match=f"a side has at most {most}$"):
        Position(name, f"W:W{names}:B{variant.square_name(black.bit_length() - 1)}")


def test_frysk_and_thai_take_a_full_board_start():
    assert Board("frysk", fen="W:W31-50:B1-20").is_valid()
    assert Board("thai", fen="W:W21-32:B1-12").is_valid()


# --- 8: True and False as the winner --------------------------------------------------------

def test_outcome_takes_true_and_false_as_the_colours():
    assert Outcome(True, Termination.NO_MOVES) == Outcome(WHITE, Termination.NO_MOVES)
    assert Outcome(False, Termination.NO_MOVES).winner is BLACK
    assert Outcome(True, Termination.NO_MOVES).result() == "1-0"


@pytest.mark.parametrize("winner", [1.0, "white", 2, -1])
def test_outcome_refuses_what_is_no_colour(winner):
    with pytest.raises(InvalidColorError, match="winner must be"):
        Outcome(winner, Termination.NO_MOVES)
