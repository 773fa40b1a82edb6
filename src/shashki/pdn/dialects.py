"""How PDN files name the games, and the dialects of the sites that write them.

Everything here is derived from the game records (shashki.variants): the GameType numbers,
the names and aliases, the side that moves first.

- **GameType** (PDN 3.0): the number, alone or in full (``25`` or ``25,W,8,8,A0,0``).  A
  number two games share (russian and giveaway: 25) names the first of them; a ``Variant``
  tag picks the other, and the writer adds one for it.
- **Variant** (lidraughts, PlayStrategy): a game's name or alias (``Russian``, ``poddavki``),
  or names joined by ``/`` or ``,`` (PlayStrategy's ``American/English``).
- **PlayStrategy**: no GameType; the players are ``P1`` (who moves first) and ``P2``, and the
  result is scored P1 first: ``1-0`` is a win of the first mover, Black in english.  shashki
  scores White first in every game (as ``Board.result()`` does), so reading turns the
  result round where Black moves first, and names the players in ``White`` and ``Black``
  tags.  In a game whose record sets ``playstrategy_algebraic`` (english) the squares are
  named algebraically *as seen from the side that moves first* (Black, whose men stand on its
  rows 1-3): that board is turned half a turn from White's, so (file, rank) there is
  (h - file, 8 - rank) here, and PlayStrategy's usual first move ``c3-d4`` is ``11-15``.  A
  multi-jump is written as single jumps (``d8xf6 f6xd4``; the reader joins them).
"""

from __future__ import annotations

import re
from typing import Dict, List, Mapping, Optional

from .._text import bounded_int
from ..errors import InvalidPdnError, ShashkiError
from ..variants import BLACK, COLOR_NAMES, VARIANTS, WHITE, Variant, get_variant

#: the game of a PDN game without GameType or Variant tag: the first record, as for Board()
DEFAULT_VARIANT = VARIANTS[0]

#: each GameType number and the game it names (the first record that has it)
_BY_GAMETYPE: Dict[int, Variant] = {}
for _variant in VARIANTS:
    _BY_GAMETYPE.setdefault(_variant.gametype, _variant)
_LARGEST_GAMETYPE = max(_BY_GAMETYPE)
_DIGITS = re.compile(r"[0-9]+")
_ALGEBRAIC = re.compile(r"[a-hA-H][1-8]")


def shorten(text: str, limit: int = 40) -> str:
    """`text` as an error message quotes it: cut after `limit` characters."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def _gametype_list() -> str:
    """"21 (english), 22 (italian), 25 (russian, giveaway) or 26 (brazilian)"."""
    items = [f"{number} ({', '.join(v.name for v in VARIANTS if v.gametype == number)})"
             for number in sorted(_BY_GAMETYPE)]
    return ", ".join(items[:-1]) + " or " + items[-1]


def variant_from_gametype(value: str) -> Variant:
    """The game of a GameType tag ("25" or "25,W,8,8,A0,0"); raises InvalidPdnError."""
    fields = [f.strip() for f in value.split(",")]
    if not _DIGITS.fullmatch(fields[0]):
        raise InvalidPdnError(f"cannot read GameType {shorten(value)!r}; expected a number "
                              f"such as 25 or the full form 25,W,8,8,A0,0")
    number = bounded_int(fields[0], _LARGEST_GAMETYPE)
    variant = None if number is None else _BY_GAMETYPE.get(number)
    if variant is None:
        raise InvalidPdnError(f"GameType {shorten(fields[0].lstrip('0') or '0')} is not a game "
                              f"shashki plays; expected {_gametype_list()}")
    if len(fields) >= 4:
        size = [bounded_int(f, 99) if _DIGITS.fullmatch(f) else None for f in fields[2:4]]
        g = variant.geometry
        if size != [g.files, g.rows]:
            raise InvalidPdnError(f"GameType {shorten(value)!r} describes a "
                                  f"{shorten(fields[2], 8)}x{shorten(fields[3], 8)} board; "
                                  f"{variant.name} is played on {g.name}")
    return variant


def variant_from_tag(value: str) -> Optional[Variant]:
    """The game a `[Variant "..."]` tag names, or None."""
    key = " ".join(value.lower().split())
    for candidate in [key] + re.split(r"[/,]", key):
        try:
            return get_variant(candidate.strip())
        except ShashkiError:
            continue
    return None


def game_variant(headers: Mapping[str, str], forced: Optional[Variant]) -> Variant:
    """The game of a PDN game from its tags (or `forced`); raises InvalidPdnError."""
    if forced is not None:
        return forced
    tag = headers.get("Variant")
    named = variant_from_tag(tag) if tag is not None else None
    if "GameType" in headers:
        variant = variant_from_gametype(headers["GameType"])
        # a GameType two games share: only the Variant tag tells them apart
        if named is not None and named.gametype == variant.gametype:
            return named
        return variant
    if tag is not None:
        if named is None:
            names = ", ".join(v.name for v in VARIANTS)
            raise InvalidPdnError(f"unknown Variant {shorten(tag)!r}; shashki plays {names}")
        return named
    return DEFAULT_VARIANT


def variant_tag(variant: Variant, tag: Optional[str]) -> Optional[str]:
    """The Variant tag to write for a game whose headers hold `tag` (None: none): kept when
    it names the game, the game's own name when it names another or when GameType alone
    would name another game; None when no tag is needed."""
    if tag is not None and variant_from_tag(tag) is variant:
        return tag
    if tag is not None or _BY_GAMETYPE[variant.gametype] is not variant:
        return variant.name.title()
    return None


# --- PlayStrategy ------------------------------------------------------------------------------

def is_playstrategy(headers: Mapping[str, str]) -> bool:
    """Whether a game's tags are PlayStrategy's: players P1 and P2, no GameType."""
    return "GameType" not in headers and ("P1" in headers or "P2" in headers)


def first_mover_result(result: str, variant: Variant) -> str:
    """A result scored first mover first (PlayStrategy's P1-P2) scored White first."""
    if variant.first_to_move == WHITE:
        return result
    return "-".join(reversed(result.split("-")))


def normalise_headers(headers: Dict[str, str], variant: Variant) -> None:
    """PlayStrategy's tags as shashki's: the Result scored White first, the players also in
    White and Black tags (P1 plays the side that moves first)."""
    if "Result" in headers:
        headers["Result"] = first_mover_result(headers["Result"], variant)
    second = BLACK if variant.first_to_move == WHITE else WHITE
    for player, color in (("P1", variant.first_to_move), ("P2", second)):
        if player in headers:
            headers.setdefault(COLOR_NAMES[color].title(), headers[player])


def _first_mover_square(name: str, variant: Variant) -> str:
    """A square named algebraically from the first mover's side, in the game's notation."""
    g = variant.geometry
    file, rank = ord(name[0].lower()) - 97, int(name[1]) - 1
    if variant.first_to_move != WHITE:
        file, rank = g.files - 1 - file, g.rows - 1 - rank   # the board turned half a turn
    square = g.square_at(file, rank)
    if square is None:
        raise InvalidPdnError(f"{name} is a light square; pieces stand on dark squares")
    return variant.square_name(square)


def move_text(variant: Variant, segments: List[str], joined: bool, capture: bool,
              written: str) -> str:
    """The text to parse for a move written as `written` with these square names: as
    written, or with PlayStrategy's algebraic squares renamed and split jumps (`joined`)
    put together.  Raises InvalidPdnError (a light square)."""
    converted = variant.playstrategy_algebraic and any(_ALGEBRAIC.fullmatch(s) for s in segments)
    if converted:
        segments = [_first_mover_square(s, variant) if _ALGEBRAIC.fullmatch(s) else s
                    for s in segments]
    if converted or joined:
        return ("x" if capture else "-").join(segments)
    return written


def fen_text(text: str, variant: Variant) -> str:
    """A FEN tag's text, with PlayStrategy's algebraic squares renamed in a game that has
    them."""
    if not variant.playstrategy_algebraic:
        return text
    fields = text.split(":")
    for i, field in enumerate(fields[1:], 1):
        items = field[1:].split(",")
        for j, item in enumerate(items):
            king = item[:1] in ("K", "k")
            square = (item[1:] if king else item).strip()
            if _ALGEBRAIC.fullmatch(square):
                items[j] = ("K" if king else "") + _first_mover_square(square, variant)
        fields[i] = field[:1] + ",".join(items)
    return ":".join(fields)
