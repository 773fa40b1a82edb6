"""shashki for learning systems: environments and batched network inputs (the extra ``rl``).

- ``env(variant=...)``, ``parallel_env(...)``: a PettingZoo environment of one game
  (shashki.rl.pettingzoo_env; pettingzoo, gymnasium and numpy);
- ``VectorEnv(game, num_envs, seed, jobs=1)``: many games stepped at once in C, numpy arrays
  in and out (shashki.rl.vector; numpy);
- ``planes_batch(positions)``, ``masks_batch(positions)``: the observations and legal-action
  masks of many positions as one array, filled in C (shashki.rl.batch; numpy).

The action encoding and the planes are docs/actions.md's; docs/learning.md shows them at work.
``import shashki`` never loads this package or its libraries; importing it loads those it
finds (each function says what to install when its libraries are missing).
"""

from .batch import masks_batch, planes_batch
from .pettingzoo_env import (AGENTS, DEFAULT_VARIANT, RENDER_SIZE, DraughtsEnv, env,
                             parallel_env, raw_env)
from .vector import MAX_LEGAL, VectorEnv

__all__ = ["env", "raw_env", "parallel_env", "DraughtsEnv", "AGENTS", "DEFAULT_VARIANT",
           "RENDER_SIZE", "VectorEnv", "MAX_LEGAL", "planes_batch", "masks_batch"]
