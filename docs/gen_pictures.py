"""Write the board pictures of the docs (docs/img/*.svg) with shashki.svg.

    python docs/gen_pictures.py [--check]

With --check nothing is written: the exit status is 1 when a picture is missing or differs
from what shashki.svg draws now (tests/test_docs.py runs this check).
"""

import argparse
import sys
from pathlib import Path

import shashki
import shashki.svg

IMG = Path(__file__).resolve().parent / "img"
SIZE = 320


def pictures():
    """{file name: SVG text} of every picture the pages show."""
    out = {}
    for variant in ("russian", "giveaway", "brazilian", "italian", "english"):
        out[f"start-{variant}.svg"] = shashki.svg.board(shashki.Board(variant), size=SIZE)
    # a russian king's capture: it turns on d4 and takes b2 and b6
    board = shashki.Board("russian", fen="W:WKa1,e3,g3,a3,c1:Bb2,e5,f6,Kh4,c7,b6,g7,h8,d8")
    move = board.push("a1:a7")
    out["russian-king-capture.svg"] = shashki.svg.board(board, size=SIZE, last_move=move)
    # italian: the man on 22 may not take the king on 18, and its capture of the man on 19
    # (one piece) gives way to the king's captures of two: 23x5 and 23x21
    board = shashki.Board("italian", fen="W:W22,K23:BK18,19,K10")
    out["italian-position.svg"] = shashki.svg.board(
        board, size=SIZE, arrows=list(board.legal_moves))
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="only check that docs/img is up to date")
    args = parser.parse_args(argv)
    stale = []
    for name, text in pictures().items():
        path = IMG / name
        current = path.read_text(encoding="utf-8") if path.is_file() else None
        if current == text + "\n":
            continue
        stale.append(name)
        if not args.check:
            IMG.mkdir(exist_ok=True)
            path.write_text(text + "\n", encoding="utf-8")
    if args.check and stale:
        print(f"out of date in {IMG}: {', '.join(stale)}; run python {Path(__file__).name}",
              file=sys.stderr)
        return 1
    if not args.check:
        print(f"wrote {len(stale)} picture(s) to {IMG}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
