"""Game end, by property: the draw counters and repetitions of random games agree with a
recount of the game, and popping every move restores the start."""

from hypothesis import given, settings, strategies as st

import shashki
from shashki import BLACK, WHITE
from shashki.variants import RUSSIAN
from shashki.outcome import DrawCounters

from outcome_support import GAMES, fen, sq


# --- properties of random games -----------------------------------------------------------

@st.composite
def sparse_positions(draw):
    """A random legal set-up with few pieces, mostly kings, to reach the endgame rules."""
    game = draw(st.sampled_from(GAMES + ["brazilian-fmjd"]))
    flag = True if game == "brazilian-fmjd" else None
    game = "brazilian" if flag else game
    # a lone king is half the cases: the FMJD-64 endgames are about it
    counts = (draw(st.integers(1, 4)), draw(st.sampled_from([1, 1, 1, 2, 3, 4])))
    squares = draw(st.lists(st.integers(0, 31), min_size=sum(counts), max_size=sum(counts),
                            unique=True))
    sides = ([], [])
    for i, s in enumerate(squares):
        color = WHITE if i < counts[0] else BLACK
        crowning_row = range(28, 32) if color == WHITE else range(0, 4)
        king = s in crowning_row or draw(st.integers(0, 3)) > 0
        # (White's list first: the pair is in FEN order, not indexed by colour)
        sides[0 if color == WHITE else 1].append(("K" if king else "") + RUSSIAN.square_name(s))
    turn = draw(st.sampled_from("WB"))
    return shashki.Board(game, fen(game, turn, *sides), fmjd_draw_rules=flag)


@st.composite
def random_games(draw):
    if draw(st.integers(0, 3)) == 0:
        board = shashki.Board(draw(st.sampled_from(GAMES)))
    else:
        board = draw(sparse_positions())
    for _ in range(draw(st.integers(0, 60))):
        moves = sorted(board.legal_moves, key=lambda m: (m.origin, m.destination, m.captured))
        if not moves:
            break
        choice = draw(st.integers(0, 3))
        if choice == 0 and len(board.move_stack) >= 2:
            # undo-like: the piece moved two plies ago goes back, so positions repeat
            last = board.move_stack[-2]
            back = [m for m in moves
                    if (m.origin, m.destination) == (last.destination, last.origin)]
            if back:
                board.push(back[0])
                continue
        # favour king moves, which the draw rules are about
        kings = [m for m in moves if board.kings >> m.origin & 1]
        pool = kings if kings and choice < 3 else moves
        board.push(pool[draw(st.integers(0, len(pool) - 1))])
    return board


def _replay(board):
    """Positions of the game from its set-up (rebuilt by popping a copy)."""
    twin = board.copy()
    positions = [twin.fen()]
    while twin.move_stack:
        twin.pop()
        positions.append(twin.fen())
    return positions[::-1]


def _expected_counters(board):
    """The counters recomputed from the game's moves and positions, without shashki.outcome."""
    twin = board.copy()
    history = []      # (move, a man moved, the position after it)
    while twin.move_stack:
        after = (twin.white, twin.black, twin.kings)
        m = twin.pop()
        history.append((m, not twin.kings >> m.origin & 1, after))
    history.reverse()
    start = (twin.white, twin.black, twin.kings)

    def trailing(predicate):
        count = 0
        for item in reversed(history):
            if not predicate(item):
                break
            count += 1
        return count

    halfmove = trailing(lambda h: not h[1] and not h[0].is_capture)
    balance = trailing(lambda h: not h[0].is_capture and not h[0].promotion)

    main_road = [sq(f + r) for f, r in zip("abcdefgh", "12345678")]

    def config(masks, road):
        white, black, kings = masks
        for strong, weak in ((white, black), (black, white)):
            n_strong, n_weak = bin(strong).count("1"), bin(weak).count("1")
            if n_weak == 1 and weak & kings and strong & kings:
                if road and n_strong == 3 and any(weak >> s & 1 for s in main_road):
                    return True
                if not road and n_strong <= 2:
                    return True
        return False

    def run(road):
        if not board.fmjd_draw_rules:
            return -1
        positions = [start] + [h[2] for h in history]
        count = -1
        for masks in positions:
            count = count + 1 if config(masks, road) else -1
        return count

    return DrawCounters(halfmove, balance, run(True), run(False))


@settings(max_examples=120, deadline=None)
@given(random_games())
def test_counters_match_a_recount_of_the_game(board):
    # at every position of the game, back to its set-up
    while True:
        assert board.draw_counters == _expected_counters(board)
        assert board.copy().draw_counters == board.draw_counters
        if not board.move_stack:
            break
        board.pop()


@settings(max_examples=120, deadline=None)
@given(random_games())
def test_repetition_matches_a_count_of_positions(board):
    positions = _replay(board)
    while True:
        occurrences = positions.count(board.fen())
        for k in range(1, 5):
            assert board.is_repetition(k) == (occurrences >= k)
        if not board.move_stack:
            break
        board.pop()
        positions.pop()


@settings(max_examples=120, deadline=None)
@given(random_games(), st.data())
def test_popping_everything_restores_the_start(board, data):
    twin = board.copy()
    while twin.move_stack:
        twin.pop()
    start = shashki.Board(board.variant.name, twin.fen(), fmjd_draw_rules=board.fmjd_draw_rules)
    # pop back a random part of the way: the state equals a replay to that point
    back = data.draw(st.integers(0, len(board.move_stack)))
    moves = list(board.move_stack)
    for _ in range(back):
        board.pop()
    replay = start.copy()
    for m in moves[:len(moves) - back]:
        replay.push(m)
    assert board.draw_counters == replay.draw_counters
    assert board.outcome(claim_draw=True) == replay.outcome(claim_draw=True)
    while board.move_stack:
        board.pop()
    assert board.fen() == start.fen()
    assert board.draw_counters == start.draw_counters
    assert board.outcome() == start.outcome()
    assert board.outcome(claim_draw=True) == start.outcome(claim_draw=True)
    assert board.can_claim_draw() == start.can_claim_draw()
    assert board.move_stack == []
