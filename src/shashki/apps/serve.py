"""`shashki serve`: play and analyse in a browser (the page and its server: shashki.apps.web).

    shashki serve [--host 127.0.0.1] [--port 8000] [--allow-host NAME] [--open] [--verbose]

Serves until interrupted (Ctrl-C).  The server has no accounts or passwords: it listens on
the loopback address unless told otherwise, and says so when it is not; it answers only the
requests whose Host names it (its address, or a name given by --allow-host), so that no
other site's page can drive it (shashki.apps.web.hosts).
"""

from __future__ import annotations

import argparse
import ipaddress
import re
import sys
from typing import TextIO

from ..limits import shown
from .args import SubParsers, add_command, whole

__all__ = ["add_parser", "cmd_serve", "host"]

#: a host name: labels of letters, digits and hyphens, joined by dots (RFC 1123)
_HOST_NAME = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)(\.(?!-)[A-Za-z0-9-]{1,63}(?<!-))*")


def host(text: str, option: str = "--host") -> str:
    """The type of --host (and of --allow-host, named `option`): an IPv4 or IPv6 address, or
    a host name."""
    address = text.strip()
    try:
        ipaddress.ip_address(address.strip("[]"))
        return address.strip("[]")
    except ValueError:
        pass
    if len(address) <= 253 and _HOST_NAME.fullmatch(address) and not address.isdigit():
        return address
    raise argparse.ArgumentTypeError(f"{option} must be an IP address (127.0.0.1, ::1, 0.0.0.0) "
                                     f"or a host name (localhost), not {shown(text)}")


def add_parser(sub: SubParsers) -> None:
    """Add `shashki serve` to the subcommands of the shashki parser."""
    p = add_command(
        sub, "serve", cmd_serve, help="play and analyse in a web browser",
        description="Serve a board in the browser: every game, against the engine, two "
                    "players on one screen, or engine against engine; move list, take-back, "
                    "FEN and PDN, and the engine's analysis.  Stop it with Ctrl-C.")
    p.add_argument("--host", type=host, default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1: this machine only; "
                        "0.0.0.0 or :: opens it to the network, with no password)")
    p.add_argument("--port", type=whole("--port", 0, 65535), default=8000,
                   help="the port (0-65535; 0: any free port; default 8000)")
    p.add_argument("--allow-host", type=lambda text: host(text, "--allow-host"),
                   action="append", default=[], metavar="NAME",
                   help="a name the server is also reached by (behind a proxy, or a name of "
                        "this machine), with any port; may be given again.  Requests naming "
                        "any other host are refused")
    p.add_argument("--open", action="store_true", help="open the page in a web browser")
    p.add_argument("--verbose", "-v", action="store_true", help="log every request")


def cmd_serve(args: argparse.Namespace, out: TextIO) -> int:
    # the server's modules (http.server and its imports) load only for this command, so the
    # other commands start as fast as before
    from .web import make_server
    try:
        server = make_server(args.host, args.port, verbose=args.verbose,
                             allowed_hosts=args.allow_host)
    except OSError as error:
        raise OSError(f"cannot listen on {args.host} port {args.port}: "
                      f"{error.strerror or error}") from None
    with server:
        # (the warning before the address: whoever reads the address has seen it)
        if not _is_loopback(args.host):
            print("warning: the server is open to the network and anyone who reaches it can "
                  "use it (there is no password)", file=sys.stderr, flush=True)
        print(f"shashki serve: {server.url}  (Ctrl-C to stop)", file=out, flush=True)
        try:
            if args.open:
                import webbrowser   # (only here: it loads the platform's browser list)
                webbrowser.open(server.url)
            server.serve_forever()
        except KeyboardInterrupt:
            print("stopped", file=out)
    return 0


def _is_loopback(name: str) -> bool:
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False
