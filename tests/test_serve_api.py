"""`shashki serve`'s HTTP API, driven with the standard library's client against a server in a
thread: the page's files, every route, what a bad request gets (a JSON error with a 4xx
status, never a traceback), several games played at once, the engine stopped when its
position changes, the analysis stream."""

import http.client
import io
import json
import random
import socket
import threading
import time

import pytest

import shashki
from shashki import egdb, pdn
from shashki.apps.web import Api, WebServer
from shashki.apps.web.games import EnginePool
from shashki.apps.web.inputs import MAX_BODY
from shashki.apps.web.views import LEVELS

QUICK = {"depth": 2}


class Client:
    """Requests to one server: request() returns (status, headers, body as JSON or text)."""

    def __init__(self, server):
        self.host, self.port = server.server_address[:2]

    def request(self, method, path, body=None, raw=None, headers=None, timeout=60):
        conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        conn.request(method, path, body=data, headers=headers or {})
        response = conn.getresponse()
        text = response.read().decode("utf-8")
        conn.close()
        kind = response.getheader("Content-Type", "")
        return response.status, response, json.loads(text) if "json" in kind else text

    def ok(self, method, path, body=None):
        status, _, data = self.request(method, path, body)
        assert status in (200, 201), data
        return data

    def error(self, method, path, body=None, status=400, **kwargs):
        """A request that must fail with `status` and a JSON error saying what was expected."""
        got, response, data = self.request(method, path, body, **kwargs)
        assert got == status, data
        assert response.getheader("Content-Type") == "application/json"
        assert isinstance(data, dict) and data["error"] and "Traceback" not in data["error"]
        return data

    def raw(self, data, timeout=10):
        """Bytes sent on a socket of their own; the answer's status and JSON body."""
        with socket.create_connection((self.host, self.port), timeout=timeout) as sock:
            sock.sendall(data)
            chunks = []
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
        head, _, body = b"".join(chunks).partition(b"\r\n\r\n")
        return int(head.split()[1]), json.loads(body)

    def new(self, variant="russian", **fields):
        return self.ok("POST", "/api/games", dict(variant=variant, **fields))


def start(api):
    server = WebServer(("127.0.0.1", 0), api)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    # the engines probe an (empty) folder of their own, whatever the user's cache holds
    folder = tmp_path_factory.mktemp("egdb")
    server = start(Api(pool=EnginePool(egdb=str(folder))))
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture
def client(server):
    return Client(server)


# --- the page -------------------------------------------------------------------------------

def test_the_page_and_its_files_are_served(client):
    status, response, text = client.request("GET", "/")
    assert status == 200 and response.getheader("Content-Type").startswith("text/html")
    assert '<script type="module" src="/static/app.js">' in text
    # the page runs only its own scripts and fetches nothing from elsewhere
    assert "default-src 'self'" in response.getheader("Content-Security-Policy")
    for name, kind in (("app.js", "text/javascript"), ("board.js", "text/javascript"),
                       ("picker.js", "text/javascript"), ("api.js", "text/javascript"),
                       ("style.css", "text/css"), ("favicon.svg", "image/svg+xml")):
        status, response, text = client.request("GET", f"/static/{name}")
        assert status == 200 and response.getheader("Content-Type").startswith(kind), name
        assert "http://" not in text.replace("http://www.w3.org/", "") and "https://" not in text


@pytest.mark.parametrize("path", ["/static/../server.py", "/static/%2e%2e/api.py",
                                  "/static/nothing.js", "/index.htm", "/static/",
                                  "/static/a/app.js", "/favicon.ico"])
def test_no_other_file_is_served(client, path):
    assert "no page" in client.error("GET", path, status=404)["error"]


def test_the_variants_carry_each_board_layout(client):
    info = client.ok("GET", "/api/variants")
    assert [g["name"] for g in info["games"]] == [v.name for v in shashki.VARIANTS]
    for game in info["games"]:
        variant = shashki.get_variant(game["name"])
        squares = variant.geometry.squares
        assert game["names"] == [variant.square_name(s) for s in range(squares)]
        cells = [tuple(c) for c in game["cells"]]
        assert len(set(cells)) == squares and game["size"] == variant.geometry.files
        # the playable squares are one colour of the chequer (every square in turkish), and
        # the first square is on the bottom row (White's side)
        if variant.geometry.dark_squares:
            assert len({(x + y) % 2 for x, y in cells}) == 1 and game["size"] ** 2 == 2 * squares
        else:
            assert game["size"] ** 2 == squares
        assert cells[0][1] == game["size"] - 1
    assert len(info["levels"]) == len(LEVELS) and 0 <= info["default_level"] < len(LEVELS)


# --- making games, playing moves ------------------------------------------------------------

@pytest.mark.parametrize("variant", [v.name for v in shashki.VARIANTS])
def test_a_new_game_has_the_legal_moves_of_its_board(client, variant):
    game = client.new(variant)
    board = shashki.Board(variant)
    assert game["variant"] == variant and game["fen"] == board.fen() and game["ply"] == 0
    assert sorted(m["text"] for m in game["legal"]) == sorted(map(str, board.legal_moves))
    assert len(game["pieces"]) == bin(board.white | board.black).count("1")
    move = random.Random(variant).choice(game["legal"])
    after = client.ok("POST", f"/api/games/{game['id']}/move", {"move": move["text"]})
    board.push(move["text"])
    assert after["fen"] == board.fen() and after["ply"] == 1 and after["version"] == 1
    assert after["last"] == move and after["moves"][0]["text"] == move["text"]


def test_each_legal_move_text_plays_that_route(client):
    """Positions with several capture routes to one square: the text of each legal move the
    state lists plays exactly that move (its path), so the page can send it back."""
    for fen, variant in (("W:Wb2,h2,d4,h6:Be3,g3,c5,d6,c7,e7,g7,f8", "russian"),
                         ("W:W13,18,22,28,31,32:B1,3,5-7,10,14,15,20,K23", "english"),
                         ("B:W17,33,36,39,40,43:B10,13,16,19,K45", "international")):
        game = client.new(variant, fen=fen)
        ends = [(m["from"], m["to"]) for m in game["legal"]]
        assert len(ends) > len(set(ends))       # two routes join the same two squares
        for move in game["legal"]:
            after = client.ok("POST", f"/api/games/{game['id']}/move", {"move": move["text"]})
            assert after["last"]["path"] == move["path"]
            client.ok("POST", f"/api/games/{game['id']}/undo", {})


def test_moves_numbered_from_the_side_that_starts(client):
    game = client.new("russian", fen="B:Wa1:Bh8")      # black to move first here
    game = client.ok("POST", f"/api/games/{game['id']}/move", {"move": "h8-g7"})
    game = client.ok("POST", f"/api/games/{game['id']}/move", {"move": "a1-b2"})
    assert [(m["number"], m["color"]) for m in game["moves"]] == [(1, "black"), (2, "white")]


def test_going_to_a_move_and_taking_back(client):
    game = client.new()
    gid = game["id"]
    for text in ("c3-d4", "f6-g5", "g3-f4"):
        game = client.ok("POST", f"/api/games/{gid}/move", {"move": text})
    shown = client.ok("POST", f"/api/games/{gid}/goto", {"ply": 1})
    assert shown["ply"] == 1 and len(shown["moves"]) == 3 and shown["last"]["text"] == "c3-d4"
    board = shashki.Board("russian")
    board.push("c3-d4")
    assert shown["fen"] == board.fen()
    # a move where the cursor is starts a new line
    branch = client.ok("POST", f"/api/games/{gid}/move", {"move": "b6-a5"})
    assert [m["text"] for m in branch["moves"]] == ["c3-d4", "b6-a5"] and branch["ply"] == 2
    back = client.ok("POST", f"/api/games/{gid}/undo", {"plies": 2})
    assert back["ply"] == 0 and back["moves"] == [] and back["last"] is None
    assert "no move to take back" in client.error("POST", f"/api/games/{gid}/undo", {},
                                                  status=409)["error"]
    client.error("POST", f"/api/games/{gid}/goto", {"ply": 1})
    client.error("POST", f"/api/games/{gid}/goto", {})
    client.ok("POST", f"/api/games/{gid}/move", {"move": "c3-d4"})
    client.error("POST", f"/api/games/{gid}/undo", {"plies": 0})
    assert "from 1 to 1" in client.error("POST", f"/api/games/{gid}/undo",
                                         {"plies": 2})["expected"]


def test_a_request_on_an_old_version_is_refused(client):
    game = client.new()
    gid = game["id"]
    client.ok("POST", f"/api/games/{gid}/move", {"move": "c3-d4", "version": 0})
    error = client.error("POST", f"/api/games/{gid}/move", {"move": "f6-g5", "version": 0},
                         status=409)
    assert "changed" in error["error"] and "version 1" in error["error"]


def test_claiming_a_draw(client):
    game = client.new("english", fen="W:WK32:BK1")
    gid = game["id"]
    assert "no draw to claim" in client.error("POST", f"/api/games/{gid}/claim", {},
                                              status=409)["error"]
    for text in ["32-27", "1-6", "27-32", "6-1"] + ["32-27", "1-6", "27-32"]:
        game = client.ok("POST", f"/api/games/{gid}/move", {"move": text})
    assert game["can_claim_draw"] and game["outcome"] is None
    game = client.ok("POST", f"/api/games/{gid}/claim", {})
    assert game["outcome"]["termination"] == "threefold_repetition" and game["legal"] == []
    assert "over" in client.error("POST", f"/api/games/{gid}/move", {"move": "6-1"},
                                  status=409)["error"]
    # taking back undoes the claim
    assert client.ok("POST", f"/api/games/{gid}/undo", {})["outcome"] is None


# --- bad requests ----------------------------------------------------------------------------

def test_an_illegal_move_says_which_are_legal(client):
    gid = client.new()["id"]
    error = client.error("POST", f"/api/games/{gid}/move", {"move": "c3-e5"})
    assert error == {"error": "illegal move 'c3-e5': legal moves of the piece on c3: c3-d4, "
                              "c3-b4", "expected": "a legal move: c3-d4 c3-b4"}
    error = client.error("POST", f"/api/games/{gid}/move", {"move": "b6-a5"})
    assert "the piece on b6 is black" in error["error"] and "g3-h4" in error["expected"]
    error = client.error("POST", f"/api/games/{gid}/move", {"move": "c3-c4"})
    assert "light square" in error["error"] and "notation" in error["expected"]
    assert client.error("POST", f"/api/games/{gid}/move", {"move": "zz"})["expected"]
    assert client.ok("GET", f"/api/games/{gid}")["ply"] == 0     # nothing was played


@pytest.mark.parametrize("body, words", [
    ({"variant": "chess"}, "chess"),
    ({"variant": 7}, "variant"),
    ({"variant": "russian", "fen": "W:Wz9:B1"}, "z9"),
    ({"variant": "russian", "fen": "nonsense"}, "FEN"),
    ({"variant": "russian", "fen": ""}, "FEN"),
    ({"variant": "russian", "fen": "W:W1:B2", "pdn": "1. c3-d4 *"}, "both"),
    ({"variant": "russian", "pdn": "1. c3-c4 *"}, "c3-c4"),
    ({"variant": "russian", "pdn": ""}, "no game"),
    ({"variant": "russian", "colour": "white"}, "colour"),
])
def test_bad_games_are_refused(client, body, words):
    error = client.error("POST", "/api/games", body)
    assert words.lower() in (error["error"] + error.get("expected", "")).lower()
    if "fen" in body and body["fen"] not in ("",) and "pdn" not in body:
        assert shashki.Board("russian").fen() in error["expected"]


@pytest.mark.parametrize("path, method, status", [
    ("/api/games/0123456789abcdef", "GET", 404),      # well formed, never made
    ("/api/games/NOT-AN-ID", "GET", 404),
    ("/api/games/0123456789abcdef/move", "POST", 404),
    ("/api/nothing", "GET", 404),
    ("/api", "GET", 404),
    ("/api/games", "GET", 405),
    ("/api/variants", "POST", 405),
    ("/", "POST", 405),
    ("/", "DELETE", 501),
    ("/api/games", "PUT", 501),
])
def test_unknown_routes_games_and_methods(client, path, method, status):
    client.error(method, path, {} if method == "POST" else None, status=status)


def test_routes_of_a_game_check_their_method_and_fields(client):
    gid = client.new()["id"]
    assert "POST" in client.error("GET", f"/api/games/{gid}/move", status=405)["expected"]
    client.error("POST", f"/api/games/{gid}/nothing", {}, status=404)
    client.error("GET", f"/api/games/{gid}?x=1")                 # no query here
    client.error("POST", f"/api/games/{gid}/move", {})            # no move
    client.error("POST", f"/api/games/{gid}/move", {"move": 12})
    client.error("POST", f"/api/games/{gid}/move", {"move": "c3-d4", "version": True})
    client.error("POST", f"/api/games/{gid}/move", {"move": "c3-d4", "version": -1})
    client.error("POST", f"/api/games/{gid}/move", {"move": "x" * 5000}, status=413)
    client.error("POST", f"/api/games/{gid}/goto", {"ply": 1.5})
    client.error("GET", f"/api/games/{gid}/pdn?white={'x' * 200}")
    client.error("GET", f"/api/games/{gid}/pdn?white=a&white=b")
    client.error("GET", f"/api/games/{gid}/pdn?white=%07")        # not printable


@pytest.mark.parametrize("raw", [
    b"{", b"[1, 2]", b'"text"', b"null", b"\xff\xfe", b'{"variant": NaN}',
    b"[" * 100_000, b'{"variant": "russian"} trailing', b"\x00" * 100,
])
def test_garbage_bodies(client, raw):
    client.error("POST", "/api/games", raw=raw, headers={"Content-Type": "application/json"})


def test_a_body_too_large_is_refused_unread(client):
    status, body = client.raw(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: "
                              + str(MAX_BODY + 1).encode() + b"\r\n\r\n")
    assert status == 413 and str(MAX_BODY) in body["expected"]
    status, body = client.raw(b"POST /api/games HTTP/1.1\r\nHost: x\r\n"
                              b"Content-Length: 99999999999999999999999\r\n\r\n")
    assert status in (400, 413)


@pytest.mark.parametrize("request_bytes, status", [
    (b"GARBAGE\r\n\r\n", 400),
    (b"GET / HTTP/9.9\r\n\r\n", 505),
    (b"BREW /pot HTTP/1.1\r\nHost: x\r\n\r\n", 501),
    (b"GET /" + b"a" * 70_000 + b" HTTP/1.1\r\n\r\n", 414),
    (b"POST /api/games HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 411),
    (b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: ten\r\n\r\n", 400),
    (b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n{}", 400),
    (b"GET /api/variants HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}", 400),
])
def test_malformed_http_gets_json(client, request_bytes, status):
    if request_bytes.endswith(b"{}") and b"50" in request_bytes:
        # a body shorter than its length: the server waits for the rest, then gives up
        with socket.create_connection((client.host, client.port), timeout=10) as sock:
            sock.sendall(request_bytes)
            sock.shutdown(socket.SHUT_WR)
            answer = sock.recv(65536)
        assert answer.split()[1] == b"400"
        return
    got, body = client.raw(request_bytes)
    assert got == status and body["error"]


# --- the engine --------------------------------------------------------------------------------

def test_the_engine_plays_a_move(client):
    game = client.new()
    after = client.ok("POST", f"/api/games/{game['id']}/engine", {"limit": QUICK})
    assert after["ply"] == 1 and after["moves"][0]["text"] in {m["text"] for m in game["legal"]}
    assert after["search"]["depth"] == 2 and after["search"]["pv"][0] == after["last"]["text"]


@pytest.mark.parametrize("limit", [None, {}, {"depth": 0}, {"depth": 1000}, {"depth": "4"},
                                   {"movetime": 0}, {"movetime": -1}, {"movetime": 1e9},
                                   {"movetime": True}, {"nodes": 100}, [2]])
def test_bad_engine_limits(client, limit):
    gid = client.new()["id"]
    client.error("POST", f"/api/games/{gid}/engine", {"limit": limit})


def test_no_engine_move_when_the_game_is_over(client):
    gid = client.new(fen="W:Wa1:Bc3,e5")["id"]
    game = client.ok("POST", f"/api/games/{gid}/move", {"move": "a1-b2"})
    game = client.ok("POST", f"/api/games/{gid}/engine", {"limit": QUICK})
    assert game["outcome"] == {"result": "0-1", "winner": "black", "termination": "no_moves",
                               "reason": "white has no legal move"}
    client.error("POST", f"/api/games/{gid}/engine", {"limit": QUICK}, status=409)


def test_a_change_of_position_stops_the_engine(client):
    gid = client.new()["id"]
    client.ok("POST", f"/api/games/{gid}/move", {"move": "c3-d4"})
    answer = {}

    def think():
        start = time.monotonic()
        answer["reply"] = client.request("POST", f"/api/games/{gid}/engine",
                                         {"limit": {"movetime": 60}})
        answer["seconds"] = time.monotonic() - start

    thread = threading.Thread(target=think)
    thread.start()
    for _ in range(100):
        if client.ok("GET", f"/api/games/{gid}")["thinking"]:
            break
        time.sleep(0.05)
    error = client.error("POST", f"/api/games/{gid}/engine", {"limit": QUICK}, status=409)
    assert "already thinking" in error["error"]
    client.ok("POST", f"/api/games/{gid}/undo", {})
    thread.join(timeout=30)
    status, _, body = answer["reply"]
    assert status == 409 and "dropped" in body["error"]
    assert answer["seconds"] < 30                   # stopped, not run for its 60 s
    assert client.ok("GET", f"/api/games/{gid}")["moves"] == []


def test_games_played_at_once_keep_their_own_state(client):
    """Four players, each with a game of their own, play engine and person moves at the same
    time; each game's moves are its own, and replay to its position."""
    results, errors = {}, []

    def player(seat):
        try:
            variant = ["russian", "english", "italian", "international"][seat]
            game = client.new(variant)
            rng = random.Random(seat)
            for _ in range(6):
                if game["outcome"]:
                    break
                if rng.random() < 0.5:
                    move = rng.choice(game["legal"])["text"]
                    game = client.ok("POST", f"/api/games/{game['id']}/move", {"move": move})
                else:
                    game = client.ok("POST", f"/api/games/{game['id']}/engine",
                                     {"limit": {"depth": 3}})
            results[seat] = game
        except Exception as error:        # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=player, args=(seat,)) for seat in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors and len(results) == 4
    for game in results.values():
        board = shashki.Board(game["variant"])
        for move in game["moves"]:
            board.push(move["text"])
        assert board.fen() == game["fen"] == client.ok("GET", f"/api/games/{game['id']}")["fen"]


def test_searches_beyond_the_limit_are_refused():
    server = start(Api(pool=EnginePool(max_searches=1, egdb=False)))
    try:
        client = Client(server)
        first, second = client.new()["id"], client.new()["id"]
        thread = threading.Thread(target=client.request, args=(
            "POST", f"/api/games/{first}/engine", {"limit": {"movetime": 30}}))
        thread.start()
        for _ in range(100):
            if client.ok("GET", f"/api/games/{first}")["thinking"]:
                break
            time.sleep(0.05)
        time.sleep(0.2)
        error = client.error("POST", f"/api/games/{second}/engine", {"limit": QUICK},
                             status=429)
        assert "searches" in error["error"]
        client.ok("POST", f"/api/games/{first}/goto", {"ply": 0})     # stops that search
        thread.join(timeout=20)
        assert not thread.is_alive()
    finally:
        server.shutdown()
        server.server_close()


def test_the_server_forgets_the_oldest_games():
    server = start(Api(store=None, pool=EnginePool(egdb=False)))
    server.api.store.max_games = 3
    try:
        client = Client(server)
        ids = [client.new()["id"] for _ in range(4)]
        assert "forgotten" in client.error("GET", f"/api/games/{ids[0]}", status=404)["error"]
        for gid in ids[1:]:
            client.ok("GET", f"/api/games/{gid}")
    finally:
        server.shutdown()
        server.server_close()


# --- PDN ----------------------------------------------------------------------------------------

def test_a_pdn_game_is_loaded_and_downloaded(client):
    text = '[Event "club"]\n[White "Ann"]\n[GameType "25"]\n\n1. c3-d4 f6-g5 2. g3-f4 *\n'
    game = client.new("english", pdn=text)          # its GameType says russian
    assert game["variant"] == "russian" and game["ply"] == 3 and len(game["moves"]) == 3
    status, response, body = client.request("GET", f"/api/games/{game['id']}/pdn?black=Bo")
    assert status == 200 and response.getheader("Content-Type").startswith(
        "application/x-chess-pdn")
    assert 'attachment; filename="shashki-russian-' in response.getheader(
        "Content-Disposition")
    record = pdn.read_game(io.StringIO(body))
    assert [str(m) for m in record.moves] == ["c3-d4", "f6-g5", "g3-f4"]
    assert record.headers["White"] == "Ann" and record.headers["Black"] == "Bo"
    assert record.headers["Event"] == "club" and record.headers["Result"] == "*"


def test_a_pdn_without_game_tags_is_read_as_the_chosen_game(client):
    game = client.new("english", pdn="1. 11-15 23-19 *")
    assert game["variant"] == "english" and [m["text"] for m in game["moves"]] == ["11-15",
                                                                                  "23-19"]


def test_a_finished_game_is_downloaded_with_its_result(client):
    gid = client.new(fen="W:Wa1:Bc3,e5")["id"]
    client.ok("POST", f"/api/games/{gid}/move", {"move": "a1-b2"})
    client.ok("POST", f"/api/games/{gid}/move", {"move": "c3:a1"})
    client.ok("POST", f"/api/games/{gid}/goto", {"ply": 0})     # the whole game all the same
    _, _, body = client.request("GET", f"/api/games/{gid}/pdn")
    record = pdn.read_game(io.StringIO(body))
    assert record.headers["Result"] == "0-1" and record.headers["FEN"] == "W:Wa1:Bc3,e5"
    assert len(record.moves) == 2


# --- analysis -------------------------------------------------------------------------------------

def events(client, path, until=None, timeout=60):
    """The server-sent events of `path` as (kind, data) pairs, up to the stream's end (or
    until `until(kind, data)` says to stop reading)."""
    conn = http.client.HTTPConnection(client.host, client.port, timeout=timeout)
    conn.request("GET", path)
    response = conn.getresponse()
    assert response.status == 200, response.read()
    assert response.getheader("Content-Type").startswith("text/event-stream")
    out, kind = [], None
    for line in response:
        line = line.decode().rstrip("\n")
        if line.startswith("event: "):
            kind = line[7:]
        elif line.startswith("data: "):
            out.append((kind, json.loads(line[6:])))
            if until is not None and until(kind, out[-1][1]):
                break
    conn.close()
    return out


def test_the_analysis_streams_each_depth(client):
    game = client.new()
    stream = events(client, f"/api/games/{game['id']}/analysis?seconds=0.5")
    kinds = [kind for kind, _ in stream]
    assert kinds[0] == "position" and kinds[-1] == "done" and "info" in kinds
    infos = [data for kind, data in stream if kind == "info"]
    assert [i["depth"] for i in infos] == list(range(1, len(infos) + 1))
    legal = {m["text"] for m in game["legal"]}
    assert all(i["pv"][0] in legal for i in infos)
    assert stream[-1][1]["reason"] == "finished" and stream[0][1]["fen"] == game["fen"]


def test_the_analysis_stops_when_the_position_changes(client):
    gid = client.new()["id"]
    start = time.monotonic()
    seen = []

    def read():
        seen.extend(events(client, f"/api/games/{gid}/analysis?seconds=60"))

    thread = threading.Thread(target=read)
    thread.start()
    time.sleep(0.5)
    client.ok("POST", f"/api/games/{gid}/move", {"move": "c3-d4"})
    thread.join(timeout=30)
    assert seen[-1] == ("done", {"reason": "changed"}) and time.monotonic() - start < 30


def test_the_analysis_stops_when_the_page_goes_away(server, client):
    gid = client.new()["id"]
    events(client, f"/api/games/{gid}/analysis?seconds=60", until=lambda kind, _: kind == "info")
    # the connection is closed: within a few keep-alive beats the search is stopped and its
    # engine given back
    for _ in range(100):
        if server.api.pool.busy == 0:
            break
        time.sleep(0.1)
    assert server.api.pool.busy == 0


def test_the_analysis_of_a_finished_game(client):
    gid = client.new(fen="W:Wa1:Bb2,c3")["id"]
    assert [k for k, _ in events(client, f"/api/games/{gid}/analysis")] == ["position", "done"]


@pytest.mark.parametrize("query", ["seconds=0", "seconds=-1", "seconds=nan", "seconds=x",
                                   "seconds=601", "depth=3", "seconds=1&seconds=2"])
def test_bad_analysis_queries(client, query):
    gid = client.new()["id"]
    client.error("GET", f"/api/games/{gid}/analysis?{query}")


def test_the_endgame_databases_verdict(tmp_path):
    egdb.build("russian", 3, tmp_path)
    server = start(Api(pool=EnginePool(egdb=str(tmp_path))))
    try:
        client = Client(server)
        gid = client.new(fen="W:WKa1,Kc1:Bh8")["id"]         # two kings against a man
        stream = events(client, f"/api/games/{gid}/analysis?seconds=0.3")
        verdict = dict(stream)["egdb"]
        assert verdict["wdl"] == 1 and verdict["dtz"] == 2 and "white wins" in verdict["text"]
        gid = client.new(fen="W:WKc1:BKf8")["id"]            # king against king
        assert dict(events(client, f"/api/games/{gid}/analysis?seconds=0.3"))["egdb"][
            "text"] == "a draw with best play"
        gid = client.new()["id"]                             # not in 3-piece tables
        assert "egdb" not in dict(events(client, f"/api/games/{gid}/analysis?seconds=0.2"))
    finally:
        server.shutdown()
        server.server_close()


def test_a_forced_move_is_analysed_all_the_same(client):
    """(the engine answers a forced move at once when it plays; the analysis goes on)"""
    gid = client.new(fen="W:Wc3:Bd4,h8")["id"]           # c3:e5 is the only move
    infos = [d for k, d in events(client, f"/api/games/{gid}/analysis?seconds=0.3")
             if k == "info"]
    assert len(infos) >= 3


def test_a_refused_body_is_not_read_as_the_next_request(client):
    """A POST refused before its body is read (an unknown route, a method the page's files do
    not take) closes its connection: on a kept-alive one, the body would be read as the next
    request and its answer taken for the next request's."""
    conn = http.client.HTTPConnection(client.host, client.port, timeout=10)
    for path in ("/api/nothing", "/", "/api/games/0123456789abcdef/move"):
        conn.request("POST", path, body=b"GET /api/variants HTTP/1.1\r\nHost: x\r\n\r\n")
        response = conn.getresponse()
        assert response.status in (404, 405) and response.getheader("Connection") == "close"
        assert "error" in json.loads(response.read())
        conn.close()
    # a request answered in full keeps its connection
    conn.request("POST", "/api/games", body=b'{"variant": "russian"}')
    response = conn.getresponse()
    assert response.status == 201 and response.getheader("Connection") is None
    response.read()
    conn.request("GET", "/api/variants")
    assert conn.getresponse().status == 200
    conn.close()
