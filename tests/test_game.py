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


# --- the end of a game over Positions, with their history ---------------------------------------

def _kings_shuffle(variant, seed, plies=120):
    """A Board of two kings a side played at random, a king mostly going back where it came
    from (so that positions repeat), and the Positions before each ply."""
    import random
    rnd = random.Random(seed)
    board = Board.empty(variant)
    squares = variant.geometry.squares
    for square, color in ((0, shashki.WHITE), (2, shashki.WHITE),
                          (squares - 1, shashki.BLACK), (squares - 3, shashki.BLACK)):
        board.set_piece_at(square, shashki.Piece(color, king=True))
    history = []
    yield board, history
    for _ in range(plies):
        moves = sorted(board.legal_moves)
        if not moves or board.outcome(claim_draw=True) is not None:
            return
        back = [m for m in moves if len(board.move_stack) >= 2 and
                (m.origin, m.destination) == (board.move_stack[-2].destination,
                                              board.move_stack[-2].origin)]
        history.append(board.position)
        board.push(back[0] if back and rnd.random() < 0.8 else rnd.choice(moves))
        yield board, history


@pytest.mark.parametrize("variant", shashki.VARIANTS, ids=lambda v: v.name)
def test_a_positions_history_ends_the_game_as_a_board_does(variant):
    # an MCTS over Positions asks Game.outcome with the path from the root: the same answer
    # as a Board that played the same moves, repetitions and move counts included
    seen = set()
    for seed in range(20):
        for board, history in _kings_shuffle(variant, seed):
            for claim in (False, True):
                outcome = board.game.outcome(board.position, history, claim_draw=claim)
                assert outcome == board.outcome(claim_draw=claim), (board.fen(), claim)
                if outcome is not None:
                    seen.add(outcome.termination)
    # a repetition in each game at least (the history is what is tested), but in
    # breakthrough, where a king has won at once
    if variant.crowning_wins:
        assert seen == {shashki.Termination.KING_CROWNED}
    else:
        assert shashki.Termination.THREEFOLD_REPETITION in seen, seen


def test_a_repetition_is_a_draw_with_no_board():
    game = Game.of("russian")
    start = game.position("W:WKc1,Ke1:BKd8,Kf8")
    path = [start]
    for text in ["c1-b2", "d8-c7", "b2-c1", "c7-d8"] * 2:
        path.append(path[-1].apply(text))
    # the start is there for the third time: a draw, which a Position alone cannot see
    assert path[-1] == start and start.outcome() is None
    outcome = game.outcome(path[-1], path[:-1])
    assert outcome.termination == shashki.Termination.THREEFOLD_REPETITION
    assert game.outcome(path[-2], path[:-2]) is None


def test_a_history_that_does_not_follow_is_refused_saying_where():
    game = Game.of("russian")
    start = game.position()
    after = start.apply("c3-d4")
    with pytest.raises(shashki.IllegalMoveError,
                       match=r"history\[0\] .* does not lead to the position"):
        game.outcome(start.apply("e3-f4"), [after])
    with pytest.raises(shashki.IllegalMoveError, match=r"history\[0\] .* history\[1\]"):
        game.outcome(after.apply("b6-a5"), [start, start])
    with pytest.raises(shashki.InvalidVariantError, match="history\\[0\\] is an english"):
        game.outcome(start, [Position("english")])
    with pytest.raises(shashki.InvalidVariantError, match="history\\[1\\] is a str"):
        game.outcome(after, [start, "c3-d4"])
