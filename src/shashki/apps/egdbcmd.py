"""`shashki egdb`: build, verify and probe the endgame databases (shashki.egdb).

    shashki egdb build VARIANT PIECES [--dir FOLDER]    retrograde analysis, table by table
    shashki egdb verify VARIANT PIECES [--dir FOLDER]   every position against its successors
    shashki egdb probe VARIANT FEN [--dir FOLDER]       the value and the best move of a position
    shashki egdb info [--dir FOLDER]                    the tables there, per game
"""

from __future__ import annotations

import argparse
from typing import TextIO

from .. import egdb
from ..board import Board
from ..variants import VARIANTS
from .args import SubParsers, add_command, add_variant, whole

__all__ = ["add_parser", "cmd_egdb"]


def add_parser(sub: SubParsers) -> None:
    """Register `shashki egdb` on the CLI's subparsers."""
    p = add_command(sub, "egdb", cmd_egdb, help="endgame databases: build, verify, probe",
                    description="Build the endgame databases of a game by retrograde analysis "
                                "(every position of up to PIECES pieces: win, draw or loss by "
                                "the game's rules and draw rules, and the plies to the next "
                                "capture or man move), check them, or look a position up.  "
                                f"Default folder: {egdb.default_folder()} ($SHASHKI_EGDB).")
    p.add_argument("action", choices=("build", "verify", "probe", "info"))
    p.add_argument("rest", nargs="*", metavar="ARG",
                   help="build/verify: VARIANT PIECES; probe: VARIANT FEN")
    p.add_argument("--dir", metavar="FOLDER", help="where the tables are (default above)")


def cmd_egdb(args: argparse.Namespace, out: TextIO) -> int:
    parser: argparse.ArgumentParser = args.parser
    if args.action == "info":
        if args.rest:
            parser.error("egdb info takes no VARIANT or PIECES")
        folder = egdb.default_folder() if args.dir is None else args.dir
        print(f"endgame databases in {folder}:", file=out)
        found = False
        for variant in VARIANTS:
            if egdb.unsupported(variant):
                continue    # (breakthrough, frisian: no databases, see shashki.egdb)
            tables = egdb.open_tables(variant, args.dir)
            if tables.available:
                found = True
                print(f"  {variant.name}: {len(tables.available)} tables, complete up to "
                      f"{tables.complete_pieces} pieces", file=out)
        if not found:
            print("  none (build them with: shashki egdb build VARIANT PIECES"
                  + ("" if args.dir is None else f" --dir {args.dir}") + ")", file=out)
        return 0
    sub = argparse.ArgumentParser(prog=f"shashki egdb {args.action}")
    add_variant(sub)
    if args.action == "probe":
        sub.add_argument("fen", metavar="FEN")
    else:
        sub.add_argument("pieces", metavar="PIECES", type=whole("PIECES", 2, egdb.MAX_PIECES))
    more = sub.parse_args(args.rest)
    if args.action == "probe":
        board = Board(more.variant, fen=more.fen)
        tables = egdb.open_tables(more.variant, args.dir)
        wdl, dtz = tables.probe(board)
        word = {1: "win", 0: "draw", -1: "loss"}[wdl]
        move = tables.best_move(board) if board.legal_moves else None
        plies = f"{abs(dtz)} {'ply' if abs(dtz) == 1 else 'plies'}"
        print(f"{board.fen()}: {word} for the side to move"
              + (f", {plies} to the next capture or man move" if wdl else "")
              + (f"; best move {move}" if move is not None else ""), file=out)
        return 0
    if args.action == "build":
        def progress(text: str) -> None:
            print(text, file=out)
            out.flush()

        report = egdb.build(more.variant, more.pieces, args.dir, progress=progress)
        print(report, file=out)
        return 0
    tables = egdb.open_tables(more.variant, args.dir, more.pieces)
    checked, bad = tables.verify(more.pieces,
                                 progress=lambda text: print(text, file=out, flush=True))
    print(f"{checked:,} positions checked of {tables.entries(more.pieces):,} entries (the "
          f"other entries are slots of the index that hold no position: a white and a black "
          f"man on one square), {len(bad)} disagree with their successors or are damaged",
          file=out)
    for line in bad:
        print(f"  {line}", file=out)
    return 1 if bad else 0

