"""`shashki serve`: a board in the browser, served by the standard library alone.

    >>> from shashki.apps.web import make_server
    >>> server = make_server("127.0.0.1", 0)        # port 0: any free port
    >>> server.url.startswith("http://127.0.0.1:")
    True
    >>> server.server_close()

The page (static/: plain HTML, CSS and JavaScript modules, no build step, nothing fetched from
the network) draws the board, takes moves by click or drag, and asks the server for everything
about the rules: each position's legal moves come with their full routes, so the page never
re-derives a game's rules.  The server keeps each game's state (games.GameSession) by id,
checks every request (inputs, api) and answers JSON; the engine searches in worker threads
(the kernels release the GIL), and the analysis streams each depth as server-sent events
(analysis).

Modules: `server` (HTTP), `api` (the routes), `inputs` (checking what requests carry),
`games` (the games' state, the engines lent to searches), `views` (the JSON of a game),
`analysis` (the event stream), `errors` (RequestError), `hosts` (the Host and Origin a
request may name).
"""

from __future__ import annotations

from typing import Iterable

from .api import Api
from .errors import RequestError
from .server import WebServer

__all__ = ["Api", "RequestError", "WebServer", "make_server"]


def make_server(host: str = "127.0.0.1", port: int = 8000, *, verbose: bool = False,
                allowed_hosts: Iterable[str] = ()) -> WebServer:
    """A server bound to `host`:`port` (0: a free port; `server.url` says which), not yet
    serving: call its serve_forever(), and shutdown() from another thread to end it.  It
    answers the requests that name it in their Host (`allowed_hosts`: more names it may go
    by, shashki.apps.web.hosts).  Raises OSError when the address cannot be bound."""
    return WebServer((host, port), verbose=verbose, allowed_hosts=allowed_hosts)
