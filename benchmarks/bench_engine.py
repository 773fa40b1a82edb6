"""Engine benchmark: shashki's engine against py-draughts' SimpleEngine, and its search speed.

    python benchmarks/bench_engine.py              # 40 games per game type, 0.2 s/move (~15 min)
    python benchmarks/bench_engine.py --quick      # 4 games per game type, smoke test
    python benchmarks/bench_engine.py --games 60 --movetime 0.1 --json out.json

Issue 5's first "done when": shashki scores at least 90% over at least 40 games per game type
against py-draughts' SimpleEngine (py-draughts==1.10.1 in its own venv, see peers.py) on
russian and brazilian, from the micro-match opening tables, each opening twice with colours
swapped, the same time per move for both.  English is left out: py-draughts' American board
lets captures be skipped, so it does not play english.  py-draughts has no italian or 8x8
giveaway board.

The games go through shashki.apps.match (the same adjudication as `shashki match`: Board.outcome(),
and a draw at the cap of --max-moves moves each).  py-draughts runs as a long-lived worker
(peers/py_draughts_player.py) speaking JSON lines.  At each of its moves the bench compares
py-draughts' legal move list with shashki's (a rule deviation is counted and shown), and maps
its chosen move back to a shashki move; a move shashki thinks illegal is counted, logged, and
replaced by py-draughts' next listed move that is legal, so py-draughts is never forfeited for
it (the report says in which games it happened).

"Equal time per move": both get --movetime seconds a move (SimpleEngine's time_limit, shashki's
movetime).  Neither uses exactly that -- shashki starts no iteration it does not expect to
finish, SimpleEngine looks at the clock only every 2048 nodes -- so the table reports the time
each side actually spent per move, measured around the search call, in wall-clock seconds and
in CPU seconds of the searching process (on a loaded machine the two part ways).

Then, for all five games, shashki's search from the start position with a hard 1 s limit (wall
clock): the deepest iteration completed within the second, and nodes per second (per wall and
per CPU second).

The machine is shared and noisy: the load average is printed with the results.
"""

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import shashki  # noqa: E402
from shashki.engine import MAX_DEPTH, Engine  # noqa: E402
from shashki.apps.match import choose_openings, match  # noqa: E402
from shashki.geometry import EIGHT  # noqa: E402

from peers import PEERS, PeerError, ensure_venv, parse_fen  # noqa: E402

PEER = "py-draughts"
VARIANTS = ("russian", "brazilian")
ALL_VARIANTS = ("russian", "brazilian", "giveaway", "italian", "english")
TABLE = "micro-match"
WORKER = HERE / "peers" / "py_draughts_player.py"
#: SimpleEngine's iterative-deepening ceiling; the clock ends its searches long before
PEER_DEPTH_LIMIT = 64
#: examples of each kind of irregularity kept for the report
KEEP_EXAMPLES = 20


def coords(square):
    return list(EIGHT.coords(square))


def move_json(move):
    return {"from": coords(move.origin), "to": coords(move.destination),
            "captured": [coords(sq) for sq in move.captured]}


def json_key(move):
    return (tuple(move["from"]), tuple(move["to"]), frozenset(tuple(sq) for sq in move["captured"]))


def shashki_key(move):
    return (tuple(coords(move.origin)), tuple(coords(move.destination)),
            frozenset(tuple(coords(sq)) for sq in move.captured))


def square_text(variant, c):
    return shashki.get_variant(variant).square_name(EIGHT.square_at(*c))


def key_text(variant, key):
    origin, dest, captured = key
    sep = "x" if captured else "-"
    text = f"{square_text(variant, origin)}{sep}{square_text(variant, dest)}"
    if captured:
        text += " (takes " + ",".join(sorted(square_text(variant, c) for c in captured)) + ")"
    return text


# --- the players ---------------------------------------------------------------------------

class ShashkiPlayer:
    """shashki's Engine at a fixed movetime, timed around each search."""

    def __init__(self, variant, movetime, hash_mb):
        self.name = f"shashki movetime={movetime:g}"
        self.movetime = movetime
        self.engine = Engine(variant, hash_mb)
        self.times = []
        self.cpu = []
        self.depths = []
        self.nodes = 0
        self.search_time = 0.0

    def new_game(self, board):
        self.engine.new_game()

    def choose(self, board):
        t0, c0 = time.perf_counter(), time.process_time()
        result = self.engine.search(board, movetime=self.movetime)
        self.times.append(time.perf_counter() - t0)
        self.cpu.append(time.process_time() - c0)   # the search is this process's only work
        self.depths.append(result.depth)
        self.nodes += result.nodes
        self.search_time += result.time
        return result


class PeerCrash(PeerError):
    pass


class PyDraughtsPlayer:
    """py-draughts' SimpleEngine in its venv, through peers/py_draughts_player.py."""

    def __init__(self, variant, time_limit, log):
        self.variant = variant
        self.time_limit = time_limit
        self.name = f"py-draughts SimpleEngine time_limit={time_limit:g}"
        self.log = log
        self.python = ensure_venv(PEER)
        self.proc = None
        self.game = 0
        self.times = []
        self.cpu = []
        self.depths = []
        self.nodes = 0
        self.positions_compared = 0
        self.deviations = []        # positions where the legal move lists differ
        self.illegal = []           # chosen moves shashki thinks illegal
        self.resyncs = []           # the worker's board had to be rebuilt
        self.crashes = []
        self.notes = []
        self.games_with_illegal = set()
        self._start()
        self.info = self._call({"cmd": "info"})

    # the worker

    def _start(self):
        # -I: nothing of the shashki checkout may shadow the peer's own ``draughts``
        self.stderr = open(self.log, "a", encoding="utf-8")
        self.proc = subprocess.Popen([str(self.python), "-I", str(WORKER)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.stderr, text=True,
                                     bufsize=1)

    def _call(self, request):
        try:
            self.proc.stdin.write(json.dumps(request) + "\n")
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
        except (BrokenPipeError, OSError) as exc:
            raise PeerCrash(f"worker pipe failed: {exc}") from None
        if not line:
            raise PeerCrash(f"worker exited (code {self.proc.poll()}); see {self.log}")
        reply = json.loads(line)
        if "error" in reply:
            raise PeerError(f"{PEER} worker: {reply['error']}")
        return reply

    def close(self):
        if self.proc and self.proc.poll() is None:
            try:
                self.proc.stdin.write(json.dumps({"cmd": "quit"}) + "\n")
                self.proc.stdin.flush()
                self.proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        self.stderr.close()

    def _new(self, board):
        self._call({"cmd": "new", "variant": self.variant,
                    "position": parse_fen(self.variant, board.fen()),
                    "time_limit": self.time_limit, "depth_limit": PEER_DEPTH_LIMIT})
        self.sent = len(board.move_stack)

    # the player interface of shashki.apps.match

    def new_game(self, board):
        self.game += 1
        self._new(board)

    def choose(self, board):
        request = {"cmd": "go", "moves": [move_json(m) for m in board.move_stack[self.sent:]],
                   "position": parse_fen(self.variant, board.fen())}
        try:
            reply = self._call(request)
        except PeerCrash as exc:
            # one restart, from the current position (the game's history is lost to it)
            self.crashes.append({"game": self.game, "ply": len(board.move_stack),
                                 "fen": board.fen(), "error": str(exc)})
            self.stderr.close()
            self._start()
            self._new(board.copy(stack=False))
            request["moves"] = []
            reply = self._call(request)
        self.sent = len(board.move_stack)
        ply = len(board.move_stack)
        for note in reply["notes"]:
            self.notes.append({"game": self.game, "ply": ply, "note": note})
        if reply["resync"]:
            self.resyncs.append({"game": self.game, "ply": ply, "fen": board.fen()})

        legal = {shashki_key(m): m for m in board.legal_moves}
        peer_legal = [json_key(m) for m in reply["legal"]]
        self.positions_compared += 1
        if set(peer_legal) != set(legal):
            self.deviations.append({
                "game": self.game, "ply": ply, "fen": board.fen(),
                "only_shashki": sorted(key_text(self.variant, k)
                                       for k in set(legal) - set(peer_legal)),
                "only_py_draughts": sorted(key_text(self.variant, k)
                                           for k in set(peer_legal) - set(legal))})

        if reply["move"] is None:       # py-draughts sees no move, shashki does
            chosen_key = None
        else:
            chosen_key = json_key(reply["move"])
            self.times.append(reply["seconds"])
            self.cpu.append(reply["cpu_seconds"])
            self.depths.append(reply["depth"])
            self.nodes += reply["nodes"]
        if chosen_key in legal:
            return legal[chosen_key]
        # a move shashki does not allow: note it, and play py-draughts' next listed move that
        # shashki allows (its own list order), so the peer is not forfeited for it
        fallback = next((legal[k] for k in peer_legal if k in legal), next(iter(legal.values())))
        self.illegal.append({"game": self.game, "ply": ply, "fen": board.fen(),
                             "move": reply["move"] and key_text(self.variant, chosen_key),
                             "played_instead": str(fallback)})
        self.games_with_illegal.add(self.game)
        return fallback


# --- the match -----------------------------------------------------------------------------

def mean(values):
    return statistics.fmean(values) if values else 0.0


def time_stats(wall, cpu, limit):
    return {"moves": len(wall), "mean_s": mean(wall),
            "median_s": statistics.median(wall) if wall else 0.0,
            "max_s": max(wall, default=0.0), "over_limit": sum(t > limit for t in wall),
            "mean_cpu_s": mean(cpu)}


def play_variant(variant, games, movetime, peer_time, hash_mb, max_moves, log):
    starts = choose_openings(variant, TABLE, games // 2)
    ours = ShashkiPlayer(variant, movetime, hash_mb)
    peer = PyDraughtsPlayer(variant, peer_time, log)
    started = time.perf_counter()

    def report(record, result):
        side = "white" if record.a_white else "black"
        print(f"  {variant:<9} game {record.number:>3}  {record.opening.name[:26]:<26} shashki "
              f"{side:<5} {record.result:<7} {record.plies:>3} plies  {record.reason[:44]:<44} "
              f"shashki {result.points:g}/{result.games_played}", flush=True)

    try:
        result = match(ours, peer, variant, openings=starts, games=games, max_moves=max_moves,
                       on_game=report)
    finally:
        peer.close()
    elapsed = time.perf_counter() - started
    terminations = {}
    for g in result.games:
        label = g.termination.value if g.termination is not None else "move cap"
        terminations[label] = terminations.get(label, 0) + 1
    return {
        "variant": variant, "table": TABLE, "games": result.games_played,
        "wins": result.wins, "draws": result.draws, "losses": result.losses,
        "points": result.points, "score_pct": result.percentage,
        "micro_matches": dict(zip(("won", "drawn", "lost"), result.pair_score())),
        "terminations": terminations,
        "shashki": {**time_stats(ours.times, ours.cpu, movetime),
                    "mean_depth": mean(ours.depths),
                    "nps": ours.nodes / ours.search_time if ours.search_time else 0.0},
        "py_draughts": {**time_stats(peer.times, peer.cpu, peer_time),
                        "mean_depth": mean(peer.depths),
                        "nps": peer.nodes / sum(peer.times) if peer.times else 0.0,
                        "version": peer.info.get("version")},
        "positions_compared": peer.positions_compared,
        "deviations": len(peer.deviations), "deviation_examples": peer.deviations[:KEEP_EXAMPLES],
        "illegal": len(peer.illegal), "illegal_examples": peer.illegal[:KEEP_EXAMPLES],
        "games_with_illegal": sorted(peer.games_with_illegal),
        "resyncs": len(peer.resyncs), "crashes": peer.crashes,
        "notes": peer.notes[:KEEP_EXAMPLES],
        "wall_s": elapsed,
        "game_list": [{"number": g.number, "opening": g.opening.name,
                       "shashki": "white" if g.a_white else "black", "result": g.result,
                       "plies": g.plies, "reason": g.reason,
                       "moves": " ".join(str(m) for m in g.moves)} for g in result.games],
    }


# --- search speed ----------------------------------------------------------------------------

def one_second_search(variant, hash_mb, seconds=1.0):
    """shashki's search from the start position, stopped hard after `seconds`: the deepest
    iteration completed in time, the nodes searched and the rate.  (Engine.search with
    movetime would stop early rather than start an iteration it may not finish.)"""
    engine = Engine(variant, hash_mb)
    board = shashki.Board(variant)
    completed = []
    done = threading.Event()

    def stopper():
        if not done.wait(seconds):
            # an iteration that starts after a stop() clears it, so keep asking until the
            # search returns
            while not done.wait(0.001):
                engine.stop()

    thread = threading.Thread(target=stopper, daemon=True)
    thread.start()
    c0 = time.process_time()
    result = engine.search(board, depth=MAX_DEPTH, info=lambda r: completed.append(r))
    cpu = time.process_time() - c0
    done.set()
    thread.join()
    in_time = [r for r in completed if r.time <= seconds]
    last = in_time[-1] if in_time else None
    return {"variant": variant, "depth": last.depth if last else 0,
            "seldepth": last.seldepth if last else 0,
            "best_move": str(last.best_move) if last else None,
            "score": str(last.score) if last else None,
            "nodes": result.nodes, "seconds": result.time, "cpu_seconds": cpu,
            "nps": result.nodes / result.time if result.time else 0.0}


# --- output --------------------------------------------------------------------------------

def print_tables(rows, speed, settings):
    print()
    print(f"shashki vs {PEER} {rows[0]['py_draughts']['version'] if rows else ''} SimpleEngine, "
          f"{TABLE} openings, colours swapped, {settings['movetime']:g} s/move shashki, "
          f"{settings['peer_time']:g} s/move py-draughts (time_limit), cap "
          f"{settings['max_moves']} moves each")
    print(f"{'game':<10} {'games':>5} {'win':>4} {'draw':>4} {'loss':>4} {'score':>7}  "
          f"{'pairs +/=/-':>11}  {'target':>6}")
    for r in rows:
        mm = r["micro_matches"]
        ok = "met" if r["score_pct"] >= 90.0 and r["games"] >= 40 else (
            "MISSED" if r["games"] >= 40 else "n/a")
        print(f"{r['variant']:<10} {r['games']:>5} {r['wins']:>4} {r['draws']:>4} "
              f"{r['losses']:>4} {r['score_pct']:>6.1f}%  "
              f"{mm['won']:>3}/{mm['drawn']}/{mm['lost']:<5}  {ok:>6}")
    print("(target: shashki >= 90% over >= 40 games per game type)")
    print()
    print("time per move, wall clock around the search call (CPU: the searching process's "
          "CPU time), depth, nodes/s")
    print(f"{'game':<10} {'side':<12} {'moves':>6} {'mean s':>7} {'median':>7} {'max s':>7} "
          f"{'>limit':>6} {'CPU s':>6} {'depth':>6} {'knodes/s':>9}")
    for r in rows:
        for label, key in (("shashki", "shashki"), ("py-draughts", "py_draughts")):
            s = r[key]
            print(f"{r['variant']:<10} {label:<12} {s['moves']:>6} {s['mean_s']:>7.3f} "
                  f"{s['median_s']:>7.3f} {s['max_s']:>7.3f} {s['over_limit']:>6} "
                  f"{s['mean_cpu_s']:>6.3f} {s['mean_depth']:>6.1f} {s['nps'] / 1000:>9.1f}")
    print("(depth: shashki's last completed iteration; py-draughts' last completed iteration "
          "as SimpleEngine logs it, its table kept between moves; not comparable plies)")
    print()
    print("py-draughts checks (its moves mapped to shashki's)")
    print(f"{'game':<10} {'positions':>9} {'rule deviations':>15} {'illegal moves':>13} "
          f"{'resyncs':>7} {'crashes':>7}  terminations")
    for r in rows:
        terms = ", ".join(f"{k} {v}" for k, v in sorted(r["terminations"].items()))
        print(f"{r['variant']:<10} {r['positions_compared']:>9} {r['deviations']:>15} "
              f"{r['illegal']:>13} {r['resyncs']:>7} {len(r['crashes']):>7}  {terms}")
    for r in rows:
        for d in r["deviation_examples"][:5]:
            print(f"  {r['variant']} deviation, game {d['game']} ply {d['ply']} {d['fen']}: "
                  f"only shashki {d['only_shashki']}, only py-draughts {d['only_py_draughts']}")
        for d in r["illegal_examples"][:5]:
            print(f"  {r['variant']} illegal, game {d['game']} ply {d['ply']} {d['fen']}: "
                  f"{d['move']} (played {d['played_instead']} instead)")
        for c in r["crashes"][:5]:
            print(f"  {r['variant']} crash, game {c['game']} ply {c['ply']}: {c['error']}")
        for n in r["notes"][:5]:
            print(f"  {r['variant']} note, game {n['game']} ply {n['ply']}: {n['note']}")
    if speed:
        print()
        print(f"shashki search from the start position, stopped after 1 s "
              f"(hash {settings['hash_mb']} MiB, one thread)")
        print(f"{'game':<10} {'depth':>5} {'seldepth':>8} {'nodes':>10} {'seconds':>7} "
              f"{'CPU s':>6} {'knodes/s':>9} {'per CPU-s':>9}  {'best':<8} score")
        for s in speed:
            per_cpu = s["nodes"] / s["cpu_seconds"] / 1000 if s["cpu_seconds"] else 0.0
            print(f"{s['variant']:<10} {s['depth']:>5} {s['seldepth']:>8} {s['nodes']:>10} "
                  f"{s['seconds']:>7.3f} {s['cpu_seconds']:>6.3f} {s['nps'] / 1000:>9.0f} "
                  f"{per_cpu:>9.0f}  {s['best_move'] or '-':<8} {s['score']}")
    print()
    print(f"load average: start {settings['load_start']}, end {settings['load_end']}; "
          f"cpus {os.cpu_count()}; python {platform.python_version()}; "
          f"wall {settings['wall_s']:.0f} s")


def load():
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="4 games per game type (smoke test)")
    ap.add_argument("--games", type=int, default=40,
                    help="games per game type, even (default 40; --quick: 4)")
    ap.add_argument("--movetime", type=float, default=0.2,
                    help="seconds per move for both engines (default 0.2)")
    ap.add_argument("--peer-time", type=float, default=None,
                    help="py-draughts' time_limit if it should differ from --movetime")
    ap.add_argument("--hash", type=int, default=32, help="shashki hash MiB (default 32)")
    ap.add_argument("--max-moves", type=int, default=200,
                    help="moves of each side before a game is drawn (default 200)")
    ap.add_argument("--variants", default=",".join(VARIANTS),
                    help="comma-separated, from russian,brazilian")
    ap.add_argument("--no-games", action="store_true", help="only the 1-second search table")
    ap.add_argument("--no-speed", action="store_true", help="skip the 1-second search table")
    ap.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    ap.add_argument("--log", metavar="FILE", default=None,
                    help="py-draughts worker stderr (default: a file beside --json, or "
                         "/tmp/bench_engine_peer.log)")
    args = ap.parse_args(argv)
    games = 4 if args.quick else args.games
    if games < 2 or games % 2:
        ap.error("--games must be even and at least 2 (each opening is played twice)")
    if not (args.movetime > 0):
        ap.error("--movetime must be positive")
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    for v in variants:
        if v not in VARIANTS:
            ap.error(f"variant {v!r}: the py-draughts match plays only {', '.join(VARIANTS)}")
    log = args.log or (str(Path(args.json).with_suffix(".peer.log")) if args.json
                       else "/tmp/bench_engine_peer.log")
    settings = {"games_per_variant": games, "movetime": args.movetime,
                "peer_time": args.peer_time or args.movetime, "hash_mb": args.hash,
                "max_moves": args.max_moves, "table": TABLE, "variants": variants,
                "peer_requirement": PEERS[PEER]["requirement"],
                "peer_depth_limit": PEER_DEPTH_LIMIT, "load_start": load(),
                "python": platform.python_version(), "cpus": os.cpu_count()}
    print(f"bench_engine: {games} games per game type ({', '.join(variants)}), "
          f"{args.movetime:g} s/move, load average {settings['load_start']}", flush=True)
    t0 = time.perf_counter()
    rows = []
    if not args.no_games:
        for variant in variants:
            rows.append(play_variant(variant, games, args.movetime, settings["peer_time"],
                                     args.hash, args.max_moves, log))
    speed = [] if args.no_speed else [one_second_search(v, args.hash) for v in ALL_VARIANTS]
    settings["load_end"] = load()
    settings["wall_s"] = time.perf_counter() - t0
    print_tables(rows, speed, settings)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"settings": settings, "matches": rows, "search_1s": speed}, fh, indent=1)
        print(f"results written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
