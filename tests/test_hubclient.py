"""The Hub client (shashki.hub.client) against `python -m shashki hub` in every game, and
against small fake engines that break the protocol in the ways a real one may (silence, an
illegal move, an early exit, a refused position, no answer to stop)."""

import sys
import textwrap
import threading
import time

import pytest

import shashki
import shashki.engine
from shashki.hub import client as hubclient, text as hubtext
from shashki.apps.match import adjudicate
from shashki.engine import Engine
from shashki.hub.text import move_text
from shashki.hub.client import (HubEngine, HubEngineError, HubError, HubMoveError,
                               HubTerminatedError, HubTimeoutError, HubVariantError)
from shashki.limits import Limit

HUB = [sys.executable, "-m", "shashki", "hub", "--hash", "4"]
GAMES = [v.name for v in shashki.VARIANTS]
SCAN_NAMES = {"international": "normal", "antidraughts": "losing", "breakthrough": "bt",
              "frisian": "frisian"}


@pytest.fixture(scope="module")
def hub():
    """One `shashki hub` for the module: the games switch its variant parameter."""
    engine = HubEngine.popen(HUB)
    yield engine
    assert engine.quit() == 0


@pytest.fixture
def started():
    """HubEngine.popen, each engine it starts closed at the end of the test."""
    engines = []

    def popen(command, **kwargs):
        engine = HubEngine.popen(command, **kwargs)
        engines.append(engine)
        return engine

    yield popen
    for engine in engines:
        engine.close()


@pytest.fixture
def fresh(started):
    """A `shashki hub` of the test's own."""
    return lambda **kwargs: started(HUB, **kwargs)


def test_handshake(hub):
    assert hub.name == "shashki" and hub.id["version"] == shashki.__version__
    assert hub.params["variant"].type == "enum"
    assert hub.params["hash"].type == "int" and hub.params["hash"].min == "1"
    # every game, under the name the engine declares for it (Scan's names for Scan's games)
    assert {v.name: name for v, name in hub.games.items()} == \
        {g: SCAN_NAMES.get(g, g) for g in GAMES}
    assert repr(hub).startswith("<HubEngine 'shashki' pid=")


@pytest.mark.parametrize("game", GAMES)
def test_full_games_against_the_built_in_engine(hub, game):
    """`shashki hub` through the client against the in-process engine, to the end of the
    game (the client first in every other game); every move the client returns is a legal
    move of the board, every pv a legal line."""
    board = shashki.Board(game)
    engine = Engine(game, 4)
    client_side = board.turn if GAMES.index(game) % 2 == 0 else board.turn.other
    hub.new_game()
    infos = []
    while adjudicate(board) is None:
        assert len(board.move_stack) < 1000, "the game did not end"
        if board.turn == client_side:
            result = hub.play(board, Limit(depth=3), info=infos.append)
            assert result.move in board.legal_moves
            assert 1 <= result.info.depth <= 3 and result.info.pv[:1] == (result.move,)
            if result.ponder is not None:
                after = board.copy()
                after.push(result.move)
                assert result.ponder in after.legal_moves
            move = result.move
        else:
            move = engine.search(board, depth=3).best_move
        board.push(move)
    assert infos and all(i.nodes and i.score is not None for i in infos)
    for info in infos[:20]:
        assert info.pv and info.time is not None and info.nps is not None


def test_the_engine_follows_the_game(hub):
    # the moves go with the position (for repetitions): the engine sees the game's history
    board = shashki.Board("international")
    for text in ["32-28", "19-23", "28x19"]:
        board.push(text)
    result = hub.play(board, Limit(depth=2))
    assert result.move in board.legal_moves and str(result.move).startswith(("13x", "14x"))
    # a board set up from a FEN is sent as that position
    board = shashki.Board("english", "W:W18,27:B14,15,10,7")
    move = hub.play(board, Limit(depth=2)).move
    assert move_text(move, "english") in {"18x2x7x15", "18x9x14"}


def test_limits(hub):
    board = shashki.Board("russian")
    for limit in [Limit(nodes=2000), Limit(movetime=0.05), Limit(clock=2.0, increment=0.1),
                  Limit(clock=3.0, moves=10), Limit(depth=12, movetime=0.05)]:
        assert hub.play(board, limit).move in board.legal_moves
    result = hub.analyse(board, Limit(depth=4))
    assert result.info.depth == 4 and result.move in board.legal_moves


def test_analysis_until_stopped(hub):
    board = shashki.Board("italian")
    search = hub.analysis(board)
    assert hub.searching is search and not search.done
    deadline = time.monotonic() + 10
    while search.info is None:              # the infos are read as they come
        assert time.monotonic() < deadline, "no info from an infinite search"
        time.sleep(0.01)
    hub.ping()                              # answered during the search
    search.stop()
    result = search.wait()
    assert result.move in board.legal_moves and hub.searching is None
    assert result.infos[-1] == result.info


def test_ponder(hub):
    board = shashki.Board("international")
    result = hub.play(board, Limit(movetime=0.1), ponder=True)
    assert result.ponder is not None
    pondering = hub.searching
    assert pondering is not None and pondering.mode == "ponder"
    # the opponent plays the expected move: ponder-hit, and that search gives the move
    board.push(result.move)
    board.push(result.ponder)
    answer = hub.play(board, Limit(movetime=0.1), ponder=True)
    assert pondering.done and pondering.result == answer and answer.move in board.legal_moves
    # another position: the pondering search is stopped and a new one started
    pondering = hub.searching
    assert pondering is not None and not pondering.done
    board = shashki.Board("international")
    again = hub.play(board, Limit(depth=2))
    assert pondering.done and pondering.result is not again
    assert again.move in board.legal_moves and hub.searching is None


def test_bad_requests(hub):
    board = shashki.Board("russian")
    with pytest.raises(HubError, match="needs a limit"):
        hub.play(board, Limit())
    with pytest.raises(HubError, match="needs a limit"):
        hub.analyse(board, Limit())
    with pytest.raises(HubError, match="must be a shashki.limits.Limit"):
        hub.play(board, 4)
    with pytest.raises(HubError, match="has no parameter 'contempt'"):
        hub.configure({"contempt": 2})
    over = shashki.Board("breakthrough", "B:WK1:B30")
    with pytest.raises(HubError, match="game is over"):
        hub.play(over, Limit(depth=2))
    assert isinstance(HubError("x"), ValueError)
    assert hub.play(board, Limit(depth=1)).move in board.legal_moves     # still working


def test_configure_and_init_again(fresh):
    engine = fresh(variant="pool", options={"hash": 2})
    assert engine.params["hash"].value == "2" and engine.params["variant"].value == "pool"
    board = shashki.Board("pool")
    assert engine.play(board, Limit(depth=2)).move in board.legal_moves
    engine.configure({"hash": 3})           # init again before the next search
    assert engine.play(board, Limit(depth=2)).move in board.legal_moves
    assert engine.quit() == 0
    with pytest.raises(HubError, match="closed"):
        engine.play(board, Limit(depth=2))
    assert engine.close() == 0              # twice is harmless


# --- engines that break the protocol -----------------------------------------------------

FAKE = textwrap.dedent('''
    """A Hub engine for the client's tests, with one way of failing (argv[1])."""
    import sys
    from shashki.hub import text as hubtext

    mode = sys.argv[1]
    variant, board = "international", None

    def say(line):
        print(line, flush=True)

    def first_move():
        return hubtext.move_text(next(iter(board.legal_moves)), board.variant)

    for line in sys.stdin:
        if not line.strip() or mode == "silent":
            continue
        command, args = hubtext.parse_line(line)
        if command == "hub":
            if mode == "garbage":           # endless lines that are not the handshake
                while True:
                    say('"not a hub line')
                    say("chatter " * 50)
            say("id name=fake version=1")
            # Scan's games, one of which (killer) shashki does not play
            say('param name=variant value=normal type=enum values="normal killer bt frisian '
                'losing"')
            say("wait")
        elif command == "set-param" and args.get("name") == "variant":
            variant = args["value"]
        elif command == "init":
            if mode == "init-lines":        # as Scan 3.1 does while it loads its data
                say("init book")
                say("init eval")
            say("ready")
        elif command == "ping":
            say("pong")
        elif command == "pos":
            if mode == "refuse-position":
                say('error message="bad position"')
                continue
            if mode == "refuse-bare":       # an error line without message=
                say("error bad position")
                continue
            board = hubtext.parse_position(args["pos"], hubtext.hub_variant(variant))
            for text in args.get("moves", "").split():
                board.push(hubtext.parse_move(board, text))
        elif command == "go":
            say("info depth=1 score=0.25 nodes=7 pv=" + first_move())
            if mode == "talkative":         # infos for ever, deaf to stop
                while True:
                    say("info depth=1 score=0.25 nodes=7 pv=" + first_move())
            if mode == "exit":
                sys.exit(3)
            elif mode == "illegal":
                say("done move=99-98")
            elif mode == "no-move":
                say("done")
            elif mode not in ("no-done", "done-at-stop"):
                say("done move=" + first_move())
        elif command == "stop" and mode == "done-at-stop":
            say("done move=" + first_move())
        elif command == "quit":
            break
''')


def _script_engine(folder, started, name, text):
    """popen of the Python script `text` (saved in `folder` as `name`) in a mode."""
    script = folder / name
    script.write_text(text)
    return lambda mode, **kwargs: started([sys.executable, str(script), mode], **kwargs)


@pytest.fixture
def fake(tmp_path, started):
    """A fake engine that fails in the way its mode says."""
    return _script_engine(tmp_path, started, "fake_hub.py", FAKE)


def test_scan_like_engine_plays_its_games_only(fake):
    engine = fake("good")
    assert {v.name: name for v, name in engine.games.items()} == SCAN_NAMES
    assert engine.variant.name == "international"           # its declared value
    board = shashki.Board("breakthrough")
    result = engine.play(board, Limit(depth=1))
    assert result.move in board.legal_moves and engine.params["variant"].value == "bt"
    assert result.info.score == shashki.engine.Score(25) and result.info.nodes == 7
    with pytest.raises(HubVariantError, match="fake does not play russian; it plays "
                                              "international, breakthrough, frisian, "
                                              "antidraughts"):
        engine.play(shashki.Board("russian"), Limit(depth=1))


def test_an_engine_that_never_answers(fake):
    with pytest.raises(HubTimeoutError, match="did not answer hub"):
        fake("silent", timeout=0.5)         # and popen closed the process it started


@pytest.mark.parametrize("mode,error,match", [
    ("illegal", HubMoveError, "played '99-98'.*off the board"),
    ("no-move", HubMoveError, "done without a move"),
    ("exit", HubTerminatedError, r"closed its output \(exit status 3\)"),
    ("refuse-position", HubEngineError, "refused the position .*: bad position")])
def test_an_engine_that_fails_a_search(fake, mode, error, match):
    engine = fake(mode)
    with pytest.raises(error, match=match):
        engine.play(shashki.Board("international"), Limit(depth=1))


def test_a_search_that_overruns_is_stopped(fake):
    # the short timeout is set once the engine runs: a Python that starts slowly (1.5 s under
    # qemu-user, issue 44) must not fail the handshake, which is not what is tested here
    engine = fake("done-at-stop")
    engine.timeout = 1.0
    board = shashki.Board("international")
    result = engine.play(board, Limit(movetime=0.05))
    assert result.stopped and result.move in board.legal_moves
    assert engine.searching is None


def test_a_search_that_never_ends_times_out(fake):
    engine = fake("no-done")
    engine.timeout = 0.5
    with pytest.raises(HubTimeoutError, match="did not answer the search"):
        engine.play(shashki.Board("international"), Limit(movetime=0.05))
    assert engine.close() is not None           # killed if need be: no hang


def test_an_error_without_message_keeps_its_text(fake):
    engine = fake("refuse-bare")
    with pytest.raises(HubEngineError, match="refused the position .*: bad position$"):
        engine.play(shashki.Board("international"), Limit(depth=1))
    assert engine.errors == ["bad position"]


def test_lines_before_ready_are_not_warnings(fake, caplog):
    # "it might display some information here, that the GUI should ignore" (Hub protocol 2)
    with caplog.at_level("DEBUG", logger="shashki.hub.client"):
        engine = fake("init-lines")
        assert engine.play(shashki.Board("international"), Limit(depth=1)).move
    assert [r.getMessage() for r in caplog.records if r.levelname == "WARNING"] == []
    assert any("init book" in r.getMessage() for r in caplog.records)


# Scan 2.0's Hub protocol (version 1), as its main.cpp speaks it: `name`, `author` and
# `country` for `id`, no parameters, `set NAME VALUE`, `pos` with a lower-case side to move and
# no moves (each comes as `move X`), the limits as `depth N`, `time MS`, `level MOVES MS MS`
# (reset by `pos`), `go` / `ponder` / `analyse`, positional infos and `move X [PONDER]`; any
# command during a search but ping and ponder-hit stops it, and is echoed as `input "..."`.
SCAN_2 = textwrap.dedent('''
    import sys, threading, queue
    import shashki
    from shashki.hub import text as hubtext

    mode = sys.argv[1]
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put(l) for l in sys.stdin] + [lines.put(None)],
                     daemon=True).start()
    board, limits, sent = shashki.Board("international"), {}, []

    def say(line):
        sent.append(line)
        print(line, flush=True)

    def search(ponder):
        move = next(iter(board.legal_moves))
        text = hubtext.move_text(move, board.variant)
        say(f"info 1 1.0 12 345 0.01 0.3 {text}")
        while ponder or mode == "slow":
            line = lines.get()
            if line is None:
                sys.exit(0)
            say(f'input "{line.strip()}"')
            if line.split()[0] == "ping":
                say("pong")
            elif line.split()[0] != "ponder-hit":
                lines.queue.appendleft(line)        # seen, left for the loop
                break
            else:
                ponder = False
        say(f"move {text}")

    print("Scan 2.0 by Fabien Letouzey", flush=True)
    while True:
        line = lines.get()
        if line is None:
            break
        words = line.split()
        if not words:
            continue
        command, rest = words[0], words[1:]
        if command == "hub":
            say("name Scan 2.0")
            say("author Fabien Letouzey")
            say("country France")
            say("wait")
        elif command == "init":
            say("ready")
        elif command == "ping":
            say("pong")
        elif command == "pos":
            if mode == "refuse" or len(rest) != 1 or len(rest[0]) != 51 or \
                    rest[0][0] not in "wb":
                say("error bad position")
                continue
            board = hubtext.parse_position(rest[0][0].upper() + rest[0][1:], "international")
            limits = {}
        elif command == "move":
            try:
                board.push(hubtext.parse_move(board, rest[0]))
            except ValueError:
                say("error illegal move")
        elif command in ("depth", "time", "level", "set"):
            limits[command] = rest
        elif command in ("go", "analyse", "ponder"):
            say("seen " + repr(sorted(limits.items())))
            search(command == "ponder")
        elif command == "quit":
            break
''')


@pytest.fixture
def scan2(tmp_path, started):
    """An engine of Hub protocol 1, as Scan 2.0 (mode "good", or "refuse" every position)."""
    return _script_engine(tmp_path, started, "scan2.py", SCAN_2)


def test_an_engine_of_hub_protocol_1(scan2, caplog):
    with caplog.at_level("INFO", logger="shashki.hub.client"):
        engine = scan2("good", variant="international", options={"threads": 2})
    assert engine.protocol == 1 and engine.name == "Scan 2.0"
    assert engine.id == {"name": "Scan 2.0", "author": "Fabien Letouzey", "country": "France"}
    assert any("Hub protocol 1" in r.getMessage() for r in caplog.records)
    board = shashki.Board("international")
    for text in ["32-28", "19-23", "28x19", "14x23", "37-32", "10-14"]:
        board.push(text)
    result = engine.play(board, Limit(depth=3))
    assert result.move in board.legal_moves
    assert (result.info.depth, result.info.score, result.info.nodes) == \
        (1, shashki.engine.Score(12), 345)
    assert result.info.pv == (result.move,)
    for limit, seen in [(Limit(depth=3), "[('depth', ['3'])]"),
                        (Limit(movetime=0.25), "[('time', ['250'])]"),
                        (Limit(clock=60.0, increment=1.0, moves=10),
                         "[('level', ['10', '59000', '1000'])]")]:
        caplog.clear()
        with caplog.at_level("DEBUG", logger="shashki.hub.client"):
            assert engine.play(board, limit).move in board.legal_moves
        assert f">> seen {seen}" in [r.getMessage() for r in caplog.records]
    search = engine.analysis(board)             # `analyse` until stopped
    engine.ping()
    search.stop()
    assert search.wait().move in board.legal_moves
    with pytest.raises(HubError, match="protocol 1 has no node limit"):
        engine.play(board, Limit(nodes=1000))
    with pytest.raises(HubVariantError, match="protocol 1"):
        engine.play(shashki.Board("russian"), Limit(depth=1))
    assert engine.quit() == 0


def test_a_position_refused_in_hub_protocol_1(scan2):
    engine = scan2("refuse")
    with pytest.raises(HubEngineError, match="refused the position .*: bad position$"):
        engine.play(shashki.Board("international"), Limit(depth=1))


def _ends_within(seconds, work):
    """What `work()` raised, run in a thread that must end within `seconds` (a hang fails the
    test instead of stopping the suite)."""
    outcome = []

    def run():
        try:
            work()
            outcome.append(None)
        except BaseException as exc:            # noqa: B902  (handed to the test)
            outcome.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still running after {seconds} s"
    return outcome[0]


def test_a_talkative_engine_times_out_with_bounded_memory(fake):
    """An engine that answers go with infos for ever (and ignores stop): HubTimeoutError
    once the search's time and the timeout are over, not a read loop that never ends; the
    lines waiting and the infos kept stay bounded."""
    # the timeouts set once the engine runs, as in the two tests above (a Python that starts
    # slowly must not fail the handshake: 2 s did under qemu-aarch64)
    engine = fake("talkative")
    engine.timeout, engine.search_timeout = 2, 3
    board = shashki.Board("international")
    seen = []
    error = _ends_within(60, lambda: engine.play(board, Limit(movetime=0.2),
                                                 info=lambda i: seen.append(1)))
    assert isinstance(error, HubTimeoutError), error
    assert engine._lines.qsize() <= hubclient.MAX_QUEUED_LINES
    search = engine.searching
    assert search is not None and len(search.infos) <= hubclient.MAX_INFOS < len(seen)


def test_garbage_during_the_handshake_times_out(fake):
    error = _ends_within(60, lambda: fake("garbage", timeout=1))
    assert isinstance(error, HubTimeoutError) and "did not answer hub" in str(error)


def test_module_names():
    # what the module offers is what its docstring and __all__ say
    for name in hubclient.__all__:
        assert hasattr(hubclient, name), name


def test_the_history_sent_starts_at_the_last_capture_or_man_move():
    # as the Hub GUI sends it: the king moves since are enough for repetitions and the
    # draw counts, and `pos` stays short in a long game
    board = shashki.Board("international")
    for text in ["32-28", "19-23", "28x19"]:
        board.push(text)
    assert hubtext.game_text(board) == (hubtext.position_text(board), ())
    board = shashki.Board("russian", "W:Wa1,Kc3:Bh8,Kb8")
    start = hubtext.position_text(board)
    for text in ["c3-d4", "b8-a7", "d4-c3", "a7-b8"]:
        board.push(text)
    assert hubtext.game_text(board) == (start, ("10-14", "29-25", "14-10", "25-29"))
    board.push("a1-b2")                      # a man moves: the history starts again
    assert hubtext.game_text(board) == (hubtext.position_text(board), ())


# --- a hostile engine, at the byte level (issue 30.16) --------------------------------------------

HOSTILE = [sys.executable, str(__import__("pathlib").Path(__file__).with_name("hub_hostile.py"))]


def test_a_byte_that_is_not_utf8_spoils_one_line_not_the_reader(started):
    board = shashki.Board("russian")
    engine = started(HOSTILE + ["bad-byte-info"], variant="russian")
    assert engine.play(board, Limit(depth=1)).move in board.legal_moves
    assert engine.play(board, Limit(depth=1)).move in board.legal_moves   # still reading
    engine = started(HOSTILE + ["bad-byte-id"], variant="russian")
    assert engine.name == "fa\ufffdke"
    assert engine.play(board, Limit(depth=1)).move in board.legal_moves


def test_an_answer_without_its_move_fails_at_once(started):
    engine = started(HOSTILE + ["empty-move"], variant="russian", search_timeout=60)
    start = time.monotonic()
    with pytest.raises(HubMoveError, match="'done move=', which cannot be read"):
        engine.play(shashki.Board("russian"), Limit(depth=3))
    assert time.monotonic() - start < 5 and engine.searching is None


@pytest.mark.parametrize("seed", range(8))
def test_fuzzing_a_hostile_engine(started, seed):
    """Random bytes, broken lines and lost answers around a good engine (seeded): every
    search returns a legal move or raises a HubError, within its time; nothing hangs."""
    board = shashki.Board("russian")
    start = time.monotonic()
    try:
        engine = started(HOSTILE + ["random", str(seed)], variant="russian", timeout=1.0,
                         init_timeout=2.0, search_timeout=1.0)
        for _ in range(6):
            try:
                result = engine.play(board, Limit(depth=1))
            except (HubMoveError, HubTimeoutError):
                continue
            assert result.move in board.legal_moves
    except HubError:
        pass
    assert time.monotonic() - start < 30
