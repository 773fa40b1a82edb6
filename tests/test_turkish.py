"""Turkish draughts (dama): the rules of the record's docstring (shashki.variants.TURKISH),
each tested on a position that only that rule decides."""

import io

import pytest

import shashki
from shashki import BLACK, WHITE, Board, Position
from shashki.outcome import Termination
from perftfile import PEER_ERRORS


def moves(fen, to_move=None):
    return sorted(str(m) for m in Position("turkish", fen).legal_moves)


def test_the_start():
    board = Board("turkish")
    assert board.fen() == ("W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:"
                           "Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7")
    assert sorted(map(str, board.legal_moves)) == [f"{f}3-{f}4" for f in "abcdefgh"]
    assert board.variant.geometry.squares == 64 and board.variant.action_space_size == 4607


def test_men_step_forward_or_sideways_never_back():
    assert moves("W:Wd4:Bh8") == ["d4-c4", "d4-d5", "d4-e4"]
    assert moves("B:Wa1:Bd5") == ["d5-c5", "d5-d4", "d5-e5"]
    # a man on the edge file has one sideways step
    assert moves("W:Wa4:Bh8") == ["a4-a5", "a4-b4"]


def test_men_capture_forward_or_sideways_never_back():
    assert moves("W:Wd4:Bd5") == ["d4xd6"]
    assert moves("W:Wd4:Bc4") == ["d4xb4"]
    # the piece behind cannot be taken: the man steps instead
    assert moves("W:Wd4:Bd3") == ["d4-c4", "d4-d5", "d4-e4"]


def test_kings_fly_along_ranks_and_files_to_the_first_piece():
    got = moves("W:WKd4:Bh8")
    assert got == sorted(f"d4-{s}" for s in ["a4", "b4", "c4", "e4", "f4", "g4", "h4",
                                             "d1", "d2", "d3", "d5", "d6", "d7", "d8"])
    # pydraughts 0.6.7 lets this king pass its own man on h2 to h1 (56 positions of the perft
    # tree from the start, depth 5: 85,146 there, 85,090 by the rules)
    fen = ("W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,Kh8:"
           "Ba5,b6,c6,d6,e6,f6,g6,a7,b7,c7,d7,e7,f7,g7")
    king = [m for m in moves(fen) if m.startswith("h8")]
    assert king == sorted([f"h8-h{r}" for r in range(3, 8)] + ["h8-g8", "h8-f8", "h8-e8",
                                                                "h8-d8", "h8-c8", "h8-b8",
                                                                "h8-a8"])
    count, _ = PEER_ERRORS[("turkish-start", "perft", 5)]
    assert Position("turkish").perft(5) == count


def test_a_king_lands_on_any_square_beyond():
    assert moves("W:WKd1:Bd4,a8") == ["d1xd5", "d1xd6", "d1xd7", "d1xd8"]


def test_captured_pieces_leave_at_once():
    # the king takes d4 going south, e2 going east, g3 going north, and then, going west along
    # the fourth rank, crosses d4, freed by its first capture, to take c4.  With the Turkish
    # strike (pieces lifted when the move ends) d4 would block that way: three pieces at most
    position = Position("turkish", "W:WKd5:Be2,d4,c4,g3")
    square = position.variant.square
    assert {len(m.captured) for m in position.legal_moves} == {4}
    routes = {(m.path, m.captured) for m in position.routes()}
    assert (tuple(map(square, ["d5", "d2", "g2", "g4", "b4"])),
            tuple(map(square, ["d4", "e2", "g3", "c4"]))) in routes


def test_no_turn_of_180_degrees_between_two_captures():
    # back down the file over the square it came from would take d2 as well: forbidden, so
    # every capture takes one piece
    got = Position("turkish", "W:WKd4:Bd6,d2").legal_moves
    assert {len(m.captured) for m in got} == {1}
    assert sorted(map(str, got)) == ["d4xd1", "d4xd7", "d4xd8"]
    # a quarter turn is allowed
    assert {len(m.captured) for m in Position("turkish", "W:WKd4:Bd6,f7").legal_moves} == {2}


def test_the_most_pieces_must_be_taken_men_and_kings_alike():
    # the man takes two men, the king one king: the man's capture
    assert moves("W:Wa4,Kh1:Ba5,a7,Kh3") == ["a4xa8"]
    # equal counts: no priority for the king's capture, nor for taking a king
    assert moves("W:Wa4,Kh1:Ba5,Kh3") == ["a4xa6", "h1xh4", "h1xh5", "h1xh6", "h1xh7",
                                           "h1xh8"]


def test_a_man_that_reaches_the_last_row_capturing_goes_on_as_a_man():
    # d6xd8 reaches the last row; c8 is next to it: it goes on, as a man, to b8, and is
    # crowned when the move ends (TÜDAF 2021 rule 1h)
    board = Board("turkish", "W:Wd6:Bd7,c8,a5")
    (move,) = board.legal_moves
    assert str(move) == "d6xb8" and move.path == (
        board.variant.square("d6"), board.variant.square("d8"), board.variant.square("b8"))
    assert move.promotion
    board.push(move)
    assert board.piece_at("b8") == (WHITE, True)
    # a piece further along the row is a king's capture, not a man's: the move ends on d8
    board = Board("turkish", "W:Wd6:Bd7,b8,a5")
    assert [str(m) for m in board.legal_moves] == ["d6xd8"]
    assert next(iter(board.legal_moves)).promotion


def test_the_game_ends_with_no_piece_or_no_move():
    # blocked: White's man on a1 cannot step or take
    position = Position("turkish", "W:Wa4:Ba5,a6,b4,c4")
    assert not position.legal_moves
    assert position.outcome().winner == BLACK
    assert Board("turkish", "W:Wa4:Ba5,a6,b4,c4").outcome().termination == Termination.NO_MOVES


@pytest.mark.parametrize("fen", ["W:Wd4:Bd6", "B:WKa1:Bh8", "W:WKa1:BKh8", "W:Wd4:Bd5"])
def test_one_piece_against_one_is_drawn_at_once(fen):
    # GAYYIM: even where the side to move could capture (the last)
    outcome = Board("turkish", fen).outcome()
    assert outcome.winner is None and outcome.termination == Termination.ONE_PIECE_EACH


def test_two_pieces_against_one_play_on():
    assert Board("turkish", "W:Wd4,e4:Bd6").outcome() is None


def test_men_stepping_sideways_repeat_a_position():
    # a man's sideways step can be undone, so it does not open a new stretch of positions: the
    # third time the same position comes back the game is drawn (the first-legal-move
    # self-play of shashki.rl's tests ran forever on this)
    board = Board("turkish", "W:Wa3,h3:Ba6,h6")
    for _ in range(2):
        for text in ["a3-b3", "a6-b6", "b3-a3", "b6-a6"]:
            assert board.outcome() is None
            board.push(text)
    assert board.is_repetition(3)
    assert board.outcome().termination == Termination.THREEFOLD_REPETITION
    # a step forward can never be undone: the positions before it do not count again
    board = Board("turkish", "W:Wa3,h3:Ba6,h6")
    assert not board.is_irreversible(board.parse_move("a3-b3"))
    assert board.is_irreversible(board.parse_move("a3-a4"))
    board.push("a3-a4")
    assert board.halfmove_clock == 0
    board.push("a6-b6")
    assert board.halfmove_clock == 1


def test_fen_pdn_and_notation():
    board = Board("turkish")
    board.push("d3-d4")
    board.push("d6-d5")
    # a capture is written with x and its landing square; squares a1-h8, every one of them
    assert [str(m) for m in board.legal_moves] == ["d4xd8"]
    assert Position("turkish", board.fen()) == board.position
    board.push("d4xd8")
    game = shashki.pdn.Game.from_board(board)
    text = str(game)
    assert '[GameType "30,W,8,8,A0,0"]' in text and "1. d3-d4 d6-d5 2. d4xd8" in text
    again = next(iter(shashki.pdn.read_games(io.StringIO(text))))
    assert again.variant.name == "turkish" and again.board().fen() == board.fen()


def test_the_start_is_symmetric():
    start = Position("turkish")
    assert start.mirror().mirror() == start
    assert start.mirror().turn == BLACK and start.mirror().white == start.white
