"""PDN FEN: read and write positions, e.g. ``W:W21,22,K30:B1-12``.

A FEN is the side to move (``W`` or ``B``), then a section per colour (``W`` or ``B`` followed by
its squares, comma-separated; ``K`` before a king's square; ``21-32`` is a range), all joined by
``:`` (docs/games/notation.md, "Positions (FEN)").  The squares are the game's: a1..h8 in the
algebraic games (russian, giveaway, brazilian, ...), numbers in the numeric ones (1..32 in
italian and english, 1..50 on 10x10): ``Variant.numeric`` says which.

Reading is tolerant of what real files contain: spaces, a trailing dot, surrounding quotes, an
empty side (``W:W21:B``), either colour order, lowercase letters, ranges, numeric squares in the
english numbering for the algebraic games (1 = b8, White on 21-32), lidraughts' ``:H0:F1``
counters.  It is strict about anything that would make a wrong position: each problem raises
InvalidFenError naming it (unknown character, square out of range or not playable, a square
used twice, a man on its own promotion row, more pieces a side than the board allows
(``Geometry.max_pieces``: 12 on 8x8, 20 on 10x10), a bad side to move).

Writing gives one canonical text per position, so reading then writing is stable.
"""

from __future__ import annotations

import functools
import re
from typing import Any, Dict, List, Optional, Tuple

from .geometry import mask_squares
from . import square_text
from ._text import quote, short
from .errors import InvalidFenError, InvalidKingRunsError
from .square_text import SquareTextError, is_number, read_number, read_square
from .status import CROWNED, HELD, TOO_MANY, crowned_men, position_status
from .variants import WHITE, BLACK, COLOR_NAMES, Variant, get_variant

#: every character a FEN may hold once spaces, quotes and the trailing dot are gone
_ALLOWED = frozenset("WBKHFwbkhf" "abcdefghABCDEFGH" "0123456789" ":,-+")
# lidraughts writes ":H<halfmoves>:F<fullmove>" after the pieces; we read and return them
_COUNTER = re.compile(r"([HF])([0-9]{1,9})\Z")
# frisian: the kings' runs as lidraughts writes them, Black's then White's, each "+", the number
# of quiet moves in a row (0-3) and the square of the king that made them: ":+0+247"
_RUNS = re.compile(r"\+([0-9])([0-9]{0,2})\+([0-9])([0-9]{0,2})\Z")


#: the kings' runs of a position, as Position.king_runs gives them: (square, count) of White's
#: running king, then of Black's, (None, 0) for none
KingRuns = Tuple[Tuple[Optional[int], int], Tuple[Optional[int], int]]


def parse_fen(text: str, variant: Variant) -> Tuple[int, int, int, int, Dict[str, Any]]:
    """(white, black, kings, turn, counters) of a FEN in `variant`'s notation.

    Masks use shashki's square numbering; `counters` maps "H"/"F" to the values of
    lidraughts-style counter fields when present, and "runs" to the kings' runs (KingRuns)
    of a game that counts them.  Raises InvalidFenError.
    """
    if not isinstance(text, str):
        raise InvalidFenError(f"a FEN must be a string, not {type(text).__name__}")
    white, black, kings, turn, counters = _parse_cached(text, variant.name)
    return white, black, kings, turn, dict(counters)


@functools.lru_cache(maxsize=4096)
def _parse_cached(text: str, name: str) -> Tuple[int, int, int, int, Tuple[Tuple[str, Any], ...]]:
    # Reading a FEN is pure, and programs read the same ones again and again (every new game's
    # start position): each text is read once per game.  Errors are not cached.
    white, black, kings, turn, counters = _parse(text, get_variant(name))
    return white, black, kings, turn, tuple(counters.items())


def _parse(text: str, variant: Variant) -> Tuple[int, int, int, int, Dict[str, Any]]:
    fen = "".join(text.split())
    if len(fen) >= 2 and fen[0] == fen[-1] == '"':
        fen = fen[1:-1]
    if fen.endswith("."):
        fen = fen[:-1]
    if not fen:
        raise InvalidFenError(f"empty FEN; expected e.g. {_example(variant)!r}")
    for position, char in enumerate(fen):
        if char not in _ALLOWED and not _square_like(fen, position):
            raise InvalidFenError(
                f"unknown character {char!r} in FEN {quote(text)}; a FEN holds W or B, "
                f"':' between sections, squares separated by ',', '-' for a range and K before "
                f"a king, e.g. {_example(variant)!r}")
    fields = fen.split(":")
    side = fields[0].upper()
    if side not in ("W", "B"):
        raise InvalidFenError(
            f"bad side to move {short(fields[0], 16)!r} in FEN {quote(text)}; expected W or B "
            f"before the first ':', e.g. {_example(variant)!r}")
    turn = WHITE if side == "W" else BLACK
    masks: Dict[int, int] = {}
    kings = 0
    counters: Dict[str, Any] = {}
    runs_text = None
    for section in fields[1:]:
        if not section:
            continue  # "W::W21:B1" and a trailing ':' add nothing
        if section.startswith("+"):
            if runs_text is not None:
                raise InvalidFenError(f"the kings' runs are given twice in FEN {quote(text)}")
            runs_text = section
            continue
        counter = _COUNTER.match(section)
        if counter:
            if counter.group(1) in counters:
                raise InvalidFenError(f"the counter {counter.group(1)} is given twice in FEN "
                                      f"{quote(text)}")
            counters[counter.group(1)] = int(counter.group(2))
            continue
        letter = section[0].upper()
        if letter not in ("W", "B"):
            raise InvalidFenError(
                f"bad colour {section[0]!r} in FEN section {short(section, 16)!r}; each section "
                f"after the side to move starts with W or B")
        color = WHITE if letter == "W" else BLACK
        if color in masks:
            raise InvalidFenError(
                f"the {COLOR_NAMES[color]} pieces are listed twice in FEN {quote(text)}")
        taken = masks.get(WHITE, 0) | masks.get(BLACK, 0)
        mask, kmask = _parse_pieces(section[1:], variant, taken, COLOR_NAMES[color])
        masks[color] = mask
        kings |= kmask
    if not masks:
        raise InvalidFenError(
            f"FEN {quote(text)} lists no pieces; expected a section for each colour after the "
            f"side to move, e.g. {_example(variant)!r}")
    white = masks.get(WHITE, 0)
    black = masks.get(BLACK, 0)
    _check_held(variant, white, black, kings, " in the FEN", "write K{}")
    if runs_text is not None:
        counters["runs"] = _parse_runs(runs_text, text, variant, white, black, kings)
    return white, black, kings, turn, counters


def _parse_runs(section: str, text: str, variant: Variant, white: int, black: int,
                kings: int) -> KingRuns:
    """The kings' runs field of a frisian FEN (``+<count><square>`` for Black, then White);
    InvalidKingRunsError when it is not one or does not fit the position."""
    limit = variant.king_move_limit
    if not limit:
        raise InvalidKingRunsError(
            f"{short(section, 16)!r} in FEN {quote(text)} gives kings' runs, which {variant.name} "
            f"does not count (only a game that limits one king's moves in a row, as frisian)")
    match = _RUNS.match(section)
    if not match:
        raise InvalidKingRunsError(
            f"cannot read the kings' runs {short(section, 16)!r} in FEN {quote(text)}; expected "
            f"'+' and a count 0-{limit} with the king's square for Black, then for White, "
            f"e.g. '+0+247' (White's king on 47 has made 2 moves in a row)")
    runs: List[Tuple[Optional[int], int]] = [(None, 0), (None, 0)]
    for color, count_text, square_text in ((BLACK, match.group(1), match.group(2)),
                                           (WHITE, match.group(3), match.group(4))):
        name = COLOR_NAMES[color]
        count = int(count_text)
        if count > limit:
            raise InvalidKingRunsError(
                f"{name}'s king has made {count} moves in a row in FEN {quote(text)}; "
                f"{variant.name} allows at most {limit}")
        if not count:
            continue    # lidraughts may keep the square of a finished run: nothing to check
        if not square_text:
            raise InvalidKingRunsError(
                f"{name}'s run of {count} in FEN {quote(text)} names no king; write the "
                f"square after the count, e.g. '+{count}47'")
        square = variant.square_from_number(_number(square_text, variant))
        own = white if color == WHITE else black
        if not (own & kings) >> square & 1:
            raise InvalidKingRunsError(
                f"{name}'s run in FEN {quote(text)} is of the king on {square_text}, but no "
                f"{name} king stands there")
        if not own & ~kings:
            raise InvalidKingRunsError(
                f"{name} has only kings in FEN {quote(text)}, so its kings' moves are not "
                f"counted; write '+0' for {name}")
        # (the pair is White's, then Black's: not indexed by colour, as masks are not)
        runs[0 if color == WHITE else 1] = (square, count)
    return runs[0], runs[1]


def _square_like(fen: str, position: int) -> bool:
    # a letter before a digit reads as a square (i9), so the message can say it is off the board
    char = fen[position]
    return (char.isascii() and char.isalpha() and position + 1 < len(fen)
            and fen[position + 1] in "0123456789")


def _parse_pieces(text: str, variant: Variant, taken: int,
                  color_name: str) -> Tuple[int, int]:
    """Masks (pieces, kings) of the squares of one colour section (without its W/B)."""
    mask = 0
    kmask = 0
    if not text:
        return 0, 0  # an empty side
    for item in text.split(","):
        if not item:
            raise InvalidFenError(f"empty square in the {color_name} pieces {short(text, 16)!r}; "
                                  f"squares are separated by single commas")
        king = item[0] in "Kk"
        body = item[1:] if king else item
        if not body:
            raise InvalidFenError(f"K without a square in the {color_name} pieces; write K "
                                  f"before a king's square, e.g. K{variant.square_name(0)}")
        for square in _parse_item(body, variant, item):
            bit = 1 << square
            if (mask | taken) & bit:
                raise InvalidFenError(
                    f"square {variant.square_name(square)} is used twice in the FEN")
            mask |= bit
            if king:
                kmask |= bit
    return mask, kmask


def _parse_item(body: str, variant: Variant, item: str) -> List[int]:
    """The squares of one item: a square or a range of numbered squares."""
    parts = body.split("-")
    if len(parts) > 2:
        raise InvalidFenError(f"cannot read {short(item, 16)!r} in a FEN; a range is two numbered "
                              f"squares joined by '-', e.g. 21-32")
    if len(parts) == 2:
        lo, hi = parts
        if not (is_number(lo) and is_number(hi)):
            raise InvalidFenError(f"cannot read range {short(item, 16)!r} in a FEN; a range joins "
                                  f"two numbered squares, e.g. 21-32")
        first, last = _number(lo, variant), _number(hi, variant)
        if first > last:
            raise InvalidFenError(f"range {short(item, 16)!r} in a FEN runs backwards; write the "
                                  f"lower square first")
        return [variant.square_from_number(n) for n in range(first, last + 1)]
    try:
        return [read_square(body.lower(), variant, numbers="always")]
    except SquareTextError as error:
        raise InvalidFenError(_square_reason(error, variant, item)) from None


def _number(digits: str, variant: Variant) -> int:
    try:
        return read_number(digits, variant)
    except SquareTextError as error:
        raise InvalidFenError(_square_reason(error, variant, digits)) from None


def _square_reason(error: SquareTextError, variant: Variant, item: str) -> str:
    """SquareTextError `error` (of FEN item `item`) worded for a FEN."""
    token, last, corner = short(error.token, 16), error.last, error.corner
    reason = error.reason
    if reason == square_text.OUT_OF_RANGE:
        return f"square {token} in a FEN is out of range; squares are numbered 1-{last}"
    if reason == square_text.NAME_NOT_NUMBER:
        return f"{variant.name} FEN squares are numbers 1-{last}, not {token!r}"
    if reason == square_text.OFF_BOARD:
        return (f"square {token} in a FEN is off the board; squares are {corner} (or "
                f"numbers 1-{last})")
    if reason == square_text.LIGHT:
        return f"{token} is a light square; pieces stand on dark squares"
    return (f"cannot read {short(item, 16)!r} in a FEN; expected a square such as "
            f"{'' if variant.numeric else 'c3 or '}22, a range such as 21-32, or K before a "
            f"king's square")


def _check_held(variant: Variant, white: int, black: int, kings: int, where: str,
                fix: str) -> None:
    """InvalidFenError unless the pieces of these (sound) masks are a position the core can
    hold, by the one check of shashki.status: at most the men of its start a side, no man on
    its own promotion row.  `where` ends the message's subject, `fix` (with {} for the square)
    says what to write instead of a man on its promotion row."""
    status = position_status(variant, white, black, kings)
    if not status & ~HELD:
        return
    most = variant.geometry.max_pieces
    for color, mask in ((WHITE, white), (BLACK, black)):
        name = COLOR_NAMES[color]
        if status & TOO_MANY[color]:
            raise InvalidFenError(f"more than {most} {name} pieces{where}; a side has at most "
                                  f"{most}")
        if status & CROWNED[color]:
            square = variant.square_name(mask_squares(crowned_men(variant, color, mask,
                                                                  kings))[0])
            raise InvalidFenError(f"a {name} man on {square}, its own promotion row; a man "
                                  f"there is crowned, so {fix.format(square)}")


def _example(variant: Variant) -> str:
    return variant.start_fen if variant.numeric else "W:Wc3,e3,Kd2:Bf6,h6"


def check_position(variant: Variant, white: object, black: object, kings: object,
                   turn: object, king_runs: object = None) -> Optional[KingRuns]:
    """InvalidFenError (InvalidKingRunsError for the runs) unless these square masks, side to
    move and kings' runs are a position of `variant`: what a FEN is checked for, for a
    position given as masks (Position.from_masks, and unpickling).  Returns the kings' runs as
    a tuple of two (square, count) tuples (None for none)."""
    squares = variant.geometry.squares
    for name, mask in (("white", white), ("black", black), ("kings", kings)):
        if isinstance(mask, bool) or not isinstance(mask, int) or mask < 0 or mask >> squares:
            raise InvalidFenError(f"the {name} mask must be an int of {squares} bits (bit s "
                                  f"for square s), not {short(repr(mask), 40)}")
    assert isinstance(white, int) and isinstance(black, int) and isinstance(kings, int)
    # (shashki.WHITE / BLACK, an int 1 or 0, or as in python-chess True for White and False
    # for Black; not a float, as the masks: 1.0 was taken, issue 30.19)
    if not isinstance(turn, int) or turn not in (WHITE, BLACK):
        raise InvalidFenError(f"the side to move is shashki.WHITE or shashki.BLACK, not "
                              f"{short(repr(turn), 40)}")
    if white & black:
        raise InvalidFenError(f"square {variant.square_name(mask_squares(white & black)[0])} "
                              f"holds a white and a black piece")
    if kings & ~(white | black):
        raise InvalidFenError(f"the kings mask names an empty square, "
                              f"{variant.square_name(mask_squares(kings & ~(white | black))[0])}")
    _check_held(variant, white, black, kings, "", "make it a king")
    if king_runs is None:
        return None
    runs = _run_pairs(king_runs)
    if runs == ((None, 0), (None, 0)):
        return runs
    limit = variant.king_move_limit
    if not limit:
        raise InvalidKingRunsError(f"{variant.name} does not count its kings' runs")
    # (White's run first, then Black's: the order of the pair, not the colours' values)
    for side, run in zip((WHITE, BLACK), runs):
        name = COLOR_NAMES[side]
        at, count = run
        if count == 0 and not isinstance(count, bool):
            continue
        own = white if side == WHITE else black
        if not (isinstance(count, int) and not isinstance(count, bool) and 0 < count <= limit
                and isinstance(at, int) and not isinstance(at, bool)
                and 0 <= at < squares and (own & kings) >> at & 1):
            raise InvalidKingRunsError(f"{name}'s run {run!r} is not (square of a {name} "
                                       f"king, count 1-{limit})")
        if not own & ~kings:
            raise InvalidKingRunsError(f"{name} has only kings, so its kings' moves are not "
                                       f"counted")
    return runs


def _run_pairs(king_runs: object) -> KingRuns:
    """The kings' runs as two (square, count) tuples, White's and Black's; InvalidKingRunsError
    for anything else (issue 30.19: "ab" gave "not enough values to unpack", and a tuple of
    one pair crashed the unpickling of a Position, 30.2a)."""
    pairs: Any = None
    if isinstance(king_runs, (tuple, list)) and len(king_runs) == 2:
        pairs = tuple(tuple(run) if isinstance(run, (tuple, list)) else None
                      for run in king_runs)
    if pairs is None or any(run is None or len(run) != 2 for run in pairs):
        raise InvalidKingRunsError(f"the kings' runs are two (square, count) pairs, White's "
                                   f"and Black's ((None, 0) for none), not "
                                   f"{short(repr(king_runs), 40)}")
    return pairs  # type: ignore[no-any-return]
