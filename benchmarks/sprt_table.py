"""The SPRT log as a Markdown table: one row per test of benchmarks/sprt/log.jsonl.

    python benchmarks/sprt_table.py [benchmarks/sprt/log.jsonl]
    python benchmarks/sprt_table.py --readme     # rewrite the table in benchmarks/sprt/README.md

Each line of the log is what `shashki match ... --log FILE` appends: the two engine specs, the
game, the games and their pentanomial counts, the Elo difference with its 95% interval, and
the SPRT's bounds, LLR and decision.
"""

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _elo(value):
    # a number, or "+inf" / "-inf" (a side that won every game)
    return value if isinstance(value, str) else f"{value:+.1f}"


def table(path):
    """The log at `path` as the lines of a Markdown table."""
    lines = ["| A | B | game | games | W-D-L (A) | pentanomial | Elo (95%) | SPRT | LLR | result |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        e = json.loads(line)
        s = e.get("sprt") or {}
        low, high = e["elo95"]
        bounds = f"[{s['elo0']:g}, {s['elo1']:g}]" if s else "-"
        result = {"H1": "accepted", "H0": "rejected", None: "no decision",
                  "stopped": "stopped"}.get(s.get("decision"), "-") if s else "fixed games"
        llr = f"{s['llr']:+.2f}" if s else "-"
        lines.append(f"| {e['a']} | {e['b']} | {e['variant']} | {e['games']} | "
                     f"{'-'.join(map(str, e['wdl']))} | {e['pentanomial']} | "
                     f"{_elo(e['elo'])} ({_elo(low)} .. {_elo(high)}) | {bounds} | "
                     f"{llr} | {result} |")
    return lines


def main(argv):
    readme = "--readme" in argv
    argv = [a for a in argv if a != "--readme"]
    path = Path(argv[0]) if argv else HERE / "sprt" / "log.jsonl"
    rows = table(path)
    if not readme:
        print("\n".join(rows))
        return 0
    # the README's text around its table is kept; the table (its lines starting "|") replaced
    target = HERE / "sprt" / "README.md"
    text = target.read_text(encoding="utf-8").splitlines()
    first = next(i for i, line in enumerate(text) if line.startswith("| A | B |"))
    last = first
    while last < len(text) and text[last].startswith("|"):
        last += 1
    target.write_text("\n".join(text[:first] + rows + text[last:]) + "\n", encoding="utf-8")
    print(f"{len(rows) - 2} rows written to {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
