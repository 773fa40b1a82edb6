"""Legal move lists of the peer libraries, in shashki's squares (for the differential test).

One long-lived worker per peer (``peers/moves_worker.py`` in the peer's own venv, made by
``peers.ensure_venv``), spoken to in JSON lines.  Positions go out as PDN FENs in the
game's notation, converted by ``peers.parse_fen``, the same conversion the perft
benchmark uses.  Stdlib only, like peers.py::

    sys.path.insert(0, "benchmarks")
    from peer_moves import PeerMoves
    with PeerMoves("pydraughts") as peer:
        peer.moves("russian", "W:Wc3,e3:Bd4,d6,f6")
        # [PeerMove(origin=9, destination=25, captured=(13, 21), path=(9, 18, 25)), ...]

A PeerMove is one entry of the peer's own list, unmerged: pydraughts lists a capture once
per route and landing square, and py-draughts' american board lists quiet moves next to
captures.  Merging and filtering are the caller's business (tests/test_differential.py).
"""

from __future__ import annotations

import json
import subprocess
from typing import NamedTuple

from peers import WORKER_DIR, PeerError, ensure_venv, parse_fen

WORKER = WORKER_DIR / "moves_worker.py"


class PeerMove(NamedTuple):
    origin: int
    destination: int
    captured: tuple  # shashki squares in capture order
    path: tuple      # origin, each landing square, destination

    @property
    def key(self):
        """The RULES.md identity: origin, destination, set of captured squares."""
        return self.origin, self.destination, frozenset(self.captured)


class PeerMoves:
    """A running moves worker for one peer; use as a context manager (or call close())."""

    def __init__(self, peer: str) -> None:
        python = ensure_venv(peer)
        # -I as in peers._call_worker: nothing of the shashki checkout may shadow the
        # peer's ``draughts``.  stderr is inherited so a crash shows its traceback.
        self.peer = peer
        self.proc = subprocess.Popen(
            [str(python), "-I", str(WORKER), peer],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
        )
        self.info = self._ask({"info": True})
        self.version = self.info["version"]

    def supports(self, variant: str) -> bool:
        return self.info["variants"].get(variant) is not None

    def send(self, variant: str, fen: str) -> None:
        """Send a position without waiting for the answer (see receive), so that two
        peers can work on the same position at once."""
        request = {"variant": variant, **parse_fen(variant, fen)}
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()

    def receive(self, what: str = "") -> list[PeerMove] | None:
        """The answer to the oldest position sent: its moves, or None if the peer has no
        such game."""
        reply = self._read(what)
        if not reply["supported"]:
            return None
        return [PeerMove(o, d, tuple(c), tuple(p)) for o, d, c, p in reply["moves"]]

    def moves(self, variant: str, fen: str) -> list[PeerMove] | None:
        self.send(variant, fen)
        return self.receive(f"{variant} {fen}")

    def _ask(self, request: dict) -> dict:
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        return self._read(json.dumps(request))

    def _read(self, what: str) -> dict:
        line = self.proc.stdout.readline()
        if not line:
            raise PeerError(f"{self.peer} moves worker ended (exit {self.proc.poll()}) on {what}")
        reply = json.loads(line)
        if "error" in reply:
            raise PeerError(f"{self.peer} on {what}: {reply['error']}")
        return reply

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.close()  # the worker's loop ends at EOF
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc.stdout.close()

    def __enter__(self) -> "PeerMoves":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
