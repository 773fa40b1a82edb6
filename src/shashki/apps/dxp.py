"""`shashki dxp`: the engine served over DXP, as the follower; the protocol's follower side is
shashki.dxp.server, its messages shashki.dxp.messages.

    shashki dxp [--host 127.0.0.1] [--port 27531] [--movetime S] [--name NAME]
"""

from __future__ import annotations

import argparse
from typing import TextIO

from .. import __version__
from ..dxp.server import DEFAULT_MOVETIME, DEFAULT_PORT, serve
from .args import SubParsers, add_command, seconds, whole

__all__ = ["add_parser", "cmd_dxp"]


# --- the command line ------------------------------------------------------------------------

def add_parser(sub: SubParsers) -> None:
    """Register `shashki dxp` on the CLI's subparsers."""
    p = add_command(sub, "dxp", cmd_dxp, help="serve the engine over DXP (10x10 matches)",
                    description="Serve the engine as a DXP follower: an initiator (Kingsrow, a "
                                "tournament manager, pydraughts' DXPEngine) connects, asks for "
                                "a 10x10 game and plays it move by move.  Stop with Ctrl-C.")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=whole("--port", 0, 65535), default=DEFAULT_PORT,
                   help=f"the port (default {DEFAULT_PORT}; 0: any free port)")
    p.add_argument("--movetime", type=seconds("--movetime"), default=DEFAULT_MOVETIME,
                   metavar="S", help=f"seconds a move when a request gives no time control "
                                     f"(default {DEFAULT_MOVETIME:g})")
    p.add_argument("--name", default="shashki", help="the name sent in GAMEACC")


def cmd_dxp(args: argparse.Namespace, out: TextIO) -> int:
    server = serve(args.host, args.port, name=args.name, movetime=args.movetime)
    host, port = server.socket.getsockname()[:2]
    print(f"shashki {__version__}: DXP on {host}:{port}", file=out, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
