"""Move: a value, identified by origin, destination and the set of captured squares.

The class is compiled (shashki._core.move.Move): boards make one per legal move they are
asked for.
"""

from ._core.move import Move

__all__ = ["Move"]
