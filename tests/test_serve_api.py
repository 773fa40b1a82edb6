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
JSON = {"Content-Type": "application/json"}
# the start of a POST of JSON to /api/games (HOST: the server's, Client.raw)
POST_JSON = b"POST /api/games HTTP/1.1\r\nHost: HOST\r\nContent-Type: application/json\r\n"


class Client:
    """Requests to one server: request() returns (status, headers, body as JSON or text)."""

    def __init__(self, server):
        self.host, self.port = server.server_address[:2]
        self.authority = f"{self.host}:{self.port}".encode()

    def request(self, method, path, body=None, raw=None, headers=None, timeout=60):
        """(a body is sent as JSON, with its Content-Type, unless `headers` says otherwise)"""
        conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        sent = dict(JSON) if data is not None else {}
        sent.update(headers or {})
        conn.request(method, path, body=data, headers={k: v for k, v in sent.items()
                                                       if v is not None})
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
        """Bytes sent on a socket of their own (HOST in them: the server's host and port);
        the answer's status and JSON body."""
        with socket.create_connection((self.host, self.port), timeout=timeout) as sock:
            sock.sendall(data.replace(b"HOST", self.authority))
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
    status, body = client.raw(POST_JSON + b"Content-Length: "
                              + str(MAX_BODY + 1).encode() + b"\r\n\r\n")
    assert status == 413 and str(MAX_BODY) in body["expected"]
    status, body = client.raw(POST_JSON + b"Content-Length: 99999999999999999999999\r\n\r\n")
    assert status in (400, 413)


@pytest.mark.parametrize("request_bytes, status", [
    (b"GARBAGE\r\n\r\n", 400),
    (b"GET / HTTP/9.9\r\n\r\n", 505),
    (b"BREW /pot HTTP/1.1\r\nHost: HOST\r\n\r\n", 501),
    (b"GET /" + b"a" * 70_000 + b" HTTP/1.1\r\n\r\n", 414),
    (POST_JSON + b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 411),
    (POST_JSON + b"Content-Length: ten\r\n\r\n", 400),
    (POST_JSON + b"Content-Length: 50\r\n\r\n{}", 400),
    (b"GET /api/variants HTTP/1.1\r\nHost: HOST\r\nContent-Length: 2\r\n\r\n{}", 400),
])
def test_malformed_http_gets_json(client, request_bytes, status):
    if request_bytes.endswith(b"{}") and b"50" in request_bytes:
        # a body shorter than its length: the server waits for the rest, then gives up
        with socket.create_connection((client.host, client.port), timeout=10) as sock:
            sock.sendall(request_bytes.replace(b"HOST", client.authority))
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
        conn.request("POST", path, body=b"GET /api/variants HTTP/1.1\r\nHost: HOST\r\n\r\n")
        response = conn.getresponse()
        assert response.status in (404, 405) and response.getheader("Connection") == "close"
        assert "error" in json.loads(response.read())
        conn.close()
    # a request answered in full keeps its connection
    conn.request("POST", "/api/games", body=b'{"variant": "russian"}', headers=JSON)
    response = conn.getresponse()
    assert response.status == 201 and response.getheader("Connection") is None
    response.read()
    conn.request("GET", "/api/variants")
    assert conn.getresponse().status == 200
    conn.close()


# --- requests from elsewhere (issue 30.5, 30.6) ------------------------------------------------

def post_game(client, headers, body=b'{"variant": "russian"}'):
    """The status and JSON body of a raw POST /api/games with `headers` (bytes lines)."""
    return client.raw(b"POST /api/games HTTP/1.1\r\nConnection: close\r\n"
                      + b"".join(h + b"\r\n" for h in headers)
                      + b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)


@pytest.mark.parametrize("headers, status, words", [
    ([b"Host: evil.example", b"Content-Type: application/json"], 403, "evil.example"),
    ([b"Host: evil.example:PORT", b"Content-Type: application/json"], 403, "evil.example"),
    ([b"Host: 127.0.0.1:1", b"Content-Type: application/json"], 403, "127.0.0.1:1"),
    ([b"Host: HOST", b"Origin: http://evil.example", b"Content-Type: text/plain"], 403,
     "evil.example"),
    ([b"Host: HOST", b"Origin: http://evil.example", b"Content-Type: application/json"], 403,
     "evil.example"),
    ([b"Host: HOST", b"Origin: null", b"Content-Type: application/json"], 403, "null"),
    ([b"Host: HOST", b"Origin: https://HOST", b"Content-Type: application/json"], 403, "https"),
    ([b"Content-Type: application/json"], 400, "0 Host headers"),
    ([b"Host: HOST", b"Host: evil.example", b"Content-Type: application/json"], 400,
     "2 Host headers"),
    ([b"Host: HOST", b"Content-Type: text/plain"], 415, "text/plain"),
    ([b"Host: HOST", b"Content-Type: application/x-www-form-urlencoded"], 415, "form"),
    ([b"Host: HOST"], 415, "not given"),
    ([b"Host: HOST", b"Content-Type: application/json", b"Content-Type: text/plain"], 415,
     "text/plain"),
])
def test_requests_of_other_sites_are_refused(server, client, headers, status, words):
    """A page of another site (its Origin, or its own name rebound to this address in the
    Host) cannot create games, nor send anything but JSON; nothing is made."""
    headers = [h.replace(b"PORT", str(client.port).encode()) for h in headers]
    games = len(server.api.store)
    got, body = post_game(client, headers)
    assert got == status and words in body["error"] and body["expected"]
    assert len(server.api.store) == games


@pytest.mark.parametrize("host, origin", [
    (b"HOST", None), (b"localhost:PORT", None), (b"[::1]:PORT", None), (b"LocalHost:PORT", None),
    (b"HOST", b"http://HOST"), (b"localhost:PORT", b"http://127.0.0.1:PORT"),
])
def test_the_names_of_a_loopback_server_are_answered(client, host, origin):
    headers = [b"Host: " + host, b"Content-Type: application/json; charset=utf-8"]
    if origin is not None:
        headers.append(b"Origin: " + origin)
    headers = [h.replace(b"PORT", str(client.port).encode()) for h in headers]
    assert post_game(client, headers)[0] == 201


def test_the_host_rule():
    from shashki.apps.web.hosts import HostRule
    loopback = HostRule("127.0.0.1", 8000)
    assert loopback.allows("localhost:8000") and loopback.allows("[::1]:8000")
    assert not loopback.allows("localhost") and not loopback.allows("10.0.0.1:8000")
    assert not loopback.allows("evil.example:8000") and not loopback.allows("a b:8000")
    every = HostRule("0.0.0.0", 80, ["box.example"])
    assert every.allows("192.168.1.9") and every.allows("[fe80::1]") and every.allows("localhost")
    assert every.allows("box.example:443") and not every.allows("evil.example")
    named = HostRule("my-box.lan", 8000)
    assert named.allows("my-box.lan:8000") and not named.allows("localhost:8000")
    assert HostRule("::1", 8000).allows("[::1]:8000")
    assert every.allows_origin("http://192.168.1.9") and not every.allows_origin("file://")


@pytest.mark.parametrize("lengths", [[b"2", b"500000"], [b"2", b"2"], [b"\xb2"], [b"2\xb9"],
                                     ["\u00b2".encode()], [b"+2"], [b"0x2"],
                                     ["\u0662".encode()]])
def test_a_content_length_is_one_number_of_ascii_digits(client, lengths):
    body = b"{}"
    status, answer = client.raw(POST_JSON + b"".join(b"Content-Length: " + n + b"\r\n"
                                                     for n in lengths) + b"\r\n" + body)
    assert status == 400 and "Content-Length" in answer["error"]
    assert "query" not in answer["error"]


def test_the_page_sends_json_with_its_type():
    """(the page's own POSTs pass the check: api.js sends every body as JSON, with its type)"""
    from importlib import resources
    script = resources.files("shashki.apps.web").joinpath("static/api.js").read_text()
    assert 'init.headers["Content-Type"] = "application/json"' in script


# --- searches nobody waits for (issue 30.7, 30.8) ----------------------------------------------

def wait_until(condition, seconds=10.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def test_an_abandoned_engine_move_is_stopped():
    """Four engine moves of depth 89, each client gone after 0.2 s: the searches stop at
    once, their moves are dropped, and the engines are free for the next player."""
    server = start(Api(pool=EnginePool(egdb=False)))
    try:
        client = Client(server)
        ids = [client.new()["id"] for _ in range(4)]
        body = json.dumps({"limit": {"depth": 89}}).encode()
        for gid in ids:
            with socket.create_connection((client.host, client.port), timeout=10) as sock:
                sock.sendall(b"POST /api/games/" + gid.encode() + b"/engine HTTP/1.1\r\n"
                             b"Host: " + client.authority + b"\r\nContent-Type: "
                             b"application/json\r\nContent-Length: " + str(len(body)).encode()
                             + b"\r\n\r\n" + body)
                time.sleep(0.2)
        assert wait_until(lambda: server.api.pool.busy == 0, 3.0)
        assert all(client.ok("GET", f"/api/games/{gid}")["moves"] == [] for gid in ids)
        assert not any(client.ok("GET", f"/api/games/{gid}")["thinking"] for gid in ids)
        assert client.ok("POST", f"/api/games/{ids[0]}/engine", {"limit": QUICK})["ply"] == 1
    finally:
        server.shutdown()
        server.server_close()


def test_a_depth_alone_searches_for_a_bounded_time():
    from shashki.apps.web.inputs import DEFAULT_MOVETIME, MAX_MOVETIME, Fields
    limit = Fields({"limit": {"depth": 89}}, ("limit",)).limit("limit")
    assert limit.depth == 89 and limit.movetime == DEFAULT_MOVETIME <= 30
    assert Fields({"limit": {"movetime": 600}}, ("limit",)).limit("limit").movetime == \
        MAX_MOVETIME


def test_an_analysis_beyond_the_limit_is_refused_before_its_stream():
    server = start(Api(pool=EnginePool(max_searches=1, egdb=False)))
    try:
        client = Client(server)
        first, second = client.new()["id"], client.new()["id"]
        conn = http.client.HTTPConnection(client.host, client.port, timeout=30)
        conn.request("GET", f"/api/games/{first}/analysis?seconds=30")
        streaming = conn.getresponse()
        assert streaming.status == 200 and streaming.readline().startswith(b"event: position")
        error = client.error("GET", f"/api/games/{second}/analysis?seconds=1", status=429)
        assert "searches" in error["error"]
        streaming.close()
        conn.close()
        assert wait_until(lambda: server.api.pool.busy == 0)
        assert [k for k, _ in events(client, f"/api/games/{second}/analysis?seconds=0.2")][-1] \
            == "done"
    finally:
        server.shutdown()
        server.server_close()


# --- the answers on the wire (issue 30.9, 30.10) -----------------------------------------------

def test_a_kept_alive_connection_answers_at_once(client):
    """No answer waits for the client's delayed ACK (Nagle's algorithm against a second
    send: 40 ms each)."""
    gid = client.new()["id"]
    conn = http.client.HTTPConnection(client.host, client.port, timeout=10)
    times = []
    for number in range(9):
        start = time.perf_counter()
        if number % 2:
            conn.request("POST", f"/api/games/{gid}/goto", body=b'{"ply": 0}', headers=JSON)
        else:
            conn.request("GET", f"/api/games/{gid}")
        response = conn.getresponse()
        response.read()
        assert response.status == 200
        times.append(time.perf_counter() - start)
    conn.close()
    assert sorted(times)[len(times) // 2] < 0.02, times


def test_a_client_that_leaves_early_leaves_no_traceback(capsys):
    server = start(Api(pool=EnginePool(egdb=False)))
    try:
        client = Client(server)
        bad = [b"POST /api/nothing HTTP/1.1\r\nHost: HOST\r\nContent-Length: 5\r\n\r\nhello",
               b"GET /api/games/0123456789abcdef HTTP/1.1\r\nHost: HOST\r\n\r\n",
               b"GET /nothing HTTP/1.1\r\nHost: evil.example\r\n\r\n",
               b"GARBAGE\r\n\r\n", b"GET / HTTP/9.9\r\n\r\n",
               POST_JSON + b"Content-Length: 4\r\n\r\n[1]x"]
        for number in range(60):
            sock = socket.create_connection((client.host, client.port), timeout=10)
            if number % 2:      # an abortive close: the answer meets a reset
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\0\0\0\0\0\0\0")
            sock.sendall(bad[number % len(bad)].replace(b"HOST", client.authority))
            sock.close()
        time.sleep(0.5)
        assert client.ok("GET", "/api/variants")
    finally:
        server.shutdown()
        server.server_close()
    err = capsys.readouterr().err
    assert "Traceback" not in err and "Exception occurred" not in err, err[:2000]


# --- PDN tags that UTF-8 cannot carry (issue 30.11) --------------------------------------------

@pytest.mark.parametrize("fields", [{"pdn": '[Event "\udc00"]\n\n1. c3-d4 *'},
                                    {"pdn": '[White "a\ud800b"]\n\n1. c3-d4 *'},
                                    {"fen": "W:Wa1:Bh8\udfff"}])
def test_a_lone_surrogate_is_refused_at_creation(server, client, fields):
    games = len(server.api.store)
    error = client.error("POST", "/api/games", dict(variant="russian", **fields))
    assert "lone surrogate" in error["error"] and "Unicode" in error["expected"]
    assert len(server.api.store) == games


def test_a_pdn_with_a_surrogate_pair_downloads(client):
    game = client.new(pdn='[Event "club \U0001f600"]\n\n1. c3-d4 *')
    status, _, body = client.request("GET", f"/api/games/{game['id']}/pdn")
    assert status == 200 and '[Event "club \U0001f600"]' in body

