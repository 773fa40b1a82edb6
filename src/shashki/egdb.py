"""Endgame databases: every position of few pieces, solved by retrograde analysis.

    >>> import shashki, tempfile
    >>> from shashki import egdb
    >>> folder = tempfile.mkdtemp()
    >>> report = egdb.build("russian", 3, folder)
    >>> tables = egdb.open_tables("russian", folder)
    >>> tables.probe_wdl(shashki.Board("russian", "W:WKc1:BKf8"))     # king against king
    0
    >>> tables.probe_wdl(shashki.Board("russian", "W:WKa1:BKh8"))     # every move is taken
    -1
    >>> tables.probe_dtz(shashki.Board("russian", "W:WKa1,Kc1:Bh8"))  # a man against two kings
    2

Modelled on python-chess's Syzygy probing (``chess.syzygy``): `open_tables` opens a folder,
`probe_wdl` gives 1 (the side to move wins), 0 (a draw) or -1 (it loses), `probe_dtz` the
plies to the next capture or man move on the best line (positive in a win, negative in a
loss, 0 in a draw), `get_wdl`/`get_dtz` return a default instead of raising
MissingTableError for a position the tables do not hold; `probe(board)` uses the default
folder.

What the values mean (the decision on the draw rules).  A position's value is its value by
the rules of its game with the counters of the draw rules starting at that position: a win
counts only if the stronger side can force a capture or a man move (which start the counters
again) before a draw rule ends the game -- 15 moves of kings only in russian, giveaway and
brazilian, 40 in italian, 40 moves without progress in english -- and, in russian, before
the FMJD-64 endgame rules 7.2.4-7.2.8 do (three kings against one: 15 moves; two pieces
against a lone king: 5 moves; ...), counted from the position.  A win that takes longer
than the rules allow is a draw, as the rules make it.  The probe then compares the stored
distance with what the board's own counters leave, so a win that was in time when its phase
began but is not any more is reported as a draw.  This is exact for the counters that every
capture or man move starts again (the kings-only and no-progress rules); for the FMJD-64
counters that run on through a man's move or a crowning (7.2.4, 7.2.6-7.2.8) it counts as if
they had started with the position's phase, which can only differ in endings where a side has
men as well as a lone king's opponent.  Repetitions are draws (the retrograde analysis never
resolves a cycle).

Where they live: a folder per game (``<folder>/<game>/<signature>.egdb``, the signature being
the numbers of white men, white kings, black men and black kings with White to move),
``$SHASHKI_EGDB`` or the user's cache (``~/.cache/shashki/egdb``), or a folder given.  Each file
is the table's bytes compressed with zlib behind a small header.  `build` makes them
(``shashki egdb build russian 5``), `verify` checks every position against its successors.
A table has an entry for every slot of its index, and most slots are positions; the others
(a white man and a black man on one square) hold none, so `verify` checks fewer positions
than `build` writes entries.

A table file is checked before it is used: its header (a JSON object with the game, the
signature, the size, the draw-rule limit and a CRC-32, each of its type), the size the
header gives against the size of the table, and the inflation, which stops as soon as it
would pass that size (a file that inflates to more is refused without inflating it).  A table
that fails (damaged, cut short, of another version) is skipped with one EgdbWarning: the
other tables are used, and probing a position of that table raises MissingTableError, whose
message says how to make it again (`build` rebuilds a damaged table in place).
"""

from __future__ import annotations

import json
import os
import random
import shlex
import time
import warnings
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple, Union

from ._core import egdb_build
from ._core.egdb import EgdbTables
from ._core.game import Game
from ._core.position import Position
from .board import Board
from .colors import WHITE
from .errors import ShashkiError
from .variants import Variant, get_variant

__all__ = ["MAX_PIECES", "BuildReport", "EgdbError", "EgdbWarning", "MissingTableError",
           "Tables",
           "build", "default_folder", "for_engine", "open_tables", "probe", "sample_boards",
           "signatures", "unsupported", "verify"]

#: the most pieces the builder handles (the index has room for 7 a side)
MAX_PIECES = 7
_MAGIC = b"shashki-egdb 1\n"
_DRAW, _WIN, _LOSS = 1, 2, 129

PathLike = Union[str, "os.PathLike[str]"]
Signature = Tuple[int, int, int, int]


class EgdbError(ShashkiError):
    """Endgame databases that cannot be built, read or used (a bad folder, piece count or
    file)."""


class MissingTableError(EgdbError, KeyError):
    """The tables do not hold the position (too many pieces, a table not built, or a
    damaged one); the message says which table and the ``shashki egdb build`` command that
    makes it.  A KeyError too, as python-chess's (``except KeyError`` still works), but
    printed as the message it is, not quoted as a key."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class EgdbWarning(UserWarning):
    """A table file that cannot be used (damaged, cut short, of another version): it is
    skipped, and the other tables are used."""


# the longest header line of a table file (a real one is about 100 bytes)
_MAX_HEADER = 4096
# the header's fields and their types
_HEADER_FIELDS = {"game": str, "signature": list, "size": int, "limit": int, "crc32": int}


def build_command(variant: Variant, pieces: int, folder: Path) -> str:
    """The `shashki egdb build` command that makes the tables of up to `pieces` pieces in
    `folder`."""
    where = "" if folder == default_folder() else f" --dir {shlex.quote(str(folder))}"
    return f"shashki egdb build {variant.name} {min(max(pieces, 2), MAX_PIECES)}{where}"


def _code(sig: Signature) -> str:
    return "".join(map(str, sig))


def default_folder() -> Path:
    """Where the databases live unless a folder is given: $SHASHKI_EGDB, else the user's
    cache ($XDG_CACHE_HOME or ~/.cache, then shashki/egdb)."""
    env = os.environ.get("SHASHKI_EGDB")
    if env:
        return Path(env)
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"),
                                                             ".cache")
    return Path(cache) / "shashki" / "egdb"


def _check_pieces(pieces: object) -> int:
    if isinstance(pieces, bool) or not isinstance(pieces, int) or \
            not 2 <= pieces <= MAX_PIECES:
        raise EgdbError(f"the number of pieces must be a whole number from 2 to "
                        f"{MAX_PIECES}, not {pieces!r}")
    return pieces


def signatures(pieces: int) -> List[Signature]:
    """The signatures (white men, white kings, black men, black kings) of up to `pieces`
    pieces, each side with at least one, in the order they are built: fewer pieces first,
    then fewer men; a signature comes right after its mirror image (the colours swapped)."""
    _check_pieces(pieces)
    out: List[Signature] = []
    for n in range(2, pieces + 1):
        for men in range(n + 1):
            for wm in range(men + 1):
                bm = men - wm
                for wk in range(n - men + 1):
                    bk = n - men - wk
                    if wm + wk and bm + bk:
                        out.append((wm, wk, bm, bk))
    return out


def _file(folder: Path, variant: Variant, sig: Signature) -> Path:
    return folder / variant.name / ("".join(map(str, sig)) + ".egdb")


def unsupported(variant: Variant) -> Optional[str]:
    """Why the databases cannot hold `variant`'s endings, or None when they can."""
    if variant.crowning_wins:
        return (f"{variant.name} ends when a man is crowned: its endings of few pieces are "
                f"races, which the databases do not hold")
    if variant.king_move_limit:
        return (f"{variant.name} limits a king's quiet moves in a row while its side has "
                f"men: the kings' runs are part of the position, and the databases do not "
                f"hold them")
    return None


def _new_tables(variant: Variant) -> EgdbTables:
    reason = unsupported(variant)
    if reason:
        raise EgdbError(reason)
    return EgdbTables(Game.of(variant))


def _write(path: Path, variant: Variant, sig: Signature, data: bytearray, limit: int) -> int:
    raw = bytes(data)
    header = {"game": variant.name, "signature": list(sig), "size": len(raw),
              "limit": limit, "crc32": zlib.crc32(raw)}
    body = zlib.compress(raw, 9)
    tmp = path.with_suffix(".tmp")
    with open(tmp, "wb") as handle:
        handle.write(_MAGIC + json.dumps(header).encode() + b"\n" + body)
    os.replace(tmp, path)
    return len(_MAGIC) + len(body)


def _header(line: bytes, name: str) -> Dict[str, Any]:
    """The header of a table file, checked: EgdbError unless it is a JSON object with every
    field of _HEADER_FIELDS, each of its type."""
    expected = ("expected a JSON object with game (text), signature (4 numbers), size, "
                "limit and crc32 (numbers)")
    try:
        header = json.loads(line)
    except (ValueError, RecursionError):    # not JSON, or nested too deep to read
        raise EgdbError(f"{name} is damaged: its header is not JSON; {expected}") from None
    if not isinstance(header, dict):
        raise EgdbError(f"{name} is damaged: its header is a JSON {type(header).__name__}, "
                        f"not an object; {expected}")
    for key, kind in _HEADER_FIELDS.items():
        value = header.get(key)
        if not isinstance(value, kind) or isinstance(value, bool) or (
                isinstance(value, list) and (len(value) != 4 or not all(
                    isinstance(n, int) and not isinstance(n, bool) for n in value))):
            found = "no " + key if key not in header else f"{key} = {json.dumps(value)[:40]}"
            raise EgdbError(f"{name} is damaged: its header has {found}; {expected}")
    return header


def _read(path: Path, variant: Variant, sig: Signature, size: int, limit: int) -> bytearray:
    """The table of `sig` in the file at `path`, checked (see the module docstring): the
    header first, then at most `size` bytes inflated.  Raises EgdbError."""
    name = repr(str(path))
    # what zlib can make of `size` bytes at worst (its compressBound, and some room)
    longest = size + size // 1000 + 64
    try:
        with open(path, "rb") as handle:
            if handle.read(len(_MAGIC)) != _MAGIC:
                raise EgdbError(f"{name} is not a shashki endgame table")
            line = handle.readline(_MAX_HEADER + 1)
            if not line.endswith(b"\n"):
                raise EgdbError(f"{name} is damaged: its header line is cut short or longer "
                                f"than {_MAX_HEADER} bytes")
            header = _header(line, name)
            if header["game"] != variant.name or tuple(header["signature"]) != sig or \
                    header["size"] != size or header["limit"] != limit:
                raise EgdbError(f"{name} is not the {variant.name} table {_code(sig)} of "
                                f"this version of shashki (rebuild it)")
            body = handle.read(longest + 1)
    except OSError as exc:
        raise EgdbError(f"cannot read {name}: {exc.strerror or exc}") from None
    if len(body) > longest:
        raise EgdbError(f"{name} is damaged: it is longer than a table of {size:,} bytes "
                        f"compresses to")
    inflate = zlib.decompressobj()
    try:
        raw = inflate.decompress(body, size + 1)    # never more than the table and a byte
    except zlib.error as exc:
        raise EgdbError(f"{name} is damaged: {exc}") from None
    if len(raw) > size or inflate.unconsumed_tail:
        raise EgdbError(f"{name} is damaged: it inflates to more than its size of "
                        f"{size:,} bytes")
    if len(raw) != size or not inflate.eof or header["crc32"] != zlib.crc32(raw):
        raise EgdbError(f"{name} is damaged: cut short, or its bytes are not those it was "
                        f"written with (rebuild it)")
    return bytearray(raw)


@dataclass
class BuildReport:
    """What `build` did: the signatures built (and those already there), the entries of
    their tables (`positions`: every slot of the index, see the module docstring), bytes on
    disk, seconds."""
    variant: str
    pieces: int
    built: int
    kept: int
    positions: int
    bytes: int
    seconds: float

    def __str__(self) -> str:
        return (f"{self.variant} up to {self.pieces} pieces: {self.built} tables built, "
                f"{self.kept} already there, {self.positions:,} entries, "
                f"{self.bytes / 1e6:.1f} MB on disk, {self.seconds:.1f} s")


def _folder(folder: Optional[PathLike]) -> Path:
    path = Path(os.fspath(folder)) if folder is not None else default_folder()
    if path.exists() and not path.is_dir():
        raise EgdbError(f"{str(path)!r} is not a folder")
    return path


def build(variant: Union[str, Variant], pieces: int, folder: Optional[PathLike] = None, *,
          progress: Optional[Callable[[str], object]] = None) -> BuildReport:
    """Build the tables of `variant` up to `pieces` pieces in `folder` (default_folder());
    tables already there are kept, damaged ones built again.  `progress(text)` hears of each
    table."""
    variant = get_variant(variant)
    _check_pieces(pieces)
    root = _folder(folder)
    tables = _new_tables(variant)       # (first: a game with no tables makes no folder)
    try:
        (root / variant.name).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise EgdbError(f"cannot make the folder {str(root / variant.name)!r}: "
                        f"{exc.strerror or exc}") from None
    began = time.time()
    built = kept = positions = size = 0
    done = set()
    for sig in signatures(pieces):
        if sig in done:
            continue
        mirror = (sig[2], sig[3], sig[0], sig[1])
        pair = [sig] if mirror == sig else [sig, mirror]
        paths = [_file(root, variant, s) for s in pair]
        names = " and ".join(_code(s) for s in pair)
        if all(p.exists() for p in paths):
            try:
                kept_data = [_read(p, variant, s, tables.size(*s), tables.limit)
                             for s, p in zip(pair, paths)]
            except EgdbError as exc:
                if progress is not None:
                    progress(f"{variant.name} {names}: {exc}; building it again")
            else:
                for s, p, d in zip(pair, paths, kept_data):
                    tables.attach(*s, d)
                    size += p.stat().st_size
                    positions += tables.size(*s)
                kept += len(pair)
                done.update(pair)
                continue
        data = [bytearray(tables.size(*s)) for s in pair]
        for s, d in zip(pair, data):
            tables.attach(*s, d)
        start = time.time()
        egdb_build.build(tables, *sig)
        for s, d, p in zip(pair, data, paths):
            size += _write(p, variant, s, d, tables.limit)
            positions += len(d)
        built += len(pair)
        done.update(pair)
        if progress is not None:
            progress(f"{variant.name} {names}: {sum(map(len, data)):,} entries, "
                     f"{time.time() - start:.1f} s")
    return BuildReport(variant.name, pieces, built, kept, positions, size,
                       time.time() - began)


def verify(variant: Union[str, Variant], pieces: int, folder: Optional[PathLike] = None, *,
           progress: Optional[Callable[[str], object]] = None) -> Tuple[int, List[str]]:
    """Check every position of the tables up to `pieces` pieces against the values of its
    successors: (positions checked, descriptions of the first disagreements and of the
    damaged tables).  The positions are the entries of the tables that are positions (see
    the module docstring): fewer than `build` reports entries."""
    tables = open_tables(variant, folder, pieces)
    return tables.verify(pieces, progress=progress)


class Tables:
    """The endgame tables of one game found in a folder, loaded into memory as they are
    needed (the search has every table up to `pieces` loaded when it is attached)."""

    def __init__(self, variant: Union[str, Variant], folder: Optional[PathLike] = None,
                 pieces: int = MAX_PIECES) -> None:
        self.variant = get_variant(variant)
        self.folder = _folder(folder)
        self.pieces = _check_pieces(pieces)
        self._tables = _new_tables(self.variant)
        self._fmjd = Game.of(self.variant).fmjd_draw_rules
        self._present: Dict[Signature, Path] = {}
        #: the tables found damaged, each with what is wrong (they are skipped)
        self.damaged: Dict[Signature, str] = {}
        for sig in signatures(self.pieces):
            path = _file(self.folder, self.variant, sig)
            if path.exists():
                self._present[sig] = path
        self._loaded = False

    @property
    def available(self) -> List[Signature]:
        """The signatures whose tables are in the folder."""
        return sorted(self._present)

    @property
    def complete_pieces(self) -> int:
        """The most pieces n such that every table of up to n pieces is there (0: none)."""
        best = 0
        for n in range(2, self.pieces + 1):
            if all(s in self._present for s in signatures(n)):
                best = n
            else:
                break
        return best

    def load(self, pieces: Optional[int] = None) -> int:
        """Load every table of up to `pieces` pieces (default: all complete ones) into
        memory; returns the most pieces n such that every table of up to n pieces is loaded
        (a damaged table is skipped with an EgdbWarning, and makes it less)."""
        n = self.complete_pieces if pieces is None else min(pieces, self.complete_pieces)
        for sig in signatures(n) if n >= 2 else []:
            self._attach(sig)
        return min(n, self.complete_pieces)

    def build_command(self, pieces: int) -> str:
        """The `shashki egdb build` command that makes these tables up to `pieces` pieces."""
        return build_command(self.variant, pieces, self.folder)

    def _attach(self, sig: Signature) -> bool:
        """Whether the table of `sig` is loaded (loading it now if need be); a damaged one is
        skipped with a warning, once."""
        if self._tables.has(*sig):
            return True
        path = self._present.get(sig)
        if path is None:
            return False
        try:
            data = _read(path, self.variant, sig, self._tables.size(*sig), self._tables.limit)
        except EgdbError as exc:
            del self._present[sig]
            self.damaged[sig] = str(exc)
            warnings.warn(f"skipped the {self.variant.name} endgame table {_code(sig)}: {exc}; "
                          f"the other tables are used (make it again with "
                          f"{self.build_command(sum(sig))})", EgdbWarning, stacklevel=3)
            return False
        self._tables.attach(*sig, data)
        return True

    def _missing(self, board: Board, sig: Signature) -> MissingTableError:
        """Why the tables do not hold `board` (of signature `sig`), and what makes them."""
        n, fen, game = sum(sig), board.fen(), self.variant.name
        if not (sig[2] + sig[3]):
            return MissingTableError(f"no {game} table holds {fen}: the side that has just "
                                     f"moved has no pieces (the game is over)")
        if n > MAX_PIECES:
            return MissingTableError(f"no {game} table holds {fen}: it has {n} pieces, and "
                                     f"the databases hold positions of up to {MAX_PIECES}")
        table = (f"table {_code(sig)} (the side to move's men and kings, then the other "
                 f"side's)")
        if n > self.pieces:
            return MissingTableError(f"no {game} table for {fen}: it has {n} pieces, and "
                                     f"these tables were opened for up to {self.pieces} "
                                     f"(open_tables(..., pieces={n}); its {table} is made "
                                     f"by {self.build_command(n)})")
        if sig in self.damaged:
            return MissingTableError(f"no {game} table for {fen}: its {table} was skipped: "
                                     f"{self.damaged[sig]}; make it again with "
                                     f"{self.build_command(n)}")
        return MissingTableError(f"no {game} table for {fen}: its {table} is not in "
                                 f"{str(self.folder)!r}; make it with {self.build_command(n)}")

    def _signature(self, board: Board) -> Signature:
        white, black, kings = board.white, board.black, board.kings
        if board.turn != WHITE:
            white, black = black, white
        return (bin(white & ~kings).count("1"), bin(white & kings).count("1"),
                bin(black & ~kings).count("1"), bin(black & kings).count("1"))

    def _check(self, board: Board) -> None:
        if board.variant != self.variant:
            raise EgdbError(f"these are {self.variant.name} tables, not "
                            f"{board.variant.name}")
        if board.fmjd_draw_rules != self._fmjd:
            raise EgdbError("the board plays with other draw rules than the tables were "
                            "built for (fmjd_draw_rules)")

    def probe(self, board: Board) -> Tuple[int, int]:
        """(wdl, dtz) of `board`; MissingTableError when the tables do not hold it."""
        self._check(board)
        sig = self._signature(board)
        if sum(sig) > self.pieces or not (sig[2] + sig[3]) or \
                (sig[0] + sig[1] and not self._attach(sig)):
            raise self._missing(board, sig)
        wdl, dtz = self._tables.probe(board)
        if wdl == -2:
            raise MissingTableError(f"no {self.variant.name} table holds {board.fen()}: it "
                                    f"is not a position of the tables (a man on its "
                                    f"crowning row?)")
        return int(wdl), int(dtz)

    def probe_wdl(self, board: Board) -> int:
        """1 if the side to move wins, 0 a draw, -1 a loss (by the rules, with the board's
        counters of its draw rules)."""
        return self.probe(board)[0]

    def probe_dtz(self, board: Board) -> int:
        """Plies to the next capture or man move on the best line: positive when the side
        to move wins, negative when it loses, 0 in a draw."""
        wdl, dtz = self.probe(board)
        return wdl * max(dtz, 1) if wdl else 0

    def get_wdl(self, board: Board, default: Optional[int] = None) -> Optional[int]:
        try:
            return self.probe_wdl(board)
        except MissingTableError:
            return default

    def get_dtz(self, board: Board, default: Optional[int] = None) -> Optional[int]:
        try:
            return self.probe_dtz(board)
        except MissingTableError:
            return default

    def best_move(self, board: Board) -> Any:
        """A move keeping the best value: the fastest conversion of a win, the slowest of a
        loss (MissingTableError as probe)."""
        self.probe(board)
        best: Any = None
        best_key: Optional[Tuple[int, int]] = None
        for move in board.legal_moves:
            board.push(move)
            try:
                if board.outcome() is not None and not board.legal_moves:
                    child_wdl, child_dtz = (1 if self.variant.reversed_goal else -1), 0
                else:
                    child_wdl, child_dtz = self.probe(board)
            finally:
                board.pop()
            zeroing = move.is_capture or not (board.kings >> move.origin) & 1
            dist = 1 if zeroing else child_dtz + 1
            key = (-child_wdl, -dist if -child_wdl > 0 else dist)
            if best_key is None or key > best_key:
                best, best_key = move, key
        return best

    def entries(self, pieces: int) -> int:
        """The entries of the tables of up to `pieces` pieces (every slot of their index)."""
        return sum(self._tables.size(*sig) for sig in signatures(pieces))

    def verify(self, pieces: Optional[int] = None, *,
               progress: Optional[Callable[[str], object]] = None) -> Tuple[int, List[str]]:
        """See the module's `verify`.  The tables after a damaged one are not checked: their
        successors' values may be in it."""
        n = self.complete_pieces if pieces is None else min(pieces, self.complete_pieces)
        if n < 2:
            raise EgdbError(f"no complete {self.variant.name} tables in "
                            f"{str(self.folder)!r}")
        self.load(n)
        checked = 0
        bad: List[str] = []
        for sig in signatures(n):
            if sig in self.damaged:
                bad.append(f"{_code(sig)} is damaged ({self.damaged[sig]}): make it again "
                           f"with {self.build_command(n)}; the tables after it were not "
                           f"checked")
                break
            count, wrong = egdb_build.verify(self._tables, *sig)
            checked += count
            for i in wrong:
                position = egdb_build.position(self._tables, *sig, i)
                bad.append(f"{_code(sig)} index {i}: {position.fen() if position else None}")
            if progress is not None:
                progress(f"{self.variant.name} {_code(sig)}: {count:,} positions checked "
                         f"of {self._tables.size(*sig):,} entries, {len(wrong)} wrong")
        return checked, bad

    @property
    def c_tables(self) -> EgdbTables:
        """The compiled tables (what the search probes)."""
        return self._tables

    def __iter__(self) -> Iterator[Signature]:
        return iter(self.available)


def open_tables(variant: Union[str, Variant], folder: Optional[PathLike] = None,
                pieces: int = MAX_PIECES) -> Tables:
    """The tables of `variant` in `folder` (default_folder())."""
    return Tables(variant, folder, pieces)


_OPEN: Dict[Tuple[str, str], Tables] = {}



def sample_boards(variant: Union[str, Variant], pieces: int, count: int,
                  seed: Union[int, str, None] = None) -> List[Board]:
    """`count` positions of `pieces` pieces drawn at random (each side at least one, about
    half of them kings, no man on its crowning row, none that is over), for spot checks of
    the tables against the search."""
    variant = get_variant(variant)
    rng = random.Random(seed)
    n, w = variant.geometry.squares, variant.geometry.width
    out: List[Board] = []
    while len(out) < count:
        squares = rng.sample(range(n), pieces)
        split = rng.randint(1, pieces - 1)
        sides = [0, 0]
        kings = 0
        ok = True
        for i, s in enumerate(squares):
            king = rng.random() < 0.5
            if not king and (s >= n - w if i < split else s < w):
                ok = False          # a man on its crowning row
            sides[i >= split] |= 1 << s
            kings |= king << s
        if ok:
            board = Board.from_position(Position.from_masks(variant, sides[0], sides[1], kings,
                                                            rng.randint(0, 1)))
            if board.outcome() is None:
                out.append(board)
    return out

def probe(board: Board) -> Tuple[int, int]:
    """(wdl, dtz) of `board` from the tables in the default folder (see Tables.probe)."""
    key = (board.variant.name, str(default_folder()))
    tables = _OPEN.get(key)
    if tables is None:
        tables = _OPEN[key] = Tables(board.variant)
    return tables.probe(board)


def for_engine(variant: Variant, spec: Any) -> Optional[Tables]:
    """The tables an Engine probes: `spec` Tables, a folder, or None for the default folder;
    None when there are no complete tables.  Tables opened from a folder are shared by every
    engine of the process (and loaded once)."""
    if unsupported(variant) and not isinstance(spec, Tables):
        return None
    if isinstance(spec, Tables):
        tables = spec
    else:
        folder = _folder(spec)
        key = (variant.name, str(folder))
        opened = _OPEN.get(key)
        if opened is None:
            opened = _OPEN[key] = Tables(variant, folder)
        tables = opened
    if tables.variant != variant or tables.load() < 2:
        return None
    return tables
