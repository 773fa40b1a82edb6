"""The opening tables (ballots, drawing tables) shipped with shashki as package data.

>>> import shashki
>>> shashki.opening_tables("english")
('2-move', '3-move', '4-move', '5-move', '11-man')
>>> opening = shashki.openings("russian", table="micro-match")[0]
>>> opening.name, opening.code, opening.moves
('I-1: ab4', 'I-1', ('ab4',))
>>> shashki.Board.from_opening("russian", "I-1").fen()
'B:Wa1,c1,e1,g1,b2,d2,f2,h2,c3,e3,g3,b4:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8'

The files are pydraughts' (MIT License), unchanged, in ``shashki/data/openings/`` with their
README; ``corrections.json`` there lists the entries shashki corrects on loading and why.  A
table is read the first time it is asked for, never at ``import shashki``.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple, Union

from ._text import quote
from ._core.position import Position
from .fen import parse_fen
from .notation import RUSSIAN_SHORT_FORM
from .errors import InvalidOpeningError
from .variants import OpeningTable, Variant, get_variant


_DATA = "data/openings"


#: an opening table as the game records list it (kept under its old name)
Table = OpeningTable


def _game_tables(name: str) -> Tuple[OpeningTable, ...]:
    return get_variant(name).opening_tables


@dataclass(frozen=True)
class Opening:
    """One entry of an opening table.

    `fen` is the position the opening starts from (the authority).  When the name lists moves
    (``I-1: ab4``, ``001 09-13 21-17 05-09``), `moves` holds them as written there and playing
    them from `start_fen` reaches `fen`; otherwise `moves` and `start_fen` are None (in the
    russian tables ``II-1: a1-a5`` names a start position with a man moved, not a move).
    `standard` marks the openings in use, `lost` those barred as lost for one side;
    `correction` says what shashki corrected in the published entry, if anything.
    """

    variant: str
    table: str
    name: str
    code: str
    fen: str
    standard: bool
    lost: bool
    moves: Optional[Tuple[str, ...]] = None
    start_fen: Optional[str] = None
    correction: Optional[str] = None

    @property
    def position(self) -> Position:
        """The opening's position (Board.from_opening starts a game there, with the opening's
        moves on its stack when the name lists them)."""
        return Position(self.variant, self.fen)


def opening_tables(variant: Union[str, Variant]) -> Tuple[str, ...]:
    """The ids of the opening tables of a game (empty for giveaway)."""
    return tuple(t.id for t in get_variant(variant).opening_tables)


def openings(variant: Union[str, Variant], table: Optional[str] = None) -> List[Opening]:
    """The openings of a game's tables, or of the one table with id `table`
    (see `opening_tables`), as a list of Opening."""
    name = get_variant(variant).name
    out: List[Opening] = []
    for tab in _tables(name, table):
        out.extend(_load(name, tab))
    return out


def find_opening(variant: Union[str, Variant], opening: Union[str, Opening],
                 table: Optional[str] = None) -> Opening:
    """The Opening that `opening` names in a game's tables: an Opening, its full name, or its
    code (the part before the moves: ``I-1``, ``1-I``, ``001``).  Raises InvalidOpeningError
    when none or several fit."""
    name = get_variant(variant).name
    if isinstance(opening, Opening):
        if opening.variant != name:
            raise InvalidOpeningError(
                f"opening {opening.name!r} is from the {opening.variant} tables, not {name}'s")
        return opening
    if not isinstance(opening, str):
        raise InvalidOpeningError(
            f"an opening is an Opening or its name, not {type(opening).__name__}")
    wanted = opening.strip()
    if not _game_tables(name):
        raise InvalidOpeningError(f"shashki has no opening tables for {name}")
    entries = [o for tab in _tables(name, table) for o in _load(name, tab)]
    fits = [o for o in entries if o.name == wanted]
    if not fits:
        code = wanted.rstrip(":.").upper()
        fits = [o for o in entries if o.code.upper() == code]
    if len(fits) == 1:
        return fits[0]
    where = f"table {table!r}" if table is not None else f"the {name} tables"
    if not fits:
        raise InvalidOpeningError(
            f"no opening {quote(wanted)} in {where}; give a full name as "
            f"shashki.openings({name!r}) lists it, or its code"
            + (f", e.g. {entries[0].code!r}" if entries else ""))
    raise InvalidOpeningError(
        f"{quote(wanted)} names {len(fits)} openings in {where}: "
        f"{', '.join(f'{o.name!r} ({o.table})' for o in fits[:6])}; give the table or full name")


def _tables(name: str, table: Optional[str]) -> Sequence[Table]:
    tables = _game_tables(name)
    if table is None:
        return tables
    found = [t for t in tables if t.id == table]
    if not found:
        raise InvalidOpeningError(
            f"no opening table {table!r} for {name}; "
            + (f"its tables are {', '.join(t.id for t in tables)}" if tables
               else "shashki has no opening tables for it"))
    return found


# --- reading the files -----------------------------------------------------------------------

_CODE = re.compile(r"([^\s:.]+)[:.]?\s*(.*)\Z", re.S)
_REMOVE = re.compile(r"Remove (\d+) and (\d+); (.*)\Z", re.S)
_SHORT_MOVE = re.compile(RUSSIAN_SHORT_FORM + r"\Z")
_NUMERIC_MOVE = re.compile(r"\d{1,2}[-x]\d{1,2}\Z")


@functools.lru_cache(maxsize=None)
def _load(variant_name: str, table: Table) -> Tuple[Opening, ...]:
    """The openings of one table for one game, read from the package data on first use."""
    data = _read_json(table.file)
    corrections = {c["name"]: c for c in _read_json("corrections.json")["corrections"]
                   if c["file"] == table.file}
    variant = get_variant(variant_name)
    standard = set(data.get("standard", ()))
    lost = set(data.get("lost", ()))
    out: List[Opening] = []
    for name, fen in data["all"].items():
        fields: Dict[str, Any] = {"fen": fen, "standard": name in standard, "lost": name in lost}
        correction = None
        fix = corrections.get(name)
        if fix is not None:
            if any(fields[k] != v for k, v in fix["original"].items()):  # pragma: no cover
                raise InvalidOpeningError(f"{table.file}: {name!r} is not as corrections.json "
                                          f"expects; the data was changed")
            fields.update(fix["corrected"])
            correction = fix["reason"]
        # the canonical FEN shashki writes for the position (the tables list squares in
        # whatever order their authors did)
        fields["fen"] = Position(variant, fields["fen"]).fen()
        code, moves, start = _read_name(name, variant)
        out.append(Opening(variant=variant_name, table=table.id, name=name, code=code,
                           moves=moves, start_fen=start, correction=correction, **fields))
    return tuple(out)


def _read_name(name: str,
               variant: Variant) -> Tuple[str, Optional[Tuple[str, ...]], Optional[str]]:
    """(code, moves, start_fen) of an opening's name; moves and start_fen are None unless the
    name is a list of moves."""
    match = _CODE.match(name)
    if match is None:  # pragma: no cover - every name in the tables starts with a code
        raise InvalidOpeningError(f"opening name {name!r} does not start with a code")
    code, body = match.groups()
    start = variant.start_fen
    removal = _REMOVE.match(body)
    if removal:
        start = _without(start, variant, int(removal.group(1)), int(removal.group(2)))
        body = removal.group(3)
    tokens = body.split()
    if tokens == ["Free"]:
        return code, (), start  # the free opening: the start position itself
    pattern = _NUMERIC_MOVE if variant.numeric else _SHORT_MOVE
    if tokens and all(pattern.match(t) for t in tokens):
        return code, tuple(tokens), start
    return code, None, None


def _without(fen: str, variant: Variant, *numbers: int) -> str:
    """`fen` with the men on the numbered squares removed (11-man ballots)."""
    white, black, kings, turn, _ = parse_fen(fen, variant)
    for number in numbers:
        keep = ~(1 << variant.square_from_number(number))
        white, black = white & keep, black & keep
    return Position.from_masks(variant, white, black, kings, turn).fen()


def _read_json(file: str) -> Any:
    return json.loads(resources.files("shashki").joinpath(f"{_DATA}/{file}")
                      .read_text(encoding="utf-8"))

