"""The two sides: shashki.WHITE and shashki.BLACK.

They are ints (0 and 1, usable as indices), and print as their names.
"""

from __future__ import annotations

import enum


class Color(enum.IntEnum):
    WHITE = 0
    BLACK = 1

    @property
    def other(self) -> Color:
        return Color(1 - self)

    def __repr__(self) -> str:
        return f"shashki.{self.name}"

    def __str__(self) -> str:
        return self.name.lower()


WHITE = Color.WHITE
BLACK = Color.BLACK
