"""shashki.Game (issue 31, its first step): the rules of a game and a draw setting built once,
shared by every Board and Position of that game and setting."""

import pickle

import pytest

import shashki
from shashki import Board, Game, Position

SETTINGS = [(v.name, fmjd) for v in shashki.VARIANTS for fmjd in (False, True)
            if not fmjd or v.fmjd_endgame_rules or (v.flying_kings and not v.reversed_goal)]


@pytest.mark.parametrize("game,fmjd", SETTINGS)
def test_one_game_object_for_a_game_and_setting(game, fmjd):
    shared = Game.of(game, fmjd)
    board = Board(game, fmjd_draw_rules=fmjd)
    assert board.game is shared and Game.of(game, fmjd) is shared
    assert Game(game, fmjd) == shared and hash(Game(game, fmjd)) == hash(shared)
    assert shared.variant is shashki.get_variant(game) and shared.fmjd_draw_rules is fmjd
    assert pickle.loads(pickle.dumps(shared)) is shared
    made = shared.board()
    assert made.game is shared and made.fmjd_draw_rules is fmjd and made.fen() == board.fen()
    # the other setting is another Game
    other = [Game.of(game, not fmjd)] if (game, not fmjd) in SETTINGS else []
    assert all(g != shared and g is not shared for g in other)


@pytest.mark.parametrize("game", [v.name for v in shashki.VARIANTS])
def test_a_position_has_its_games_default_rules(game):
    position = Position(game)
    assert position.game is Game.of(game) is Board(game).game
    assert position.game.fmjd_draw_rules is shashki.get_variant(game).fmjd_endgame_rules
    assert Board(game).position.game is position.game
    assert Game.of(game).position() == position


def test_a_board_keeps_its_game_through_edits_and_set_ups():
    board = Board("russian", fmjd_draw_rules=False)
    game = board.game
    board.push(next(iter(board.legal_moves)))
    board.set_fen("W:WKa1:Bh8")
    board.clear()
    board.set_piece_at(0, shashki.Piece(shashki.WHITE, king=True))
    assert board.game is game and not board.game.fmjd_draw_rules
    assert pickle.loads(pickle.dumps(board)).game is game
    assert board.copy().game is game


def test_a_boards_draw_setting_is_its_games_and_cannot_be_set_apart():
    # Board.fmjd_draw_rules was a writable copy: setting it changed the attribute and not the
    # rules the board plays by (its Game's), two answers to one question
    board = Board("russian")
    with pytest.raises(AttributeError):
        board.fmjd_draw_rules = False
    assert board.fmjd_draw_rules is board.game.fmjd_draw_rules is True
    assert Board("russian", fmjd_draw_rules=False).copy().fmjd_draw_rules is False


@pytest.mark.parametrize("args,words", [
    (("english", True), "the FMJD-64 draw rules are for russian and brazilian, not english"),
    (("russian", 1), "fmjd_draw_rules must be True, False or None"),
    (("chess",), "chess")])
def test_a_game_that_cannot_be_is_refused_saying_why(args, words):
    for make in (Game, Game.of):
        with pytest.raises(ValueError, match=words):
            make(*args)


def test_a_game_is_a_value_with_a_readable_repr():
    assert repr(Game("brazilian", True)) == "Game('brazilian', fmjd_draw_rules=True)"
    assert Game().name == "russian" and Game() == Game.of("russian")
    assert Game("russian") != Game("russian", False) and Game("russian") != "russian"
    assert len({Game(name, fmjd) for name, fmjd in SETTINGS}) == len(SETTINGS)
