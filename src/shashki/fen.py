"""PDN FEN: read and write positions, e.g. ``W:W21,22,K30:B1-12``.

Reading is tolerant of what real files contain (a trailing dot, spaces, an empty side, either
colour order, ranges, numeric squares for the algebraic games, lidraughts' ``:H0:F1`` counters)
and strict about what would make a wrong position: each problem raises InvalidFenError naming
it.
"""

import re

from . import squares as _sq
from .errors import InvalidFenError
from .variants import WHITE, BLACK

MAX_PIECES = 12
_ITEM = re.compile(r"(K?)(?:(\d+)-(\d+)|(\d+)|([a-hA-H][1-8]))\Z")
_COUNTER = re.compile(r"([HF])(\d+)\Z")


def parse_fen(text, variant):
    """(white, black, kings, turn, counters) of a FEN in `variant`'s notation.

    Masks use shashki's square numbering; `counters` maps "H"/"F" to the values of
    lidraughts-style counter fields when present.
    """
    if not isinstance(text, str):
        raise InvalidFenError(f"a FEN must be a string, not {type(text).__name__}")
    fen = "".join(text.split())
    if fen.startswith('"') and fen.endswith('"') and len(fen) >= 2:
        fen = fen[1:-1]
    fen = fen.rstrip(".")
    if not fen:
        raise InvalidFenError("empty FEN; expected e.g. 'W:W21-32:B1-12'")
    fields = fen.split(":")
    side = fields[0].upper()
    if side not in ("W", "B"):
        raise InvalidFenError(
            f"bad side to move {fields[0]!r} in FEN {text!r}; expected 'W' or 'B'")
    turn = WHITE if side == "W" else BLACK
    masks = {}
    kings = 0
    counters = {}
    for section in fields[1:]:
        if not section:
            continue
        counter = _COUNTER.match(section)
        if counter:
            counters[counter.group(1)] = int(counter.group(2))
            continue
        color = section[0].upper()
        if color not in ("W", "B"):
            raise InvalidFenError(
                f"bad colour {section[0]!r} in FEN section {section!r}; expected 'W' or 'B'")
        color = WHITE if color == "W" else BLACK
        if color in masks:
            raise InvalidFenError(f"the {'white' if color == WHITE else 'black'} pieces are "
                                  f"listed twice in FEN {text!r}")
        mask, kmask = _parse_pieces(section[1:], variant, masks, kings)
        masks[color] = mask
        kings |= kmask
    white = masks.get(WHITE, 0)
    black = masks.get(BLACK, 0)
    for color, mask in ((WHITE, white), (BLACK, black)):
        name = "white" if color == WHITE else "black"
        count = bin(mask).count("1")
        if count > MAX_PIECES:
            raise InvalidFenError(f"{count} {name} pieces; a side has at most {MAX_PIECES}")
        crowned_row = variant.promotion_row(color) & mask & ~kings
        if crowned_row:
            square = variant.square_name(_sq.mask_squares(crowned_row)[0])
            raise InvalidFenError(f"a {name} man on {square}, its own promotion row; "
                                  f"it would be a king (write K{square})")
    return white, black, kings, turn, counters


def _parse_pieces(text, variant, masks, kings):
    mask = 0
    kmask = 0
    taken = masks.get(WHITE, 0) | masks.get(BLACK, 0)
    if not text:
        return 0, 0
    for item in text.split(","):
        match = _ITEM.match(item)
        if not match:
            raise InvalidFenError(
                f"cannot read {item!r} in a FEN; expected a square such as "
                f"{'c3 or ' if not variant.numeric else ''}22, a range such as 21-32, "
                f"or K before a king's square")
        king, lo, hi, number, name = match.groups()
        if name is not None:
            if variant.numeric:
                raise InvalidFenError(f"{variant.name} FEN squares are numbers 1-32, not {name!r}")
            file = ord(name[0].lower()) - ord("a")
            square = _sq.square_at(file, int(name[1]) - 1)
            if square is None:
                raise InvalidFenError(f"{name} is a light square; pieces stand on dark squares")
            found = [square]
        else:
            lo, hi = (int(number), int(number)) if number is not None else (int(lo), int(hi))
            if lo > hi:
                raise InvalidFenError(f"empty range {item!r} in a FEN; write the lower square first")
            for n in (lo, hi):
                if not 1 <= n <= 32:
                    raise InvalidFenError(f"square {n} is out of range; squares are 1-32")
            found = [variant.square_from_number(n) for n in range(lo, hi + 1)]
        for square in found:
            bit = 1 << square
            if (mask | taken) & bit:
                raise InvalidFenError(
                    f"square {variant.square_name(square)} is listed twice in the FEN")
            mask |= bit
            if king:
                kmask |= bit
    return mask, kmask


def _runs(numbers):
    # consecutive numbers of length three or more are written as a range, as in "W:W21-32"
    out = []
    i = 0
    while i < len(numbers):
        j = i
        while j + 1 < len(numbers) and numbers[j + 1] == numbers[j] + 1:
            j += 1
        if j - i >= 2:
            out.append(f"{numbers[i]}-{numbers[j]}")
            i = j + 1
        else:
            out.append(str(numbers[i]))
            i += 1
    return out


def write_fen(white, black, kings, turn, variant):
    """The PDN FEN of a position, in `variant`'s notation."""
    parts = ["W" if turn == WHITE else "B"]
    for letter, mask in (("W", white), ("B", black)):
        men = mask & ~kings
        royals = mask & kings
        if variant.numeric:
            number = (_sq.italian_number if variant.squares == "italian" else _sq.english_number)
            items = _runs(sorted(number(s) for s in _sq.mask_squares(men)))
            items += ["K" + str(n) for n in sorted(number(s) for s in _sq.mask_squares(royals))]
        else:
            items = [_sq.ALGEBRAIC_NAMES[s] for s in _sq.mask_squares(men)]
            items += ["K" + _sq.ALGEBRAIC_NAMES[s] for s in _sq.mask_squares(royals)]
        parts.append(letter + ",".join(items))
    return ":".join(parts)
