"""Every block of ../shared/perft/*.perft, both conventions.

Lines whose count is above DEFAULT_LIMIT leaves run only with `pytest -m deep` (about five
minutes on two cores; the lines above DEEP_LIMIT with a 2 GiB table, english paths 17 the
longest at about two minutes).  On a mismatch
the failure message carries a divide (per-move subtotals), the fastest way to find the move
that a generator gets wrong.
"""

import pytest

import shashki
from perftfile import NOT_YET, all_blocks, playable_blocks

DEFAULT_LIMIT = 30_000_000      # start positions to depth 9 and every small line
DEEP_LIMIT = 3_000_000_000      # beyond this a line is counted with the transposition table
HASH_MB = 2048

ALL = all_blocks()
BLOCKS = playable_blocks()


def test_every_game_of_the_suites_is_played():
    games = {b.variant for b in ALL}
    missing = {g for g in games if g not in shashki.variants._BY_NAME}
    assert missing <= NOT_YET, missing


def _cases():
    for block in BLOCKS:
        for convention in ("perft", "paths"):
            for depth, count in sorted(getattr(block, convention).items()):
                marks = []
                if count > DEFAULT_LIMIT:
                    marks = [pytest.mark.deep]
                yield pytest.param(block, convention, depth, count, marks=marks,
                                   id=f"{block.id}-{convention}-{depth}")


def _divide_report(board, depth, paths):
    lines = [f"divide {depth} of {board.fen()} ({board.variant.name}, paths={paths}):"]
    for move, count in sorted(board.divide(depth, paths).items(), key=lambda kv: str(kv[0])):
        lines.append(f"  {move}: {count}")
    return "\n".join(lines)


def test_suite_files_found():
    assert len(BLOCKS) >= 300, "../shared/perft not found; set SHASHKI_SHARED"


@pytest.mark.parametrize("block,convention,depth,count", list(_cases()))
def test_perft(block, convention, depth, count):
    board = shashki.Board(block.variant, block.fen)
    paths = convention == "paths"
    # the huge lines (deep marker only) need the table; the rest test the plain walk
    got = board.perft(depth, paths=paths, hash_mb=HASH_MB if count > DEEP_LIMIT else 0)
    if got != count:
        # walk down to the shallowest depth that disagrees, and show its divide
        report = _divide_report(board, min(depth, 3), paths)
        pytest.fail(f"{block.id} {convention} {depth}: got {got}, expected {count}\n{report}")


@pytest.mark.parametrize("block", [b for b in BLOCKS if b.moves is not None],
                         ids=lambda b: b.id)
def test_exact_legal_moves(block):
    board = shashki.Board(block.variant, block.fen)
    assert sorted(str(m) for m in board.legal_moves) == sorted(block.moves)


@pytest.mark.parametrize("block", [b for b in BLOCKS if 1 in b.perft], ids=lambda b: b.id)
def test_perft1_is_number_of_legal_moves(block):
    board = shashki.Board(block.variant, block.fen)
    assert len(board.legal_moves) == block.perft[1]
    # (with no paths line the routes are unknown: a block may list unique moves only)
    if 1 in block.paths:
        assert sum(m.routes for m in board.legal_moves) == block.paths[1]


@pytest.mark.parametrize("block", [b for b in BLOCKS if 3 in b.perft][:60], ids=lambda b: b.id)
def test_divide_sums_to_perft(block):
    board = shashki.Board(block.variant, block.fen)
    for paths in (False, True):
        table = block.paths if paths else block.perft
        assert sum(board.divide(3, paths).values()) == table[3]
