"""Frisian's start-position perft in the peers, against the published table (unconfirmed).

shashki does not play frisian; ../shared/perft/more/games.perft holds a table for its start
("frisian-start") that its own comment calls unconfirmed.  RULES.md asks for it to be checked
against pydraughts and py-draughts and a disagreement reported, not tuned to.  This prints,
for each depth, the published count and each peer's, in the unique-move convention the table
uses (each worker merges its library's list per node by move identity: pydraughts lists every
route, and py-draughts' frisian board two routes of one move twice) and each library's own
count beside it (pydraughts': the paths convention)::

    python benchmarks/frisian_perft.py [--max-depth 6] [--peers pydraughts,py-draughts]
                                       [--json out.json]

Both peers run in their venvs (peers.ensure_venv).  Stdlib only.  A pydraughts count at
depth 6 takes a few minutes (it copies the board for every jump).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from peers import PeerTimeout, peer_perft, read_perft_file  # noqa: E402

#: (peer, convention asked for): "unique" merged per node, None the library's own list
COLUMNS = (("pydraughts", "unique"), ("py-draughts", "unique"), ("pydraughts", None),
           ("py-draughts", None))


def published(shared: Path) -> dict:
    """{depth: count} of the frisian-start block."""
    for block in read_perft_file(shared / "perft" / "more" / "games.perft"):
        if block["id"] == "frisian-start":
            return block["unique"]
    raise LookupError("no frisian-start block in perft/more/games.perft")


def rows(max_depth: int, table: dict, timeout: float | None, columns=COLUMNS):
    """One dict per depth: the published count and each column's, with the peer's notes."""
    stopped = set()
    for depth in range(1, max_depth + 1):
        row = {"depth": depth, "published": table.get(depth)}
        for peer, convention in columns:
            key = f"{peer} {convention or 'own'}"
            if key in stopped:
                row[key] = None
                continue
            try:
                reply = peer_perft(peer, "frisian", None, depth, timeout=timeout,
                                   convention=convention)
            except PeerTimeout:
                stopped.add(key)  # deeper is only slower
                row[key] = None
                continue
            assert convention is None or reply["convention"] == convention, reply
            row[key] = reply["count"]
            if reply["notes"]:
                row[f"{key} notes"] = reply["notes"]
        yield row


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--max-depth", type=int, default=6)
    ap.add_argument("--timeout", type=float, default=1800, help="seconds per count")
    ap.add_argument("--shared", type=Path, default=HERE.parent.parent / "shared")
    ap.add_argument("--json", type=Path, help="also write the rows here")
    ap.add_argument("--peers", default="pydraughts,py-draughts",
                    help="comma-separated (py-draughts alone reaches depth 9 in minutes)")
    args = ap.parse_args(argv)
    table = published(args.shared)
    columns = [(p, c) for p, c in COLUMNS if p in args.peers.split(",")]
    header = ["depth", "published"] + [f"{p} {c or 'own'}" for p, c in columns]
    print("  ".join(f"{h:>20}" for h in header), flush=True)
    out = []
    for row in rows(args.max_depth, table, args.timeout, columns):
        out.append(row)
        cells = [row.get(h) for h in header]
        marks = []
        for p, c in columns:
            if c != "unique":
                continue
            count = row[f"{p} {c}"]
            if count is not None and row["published"] is not None and count != row["published"]:
                marks.append(f"{p} differs by {count - row['published']:+d}")
        print("  ".join(f"{'-' if v is None else v:>20}" for v in cells)
              + ("   " + "; ".join(marks) if marks else ""), flush=True)
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
