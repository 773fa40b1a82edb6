"""Game end decided in one place (issue 31, step 2: draws.pxd game_end): a Board and a
Position (Game.outcome, with no history) end a game by the same rules and name the same
winner (the playouts and the vector env are replayed on a Board in test_playouts and
test_vector_env)."""

import pytest
from hypothesis import given, settings

from shashki import BLACK, WHITE, Board, Game, InvalidVariantError, Position, Termination

from positions import boards


def test_a_draw_that_needs_no_history_ends_a_position_too():
    # turkish: one piece against one is drawn at once; Position.outcome said None before
    position = Position("turkish", "W:Wa2:Bh7")
    outcome = position.outcome()
    assert outcome is not None and outcome.winner is None
    assert outcome.termination == Termination.ONE_PIECE_EACH
    assert outcome == Board.from_position(position).outcome()


@pytest.mark.parametrize("fen,winner", [("W:WK45:B6", WHITE), ("B:WK45:B6", WHITE),
                                        ("W:W45:BK6", BLACK), ("B:W45:BK6", BLACK)])
def test_a_crowned_king_wins_breakthrough_whoever_is_to_move(fen, winner):
    position = Position("breakthrough", fen)
    for outcome in (position.outcome(), Board.from_position(position).outcome()):
        assert outcome.termination == Termination.KING_CROWNED and outcome.winner == winner


@settings(max_examples=300, deadline=None)
@given(boards())
def test_the_position_and_a_board_set_up_there_end_alike(board):
    position = board.position
    assert position.outcome() == Board.from_position(position).outcome() == \
        position.game.outcome(position)


def test_a_game_refuses_a_position_of_another_game():
    with pytest.raises(InvalidVariantError, match="the position is an english position, not "
                                                          "one of russian"):
        Game.of("russian").outcome(Position("english"))


def test_a_position_s_outcome_is_the_same_object_each_time_it_is_asked():
    # (a Position never changes: its end is decided once; before the Game value, each call
    # decided it again)
    over = Position("turkish", "W:Wa2:Bh7")
    assert over.outcome() is over.outcome() and over.outcome().winner is None
    going = Position("russian")
    assert going.outcome() is None and going.outcome() is None
    assert going.apply("c3-d4").outcome() is None
