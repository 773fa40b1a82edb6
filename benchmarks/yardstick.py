"""The native yardstick: ../shared/anchors/dperft.c, a plain single-threaded C perft, compiled
here and run beside shashki in the same benchmark (it is measured against, never copied).

    from yardstick import Yardstick
    ys = Yardstick.find()            # None when the shared folder or a C compiler is missing
    ys.perft("russian", 11)          # (leaves, CPU seconds), from its own output
    ys.perft("english", 14, hash_bits=24)
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Dict, Optional, Tuple

HERE = Path(__file__).resolve().parent
#: the games the yardstick plays, by its compile-time switch
GAMES = {"english": "V_ENGLISH", "russian": "V_RUSSIAN", "brazilian": "V_BRAZILIAN",
         "international": "V_INTL"}
_LINE = re.compile(r"perft\(\s*(\d+)\) =\s+(\d+)\s+wall\s+([\d.]+) s.*cpu\s+([\d.]+) s")


def shared_dir() -> Path:
    """The shared/ folder beside the checkout (SHASHKI_SHARED overrides), as the tests find it."""
    env = os.environ.get("SHASHKI_SHARED")
    return Path(env) if env else HERE.parent.parent / "shared"


class Yardstick:
    def __init__(self, source: Path, build_dir: Path) -> None:
        self.source = source
        self.build_dir = build_dir
        self._binaries: Dict[str, Path] = {}

    @classmethod
    def find(cls) -> Optional["Yardstick"]:
        source = shared_dir() / "anchors" / "dperft.c"
        if not source.exists() or shutil.which("gcc") is None:
            return None
        return cls(source, Path(tempfile.mkdtemp(prefix="dperft-")))

    def binary(self, game: str) -> Path:
        """The program for `game`, compiled as its README says (gcc -O3 -march=native)."""
        if game not in self._binaries:
            out = self.build_dir / f"dperft_{game}"
            subprocess.run(["gcc", "-O3", "-march=native", f"-D{GAMES[game]}", str(self.source),
                            "-o", str(out)], check=True)
            self._binaries[game] = out
        return self._binaries[game]

    def perft(self, game: str, depth: int, hash_bits: int = 0) -> Tuple[int, float]:
        """(leaves, CPU seconds) of the start position's perft(depth), every capture route
        counted (the paths convention), with a table of 2**hash_bits entries (32 bytes each)
        when hash_bits > 0."""
        run = subprocess.run([str(self.binary(game)), str(depth), str(hash_bits), str(depth)],
                             capture_output=True, text=True, check=True)
        for line in run.stdout.splitlines():
            m = _LINE.search(line)
            if m and int(m.group(1)) == depth:
                return int(m.group(2)), float(m.group(4))
        raise RuntimeError(f"unexpected output of {self.binary(game)}: {run.stdout!r}")
