"""The board editor (issue 33.2): Piece, piece_map, set_piece_at, remove_piece_at, clear,
Board.empty, turn =, and status() with the one check of shashki.status that FEN reading
shares; properties over random positions of every game (hypothesis)."""

import pytest
from hypothesis import assume, given, settings, strategies as st

import shashki
from shashki import BLACK, WHITE, Board, Piece, Position, Status
from shashki.errors import (InvalidColorError, InvalidFenError, InvalidPieceError,
                            InvalidSquareError)
from shashki.status import describe, position_status

from positions import VARIANTS, boards

PIECES = [Piece(WHITE), Piece(WHITE, True), Piece(BLACK), Piece(BLACK, True)]


def _state(board):
    """What an edit must leave alone when it is refused: the position, its history and
    counters."""
    return (board.fen(), list(board.move_stack), board.ply(), tuple(board.draw_counters),
            board.king_runs)


def _no_runs(board):
    """The position without the kings' runs (frisian), which an edit resets."""
    return board.masks


# --- Piece and piece_map ------------------------------------------------------------------------

def test_piece_at_gives_a_piece_that_is_still_the_pair():
    board = Board("russian")
    piece = board.piece_at("c3")
    assert piece == Piece(WHITE, False) == (WHITE, False) and isinstance(piece, Piece)
    color, king = board.piece_at("b6")
    assert (color, king) == (BLACK, False) and board.piece_at("d4") is None
    assert board.piece_at("b6") is board.piece_at("d6")     # the four pieces are made once


def test_piece_text_and_symbols():
    assert [str(p) for p in PIECES] == ["white man", "white king", "black man", "black king"]
    assert [p.symbol() for p in PIECES] == list("wWbB")
    assert [Piece.from_symbol(p.symbol()) for p in PIECES] == PIECES
    assert repr(Piece(0, True)) == "Piece(BLACK, king=True)"
    for bad in ("x", "", "wW", ".", None, 3):
        with pytest.raises(InvalidPieceError, match="one of w W b B"):
            Piece.from_symbol(bad)


@settings(max_examples=100, deadline=None)
@given(boards())
def test_piece_map_is_piece_at_of_every_occupied_square(board):
    pieces = board.piece_map()
    squares = range(board.variant.geometry.squares)
    assert pieces == {s: board.piece_at(s) for s in squares if board.piece_at(s) is not None}
    assert list(pieces) == sorted(pieces)
    white, black, kings, _ = board.masks
    assert sum(1 << s for s, p in pieces.items() if p.color == WHITE) == white
    assert sum(1 << s for s, p in pieces.items() if p.color == BLACK) == black
    assert sum(1 << s for s, p in pieces.items() if p.king) == kings
    assert board.position.piece_map() == pieces      # the same, read-only, on a Position


# --- status --------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", VARIANTS)
def test_every_start_is_valid_and_an_empty_board_is_not(name):
    assert Board(name).status() == Status.VALID and Board(name).is_valid()
    assert Position(name).status() == Status.VALID
    empty = Board.empty(name)
    assert empty.status() == Status.EMPTY == Status.NO_WHITE_PIECES | Status.NO_BLACK_PIECES
    assert not empty.is_valid()


def test_a_side_without_pieces_is_not_valid_even_after_a_game():
    board = Board("russian", "W:Wc3:Bd4")
    board.push("c3:e5")                 # the last black piece taken
    assert board.status() == Status.NO_BLACK_PIECES and not board.is_valid()
    assert board.outcome().winner == WHITE   # (the game is over, as outcome says)
    assert describe(board.status(), board.variant) == ["Black has no pieces"]


def test_a_side_that_cannot_move_is_still_valid():
    # the position of a game that is over by the rules is a position: outcome() tells
    board = Board("russian", "W:Wa1:Bb2,c3")
    assert not board.legal_moves and board.is_valid()


@pytest.mark.parametrize("name,white,black,kings,reasons", [
    # 13 white men on russian: more than any side starts with
    ("russian", (1 << 13) - 1, 1 << 31, 0, Status.TOO_MANY_WHITE_PIECES),
    ("russian", 1 << 28, 1, 0, Status.WHITE_MAN_ON_CROWNING_ROW | Status.BLACK_MAN_ON_CROWNING_ROW),
    ("international", (1 << 21) - 1, 1 << 40, 0, Status.TOO_MANY_WHITE_PIECES),
    ("turkish", 1 << 8, (1 << 17) - 1 << 40, 0, Status.TOO_MANY_BLACK_PIECES),
    ("english", 0, 1 << 31, 0, Status.NO_WHITE_PIECES),
])
def test_the_one_check_gives_the_reasons_fen_reading_refuses(name, white, black, kings,
                                                             reasons):
    variant = shashki.get_variant(name)
    status = position_status(variant, white, black, kings)
    assert status == reasons
    if status & ~shashki.status.HELD:
        # what the core cannot hold is refused by the FEN check, which is this same check
        with pytest.raises(InvalidFenError):
            Position.from_masks(variant, white, black, kings, WHITE)
    else:
        assert Position.from_masks(variant, white, black, kings, WHITE).status() == status
    assert len(describe(status, variant)) == bin(status).count("1")


def test_the_reasons_in_words():
    variant = shashki.get_variant("international")
    assert describe(Status.TOO_MANY_BLACK_PIECES | Status.WHITE_MAN_ON_CROWNING_ROW, variant) \
        == ["a white man stands on its crowning row, where a man is a king",
            "Black has more than 20 pieces, a side's men in a full start on this board"]
    assert describe(Status.VALID, variant) == []


# --- editing ---------------------------------------------------------------------------------------

def test_set_and_remove_pieces():
    board = Board("russian")
    board.push("c3-d4")
    assert board.remove_piece_at("d4") == Piece(WHITE)
    assert board.move_stack == [] and board.root == board.position   # the record is gone
    assert board.remove_piece_at("d4") is None
    board.set_piece_at("c3", Piece(WHITE, king=True))
    assert board.piece_at("c3") == Piece(WHITE, True)
    board.set_piece_at("b6", None)              # None takes it off
    board.set_piece_at(12, (False, False))      # a (color, is_king) pair, an int square;
    assert board.piece_at(12) == Piece(BLACK)   # python-chess's False is Black
    assert board.fen() == ("B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,Kc3:"
                           "Bb4,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8")
    # a piece of the other side replaces the one there
    board.remove_piece_at("b4")
    board.set_piece_at("a1", Piece(BLACK, True))
    assert board.piece_at("a1") == Piece(BLACK, True) and bin(board.black).count("1") == 12


def test_an_edit_that_changes_nothing_keeps_the_game():
    board = Board("russian")
    board.push("c3-d4")
    board.set_piece_at("d4", Piece(WHITE))     # already there
    assert board.remove_piece_at("e5") is None
    board.turn = BLACK                          # already to move
    assert [str(m) for m in board.move_stack] == ["c3-d4"]


def test_an_edit_counts_the_draw_rules_from_the_new_position():
    board = Board("russian", "W:WKa1:BKh2")
    for move in ["a1-b2", "h2-g1", "b2-a1", "g1-h2"] * 2:
        board.push(move)
    assert board.is_repetition(3) and board.halfmove_clock == 8
    board.set_piece_at("c1", Piece(WHITE, True))
    assert not board.is_repetition(2) and board.halfmove_clock == 0
    assert board.ply() == 0 and board.fullmove_number == 1


@pytest.mark.parametrize("name,square,piece,words", [
    ("russian", "d8", Piece(WHITE), "a white man on d8 stands on its own crowning row, where "
                                    "a man is crowned; put a white king there"),
    ("russian", "a1", Piece(BLACK), "a black man on a1 stands on its own crowning row"),
    ("english", "1", Piece(WHITE), "a white man on 1 stands on its own crowning row"),
    ("turkish", "h1", Piece(BLACK), "a black man on h1 stands on its own crowning row"),
    ("russian", "d4", Piece(WHITE), "a white man on d4 would give white 13 pieces; a side has "
                                    "at most 12 in russian"),
    ("international", "30", Piece(BLACK, True), "would give black 21 pieces; a side has at "
                                                "most 20 in international"),
    ("russian", "d4", "W", "a piece is a shashki.Piece .* not 'W'"),
    ("russian", "d4", (WHITE, 1), "not \\(shashki.WHITE, 1\\)"),
    ("russian", "d4", (None, False), "a piece is a shashki.Piece"),
    ("russian", "d4", (2, False), "a piece is a shashki.Piece"),
    ("russian", "d4", (WHITE, False, 1), "a piece is a shashki.Piece"),
])
def test_a_refused_piece_says_why_and_leaves_the_board(name, square, piece, words):
    board = Board(name)
    moves = list(board.legal_moves)
    board.push(moves[0])
    before = _state(board)
    with pytest.raises(InvalidPieceError, match=words):
        board.set_piece_at(square, piece)
    assert _state(board) == before


@pytest.mark.parametrize("square,words", [
    (32, "square 32 is off the board; russian squares are 0..31"), (-1, "off the board"),
    ("c4", "'c4' is not a square of russian"), ("z9", "not a square"),
    (True, "a square is an int or its name, not bool"), (1.0, "not float"),
])
def test_a_bad_square_says_which_squares_there_are(square, words):
    board = Board("russian")
    board.push("c3-d4")
    before = _state(board)
    with pytest.raises(InvalidSquareError, match=words):
        board.set_piece_at(square, Piece(WHITE))
    with pytest.raises(InvalidSquareError, match=words):
        board.remove_piece_at(square)
    assert _state(board) == before


@pytest.mark.parametrize("name", VARIANTS)
def test_clear_and_empty_set_the_first_side_to_move(name):
    variant = shashki.get_variant(name)
    board = Board(name)
    board.push(next(iter(board.legal_moves)))
    board.clear()
    assert board.piece_map() == {} and board.move_stack == [] and board.ply() == 0
    # python-chess's clear sets White, chess's first side: here the game's (english: Black)
    assert board.turn == variant.first_to_move
    assert board == Board.empty(name) and board.fen() == Board.empty(name).fen()
    assert not board.legal_moves and board.outcome() is not None


def test_english_is_black_first():
    assert Board.empty("english").turn == BLACK and Board.empty("italian").turn == WHITE


def test_the_side_to_move_is_an_edit():
    board = Board("english")
    board.push("11-15")
    assert board.turn == WHITE
    board.turn = BLACK
    assert board.turn == BLACK and board.move_stack == []
    assert board.fen().startswith("B:") and board.ply() == 0
    board.turn = True                           # python-chess's WHITE
    assert board.turn is WHITE and board.ply() == 1   # (the second side's move of move 1)
    board.turn = 0
    assert board.turn is BLACK
    board.turn = WHITE
    for bad in (2, -1, "white", None, 0.0):
        with pytest.raises(InvalidColorError, match="shashki.WHITE or shashki.BLACK"):
            board.turn = bad
    assert board.turn == WHITE


def test_frisian_kings_runs_belong_to_the_record():
    board = Board("frisian", "W:W30,K46:B5:+0+246")
    assert board.king_runs[0] == (board.variant.square("46"), 2)   # (White's first)
    board.set_piece_at("20", Piece(BLACK))
    assert board.king_runs == ((None, 0), (None, 0))
    assert Board("frisian", board.fen()) == board


def test_an_edited_board_pickles_and_copies():
    import pickle
    board = Board.empty("brazilian")
    board.set_piece_at("c3", Piece(WHITE, True))
    board.set_piece_at("f6", Piece(BLACK))
    assert pickle.loads(pickle.dumps(board)).fen() == board.fen() == board.copy().fen()
    assert board.position.fen() == board.fen() and board.root == board.position


# --- properties -------------------------------------------------------------------------------------

@settings(max_examples=120, deadline=None)
@given(boards())
def test_a_board_built_square_by_square_is_the_original(board):
    rebuilt = Board.empty(board.variant)
    for square, piece in board.piece_map().items():
        rebuilt.set_piece_at(square, piece)
    rebuilt.turn = board.turn
    assert rebuilt.masks == board.masks
    if board.king_runs == rebuilt.king_runs:    # (frisian's runs are not pieces)
        assert rebuilt.fen() == board.fen()
        assert sorted(rebuilt.legal_moves) == sorted(board.legal_moves)


@settings(max_examples=120, deadline=None)
@given(boards(), st.data())
def test_set_then_remove_restores(board, data):
    empty = [s for s in range(board.variant.geometry.squares) if board.piece_at(s) is None]
    assume(empty)
    square = data.draw(st.sampled_from(empty))
    piece = data.draw(st.sampled_from(PIECES))
    masks = _no_runs(board)
    try:
        board.set_piece_at(square, piece)
    except InvalidPieceError:
        assert _no_runs(board) == masks
        return
    assert board.piece_at(square) == piece
    assert board.remove_piece_at(square) == piece
    assert _no_runs(board) == masks


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(VARIANTS), st.data())
def test_random_edits_follow_a_model_and_stay_positions_of_the_game(name, data):
    board = Board.empty(name)
    model = {}
    n = board.variant.geometry.squares
    for _ in range(data.draw(st.integers(1, 60))):
        square = data.draw(st.integers(0, n - 1))
        piece = data.draw(st.sampled_from(PIECES + [None]))
        try:
            board.set_piece_at(square, piece)
        except InvalidPieceError:
            continue
        if piece is None:
            model.pop(square, None)
        else:
            model[square] = piece
        assert board.piece_map() == dict(sorted(model.items()))
    # whatever the edits, the board is a position a FEN gives, its moves generated soundly
    assert Board(name, board.fen()) == board
    assert board.status() & ~shashki.status.HELD == Status.VALID
    assert len(board.legal_moves) == board.perft(1)
