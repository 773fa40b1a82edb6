"""`shashki dxp`: the engine as a DXP follower (issue 33.1): games asked for and played, moves
taken back, ends answered, and every message it cannot read answered with a CHAT, without a
socket (DxpFollower) and over TCP; and, where pydraughts is installed (tox -e hub, CI), full
games driven by pydraughts' DXPEngine, a peer no one here wrote."""

import socket
import threading

import pytest

import shashki
from shashki import BLACK, WHITE
from shashki.dxp import messages as dxp
from shashki.dxp.messages import (BackAccept, BackRequest, Chat, Frames, GameAccept, GameEnd,
                                  GameRequest, MoveMessage)
from shashki.dxp.server import DxpFollower, serve
from shashki.engine import Engine

GAME = dxp.GAME.name


@pytest.fixture(scope="module")
def engine():
    return Engine(GAME, 8, egdb=False)


def follower(engine):
    return DxpFollower(engine, "shashki-test", movetime=0.02)


def test_a_game_asked_for_is_accepted_and_played_by_the_side_shashki_has(engine):
    f = follower(engine)
    replies = f.receive(GameRequest("tester", WHITE, 0, 0))
    assert replies[0] == GameAccept("shashki-test", dxp.ACCEPTED)
    assert len(replies) == 2 and isinstance(replies[1], MoveMessage)     # White moves first
    board = shashki.Board(GAME)
    board.push(dxp.move_of(board.position, replies[1]))
    assert f.board.fen() == board.fen()
    # the opponent's reply, then shashki's move
    reply = sorted(board.legal_moves)[0]
    board.push(reply)
    replies = f.receive(dxp.move_message(reply))
    assert len(replies) == 1 and dxp.move_of(board.position, replies[0]) in board.legal_moves


def test_as_black_it_waits_for_the_first_move(engine):
    f = follower(engine)
    assert f.receive(GameRequest("tester", BLACK, 0, 0)) == [GameAccept("shashki-test", 0)]
    assert len(f.receive(MoveMessage(0, 32, 28))) == 1


def test_a_position_of_its_own_and_the_end_of_the_game(engine):
    # White (shashki) takes the last black piece: the game ends, and shashki says it won
    position = shashki.Position(GAME, "W:W28:B23")
    replies = follower(engine).receive(GameRequest("tester", WHITE, 0, 0, position))
    assert replies[1] == MoveMessage(replies[1].seconds, 28, 19, (23,))
    assert replies[2] == GameEnd(dxp.I_WIN)


def test_moves_it_cannot_take_are_answered_and_the_game_goes_on(engine):
    f = follower(engine)
    f.receive(GameRequest("tester", BLACK, 0, 0))
    (chat,) = f.receive(MoveMessage(0, 32, 26))
    assert isinstance(chat, Chat) and chat.message.startswith("illegal: no legal move goes from "
                                                             "32 to 26")
    (chat,) = f.receive_text("M0000XX2600")
    assert chat.message.startswith("not understood: the origin must be 2 digits")
    assert len(f.receive(MoveMessage(0, 32, 28))) == 1       # the game went on


def test_moves_taken_back(engine):
    f = follower(engine)
    f.receive(GameRequest("tester", BLACK, 0, 0))
    f.receive(MoveMessage(0, 32, 28))
    f.receive(dxp.move_message(sorted(f.board.legal_moves)[0]))
    assert len(f.board.move_stack) == 4
    replies = f.receive(BackRequest(1, WHITE))      # back to White's first move
    assert replies == [BackAccept(dxp.BACK_ACCEPTED)] and not f.board.move_stack
    assert f.receive(BackRequest(40, WHITE)) == [BackAccept(dxp.BACK_REFUSED)]


def test_an_end_asked_for_is_answered_from_shashkis_side(engine):
    f = follower(engine)
    f.receive(GameRequest("tester", BLACK, 0, 0))
    assert f.receive(GameEnd(dxp.I_LOSE, True)) == [GameEnd(dxp.I_WIN, True)]
    assert f.board is None and f.stop
    assert f.receive(MoveMessage(0, 32, 28))[0].message.startswith("a MOVE outside a game")


def test_over_tcp(engine):
    server = serve("127.0.0.1", 0, name="shashki-tcp", movetime=0.02, engine=engine)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with socket.create_connection(server.server_address[:2], timeout=30) as sock:
            frames = Frames()

            def ask(message, count):
                sock.sendall(message if isinstance(message, bytes) else Frames.encode(message))
                got = []
                while len(got) < count:
                    got += [dxp.parse(t) for t in frames.feed(sock.recv(4096))]
                return got
            accept, move = ask(GameRequest("tcp", WHITE, 0, 0), 2)
            assert accept.name == "shashki-tcp" and isinstance(move, MoveMessage)
            (chat,) = ask(b"Xnonsense\0", 1)
            assert chat.message.startswith("not understood: a DXP message starts with")
            (chat,) = ask(b"C" + b"x" * 300 + b"\0", 1)
            assert "over 127 bytes" in chat.message or "at most 127" in chat.message
            assert ask(GameEnd(dxp.UNKNOWN, True), 1) == [GameEnd(dxp.UNKNOWN, True)]
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.subprocess
def test_pydraughts_dxp_engine_plays_full_games_against_it():
    # pydraughts 0.6.7 reads a message as whatever one recv() holds up to a NUL, NULs removed:
    # two messages that arrive together become one.  So `shashki dxp` sends its GAMEACC before
    # it thinks of its first move (DxpFollower.respond), each message in a packet of its own,
    # and runs as a process of its own here (in this process a search would hold the peer's
    # receiving thread back until both messages had arrived).  The games run in a thread with
    # a deadline: a lost message fails the test instead of hanging the run.
    draughts = pytest.importorskip("draughts")
    if not hasattr(draughts, "Board"):
        pytest.skip("the draughts module here is not pydraughts")
    import subprocess
    import sys
    process = subprocess.Popen([sys.executable, "-m", "shashki", "dxp", "--port", "0",
                                "--movetime", "0.1"], stdout=subprocess.PIPE, text=True)
    try:
        port = int(process.stdout.readline().rsplit(":", 1)[1])
        failures = []
        thread = threading.Thread(target=lambda: _pydraughts_games(port, failures),
                                  daemon=True)
        thread.start()
        thread.join(timeout=300)
        assert not thread.is_alive(), "pydraughts' DXPEngine waited for a message past 300 s"
        assert failures == ["done"], failures
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_the_acceptance_is_given_before_the_engine_thinks(engine):
    # (before: GAMEACC and the first move were sent together, after the search)
    f = follower(engine)
    replies = f.respond(GameRequest("tester", WHITE, 0, 0))
    assert next(replies) == GameAccept("shashki-test", dxp.ACCEPTED)
    assert not f.board.move_stack                  # no search yet
    assert isinstance(next(replies), MoveMessage) and len(f.board.move_stack) == 1
    assert next(replies, None) is None


def _pydraughts_games(port, failures):
    try:
        _play_pydraughts(port)
        failures.append("done")
    except BaseException as error:         # (reported by the test's thread)
        failures.append(repr(error))


def _play_pydraughts(port):
    import draughts
    from draughts.engine import DXPEngine
    for game in range(2):
        peer = DXPEngine(None, {"engine-opened": True, "ip": "127.0.0.1", "port": port})
        board = draughts.Board(variant="standard")
        ours = shashki.Board(GAME)

        def theirs_of(move):
            # pydraughts' move of ours, found as its own receiver finds a MOVE's
            m = dxp.move_message(move)
            key = f"{m.origin:02d}{m.destination:02d}" + "".join(
                f"{c:02d}" for c in sorted(m.captured))
            (found,) = [p for p in board.legal_moves() if p.hub_position_move == key]
            return found

        def ours_of(move):
            message = MoveMessage(0, move.steps_move[0], move.steps_move[-1],
                                  tuple(move.captures))
            return dxp.move_of(ours.position, message)

        if game:                    # the second game: the peer moves first
            move = board.legal_moves()[0]
            ours.push(ours_of(move))
            board.push(move)
        plies = 0
        while not ours.is_game_over(claim_draw=True) and plies < 400:
            result = peer.play(board)
            assert result.move is not None
            ours.push(ours_of(result.move))
            board.push(result.move)
            plies += 1
            if ours.is_game_over(claim_draw=True):
                break
            move = sorted(ours.legal_moves, key=str)[0]
            board.push(theirs_of(move))
            ours.push(move)
            plies += 1
        # played to its end, every move of the engine's legal here and there
        assert ours.is_game_over(claim_draw=True), ours.fen()
        assert board.fen == ours.position.fen() or board.is_over()
        peer.quit()


@pytest.mark.subprocess
def test_the_command_serves_and_says_where():
    import subprocess
    import sys
    process = subprocess.Popen([sys.executable, "-m", "shashki", "dxp", "--port", "0",
                                "--movetime", "0.02"], stdout=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        assert " DXP on 127.0.0.1:" in line
        port = int(line.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
            sock.sendall(Frames.encode(GameRequest("cli", BLACK, 0, 0)))
            frames, got = Frames(), []
            while not got:
                got = frames.feed(sock.recv(4096))
            assert dxp.parse(got[0]) == GameAccept("shashki", dxp.ACCEPTED)
    finally:
        process.terminate()
        process.wait(timeout=30)


@pytest.mark.parametrize("args,words", [(["--port", "70000"], "--port must be a whole number"),
                                        (["--movetime", "0"], "--movetime must be a number")])
def test_bad_arguments_say_what_was_expected(args, words, capsys):
    from shashki.apps.cli import main
    with pytest.raises(SystemExit) as exc:
        main(["dxp", *args])
    assert exc.value.code == 2 and words in capsys.readouterr().err


# --- shashki's own client against its server ----------------------------------------------------

@pytest.fixture
def server(engine):
    server = serve("127.0.0.1", 0, name="shashki-server", movetime=0.02, engine=engine)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


def test_the_client_plays_full_games_against_the_server(server):
    from shashki.dxp.client import DxpEngine
    for first in (True, False):          # the client's engine plays White, then Black
        board = shashki.Board(GAME)
        if not first:
            board.push(sorted(board.legal_moves)[0])
        client = DxpEngine.connect("127.0.0.1", server.server_address[1], timeout=60)
        result = None
        while not board.is_game_over(claim_draw=True) and len(board.move_stack) < 400:
            result = client.play(board)
            assert result.move in board.legal_moves
            board.push(result.move)
            if result.ended is not None or board.is_game_over(claim_draw=True):
                break
            board.push(sorted(board.legal_moves)[0])
        assert client.engine_name == "shashki-server"
        assert board.is_game_over(claim_draw=True)
        client.quit()


def test_the_client_refuses_a_board_that_is_not_its_game(server):
    from shashki.dxp.client import DxpEngine
    client = DxpEngine.connect("127.0.0.1", server.server_address[1], timeout=60)
    try:
        board = shashki.Board(GAME)
        board.push(client.play(board).move)
        with pytest.raises(dxp.DxpError, match="not the game the engine is playing"):
            client.play(shashki.Board(GAME, fen="W:W31-40:B11-20"))
    finally:
        client.quit()


def test_a_match_against_a_dxp_engine(server):
    from shashki.apps.match import match
    port = server.server_address[1]
    result = match(f"dxp:127.0.0.1:{port}", "depth=1", variant=GAME, games=2, max_moves=30)
    assert len(result.games) == 2 and result.a == f"dxp:127.0.0.1:{port}"
    assert all(record.moves for record in result.games)


@pytest.mark.parametrize("spec,words", [("dxp:localhost", "is not dxp:HOST:PORT"),
                                        ("dxp::27531", "is not dxp:HOST:PORT"),
                                        ("dxp:host:99999", "is not dxp:HOST:PORT")])
def test_a_bad_dxp_spec_says_what_was_expected(spec, words):
    from shashki.apps.match import match
    from shashki.apps.players import EngineSpecError
    with pytest.raises(EngineSpecError, match=words):
        match(spec, "depth=1", variant=GAME, games=2)


def test_dxp_plays_10x10_only(server):
    from shashki.apps.match import match
    from shashki.apps.players import EngineSpecError
    with pytest.raises(EngineSpecError, match="DXP plays international .10x10. only, not "
                                              "russian"):
        match(f"dxp:127.0.0.1:{server.server_address[1]}", "depth=1", variant="russian",
              games=2)


def test_shashki_match_plays_shashki_dxp(server):
    import io
    from shashki.apps.cli import main
    out = io.StringIO()
    port = server.server_address[1]
    assert main(["match", f"dxp:127.0.0.1:{port}", "depth=1", "--variant", GAME,
                 "--games", "2", "--max-moves", "20"], out) == 0
    assert f"dxp:127.0.0.1:{port}" in out.getvalue() and "depth=1" in out.getvalue()


def test_configure_sets_what_the_game_request_carries():
    # (before: DxpEngine had no configure, as python-chess's engines and HubEngine have)
    from shashki.dxp.client import DxpEngine
    ours, theirs = socket.socketpair()
    with ours, theirs:
        client = DxpEngine(ours, timeout=10)
        assert client.options == {"name": "shashki", "minutes": 0, "moves": 0, "timeout": 10}
        client.configure({"name": "tester", "minutes": 5, "moves": 75})
        theirs.sendall(Frames.encode(GameAccept("peer", dxp.ACCEPTED)))
        theirs.sendall(Frames.encode(MoveMessage(0, 18, 23)))
        board = shashki.Board(GAME)
        board.push(board.parse_move("33-29"))
        assert str(client.play(board).move) == "18-23"
        request = dxp.parse(Frames().feed(theirs.recv(4096))[0])
        assert (request.name, request.minutes, request.moves) == ("tester", 5, 75)


@pytest.mark.parametrize("options,words", [
    ({"hash": 64}, "no option 'hash'; it has name, minutes, moves, timeout"),
    ({"minutes": 1000}, "minutes must be a whole number from 0 to 999"),
    ({"moves": -1}, "moves must be a whole number from 0 to 999"),
    ({"moves": True}, "moves must be a whole number"),
    ({"timeout": 0}, "timeout must be a number of seconds above 0"),
    ({"timeout": float("nan")}, "timeout must be a number of seconds above 0"),
    ({"name": "Шашки"}, "name must be ASCII text"),
    ({"minutes": 5, "moves": "75"}, "moves must be a whole number")])
def test_configure_refuses_what_it_cannot_send_and_changes_nothing(options, words):
    from shashki.dxp.client import DxpEngine
    ours, theirs = socket.socketpair()
    with ours, theirs:
        client = DxpEngine(ours)
        before = client.options
        with pytest.raises(dxp.DxpError, match=words):
            client.configure(options)
        assert client.options == before
