"""The two sides: shashki.WHITE and shashki.BLACK.

As in python-chess, WHITE is true and BLACK is false: ``WHITE == True``, ``BLACK == False``,
and ``if board.turn:`` reads "if White is to move".  They are ints (WHITE 1, BLACK 0, so a
pair indexed by colour is ``(black, white)``, python-chess's order), and print as their names.
``color.other`` (or ``not color`` as a bool) is the other side.

The compiled core numbers the sides the other way round (White 0, the side that its arrays
index first); the one place that converts is shashki._core (``Kernel.set_position`` one way,
``Position.turn`` the other), so no caller sees the core's numbering.
"""

from __future__ import annotations

import enum


class Color(enum.IntEnum):
    # python-chess: WHITE = True, BLACK = False.  A code written for it (``if board.turn:``,
    # ``board.turn == chess.WHITE``, ``turn = True``) must not silently mean the other side
    # here (issue 31.5): the values follow bool's.
    BLACK = 0
    WHITE = 1

    @property
    def other(self) -> Color:
        return Color(1 - self)

    def __repr__(self) -> str:
        return f"shashki.{self.name}"

    def __str__(self) -> str:
        return self.name.lower()


WHITE = Color.WHITE
BLACK = Color.BLACK
