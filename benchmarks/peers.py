"""Peer side of the perft benchmark: run perft in other Python draughts libraries.

The two peers, ``py-draughts`` and ``pydraughts``, both install a top-level
package called ``draughts``, so they cannot share an interpreter with each other
(or with whatever the main benchmark imports). Each one gets its own venv under
``benchmarks/.venvs/<peer>/`` and is driven through a small worker script in
``benchmarks/peers/`` that speaks JSON over argv/stdout. This module is stdlib
only so the main benchmark can import it from any interpreter::

    sys.path.insert(0, "benchmarks")
    from peers import peer_perft
    peer_perft("py-draughts", "russian", None, 6)   # None = start position

(The ``peers/`` folder beside this file has no ``__init__.py`` on purpose: a
plain module wins over a namespace package of the same name, so
``import peers`` still finds this file.)

CLI::

    python benchmarks/peers.py py-draughts russian 6 [--fen FEN] [--timeout S]
    python benchmarks/peers.py --verify [PEER [VARIANT]] [--max-depth N]
    python benchmarks/peers.py --verify [PEER] --perft-file shared/perft/random.perft
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
VENV_ROOT = HERE / ".venvs"
WORKER_DIR = HERE / "peers"

# Pinned to the releases the workers were written against and verified with
# (see the table in the module's report / --verify). A newer release may change
# the move-list conventions the workers document, so bump deliberately.
PEERS = {
    "py-draughts": {"requirement": "py-draughts==1.10.1", "worker": "py_draughts_worker.py"},
    "pydraughts": {"requirement": "pydraughts==0.6.7", "worker": "pydraughts_worker.py"},
    # the API benchmark's yardsticks (benchmarks/bench_api.py): random playouts only
    "open_spiel": {"requirement": "open_spiel==2.0.2", "worker": "playouts_worker.py"},
    "python-chess": {"requirement": "chess==1.11.2", "worker": "playouts_worker.py"},
    # the PDN reader's yardstick (benchmarks/bench_pdn.py): the venv of "pydraughts" above
}

VARIANTS = ("russian", "giveaway", "brazilian", "italian", "english",
            # 10x10, squares 1-50 (RULES.md "More games"); shashki does not play frisian and
            # frysk, whose peers' counts are compared with the published table alone
            "international", "antidraughts", "breakthrough", "frisian", "frysk",
            # every square of the 8x8 board, algebraic names (a1 = White's left corner)
            "turkish")
#: the games on all 64 squares of the board
EVERY_SQUARE = ("turkish",)
#: the 10x10 games
TEN = ("international", "antidraughts", "breakthrough", "frisian", "frysk")

START_FENS = {
    "russian": "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
    "giveaway": "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
    "brazilian": "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
    "italian": "W:W21-32:B1-12",
    "english": "B:W21-32:B1-12",
    "international": "W:W31-50:B1-20",
    "antidraughts": "W:W31-50:B1-20",
    "breakthrough": "W:W31-50:B1-20",
    "frisian": "W:W31-50:B1-20",
    "frysk": "W:W46-50:B1-5",
    "turkish": "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:"
               "Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7",
}

# Start-position perft, depths 1..8, from shared/perft/start.perft (published
# figures). Giveaway moves are russian moves, so its tree is the russian one.
# The two conventions first part at russian/brazilian depth 8.
_RUSSIAN = [7, 49, 302, 1469, 7482, 37986, 190146]
_BRAZILIAN = [7, 49, 302, 1469, 7473, 37628, 187302]
_ITALIAN = [7, 49, 302, 1469, 7361, 36473, 177532, 828783]
_ENGLISH = [7, 49, 302, 1469, 7361, 36768, 179740, 845931]
# International from shared/perft/more/games.perft (published unique moves; paths from a
# native program); antidraughts and breakthrough move alike (breakthrough's first crowning
# is deeper than 8 plies from the start). Frisian's published table is unconfirmed and frysk
# has none: no reference here (tests/test_differential.py prints frisian's against the table).
_INTERNATIONAL = [9, 81, 658, 4265, 27117, 167140, 1049442]
_INTL = {"unique": _INTERNATIONAL + [6483961], "paths": _INTERNATIONAL + [6483971]}
REFERENCE = {
    "russian": {"unique": _RUSSIAN + [929899], "paths": _RUSSIAN + [929905]},
    "giveaway": {"unique": _RUSSIAN + [929899], "paths": _RUSSIAN + [929905]},
    "brazilian": {"unique": _BRAZILIAN + [907830], "paths": _BRAZILIAN + [907836]},
    "italian": {"unique": _ITALIAN, "paths": _ITALIAN},
    "english": {"unique": _ENGLISH, "paths": _ENGLISH},
    "international": _INTL,
    "antidraughts": _INTL,
    "breakthrough": _INTL,
    "frisian": {"unique": [], "paths": []},
    "frysk": {"unique": [], "paths": []},
    # pydraughts' own figures (issue 19): shashki agrees to depth 4 and counts 85090 at 5,
    # the difference being pydraughts' king that passes its own man (tests/perftfile.py)
    "turkish": {"unique": [], "paths": []},
}


class PeerError(RuntimeError):
    """The peer's worker failed (bad FEN for that library, crash, install error)."""


class PeerTimeout(TimeoutError):
    """The worker ran past the caller's timeout and was killed."""


# --------------------------------------------------------------------------
# Environments
# --------------------------------------------------------------------------


def _venv_python(venv: Path) -> Path:
    if os.name == "nt":
        return venv / "Scripts" / "python.exe"
    return venv / "bin" / "python"


def ensure_venv(peer: str) -> Path:
    """Create (once) the peer's venv with its pinned release; return its python.

    A stamp file records which requirement the venv holds, so a half-finished
    install (interrupted pip) or a changed pin triggers a reinstall instead of
    silently benchmarking the wrong release.
    """
    spec = _peer_spec(peer)
    venv = VENV_ROOT / peer
    python = _venv_python(venv)
    stamp = venv / ".shashki-peer-stamp"
    VENV_ROOT.mkdir(parents=True, exist_ok=True)

    with _lock(VENV_ROOT / f"{peer}.lock"):
        if python.exists() and stamp.exists() and stamp.read_text().strip() == spec["requirement"]:
            return python
        if not python.exists():
            _run_checked([sys.executable, "-m", "venv", str(venv)], f"creating venv for {peer}")
        _run_checked(
            [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
             spec["requirement"]],
            f"installing {spec['requirement']}",
        )
        stamp.write_text(spec["requirement"] + "\n")
    return python


class _lock:
    """Exclusive file lock, so two benchmark processes do not pip into one venv."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.fh = None

    def __enter__(self):
        self.fh = open(self.path, "a+")
        try:
            import fcntl
        except ImportError:  # not POSIX: no locking, single-process use only
            return self
        fcntl.flock(self.fh, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        self.fh.close()  # closing releases the flock


def _run_checked(cmd: list[str], what: str) -> None:
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise PeerError(f"{what} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")


def _peer_spec(peer: str) -> dict:
    try:
        return PEERS[peer]
    except KeyError:
        raise ValueError(f"unknown peer {peer!r}; expected one of {sorted(PEERS)}") from None


# --------------------------------------------------------------------------
# FEN -> board-neutral coordinates
# --------------------------------------------------------------------------
#
# The workers are handed (file, rank) pairs, 0-based from White's side
# (a1 = (0, 0)), instead of a FEN: the two libraries disagree with each other
# and with RULES.md about square numbering, colour order and which FEN forms
# they accept, so each worker builds exactly the FEN its library wants from
# unambiguous coordinates.

_ALG = re.compile(r"^([a-h])([1-8])$")
_NUM = re.compile(r"^(\d{1,2})$")
_RANGE = re.compile(r"^(\d{1,2})-(\d{1,2})$")


def board_size(variant: str) -> int:
    return 10 if variant in TEN else 8


def numeric_to_coords(variant: str, n: int) -> tuple[int, int]:
    """Square number in the game's own numbering -> (file, rank).

    The numberings run row by row from the top-left as seen from White; they
    differ only in which colour is dark. English (and the numeric form accepted
    for russian/giveaway/brazilian) and the 10x10 games: a1 is dark, so square
    1 = b8 (b10 on 10x10). Italian: the board is mirrored (h1 dark), so square
    1 = a8.
    """
    size = board_size(variant)
    half = size // 2
    if not 1 <= n <= half * size:
        raise ValueError(f"square {n} out of range 1-{half * size}")
    row, k = divmod(n - 1, half)  # row 0 = the top rank
    rank = size - 1 - row
    if variant == "italian":
        file = 2 * k if row % 2 == 0 else 2 * k + 1
    else:
        file = 2 * k + 1 if row % 2 == 0 else 2 * k
    return file, rank


def coords_to_numeric(file: int, rank: int, size: int = 8) -> int:
    """(file, rank) -> square number; the same formula serves every numbering
    because each row holds exactly one dark square per pair of files."""
    return size // 2 * (size - 1 - rank) + file // 2 + 1


def parse_fen(variant: str, fen: str) -> dict:
    """Parse a PDN FEN as RULES.md allows it for ``variant``.

    Returns {"turn": "W"|"B", "white": [[file, rank, is_king], ...], "black": [...]}.
    Accepts a trailing dot, an optional [FEN "..."] wrapper, empty sides, either
    colour order, K-prefixed kings, numeric ranges, and for the algebraic games
    both algebraic and english-numbered squares.
    """
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; expected one of {VARIANTS}")
    text = fen.strip()
    wrapped = re.fullmatch(r'\[FEN\s+"([^"]*)"\]', text)
    if wrapped:
        text = wrapped.group(1).strip()
    text = text.rstrip(".")
    fields = text.split(":")
    turn = fields[0].strip().upper()
    if turn not in ("W", "B"):
        raise ValueError(f"FEN {fen!r}: side to move must be W or B")

    algebraic_ok = variant in ("russian", "giveaway", "brazilian") + EVERY_SQUARE
    sides: dict[str, list] = {"white": [], "black": []}
    seen_sides: set[str] = set()
    occupied: set[tuple[int, int]] = set()
    for field in fields[1:]:
        field = field.strip()
        if not field or field[0].upper() not in "WB":
            continue  # PDN allows trailing counter fields we do not need
        side = "white" if field[0].upper() == "W" else "black"
        if side in seen_sides:
            raise ValueError(f"FEN {fen!r}: {side} listed twice")
        seen_sides.add(side)
        for token in field[1:].split(","):
            token = token.strip()
            if not token:
                continue
            king = token[0] in "Kk"
            body = token[1:] if king else token
            squares: list[tuple[int, int]] = []
            if m := _ALG.match(body.lower()):
                if not algebraic_ok:
                    raise ValueError(f"FEN {fen!r}: {variant} uses numeric squares, got {body!r}")
                file, rank = ord(m.group(1)) - ord("a"), int(m.group(2)) - 1
                if (file + rank) % 2 and variant not in EVERY_SQUARE:
                    raise ValueError(f"FEN {fen!r}: {body} is a light square")
                squares.append((file, rank))
            elif m := _NUM.match(body):
                squares.append(numeric_to_coords(variant, int(m.group(1))))
            elif m := _RANGE.match(body):
                lo, hi = int(m.group(1)), int(m.group(2))
                if lo > hi:
                    raise ValueError(f"FEN {fen!r}: empty range {body!r}")
                squares.extend(numeric_to_coords(variant, n) for n in range(lo, hi + 1))
            else:
                raise ValueError(f"FEN {fen!r}: cannot read square {token!r}")
            for sq in squares:
                if sq in occupied:
                    raise ValueError(f"FEN {fen!r}: square listed twice")
                occupied.add(sq)
                sides[side].append([sq[0], sq[1], king])
    return {"turn": turn, **sides}


# --------------------------------------------------------------------------
# Running the workers
# --------------------------------------------------------------------------


def _call_worker(peer: str, request: dict, timeout: float | None) -> dict:
    python = ensure_venv(peer)
    worker = WORKER_DIR / _peer_spec(peer)["worker"]
    # -I: ignore PYTHONPATH and the user site, and do not put the script's folder
    # on sys.path, so nothing of the shashki checkout (or a build dir the main
    # benchmark put on PYTHONPATH) can shadow the peer's own ``draughts``.
    cmd = [str(python), "-I", str(worker), json.dumps(request)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        what = request.get("variant", "info"), request.get("depth")
        raise PeerTimeout(f"{peer} worker exceeded {timeout}s ({what[0]}, depth {what[1]})") from None
    try:
        reply = json.loads(proc.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        raise PeerError(
            f"{peer} worker gave no JSON (exit {proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
        ) from None
    if "error" in reply:
        raise PeerError(f"{peer}: {reply['error']}")
    return reply


def peer_perft(peer: str, variant: str, fen: str | None, depth: int,
               timeout: float | None = None, convention: str | None = None) -> dict | None:
    """Count perft leaves of ``fen`` (None = start position) in the peer library.

    ``convention="unique"`` asks pydraughts, whose lists keep every route, to merge
    each node's list by move identity (py-draughts always does); the reply's
    ``convention`` says which was counted.

    Returns None when the peer has no such variant, else a dict with:
      count       leaf count by the peer's own move list
      seconds     CPU time (time.process_time, inside the worker) of the counting
                  only: no interpreter start, import or position setup
      convention  "unique" (routes with the same origin, destination and captured
                  set merged) or "paths" (one entry per capture route)
      comparable  False when the tree reached a position where the peer's known
                  rule deviation changed the move list (see ``notes``); the count
                  then is not the RULES.md count for either convention
      notes       list of strings explaining any such deviation
      peer, version, variant, peer_variant, depth, python
    Raises PeerTimeout past ``timeout`` seconds (wall clock, includes start-up),
    PeerError if the worker fails, ValueError for a bad variant/FEN/depth.
    """
    _peer_spec(peer)
    if depth < 0:
        raise ValueError("depth must be >= 0")
    position = parse_fen(variant, fen if fen is not None else START_FENS[variant])
    request = {"variant": variant, "depth": depth, **position}
    if convention:
        request["convention"] = convention
    reply = _call_worker(peer, request, timeout)
    if not reply.get("supported", True):
        return None
    return reply


def peer_info(peer: str) -> dict:
    """Installed version, move-list convention, and variant mapping (None = unsupported)."""
    return _call_worker(peer, {"info": True}, timeout=120)


# --------------------------------------------------------------------------
# CLI
# --------------------------------------------------------------------------


def verify(peers: list[str], variants: list[str], max_depth: int,
           timeout: float | None) -> list[dict]:
    """Start-position perft against REFERENCE; one row per (peer, variant, depth)."""
    rows = []
    for peer in peers:
        for variant in variants:
            for depth in range(1, max_depth + 1):
                row = {"peer": peer, "variant": variant, "depth": depth}
                try:
                    res = peer_perft(peer, variant, None, depth, timeout=timeout)
                except PeerTimeout:
                    row["status"] = "timeout"
                    rows.append(row)
                    print(json.dumps(row), flush=True)
                    break  # deeper is only slower
                if res is None:
                    row["status"] = "unsupported"
                    rows.append(row)
                    print(json.dumps(row), flush=True)
                    break
                expected = REFERENCE[variant][res["convention"]]
                want = expected[depth - 1] if depth <= len(expected) else None
                row.update(count=res["count"], expected=want, seconds=round(res["seconds"], 4),
                           leaves_per_sec=round(res["count"] / res["seconds"]) if res["seconds"] else None,
                           convention=res["convention"], comparable=res["comparable"])
                row["status"] = "n/a" if want is None else ("match" if res["count"] == want else "MISMATCH")
                rows.append(row)
                print(json.dumps(row), flush=True)
    return rows


def read_perft_file(path: str | Path) -> list[dict]:
    """Blocks of a shared/perft/*.perft file: id, variant, fen, and
    {"unique": {depth: count}, "paths": {depth: count}} (format in its README)."""
    blocks, cur = [], None
    for line in Path(path).read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        key, _, rest = line.partition(" ")
        if key == "id":
            cur = {"id": rest, "unique": {}, "paths": {}}
            blocks.append(cur)
        elif key in ("variant", "fen"):
            cur[key] = rest
        elif key in ("perft", "paths"):
            depth, count = rest.split()
            cur["unique" if key == "perft" else "paths"][int(depth)] = int(count)
    return blocks


def verify_file(peers: list[str], path: str, max_depth: int, timeout: float | None,
                variants: list[str]) -> list[dict]:
    """For each block, the deepest listed depth <= max_depth, in the peer's own
    convention. Catches FEN/orientation mistakes that the start position cannot
    (kings, empty sides, black to move, italian mirror)."""
    rows = []
    for peer in peers:
        info = peer_info(peer)
        for block in read_perft_file(path):
            if block.get("variant") not in variants:
                continue
            if info["variants"].get(block["variant"]) is None:
                continue
            row = {"peer": peer, "id": block["id"], "variant": block["variant"]}
            counts = block[info["convention"]]
            depths = [d for d in counts if d <= max_depth]
            if not depths:
                continue
            depth = max(depths)
            try:
                res = peer_perft(peer, block["variant"], block["fen"], depth, timeout=timeout)
            except PeerTimeout:
                row.update(depth=depth, status="timeout")
            except PeerError as exc:  # e.g. the peer's FEN reader rejects the position
                row.update(depth=depth, status="error", error=str(exc))
            else:
                ok = res["count"] == counts[depth]
                row.update(depth=depth, count=res["count"], expected=counts[depth],
                           comparable=res["comparable"],
                           status="match" if ok else "MISMATCH")
                if res["notes"]:
                    row["notes"] = res["notes"]
            rows.append(row)
            print(json.dumps(row), flush=True)
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("peer", nargs="?", choices=sorted(PEERS))
    ap.add_argument("variant", nargs="?", choices=VARIANTS)
    ap.add_argument("depth", nargs="?", type=int)
    ap.add_argument("--fen", help="PDN FEN in the game's notation (default: start position)")
    ap.add_argument("--timeout", type=float, default=None, help="seconds, wall clock")
    ap.add_argument("--verify", action="store_true",
                    help="check start-position perft against the reference counts")
    ap.add_argument("--max-depth", type=int, default=6, help="deepest level for --verify")
    ap.add_argument("--perft-file", help="with --verify: check the positions of a .perft file "
                    "(shared/perft format) instead of the start positions")
    args = ap.parse_args(argv)

    if args.verify and args.perft_file:
        verify_file([args.peer] if args.peer else sorted(PEERS), args.perft_file,
                    args.max_depth, args.timeout,
                    [args.variant] if args.variant else list(VARIANTS))
        return 0
    if args.verify:
        verify([args.peer] if args.peer else sorted(PEERS),
               [args.variant] if args.variant else list(VARIANTS),
               args.max_depth, args.timeout)
        return 0
    if args.peer is None or args.variant is None or args.depth is None:
        ap.error("peer, variant and depth are required (or use --verify)")
    started = time.perf_counter()
    res = peer_perft(args.peer, args.variant, args.fen, args.depth, timeout=args.timeout)
    if res is None:
        res = {"peer": args.peer, "variant": args.variant, "supported": False}
    else:
        res["wall_seconds"] = round(time.perf_counter() - started, 3)
    print(json.dumps(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
