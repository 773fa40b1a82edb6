"""Many games at once, stepped in C: ``shashki.rl.VectorEnv(game, num_envs, seed, jobs=1)``.

For self-play and reinforcement learning at scale.  Every env plays the same game; a step
takes one action per env as a numpy array and plays them all in one C loop without the GIL (no
Python per game), in `jobs` threads; the observations, legal-action masks and rewards come
back as numpy arrays.  Needs numpy (the extra ``rl``).

    >>> import numpy as np
    >>> from shashki.rl import VectorEnv
    >>> env = VectorEnv("russian", num_envs=4, seed=0)
    >>> obs, mask = env.reset()
    >>> obs.shape, obs.dtype, mask.shape, mask.dtype
    ((4, 10, 8, 8), dtype('float32'), (4, 1535), dtype('bool'))
    >>> rng = np.random.default_rng(0)
    >>> actions = env.legal_actions[np.arange(4), (rng.random(4) * env.legal_counts).astype(int)]
    >>> obs, mask, rewards, terminated, truncated = env.step(actions)
    >>> rewards.tolist(), terminated.tolist()
    ([0.0, 0.0, 0.0, 0.0], [False, False, False, False])

Conventions (Gymnasium's vector API where it fits a game of two players taking turns):

- **observations**: ``obs[i]`` is env i's position as ``Board.planes(perspective)``, float32 of
  shape ``variant.planes_shape`` ((10, 8, 8) on 8x8), history planes included (repetitions and
  draw counters); with ``perspective=True`` (the default) from the side to move's side, so one
  policy plays both sides.  ``mask[i]`` (bool, ``variant.action_space_size``) is True at the
  action of each legal move; ``legal_actions[i, :legal_counts[i]]`` lists the same actions
  ascending (-1 after them), for drawing a legal action without scanning the mask.
- **actions**: one per env, an integer array of shape (num_envs,), numbered as
  ``Board.move_to_action(move, perspective)`` (docs/actions.md).  An action out of range
  raises InvalidActionError, one that no legal move has IllegalActionError (both ValueErrors,
  naming the env); nothing is played then.
- **rewards** are those of the player who moved in this step: +1 if its move won the game,
  -1 if it lost it (in giveaway, leaving the other side without a move loses), 0 otherwise.  The
  game is zero-sum: the other player's reward is the negative.
- **terminated**: the game was won (the side to move has no legal move, or in breakthrough a
  king was crowned).  **truncated**: a draw rule of the game ended it (repetition, the
  kings-only and no-progress limits, the endgame rules; english's claims are made at once), or
  `max_plies` plies were played.  ``terminations[i]`` says which rule: the code of a
  shashki.Termination (``termination(i)``), 0 for none or the ply limit.
- **automatic reset**, Gymnasium's *same-step* mode: an env whose game ended in a step starts a
  new game in that step; the step returns the new game's first observation and mask, and the
  last observation of the game that ended is in ``final_obs[i]`` (rows of the other envs are
  stale).  Gymnasium's default *next-step* mode would need a step of no move after each game.
- **seeds**: the games have no chance, so the seeds draw only the random opening of each game
  (``opening_plies`` random legal plies, 0 by default): `seed` an int (each env's stream comes
  from it and the env's index, numpy's SeedSequence), a sequence of one int per env, or None
  (fresh entropy).  The same seed gives the same games for any `jobs`.
- **arrays**: the returned arrays are views of the env's own buffers, read-only and overwritten
  by the next step (as Gymnasium's ``copy=False``); ``copy=True`` returns copies.  The
  observations are two buffers written in turn, so a step's ``obs`` still holds its values
  after the next step (the pair of a transition needs no copy) and is overwritten by the one
  after; every other array by the next step.  The views cannot be made writeable
  (``setflags(write=True)`` raises ValueError): the env's buffers are read-only to Python.
- **threads**: a VectorEnv is stepped by one thread at a time (its own `jobs` threads share
  out each step's envs).  A call of ``step``, ``reset`` or ``position`` while another thread
  is in ``step`` or ``reset`` of the same VectorEnv raises VectorEnvError at once, playing
  nothing: it does not wait, since actions chosen for a mask that another step is changing
  would be meant for positions that are gone.  Give each thread its own VectorEnv, or share
  one under a lock of your own.  Reading the arrays while another thread steps reads them
  half written.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Optional, Sequence, Tuple, Union

from .._core.game import Game
from .._core.position import Position
from .._core.vector_env import MAX_LEGAL, VectorCore
from ..errors import VectorEnvError
from ..limits import as_int, shown
from ..outcome import TERMINATION_CODES, Termination
from ..variants import DEFAULT, Variant, get_variant
from .optional import numpy

__all__ = ["VectorEnv", "MAX_LEGAL"]

_BY_CODE = {TERMINATION_CODES[t.value]: t for t in Termination}
#: the longest random opening accepted (more would be a different game, not an opening)
MAX_OPENING_PLIES = 1000
#: the most envs of one VectorEnv (16,777,216: on 8x8 some 200 GB of arrays already)
MAX_ENVS = 1 << 24
#: the largest max_plies (the plies of a game are counted in int32)
MAX_PLIES = (1 << 31) - 1

Seed = Union[None, int, Sequence[int]]


def _whole(name: str, value: object, least: int, none_ok: bool = False,
           most: Optional[int] = None) -> Optional[int]:
    if value is None and none_ok:
        return None
    number = as_int(value)
    if number is None or number < least or (most is not None and number > most):
        span = f">= {least}" if most is None else f"from {least} to {most:,}"
        raise VectorEnvError(f"{name} must be a whole number {span}"
                             f"{' or None' if none_ok else ''}, not {shown(value)}")
    return number


class VectorEnv:
    """`num_envs` games of `game` stepped together in C (see the module docstring).

    `seed`: the random openings' seed, used by the first reset() without one; `jobs`: threads
    that step the envs (None: every core; each takes a contiguous share of the envs);
    `perspective`: observations and actions from the side to move's side (default True);
    `max_plies`: truncate games longer than that (None: the game's draw rules alone end them);
    `opening_plies`: random plies at the start of each game; `copy`: return copies of the
    arrays instead of read-only views.  VectorEnvError for an argument out of range
    (num_envs at most MAX_ENVS, max_plies at most MAX_PLIES).  One thread at a time steps a
    VectorEnv: step(), reset() or position() while another thread is in step() or reset()
    raises VectorEnvError (module docstring, "threads").
    """

    def __init__(self, game: Union[str, Variant] = DEFAULT.name, num_envs: int = 1,
                 seed: Seed = None, jobs: Optional[int] = 1, *, perspective: bool = True,
                 max_plies: Optional[int] = None, opening_plies: int = 0,
                 copy: bool = False) -> None:
        np = numpy()
        self.variant = get_variant(game)
        count = _whole("num_envs", num_envs, 1, most=MAX_ENVS)
        assert count is not None
        threads = (os.cpu_count() or 1) if jobs is None else _whole("jobs", jobs, 1)
        assert threads is not None
        limit = _whole("max_plies", max_plies, 1, none_ok=True, most=MAX_PLIES)
        opening = _whole("opening_plies", opening_plies, 0)
        assert opening is not None
        if opening > MAX_OPENING_PLIES:
            raise VectorEnvError(f"opening_plies must be at most {MAX_OPENING_PLIES}, not "
                                 f"{opening_plies!r}")
        for name, flag in (("perspective", perspective), ("copy", copy)):
            if not isinstance(flag, bool):
                raise VectorEnvError(f"{name} must be True or False, not {flag!r}")
        self.num_envs = count
        self.jobs = min(threads, count)
        self.perspective = perspective
        self.max_plies = limit
        self.opening_plies = opening
        self.copy = copy
        self._seeds = self._seed_array(seed)
        self._core = VectorCore(Game.of(self.variant), count, self.jobs, perspective,
                                limit or 0, opening)
        core = self._core
        shape = (count, *self.variant.planes_shape)
        # two arrays written in turn (vector_env.pyx): a step's obs lasts through the next step
        self._obs = tuple(self._view(page, shape) for page in core.observations)
        self._final_obs = self._view(core.final_obs, shape)
        self._mask = self._view(core.mask).view(np.bool_)
        self._legal = self._view(core.legal_actions)
        self._counts = self._view(core.legal_counts)
        self._rewards = self._view(core.rewards)
        self._terminated = self._view(core.terminated).view(np.bool_)
        self._truncated = self._view(core.truncated).view(np.bool_)
        self._terminations = self._view(core.terminations)
        self._turns = self._view(core.turns)
        self._plies = self._view(core.plies)
        self._pool: Optional[ThreadPoolExecutor] = None

    @staticmethod
    def _view(buffer: Any, shape: Optional[Tuple[int, ...]] = None) -> Any:
        array = numpy().asarray(buffer)
        if shape is not None:
            array = array.reshape(shape)
        array.flags.writeable = False
        return array

    def _seed_array(self, seed: Seed) -> Any:
        """One uint64 seed a env."""
        np = numpy()
        if seed is None or as_int(seed) is not None:
            if seed is not None and as_int(seed) < 0:      # type: ignore[operator]
                raise VectorEnvError(f"seed must be an int >= 0, a sequence of them (one a "
                                     f"env) or None, not {seed!r}")
            return np.random.SeedSequence(as_int(seed)).generate_state(self.num_envs,
                                                                        dtype=np.uint64)
        try:
            seeds = [as_int(s) for s in seed]      # type: ignore[union-attr]
        except TypeError:
            seeds = [None]
        if len(seeds) != self.num_envs or any(s is None or not 0 <= s < 1 << 64 for s in seeds):
            raise VectorEnvError(f"seed must be an int >= 0, a sequence of {self.num_envs} "
                                 f"ints from 0 to 2**64 - 1 (one a env) or None, not {seed!r}")
        return np.array(seeds, dtype=np.uint64)

    # --- what the envs hold ------------------------------------------------------------------

    @property
    def action_space_size(self) -> int:
        """The number of actions of the game (the width of the mask)."""
        return self.variant.action_space_size

    @property
    def observation_shape(self) -> Tuple[int, int, int]:
        """The shape of one env's observation: (planes, rows, files)."""
        return self.variant.planes_shape

    @property
    def final_obs(self) -> Any:
        """The last observation of each game that ended in the last step (rows of the envs
        whose `terminated` or `truncated` is True; the others' rows are stale)."""
        return self._out(self._final_obs)

    @property
    def legal_actions(self) -> Any:
        """(num_envs, MAX_LEGAL) int32: each env's legal actions ascending, then -1."""
        return self._out(self._legal)

    @property
    def legal_counts(self) -> Any:
        """(num_envs,) int32: each env's number of legal actions."""
        return self._out(self._counts)

    @property
    def terminations(self) -> Any:
        """(num_envs,) uint8: the code of the Termination that ended each env's game in the
        last step (termination(i) names it), 0 if it did not end or was cut at max_plies."""
        return self._out(self._terminations)

    @property
    def turns(self) -> Any:
        """(num_envs,) uint8: the side to move in each env as a shashki.Color value (1 White,
        0 Black: ``Color(turns[i])``)."""
        return self._out(self._turns)

    @property
    def plies(self) -> Any:
        """(num_envs,) int32: the plies of each env's game so far (its random opening too)."""
        return self._out(self._plies)

    def position(self, i: int) -> Position:
        """The Position of env i now (for a search from it, say: planes_batch takes
        Positions)."""
        index = as_int(i)
        if index is None:
            raise VectorEnvError(f"an env is numbered by an int, not {i!r}")
        return self._core.position(index)

    def termination(self, i: int) -> Optional[Termination]:
        """The Termination that ended env i's game in the last step (None: none, or cut at
        max_plies)."""
        return _BY_CODE.get(int(self._terminations[i]))

    def _out(self, array: Any) -> Any:
        return array.copy() if self.copy else array

    # --- the API -----------------------------------------------------------------------------

    def reset(self, seed: Seed = None) -> Tuple[Any, Any]:
        """A new game in every env; returns (obs, mask).  `seed` as the constructor's (None:
        the constructor's at the first reset, then the streams go on)."""
        if seed is not None:
            seeds = self._seed_array(seed)
        elif not self._core.started and self._seeds is not None:
            seeds = self._seeds
        else:
            seeds = None
        self._core.reset(seeds)        # (VectorEnvError if another thread is in a step)
        self._seeds = None
        return self._out(self._obs[self._core.page]), self._out(self._mask)

    def step(self, actions: Any) -> Tuple[Any, Any, Any, Any, Any]:
        """Play one action in every env: returns (obs, mask, rewards, terminated, truncated),
        the envs whose game ended already reset (their last observation in final_obs)."""
        np = numpy()
        chosen = actions if isinstance(actions, np.ndarray) else np.asarray(actions)
        if chosen.dtype.kind not in "iu":
            raise VectorEnvError(f"actions must be an integer array, not of dtype "
                                 f"{chosen.dtype}")
        if chosen.shape != (self.num_envs,):
            raise VectorEnvError(f"actions must have shape ({self.num_envs},), one a env, not "
                                 f"{chosen.shape}")
        given = None
        if chosen.dtype.kind == "u" and chosen.size and chosen.max() > np.iinfo(np.int64).max:
            given = chosen                  # (quoted as given: 2**64 - 1, not its clamp)
            chosen = np.minimum(chosen, np.iinfo(np.int64).max)     # (out of range all the same)
        chosen = np.ascontiguousarray(chosen, dtype=np.int64)
        core = self._core
        core.begin()            # VectorEnvError if another thread is in a step or a reset
        try:
            core.check(chosen, given)
            core.turn_page()
            if self.jobs == 1:
                core.step_chunk(chosen, 0)
            else:
                if self._pool is None:
                    self._pool = ThreadPoolExecutor(self.jobs - 1,
                                                    thread_name_prefix="VectorEnv")
                futures = [self._pool.submit(core.step_chunk, chosen, c)
                           for c in range(1, self.jobs)]
                try:
                    core.step_chunk(chosen, 0)
                finally:
                    for future in futures:
                        future.result()
            core.raise_errors()
        finally:
            core.end()
        return (self._out(self._obs[core.page]), self._out(self._mask), self._out(self._rewards),
                self._out(self._terminated), self._out(self._truncated))

    def close(self) -> None:
        """Stop the threads (if any); the env may still be used, and starts them again."""
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    def __enter__(self) -> VectorEnv:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return (f"VectorEnv({self.variant.name!r}, num_envs={self.num_envs}, "
                f"jobs={self.jobs})")
