"""A random agent against the engine in shashki's PettingZoo environment (trains nothing).

    pip install "shashki[rl]"      # once shashki is installed (README, "Optional libraries")
    python examples/rl_agents.py [VARIANT] [GAMES] [DEPTH]

Each agent sees only what the environment gives it: the observation (planes and the mask of
legal actions) and, for the engine agent, the Board behind the environment
(``env.unwrapped.board``), whose move it turns into an action with Board.move_to_action.  The
two swap sides every game.
"""

import random
import sys

import numpy as np

import shashki
from shashki import engine, rl


def random_agent(observation, board, rng):
    """A uniformly random legal action, from the mask alone."""
    return int(rng.choice(np.flatnonzero(observation["action_mask"])))


def engine_agent(depth):
    """The engine's best move at `depth`, as an action of the environment's perspective."""
    def act(observation, board, rng):
        move = engine.search(board, depth=depth, hash_mb=1).best_move
        return board.move_to_action(move, perspective=True)
    return act


def play(variant, agents, rng):
    """One game; returns each agent's total reward, by agent name."""
    env = rl.env(variant=variant)
    env.reset(seed=rng.randrange(1 << 30))
    totals = dict.fromkeys(env.agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        totals[agent] += reward
        if termination or truncation:
            action = None
        else:
            action = agents[agent](observation, env.unwrapped.board, rng)
        env.step(action)
    env.close()
    return totals


def main(argv):
    variant = argv[1] if len(argv) > 1 else "russian"
    games = int(argv[2]) if len(argv) > 2 else 4
    depth = int(argv[3]) if len(argv) > 3 else 3
    rng = random.Random(0)
    score = {"random": 0.0, "engine": 0.0}
    for game in range(games):
        names = ("engine", "random") if game % 2 == 0 else ("random", "engine")
        players = {"engine": engine_agent(depth), "random": random_agent}
        agents = {"player_0": players[names[0]], "player_1": players[names[1]]}
        totals = play(variant, agents, rng)
        for seat, name in zip(("player_0", "player_1"), names):
            score[name] += totals[seat]
        print(f"game {game + 1}: player_0 {names[0]} {totals['player_0']:+.0f}, "
              f"player_1 {names[1]} {totals['player_1']:+.0f}")
    print(f"{shashki.get_variant(variant).title}, {games} games: engine {score['engine']:+.0f}, "
          f"random {score['random']:+.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
