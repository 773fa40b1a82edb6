"""Properties of random games in every variant (hypothesis)."""

from hypothesis import given, settings, strategies as st

import shashki

VARIANTS = ["russian", "giveaway", "brazilian", "italian", "english"]


@st.composite
def random_games(draw, max_plies=80):
    board = shashki.Board(draw(st.sampled_from(VARIANTS)))
    for _ in range(draw(st.integers(0, max_plies))):
        moves = sorted(board.legal_moves, key=str)
        if not moves:
            break
        board.push(moves[draw(st.integers(0, len(moves) - 1))])
    return board


def _pieces(mask):
    return bin(mask).count("1")


@settings(max_examples=150, deadline=None)
@given(random_games())
def test_push_pop_restores_every_position(board):
    fens = []
    replay = shashki.Board(board.variant.name)
    for move in board.move_stack:
        fens.append(replay.fen())
        replay.push(move)
    assert replay.fen() == board.fen()
    while board.move_stack:
        board.pop()
        assert board.fen() == fens.pop()
    assert board.fen() == board.variant.start_fen


@settings(max_examples=150, deadline=None)
@given(random_games())
def test_fen_round_trip(board):
    fen = board.fen()
    again = shashki.Board(board.variant.name, fen)
    assert again.fen() == fen
    assert again == board
    assert set(again.legal_moves) == set(board.legal_moves)


@settings(max_examples=150, deadline=None)
@given(random_games())
def test_perft_one_is_the_legal_move_count(board):
    moves = list(board.legal_moves)
    assert board.perft(1) == len(moves) == len(set(moves))
    assert board.perft(1, paths=True) == sum(m.routes for m in moves)
    assert sum(board.divide(2).values()) == board.perft(2)


@settings(max_examples=150, deadline=None)
@given(random_games())
def test_moves_keep_the_invariants(board):
    mover = board.turn
    white, black, kings = board.white, board.black, board.kings
    assert white & black == 0 and kings & ~(white | black) == 0
    assert _pieces(white) <= 12 and _pieces(black) <= 12
    promo_rows = board.variant.promotion_row(shashki.WHITE) & white & ~kings, \
        board.variant.promotion_row(shashki.BLACK) & black & ~kings
    assert promo_rows == (0, 0), "a man stands on its own promotion row"
    for move in board.legal_moves:
        own = (white, black)[mover]
        enemy = (black, white)[mover]
        assert own >> move.origin & 1
        assert move.destination == move.origin or not (white | black) >> move.destination & 1
        assert move.captured_mask & ~enemy == 0
        assert len(move.path) == max(1, len(move.captured)) + 1
        board.push(move)
        assert _pieces((board.white, board.black)[1 - mover]) == \
            _pieces(enemy) - len(move.captured)
        assert board.turn != mover
        board.pop()


@settings(max_examples=100, deadline=None)
@given(random_games())
def test_every_move_text_parses_back(board):
    for move in board.legal_moves:
        assert board.parse_move(str(move)) == move
        long_form = board.variant.capture_sep.join(board.variant.square_name(s)
                                                   for s in move.path)
        if move.is_capture:
            assert board.parse_move(long_form) == move
