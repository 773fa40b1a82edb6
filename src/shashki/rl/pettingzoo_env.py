"""A PettingZoo environment for every game: ``shashki.rl.env(variant="russian")``.

An AEC environment in the style of PettingZoo's classic board games (chess, connect four):
two agents, ``player_0`` (the side that moves first: White, or Black in english) and
``player_1``, taking turns.  ``shashki.rl.parallel_env(variant=...)`` is the same game under
PettingZoo's parallel API (below).  Needs the libraries of the optional extra ``rl``
(pettingzoo, gymnasium, numpy; resvg-py and pillow for pictures): README.md "Optional
libraries" says how to add them; ``import shashki`` never loads them.

- observation: ``{"observation": planes, "action_mask": mask}``: the Board.planes() of the
  position (float32, shape ``variant.planes_shape``), seen from the observing agent's side
  when ``perspective=True`` (the default: the board turned half a turn for the second player,
  so both play up the board), and the legal-action mask (int8, ``variant.action_space_size``)
  of the agent to move (zeros for the other).
- actions: Board.move_to_action numbers, in the same perspective as the observation
  (docs/actions.md).  An illegal action ends the game with reward -1 for its agent
  (PettingZoo's TerminateIllegalWrapper), as in the classic games.
- rewards: +1 to the winner and -1 to the loser when the game is won (the side to move has no
  legal move: in giveaway and antidraughts that side wins, the goal is reversed; in
  breakthrough the first to crown a king wins), 0 each otherwise.
- end: `terminations` when the game is won; `truncations` when a draw rule of the game ends it
  (repetition, the kings-only and no-progress limits, the endgame rules such as FMJD-64's; the
  draws a player may claim, english's, are claimed at once), or after `max_plies` plies.

- render modes: "human" prints the board, "ansi" returns it as text, "rgb_array" returns
  the picture of shashki.svg (the last move marked) as a (RENDER_SIZE, RENDER_SIZE, 3) uint8
  array (400 pixels a side), drawn with resvg-py and read with pillow.
- parallel API: ``parallel_env`` wraps ``env`` in PettingZoo's turn_based_aec_to_parallel.
  Each step takes a dict of actions, of which only the action of the agent to move (the one
  whose action mask is not all zeros; ``infos[agent]["active_agent"]`` names it after a
  step) is played: the other agent's entry may be anything, or missing.

``env.unwrapped.board`` is the shashki Board of the game, for agents that search (see
examples/rl_agents.py, a random agent against the engine).

    from shashki import rl
    env = rl.env(variant="english")
    env.reset(seed=0)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        # observation["observation"].shape == (10, 8, 8); observation["action_mask"]: 1535
        action = None if termination or truncation else policy(observation)
        env.step(action)
"""

from __future__ import annotations

import importlib
import io
from typing import Any, Dict, Optional, Union

from .. import svg as _svg
from ..board import Board
from ..variants import DEFAULT, Variant, get_variant

__all__ = ["env", "raw_env", "parallel_env", "DraughtsEnv"]

try:
    # Optional dependencies, looked up by name: the module imports (and its docs build) without
    # them, and env() says what to install.
    _np: Any = importlib.import_module("numpy")
    _spaces: Any = importlib.import_module("gymnasium.spaces")
    _wrappers: Any = importlib.import_module("pettingzoo.utils.wrappers")
    _AgentSelector: Any = importlib.import_module("pettingzoo.utils.agent_selector").AgentSelector
    _AECEnv: Any = importlib.import_module("pettingzoo").AECEnv
    _conversions: Any = importlib.import_module("pettingzoo.utils.conversions")
    _MISSING: Optional[ImportError] = None
except ImportError as missing:  # pragma: no cover - the rl extra is installed in tox -e rl
    _AECEnv = object
    _MISSING = missing

#: the agents, the first to move first
AGENTS = ("player_0", "player_1")
#: the game an environment plays when none is named (a name: help() shows it readably)
DEFAULT_VARIANT = DEFAULT.name
#: the width and height, in pixels, of the pictures of render_mode "rgb_array"
RENDER_SIZE = 400
# plane order of the other side's view: its pieces first (the rest are the same for both)
_SWAP = [2, 3, 0, 1, 4, 5, 6, 7, 8, 9]


def env(variant: Union[str, Variant] = DEFAULT_VARIANT, **kwargs: Any) -> Any:
    """The environment of `variant`, wrapped as PettingZoo's classic games are (illegal actions
    end the game, actions out of range and calls out of order raise).  Keywords: those of
    DraughtsEnv."""
    raw = raw_env(variant, **kwargs)
    wrapped = _wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1)
    wrapped = _wrappers.AssertOutOfBoundsWrapper(wrapped)
    return _wrappers.OrderEnforcingWrapper(wrapped)


def raw_env(variant: Union[str, Variant] = DEFAULT_VARIANT, **kwargs: Any) -> DraughtsEnv:
    """The environment without PettingZoo's wrappers."""
    if _MISSING is not None:
        raise ImportError(f"shashki.rl needs pettingzoo, gymnasium and numpy, the libraries "
                          f"of the extra 'rl' (README.md, \"Optional libraries\"): {_MISSING}")
    return DraughtsEnv(variant, **kwargs)


def parallel_env(variant: Union[str, Variant] = DEFAULT_VARIANT, **kwargs: Any) -> Any:
    """The environment of `variant` under PettingZoo's parallel API: env() wrapped in
    PettingZoo's ``turn_based_aec_to_parallel``.  ``step(actions)`` plays the action of the
    agent to move and ignores the other's (see the module docstring).  Keywords: those of
    DraughtsEnv."""
    return _conversions.turn_based_aec_to_parallel(env(variant, **kwargs))


def _picture_libraries() -> Any:
    """(resvg_py, PIL.Image), the optional libraries of render_mode "rgb_array"; ImportError
    saying what to install when they are missing."""
    try:
        return importlib.import_module("resvg_py"), importlib.import_module("PIL.Image")
    except ImportError as missing:
        raise ImportError(f"render_mode 'rgb_array' needs resvg-py and pillow, libraries of "
                          f"the extra 'rl' (README.md, \"Optional libraries\"): "
                          f"{missing}") from None


class DraughtsEnv(_AECEnv):  # type: ignore[misc]  # pettingzoo's AECEnv, found at run time
    """The AEC environment of one game (use env() for the wrapped one).

    `perspective`: observations and actions from each agent's own side (default True);
    `max_plies`: truncate longer games (None: the game's draw rules alone end it);
    `render_mode`: "human" prints the board, "ansi" returns it as text, "rgb_array" as a
    picture (a RENDER_SIZE x RENDER_SIZE x 3 uint8 array; needs resvg-py and pillow).
    """

    RENDER_MODES = ("human", "ansi", "rgb_array")
    metadata: Dict[str, Any] = {"render_modes": list(RENDER_MODES), "name": "shashki_v0",
                                "is_parallelizable": False, "render_fps": 1}

    def __init__(self, variant: Union[str, Variant] = DEFAULT_VARIANT, *,
                 perspective: bool = True, max_plies: Optional[int] = None,
                 render_mode: Optional[str] = None) -> None:
        super().__init__()
        self.variant = get_variant(variant)
        if render_mode is not None and render_mode not in self.RENDER_MODES:
            raise ValueError(f"render_mode must be one of {', '.join(self.RENDER_MODES)} or "
                             f"None, not {render_mode!r}")
        if render_mode == "rgb_array":
            _picture_libraries()    # missing: say so now, not at the first picture
        if max_plies is not None and (isinstance(max_plies, bool) or
                                      not isinstance(max_plies, int) or max_plies < 1):
            raise ValueError(f"max_plies must be an int >= 1 or None, not {max_plies!r}")
        self.perspective = bool(perspective)
        self.max_plies = max_plies
        self.render_mode = render_mode
        self.board = Board(self.variant)
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        size = self.variant.action_space_size
        self.action_spaces = {a: _spaces.Discrete(size) for a in AGENTS}
        self.observation_spaces = {a: _spaces.Dict({
            "observation": _spaces.Box(low=0.0, high=1.0, shape=self.variant.planes_shape,
                                       dtype=_np.float32),
            "action_mask": _spaces.Box(low=0, high=1, shape=(size,), dtype=_np.int8),
        }) for a in AGENTS}
        self._start()

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def _color(self, agent: str) -> int:
        # player_0 has the side that moves first
        first = int(self.variant.first_to_move)
        return first if agent == AGENTS[0] else first ^ 1

    def observe(self, agent: str) -> Dict[str, Any]:
        planes = _np.asarray(self.board.planes(perspective=self.perspective))
        if self.perspective and self._color(agent) != int(self.board.turn):
            # the other side's view: its pieces first, the board turned half a turn
            planes = _np.ascontiguousarray(planes[_SWAP, ::-1, ::-1])
        if agent == self.agent_selection and not (self.terminations[agent] or
                                                  self.truncations[agent]):
            mask = _np.asarray(self.board.legal_action_mask(perspective=self.perspective),
                               dtype=_np.int8)
        else:
            mask = _np.zeros(self.variant.action_space_size, dtype=_np.int8)
        return {"observation": planes, "action_mask": mask}

    def _start(self) -> None:
        self.board = Board(self.variant)
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos: Dict[str, Dict[str, Any]] = {a: {} for a in AGENTS}
        self._agent_selector = _AgentSelector(self.agents)
        self.agent_selection = self._agent_selector.reset()

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        """A new game from the start position (the game has no randomness: `seed` seeds only
        the action spaces' sampling)."""
        self._start()
        if seed is not None:
            for i, agent in enumerate(AGENTS):
                self.action_spaces[agent].seed(seed + i)

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        move = self.board.action_to_move(int(action) if action is not None else -1,
                                         perspective=self.perspective)
        self.board.push(move)
        self.rewards = {a: 0.0 for a in AGENTS}
        outcome = self.board.outcome(claim_draw=True)
        if outcome is not None and not outcome.termination.is_draw:
            winner = outcome.winner
            for a in AGENTS:
                self.rewards[a] = 1.0 if self._color(a) == winner else -1.0
            self.terminations = {a: True for a in AGENTS}
        elif outcome is not None or (self.max_plies is not None and
                                     len(self.board.move_stack) >= self.max_plies):
            self.truncations = {a: True for a in AGENTS}
        if outcome is not None:
            for a in AGENTS:
                self.infos[a] = {"outcome": outcome}
        self._cumulative_rewards[agent] = 0.0
        self.agent_selection = self._agent_selector.next()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Any:
        """None ("human": the board is printed), the board as text ("ansi"), or its picture
        as an array of shape (RENDER_SIZE, RENDER_SIZE, 3), dtype uint8 ("rgb_array")."""
        if self.render_mode is None:
            return None
        if self.render_mode == "rgb_array":
            return self._picture()
        text = str(self.board)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _picture(self) -> Any:
        resvg, image = _picture_libraries()
        stack = self.board.move_stack
        text = _svg.board(self.board, size=RENDER_SIZE, last_move=stack[-1] if stack else None)
        png = resvg.svg_to_bytes(svg_string=text)
        return _np.asarray(image.open(io.BytesIO(png)).convert("RGB"), dtype=_np.uint8)

    def close(self) -> None:
        pass
