"""`shashki hub`: the Hub protocol, driven as a GUI would drive it.

The 8x8 position strings and move numbers below were read off pydraughts 0.6.7 (its
`Board(variant, fen)._game.initial_hub_fen` and `Move.hub_move`), the Hub client the protocol
has to satisfy; they are facts about that client, not outputs of shashki.apps.hub.
"""

import io
import queue
import re
import stat
import subprocess
import sys
import threading
import time

import pytest

import shashki
from shashki.apps import hub

VARIANTS = ["russian", "giveaway", "brazilian", "italian", "english"]

START = "W" + "b" * 12 + "e" * 8 + "w" * 12   # pydraughts sends this for every 8x8 game

# the first moves of each game in pydraughts' numbering
FIRST_MOVES = {
    "russian": {"9-13", "10-13", "10-14", "11-14", "11-15", "12-15", "12-16"},
    "brazilian": {"9-13", "10-13", "10-14", "11-14", "11-15", "12-15", "12-16"},
    "giveaway": {"9-13", "10-13", "10-14", "11-14", "11-15", "12-15", "12-16"},
    "italian": {"21-17", "21-18", "22-18", "22-19", "23-19", "23-20", "24-20"},
    "english": {"9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"},
}
# after the first move above, the second player's replies, for a `moves=` test
REPLIES = {
    "russian": ("9-13", {"21-17", "21-18", "22-18", "22-19", "23-19", "23-20", "24-20"}),
    "brazilian": ("9-13", {"21-17", "21-18", "22-18", "22-19", "23-19", "23-20", "24-20"}),
    "giveaway": ("9-13", {"21-17", "21-18", "22-18", "22-19", "23-19", "23-20", "24-20"}),
    "italian": ("21-17", {"9-13", "10-13", "10-14", "11-14", "11-15", "12-15", "12-16"}),
    "english": ("12-16", {"24-20", "24-19", "23-19", "23-18", "22-18", "22-17", "21-17"}),
}

# (game, PDN FEN, pydraughts' Hub position, pydraughts' legal moves with captures sorted)
PYDRAUGHTS_POSITIONS = [
    ("russian", "W:Wa1,Kc3:Bh8,b6", "WeeebeeeebeeeeeeeeeeeeWeeeeeeweee",
     {"10-13", "10-17", "10-14", "10-19", "10-23", "10-28", "10-5", "10-6", "10-3", "1-5"}),
    ("russian", "W:Wc3,e3,Kh2:Bb6,d6,d4,f4,f6", "WeeeeeeeebbbeeeeeebbeewweeeeWeeee",
     {"10x12x14x15", "10x17x14x21x22", "10x28x14x23", "11x11x14x15x22x23", "11x25x14x21",
      "11x25x15x21x22x23", "8x17x15x21x22", "8x28x15x23", "8x32x15x23"}),
    ("russian", "W:WKa1:Bc3,e5,e3,c5", "WeeeeeeeeeeeeebbeeeeeebbeeeeeWeee",
     {"1x21x10x18", "1x23x10x19", "1x25x10x18", "1x28x10x19", "1x32x10x19", "1x4x10x11",
      "1x7x10x11"}),
    ("brazilian", "W:Wc3:Bb4,d4,b6,d6,f6", "Weeeeeeeebbbeeeeebbeeeweeeeeeeeee",
     {"10x10x13x14x21x22", "10x28x13x21x22x23"}),
    ("brazilian", "B:Wa3,c3,e3,Kg1:Bb4,Kh8", "BeeeBeeeeeeeeeeeebeeewwweeeeeeeeW", {"13x15x10x11"}),
    ("italian", "W:W29,K22:B4,K9", "WeeebeeeeBeeeeeeeeeeeeWeeeeeeweee",
     {"22-18", "22-19", "22-26", "22-27", "29-25", "29-26"}),
    ("italian", "W:W22,K18:B14,15,10,7", "WeeeeeebeebeeebbeeWeeeweeeeeeeeee",
     {"18x20x14x15", "18x4x7x14"}),
    ("english", "B:W29,K22:B4,K9", "WeeebeeeeeeBeeeeeeeeeeeeWeeeeweee",
     {"9-14", "9-13", "9-6", "9-5", "4-8"}),
    ("english", "B:W18,19,26,K27:B14,15,K10", "WeeeeeBbeeeeeebbeewweeeWeeeeeeeee",
     {"14x30x18x26", "14x32x18x27", "15x31x18x26", "15x31x19x27"}),
    ("english", "W:W18,27:B14,15,10,7", "Beeeeebeeeeeeeebeewweeeweeweeeeee",
     {"18x2x7x15", "18x9x14"}),
]


def sorted_captures(text):
    parts = re.split(r"[-x]", text)
    sep = "x" if "x" in text else "-"
    return sep.join(parts[:2] + sorted(parts[2:], key=int))


# --- the notation, against pydraughts' facts ----------------------------------------------

@pytest.mark.parametrize("variant,fen,hub_pos,moves", PYDRAUGHTS_POSITIONS)
def test_position_and_moves_match_pydraughts(variant, fen, hub_pos, moves):
    board = shashki.Board(variant, fen=fen)
    assert hub.position_text(board) == hub_pos
    assert hub.parse_position(hub_pos, variant).fen() == board.fen()
    assert {sorted_captures(hub.move_text(m, variant)) for m in board.legal_moves} == moves
    for text in moves:      # and each of pydraughts' texts names a move of ours
        assert sorted_captures(hub.move_text(hub.parse_move(board, text), variant)) == text


@pytest.mark.parametrize("variant", VARIANTS)
def test_start_position_string(variant):
    board = hub.parse_position(START, variant)
    assert board.fen() == shashki.Board(variant).fen()
    assert {hub.move_text(m, variant) for m in board.legal_moves} == FIRST_MOVES[variant]


def test_captures_in_any_order_and_short_form():
    board = shashki.Board("russian", fen="W:WKa1:Bc3,e5,e3,c5")
    move = hub.parse_move(board, "1x4x11x10")       # captured squares in another order
    assert str(move) == "a1:g1"            # 4 = g1 in pydraughts' russian numbers
    with pytest.raises(hub.HubProtocolError, match="ambiguous"):
        hub.parse_move(shashki.Board("russian", fen="W:Wc3,e3,Kh2:Bb6,d6,d4,f4,f6"), "11x25")
    for bad, why in [("9-14", "illegal"), ("9-33", "off the board"), ("a3-b4", "cannot read"),
                     ("1x4x10x10", "twice"), ("", "cannot read")]:
        with pytest.raises(hub.HubProtocolError, match=why):
            hub.parse_move(shashki.Board("russian"), bad)


def test_line_syntax():
    assert hub.parse_line('pos pos=Weee moves="9-13 22-18"') == \
        ("pos", {"pos": "Weee", "moves": "9-13 22-18"})
    assert hub.parse_line("  go   think ") == ("go", {"think": ""})
    assert hub.parse_line('set-param name = hash value = "64"') == \
        ("set-param", {"name": "hash", "value": "64"})
    for bad in ['pos moves="9-13', "=x", "level depth="]:
        with pytest.raises(hub.HubProtocolError):
            hub.parse_line(bad)
    assert hub.format_line("info", ("depth", 3), ("pv", "9-13 22-18"), ("x", "")) == \
        'info depth=3 pv="9-13 22-18" x=""'


def test_win_scores_read_as_pydraughts_reads_them():
    from shashki.engine import Score, _WIN
    # pydraughts: mate = 10000 - int(score * 100) plies; win = ceil(mate / 2) moves
    for plies in range(1, 12):
        value = _WIN - plies if plies % 2 else -(_WIN - plies)
        text = hub.score_text(Score(value))
        hundredths = int(float(text) * 100)
        mate = 10000 - hundredths if hundredths > 0 else -10000 - hundredths
        assert abs(mate) == plies
    assert hub.score_text(Score(35)) == "0.35"


# --- the protocol over a pipe -------------------------------------------------------------

class HubProcess:
    """`python -m shashki hub` with a reader thread, so no test can hang on a read."""

    def __init__(self, *args):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "shashki", "hub", *args], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, *lines):
        for line in lines:
            self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read(self, timeout=10.0):
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no answer from the engine in {timeout} s") from None
        assert line is not None, "the engine closed its output: " + self.proc.stderr.read()
        return line

    def until(self, command, timeout=10.0):
        """All lines up to and including the first starting with `command`."""
        seen = []
        deadline = time.monotonic() + timeout
        while True:
            line = self.read(max(0.01, deadline - time.monotonic()))
            seen.append(line)
            if line.split(" ", 1)[0] == command:
                return seen

    def quiet(self, seconds):
        """Lines written in the next `seconds` (expected: none)."""
        out = []
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                break
            out.append(line)
        return out

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(5)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except OSError:
                pass


@pytest.fixture
def engine():
    process = HubProcess("--hash", "4")
    yield process
    process.close()


def start(engine, variant):
    engine.send("hub")
    lines = engine.until("wait")
    id_line = hub.parse_line(lines[0])
    assert id_line[0] == "id" and id_line[1]["name"] == "shashki"
    assert id_line[1]["version"] == shashki.__version__
    params = {args["name"]: args for cmd, args in map(hub.parse_line, lines[1:-1])}
    assert set(params["variant"]["values"].split()) == {v.name for v in shashki.VARIANTS}
    assert params["hash"]["type"] == "int"
    engine.send(f"set-param name=variant value={variant}", "set-param name=hash value=4",
                "init")
    assert engine.until("ready") == ["ready"]


def check_info(line, board, variant):
    command, args = hub.parse_line(line)
    assert command == "info"
    assert int(args["depth"]) >= 1 and int(args["nodes"]) >= 1
    float(args["score"]), float(args["time"]), float(args["nps"])
    replay = board.copy()
    for text in args["pv"].split():       # the pv is a line of legal moves
        replay.push(hub.parse_move(replay, text))
    assert args["pv"]


def done_move(line):
    command, args = hub.parse_line(line)
    assert command == "done", line
    return args


@pytest.mark.parametrize("variant", VARIANTS)
def test_think(engine, variant):
    start(engine, variant)
    engine.send(f"pos pos={START}", "level depth=5", "go think")
    lines = engine.until("done")
    board = hub.parse_position(START, variant)
    infos = lines[:-1]
    assert [int(hub.parse_line(i)[1]["depth"]) for i in infos] == [1, 2, 3, 4, 5]
    for line in infos:
        check_info(line, board, variant)
    args = done_move(lines[-1])
    assert args["move"] in FIRST_MOVES[variant]
    if "ponder" in args:
        board.push(hub.parse_move(board, args["move"]))
        hub.parse_move(board, args["ponder"])
    # moves= continues from the position; the answer is the other side's
    first, replies = REPLIES[variant]
    engine.send("new-game", f'pos pos={START} moves="{first}"', "level move-time=0.2",
                "go think")
    assert done_move(engine.until("done")[-1])["move"] in replies
    engine.send("quit")
    assert engine.proc.wait(10) == 0


@pytest.mark.parametrize("variant", VARIANTS)
def test_stop_ends_an_infinite_search(engine, variant):
    start(engine, variant)
    engine.send(f"pos pos={START}", "level infinite", "go think")
    first = engine.read()
    assert first.startswith("info ")
    engine.send("ping")               # answered during the search, which goes on
    assert not any(line.startswith("done") for line in engine.until("pong"))
    assert not any(line.startswith("done") for line in engine.quiet(0.3))
    engine.send("stop")
    lines = engine.until("done", timeout=5)
    assert done_move(lines[-1])["move"] in FIRST_MOVES[variant]
    engine.send("stop", "ping")       # stop with no search is ignored
    assert engine.until("pong") == ["pong"]


def test_no_level_means_until_stop(engine):
    start(engine, "russian")
    engine.send("pos start", "go think")
    assert not any(line.startswith("done") for line in engine.quiet(0.5))
    engine.send("stop")
    assert done_move(engine.until("done", timeout=5)[-1])["move"] in FIRST_MOVES["russian"]


def test_ponder_then_ponder_hit(engine):
    start(engine, "russian")
    engine.send(f"pos pos={START}", "level move-time=0.3", "go ponder")
    # while pondering the move's time does not run
    assert not any(line.startswith("done") for line in engine.quiet(0.8))
    engine.send("ponder-hit")
    began = time.monotonic()
    assert done_move(engine.until("done", timeout=5)[-1])["move"] in FIRST_MOVES["russian"]
    assert time.monotonic() - began < 3
    engine.send("ponder-hit", "ping")     # a late ponder-hit is harmless
    assert engine.until("pong") == ["pong"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_bad_input_is_answered_and_the_engine_goes_on(engine, variant):
    start(engine, variant)
    bad = ["frobnicate", 'pos pos="Wbb', "pos pos=Wbbb", "pos pos=X" + "e" * 32,
           "pos pos=W" + "x" * 32, "pos pos=W" + "w" * 13 + "e" * 19,
           f'pos pos={START} moves="9-99"', f'pos pos={START} moves="1-5"',
           "level depth=zero", "level depth=0", "level move-time=-1", "level inc=2",
           "set-param name=variant value=chess", "set-param name=hash value=huge",
           "set-param name=colour value=red", "set-param value=3", "=3"]
    for line in bad:
        engine.send(line)
        answer = engine.read()
        command, args = hub.parse_line(answer)
        assert command == "error" and args["message"], (line, answer)
    # a go after a rejected pos says why and still ends with done
    engine.send("go think")
    lines = engine.until("done")
    assert lines[0].startswith("error ") and lines[-1] == "done"
    engine.send(f"pos pos={START}", "level depth=3", "go think")
    assert done_move(engine.until("done")[-1])["move"] in FIRST_MOVES[variant]


@pytest.mark.parametrize("args", [
    {"nodes": "1" + "0" * 26}, {"depth": "9" * 30}, {"move-time": "nan"},
    {"move-time": "1e300"}, {"move-time": "-1"}, {"time": "inf"}, {"time": "nan"},
    {"time": "1", "inc": "nan"}, {"time": "5", "moves": "-1"}, {"depth": "2.5"}])
def test_a_level_out_of_range_is_refused(args):
    # issue 12.8: nodes=10**26 was accepted, then `go` answered "internal error OverflowError"
    with pytest.raises(hub.HubProtocolError, match="must be|expected|go with"):
        hub.parse_level(args)


def test_level_limits():
    assert hub.parse_level({"time": "-3"}).budget() > 0       # out of time, still a move
    assert hub.parse_level({"move-time": "0"}).budget() > 0
    # the protocol adds the increment before the move: 10 + 1 s on the clock
    assert hub.parse_level({"time": "10", "inc": "1"}).budget() == \
        pytest.approx(11 / 40 + 0.8)
    assert hub.parse_level({"time": "10", "moves": "5"}).budget() == pytest.approx(2.0)


def test_huge_node_level_then_go_is_an_error_not_a_crash():
    out = io.StringIO()
    session = hub.HubSession(io.StringIO(""), out, "russian", hash_mb=1)
    for line in [f"pos pos={START}", "level nodes=" + "1" + "0" * 26, "level nodes=2000",
                 "go think"]:
        session.handle(line)
    session.search.thread.join(30)
    text = out.getvalue()
    assert "internal error" not in text
    assert "nodes must be a whole number from 1 to" in text and "done move=" in text


def test_garbage_during_a_search_does_not_stop_it(engine):
    start(engine, "italian")
    engine.send(f"pos pos={START}", "level infinite", "go think", "frobnicate")
    lines = engine.until("error")
    assert not any(line.startswith("done") for line in lines)
    assert not any(line.startswith("done") for line in engine.quiet(0.3))
    engine.send("stop")
    assert done_move(engine.until("done", timeout=5)[-1])["move"] in FIRST_MOVES["italian"]


def test_game_over_position(engine):
    start(engine, "russian")
    engine.send("pos pos=W" + "e" * 9 + "b" + "e" * 22, "go think")   # White has nothing
    lines = engine.until("done")
    assert lines[0].startswith("error ") and lines[-1] == "done"


def test_fen_extension_and_time_control(engine):
    start(engine, "english")
    engine.send("pos pos=B:W18,19,26,K27:B14,15,K10", "level time=5 inc=0.1", "go think")
    args = done_move(engine.until("done")[-1])
    assert sorted_captures(args["move"]) in {"14x30x18x26", "14x32x18x27", "15x31x18x26",
                                             "15x31x19x27"}
    # the position stays for another search, with an x/y time control this time
    engine.send("level moves=10 time=0.5", "go think")
    began = time.monotonic()
    args = done_move(engine.until("done")[-1])
    assert sorted_captures(args["move"]) in {"14x30x18x26", "14x32x18x27", "15x31x18x26",
                                             "15x31x19x27"}
    assert time.monotonic() - began < 2


def test_end_of_input_exits(engine):
    start(engine, "russian")
    engine.send("pos start", "level infinite", "go think")
    engine.read()
    engine.proc.stdin.close()
    assert engine.proc.wait(10) == 0


# --- pydraughts' HubEngine plays whole games ----------------------------------------------

def pydraughts():
    """pydraughts' modules, or skip (py-draughts also installs as `draughts`)."""
    draughts = pytest.importorskip("draughts")
    engine = pytest.importorskip("draughts.engine")
    if not (hasattr(engine, "HubEngine") and hasattr(engine, "Limit")
            and hasattr(draughts, "Board")):
        pytest.skip("the installed `draughts` is not pydraughts")
    return draughts, engine


@pytest.mark.parametrize("variant", ["russian", "brazilian", "italian", "english"])
def test_pydraughts_plays_a_full_game(variant, tmp_path, caplog):
    draughts, engines = pydraughts()
    # HubEngine resolves symlinks in the command, which would lose a virtualenv's python
    script = tmp_path / "shashki-hub"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m shashki hub --hash 4 "$@"\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    caplog.set_level("WARNING", logger="pydraughts")
    players = [engines.HubEngine([str(script)]) for _ in range(2)]
    watchdog = threading.Timer(600, lambda: [p.kill_process() for p in players])
    watchdog.start()
    try:
        for player in players:
            assert variant in player.variants
            player.setoption("variant", variant)
            player.init()
        board = draughts.Board(variant)
        mirror = shashki.Board(variant)     # the same game on shashki's board
        limits = [engines.Limit(depth=6), engines.Limit(movetime=0.02)]
        moves = []
        while not board.is_over():
            assert len(moves) < 600, "the game did not end"
            side = len(moves) % 2
            played = players[side].play(board, limits[side], ponder=False)
            assert played.move.hub_move   # a legal move of pydraughts' board
            board.push(played.move)
            mirror.push(hub.parse_move(mirror, played.move.hub_move))
            assert hub.position_text(mirror) == board._game.get_fen()
            moves.append(played.move.hub_move)
        for player in players:
            player.quit()
            assert player.p.wait(10) == 0
    finally:
        watchdog.cancel()
        for player in players:
            if player.p.poll() is None:
                player.kill_process()
    assert not [r for r in caplog.records if r.name == "pydraughts"], caplog.text
    winner = {0: "draw", 1: "black", 2: "white"}[board.winner()]
    print(f"\n{variant}: {len(moves)} plies, result {winner}: {' '.join(moves)}")


def test_numbers_of_any_length_in_hub_moves_and_params():
    # int() of more than 4,300 digits raised Python's own ValueError (issue 12.6)
    board = shashki.Board("english")
    assert hub.parse_move(board, "0" * 5000 + "9-13") == board.parse_move("9-13")
    with pytest.raises(hub.HubProtocolError, match="off the board"):
        hub.parse_move(board, "9-" + "1" * 5000)
