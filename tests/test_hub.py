"""`shashki hub`: the Hub protocol, driven as a GUI would drive it.

The position strings and move numbers below were read off pydraughts 0.6.7 (its
`Board(variant, fen)._game.initial_hub_fen` and `Move.hub_move`), the Hub client the protocol
has to satisfy, and off Scan's protocol.txt for 10x10 (which pydraughts follows); they are facts
about those programs, not outputs of shashki.hub.server.  pool, spanish, czech and thai, which
neither plays, follow the same rules from their records.
"""

import io
import queue
import re
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import shashki
from shashki.hub import text as hubtext
from shashki.hub import server, text as hub
from shashki.limits import Limit

VARIANTS = [v.name for v in shashki.VARIANTS]

EIGHT = "W" + "b" * 12 + "e" * 8 + "w" * 12   # pydraughts sends this for every 8x8 game
TEN = "W" + "b" * 20 + "e" * 10 + "w" * 20    # Scan's and pydraughts' 10x10 start
# the start position string of each game: pydraughts' for its games, the same style (the
# first player's men at the end) for pool, spanish, czech and thai, Scan's for 10x10
START = {name: EIGHT for name in VARIANTS}
START.update(international=TEN, antidraughts=TEN, breakthrough=TEN, frisian=TEN,
             frysk="W" + "b" * 5 + "e" * 40 + "w" * 5,
             thai="W" + "b" * 8 + "e" * 16 + "w" * 8,
             turkish="W" + "e" * 8 + "b" * 16 + "e" * 16 + "w" * 16 + "e" * 8)

_RUSSIAN_FIRST = {"9-13", "10-13", "10-14", "11-14", "11-15", "12-15", "12-16"}
_ITALIAN_FIRST = {"21-17", "21-18", "22-18", "22-19", "23-19", "23-20", "24-20"}
_ENGLISH_FIRST = {"9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"}
_TEN_FIRST = {"31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"}
# the first moves of each game in pydraughts' (8x8) and Scan's (10x10) numbering
FIRST_MOVES = {
    "russian": _RUSSIAN_FIRST, "brazilian": _RUSSIAN_FIRST, "giveaway": _RUSSIAN_FIRST,
    "czech": _RUSSIAN_FIRST, "italian": _ITALIAN_FIRST, "spanish": _ITALIAN_FIRST,
    "english": _ENGLISH_FIRST, "pool": _ENGLISH_FIRST,
    "thai": {"5-9", "5-10", "6-10", "6-11", "7-11", "7-12", "8-12"},
    "international": _TEN_FIRST, "antidraughts": _TEN_FIRST, "breakthrough": _TEN_FIRST,
    "frisian": _TEN_FIRST,
    "frysk": {"46-41", "47-41", "47-42", "48-42", "48-43", "49-43", "49-44", "50-44", "50-45"},
    # every square numbered, 1 = a1: the men of the third rank step forward
    "turkish": {f"{n}-{n + 8}" for n in range(17, 25)},
}
_RUSSIAN_REPLIES = ("9-13", _ITALIAN_FIRST)
_ITALIAN_REPLIES = ("21-17", _RUSSIAN_FIRST)
_ENGLISH_REPLIES = ("12-16", {"24-20", "24-19", "23-19", "23-18", "22-18", "22-17", "21-17"})
_TEN_REPLIES = ("32-28", {"16-21", "17-21", "17-22", "18-22", "18-23", "19-23", "19-24",
                          "20-24", "20-25"})
# after the first move above, the second player's replies, for a `moves=` test
REPLIES = {
    "russian": _RUSSIAN_REPLIES, "brazilian": _RUSSIAN_REPLIES, "giveaway": _RUSSIAN_REPLIES,
    "czech": _RUSSIAN_REPLIES, "italian": _ITALIAN_REPLIES, "spanish": _ITALIAN_REPLIES,
    "english": _ENGLISH_REPLIES, "pool": _ENGLISH_REPLIES,
    "thai": ("5-9", {"25-21", "26-21", "26-22", "27-22", "27-23", "28-23", "28-24"}),
    "international": _TEN_REPLIES, "antidraughts": _TEN_REPLIES, "breakthrough": _TEN_REPLIES,
    "frisian": _TEN_REPLIES,
    "frysk": ("46-41", {"1-6", "1-7", "2-7", "2-8", "3-8", "3-9", "4-9", "4-10", "5-10"}),
    "turkish": ("17-25", {f"{n}-{n - 8}" for n in range(41, 49)}),
}
# the value of the variant parameter for each game: Scan's names for its games
HUB_NAMES = {name: name for name in VARIANTS}
HUB_NAMES.update(international="normal", antidraughts="losing", breakthrough="bt")

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
    # 10x10, which pydraughts writes as Scan does (pydraughts' "standard" is international)
    ("international", "W:W27,28,K46:B22,23,17,12",
     "WeeeeeeeeeeebeeeebeeeebbeeewweeeeeeeeeeeeeeeeeWeeee", {"27x29x22x23", "27x7x12x22"}),
    ("international", "W:WK50:B44,33,22,19,9",
     "WeeeeeeeebeeeeeeeeebeebeeeeeeeeeebeeeeeeeeeebeeeeeW", {"50x3x9x19x33x44"}),
    ("international", "B:W32,33,39,K10:B18,23,K3",
     "BeeBeeeeeeWeeeeeeebeeeebeeeeeeeewweeeeeweeeeeeeeeee",
     {"18-22", "23-28", "23-29", "3-12", "3-14", "3-17", "3-20", "3-21", "3-25", "3-26", "3-8",
      "3-9"}),
    ("antidraughts", "W:W31,32:B27,26,17",
     "Weeeeeeeeeeeeeeeebeeeeeeeebbeeewweeeeeeeeeeeeeeeeee", {"31x11x17x27", "32x12x17x27"}),
    ("breakthrough", "W:W6,32:B27,11",
     "Weeeeeweeeebeeeeeeeeeeeeeeebeeeeweeeeeeeeeeeeeeeeee", {"32x21x27", "6x17x11"}),
]

# Scan's own examples (its protocol.txt): a position with king moves sent for repetitions, and
# the principal variation of a search from the start
SCAN_POSITION = ("BeeeWWeeeeeeeeeeeeeeeeeeeweeeeeeeeewweBeeeeeeeeeBee", "38-15 5-41 48-26",
                 "W:W25,35,36,K4,K41:BK15,K26")
SCAN_PV = ("32-28 17-22 28x17x22 12x21x17 33-28 7-12 39-33 19-23 28x19x23 14x23x19 44-39 9-14 "
           "50-44 4-9 34-29 23x34x29 39x30x34 21-26 44-39 11-17 31-27 6-11 37-31 26x37x31 "
           "41x32x37 20-24 30x19x24 13x24x19")


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
    # the captured pieces ascending, as Scan and pydraughts write them
    assert {hub.move_text(m, variant) for m in board.legal_moves} == moves
    for text in moves:      # and each of pydraughts' texts names a move of ours
        assert hub.move_text(hub.parse_move(board, text), variant) == text
        squares = text.split("x")
        if len(squares) > 3:        # the captured pieces in any other order name it too
            backwards = "x".join(squares[:2] + squares[:1:-1])
            assert hub.move_text(hub.parse_move(board, backwards), variant) == text


@pytest.mark.parametrize("variant", VARIANTS)
def test_start_position_string(variant):
    board = hub.parse_position(START[variant], variant)
    assert board.fen() == shashki.Board(variant).fen()
    assert hub.position_text(shashki.Board(variant)) == START[variant]
    assert {hub.move_text(m, variant) for m in board.legal_moves} == FIRST_MOVES[variant]


def test_scan_examples():
    start, moves, fen = SCAN_POSITION
    board = hub.parse_position(start, "international")
    for text in moves.split():      # king moves of both sides, as Scan's GUI sends them
        board.push(hub.parse_move(board, text))
    assert board.fen() == fen
    board = shashki.Board("international")
    for text in SCAN_PV.split():    # every move of Scan's line is legal, and written back alike
        move = hub.parse_move(board, text)
        assert hub.move_text(move, "international") == text
        board.push(move)


def test_hub_names_of_the_games():
    for variant in shashki.VARIANTS:
        assert hub.hub_variant(HUB_NAMES[variant.name]) is variant
        assert hub.hub_variant(variant.name) is variant
    assert hub.hub_variant("standard").name == "international"     # pydraughts, lidraughts
    assert hub.hub_variant("Breakthrough").name == "breakthrough"  # Scan reads it too
    for other in ("killer", "chess"):                              # Scan's, not shashki's
        with pytest.raises(hub.HubProtocolError, match="does not play"):
            hub.hub_variant(other)


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
        assert hubtext.parse_score(text) == Score(value)        # and the client reads it back
    assert hub.score_text(Score(35)) == "0.35"
    assert hubtext.parse_score("0.35") == Score(35) and hubtext.parse_score("-1") == Score(-100)
    for bad in ("abc", "nan", "inf", "1e300", ""):
        with pytest.raises(hub.HubProtocolError, match="score"):
            hubtext.parse_score(bad)


@pytest.mark.parametrize("limit", [
    Limit(depth=7), Limit(nodes=5000), Limit(movetime=0.25), Limit(clock=30.0),
    Limit(clock=30.0, increment=2.0), Limit(clock=12.5, moves=9),
    Limit(depth=9, nodes=10 ** 6, movetime=3.0), Limit()])
def test_level_lines_read_back(limit):
    # the client writes a level line, the server reads it: the same Limit on both sides
    command, args = hub.parse_line(hubtext.level_line(limit))
    assert command == "level"
    assert hub.parse_level(args) == limit


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


def handshake(engine):
    """`hub` up to `wait`: the id line and the parameters by name."""
    engine.send("hub")
    lines = engine.until("wait")
    id_line = hub.parse_line(lines[0])
    assert id_line[0] == "id" and id_line[1]["name"] == "shashki"
    assert id_line[1]["version"] == shashki.__version__
    params = {args["name"]: args for cmd, args in map(hub.parse_line, lines[1:-1])}
    assert params["variant"]["values"].split() == [HUB_NAMES[v] for v in VARIANTS]
    assert params["hash"]["type"] == "int"
    return params


def start(engine, variant):
    handshake(engine)
    engine.send(f"set-param name=variant value={HUB_NAMES[variant]}",
                "set-param name=hash value=4", "init")
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
    engine.send(f"pos pos={START[variant]}", "level depth=4", "go think")
    lines = engine.until("done")
    board = hub.parse_position(START[variant], variant)
    infos = lines[:-1]
    assert [int(hub.parse_line(i)[1]["depth"]) for i in infos] == [1, 2, 3, 4]
    for line in infos:
        check_info(line, board, variant)
    args = done_move(lines[-1])
    assert args["move"] in FIRST_MOVES[variant]
    if "ponder" in args:
        board.push(hub.parse_move(board, args["move"]))
        hub.parse_move(board, args["ponder"])
    # moves= continues from the position; the answer is the other side's
    first, replies = REPLIES[variant]
    engine.send("new-game", f'pos pos={START[variant]} moves="{first}"', "level depth=3",
                "go think")
    assert done_move(engine.until("done")[-1])["move"] in replies
    # pydraughts' `pos pos=startpos` is the start position too
    engine.send(f'pos pos=startpos moves="{first}"', "level depth=2", "go think")
    assert done_move(engine.until("done")[-1])["move"] in replies
    engine.send("quit")
    assert engine.proc.wait(10) == 0


@pytest.mark.parametrize("variant", VARIANTS)
def test_stop_ends_an_infinite_search(engine, variant):
    start(engine, variant)
    engine.send(f"pos pos={START[variant]}", "level infinite", "go think")
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


@pytest.mark.parametrize("mode", ["analyze", "think"])
def test_an_infinite_search_answers_only_at_stop(engine, mode):
    """`level infinite` ("for analysis, the GUI will send stop later", Scan's protocol.txt):
    a search that has nothing more to find (a win in one, found in a few plies) still waits
    for stop before its done."""
    start(engine, "russian")
    board = shashki.Board("russian", "W:Wc3:Bd4")
    engine.send("pos pos=W:Wc3:Bd4", "level infinite", f"go {mode}")
    lines = engine.quiet(1.0)
    assert lines and lines[0].startswith("info ")
    assert not any(line.startswith("done") for line in lines)
    engine.send("ping")
    assert not any(line.startswith("done") for line in engine.until("pong"))
    engine.send("stop")
    args = done_move(engine.until("done", timeout=5)[-1])
    assert args["move"] == hubtext.move_text(board.parse_move("c3:e5"), "russian")


@pytest.mark.parametrize("variant", ["russian", "international"])
def test_ponder_then_ponder_hit(engine, variant):
    start(engine, variant)
    engine.send(f"pos pos={START[variant]}", "level move-time=0.3", "go ponder")
    # while pondering the move's time does not run
    assert not any(line.startswith("done") for line in engine.quiet(0.8))
    engine.send("ponder-hit")
    assert done_move(engine.until("done", timeout=10)[-1])["move"] in FIRST_MOVES[variant]
    engine.send("ponder-hit", "ping")     # a late ponder-hit is harmless
    assert engine.until("pong") == ["pong"]


def test_a_ponder_search_that_already_took_its_time_answers_at_ponder_hit(engine):
    # the time spent pondering counts: after 1 s of pondering a 0.3 s move is due at once,
    # with the ponder search's deeper result
    start(engine, "english")
    engine.send("pos start", "level move-time=0.3", "go ponder")
    pondered = [line for line in engine.quiet(1.0) if line.startswith("info")]
    assert pondered and not any(line.startswith("done") for line in pondered)
    engine.send("ponder-hit")
    began = time.monotonic()
    lines = engine.until("done", timeout=5)
    assert time.monotonic() - began < 2      # (the old hub searched the full 0.3 s more)
    depths = [int(hub.parse_line(line)[1]["depth"]) for line in pondered + lines
              if line.startswith("info")]
    assert max(depths) >= 8


@pytest.mark.parametrize("variant", VARIANTS)
def test_bad_input_is_answered_and_the_engine_goes_on(engine, variant):
    start(engine, variant)
    n = len(START[variant]) - 1
    bad = ["frobnicate", 'pos pos="Wbb', "pos pos=Wbbb", "pos pos=X" + "e" * n,
           "pos pos=W" + "x" * n, "pos pos=W" + "e" * (n + 1),
           # white men on their crowning row
           "pos pos=W" + "w" * (n // 2 - 3) + "e" * (n - n // 2 + 3),
           f'pos pos={START[variant]} moves="9-99"', f'pos pos={START[variant]} moves="1-5"',
           f'pos pos={START[variant]} moves="{REPLIES[variant][0]} x-y"',
           "level depth=zero", "level depth=0", "level move-time=-1", "level inc=2",
           "set-param name=variant value=chess", "set-param name=variant value=killer",
           "set-param name=hash value=huge", "set-param name=colour value=red",
           "set-param value=3", "=3"]
    for line in bad:
        engine.send(line)
        answer = engine.read()
        command, args = hub.parse_line(answer)
        assert command == "error" and args["message"], (line, answer)
    # a go after a rejected pos says why and still ends with done
    engine.send("go think")
    lines = engine.until("done")
    assert lines[0].startswith("error ") and lines[-1] == "done"
    engine.send(f"pos pos={START[variant]}", "level depth=3", "go think")
    assert done_move(engine.until("done")[-1])["move"] in FIRST_MOVES[variant]


def test_the_variant_parameter_takes_scan_and_pydraughts_names(engine):
    params = handshake(engine)
    assert params["variant"]["value"] == "russian"      # the default game
    for name, first in [("standard", "international"), ("losing", "antidraughts"),
                        ("breakthrough", "breakthrough"), ("pool", "pool"), ("normal",
                                                                          "international")]:
        engine.send(f"set-param name=variant value={name}", "init", "pos start", "level depth=2",
                    "go think")
        lines = engine.until("done")
        assert "ready" in lines and done_move(lines[-1])["move"] in FIRST_MOVES[first], lines


def test_a_gui_that_never_sets_the_variant_plays_international(engine):
    # a GUI made for Scan, which plays international unless told otherwise
    handshake(engine)
    engine.send("init")
    engine.until("ready")
    engine.send(f'pos pos={TEN} moves="32-28"', "level depth=3", "go think")
    assert done_move(engine.until("done")[-1])["move"] in _TEN_REPLIES[1]
    engine.send(f"pos pos={EIGHT}", "level depth=3", "go think")    # and back: russian
    assert done_move(engine.until("done")[-1])["move"] in _RUSSIAN_FIRST


def test_a_variant_once_set_stays(engine):
    start(engine, "russian")
    engine.send(f"pos pos={TEN}")
    command, args = hub.parse_line(engine.read())
    assert command == "error" and "russian" in args["message"] and "51" in args["message"]
    engine.send("go think")
    lines = engine.until("done")
    assert lines[0].startswith("error ") and lines[-1] == "done"


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
    session = server.HubSession(io.StringIO(""), out, "russian", hash_mb=1)
    for line in [f"pos pos={EIGHT}", "level nodes=" + "1" + "0" * 26, "level nodes=2000",
                 "go think"]:
        session.handle(line)
    session.search.thread.join(30)
    text = out.getvalue()
    assert "internal error" not in text
    assert "nodes must be a whole number from 1 to" in text and "done move=" in text


class _LongLines:
    """Text input whose lines are handed out as readline asks, the longest piece it handed
    out recorded: a line of millions of characters without holding it."""

    def __init__(self, lines):
        self.lines = list(lines)        # (text, repeat) pairs: text * repeat + "\n"
        self.left = 0
        self.longest = 0

    def readline(self, size=-1):
        if not self.left:
            if not self.lines:
                return ""
            self.text, self.left = self.lines.pop(0)
            self.left *= len(self.text)
            self.left += 1              # the newline
        take = self.left if size is None or size < 0 else min(size, self.left)
        self.left -= take
        newline = "\n" if not self.left else ""
        body = take - len(newline)
        piece = (self.text * (body // len(self.text) + 1))[:body] + newline
        self.longest = max(self.longest, len(piece))
        return piece


def test_a_line_too_long_is_refused_in_bounded_memory():
    """A line longer than MAX_LINE is answered with an error without being read whole, and
    the engine goes on."""
    out = io.StringIO()
    source = _LongLines([("ping" + " " * 1000, 1), ("ping ", 2 << 20), ("ping", 1)])
    assert server.HubSession(source, out, "russian", hash_mb=1).run() == 0
    lines = out.getvalue().splitlines()
    assert lines[0] == "pong" and lines[-1] == "pong" and len(lines) == 3
    command, args = hub.parse_line(lines[1])
    assert command == "error" and "longer than 65536 characters" in args["message"]
    assert source.longest <= server.MAX_LINE + 1


def test_garbage_during_a_search_does_not_stop_it(engine):
    start(engine, "italian")
    engine.send(f"pos pos={EIGHT}", "level infinite", "go think", "frobnicate")
    lines = engine.until("error")
    assert not any(line.startswith("done") for line in lines)
    assert not any(line.startswith("done") for line in engine.quiet(0.3))
    engine.send("stop")
    assert done_move(engine.until("done", timeout=5)[-1])["move"] in FIRST_MOVES["italian"]


@pytest.mark.parametrize("variant,position", [
    ("russian", "W" + "e" * 9 + "b" + "e" * 22),            # White has nothing
    ("international", "W" + "e" * 9 + "b" + "e" * 40),
    ("thai", "B" + "e" * 9 + "w" + "e" * 22),
    ("breakthrough", "B:WK1:B30"),                          # White has crowned a king
    ("giveaway", "W" + "e" * 9 + "b" + "e" * 22)])          # (White has won)
def test_game_over_position(engine, variant, position):
    start(engine, variant)
    engine.send(f"pos pos={position}", "go think")
    lines = engine.until("done")
    assert lines[0].startswith("error ") and "game is over" in lines[0]
    assert lines[-1] == "done"


def test_fen_extension_and_time_control(engine):
    start(engine, "english")
    engine.send("pos pos=B:W18,19,26,K27:B14,15,K10", "level time=5 inc=0.1", "go think")
    args = done_move(engine.until("done")[-1])
    assert sorted_captures(args["move"]) in {"14x30x18x26", "14x32x18x27", "15x31x18x26",
                                             "15x31x19x27"}
    # the position stays for another search, with an x/y time control this time
    engine.send("level moves=10 time=0.5", "go think")
    args = done_move(engine.until("done")[-1])
    assert sorted_captures(args["move"]) in {"14x30x18x26", "14x32x18x27", "15x31x18x26",
                                             "15x31x19x27"}


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


#: the games pydraughts plays, by its names (it calls international "standard")
PYDRAUGHTS_GAMES = {"international": "standard", "antidraughts": "antidraughts",
                    "breakthrough": "breakthrough", "russian": "russian",
                    "brazilian": "brazilian", "italian": "italian", "english": "english"}


@pytest.mark.parametrize("variant", list(PYDRAUGHTS_GAMES))
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
            # the value shashki declares for the game (Scan's name for its games)
            assert HUB_NAMES[variant] in player.variants
            player.setoption("variant", HUB_NAMES[variant])
            player.init()
        board = draughts.Board(PYDRAUGHTS_GAMES[variant])
        mirror = shashki.Board(variant)     # the same game on shashki's board
        limits = [engines.Limit(depth=4), engines.Limit(movetime=0.02)]
        moves = []
        while not board.is_over():
            assert len(moves) < 600, "the game did not end"
            outcome = mirror.outcome()
            if outcome is not None and outcome.winner is not None:
                break       # over by shashki's rules: not asked, as a GUI never asks
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
    ours = mirror.outcome()
    theirs = {0: "draw", 1: "black", 2: "white", None: "not over"}[board.winner()]
    if ours is not None and ours.winner is not None:
        # a decisive result (no moves, a king crowned) is the same for both libraries
        assert theirs == shashki.Color(ours.winner).name.lower(), (ours, theirs)
    print(f"\n{variant}: {len(moves)} plies, pydraughts: {theirs}, shashki: "
          f"{ours.result() if ours else 'not over'} "
          f"({ours.termination.value if ours else '-'}): {' '.join(moves)}")


def test_numbers_of_any_length_in_hub_moves_and_params():
    # int() of more than 4,300 digits raised Python's own ValueError (issue 12.6)
    board = shashki.Board("english")
    assert hub.parse_move(board, "0" * 5000 + "9-13") == board.parse_move("9-13")
    with pytest.raises(hub.HubProtocolError, match="off the board"):
        hub.parse_move(board, "9-" + "1" * 5000)


def test_the_guide_names_each_games_hub_text():
    # docs/hub.md's table of the games: the variant value and the start position string
    page = (Path(__file__).resolve().parent.parent / "docs" / "hub.md").read_text()
    rows = {}
    for line in page.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0] in VARIANTS:
            rows[cells[0]] = cells
    assert set(rows) == set(VARIANTS)

    def start_of(name):
        text = rows[name][2]
        if text.startswith("as "):
            return start_of(text.split()[1])
        return "".join(c * int(n or 1) for c, n in re.findall(r"`(\w)`(?:×(\d+))?", text))

    for name, cells in rows.items():
        assert cells[1] == f"`{shashki.get_variant(name).hub_name}`" == f"`{HUB_NAMES[name]}`"
        assert start_of(name) == START[name] == hub.position_text(shashki.Board(name))


# --- docs/hub.md's pydraughts example ------------------------------------------------------

def _pages_pydraughts_example():
    page = (Path(__file__).resolve().parent.parent / "docs" / "hub.md").read_text()
    after = page.split("With pydraughts, `HubEngine` needs a program", 1)[1]
    return after.split("```python\n", 1)[1].split("```", 1)[0]


def test_the_pages_pydraughts_example_names_no_placeholder():
    # issue 33.5: it gave HubEngine "/path/to/shashki-hub", which cannot run as written
    example = _pages_pydraughts_example()
    assert "/path/to" not in example and "HubEngine(" in example


def test_the_pages_pydraughts_example_runs():
    # as a reader would run it (tox -e hub installs pydraughts; skipped without it)
    pydraughts()
    namespace = {}
    exec(compile(_pages_pydraughts_example(), "docs/hub.md", "exec"), namespace)
    assert namespace["board"].move_stack     # the engine's move was played
