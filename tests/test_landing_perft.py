"""Turkish in kish's convention (issue 43.3): kish, a Rust library for turkish draughts,
counts every sequence of landing squares as a move of its own, so its perft passes shashki's
from depth 7 (10,782,382 against 10,782,308 distinct moves, and as many orders of capture).
Position.routes(every_landing=True) lists those sequences and shashki.perft.landing_perft
counts with them: kish's published table is reproduced."""

import importlib.util
from pathlib import Path

import pytest
from hypothesis import given, settings

import shashki
from shashki.perft import landing_perft

from positions import boards


def _kish_table():
    # kish's published perft of the turkish start (its README), as the deep table's builder
    # checks its counts against it: tools/perft_table.py LANDING_TABLES, the one copy
    path = Path(__file__).resolve().parents[1] / "tools" / "perft_table.py"
    spec = importlib.util.spec_from_file_location("perft_table", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.LANDING_TABLES["turkish"]


KISH = _kish_table()


@pytest.mark.parametrize("depth", range(1, 9))
def test_kish_table_of_turkish(depth):
    assert landing_perft(shashki.Position("turkish"), depth) == KISH[depth - 1]


@pytest.mark.deep
def test_kish_table_of_turkish_depth_9():
    assert landing_perft(shashki.Position("turkish"), 9) == KISH[8]


def test_the_conventions_part_where_a_king_lands_before_capturing_on():
    start = shashki.Position("turkish")
    assert start.perft(6) == start.perft(6, paths=True) == landing_perft(start, 6)
    assert start.perft(7) == start.perft(7, paths=True) < landing_perft(start, 7)


@settings(max_examples=120, deadline=None)
@given(boards())
def test_landing_routes_are_routes_written_with_more_landings(board):
    position = board.position
    every = position.routes(every_landing=True)
    routes = position.routes()
    # the same moves; as many routes or more; each read back to its move
    assert set(every) == set(routes) == set(position.legal_moves)
    assert len(every) >= len(routes)
    if not board.variant.flying_kings:
        assert len(every) == len(routes)
    for route in every:
        assert position.parse_move(str(route)) == route
