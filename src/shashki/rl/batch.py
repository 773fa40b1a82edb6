"""The inputs of a network for many positions at once: ``planes_batch(positions)`` and
``masks_batch(positions)`` fill one numpy array in C.

For AlphaZero-style search, which evaluates many leaf positions in one call of the network:

    >>> import shashki
    >>> from shashki.rl import planes_batch, masks_batch
    >>> start = shashki.Position("russian")
    >>> leaves = [child for _, child in start.children()]
    >>> planes_batch(leaves).shape, masks_batch(leaves).shape
    ((7, 10, 8, 8), (7, 1535))
    >>> board = shashki.Board.from_position(leaves[0])
    >>> bool((planes_batch(leaves)[0] == board.planes()).all())
    True

Row i is the ``planes(perspective)`` and ``legal_action_mask(perspective)`` of position i
(docs/actions.md).  The positions are Positions (a Position has no history: its planes of
repetitions and draw counters are 0) or Boards (with their history's planes) of one game; the
Python objects are read once, then the planes and moves are made in C without the GIL.
BatchError for an item that is not a Position or Board, positions of several games, no
position, a `perspective` that is not a bool, or an `out` array of the wrong shape or dtype.  Needs numpy (the extra ``rl``).
"""

from __future__ import annotations

from typing import Any, Iterable, List, Optional

from .._core import actions as _actions
from .._core.position import PositionBase
from ..errors import BatchError
from .optional import numpy

__all__ = ["planes_batch", "masks_batch"]


def _items(positions: Iterable[Any]) -> List[Any]:
    items = list(positions)
    if not items:
        raise BatchError("the batch holds no position: a batch of none has no game, so no "
                         "shape (give at least one Position)")
    if not isinstance(items[0], PositionBase):
        raise BatchError(f"item 0 of the batch is a {type(items[0]).__name__}, not a shashki "
                         f"Position or Board")
    return items


def _check_perspective(perspective: object) -> bool:
    # (as VectorEnv's: "x" and None were taken for True and False; issue 30.19)
    if not isinstance(perspective, bool):
        raise BatchError(f"perspective must be True or False, not {perspective!r}"[:120])
    return perspective


def _check_out(out: Any, name: str, dtypes: Any, shape: Any) -> Any:
    np = numpy()
    if not isinstance(out, np.ndarray) or out.dtype not in dtypes or \
            not out.flags.c_contiguous or not out.flags.writeable:
        raise BatchError(f"`out` must be a writeable C-contiguous numpy array of "
                         f"{' or '.join(str(np.dtype(d)) for d in dtypes)} for the {name}, "
                         f"not {type(out).__name__}"
                         + (f" of {out.dtype}" if isinstance(out, np.ndarray) else ""))
    if out.shape != shape:
        raise BatchError(f"`out` has shape {out.shape}; the {name} of {shape[0]} positions "
                         f"need {shape}")
    return out


def planes_batch(positions: Iterable[Any], perspective: bool = False,
                 out: Optional[Any] = None) -> Any:
    """The planes of every position, one float32 array of shape (len(positions), planes, rows,
    files); into `out` if given (such an array, C-contiguous), which is returned."""
    np = numpy()
    _check_perspective(perspective)
    items = _items(positions)
    shape = (len(items), *items[0].variant.planes_shape)
    if out is None:
        out = np.empty(shape, dtype=np.float32)
    else:
        _check_out(out, "planes", (np.dtype(np.float32),), shape)
    _actions.planes_batch(items, perspective, out)
    return out


def masks_batch(positions: Iterable[Any], perspective: bool = False,
                out: Optional[Any] = None) -> Any:
    """The legal-action masks of every position, one bool array of shape (len(positions),
    action_space_size); into `out` if given (bool or uint8, C-contiguous), which is
    returned."""
    np = numpy()
    _check_perspective(perspective)
    items = _items(positions)
    shape = (len(items), items[0].variant.action_space_size)
    if out is None:
        out = np.empty(shape, dtype=np.bool_)
    else:
        _check_out(out, "masks", (np.dtype(np.bool_), np.dtype(np.uint8)), shape)
    _actions.masks_batch(items, perspective, out.view(np.uint8))
    return out
