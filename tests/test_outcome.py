"""Game end and every draw rule (RULES.md "Draws and the end of the game"), per game.

Each rule is tested on a position built for it, reached by playing real moves from a FEN: one
ply before the limit (no draw) and at it (draw).  The long lines of king moves are found by a
small search that never repeats a position (so repetition cannot end the game early), never
captures, and moves only what the test allows; the search knows nothing of the draw rules.
"""

import pytest

import shashki
from shashki import BLACK, WHITE
from shashki.errors import InvalidVariantError
from shashki.outcome import MAIN_ROAD, DrawCounters, Outcome, Termination

from outcome_support import (GAMES, T, assert_limit, fen, find_line, is_king_move, play,
                              push_all, sq)


# --- Outcome and Termination --------------------------------------------------------------

def test_outcome_results():
    assert Outcome(WHITE, T.NO_MOVES).result() == "1-0"
    assert Outcome(BLACK, T.NO_MOVES).result() == "0-1"
    assert Outcome(None, T.THREEFOLD_REPETITION).result() == "1/2-1/2"
    assert shashki.Outcome is Outcome and shashki.Termination is Termination


def test_outcome_is_a_frozen_value():
    outcome = Outcome(None, T.KINGS_ONLY_MOVES)
    with pytest.raises(AttributeError):
        outcome.winner = WHITE
    assert outcome == Outcome(None, T.KINGS_ONLY_MOVES, "7.2.5")   # the article is derived
    assert hash(outcome) == hash(Outcome(None, T.KINGS_ONLY_MOVES))


@pytest.mark.parametrize("winner, termination", [
    (None, T.NO_MOVES), (WHITE, T.THREEFOLD_REPETITION), (2, T.NO_MOVES), (1.0, T.NO_MOVES),
    (True, T.THREEFOLD_REPETITION)])
def test_outcome_rejects_a_winner_that_does_not_fit(winner, termination):
    with pytest.raises(ValueError):
        Outcome(winner, termination)


def test_fmjd_terminations_carry_their_article():
    assert T.KINGS_VS_LONE_KING.article == "7.2.4"
    assert T.BALANCE_UNCHANGED.article == "7.2.6"
    assert T.LONE_KING_ON_MAIN_ROAD.article == "7.2.7"
    assert T.FEW_PIECES_VS_LONE_KING.article == "7.2.8"
    assert Outcome(None, T.LONE_KING_ON_MAIN_ROAD).article == "7.2.7"
    for t in (T.NO_MOVES, T.THREEFOLD_REPETITION, T.KINGS_ONLY_MOVES, T.NO_PROGRESS):
        assert t.article is None
    assert all(t.text for t in T)
    assert [t for t in T if not t.is_draw] == [T.NO_MOVES, T.KING_CROWNED]


# --- no legal moves -----------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_blocked_side_to_move_loses(game):
    # the white man on a1 can neither step to b2 nor jump it (c3 is taken)
    board = shashki.Board(game, fen(game, "W", ["a1"], ["b2", "c3"]))
    expected = WHITE if game == "giveaway" else BLACK
    assert board.outcome() == Outcome(expected, T.NO_MOVES)
    assert board.outcome(claim_draw=True) == Outcome(expected, T.NO_MOVES)
    assert board.result() == ("1-0" if expected == WHITE else "0-1")
    assert board.is_game_over()


@pytest.mark.parametrize("game", GAMES)
def test_capturing_the_last_piece_ends_the_game(game):
    board = shashki.Board(game, fen(game, "W", ["c3"], ["d4"]))
    assert board.outcome() is None and board.result() == "*"
    play(board, ("c3", "e5"))
    # Black, to move, has no piece left: it lost, or in giveaway it won
    expected = BLACK if game == "giveaway" else WHITE
    assert board.outcome() == Outcome(expected, T.NO_MOVES)
    board.pop()
    assert board.outcome() is None


# --- threefold repetition -----------------------------------------------------------------

# White: king a1, men e1, g1; Black: king h6, men b8, d8.  The kings cannot reach each other.
REPEAT_WHITE, REPEAT_BLACK = ["Ka1", "e1", "g1"], ["Kh6", "b8", "d8"]
SHUFFLE = [("a1", "b2"), ("h6", "g5"), ("b2", "a1"), ("g5", "h6")]


@pytest.mark.parametrize("game", GAMES)
def test_threefold_repetition(game):
    board = shashki.Board(game, fen(game, "W", REPEAT_WHITE, REPEAT_BLACK))
    start = board.fen()
    play(board, *SHUFFLE, *SHUFFLE[:3])
    # the start position has occurred twice; Black's next move would make it three times
    assert board.outcome(claim_draw=True) is None or game == "english"
    assert board.outcome() is None
    assert not board.is_repetition(3)
    play(board, SHUFFLE[3])
    assert board.fen() == start and board.is_repetition(3) and board.is_repetition(2)
    assert not board.is_repetition(4)
    if game == "english":
        # WCDF: a claim, not an automatic draw
        assert board.outcome() is None and not board.is_game_over()
        assert board.can_claim_draw()
        assert board.outcome(claim_draw=True) == Outcome(None, T.THREEFOLD_REPETITION)
    else:
        outcome = board.outcome()
        assert outcome == Outcome(None, T.THREEFOLD_REPETITION)
        assert outcome.article == ("7.2.3" if game == "russian" else None)
        assert not board.can_claim_draw()      # nothing to claim: the draw is automatic


def test_english_repetition_may_be_claimed_before_the_repeating_move():
    board = shashki.Board("english", fen("english", "W", REPEAT_WHITE, REPEAT_BLACK))
    play(board, *SHUFFLE, *SHUFFLE[:2])
    # White to move: b2-a1 would make its position the second time only
    assert not board.can_claim_draw()
    assert board.outcome(claim_draw=True) is None
    play(board, SHUFFLE[2])
    # Black to move: g5-h6 would create the start position for the third time
    assert not board.is_repetition(3)
    assert board.can_claim_draw()
    assert board.outcome(claim_draw=True) == Outcome(None, T.THREEFOLD_REPETITION)
    assert board.outcome() is None


def test_repetition_counts_only_the_same_side_to_move():
    # White's king goes round a1-c3-b2-a1 (three moves), Black's h6-g5-h6 (two): after five
    # plies the same pieces stand on the same squares with Black to move.
    board = shashki.Board("russian", fen("russian", "W", REPEAT_WHITE, REPEAT_BLACK))
    white_to_move = board.fen()
    white_round = [("a1", "c3"), ("h6", "g5"), ("c3", "b2"), ("g5", "h6"), ("b2", "a1")]
    black_round = [("h6", "f4"), ("a1", "b2"), ("f4", "g5"), ("b2", "a1"), ("g5", "h6")]
    play(board, *white_round)
    black_to_move = board.fen()
    assert black_to_move.split(":")[1:] == white_to_move.split(":")[1:]
    assert board.turn == BLACK and not board.is_repetition(2)
    play(board, *black_round, *white_round)
    # the placement has now stood four times, each side to move twice
    assert board.fen() == black_to_move and board.is_repetition(2)
    assert not board.is_repetition(3) and board.outcome() is None
    play(board, *black_round)
    assert board.fen() == white_to_move and board.is_repetition(3)
    assert board.outcome() == Outcome(None, T.THREEFOLD_REPETITION)


def test_a_man_move_starts_the_repetition_history_again():
    board = shashki.Board("russian", fen("russian", "W", REPEAT_WHITE, REPEAT_BLACK))
    play(board, *SHUFFLE)
    assert board.is_repetition(2)
    # the man on f2 can never go back, so no earlier position can come again
    play(board, ("e1", "f2"))
    assert board.halfmove_clock == 0 and not board.is_repetition(2)
    back_and_forth = [("h6", "g5"), ("a1", "b2"), ("g5", "h6"), ("b2", "a1")]
    play(board, *back_and_forth)
    assert board.halfmove_clock == 4 and board.is_repetition(2)
    assert not board.is_repetition(3) and board.outcome() is None
    play(board, *back_and_forth)
    assert board.outcome() == Outcome(None, T.THREEFOLD_REPETITION)


# --- kings-only moves and the english 40-move rule ------------------------------------------

# eight pieces, so that no FMJD-64 endgame rule applies in russian
KINGS_WHITE, KINGS_BLACK = ["Kc3", "e1", "g1", "h2"], ["Ke7", "b8", "d8", "a7"]


@pytest.mark.parametrize("game, moves, article", [
    ("russian", 15, "7.2.5"), ("giveaway", 15, None), ("brazilian", 15, None),
    ("italian", 40, None)])
def test_kings_only_moves(game, moves, article):
    board = shashki.Board(game, fen(game, "W", KINGS_WHITE, KINGS_BLACK))
    line = find_line(board, 2 * moves)
    assert_limit(board, line, T.KINGS_ONLY_MOVES, article=article)
    assert board.halfmove_clock == 2 * moves


def test_brazilian_with_fmjd_rules_names_the_article():
    board = shashki.Board("brazilian", fen("brazilian", "W", KINGS_WHITE, KINGS_BLACK),
                          fmjd_draw_rules=True)
    assert_limit(board, find_line(board, 30), T.KINGS_ONLY_MOVES, article="7.2.5")


def test_english_forty_moves_without_progress_is_a_claim():
    board = shashki.Board("english", fen("english", "W", KINGS_WHITE, KINGS_BLACK))
    line = find_line(board, 80)
    push_all(board, line[:-1])
    assert not board.can_claim_draw() and board.outcome(claim_draw=True) is None
    board.push(line[-1])
    assert board.outcome() is None                      # not automatic (WCDF)
    assert board.can_claim_draw()
    assert board.outcome(claim_draw=True) == Outcome(None, T.NO_PROGRESS)


def test_english_count_starts_again_after_a_man_move():
    # a man move resets the english count: 79 quiet plies, a man move, 79 more: no claim
    board = shashki.Board("english", fen("english", "W", KINGS_WHITE, KINGS_BLACK))

    def allow(b, ply, m):
        is_king = b.kings >> m.origin & 1
        return not is_king and not m.promotion if ply == 79 else is_king
    line = find_line(board, 159, allow)
    push_all(board, line[:79])
    assert board.halfmove_clock == 79
    board.push(line[79])
    assert board.halfmove_clock == 0
    push_all(board, line[80:])
    assert board.halfmove_clock == 79
    assert not board.can_claim_draw() and board.outcome(claim_draw=True) is None


@pytest.mark.parametrize("game", ["russian", "giveaway", "brazilian", "italian"])
def test_a_man_move_resets_the_kings_only_count(game):
    limit = shashki.get_variant(game).kings_only_limit
    board = shashki.Board(game, fen(game, "W", KINGS_WHITE, KINGS_BLACK))
    # White moves a man at ply 2 * limit - 2: the count starts again from there
    man_ply = 2 * limit - 2

    def allow(b, ply, m):
        is_king = b.kings >> m.origin & 1
        return not is_king and not m.promotion if ply == man_ply else is_king
    line = find_line(board, 2 * limit + 4, allow)
    push_all(board, line)
    assert board.halfmove_clock == 5
    assert board.outcome() is None


# --- FMJD-64 7.2.4: three kings or more against a lone king ---------------------------------

def off_main_road_for_black(board, ply, m):
    if not board.kings >> m.origin & 1:
        return False
    return board.turn == WHITE or not MAIN_ROAD >> m.destination & 1


THREE_KINGS = ["Kc1", "Ke1", "Kg1"]


@pytest.mark.parametrize("game, flag", [("russian", None), ("brazilian", True)])
def test_three_kings_against_a_lone_king_stronger_side_first(game, flag):
    board = shashki.Board(game, fen(game, "W", THREE_KINGS, ["Ka5"]), fmjd_draw_rules=flag)
    # White's 15th move is the 29th ply
    line = find_line(board, 29, off_main_road_for_black)
    assert_limit(board, line, T.KINGS_VS_LONE_KING, article="7.2.4")


def test_three_kings_against_a_lone_king_weaker_side_first():
    board = shashki.Board("russian", fen("russian", "B", THREE_KINGS, ["Ka5"]))
    # Black moves first, so White's 15th move is the 30th ply (and 7.2.4 is named before the
    # 15 king moves of 7.2.5, which end at the same ply)
    line = find_line(board, 30, off_main_road_for_black)
    assert_limit(board, line, T.KINGS_VS_LONE_KING, article="7.2.4")


def test_three_kings_count_from_when_the_balance_arose():
    # four white kings against one: the lone king takes one of them after 20 plies, and the
    # 15 moves of 7.2.4 are counted again from that capture
    board = shashki.Board("russian", fen("russian", "W", THREE_KINGS + ["Ka3"], ["Kh4"]))
    push_all(board, find_line(board, 20, off_main_road_for_black))
    offer = None
    for m in sorted(board.legal_moves, key=lambda m: (m.origin, m.destination)):
        board.push(m)
        replies = list(board.legal_moves)
        if replies and all(r.is_capture and len(r.captured) == 1 for r in replies):
            offer = m
            board.push(replies[0])
            break
        board.pop()
    assert offer is not None
    assert board.draw_counters.balance_plies == 0
    assert bin(board.white & board.kings).count("1") == 3
    # White moves first after the capture: its 15th move is the 29th ply
    line = find_line(board, 29, off_main_road_for_black)
    assert_limit(board, line, T.KINGS_VS_LONE_KING, article="7.2.4")


def test_three_kings_rule_needs_fmjd_rules():
    board = shashki.Board("brazilian", fen("brazilian", "W", THREE_KINGS, ["Ka5"]))
    line = find_line(board, 30, off_main_road_for_black)
    push_all(board, line[:29])
    assert board.outcome() is None
    board.push(line[29])
    # only the brazilian 15 king moves, at the 30th ply
    assert board.outcome() == Outcome(None, T.KINGS_ONLY_MOVES)


# --- FMJD-64 7.2.6: the balance of forces unchanged ----------------------------------------

def balance_allow(man_plies):
    def allow(board, ply, m):
        is_king = board.kings >> m.origin & 1
        if ply in man_plies:
            return not is_king and not m.promotion
        return is_king
    return allow


def test_balance_unchanged_with_four_pieces():
    board = shashki.Board("russian", fen("russian", "W", ["Kd2", "a3"], ["Ke7", "h6"]))
    # a man moves at plies 20 (White) and 41 (Black), so 15 king moves never pass
    line = find_line(board, 60, balance_allow({20, 41}))
    assert_limit(board, line, T.BALANCE_UNCHANGED, article="7.2.6")
    assert board.halfmove_clock < 30


def test_balance_unchanged_with_six_pieces():
    board = shashki.Board("russian",
                          fen("russian", "W", ["Kd2", "a1", "a3"], ["Ke7", "h8", "h6"]))
    line = find_line(board, 120, balance_allow({20, 41, 60, 81, 100}))
    assert_limit(board, line, T.BALANCE_UNCHANGED, article="7.2.6")


def test_a_promotion_changes_the_balance():
    # White's man is crowned at ply 20: 7.2.6 counts its 30 moves from there
    board = shashki.Board("russian", fen("russian", "W", ["Kd2", "a7"], ["Kh4", "h8"]))

    def allow(b, ply, m):
        is_king = b.kings >> m.origin & 1
        if ply == 20:
            return not is_king and m.promotion
        return not is_king and not m.promotion if ply in (41, 61) else is_king
    line = find_line(board, 81, allow)
    push_all(board, line[:21])
    assert board.draw_counters.balance_plies == 0
    assert board.draw_counters.halfmove_clock == 0
    assert_limit(board, line[21:], T.BALANCE_UNCHANGED, article="7.2.6")


def test_balance_rule_needs_kings_on_both_sides():
    # a king and a man against two men: 60 plies of the same balance are no draw
    board = shashki.Board("russian", fen("russian", "W", ["Kd2", "a3"], ["h8", "h6"]))

    def allow(b, ply, m):
        if b.turn == BLACK:
            return not m.promotion
        return b.kings >> m.origin & 1
    line = find_line(board, 12, allow)
    push_all(board, line)
    assert board.draw_counters.balance_plies == 12 and board.outcome() is None


# --- FMJD-64 7.2.7: a lone king on the main road -------------------------------------------

def black_on_main_road(board, ply, m):
    if not board.kings >> m.origin & 1:
        return False
    return board.turn == WHITE or MAIN_ROAD >> m.destination & 1


ROAD_WHITE = ["Kh2", "a3", "c1"]       # a king and two men


@pytest.mark.parametrize("game, flag", [("russian", None), ("brazilian", True)])
def test_lone_king_on_the_main_road(game, flag):
    board = shashki.Board(game, fen(game, "W", ROAD_WHITE, ["Kd4"]), fmjd_draw_rules=flag)
    # White's 5th move is the 9th ply
    line = find_line(board, 9, black_on_main_road)
    assert_limit(board, line, T.LONE_KING_ON_MAIN_ROAD, article="7.2.7")


def test_lone_king_off_the_main_road_is_not_7_2_7():
    board = shashki.Board("russian", fen("russian", "W", ROAD_WHITE, ["Ka5"]))
    # 29 plies: White's 15th move, which would end 7.2.4 if a king and two men were "three
    # kings"; the 15 king moves of 7.2.5 end only at the 30th
    push_all(board, find_line(board, 29, off_main_road_for_black))
    assert board.draw_counters.main_road_plies == -1
    assert board.outcome() is None


def road_from_ply_5(board, ply, m):
    # kings only; the lone black king keeps off the main road until ply 5, then on it
    if not board.kings >> m.origin & 1:
        return False
    if board.turn == WHITE:
        return True
    on_road = MAIN_ROAD >> m.destination & 1
    return on_road if ply >= 5 else not on_road


def test_main_road_count_starts_when_the_lone_king_steps_on_it():
    board = shashki.Board("russian", fen("russian", "W", ROAD_WHITE, ["Ka5"]))
    # Black steps onto the main road at ply 5; White's 5th move after that is ply 5 + 10
    line = find_line(board, 15, road_from_ply_5)
    push_all(board, line[:6])
    assert board.draw_counters.main_road_plies == 0
    assert_limit(board, line[6:], T.LONE_KING_ON_MAIN_ROAD, article="7.2.7")


# --- FMJD-64 7.2.8: two pieces or fewer against a lone king --------------------------------

@pytest.mark.parametrize("white", [["Kc1", "Ke1"], ["Kc1", "a3"], ["Kc1"]])
def test_few_pieces_against_a_lone_king(white):
    board = shashki.Board("russian", fen("russian", "W", white, ["Kh4"]))
    # White's 5th move is the 9th ply (with king against king, either side's 5th move)
    line = find_line(board, 9)
    assert_limit(board, line, T.FEW_PIECES_VS_LONE_KING, article="7.2.8")


def test_few_pieces_black_stronger_and_second():
    board = shashki.Board("russian", fen("russian", "W", ["Kh2"], ["Kb8", "Kd8"]))
    # Black is the stronger side and moves second: its 5th move is the 10th ply
    line = find_line(board, 10)
    assert_limit(board, line, T.FEW_PIECES_VS_LONE_KING, article="7.2.8")


def test_few_pieces_count_goes_on_when_a_man_is_crowned():
    # the white man on f6 is crowned on its way: still "two pieces against a lone king"
    board = shashki.Board("russian", fen("russian", "W", ["Kc1", "f6"], ["Kh4"]))

    def allow(b, ply, m):
        if ply in (0, 2):
            return not b.kings >> m.origin & 1
        return b.kings >> m.origin & 1
    line = find_line(board, 9, allow)
    outcome = assert_limit(board, line, T.FEW_PIECES_VS_LONE_KING, article="7.2.8")
    assert bin(board.white & board.kings).count("1") == 2 and outcome.winner is None


def test_few_pieces_rule_needs_a_king_on_the_stronger_side():
    board = shashki.Board("russian", fen("russian", "W", ["a3", "c1"], ["Kh6"]))

    def allow(b, ply, m):
        return b.turn == BLACK or not m.promotion
    push_all(board, find_line(board, 10, allow))
    assert board.draw_counters.lone_king_plies == -1 and board.outcome() is None


def test_brazilian_endgame_rules_are_off_by_default():
    board = shashki.Board("brazilian", fen("brazilian", "W", ["Kc1", "Ke1"], ["Kh4"]))
    assert not board.fmjd_draw_rules
    push_all(board, find_line(board, 12))
    assert board.outcome() is None
    on = shashki.Board("brazilian", fen("brazilian", "W", ["Kc1", "Ke1"], ["Kh4"]),
                       fmjd_draw_rules=True)
    assert_limit(on, find_line(on, 9), T.FEW_PIECES_VS_LONE_KING, article="7.2.8")


def test_russian_endgame_rules_can_be_turned_off():
    board = shashki.Board("russian", fen("russian", "W", ["Kc1", "Ke1"], ["Kh4"]),
                          fmjd_draw_rules=False)
    push_all(board, find_line(board, 12))
    assert board.outcome() is None


@pytest.mark.parametrize("game", ["giveaway", "italian", "english"])
def test_fmjd_rules_only_for_russian_and_brazilian(game):
    with pytest.raises(InvalidVariantError):
        shashki.Board(game, fmjd_draw_rules=True)
    assert not shashki.Board(game, fmjd_draw_rules=False).fmjd_draw_rules


@pytest.mark.parametrize("value", ["yes", 1, 0])
def test_fmjd_rules_flag_must_be_a_bool(value):
    with pytest.raises(InvalidVariantError):
        shashki.Board("russian", fmjd_draw_rules=value)


# --- counters through push, pop, copy and set_fen ------------------------------------------

def test_counters_survive_pop_and_copy():
    board = shashki.Board("russian", fen("russian", "W", KINGS_WHITE, KINGS_BLACK))
    line = find_line(board, 30)
    push_all(board, line[:-1])
    before = board.draw_counters
    assert before == DrawCounters(29, 29, -1, -1)
    twin = board.copy()
    twin.push(line[-1])
    assert twin.outcome() == Outcome(None, T.KINGS_ONLY_MOVES)
    assert board.outcome() is None and board.draw_counters == before
    assert twin.pop() == line[-1]
    assert twin.draw_counters == before and twin.outcome() is None
    twin.push(line[-1])
    assert twin.outcome() == Outcome(None, T.KINGS_ONLY_MOVES)
    # a copy without the stack keeps the counters (not the positions for repetitions)
    bare = board.copy(stack=False)
    assert bare.draw_counters == before and bare.move_stack == []
    bare.push(line[-1])
    assert bare.outcome() == Outcome(None, T.KINGS_ONLY_MOVES)


def test_repetition_history_survives_copy_and_pop():
    board = shashki.Board("giveaway", fen("giveaway", "W", REPEAT_WHITE, REPEAT_BLACK))
    play(board, *SHUFFLE, *SHUFFLE[:3])
    twin = board.copy()
    play(twin, SHUFFLE[3])
    assert twin.outcome() == Outcome(None, T.THREEFOLD_REPETITION)
    assert board.outcome() is None
    twin.pop()
    assert twin.outcome() is None
    bare = board.copy(stack=False)
    play(bare, SHUFFLE[3])
    assert bare.outcome() is None and bare.is_repetition(1) and not bare.is_repetition(2)


def test_set_fen_resets_the_counters():
    board = shashki.Board("russian", fen("russian", "W", KINGS_WHITE, KINGS_BLACK))
    line = find_line(board, 30)
    push_all(board, line)
    assert board.outcome() is not None
    board.set_fen(board.fen())
    assert board.draw_counters == DrawCounters(0, 0, -1, -1)
    assert board.outcome() is None and not board.is_repetition(2)


def test_set_up_position_starts_the_endgame_counts():
    board = shashki.Board("russian", fen("russian", "B", ["Kc1", "Ke1"], ["Kh4"]))
    assert board.draw_counters == DrawCounters(0, 0, -1, 0)
    board = shashki.Board("russian", fen("russian", "W", ROAD_WHITE, ["Kd4"]))
    assert board.draw_counters == DrawCounters(0, 0, 0, -1)


def test_pushing_a_bad_move_leaves_the_counters():
    board = shashki.Board("russian", fen("russian", "W", KINGS_WHITE, KINGS_BLACK))
    push_all(board, find_line(board, 5))
    before = board.draw_counters
    with pytest.raises(shashki.IllegalMoveError):
        board.push(shashki.Move(sq("e1"), sq("h4")))
    assert board.draw_counters == before and len(board.move_stack) == 5


# --- the engine and outcome() agree on every draw limit ------------------------------------

KINGS_ONLY_WHITE, KINGS_ONLY_BLACK = ["Kc3", "Ke1", "Kg1", "Kh2"], ["Ke7", "Kb8", "Kd8", "Ka7"]


# (game, fmjd flag, FEN pieces, side to move, plies to the limit, move filter, termination)
LIMITS = [
    ("russian", None, (KINGS_ONLY_WHITE, KINGS_ONLY_BLACK), "W", 30, is_king_move,
     T.KINGS_ONLY_MOVES),
    ("giveaway", None, (KINGS_ONLY_WHITE, KINGS_ONLY_BLACK), "W", 30, is_king_move,
     T.KINGS_ONLY_MOVES),
    ("brazilian", None, (KINGS_ONLY_WHITE, KINGS_ONLY_BLACK), "W", 30, is_king_move,
     T.KINGS_ONLY_MOVES),
    ("italian", None, (KINGS_ONLY_WHITE, KINGS_ONLY_BLACK), "W", 80, is_king_move,
     T.KINGS_ONLY_MOVES),
    ("english", None, (KINGS_ONLY_WHITE, KINGS_ONLY_BLACK), "W", 80, is_king_move,
     T.NO_PROGRESS),
    ("russian", None, (THREE_KINGS, ["Ka5"]), "W", 29, off_main_road_for_black,
     T.KINGS_VS_LONE_KING),
    ("brazilian", True, (THREE_KINGS, ["Ka5"]), "W", 29, off_main_road_for_black,
     T.KINGS_VS_LONE_KING),
    ("russian", None, (["Kd2", "a3"], ["Ke7", "h6"]), "W", 60, balance_allow({20, 41}),
     T.BALANCE_UNCHANGED),
    ("russian", None, (ROAD_WHITE, ["Kd4"]), "W", 9, black_on_main_road,
     T.LONE_KING_ON_MAIN_ROAD),
    ("brazilian", True, (ROAD_WHITE, ["Kd4"]), "W", 9, black_on_main_road,
     T.LONE_KING_ON_MAIN_ROAD),
    # 7.2.7 counts from when the lone king stepped on the road, not from the last capture
    ("russian", None, (ROAD_WHITE, ["Ka5"]), "W", 15, road_from_ply_5,
     T.LONE_KING_ON_MAIN_ROAD),
    ("russian", None, (["Kc1", "Ke1"], ["Kh4"]), "W", 9, is_king_move,
     T.FEW_PIECES_VS_LONE_KING),
]


@pytest.mark.parametrize("game, flag, pieces, turn, plies, allow, termination", LIMITS,
                         ids=[f"{g}-{t.value}" for g, _, _, _, _, _, t in LIMITS])
def test_the_engine_and_outcome_agree_at_every_draw_limit(game, flag, pieces, turn, plies,
                                                          allow, termination):
    # Both read one implementation of the rules (shashki/_core/draws.pxd); this checks that
    # the search applies it where the board does: one ply before the limit every move the
    # board calls a draw scores 0, and one ply earlier the search still sees the moves' own
    # values (it declares no draw before the limit).
    from shashki.engine import Engine
    board = shashki.Board(game, fen(game, turn, *pieces), fmjd_draw_rules=flag)
    line = find_line(board, plies, allow)
    push_all(board, line[:-2])
    earlier = board.copy()
    board.push(line[-2])
    before = board.copy()
    board.push(line[-1])
    assert board.outcome(claim_draw=True) == Outcome(None, termination)
    engine = Engine(game)

    children = []
    for m in before.legal_moves:
        child = before.copy()
        child.push(m)
        children.append(child)
    # every move reaches the limit (no capture, man move or promotion is left to avoid it)
    assert all(c.outcome(claim_draw=True) is not None for c in children)
    assert engine.search(before, depth=1).score.value == 0
    assert engine.search(before, depth=3).score.value == 0

    # one ply earlier nothing is drawn yet: the search returns the best static value
    children = []
    for m in earlier.legal_moves:
        child = earlier.copy()
        child.push(m)
        children.append(child)
    assert all(c.outcome(claim_draw=True) is None for c in children)
    if not any(c.must_capture for c in children):
        best = max(-engine.evaluate(c) for c in children)
        assert engine.search(earlier, depth=1).score.value == best


# --- the games added after the first five -----------------------------------------------------

def _any_king_move(board, ply, m):
    return board.kings >> m.origin & 1


@pytest.mark.parametrize("game", ["international", "antidraughts"])
def test_international_kings_only_is_6_2(game):
    # 25 moves of each side with only kings moved (FMJD 6.2); eight kings, so 6.3/6.4 stay out
    board = shashki.Board(game, "W:WK46,K47,K48,K49:BK1,K2,K3,K4")
    assert_limit(board, find_line(board, 50, _any_king_move), T.KINGS_ONLY_MOVES,
                 article="6.2")


def test_international_three_pieces_against_a_lone_king_is_6_3():
    # 16 moves of each side (32 plies), the lone king anywhere: no main road in 6.3
    board = shashki.Board("international", "W:WK46,47,48:BK1")
    assert_limit(board, find_line(board, 32, _any_king_move), T.THREE_PIECES_VS_LONE_KING,
                 article="6.3")


@pytest.mark.parametrize("white", ["K46,47", "K46"])
def test_international_few_pieces_against_a_lone_king_is_6_4(white):
    # 5 moves of each side (10 plies): with White to move first, White's 5th move is the 9th
    # ply, where FMJD-64 7.2.8 (the stronger side's moves) would end it; 6.4 counts both sides
    board = shashki.Board("international", f"W:W{white}:BK1")
    assert_limit(board, find_line(board, 10, _any_king_move), T.FEW_PIECES_VS_LONE_KING,
                 article="6.4")


def test_pool_three_kings_against_one_must_win_in_thirteen_moves():
    # APCA: White's 13th move is the 25th ply
    board = shashki.Board("pool", "W:WK29,K30,K31:BK1")
    assert_limit(board, find_line(board, 25, _any_king_move), T.KINGS_VS_LONE_KING,
                 article=None)


def test_breakthrough_the_first_king_wins():
    board = shashki.Board("breakthrough", "W:W6:B45")
    assert board.outcome() is None
    board.push("6-1")
    assert board.outcome() == Outcome(shashki.WHITE, T.KING_CROWNED)
    assert board.result() == "1-0"
    # the search knows it too: White to crown at once is a forced win
    from shashki.engine import Engine
    score = Engine("breakthrough").search(shashki.Board("breakthrough", "W:W6:B45"),
                                          depth=2).score
    assert score.value > 0 and score.is_win


@pytest.mark.parametrize("variant,position,winner,termination", [
    # issue 20.11: set-up positions whose game is over, whoever is to move
    ("breakthrough", "W:WK1,31:B20", WHITE, T.KING_CROWNED),      # White has crowned
    ("breakthrough", "B:W31:BK46,20", BLACK, T.KING_CROWNED),
    ("breakthrough", "B:WK1,31:B20", WHITE, T.KING_CROWNED),      # (as before)
    ("breakthrough", "W:W6:B45,K47", BLACK, T.KING_CROWNED),
    ("international", "W:W46:B", WHITE, T.NO_MOVES),              # Black has no pieces
    ("international", "B:W:B5", BLACK, T.NO_MOVES),
    ("russian", "W:Wc3:B", WHITE, T.NO_MOVES),
    ("english", "B:W:B5", BLACK, T.NO_MOVES),
    ("giveaway", "W:Wc3:B", BLACK, T.NO_MOVES),                   # giveaway: none left wins
    ("antidraughts", "W:W46:B", BLACK, T.NO_MOVES),
    ("international", "W:W:B", BLACK, T.NO_MOVES)])               # (the side to move lost)
def test_a_set_up_position_whose_game_is_over(variant, position, winner, termination):
    board = shashki.Board(variant, position)
    assert board.outcome() == Outcome(winner, termination)
    assert board.outcome(claim_draw=True) == Outcome(winner, termination)
    assert board.is_game_over() and board.result() == ("1-0" if winner == WHITE else "0-1")
    assert not board.can_claim_draw()


def test_playouts_from_a_position_whose_game_is_over():
    for variant, position, result in [("international", "W:W46:B", 1),
                                      ("breakthrough", "W:WK1,31:B20", 1),
                                      ("giveaway", "W:Wc3:B", -1)]:
        games = shashki.playouts(shashki.Board(variant, position), 3, seed=1)
        assert games.lengths.tolist() == [0, 0, 0] and games.results.tolist() == [result] * 3
        assert games.outcome(0) == shashki.Board(variant, position).outcome()


@pytest.mark.parametrize("game", ["spanish", "czech", "thai"])
def test_games_with_repetition_as_their_only_draw(game):
    # no move limit: a hundred plies of king moves, no position twice, are no draw
    board = shashki.Board(game, fen(game, "W", KINGS_ONLY_WHITE, KINGS_ONLY_BLACK))
    push_all(board, find_line(board, 100, _any_king_move))
    assert board.outcome(claim_draw=True) is None
