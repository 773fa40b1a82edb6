"""`shashki hub`: shashki as a Hub engine (Scan's protocol) on stdin/stdout; the protocol's
engine side is shashki.hub.server, its text shashki.hub.text."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from ..hub.server import DEFAULT_HASH_MB, MAX_HASH_MB, HubSession
from ..limits import MAX_THREADS
from ..variants import DEFAULT, VARIANTS
from .args import SubParsers, add_command, add_variant, whole

__all__ = ["add_parser", "cmd_hub"]


# --- the command line ------------------------------------------------------------------------

def add_parser(sub: SubParsers) -> None:
    """Register `shashki hub` on the CLI's subparsers."""
    p = add_command(sub, "hub", cmd_hub, help="speak the Hub protocol (Scan's) on stdin/stdout",
                    description="Run shashki as an engine for draughts GUIs and bots that "
                                "speak the Hub protocol (Scan's, version 2; pydraughts' "
                                "HubEngine, shashki.hub.client), for every game shashki "
                                "plays: 10x10 as Scan, 8x8 as pydraughts.  See "
                                "shashki.hub.text for positions and moves.")
    add_variant(p, "--variant",
                help=f"the game until the GUI sets the variant parameter (default "
                     f"{DEFAULT.name}, or international for a GUI that sends 10x10 positions "
                     f"without setting it): " + ", ".join(v.name for v in VARIANTS))
    p.add_argument("--hash", type=whole("--hash", 1, MAX_HASH_MB), default=DEFAULT_HASH_MB,
                   metavar="MB", help=f"hash table size in MiB (default {DEFAULT_HASH_MB})")
    p.add_argument("--threads", type=whole("--threads", 1, MAX_THREADS), default=1,
                   metavar="N", help="threads of a search with a time limit (default 1; the "
                                     "GUI's threads parameter sets it too)")


def cmd_hub(args: argparse.Namespace, out: TextIO) -> int:
    return HubSession(sys.stdin, out, args.variant, args.hash, args.threads).run()
