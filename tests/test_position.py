"""shashki.Position, the value every layer passes (issue 19), and the Board around it."""

import copy
import pickle
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

import shashki
from shashki import BLACK, WHITE, Board, Move, Position
from shashki.errors import IllegalMoveError, InvalidFenError, InvalidMoveError
from shashki.outcome import Termination
from shashki.variants import VARIANTS

GAMES = [v.name for v in VARIANTS]


def random_position(game, seed, plies=30):
    rng = random.Random(seed)
    position = Position(game)
    for _ in range(rng.randint(0, plies)):
        if not position.legal_moves:
            break
        position = position.apply(rng.choice(position.legal_moves))
    return position


@pytest.mark.parametrize("game", GAMES)
def test_a_position_is_the_boards(game):
    board = Board(game)
    position = Position(game)
    assert board.position == position and hash(board.position) == hash(position)
    assert position.legal_moves == tuple(board.legal_moves)
    assert position.fen() == board.fen() and position.turn == board.turn
    assert position.masks == board.masks and position.king_runs == board.king_runs


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 2**32))
def test_apply_is_push_and_leaves_the_position_alone(game, seed):
    rng = random.Random(seed)
    board = Board(game)
    position = board.position
    for _ in range(40):
        moves = position.legal_moves
        if not moves:
            break
        move = rng.choice(moves)
        before = position.fen()
        child = position.apply(move)
        assert position.fen() == before                 # immutable
        board.push(move)                                 # a Position's move plays on a Board
        assert child == board.position and child.fen() == board.fen()
        assert position.apply(str(move)) == child       # and its text
        position = child


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 2**32))
def test_positions_pickle_copy_and_hash_as_values(game, seed):
    position = random_position(game, seed)
    again = pickle.loads(pickle.dumps(position))
    assert again == position and hash(again) == hash(position) and again.fen() == position.fen()
    assert again.legal_moves == position.legal_moves
    assert copy.copy(position) is position and copy.deepcopy(position) is position
    assert {position: 1}[Position(game, position.fen())] == 1
    assert Position.from_masks(game, *position.masks, position.king_runs) == position


@pytest.mark.parametrize("game", GAMES)
def test_mirror_swaps_the_colours(game):
    position = random_position(game, 11)
    mirrored = position.mirror()
    assert mirrored.mirror() == position
    assert mirrored.turn != position.turn
    n = position.variant.geometry.squares
    turn = [sum(1 << (n - 1 - s) for s in range(n) if mask >> s & 1)
            for mask in position.masks[:3]]
    assert (mirrored.white, mirrored.black, mirrored.kings) == (turn[1], turn[0], turn[2])
    # the other side's moves, turned: as many, and the same counts below
    assert len(mirrored.legal_moves) == len(position.legal_moves)
    assert mirrored.perft(3) == position.perft(3)


@pytest.mark.parametrize("game", GAMES)
def test_perft_of_a_position_and_of_its_children(game):
    position = random_position(game, 5, plies=10)
    total = sum(child.perft(2) for _, child in position.children())
    assert position.perft(3) == total == sum(position.divide(3).values())
    assert position.perft(3, jobs=2) == total


def test_frisian_perft_splits_over_threads():
    # the kings' runs travel with the Position: frisian splits like every other game
    board = Board("frisian", "W:W31-40,K47:B1-20:+0+147")
    depth = shashki.perft.PARALLEL_MIN_DEPTH
    one = board.perft(depth, jobs=1)
    assert board.perft(depth, jobs=2) == one
    tasks = shashki.perft.split(board.position, depth, min_tasks=20)
    assert len(tasks) >= 20 and any(t.position.king_runs != ((None, 0), (None, 0))
                                    for t in tasks)


def test_outcome_of_a_position_alone():
    assert Position("russian").outcome() is None
    blocked = Position("russian", "W:Wa1:Bb2,c3")
    assert blocked.outcome().winner == BLACK
    assert Position("giveaway", "W:Wa1:Bb2,c3").outcome().winner == WHITE
    # the side that has just moved has no piece left: it has lost (a set-up position)
    assert Position("international", "W:W46:B").outcome().winner == WHITE
    assert Position("breakthrough", "W:WK1,31:B20").outcome().termination == \
        Termination.KING_CROWNED


def test_bad_input_is_refused_and_leaves_the_position():
    position = Position("russian")
    with pytest.raises(IllegalMoveError):
        position.apply("c3-e5")
    with pytest.raises(InvalidMoveError):
        position.apply(42)
    with pytest.raises(InvalidFenError):
        Position("russian", "W:Wz9")
    with pytest.raises(InvalidFenError, match="promotion row"):
        Position.from_masks("russian", 1 << 31, 1, 0, WHITE)
    with pytest.raises(InvalidFenError, match="holds a white and a black"):
        Position.from_masks("russian", 1, 1, 0, WHITE)
    assert position == Position("russian")


def test_a_move_of_another_game_is_refused_for_what_it_is():
    russian = Board("russian").parse_move("c3-d4")
    for game in ("english", "brazilian"):
        board = Board(game)
        with pytest.raises(IllegalMoveError, match="a move of russian"):
            board.push(russian)
        assert russian not in board.legal_moves and not board.is_legal(russian)
        assert not Position(game).is_legal(russian)
    # a Move written by hand has no game: matched by its squares
    board = Board("english")
    move = board.parse_move("9-13")
    assert Move(move.origin, move.destination) in board.legal_moves


def test_is_legal_and_move_text_in_legal_moves():
    board = Board("russian")
    assert board.is_legal("c3-d4") and "c3-d4" in board.legal_moves
    assert not board.is_legal("c3-e5") and "c3-e5" not in board.legal_moves
    assert not board.is_legal("garbage") and not board.is_legal(3.5)


def test_ply_and_fullmove_number():
    board = Board("russian")
    assert (board.ply(), board.fullmove_number) == (0, 1)
    board.push("c3-d4")
    assert (board.ply(), board.fullmove_number) == (1, 1)
    board.push("f6-e5")
    assert (board.ply(), board.fullmove_number) == (2, 2)
    english = Board("english")     # Black moves first
    english.push("11-15")
    assert (english.ply(), english.fullmove_number) == (1, 1)
    # a FEN's move number (lidraughts' F counter) starts the count
    later = Board("russian", "B:Wa1:Bh8:H0:F12")
    assert (later.ply(), later.fullmove_number) == (23, 12)
    assert pickle.loads(pickle.dumps(later)).ply() == 23
    assert later.copy(stack=False).ply() == 23
    later.push(next(iter(later.legal_moves)))
    assert later.copy(stack=False).ply() == 24 == later.ply()


def test_board_mirror_and_unicode():
    board = Board("russian")
    board.push("c3-d4")
    mirrored = board.mirror()
    assert mirrored.position == board.position.mirror() and not mirrored.move_stack
    text = Board("russian", "W:Wa1,Kc3:Bh8,Kb6").unicode()
    assert "⛀" in text and "⛁" in text and "⛂" in text and "⛃" in text
    assert text.replace("⛀", "w").replace("⛁", "W").replace("⛂", "b").replace(
        "⛃", "B").replace("·", ".") == str(Board("russian", "W:Wa1,Kc3:Bh8,Kb6"))


def test_piece_at_takes_square_names():
    position = Position("english")
    assert position.piece_at("22") == (WHITE, False) == position.piece_at(
        position.variant.square("22"))
    assert position.piece_at("15") is None


@pytest.mark.subprocess
def test_the_first_use_of_a_game_from_many_threads():
    # issue 20.2: eight threads searching a game none has used yet, in a fresh process, each
    # got a kernel of its own and 7 of 8 were refused by the search
    code = """if True:
        import threading, shashki
        from shashki import engine
        errors = []
        def go(game):
            try:
                engine.search(shashki.Board(game), depth=1)
            except Exception as e:
                errors.append(repr(e))
        for game in ("russian", "italian"):
            threads = [threading.Thread(target=go, args=(game,)) for _ in range(8)]
            [t.start() for t in threads]
            [t.join() for t in threads]
        print(errors)
    """
    for _ in range(3):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        assert out.returncode == 0, out.stderr[-2000:]
        assert out.stdout.strip() == "[]"


# --- issue 30: crafted pickles raise, never crash -----------------------------------------------

def test_a_crafted_position_pickle_raises_as_from_masks():
    # issue 30.2a: a one-item kings' runs tuple was indexed with no bounds checked; unpickling
    # now checks everything as from_masks does
    from shashki._core.position import _position
    from shashki.errors import InvalidKingRunsError
    variant = shashki.get_variant("russian")
    frisian = shashki.get_variant("frisian")
    for args, error in [
        ((variant, 1, 1 << 31, 0, 0, ((None, 0),)), InvalidKingRunsError),
        ((frisian, 1, 1 << 49, 1, 0, ((0, 1),)), InvalidKingRunsError),
        ((variant, 1, 1 << 31, 0, 0, "ab"), InvalidKingRunsError),
        ((variant, 1, 1 << 31, 0, 0, ((None, 0), (None, 0), (None, 0))), InvalidKingRunsError),
        ((variant, 1, 1 << 31, 0, 2, None), InvalidFenError),
        ((variant, 1, 1, 0, 0, None), InvalidFenError),
        ((variant, 1 << 28, 1, 0, 0, None), InvalidFenError),        # a man on its last row
        ((variant, -1, 1, 0, 0, None), InvalidFenError),
        ((variant, 2**40, 1, 0, 0, None), InvalidFenError),
    ]:
        with pytest.raises(error):
            _position(*args)
    assert _position(variant, 1, 1 << 31, 0, 0, ((None, 0), (None, 0))) == \
        Position.from_masks(variant, 1, 1 << 31, 0, WHITE)


def test_pickles_name_the_side_and_read_the_old_numbering():
    # issue 31.5: the colours' values changed (WHITE 0 -> 1, python-chess's True); a pickle
    # names the side, and one made before (an int, White 0) still reads as the same side
    from shashki._core.position import _position, _position_of
    variant = shashki.get_variant("russian")
    for position in (Position("russian"), Position("russian").apply("c3-d4")):
        rebuild, args = position.__reduce__()
        assert rebuild is _position_of and args[4] == position.turn.name
        assert pickle.loads(pickle.dumps(position)).turn is position.turn
    assert _position(variant, 1, 1 << 31, 0, 1, None).turn is BLACK    # (1 was Black)
    assert _position(variant, 1, 1 << 31, 0, 0, None).turn is WHITE
    for side in ("white", 1, None, "WHITE "):
        with pytest.raises(InvalidFenError, match="side to move"):
            _position_of(variant, 1, 1 << 31, 0, side, None)


def test_a_crafted_move_pickle_raises():
    # issue 30.2b: destination 1,000,000 made str() read past the square names (40 printed
    # "a1-getattr")
    move = Board("russian").parse_move("c3-d4")
    rebuild, args = move.__reduce__()
    assert str(rebuild(*args)) == "c3-d4"
    for index, value in [(1, 1_000_000), (1, 40), (1, 32), (0, -5), (2, (99,)),
                         (6, "russian"), (7, "yes")]:
        crafted = list(args)
        crafted[index] = value
        with pytest.raises(InvalidMoveError):
            str(rebuild(*crafted))


def test_a_crafted_buffer_pickle_raises():
    # issue 30.2c: the shape's product wrapped round to 0 bytes, and item 2**31 was read
    from shashki._core.arrays import _rebuild
    from shashki.errors import InvalidBufferError
    for args in [("B", (2**32, 2**32), b""), ("B", (2**63, 2), b""), ("f", (2**62,), b""),
                 ("B", (), b""), ("B", (1, 1, 1, 1), b"\0"), ("B", (-1,), b""),
                 ("B", (2,), b"\0"), ("x", (1,), b"\0"), ("B", (1.0,), b"\0"),
                 (b"B", (1,), b"\0"), ("B", [1], b"\0"), ("B", (1,), "\0")]:
        with pytest.raises(InvalidBufferError):
            _rebuild(*args)
    planes = Board("russian").planes()
    assert pickle.loads(pickle.dumps(planes)) == planes


@pytest.mark.parametrize("args", [(0, -2), (-2, 0), (0, 1, (-2,)), (-1, 5), (0, -3),
                                  (64, 0), (0, 1, (5, 6), (0, -2, 1))])
def test_a_square_off_any_board_is_an_invalid_move_error(args):
    # issue 30.3: int_square was declared `except -2` and could return -2: SystemError
    with pytest.raises(InvalidMoveError, match="off any board"):
        Move(*args)


def test_from_masks_types_are_checked_as_the_masks_are():
    # issue 30.19: turn=1.0 was accepted and True refused; king_runs="ab" gave "not enough
    # values to unpack"
    from shashki.errors import InvalidKingRunsError
    for turn in (1.0, "1", None, 2, -1):
        with pytest.raises(InvalidFenError, match="side to move"):
            Position.from_masks("russian", 1, 1 << 31, 0, turn)
    # issue 31.5: as in python-chess, True is White and False Black (WHITE == True)
    assert Position.from_masks("russian", 1, 1 << 31, 0, True).turn is WHITE
    assert Position.from_masks("russian", 1, 1 << 31, 0, False).turn is BLACK
    for runs in ("ab", 5, ((None, 0),), ((None, 0), None), ((1, 2, 3), (None, 0))):
        with pytest.raises(InvalidKingRunsError, match="two"):
            Position.from_masks("frisian", 1, 1 << 49, 1, WHITE, runs)
    assert Position.from_masks("russian", 1, 1 << 31, 0, 1).turn is WHITE
    assert Position.from_masks("russian", 1, 1 << 31, 0, 0).turn is BLACK
    assert Position.from_masks("russian", 1, 1 << 31, 0, BLACK, ((None, 0), (None, 0)))


def test_count_takes_whole_depths_as_perft():
    # issue 30.19: count(1.5) counted depth 1 where perft refuses it
    from shashki.perft import PerftError
    start = Position("russian")
    assert start.count(3) == start.perft(3, jobs=1) == 302
    for depth in (1.5, -1, "2", None, 65):
        with pytest.raises(PerftError):
            start.count(depth)


# --- issue 31.5: python-chess habits ---------------------------------------------------------

def test_the_classes_have_signatures():
    # help() and inspect.signature showed no constructor for the compiled classes: their
    # docstrings carry one (the "--" line), which must stay the constructor's
    import inspect
    from shashki.pdn import Game
    assert str(inspect.signature(Position)) == "(variant=None, fen=None)"
    assert list(inspect.signature(Move).parameters) == [
        "origin", "destination", "captured", "path", "routes", "promotion", "text"]
    assert list(inspect.signature(Board).parameters) == ["variant", "fen", "fmjd_draw_rules"]
    assert list(inspect.signature(Game).parameters) == ["variant", "fen", "headers"]
    # the signature is the one the constructor takes: every parameter by keyword
    assert Position(variant="russian", fen=None) == Position()
    assert Move(origin=9, destination=13, captured=(), path=None, routes=1, promotion=False,
                text=None) == Move(9, 13)
    # and the signature lines do not show in the docstring
    assert not Position.__doc__.startswith("Position(") and "--" not in Position.__doc__[:3]
    assert Move.__doc__.startswith("A legal move")


def test_positions_compare_by_value_and_have_no_order():
    # the docs called Positions "comparable" while `<` raised; they compare by value (docs/api/
    # position.md says so, and its example shows both)
    start = Position("russian")
    assert start == Position("russian") and start != start.apply("c3-d4")
    assert start != Position("giveaway")      # the same pieces, another game
    with pytest.raises(TypeError):
        start < start.apply("c3-d4")


@pytest.mark.parametrize("text", ["c3-d4", "c3xd4", "c3:d4", "C3-D4", " c3-d4 ", "c3-d4!",
                                  "cd4", "c3-e5", "c3-d5", "c3-d4-e5", "z9-d4", "c3-", "-d4",
                                  "c33-d4", "3-d4", "c3–d4", "22-18", "a1-b2"])
def test_move_text_reads_the_same_on_the_fast_path(text):
    # apply/push/parse_move read the game's own two-square form in C (PositionBase.find_text)
    # and leave the rest to shashki.notation: the answer, or the error, must be notation's
    from shashki.notation import parse_move
    for position in (Position("russian"), Position("russian", "W:Wc3:Bd4,f6")):
        try:
            want = parse_move(position, text)
        except ValueError as error:
            for call in (position.apply, position.parse_move, Board.from_position(position).push):
                with pytest.raises(type(error)):
                    call(text)
            continue
        assert position.parse_move(text) == want
        assert position.apply(text) == position.apply(want)
        board = Board.from_position(position)
        assert board.push(text) == want and board.position == position.apply(want)


def test_numeric_move_text_reads_the_same_on_the_fast_path():
    for game in ("international", "english", "frisian", "turkish", "italian", "czech"):
        position = Position(game)
        for _ in range(8):
            for move in position.legal_moves:
                assert position.apply(str(move)) == position.apply(move)
                assert position.parse_move(str(move)) == move
            position = position.apply(position.legal_moves[-1])
