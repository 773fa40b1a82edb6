"""The HTTP side of `shashki serve`: the standard library's threading server, one thread per
connection, answering the page's files and the JSON routes of shashki.apps.web.api.

Every answer to a bad request is JSON (``{"error", "expected"}``) with a 4xx status, from the
request line up: http.server's own errors (a malformed request line, a header too long, a
method it does not know) go through send_error, which writes JSON here too.  A request that
breaks the server anyway gets a 500 with a JSON body, and the traceback goes to the server's
log only.  A client that goes away before its answer is no error: nothing is logged.

Only requests for this server are answered: its Host, and its Origin where it has one, must
name the server as it was bound (shashki.apps.web.hosts), and a POST must carry JSON, so that
no other site's page can drive it.  Each answer is written in one piece, on a socket without
Nagle's delay (TCP_NODELAY), so that a kept-alive connection answers as fast as a new one.
"""

from __future__ import annotations

import ipaddress
import json
import re
import select
import socket
import sys
import traceback
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any, Dict, Iterable, List, Optional, Tuple
from urllib.parse import parse_qs, urlsplit

from ...limits import shown
from .analysis import Analysis, event
from .api import Api, Download, EngineMove, JsonReply
from .errors import RequestError
from .hosts import HostRule
from .inputs import MAX_BODY, read_json

__all__ = ["Handler", "WebServer", "STATIC_TYPES"]

#: the page's files by extension, and their types
STATIC_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}
#: a page that loads nothing but its own files, and runs no script written into it
_POLICY = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
           "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
#: seconds a connection may stay silent while a request is read (or between requests)
READ_TIMEOUT = 60
#: the bytes of an answer gathered before they are sent: the answers of the API fit, so each
#: goes in one send (an idle connection holds this much)
WRITE_BUFFER = 16 * 1024
#: the errors of a connection whose client has gone away (or never finished its request)
CLIENT_GONE = (ConnectionError, TimeoutError)
# a Content-Length: ASCII digits only (str.isdigit takes '²' too)
_DIGITS = re.compile(r"[0-9]{1,20}")


def _static_files() -> Dict[str, Tuple[bytes, str]]:
    """The page's files (shashki/apps/web/static), read once: {name: (bytes, type)}."""
    files: Dict[str, Tuple[bytes, str]] = {}
    for entry in resources.files(__package__).joinpath("static").iterdir():
        suffix = "." + entry.name.rpartition(".")[2]
        if entry.is_file() and suffix in STATIC_TYPES:
            files[entry.name] = (entry.read_bytes(), STATIC_TYPES[suffix])
    return files


class WebServer(ThreadingHTTPServer):
    """The server: its Api (the games) and the page's files; `verbose` logs each request."""

    daemon_threads = True

    def __init__(self, address: Tuple[str, int], api: Optional[Api] = None,
                 verbose: bool = False, allowed_hosts: Iterable[str] = ()) -> None:
        host = address[0]
        try:
            if ipaddress.ip_address(host.strip("[]")).version == 6:
                self.address_family = socket.AF_INET6
                address = (host.strip("[]"), address[1])
        except ValueError:          # a name, such as localhost: IPv4
            pass
        self.api = api or Api()
        self.verbose = verbose
        self.files = _static_files()
        super().__init__(address, Handler)
        # (after binding: port 0 has become the port chosen)
        self.hosts = HostRule(host, self.server_address[1], allowed_hosts)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A request that failed outside the handler's own checks: its traceback in the log,
        unless the client just went away."""
        if not isinstance(sys.exc_info()[1], CLIENT_GONE):
            super().handle_error(request, client_address)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        if isinstance(host, bytes):     # (typeshed allows it; sockets give str)
            host = host.decode()
        shown_host = f"[{host}]" if ":" in host else host
        return f"http://{shown_host}:{port}/"


class Handler(BaseHTTPRequestHandler):
    """One connection's requests."""

    server: WebServer
    body_read: bool                     # the request's body has been read
    protocol_version = "HTTP/1.1"       # keep-alive: every answer has its length
    server_version = "shashki-serve"
    timeout = READ_TIMEOUT
    wbufsize = WRITE_BUFFER

    def setup(self) -> None:
        super().setup()
        # an answer is one write, flushed at once: Nagle's algorithm would only hold back the
        # end of one that does not fit in a packet (until the client's delayed ACK, 40 ms)
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    # --- methods -------------------------------------------------------------------------------

    # (any other method gets http.server's 501, through send_error: JSON too)

    def do_GET(self) -> None:
        self._answer("GET")

    def do_POST(self) -> None:
        self._answer("POST")

    def do_HEAD(self) -> None:
        self._answer("HEAD")

    # --- answering -----------------------------------------------------------------------------

    def _answer(self, method: str) -> None:
        self.body_read = False
        try:
            try:
                self._check_host()
                url = urlsplit(self.path)
                parts = [part for part in url.path.split("/") if part]
                query = _query(url.query)
                if parts[:1] == ["api"]:
                    self._api(method, parts[1:], query)
                else:
                    self._file(method, parts, query)
            except RequestError as error:
                self._unread_body()
                self._json(error.status, error.body())
            except CLIENT_GONE:
                raise
            except Exception:
                traceback.print_exc(file=sys.stderr)
                self.close_connection = True
                self._json(500, {"error": "the server failed on this request (a bug: its "
                                          "log has the details)"})
        except CLIENT_GONE:
            self.close_connection = True    # the page went away: nobody to answer

    def _check_host(self) -> None:
        """RequestError unless the request's Host (and Origin) name this server: any other
        is a page of another site (or a name of one rebound to this address)."""
        rule = self.server.hosts
        hosts = self.headers.get_all("Host") or []
        if len(hosts) != 1:
            raise RequestError(400, f"the request has {len(hosts)} Host headers",
                               "one Host header")
        if not rule.allows(hosts[0]):
            raise RequestError(403, f"the request is for the host {shown(hosts[0])}, not "
                                    f"this server", rule.expected())
        origins = self.headers.get_all("Origin") or []
        if len(origins) > 1 or (origins and not rule.allows_origin(origins[0])):
            raise RequestError(403, f"the request comes from a page of "
                                    f"{shown(', '.join(origins))}, not of this server",
                               rule.expected())

    def _api(self, method: str, parts: List[str], query: Dict[str, List[str]]) -> None:
        api = self.server.api
        handler, game = api.route(method, parts)
        if method == "POST":
            self._check_json()
        body = self._body() if method == "POST" else None
        if method != "POST" and self._length():
            self.close_connection = True    # the body is left unread
            raise RequestError(400, f"a {method} request has no body", "no body")
        reply = handler(api, game, read_json(body) if body is not None else None, query)
        if isinstance(reply, EngineMove):
            reply = reply.run(self._client_gone)
        if isinstance(reply, Analysis):
            self._stream(reply)
        elif isinstance(reply, Download):
            self._send(200, reply.text.encode("utf-8"), reply.content_type, {
                "Content-Disposition": f'attachment; filename="{reply.filename}"'})
        else:
            assert isinstance(reply, JsonReply)
            self._json(reply.status, reply.body)

    def _file(self, method: str, parts: List[str], query: Dict[str, List[str]]) -> None:
        if method not in ("GET", "HEAD"):
            raise RequestError(405, f"{method} is not allowed on the page's files", "GET")
        name = "index.html" if not parts else parts[1] if len(parts) == 2 and \
            parts[0] == "static" else None
        found = self.server.files.get(name) if name else None
        if found is None:
            raise RequestError(404, f"no page {shown(self.path)}",
                               "/ (the board), /static/FILE, or /api/...")
        self._send(200, found[0] if method == "GET" else b"", found[1],
                   {"Cache-Control": "no-cache"}, length=len(found[0]))

    def _stream(self, analysis: Analysis) -> None:
        """Server-sent events until the analysis ends; the connection closes after it (an
        event stream has no length).  A refusal (no engine free) comes before the stream's
        headers, as an answer of its own; a failure after them is an ``error`` event."""
        self.close_connection = True
        begun = False

        def begin() -> None:
            nonlocal begun
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream; charset=utf-8")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Connection", "close")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.end_headers()
            begun = True

        def write(text: str) -> None:
            self.wfile.write(text.encode("utf-8"))
            self.wfile.flush()
        try:
            analysis.run(begin, write)
        except Exception as error:
            if not begun:
                raise           # answered as any request's error
            if not isinstance(error, OSError):      # (OSError: the page went away)
                traceback.print_exc(file=sys.stderr)
                self._last_event(event("error", {"error": "the analysis failed (a bug: the "
                                                          "server's log has the details)"}))

    def _last_event(self, text: str) -> None:
        try:
            self.wfile.write(text.encode("utf-8"))
            self.wfile.flush()
        except OSError:
            pass

    def _client_gone(self) -> bool:
        """Whether the client has closed its connection (read while its answer is being
        made: the request has been read, so anything readable is the next one, or the
        end)."""
        try:
            readable, _, _ = select.select([self.connection], [], [], 0)
            return bool(readable) and self.connection.recv(1, socket.MSG_PEEK) == b""
        except (OSError, ValueError):
            return True

    # --- the request's body --------------------------------------------------------------------

    def _check_json(self) -> None:
        """RequestError 415 unless a POST says its body is JSON: a page of another site can
        send a form or text without asking the browser's leave, never JSON."""
        kinds = self.headers.get_all("Content-Type") or []
        media = kinds[0].partition(";")[0].strip().lower() if len(kinds) == 1 else None
        if media != "application/json":
            raise RequestError(415, f"the body's Content-Type is "
                                    f"{shown(', '.join(kinds)) if kinds else 'not given'}",
                               "Content-Type: application/json")

    def _unread_body(self) -> None:
        """A request refused before its body was read: the connection closes after the
        answer, or the body would be read as the next request."""
        if not self.body_read and (self.headers.get("Content-Length", "0").strip() != "0" or
                                   self.headers.get("Transfer-Encoding")):
            self.close_connection = True

    def _length(self) -> int:
        if self.headers.get("Transfer-Encoding"):
            self.close_connection = True
            raise RequestError(411, "a body sent in chunks (Transfer-Encoding) is not read",
                               "a body with a Content-Length")
        lengths = self.headers.get_all("Content-Length") or []
        if not lengths:
            return 0
        if len(lengths) > 1:
            # which one a proxy on the way believed cannot be known: the body is unread
            self.close_connection = True
            raise RequestError(400, f"the request has {len(lengths)} Content-Length headers",
                               "one Content-Length")
        text = lengths[0]
        if not _DIGITS.fullmatch(text.strip(" \t")):
            self.close_connection = True
            raise RequestError(400, f"Content-Length is {shown(text)}",
                               "a Content-Length of ASCII digits")
        return int(text)

    def _body(self) -> bytes:
        length = self._length()
        if length > MAX_BODY:
            # the body is left unread: the connection cannot be used again
            self.close_connection = True
            raise RequestError(413, f"the body is {length} bytes long",
                               f"a body of at most {MAX_BODY} bytes")
        body = self.rfile.read(length)
        self.body_read = True
        if len(body) < length:
            self.close_connection = True
            raise RequestError(400, f"the body ended after {len(body)} of its {length} bytes",
                               "as many bytes as Content-Length says")
        return body

    # --- writing -------------------------------------------------------------------------------

    def _json(self, status: int, body: Any) -> None:
        self._send(status, json.dumps(body).encode("utf-8"), "application/json")

    def _send(self, status: int, data: bytes, content_type: str,
              headers: Optional[Dict[str, str]] = None, length: Optional[int] = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data) if length is None else length))
        self.send_header("X-Content-Type-Options", "nosniff")
        if content_type.startswith("text/html"):
            self.send_header("Content-Security-Policy", _POLICY)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()      # the headers and the body together, in one send

    def send_error(self, code: int, message: Optional[str] = None,
                   explain: Optional[str] = None) -> None:
        """http.server's own errors (a malformed request line, a header too long, a method
        without a do_ method), as JSON."""
        self.log_error("code %d, message %s", code, message)
        self.close_connection = True
        # a request line that is not HTTP is taken for HTTP/0.9, whose answers have no status
        # line: this answer has one all the same, so that the client can tell what happened
        if self.request_version == "HTTP/0.9":
            self.request_version = "HTTP/1.0"
        status = HTTPStatus(code)
        body = {"error": message or status.phrase,
                "expected": "an HTTP/1.1 request: GET or POST, short headers"}
        data = json.dumps(body).encode("utf-8")
        self.send_response(code, message)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD" and code >= 200 and code not in (204, 304):
            self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        if self.server.verbose:
            super().log_message(format, *args)


def _query(text: str) -> Dict[str, List[str]]:
    """The parameters of a query string (a few: RequestError beyond 20)."""
    try:
        return parse_qs(text, keep_blank_values=True, max_num_fields=20)
    except ValueError as error:
        raise RequestError(400, f"bad query string: {error}",
                           "a few name=value parameters") from None
