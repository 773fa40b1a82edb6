# The sizes of the learning surfaces, as OpenSpiel's Game states them (num_distinct_actions,
# observation_tensor_shape): the action space and the observation planes.  Header only, no
# module: shashki.Game names them (Game.action_space_size, Game.planes_shape), the action
# encoding (actions.pyx) and the vector env size their buffers by them.  docs/actions.md
# describes both.  Their constants are shashki.variants' (ALTERNATE_ACTIONS: the moves beyond
# the first of each (origin, destination) in one position; PLANES: the planes of an
# observation), which setup.py writes into enums.pxd.

from .kernel cimport KernelOps
from .enums cimport ALTERNATE_ACTIONS, PLANES

cdef inline int action_size(const KernelOps *ops) noexcept nogil:
    """The number of actions of a game (Game.action_space_size): a quiet move's action is
    origin * squares + destination, and the alternates follow.  Variant.action_space_size
    computes it and the kernel is compiled with it (K_ACTIONS)."""
    return ops.actions
