"""Soak: many random games of every game, each played to its end, checking the invariants at
every ply.  Left out of the default run (marker ``soak``): ``tox -e soak`` or
``pytest -m soak -s``.  SHASHKI_SOAK_GAMES sets the games per variant (default 10,000),
SHASHKI_SOAK_SEED the seed; game i of a variant is played from its own seed, so a failure names
the one game to replay.

At every ply: outcome() answers (and says NO_MOVES exactly when there is no legal move), the
core's perft(1) counts the listed moves, the move changes the material as it says (the mover
keeps its pieces, gains a king only by promotion; the opponent loses exactly the captured
pieces), the masks stay consistent, no man stands on its own promotion row.  Every few plies
the FEN round trip.  At the end of each game: the game ended by a rule within the bound the draw
rules guarantee, popping every move gives back the start, and some games go through PDN and
back.
"""

import io
import os
import random
import time
from collections import Counter

import pytest

import shashki
from shashki import pdn
from shashki.outcome import Termination

pytestmark = pytest.mark.soak

VARIANTS = ["russian", "giveaway", "brazilian", "italian", "english"]
GAMES = int(os.environ.get("SHASHKI_SOAK_GAMES", "10000"))
SEED = os.environ.get("SHASHKI_SOAK_SEED", "shashki-soak-1")
FEN_EVERY = 8       # plies between FEN round trips
PDN_EVERY = 50      # games between PDN round trips


def _count(mask):
    return bin(mask).count("1")


def _ply_bound(variant):
    """Plies within which every game must end: a man moves forward at most 7 times and there
    are at most 24 men and 22 captures, so at most 24 * 7 + 22 irreversible moves; between two
    of them the kings-only / no-progress rule allows at most twice its limit of moves."""
    limit = variant.kings_only_limit or variant.no_progress_limit
    return (24 * 7 + 22 + 1) * (2 * limit + 1)


def _check_position(board):
    white, black, kings = board.white, board.black, board.kings
    assert white & black == 0
    assert kings & ~(white | black) == 0
    assert (white | black) >> 32 == 0
    assert _count(white) <= 12 and _count(black) <= 12
    variant = board.variant
    assert variant.promotion_row(shashki.WHITE) & white & ~kings == 0
    assert variant.promotion_row(shashki.BLACK) & black & ~kings == 0


def _play(variant_name, index):
    """Play game `index` of a variant to its end; returns (board, outcome)."""
    rng = random.Random(f"{SEED}:{variant_name}:{index}")
    board = shashki.Board(variant_name)
    variant = board.variant
    bound = _ply_bound(variant)
    while True:
        moves = list(board.legal_moves)
        # the draws a player must claim (english) are claimed, as a match does
        outcome = board.outcome(claim_draw=True)
        if board.outcome() is not None:
            assert outcome is not None
        if not moves:
            assert outcome is not None and outcome.termination is Termination.NO_MOVES
            loser = board.turn
            assert outcome.winner == (loser if variant.reversed_goal else 1 - loser)
        if outcome is not None:
            return board, outcome
        assert len(board.move_stack) < bound, "the draw rules should have ended the game"
        assert board.perft(1) == len(moves) == len(set(moves))
        assert board.must_capture == moves[0].is_capture
        assert all(m.is_capture == moves[0].is_capture for m in moves)  # captures compulsory

        move = rng.choice(moves)
        mover = board.turn
        # (by name: the colours' values are python-chess's, WHITE 1)
        own, enemy = ((board.white, board.black) if mover == shashki.WHITE
                      else (board.black, board.white))
        kings = board.kings
        was_king = bool(kings >> move.origin & 1)
        assert not (move.promotion and was_king)
        board.push(move)
        own_after, enemy_after = ((board.white, board.black) if mover == shashki.WHITE
                                  else (board.black, board.white))
        assert _count(own_after) == _count(own)
        assert own_after >> move.destination & 1
        assert enemy_after == enemy & ~move.captured_mask
        assert _count(enemy) - _count(enemy_after) == len(move.captured) == _count(
            move.captured_mask)
        assert _count(own_after & board.kings) == _count(own & kings) + move.promotion
        assert bool(board.kings >> move.destination & 1) == (was_king or move.promotion)
        assert board.turn is mover.other
        _check_position(board)
        if len(board.move_stack) % FEN_EVERY == 0:
            again = shashki.Board(variant_name, board.fen())
            assert again == board and again.fen() == board.fen()
            assert set(again.legal_moves) == set(board.legal_moves)


def _unwind(board):
    moves = list(board.move_stack)
    for _ in moves:
        board.pop()
    assert board.fen() == board.variant.start_fen
    assert board.draw_counters == shashki.Board(board.variant.name).draw_counters
    return moves


def _pdn_round_trip(board):
    game = pdn.Game.from_board(board)
    again = pdn.read_game(io.StringIO(str(game)))
    assert again is not None and again.errors == []
    assert list(again.moves) == list(board.move_stack)
    assert again.board().fen() == board.fen()


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_games_to_the_end(variant, capsys):
    start = time.perf_counter()
    terminations = Counter()
    plies = []
    for index in range(GAMES):
        try:
            board, outcome = _play(variant, index)
            final = board.fen()
            if index % PDN_EVERY == 0:
                _pdn_round_trip(board)
            assert board.result(claim_draw=True) == outcome.result()
            moves = _unwind(board)
        except Exception as exc:
            raise AssertionError(f"{variant} game {index} (seed {SEED!r}) failed: {exc!r}") \
                from exc
        terminations[outcome.termination.value] += 1
        plies.append(len(moves))
        assert final  # (the position the game ended in was written)
    seconds = time.perf_counter() - start
    with capsys.disabled():
        print(f"\nsoak {variant}: {GAMES} games in {seconds:.1f} s, plies mean "
              f"{sum(plies) / len(plies):.1f} max {max(plies)}; "
              + ", ".join(f"{k} {v}" for k, v in terminations.most_common()))
