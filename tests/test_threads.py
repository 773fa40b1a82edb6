"""The engine on several threads (lazy SMP, issue 32): helpers that share the hash table,
halted when the move is decided; searches without a time limit stay on one thread."""

import threading
import time

import pytest

import shashki
from shashki._core.game import Game
from shashki._core.search import Searcher
from shashki.engine import Engine
from shashki.errors import InvalidLimitError


def test_a_helper_reads_what_its_owner_found():
    board = shashki.Board("russian")
    owner = Searcher(Game.of("russian"), 8)
    owner.search(board, 9)
    helper = owner.helper()
    alone = Searcher(Game.of("russian"), 8)
    assert helper.hash_bytes == 0 < owner.hash_bytes
    shared = helper.search(board, 9)
    fresh = alone.search(board, 9)
    # the same score and move; the helper finds most of the tree in the shared table
    assert shared[0] == fresh[0] and shared[1][0] == fresh[1][0]
    assert shared[2] * 4 < fresh[2]


def test_halt_stops_every_search_until_resume():
    board = shashki.Board("english")
    helper = Searcher(Game.of("english"), 1).helper()
    helper.halt()
    _, _, nodes, _, completed = helper.search(board, 12)
    assert not completed and nodes <= 1
    helper.resume()
    assert helper.search(board, 3)[4]


def test_a_helper_searches_its_owners_game():
    with pytest.raises(ValueError, match="game"):
        Searcher(Game.of("english"), share=Searcher(Game.of("international"), 1))


@pytest.mark.parametrize("game", ["russian", "english", "international", "frisian"])
def test_a_timed_search_on_two_threads_plays_a_legal_move(game):
    engine = Engine(game, 8, threads=2)
    assert engine.threads == 2
    board = shashki.Board(game)
    for _ in range(4):
        result = engine.search(board, movetime=0.05)
        assert result.best_move in board.legal_moves and result.nodes > 0
        board.push(result.best_move)
    assert threading.active_count() == 1 or not any(
        t.name.startswith("shashki-helper") for t in threading.enumerate())


def test_a_search_by_depth_or_nodes_is_the_same_on_any_number_of_threads():
    board = shashki.Board("russian")
    one = Engine("russian", 8).search(board, depth=8)
    two = Engine("russian", 8, threads=3).search(board, depth=8)
    assert (one.best_move, one.score, one.nodes) == (two.best_move, two.score, two.nodes)
    one = Engine("russian", 8).search(board, nodes=5000)
    two = Engine("russian", 8, threads=2).search(board, nodes=5000)
    assert (one.best_move, one.nodes) == (two.best_move, two.nodes)


def test_stop_halts_the_helpers_too():
    engine = Engine("russian", 8, threads=2)
    board = shashki.Board("russian")
    timer = threading.Timer(0.2, engine.stop)
    timer.start()
    start = time.perf_counter()
    result = engine.search(board, movetime=30)
    assert time.perf_counter() - start < 5
    assert result.best_move in board.legal_moves
    assert not any(t.name.startswith("shashki-helper") for t in threading.enumerate())


def test_a_ponder_search_on_two_threads_answers_at_ponder_hit():
    from shashki.limits import Limit
    engine = Engine("russian", 8, threads=2)
    board = shashki.Board("russian")
    answer = []
    engine.prepare_ponder()
    thread = threading.Thread(target=lambda: answer.append(engine.search(board, ponder=True)))
    thread.start()
    time.sleep(0.2)
    assert not answer
    engine.ponder_hit(Limit(movetime=0.1))
    thread.join(10)
    assert answer and answer[0].best_move in board.legal_moves


@pytest.mark.parametrize("threads", [0, -1, 257, 10 ** 100, 1.5, "two", None])
def test_a_thread_count_out_of_range_is_refused(threads):
    with pytest.raises(InvalidLimitError, match="threads must be a whole number from 1"):
        Engine("russian", threads=threads)
    assert issubclass(InvalidLimitError, ValueError)


def _hub(lines, **settings):
    import io
    from shashki.hub.server import HubSession
    out = io.StringIO()
    session = HubSession(io.StringIO("\n".join(lines) + "\n"), out, **settings)
    session.run()
    return session, out.getvalue().splitlines()


def test_the_hub_offers_and_takes_threads():
    session, lines = _hub(["hub", "set-param name=threads value=2", "init",
                           "set-param name=threads value=0", "set-param name=threads value=x",
                           "set-param name=threads value=" + "9" * 40, "quit"])
    assert "param name=threads value=1 type=int min=1 max=256" in lines
    assert session.engine is not None and session.engine.threads == 2
    errors = [line for line in lines if line.startswith("error")]
    assert len(errors) == 3 and all("expected a number from 1 to 256" in e for e in errors)
    session, _ = _hub(["init", "quit"], threads=3)
    assert session.engine.threads == 3


def test_an_engine_spec_sets_threads():
    from shashki.apps.players import EnginePlayer, EngineSpec, EngineSpecError
    spec = EngineSpec.parse("movetime=0.05,threads=2")
    assert spec.threads == 2 and str(spec) == "movetime=0.05,threads=2"
    assert EnginePlayer(spec, shashki.get_variant("english")).engine.threads == 2
    for bad in ("threads=0", "threads=two", "threads=1000"):
        with pytest.raises(EngineSpecError, match="threads"):
            EngineSpec.parse(bad)


def test_a_hub_client_sets_the_threads_of_shashki_hub():
    import sys
    from shashki.hub.client import HubEngine
    from shashki.limits import Limit
    engine = HubEngine.popen([sys.executable, "-m", "shashki", "hub", "--hash", "4",
                              "--threads", "2"])
    try:
        assert engine.params["threads"].value == "2" and engine.params["threads"].max == "256"
        engine.configure({"threads": 3})
        board = shashki.Board("russian")
        assert engine.play(board, Limit(movetime=0.05)).move in board.legal_moves
    finally:
        assert engine.quit() == 0
