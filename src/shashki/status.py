"""Whether a position is one to play from: the reasons a set-up position is not
(Board.status, Position.status), as python-chess's chess.Status.

    >>> import shashki
    >>> board = shashki.Board.empty("russian")
    >>> board.status()
    <Status.EMPTY: 3>
    >>> board.set_piece_at("c3", shashki.Piece(shashki.WHITE))
    >>> board.status()
    <Status.NO_BLACK_PIECES: 2>
    >>> board.set_piece_at("f6", shashki.Piece(shashki.BLACK, king=True))
    >>> board.status(), board.is_valid()
    (<Status.VALID: 0>, True)

`position_status` is the one check of what each side's pieces may be: a FEN is read with it
(shashki.fen), Position.from_masks and unpickling check with it, the board editor
(Board.set_piece_at) refuses with it an edit that would make a position the core cannot hold,
and status() reports with it what is left.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, List

from .colors import BLACK, WHITE

if TYPE_CHECKING:
    from .variants import Variant

__all__ = ["CROWNED", "HELD", "NO_PIECES", "TOO_MANY", "Status", "crowned_men", "describe",
           "position_status", "reasons"]


class Status(enum.IntFlag):
    """The reasons a position is not one to play from; VALID (0) when there is none.  Test a
    reason with ``status & Status.NO_WHITE_PIECES``; EMPTY, TOO_MANY_PIECES and
    MAN_ON_CROWNING_ROW are the two sides' reasons together.

    A Board or a Position can show only the first two: a side with no pieces (no game can be
    played with one side alone; where a game has ended by the capture of the last piece,
    outcome() gives its result, and status() says this too).  The others are positions the
    core cannot hold at all, as no FEN can give them: Board.set_piece_at refuses an edit
    that would make one (InvalidPieceError) and a FEN or Position.from_masks that gives one is
    refused (InvalidFenError); position_status reports them for the masks of a program's own
    set-up board.

    There is no reason for a piece on a light square (only the playable squares have
    numbers), for the side to move (either side may be to move in a set-up position), nor
    for a side to move with no legal move: that position is a game that is over, as
    outcome() says.
    """

    VALID = 0
    #: White has no piece on the board
    NO_WHITE_PIECES = 1
    #: Black has no piece on the board
    NO_BLACK_PIECES = 2
    #: no piece at all
    EMPTY = 3
    #: more white pieces than a full start of the board holds (Geometry.max_pieces: 12 on 8x8,
    #: 20 on 10x10, 16 in turkish): more than any game of that board can have
    TOO_MANY_WHITE_PIECES = 4
    TOO_MANY_BLACK_PIECES = 8
    TOO_MANY_PIECES = 12
    #: a white man on White's crowning row (the row where its men become kings): a man that
    #: reaches it is crowned, so it cannot stand there as a man
    WHITE_MAN_ON_CROWNING_ROW = 16
    BLACK_MAN_ON_CROWNING_ROW = 32
    MAN_ON_CROWNING_ROW = 48


#: the reasons a Board or Position may show; the others it cannot hold
HELD = Status.EMPTY
#: each side's reasons, indexed by colour: Black's (shashki.BLACK, 0) then White's (1)
NO_PIECES = (Status.NO_BLACK_PIECES, Status.NO_WHITE_PIECES)
TOO_MANY = (Status.TOO_MANY_BLACK_PIECES, Status.TOO_MANY_WHITE_PIECES)
CROWNED = (Status.BLACK_MAN_ON_CROWNING_ROW, Status.WHITE_MAN_ON_CROWNING_ROW)


def crowned_men(variant: Variant, color: int, pieces: int, kings: int) -> int:
    """The square mask of the men of `color` (whose pieces are the mask `pieces`) on that
    side's own crowning row."""
    return variant.promotion_row(color) & pieces & ~kings


def position_status(variant: Variant, white: int, black: int, kings: int) -> Status:
    """The reasons the pieces of these square masks (bit s for square s; the masks already
    sound: no square in both, every king a piece) are not a position of `variant` to play
    from, VALID when there is none."""
    status = Status.VALID
    most = variant.geometry.max_pieces
    for color, pieces in ((WHITE, white), (BLACK, black)):
        if not pieces:
            status |= NO_PIECES[color]
        elif bin(pieces).count("1") > most:
            status |= TOO_MANY[color]
        if crowned_men(variant, color, pieces, kings):
            status |= CROWNED[color]
    return status


def reasons(status: Status) -> List[Status]:
    """The reasons of `status` one by one (its one-bit members, in their order: Python 3.9
    iterates a flag's class with the two-side members among them, and no flag value)."""
    return [member for member in Status
            if member and not member & (member - 1) and status & member]


def describe(status: Status, variant: Variant) -> List[str]:
    """Each reason of `status` in words, as a set-up page shows them (`variant`: the game,
    whose board says how many pieces a side may have)."""
    most = variant.geometry.max_pieces
    out = []
    for color, side in ((WHITE, "White"), (BLACK, "Black")):
        if status & NO_PIECES[color]:
            out.append(f"{side} has no pieces")
        if status & TOO_MANY[color]:
            out.append(f"{side} has more than {most} pieces, a side's men in a full start on "
                       f"this board")
        if status & CROWNED[color]:
            out.append(f"a {side.lower()} man stands on its crowning row, where a man is a "
                       f"king")
    return out
