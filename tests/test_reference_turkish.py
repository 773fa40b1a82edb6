"""Turkish moves against an independent reference (tests/reference_turkish.py), on positions
that no data file holds: random placements, kings and men hunting scattered prey, and random
games from the start, every position compared move for move (routes and promotion included).
"""

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

import shashki
from reference_turkish import (BLACK, START_FEN, WHITE, Piece, Position, coord_of, on_board,
                               square_of)

SQUARES = 64
PLACES = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _mask(squares):
    mask = 0
    for s in squares:
        mask |= 1 << s
    return mask


def compare(position):
    """Fail, printing the FEN and both lists, unless shashki lists the reference's moves."""
    fen = position.fen()
    board = shashki.Board("turkish", fen)
    assert board.fen().split(":")[0] == fen.split(":")[0]
    for coord, piece in position.board.items():
        # (the reference's sides are White 0, Black 1; shashki's WHITE is 1, as True)
        side = shashki.WHITE if piece.color == WHITE else shashki.BLACK
        assert board.piece_at(square_of(coord)) == (side, piece.king), fen
    want = {(o, d, _mask(t)): v for (o, d, t), v in position.moves().items()}
    got = {(m.origin, m.destination, m.captured_mask): (m.routes, m.promotion)
           for m in board.legal_moves}
    if got != want:
        pytest.fail(f"turkish {fen}: shashki and the reference disagree\n"
                    f"  only shashki: {sorted(set(got.items()) - set(want.items()))}\n"
                    f"  only the reference: {sorted(set(want.items()) - set(got.items()))}")
    routes = position.legal_routes()
    for move in board.legal_moves:
        assert move.path[0] == move.origin and move.path[-1] == move.destination, (fen, move)
        if move.captured:
            # the route shown is one the rules allow, and its path joins its captures
            assert (move.origin, tuple(move.captured), move.destination) in routes, \
                (fen, str(move))
            assert len(move.path) == len(move.captured) + 1, (fen, str(move), move.path)
    return board


def _crowned_if_on_far_row(coord, color, king):
    """A man on its own far row would have been crowned: make it a king."""
    far = 7 if color == WHITE else 0
    return Piece(color, bool(king) or coord[1] == far)


@st.composite
def placements(draw):
    """1..16 pieces a side anywhere, about half of them kings (a few masks, one bit a
    square: they shrink well)."""
    bits = st.integers(0, 2 ** SQUARES - 1)
    occupied = draw(bits)
    if draw(st.booleans()):
        occupied &= draw(bits)          # sparser boards: a quarter of the squares
    colors, kings = draw(bits), draw(bits)
    board = {}
    for square in range(SQUARES):
        if occupied >> square & 1:
            color = colors >> square & 1
            if sum(p.color == color for p in board.values()) < 16:
                coord = coord_of(square)
                board[coord] = _crowned_if_on_far_row(coord, color, kings >> square & 1)
    assume({p.color for p in board.values()} == {WHITE, BLACK})
    return Position(board, draw(st.sampled_from((WHITE, BLACK))))


@st.composite
def hunts(draw):
    """One to three hunters of the side to move (kings, or men two to four rows from their
    far row, which crown in mid-capture) among scattered prey with gaps to land in: long
    captures, turns, many landing squares and several routes to one move."""
    mover = draw(st.sampled_from((WHITE, BLACK)))
    inner = [(f, r) for r in range(1, 7) for f in range(1, 7)]
    prey = []
    for i, coord in enumerate(inner):
        # no two prey side by side along a rank or a file: gaps make the long captures
        if draw(st.booleans()) and len(prey) < 12 and not any(
                abs(coord[0] - f) + abs(coord[1] - r) == 1 for f, r in prey):
            prey.append(coord)
    board = {c: Piece(1 - mover, draw(st.booleans())) for c in prey}
    raid = draw(st.booleans())
    ranks = ((3, 4, 5) if mover == WHITE else (2, 3, 4)) if raid else range(8)
    spots = [(f, r) for r in ranks for f in range(8)]
    for index in draw(st.lists(st.integers(0, len(spots) - 1), min_size=1, max_size=3)):
        coord = spots[index]
        board.setdefault(coord, _crowned_if_on_far_row(coord, mover, not raid))
    assume(len(prey) >= 2 and any(p.color == mover for p in board.values()))
    return Position(board, mover)


@PLACES
@given(position=placements())
def test_random_placements(position):
    compare(position)
    compare(Position(position.board, 1 - position.turn))


@PLACES
@given(position=hunts())
def test_hunts(position):
    compare(position)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_random_games(seed):
    """A random game from the start (to its end or 150 plies) with the reference's moves;
    every position compared, and the one shashki reaches by pushing the same move."""
    rng = random.Random(seed)
    position = Position.from_fen(START_FEN)
    board = compare(position)
    for _ in range(150):
        moves = sorted(position.moves().items(), key=lambda kv: (kv[0][0], kv[0][1],
                                                                 sorted(kv[0][2])))
        if not moves:
            break
        (origin, dest, taken), (_, promoted) = rng.choice(moves)
        pushed = next(m for m in board.legal_moves
                      if (m.origin, m.destination, m.captured_mask) == (origin, dest,
                                                                       _mask(taken)))
        board.push(pushed)
        position = position.play((origin, dest, taken), promoted)
        assert board.fen() == shashki.Board("turkish", position.fen()).fen()
        board = compare(position)


def test_the_reference_counts_pydraughts_start_perft():
    # pydraughts 0.6.7's start perft (issue 19) to depth 4, where no king has been crowned:
    # the reference is checked against the one other implementation there is
    start = Position.from_fen(START_FEN)
    assert [start.perft(d) for d in range(1, 5)] == [8, 64, 708, 7538]
    assert [shashki.Board("turkish").perft(d) for d in range(1, 5)] == [8, 64, 708, 7538]


@pytest.mark.parametrize("fen", [
    "W:Wd4:Bd5,c6,d7",      # a man's capture, then a sideways one
    "W:WKa1:Ba4,c8,e4,d2",  # a king's long capture with turns and choices of landing
    "W:Wf6:Bf7,e8,c8",      # a man reaching the far row mid-capture goes on sideways
    "B:Bd5:Wd4,c3,b3",      # Black's man captures down and sideways
    "W:WKd4:Bd6,d2",        # no 180-degree turn: d4xd7 may not come back down to take d2
])
def test_rule_book_shapes(fen):
    assert compare(Position.from_fen(fen)).legal_moves


def test_squares_are_shashkis():
    assert on_board(7, 7) and square_of((7, 7)) == 63 and coord_of(8) == (0, 1)
    assert shashki.Board("turkish", "W:Wa2:Bh8").piece_at(square_of((7, 7))) == (shashki.BLACK, False)
