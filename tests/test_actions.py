"""Actions and observations for learning systems (issue 14): the action encoding is a
bijection between the legal moves and the mask's ones in every position of every game, both
perspectives; observations have the documented layout; both export the buffer protocol."""

import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

import shashki
from shashki.errors import IllegalActionError, IllegalMoveError, InvalidActionError

from positions import VARIANTS, board_of, boards

SIZE = {v: shashki.get_variant(v).action_space_size for v in VARIANTS}


@settings(max_examples=400, deadline=None)
@given(boards(), st.booleans())
def test_actions_are_a_bijection_with_the_legal_moves(board, perspective):
    moves = list(board.legal_moves)
    actions = [board.move_to_action(m, perspective=perspective) for m in moves]
    assert sorted(actions) == board.legal_actions(perspective=perspective)
    assert len(set(actions)) == len(moves), "two legal moves share an action"
    assert all(0 <= a < board.variant.action_space_size for a in actions)
    for move, action in zip(moves, actions):
        assert board.action_to_move(action, perspective=perspective) == move
    mask = board.legal_action_mask(perspective=perspective).tolist()
    assert len(mask) == board.variant.action_space_size
    assert [i for i, bit in enumerate(mask) if bit] == sorted(actions)


@settings(max_examples=300, deadline=None)
@given(boards())
def test_an_action_is_origin_times_squares_plus_destination_or_an_alternate(board):
    n = board.variant.geometry.squares
    moves = list(board.legal_moves)
    for perspective in (False, True):
        flip = perspective and board.turn == shashki.BLACK
        view = (lambda s: n - 1 - s) if flip else (lambda s: s)
        pairs = {}
        for m in moves:
            pairs.setdefault((view(m.origin), view(m.destination)), []).append(m)
        alternates = []
        for (f, t), same in sorted(pairs.items()):
            # the one with the smallest captured mask (in the view's numbering) keeps f * n + t
            key = lambda m: sum(1 << view(s) for s in m.captured)  # noqa: E731
            same.sort(key=key)
            assert board.move_to_action(same[0], perspective=perspective) == f * n + t
            alternates += same[1:]
        for i, m in enumerate(alternates):
            assert board.move_to_action(m, perspective=perspective) == n * n + i


def test_the_start_positions():
    board = shashki.Board("russian")
    assert board.move_to_action(board.parse_move("c3-d4")) == 9 * 32 + 13
    board.push("c3-d4")
    # Black's f6-e5 is c3-d4 turned half a turn (f6 = 22 -> 9, e5 = 18 -> 13): seen from
    # Black's side, it is the same action
    assert board.move_to_action(board.parse_move("f6-e5"), perspective=True) == 9 * 32 + 13
    assert board.move_to_action(board.parse_move("f6-e5")) == 22 * 32 + 18
    english = shashki.Board("english")
    assert sorted(english.legal_actions(perspective=True)) == \
        sorted(shashki.Board("italian").legal_actions())


def test_a_flying_king_with_several_captures_between_the_same_squares():
    # the white king on a1 takes b2/d4 or ... : every capture ends on the same square with
    # other pieces; all have their own action
    board = board_of("russian", 0x830588, 0x5c387060, 0x830000, shashki.WHITE)
    moves = list(board.legal_moves)
    pairs = {}
    for m in moves:
        pairs.setdefault((m.origin, m.destination), []).append(m)
    assert max(len(v) for v in pairs.values()) >= 5
    actions = board.legal_actions()
    assert len(set(actions)) == len(moves)
    assert sum(a >= 32 * 32 for a in actions) == len(moves) - len(pairs)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_action_space(variant):
    v = shashki.get_variant(variant)
    g = v.geometry
    game = shashki.Game.of(v)
    # the record's sizes are its Game's, which are the core's
    assert v.action_space_size == game.action_space_size
    assert v.planes_shape == game.planes_shape
    from shashki._core import actions
    assert game.action_space_size == g.squares ** 2 + actions.ALTERNATES
    assert actions.ALTERNATES == 511
    # variants.py defines the alternates, the kernels the moves a list holds in place
    # (MAXMOVES, which sizes the learning surfaces' arrays and their refusal): the actions
    # number every move the surfaces accept only while the one is the other less one
    from shashki._core import vector_env
    assert actions.ALTERNATES == vector_env.MAX_LEGAL - 1
    assert v.action_space_size == {32: 1535, 50: 3011, 64: 4607}[g.squares]
    assert game.planes_shape == (actions.OBSERVATION_PLANES, g.rows, g.files)
    assert shashki.Board(v).planes().shape == v.planes_shape
    assert len(shashki.Board(v).legal_action_mask()) == v.action_space_size


def test_bad_actions_are_refused_with_what_was_expected():
    board = shashki.Board("english")
    with pytest.raises(InvalidActionError, match=r"out of range: english actions are 0\.\.1534"):
        board.action_to_move(1535)
    with pytest.raises(InvalidActionError, match="out of range"):
        board.action_to_move(-1)
    with pytest.raises(InvalidActionError, match="an action is an int, not str"):
        board.action_to_move("9")
    with pytest.raises(InvalidActionError, match="not bool"):
        board.action_to_move(True)
    with pytest.raises(IllegalActionError, match="action 0 is not legal here; the legal actions "
                                                 r"are \d+, ") as caught:
        board.action_to_move(0)
    assert set(caught.value.alternatives) == set(board.legal_moves)
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, IllegalMoveError)
    with pytest.raises(IllegalMoveError, match="illegal move"):
        board.move_to_action(shashki.Move(0, 4))
    with pytest.raises(InvalidActionError, match="for a Move, not int"):
        board.move_to_action(5)
    over = shashki.Board("russian", "W:W:Bd4")
    with pytest.raises(IllegalActionError, match="none"):
        over.action_to_move(3)
    assert over.legal_action_mask().tolist() == [0] * 1535


def test_numpy_integers_are_actions():
    np = pytest.importorskip("numpy")
    board = shashki.Board("russian")
    assert board.action_to_move(np.int64(301)) == board.parse_move("c3-d4")


# --- observations ------------------------------------------------------------------------------

def _cell(geometry, square, flip=False):
    # (row, file) of a square, from White's side or turned half a turn
    if flip:
        square = geometry.squares - 1 - square
    file, rank = geometry.coords(square)
    return rank, file


@settings(max_examples=200, deadline=None)
@given(boards(), st.booleans())
def test_planes_hold_the_pieces(board, perspective):
    planes = board.planes(perspective=perspective)
    assert planes.shape == board.variant.planes_shape and planes.format == "f"
    data = planes.tolist()
    flip = perspective and board.turn == shashki.BLACK
    me = shashki.BLACK if flip else shashki.WHITE
    g = board.variant.geometry
    expected = [[[0.0] * g.files for _ in range(g.rows)] for _ in range(4)]
    for s in range(g.squares):
        piece = board.piece_at(s)
        if piece is not None:
            color, king = piece
            row, file = _cell(g, s, flip)
            expected[2 * (color != me) + king][row][file] = 1.0
    assert data[:4] == expected
    assert {x for row in data[4] for x in row} == {1.0 if board.turn == shashki.WHITE else 0.0}
    limit = board.variant.king_move_limit
    for index, plane in enumerate(data[5:], 5):
        if index == 8 and limit:
            # frisian: the kings' runs, on each running king's square its count over the limit
            runs = [[0.0] * g.files for _ in range(g.rows)]
            for square, count in board.king_runs:
                if count:
                    row, file = _cell(g, square, flip)
                    runs[row][file] = count / limit
            assert plane == [pytest.approx(row) for row in runs]
            continue
        assert len({x for row in plane for x in row}) == 1 and 0.0 <= plane[0][0] <= 1.0


def test_the_draw_planes_count():
    board = shashki.Board("russian", "W:WKa1:BKb8")
    assert board.planes().tolist()[6][0][0] == 0.0
    for move in ["a1-b2", "b8-a7", "b2-a1", "a7-b8"]:
        board.push(move)
    data = board.planes().tolist()
    assert data[5][0][0] == 0.5                     # seen once before
    assert data[6][0][0] == pytest.approx(4 / 30)   # 4 plies of 15 moves of kings
    assert data[9][0][0] > 0                        # 7.2.8: a king against a lone king
    english = shashki.Board("english", "W:WK1:BK32")
    english.push(english.action_to_move(english.legal_actions()[0]))
    assert english.planes().tolist()[6][0][0] == pytest.approx(1 / 80)
    assert english.planes().tolist()[7][0][0] == 0.0   # no FMJD-64 rules in english


def test_buffers_export_without_copy():
    np = pytest.importorskip("numpy")
    planes = shashki.Board("russian").planes()
    array = np.asarray(planes)
    assert array.dtype == np.float32 and array.shape == (10, 8, 8)
    array[9, 0, 0] = 7.0                # the same memory
    assert planes.tolist()[9][0][0] == 7.0
    mask = np.asarray(shashki.Board("russian").legal_action_mask())
    assert mask.dtype == np.uint8 and mask.sum() == 7
    view = memoryview(planes)
    assert view.shape == (10, 8, 8) and view.format == "f" and view.nbytes == 10 * 64 * 4


def test_buffers_pickle_and_compare():
    import pickle
    planes = shashki.Board("italian").planes()
    again = pickle.loads(pickle.dumps(planes))
    assert again == planes and again.shape == planes.shape and again is not planes
    assert planes != shashki.Board("italian", "W:W21:B1").planes()
    with pytest.raises(TypeError, match="made by shashki"):
        type(planes)()


def test_buffers_are_sequences():
    # issue 20.15: len() but no m[i], no iteration without numpy
    from collections.abc import Sequence
    board = shashki.Board("russian")
    mask = board.legal_action_mask()
    items = mask.tolist()
    assert isinstance(mask, Sequence) and list(mask) == items
    assert mask[301] == 1 and mask[0] == 0 and mask[-1] == items[-1] and type(mask[301]) is int
    assert [i for i, bit in enumerate(mask) if bit] == board.legal_actions()
    part = mask[300:310]
    assert part.format == "B" and part.tolist() == items[300:310] and len(part) == 10
    assert mask[::-7].tolist() == items[::-7] and mask[5:2].tolist() == []
    assert 1 in mask and mask.count(1) == 7 and mask.index(1) == items.index(1)
    assert list(reversed(mask))[:3] == items[::-1][:3]
    with pytest.raises(IndexError):
        mask[len(mask)]
    with pytest.raises(IndexError):
        mask[-len(mask) - 1]
    with pytest.raises(TypeError):
        mask["1"]
    # a buffer of more dimensions: an int gives a row (a Buffer of its own), a slice rows
    planes = board.planes()
    data = planes.tolist()
    assert planes[0].shape == (8, 8) and planes[0].tolist() == data[0]
    assert planes[-1][7].tolist() == data[-1][7] and planes[0][0][1] == data[0][0][1]
    assert type(planes[0][0][1]) is float
    assert planes[2:4].shape == (2, 8, 8) and planes[2:4].tolist() == data[2:4]
    assert [row.tolist() for row in planes] == data
    # the playouts' results too, and a copy stays a Buffer with the buffer protocol
    games = shashki.playouts("russian", 5, seed=1, positions=True)
    assert list(games.results) == games.results.tolist() and games.lengths[-1] > 0
    assert games.positions[0].tolist() == games.positions.tolist()[0]
    assert memoryview(planes[1:3]).shape == (2, 8, 8)


def test_legal_actions_are_sorted():
    # issue 20.15: OpenSpiel's legal_actions are sorted; the moves' order is that of
    # legal_moves, which move_to_action maps one by one
    for fen in ["W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
                "W:WKa1:Bc3,e5,e3,c5", "B:Wc3,e3,Kh2:Bb6,d6,d4,f4,f6"]:
        board = shashki.Board("russian", fen)
        for perspective in (False, True):
            actions = board.legal_actions(perspective=perspective)
            assert actions == sorted(actions) and len(actions) == len(board.legal_moves)
            assert actions == sorted(board.move_to_action(m, perspective=perspective)
                                     for m in board.legal_moves)


@pytest.mark.parametrize("turn", [shashki.WHITE, shashki.BLACK])
def test_a_frisian_king_at_its_limit_has_no_quiet_action(turn):
    # the quiet moves' actions come from the bitboards (KernelOps.quiet_actions), not from
    # the listed moves: a king that has made its three quiet moves in a row may not move
    # again while its side has men, and no action is offered for it
    own, other, king = (1 << 5) | (1 << 6), (1 << 49) | (1 << 47), 22
    if turn == shashki.BLACK:
        own, other, king = (1 << 44) | (1 << 43), (1 << 0) | (1 << 2), 27
    white, black = (own, other) if turn == shashki.WHITE else (other, own)
    if turn == shashki.WHITE:
        white |= 1 << king
    else:
        black |= 1 << king
    for count, king_moves in ((2, True), (3, False)):
        runs = ((king, count), (None, 0)) if turn == shashki.WHITE else ((None, 0), (king, count))
        board = shashki.Board.from_position(shashki.Position.from_masks(
            "frisian", white, black, 1 << king, turn, runs))
        moves = list(board.legal_moves)
        assert any(m.origin == king for m in moves) == king_moves
        for perspective in (False, True):
            assert board.legal_actions(perspective=perspective) == sorted(
                board.move_to_action(m, perspective=perspective) for m in moves)
            mask = board.legal_action_mask(perspective=perspective).tolist()
            assert sum(mask) == len(moves)


def test_the_actions_page_is_current():
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "docs" / "gen_actions.py"
    spec = importlib.util.spec_from_file_location("gen_actions", path)
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    assert gen.main(["--check"]) == 0, "run python docs/gen_actions.py"


def test_importing_shashki_loads_no_numpy():
    code = "import sys, shashki; b = shashki.Board(); b.planes(); b.legal_action_mask(); " \
           "shashki.playouts('russian', 3, seed=1); print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "False"
