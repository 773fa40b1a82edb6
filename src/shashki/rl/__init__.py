"""shashki for learning systems: environments of the games (the extra ``rl``).

- ``env(variant=...)``, ``parallel_env(...)``: a PettingZoo environment of one game
  (shashki.rl.pettingzoo_env; pettingzoo, gymnasium and numpy).

The action encoding and the planes are docs/actions.md's.  ``import shashki`` never loads this
package or its libraries.
"""

from .pettingzoo_env import (AGENTS, DEFAULT_VARIANT, RENDER_SIZE, DraughtsEnv, env,
                             parallel_env, raw_env)

__all__ = ["env", "raw_env", "parallel_env", "DraughtsEnv", "AGENTS", "DEFAULT_VARIANT",
           "RENDER_SIZE"]
