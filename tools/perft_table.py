"""Perft of every game's start, depth by depth, each count made twice: the deep table.

    python tools/perft_table.py [--budget SECONDS] [--max-depth N] [--games G ...]
                                [--conventions C ...] [--results FILE] [--hash-mb MB]
                                [--jobs N] [--render]

For every game and both conventions (unique moves, every route) it counts from depth 1
upwards until the next count would take more than --budget seconds (default 600: ten minutes
on this machine), judged from the time the last two depths took.  Each count is made twice
by different routes through the code — the whole tree on one thread with a perft table of
its own, and the tree split into tasks (each a subtree from its own root) over --jobs
threads that share another table — and the two must agree; a disagreement stops the run
with both numbers.  (Two tables, filled in different orders, evict and reuse different
entries: a wrong entry or a wrong split shows as a difference.)

Every finished count goes into --results (default docs/perft-deep.json) as soon as it is
made, written aside and renamed, so the run can stop at any moment and a rerun skips what is
done: it runs in the background across sessions (`nohup python tools/perft_table.py &`).
--render (also done at the end of every run) writes docs/perft-deep.md from the results: the
counts, their times, the machine, and for each count whether a published table has it
(shared/perft/*.perft and records/english.perft: the count must equal it) or it is new.
"""

import argparse
import json
import math
import os
import platform
import sys
import time
from pathlib import Path

import shashki
from shashki import perft as runner

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "docs" / "perft-deep.json"
PAGE = ROOT / "docs" / "perft-deep.md"
CONVENTIONS = ("unique", "paths")
# The third convention, every sequence of landing squares (shashki.perft.landing_perft), is
# counted for the games with a published table in it: turkish, by kish (a Rust library; its
# README, quoted by issue 43).  landing_perft walks the tree in Python, so the published
# table is its second count: each depth is counted once and must equal it where it exists.
LANDINGS = "landings"
LANDING_TABLES = {"turkish": [8, 64, 708, 7538, 85090, 931312, 10782382, 123290300,
                              1454144462, 16991457316, 204403464784, 2455651059292]}


def conventions(game):
    return CONVENTIONS + ((LANDINGS,) if game in LANDING_TABLES else ())


def shared_dir():
    env = os.environ.get("SHASHKI_SHARED")
    return Path(env) if env else ROOT.parent / "shared"


def published_counts():
    """{(game, convention, depth): count} of the published start-position tables."""
    out = {}
    perft = shared_dir() / "perft"
    for path in [*perft.glob("*.perft"), *perft.glob("more/*.perft"),
                 *perft.glob("records/*.perft")]:
        game = fen = None
        for raw in path.read_text(encoding="utf-8").splitlines():
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            key, _, rest = line.partition(" ")
            if key == "id":
                game = fen = None
            elif key == "variant":
                game = rest.strip()
            elif key == "fen":
                fen = rest.strip()
            elif key in ("perft", "paths") and game is not None:
                if fen is not None and fen != shashki.get_variant(game).start_fen:
                    continue        # a position other than the start
                depth, count = rest.split()
                convention = "unique" if key == "perft" else "paths"
                out[(game, convention, int(depth))] = int(count)
    for game, counts in LANDING_TABLES.items():
        for depth, count in enumerate(counts, 1):
            out[(game, LANDINGS, depth)] = count
    return out


def load(path):
    if path.exists():
        return json.loads(path.read_text(encoding="utf-8"))
    return {"counts": []}


def save(path, results):
    aside = path.with_suffix(path.suffix + ".tmp")
    aside.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(aside, path)


def machine():
    info = shashki.build_info()
    return f"{platform.machine()}, {os.cpu_count()} cores, kernels {info['code_path']}"


def count_twice(game, convention, depth, hash_mb, jobs):
    """(count, CPU seconds hashed, wall seconds split): the two counts must agree.  Every
    landing sequence: (count, CPU seconds, 0), the count equal to the published one if any."""
    position = shashki.Position(game)
    if convention == LANDINGS:
        started = time.process_time()
        count = runner.landing_perft(position, depth)
        known = published_counts().get((game, LANDINGS, depth))
        if known is not None and known != count:
            sys.exit(f"{game} {convention} depth {depth}: counted {count}, published {known}")
        return count, time.process_time() - started, 0.0
    paths = convention == "paths"
    started = time.process_time()
    table = runner.PerftTable(hash_mb, shared=False) if hash_mb else None
    hashed = position.count(depth, paths, table)
    hashed_seconds = time.process_time() - started
    result = runner.run(position, depth, paths, jobs=jobs, hash_mb=hash_mb)
    if result.nodes != hashed:
        sys.exit(f"{game} {convention} depth {depth}: the hashed walk counts {hashed}, the "
                 f"split one {result.nodes}")
    return hashed, hashed_seconds, result.seconds


def next_estimate(rows):
    """The seconds the next depth should take, from the last two (both counts' time)."""
    if len(rows) < 2:
        return 0.0
    a, b = rows[-2], rows[-1]
    last = b["seconds_hashed"] + b["seconds_split"]
    before = a["seconds_hashed"] + a["seconds_split"]
    if before <= 0.05:
        return last * 10
    return last * max(last / before, 1.0)


def run(args):
    results = load(args.results)
    games = args.games or [v.name for v in shashki.VARIANTS]
    where = machine()
    for game in games:
        for convention in conventions(game):
            if args.conventions and convention not in args.conventions:
                continue
            rows = sorted((r for r in results["counts"]
                           if r["game"] == game and r["convention"] == convention),
                          key=lambda r: r["depth"])
            depth = rows[-1]["depth"] + 1 if rows else 1
            while args.max_depth is None or depth <= args.max_depth:
                if next_estimate(rows) > args.budget:
                    break
                count, hashed, split = count_twice(game, convention, depth, args.hash_mb,
                                                   args.jobs)
                row = {"game": game, "convention": convention, "depth": depth, "count": count,
                       "seconds_hashed": round(hashed, 3), "seconds_split": round(split, 3),
                       "machine": where}
                results["counts"].append(row)
                rows.append(row)
                save(args.results, results)
                print(f"{game:13} {convention:8} {depth:3} {count:>26,} "
                      f"{hashed:9.2f} s hashed {split:9.2f} s split", flush=True)
                depth += 1
    render(results, args.page)


def render(results, page):
    published = published_counts()
    out = ["# Deep perft table",
           "",
           "Every game's start counted depth by depth by `tools/perft_table.py`, each count made "
           "twice — the whole tree on one thread with a perft table, and the tree split into "
           "tasks over threads that share another — and the two equal. A depth is counted while the previous ones suggest it takes at most "
           "the run's budget (ten minutes by default). *published* means a published table has "
           "the count and it is equal (shared/perft: the start tables, and the english records "
           "of OEIS A133046; for turkish's every landing sequence, kish's table, which is that "
           "count's second: it is counted once, in Python); *new* means no published count of "
           "that depth was found.",
           "",
           "*Generated from docs/perft-deep.json by `python tools/perft_table.py --render`; do "
           "not edit by hand.*",
           ""]
    rows = results["counts"]
    for game in dict.fromkeys(r["game"] for r in rows):
        by = {(r["convention"], r["depth"]): r for r in rows if r["game"] == game}
        shown = [c for c in conventions(game) if c in CONVENTIONS or (c, 1) in by]
        out += [f"## {game.capitalize()}", "",
                "| depth | unique moves | | every route | |"
                + (" every landing sequence | |" if LANDINGS in shown else ""),
                "|---:" + "|---:|:--" * len(shown) + "|"]
        for depth in sorted({d for _, d in by}):
            cells = [str(depth)]
            for convention in shown:
                r = by.get((convention, depth))
                if r is None:
                    cells += ["", ""]
                    continue
                known = published.get((game, convention, depth))
                if known is not None and known != r["count"]:
                    mark = f"**differs from the published {known:,}**"
                else:
                    mark = "published" if known is not None else "new"
                seconds = r["seconds_hashed"] + r["seconds_split"]
                cells += [f"{r['count']:,}", f"{mark}, {seconds:,.1f} s"]
            out.append("| " + " | ".join(cells) + " |")
        machines = sorted({r["machine"] for r in rows if r["game"] == game})
        out += ["", "Machine: " + "; ".join(machines) + ".", ""]
    page.write_text("\n".join(out).rstrip("\n") + "\n", encoding="utf-8")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", type=float, default=600.0,
                        help="seconds the next depth may take, both counts (default 600)")
    parser.add_argument("--max-depth", type=int, default=None,
                        help="no deeper than this, whatever the budget")
    parser.add_argument("--games", nargs="*", help="the games (default: all)")
    parser.add_argument("--conventions", nargs="*", choices=CONVENTIONS + (LANDINGS,),
                        help="the conventions (default: all of each game's)")
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--page", type=Path, default=PAGE)
    parser.add_argument("--hash-mb", type=float, default=512.0,
                        help="the hashed count's perft table (MiB; default 512)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="threads of the split count (default: all cores)")
    parser.add_argument("--render", action="store_true", help="only write the page")
    args = parser.parse_args(argv)
    if not math.isfinite(args.budget) or args.budget <= 0:
        parser.error("--budget must be a number of seconds above 0")
    if args.render:
        render(load(args.results), args.page)
    else:
        run(args)


if __name__ == "__main__":
    main()
