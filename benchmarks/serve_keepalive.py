"""How long `shashki serve` takes to answer a request on a kept-alive connection, and on a new
connection per request.

    python benchmarks/serve_keepalive.py [--requests 200]

The figure of docs/serve.md.  A server in a thread of this process (on a free loopback port);
each request is a GET of a game's state and a POST of a move and its take-back, timed from
the request's first byte to its answer's last.  Milliseconds per request: the median and the
90th percentile, for both kinds of connection.
"""

import argparse
import http.client
import json
import statistics
import threading
import time

from shashki.apps.web import Api, WebServer
from shashki.apps.web.games import EnginePool

JSON = {"Content-Type": "application/json"}


def timed(conn, method, path, body=None):
    start = time.perf_counter()
    conn.request(method, path, body=None if body is None else json.dumps(body),
                 headers=JSON if body is not None else {})
    response = conn.getresponse()
    response.read()
    assert response.status in (200, 201), response.status
    return (time.perf_counter() - start) * 1000


def requests(gid):
    return [("GET", f"/api/games/{gid}", None),
            ("POST", f"/api/games/{gid}/move", {"move": "c3-d4"}),
            ("POST", f"/api/games/{gid}/undo", {})]


def measure(host, port, count, keep_alive):
    conn = http.client.HTTPConnection(host, port, timeout=10)
    conn.request("POST", "/api/games", body=json.dumps({"variant": "russian"}), headers=JSON)
    gid = json.loads(conn.getresponse().read())["id"]
    times = []
    for number in range(count):
        method, path, body = requests(gid)[number % 3]
        if not keep_alive:
            conn.close()
            conn = http.client.HTTPConnection(host, port, timeout=10)
        times.append(timed(conn, method, path, body))
    conn.close()
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    server = WebServer(("127.0.0.1", 0), Api(pool=EnginePool(egdb=False)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    host, port = server.server_address[:2]
    try:
        for keep_alive in (True, False):
            times = measure(host, port, args.requests, keep_alive)
            kind = "kept-alive connection" if keep_alive else "new connection each"
            print(f"{kind:>22}: median {statistics.median(times):.2f} ms, 90% under "
                  f"{statistics.quantiles(times, n=10)[-1]:.2f} ms ({len(times)} requests)")
    finally:
        server.shutdown()
        server.server_close()


if __name__ == "__main__":
    main()
