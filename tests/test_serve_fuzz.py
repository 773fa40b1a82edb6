"""Fuzzing `shashki serve` (issue 30): a seeded run of malformed and almost-right requests
against a server in a thread, bounded in count (300 requests, a second or two)."""

import json
import random
import socket

from shashki.apps.web import Api
from shashki.apps.web.games import EnginePool

from test_serve_api import Client, start

def _fuzz_request(rng, client, gid):
    """One random request, mostly almost right: a route, headers and a body each perhaps
    wrong in one of the ways a client gets them wrong."""
    method = rng.choice(["GET"] * 3 + ["POST"] * 5 + ["HEAD", "PUT", "get"])
    action = rng.choice(["", "/move", "/engine", "/undo", "/goto", "/claim", "/pdn",
                         "/analysis", "/nothing", "/../x"])
    path = rng.choice([f"/api/games/{gid}{action}", "/api/games", "/api/variants", "/",
                       "/api/setup",
                       "/static/app.js", f"/api/games/{'f' * 16}{action}",
                       "/api/games/%00", "/api/" + "a/" * rng.randint(0, 40)])
    if rng.random() < 0.3:
        path += "?" + rng.choice(["seconds=0.05", "seconds=nan", "white=%ff", "a=1&" * 30,
                                  "black=" + "x" * 200, "seconds=0.05&seconds=1", "%"])
    value = rng.choice([None, True, -1, 0, 1, 2, 2 ** 70, 0.5, float("inf"), "c3-d4",
                        "\udc00", "x" * 300, [], {}, {"depth": rng.randint(0, 4)},
                        {"movetime": rng.choice([0.05, -1, 1e9, "1"])}, "W:Wa1:Bh8",
                        "[Event \"\udc00\"]\n1. c3-d4 *", "1. c3-d4 f6-g5 *",
                        "white man", "black king", "empty", "black", 31, 63])
    # (and the set-up's fields, issue 33.2)
    fields = {rng.choice(["variant", "fen", "pdn", "move", "limit", "plies", "ply",
                          "version", "colour", "square", "piece", "cycle", "turn",
                          "clear"]): value for _ in range(rng.randint(0, 3))}
    try:
        body = json.dumps(fields).encode("utf-8", "surrogatepass")
    except ValueError:
        body = b"{}"
    body = rng.choice([body, body, b"", b"{", b"\xff\xfe", b"[" * 5000, body + b"junk"])
    host = rng.choice([client.authority] * 6 + [b"evil.example", b"localhost:1", b""])
    headers = [b"Host: " + host] if host else []
    if rng.random() < 0.05:
        headers.append(b"Host: " + client.authority)
    if rng.random() < 0.1:
        headers.append(b"Origin: " + rng.choice([b"http://" + client.authority, b"null",
                                                 b"http://evil.example"]))
    if method == "POST" or rng.random() < 0.1:
        headers.append(b"Content-Type: " + rng.choice([b"application/json"] * 4 +
                                                      [b"text/plain", b"application/JSON"]))
    length = rng.choice([len(body), len(body), 0, max(len(body) - 1, 0)])
    if body or rng.random() < 0.5:
        headers.append(b"Content-Length: " + rng.choice([str(length).encode()] * 8 +
                                                        [b"\xb2", b"-1", b"1 2"]))
    if rng.random() < 0.05:
        headers.append(b"Content-Length: 0")
    return (method.encode() + b" " + path.encode("utf-8", "surrogatepass") + b" HTTP/1.1\r\n"
            + b"Connection: close\r\n" + b"".join(h + b"\r\n" for h in headers) + b"\r\n"
            + body[:length])


def test_fuzzing_the_server_gets_answers_never_failures(capsys):
    """A seeded run of malformed and almost-right requests: each gets a whole answer with a
    status (no 5xx but http.server's 501 and 505), JSON where it is an error, and the server
    logs no traceback and goes on serving."""
    server = start(Api(pool=EnginePool(egdb=False)))
    try:
        client = Client(server)
        gid = client.new()["id"]
        rng = random.Random(30)
        for number in range(300):
            data = _fuzz_request(rng, client, gid)
            with socket.create_connection((client.host, client.port), timeout=30) as sock:
                sock.sendall(data)
                answer = b""
                while chunk := sock.recv(65536):
                    answer += chunk
            head, _, body = answer.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1."), (number, data[:300], answer[:300])
            status = int(head.split()[1])
            assert status < 500 or status in (501, 505), (number, data[:300], answer[:300])
            if status >= 400 and not data.startswith(b"HEAD"):
                assert "error" in json.loads(body), (number, data[:300], answer[:300])
        assert client.ok("GET", "/api/variants") and server.api.pool.busy == 0
    finally:
        server.shutdown()
        server.server_close()
    err = capsys.readouterr().err
    assert "Traceback" not in err, err[:3000]
