"""Reader of the perft suite files (../shared/perft/*.perft; format in their README)."""

import os
from dataclasses import dataclass, field
from typing import Optional
from pathlib import Path


def shared_dir():
    """The shared/ folder beside the checkout (SHASHKI_SHARED overrides)."""
    env = os.environ.get("SHASHKI_SHARED")
    if env:
        return Path(env)
    here = Path(__file__).resolve().parent
    for base in (here.parent.parent, here.parent):
        if (base / "shared" / "perft").is_dir():
            return base / "shared"
    return here.parent.parent / "shared"


@dataclass
class Block:
    id: str
    source: str
    variant: str = ""
    fen: Optional[str] = None                   # None: the game's start position
    perft: dict = field(default_factory=dict)   # depth -> count, unique moves
    paths: dict = field(default_factory=dict)   # depth -> count, keep duplicates
    moves: list = None                          # exact set of legal moves, or None
    sources: list = field(default_factory=list)  # "# source:" comments before the block


def read_blocks(path):
    blocks = []
    block = None
    sources = []
    for raw in Path(path).read_text(encoding="utf-8").splitlines():
        comment = raw.strip()
        if comment.startswith("# source:"):
            sources.append(comment[len("# source:"):].strip())
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, _, rest = line.partition(" ")
        rest = rest.strip()
        if key == "id":
            block = Block(id=rest, source=Path(path).name, sources=sources)
            sources = []
            blocks.append(block)
        elif block is None:
            raise ValueError(f"{path}: {key!r} before the first id line")
        elif key == "variant":
            block.variant = rest
        elif key == "fen":
            block.fen = rest
        elif key in ("perft", "paths"):
            depth, count = rest.split()
            getattr(block, key)[int(depth)] = int(count)
        elif key == "moves":
            block.moves = rest.split()
        else:
            raise ValueError(f"{path}: unknown key {key!r}")
    return blocks


# Frisian's published start table is unconfirmed (RULES.md: checked against the peers instead),
# (frisian and frysk are played: NOT_YET is empty).
UNCONFIRMED = {"frisian-start"}
NOT_YET: set = set()
#: Counts of a peer that the rules show wrong: (block, convention, depth) -> (the count by the
#: rules, why).  Each has its own test of the rule that decides it (test_turkish.py).
PEER_ERRORS = {
    ("turkish-start", "perft", 5): (
        85090, "pydraughts 0.6.7 lets a king move past its own man: in the 56 positions after "
               "1. h3-h4 ... where a white king on h8 has its own man on h2, it lists h8-h1 "
               "(a king moves along an open line only: h2 blocks it)"),
}


def playable_blocks():
    """The blocks of all_blocks() that shashki is expected to match, with the counts of
    PEER_ERRORS corrected."""
    out = []
    for b in all_blocks():
        if b.id in UNCONFIRMED or b.variant in NOT_YET:
            continue
        for (block, convention, depth), (count, _) in PEER_ERRORS.items():
            if block == b.id and depth in getattr(b, convention):
                getattr(b, convention)[depth] = count
        out.append(b)
    return out


def all_blocks():
    """Every block of perft/*.perft and perft/more/*.perft (the games added after the first
    five)."""
    out = []
    perft = shared_dir() / "perft"
    for path in sorted(perft.glob("*.perft")) + sorted((perft / "more").glob("*.perft")):
        out.extend(read_blocks(path))
    return out
