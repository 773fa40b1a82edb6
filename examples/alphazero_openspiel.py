"""OpenSpiel's AlphaZero learning a shashki game: its own example, on `shashki_<game>`.

    pip install "shashki[alphazero]"      # open_spiel, and JAX/Flax for its AlphaZero
    python examples/alphazero_openspiel.py --game=shashki_russian --path=/tmp/az \\
        --max_steps=2 --actors=1 --evaluators=1 --max_simulations=20 --nn_model=mlp

OpenSpiel's AlphaZero (open_spiel.python.algorithms.alpha_zero, JAX/Flax) plays any game that
pyspiel.load_game() finds; `import shashki.openspiel` registers shashki's games there as
``shashki_<game>`` (docs/learning.md).  Its actors and evaluators are processes started by
multiprocessing's "spawn", which import this module again: the import below registers the
games in each of them too.  The flags are those of OpenSpiel's example
(open_spiel/python/examples/alpha_zero.py: --help lists them); a real run wants many more
steps, simulations and actors than the smoke test above, which only shows it working.
"""

from absl import app
from open_spiel.python.examples import alpha_zero as example

import shashki.openspiel  # noqa: F401  (registers the shashki_<game> games, in every process)

if __name__ == "__main__":
    app.run(example.main)
