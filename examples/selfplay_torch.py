"""A policy that learns draughts by playing itself: shashki.rl.VectorEnv and PyTorch.

    pip install "shashki[rl,examples]"    # once shashki is installed: numpy, torch 2.13.0 (CPU)
    python examples/selfplay_torch.py --plot docs/img/selfplay-curve.png   # russian, ~3 CPU-minutes
    python examples/selfplay_torch.py --game english --iterations 30 --plot curve.png

One small network (the planes of docs/actions.md, flattened, through two hidden layers, to a
logit per action) plays both sides of `--envs` games at once: the observations are from the
side to move's side (``perspective=True``), so the same policy serves White and Black.  After
each batch of plies it is trained by REINFORCE on the games that ended: every move of a game
gets the game's result from its player's side (the VectorEnv's reward is the mover's; the
moves before alternate sides, so the sign alternates), a little discounted, so that a quick
win is worth more than a slow one.  Illegal actions never happen: the logits of actions the
mask rules out are -inf.

Every few iterations the policy (its most likely move) plays `--eval-games` games against a
policy that picks a legal move uniformly at random, half of them with each side; its score (a
win 1, a draw 1/2) is the learning curve, drawn into `--plot` (docs/img/selfplay-curve.png is
the curve of the default run).  The random policy scores 0.5 against itself.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

from shashki.rl import VectorEnv

HERE = Path(__file__).resolve().parent


class Policy(nn.Module):
    """Planes in, one logit per action out."""

    def __init__(self, planes_shape, actions, hidden=128):
        super().__init__()
        inputs = int(np.prod(planes_shape))
        self.body = nn.Sequential(nn.Flatten(), nn.Linear(inputs, hidden), nn.ReLU(),
                                  nn.Linear(hidden, hidden), nn.ReLU(),
                                  nn.Linear(hidden, actions))

    def forward(self, obs, mask):
        logits = self.body(obs)
        return logits.masked_fill(~mask, float("-inf"))


def random_actions(env, rng):
    """A legal action for every env, uniformly among its legal ones."""
    rows = np.arange(env.num_envs)
    return env.legal_actions[rows, (rng.random(env.num_envs) * env.legal_counts).astype(np.intp)]


def returns_of(rewards, done, gamma):
    """Each ply's return from its mover's side, and whether its game ended in the batch:
    going back from the end of each game, the sign alternates with the side to move."""
    steps, n = rewards.shape
    out = np.zeros((steps, n), np.float32)
    known = np.zeros((steps, n), bool)
    after = np.zeros(n, np.float32)
    after_known = np.zeros(n, bool)
    for t in range(steps - 1, -1, -1):
        out[t] = np.where(done[t], rewards[t], -gamma * after)
        known[t] = done[t] | after_known
        after, after_known = out[t], known[t]
    return out, known


def train(policy, env, args, rng, on_iteration):
    optimizer = torch.optim.Adam(policy.parameters(), lr=args.lr)
    obs, mask = env.reset(seed=args.seed)
    for iteration in range(1, args.iterations + 1):
        observations, masks, actions = [], [], []
        rewards = np.zeros((args.steps, env.num_envs), np.float32)
        done = np.zeros((args.steps, env.num_envs), bool)
        with torch.no_grad():
            for t in range(args.steps):
                o, m = torch.from_numpy(obs.copy()), torch.from_numpy(mask.copy())
                chosen = torch.distributions.Categorical(logits=policy(o, m)).sample()
                observations.append(o)
                masks.append(m)
                actions.append(chosen)
                obs, mask, r, terminated, truncated = env.step(chosen.numpy())
                rewards[t], done[t] = r, terminated | truncated
        g, known = returns_of(rewards, done, args.gamma)
        keep = torch.from_numpy(known.reshape(-1))
        logits = policy(torch.cat(observations)[keep], torch.cat(masks)[keep])
        dist = torch.distributions.Categorical(logits=logits)
        logp = dist.log_prob(torch.cat(actions)[keep])
        advantage = torch.from_numpy(g.reshape(-1))[keep]
        loss = -(logp * advantage).mean() - args.entropy * dist.entropy().mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        on_iteration(iteration, int(done.sum()))


def evaluate(policy, game, games, seed):
    """The policy's score (win 1, draw 1/2) in `games` games against the random policy, half
    with each side; one game an env."""
    env = VectorEnv(game, games, seed=seed)
    obs, mask = env.reset()
    learner = np.arange(games) % 2               # the side (0 White, 1 Black) of the policy
    rng = np.random.default_rng(seed)
    score = np.full(games, np.nan)
    while np.isnan(score).any():
        with torch.no_grad():
            best = policy(torch.from_numpy(obs.copy()), torch.from_numpy(mask.copy()))
        mine = best.argmax(dim=1).numpy()
        mover = env.turns.copy()
        actions = np.where(mover == learner, mine, random_actions(env, rng))
        obs, mask, rewards, terminated, truncated = env.step(actions)
        ended = (terminated | truncated) & np.isnan(score)
        # the reward is the mover's: the policy's when it moved, else the negative
        result = np.where(mover == learner, rewards, -rewards)
        score[ended] = (result[ended] + 1) / 2
    return float(score.mean())


def plot(curve, args, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    games, scores = zip(*curve)
    figure, axes = plt.subplots(figsize=(6.4, 3.6), dpi=100)
    axes.plot(games, scores, marker="o", label="self-play policy")
    axes.axhline(0.5, color="gray", linestyle="--", label="random policy")
    axes.set_xlabel("self-play games played")
    axes.set_ylabel(f"score against random ({args.eval_games} games)")
    axes.set_ylim(0.3, 1.0)
    axes.set_title(f"{args.game}: {args.envs} envs, REINFORCE, MLP {args.hidden}x2")
    axes.legend(loc="lower right")
    axes.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(path)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="russian")
    parser.add_argument("--envs", type=int, default=256)
    parser.add_argument("--steps", type=int, default=128, help="plies a batch")
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--gamma", type=float, default=0.99)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument("--eval-every", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="threads of the VectorEnv")
    parser.add_argument("--plot", type=Path, default=None, help="the learning curve (PNG)")
    args = parser.parse_args(argv)
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    env = VectorEnv(args.game, args.envs, seed=args.seed, jobs=args.jobs)
    policy = Policy(env.observation_shape, env.action_space_size, args.hidden)
    rng = np.random.default_rng(args.seed)
    played = 0
    start = time.process_time()
    curve = [(0, evaluate(policy, args.game, args.eval_games, args.seed + 1))]
    print(f"before training: score {curve[0][1]:.3f} against random")

    def on_iteration(iteration, games):
        nonlocal played
        played += games
        if iteration % args.eval_every == 0 or iteration == args.iterations:
            score = evaluate(policy, args.game, args.eval_games, args.seed + 1 + iteration)
            curve.append((played, score))
            print(f"iteration {iteration:3d}: {played:6d} games, score {score:.3f} against "
                  f"random ({time.process_time() - start:.0f} CPU-s)", flush=True)

    train(policy, env, args, rng, on_iteration)
    env.close()
    if args.plot:
        plot(curve, args, args.plot)
        print(f"learning curve: {args.plot}")
    return curve


if __name__ == "__main__":
    main()
