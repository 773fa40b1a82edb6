"""Hypothesis strategies of positions for the learning tests (test_actions, test_playouts):
positions reached by random games, and pieces set at random (which reach the multi-captures
that random play seldom does, where several captures join the same two squares)."""

from hypothesis import strategies as st

import shashki

#: every game (a game added to shashki.VARIANTS is tested too)
VARIANTS = [v.name for v in shashki.VARIANTS]
#: the sides by name, never by their int values (WHITE is 1, as True in python-chess)
SIDES = (shashki.WHITE, shashki.BLACK)


def board_of(variant, white, black, kings, turn):
    """A Board of square masks (square s = bit s)."""
    v = shashki.get_variant(variant)
    sides = []
    for color, mask in (("W", white), ("B", black)):
        names = [("K" if kings >> s & 1 else "") + v.square_name(s)
                 for s in range(v.geometry.squares) if mask >> s & 1]
        sides.append(color + ",".join(names))
    return shashki.Board(variant, ("W" if turn == shashki.WHITE else "B") + ":" + ":".join(sides))


@st.composite
def random_games(draw, variants=VARIANTS, max_plies=120):
    board = shashki.Board(draw(st.sampled_from(variants)))
    for _ in range(draw(st.integers(0, max_plies))):
        moves = sorted(board.legal_moves)
        if not moves or board.outcome() is not None:
            break
        board.push(moves[draw(st.integers(0, len(moves) - 1))])
    return board


@st.composite
def random_positions(draw, variants=VARIANTS):
    """Pieces at random, up to 12 a side, no man on its own crowning row; many kings."""
    variant = shashki.get_variant(draw(st.sampled_from(variants)))
    n = variant.geometry.squares
    white = black = kings = 0
    for s in draw(st.lists(st.integers(0, n - 1), max_size=24, unique=True)):
        color = draw(st.sampled_from(SIDES))
        if bin(white if color == shashki.WHITE else black).count("1") >= 12:
            continue
        crown = variant.promotion_row(color)
        king = draw(st.booleans()) or bool(crown >> s & 1)
        if color == shashki.WHITE:
            white |= 1 << s
        else:
            black |= 1 << s
        if king:
            kings |= 1 << s
    return board_of(variant.name, white, black, kings, draw(st.sampled_from(SIDES)))


def boards():
    return st.one_of(random_games(), random_positions())
