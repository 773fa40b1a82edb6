"""Every shashki game as an OpenSpiel game: ``import shashki.openspiel`` registers them.

After the import, ``pyspiel.load_game("shashki_<game>")`` gives any of shashki's games
(``shashki_russian``, ``shashki_international``, ``shashki_turkish``, ...: one for each of
``shashki.VARIANTS``) to OpenSpiel's algorithms: MCTS, AlphaZero, evaluation bots, its tests.
Needs open_spiel (the extra ``openspiel``: README.md, "Optional libraries"); ``import shashki``
never loads it.

    >>> import pyspiel, shashki.openspiel
    >>> game = pyspiel.load_game("shashki_russian")
    >>> state = game.new_initial_state()
    >>> state.legal_actions()
    [268, 300, 301, 333, 334, 366, 367]
    >>> state.action_to_string(state.current_player(), 301)
    'c3-d4'
    >>> state.apply_action(301)
    >>> game.observation_tensor_shape(), game.num_distinct_actions()
    ([10, 8, 8], 1535)

The game, as OpenSpiel sees it:

- two players taking turns, no chance, perfect information, zero-sum, rewards at the end:
  player 0 has the side that moves first (White, or Black in english and pool), player 1 the
  other;
- **actions** are shashki's action numbers (``Board.move_to_action``, docs/actions.md):
  ``num_distinct_actions()`` is ``Variant.action_space_size``, ``legal_actions()`` ascending,
  ``action_to_string`` the move in the game's notation;
- **returns** by the game's goal, ``Board.outcome(claim_draw=True)``: +1 to the winner and -1
  to the loser (in giveaway and antidraughts the side left without a move wins; in breakthrough
  the first to crown a king), 0 each for a draw by the game's rules or at ``max_plies``;
- **observation tensor**: ``Board.planes()`` (10 planes of rows x files, float32), the same
  for both players; with the parameter ``perspective=True``, from the observing player's side
  (the board turned half a turn for the player with the second side, its pieces first) and
  the actions numbered from the side to move's side, as the PettingZoo environment does;
  ``observation_string`` the position as FEN;
- **parameters**: ``max_plies`` (default 1000, OpenSpiel's max_game_length: a game still going
  on then is drawn; random games of shashki's games end in a few hundred plies at most) and
  ``perspective`` (default false), e.g.
  ``pyspiel.load_game("shashki_russian(perspective=true,max_plies=300)")``;
- **serialization**: ``state.serialize()`` writes the game and the actions played, two
  lines (``game=shashki_russian(max_plies=1000,perspective=False)``, ``actions=301,656``),
  and ``game.deserialize_state(text)`` replays them, each action checked as legal where it
  is played; nothing is unpickled, so a state string from anywhere is safe to read.  A
  string that is not one (another game or parameters, an action that is not legal, a line
  that cannot be read) raises InvalidStateError (a ValueError) naming what was wrong.  The
  three-line form OpenSpiel writes for Python games (``history=0:301``, ``move_number=``,
  ``__dict__=``) is read the same way: its history replayed, its ``__dict__`` ignored.
  (OpenSpiel's C++ ``pyspiel.serialize_game_and_state`` and
  ``deserialize_game_and_state``, and pickle, still use that form and unpickle its
  ``__dict__``: read only such strings and pickles as you trust.)
- **terminal states**: ``apply_action`` on a terminal state raises IllegalActionError (a
  ValueError), as an action that is not legal does.

The state holds a shashki Board (``state.board``): its history gives the draw rules, and
``clone()`` copies it in C.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

import numpy as np
import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]

from .board import Board
from .colors import Color
from .errors import IllegalActionError, InvalidStateError
from .variants import VARIANTS, Variant, get_variant

__all__ = ["GAME_NAMES", "ShashkiGame", "ShashkiState", "game_name"]

#: the parameters of every game, and their defaults
DEFAULT_PARAMS: Dict[str, Any] = {"max_plies": 1000, "perspective": False}
# plane order of the other side's view: its pieces first (the rest are the same for both)
_SWAP = [2, 3, 0, 1, 4, 5, 6, 7, 8, 9]


#: what the OpenSpiel name of each game starts with
PREFIX = "shashki_"


def game_name(variant: Variant) -> str:
    """The OpenSpiel short name of a game: shashki_<name>."""
    return PREFIX + variant.name


def _game_type(variant: Variant) -> Any:
    return pyspiel.GameType(
        short_name=game_name(variant),
        long_name=f"shashki {variant.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULT_PARAMS)


class ShashkiGame(pyspiel.Game):  # type: ignore[misc]  # pybind11's class, untyped
    """One of shashki's games (`variant`) as an OpenSpiel game; load it by name
    (``pyspiel.load_game("shashki_russian")``)."""

    def __init__(self, variant: Variant, params: Optional[Dict[str, Any]] = None) -> None:
        chosen = {**DEFAULT_PARAMS, **(params or {})}
        max_plies = chosen["max_plies"]
        if isinstance(max_plies, bool) or not isinstance(max_plies, int) or max_plies < 1:
            raise ValueError(f"max_plies must be an int >= 1, not {max_plies!r}")
        info = pyspiel.GameInfo(num_distinct_actions=variant.action_space_size,
                                max_chance_outcomes=0, num_players=2, min_utility=-1.0,
                                max_utility=1.0, utility_sum=0.0, max_game_length=max_plies)
        super().__init__(_game_type(variant), info, chosen)

    # (read from OpenSpiel's own record of the game once, then kept: a game that OpenSpiel
    # unpickles or deserializes is made without this __init__)
    @property
    def variant(self) -> Variant:
        """The shashki game."""
        return self._settings()[0]

    @property
    def max_plies(self) -> int:
        """The plies after which a game still going on is drawn."""
        return self._settings()[1]

    @property
    def perspective(self) -> bool:
        """Whether observations and actions are from the side to move's (the observing
        player's) side."""
        return self._settings()[2]

    def _settings(self) -> Tuple[Variant, int, bool]:
        kept = self.__dict__.get("_kept")
        if kept is None:
            kept = self.__dict__["_kept"] = (
                get_variant(self.get_type().short_name[len(PREFIX):]),
                int(self.max_game_length()), bool(self.get_parameters()["perspective"]))
        return kept

    def new_initial_state(self) -> ShashkiState:
        """The game's start position."""
        return ShashkiState(self)

    def deserialize_state(self, text: str) -> ShashkiState:
        """The state that ShashkiState.serialize() wrote `text` for: its actions replayed
        from the start, each checked as legal (module docstring, "serialization").
        InvalidStateError naming what was wrong for anything else."""
        if not isinstance(text, str):
            raise InvalidStateError(f"a state string is a str, not {type(text).__name__}")
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        state = ShashkiState(self)
        if lines and lines[0].startswith("history="):
            actions = _openspiel_history(lines, state)
        else:
            actions = _shashki_history(lines, str(self))
        for k, (player, action) in enumerate(actions):
            where = f"action {k + 1} of the history, {action}"
            if state.is_terminal():
                raise InvalidStateError(f"{where}: the game is over before it")
            if player is not None and player != state.current_player():
                raise InvalidStateError(f"{where}: it is player {player}'s, but player "
                                        f"{state.current_player()} is to move there")
            legal = state.legal_actions()
            if action not in legal:
                raise InvalidStateError(f"{where}, is not legal there; the legal actions are "
                                        f"{', '.join(map(str, legal))}")
            state.apply_action(action)
        return state

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: Optional[Dict[str, Any]] = None) -> Any:
        """The observer of the planes (observation tensor and string)."""
        if iig_obs_type is None or (iig_obs_type.public_info and
                                    not iig_obs_type.perfect_recall):
            return PlanesObserver(self, params)
        # (OpenSpiel's own, loaded when such an observer is asked for: it brings in more)
        from open_spiel.python.observation import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
            IIGObserverForPublicInfoGame)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)

    def player_of(self, color: Color) -> int:
        """The player (0 or 1) who has side `color`."""
        return 0 if color == self.variant.first_to_move else 1


_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


class ShashkiState(pyspiel.State):  # type: ignore[misc]  # pybind11's class, untyped
    """A position of a ShashkiGame with its history: `board` is the shashki Board."""

    def __init__(self, game: ShashkiGame, board: Optional[Board] = None) -> None:
        super().__init__(game)
        # (OpenSpiel's clone() deep-copies what the state holds: values only, not the game)
        self._first = game.variant.first_to_move
        self._perspective = game.perspective
        self._max_plies = game.max_plies
        self.board = Board(game.variant) if board is None else board
        self._returns = [0.0, 0.0]
        self._over = False
        self._settle()

    def _settle(self) -> None:
        """Decide whether the game is over here, its returns, and who moves."""
        outcome = self.board.outcome(claim_draw=True)
        if outcome is not None:
            self._over = True
            if outcome.winner is not None:
                winner = self._player_of(outcome.winner)
                self._returns = [1.0, -1.0] if winner == 0 else [-1.0, 1.0]
        elif len(self.board.move_stack) >= self._max_plies:
            self._over = True
        # (OpenSpiel asks current_player() several times a ply: kept, not worked out each time)
        self._player = _TERMINAL if self._over else self._player_of(self.board.turn)

    def current_player(self) -> int:
        return self._player

    def _player_of(self, color: Color) -> int:
        return 0 if color == self._first else 1

    def _legal_actions(self, player: int) -> List[int]:
        return self.board.legal_actions(perspective=self._perspective)

    def _apply_action(self, action: int) -> None:
        if self._over:
            # (OpenSpiel's apply_action does not ask; issue 30.12: a game over at max_plies
            # went on)
            raise IllegalActionError(f"the game is over (is_terminal()): action {action} "
                                     f"cannot be applied")
        self.board.push(self.board.action_to_move(action, perspective=self._perspective))
        self._settle()

    def serialize(self) -> str:
        """The game and the actions played, two lines that ShashkiGame.deserialize_state
        replays (module docstring, "serialization"); no pickle."""
        actions = ",".join(str(a) for a in self.history())
        return f"game={self.get_game()}\nactions={actions}\n"

    def _action_to_string(self, player: int, action: int) -> str:
        try:
            return str(self.board.action_to_move(action, perspective=self._perspective))
        except ValueError:
            return f"action {action}"   # (not a legal move here: OpenSpiel may ask)

    def is_terminal(self) -> bool:
        return self._over

    def returns(self) -> List[float]:
        return list(self._returns)

    def __str__(self) -> str:
        return self.board.fen()



class PlanesObserver:
    """OpenSpiel's observer of a shashki game (PyObserver): `tensor` the planes, flat, and
    `dict["observation"]` the same memory shaped (10, rows, files)."""

    def __init__(self, game: ShashkiGame, params: Optional[Dict[str, Any]] = None) -> None:
        if params:
            raise ValueError(f"the observer of a shashki game takes no parameters, not "
                             f"{params!r}")
        self.perspective = game.perspective
        self.game = game
        shape = game.variant.planes_shape
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: ShashkiState, player: int) -> None:
        board = state.board
        planes = np.asarray(board.planes(perspective=self.perspective))
        if self.perspective and self.game.player_of(board.turn) != player:
            # the other side's view: its pieces first, the board turned half a turn
            planes = planes[_SWAP, ::-1, ::-1]
        self.dict["observation"][...] = planes

    def string_from(self, state: ShashkiState, player: int) -> str:
        return state.board.fen()


def _action(text: str, where: str) -> int:
    if not 1 <= len(text) <= 10 or not all("0" <= c <= "9" for c in text):
        raise InvalidStateError(f"{where}: {text[:40]!r} is not an action (a whole number)")
    return int(text)


def _shashki_history(lines: List[str], game: str) -> List[Tuple[Optional[int], int]]:
    """The actions of a state string that ShashkiState.serialize() wrote."""
    if len(lines) != 2 or not lines[0].startswith("game=") or \
            not lines[1].startswith("actions="):
        raise InvalidStateError(f"a state string of a shashki game is two lines, game= and "
                                f"actions=, not {short(lines)}")
    written = lines[0][len("game="):]
    if written != game:
        raise InvalidStateError(f"the state string is of {written[:80]!r}, not of this game, "
                                f"{game!r}")
    field = lines[1][len("actions="):]
    return [(None, _action(a, f"action {k + 1}"))
            for k, a in enumerate(field.split(",") if field else [])]


def _openspiel_history(lines: List[str], state: ShashkiState) -> List[Tuple[Optional[int], int]]:
    """The actions of a state string in OpenSpiel's form for Python games: history=, then
    move_number=, then __dict__= (never decoded)."""
    if len(lines) != 3 or not lines[1].startswith("move_number=") or \
            not lines[2].startswith("__dict__="):
        raise InvalidStateError(f"a state string in OpenSpiel's form is three lines, "
                                f"history=, move_number= and __dict__=, not {short(lines)}")
    field = lines[0][len("history="):]
    out: List[Tuple[Optional[int], int]] = []
    for k, item in enumerate(field.split(",") if field else []):
        player, colon, action = item.partition(":")
        if not colon or player not in ("0", "1"):
            raise InvalidStateError(f"history item {k + 1}, {item[:40]!r}: not player:action")
        out.append((int(player), _action(action, f"history item {k + 1}")))
    number = lines[1][len("move_number="):]
    if number != str(len(out)):
        raise InvalidStateError(f"move_number={number[:40]} for a history of {len(out)} "
                                f"actions")
    return out


def short(lines: List[str]) -> str:
    text = repr("\n".join(lines))
    return text if len(text) <= 80 else text[:77] + "..."


#: the OpenSpiel names of shashki's games, in the order of shashki.VARIANTS
GAME_NAMES = tuple(game_name(v) for v in VARIANTS)


def _game_class(variant: Variant) -> type:
    """The ShashkiGame subclass of one game, which OpenSpiel calls with the parameters.  (A
    class, not a closure: OpenSpiel keeps what it registers until the C++ runtime ends, after
    Python's, and a class, held in a cycle of its own, is never freed then; a closure would
    be, without the GIL, which aborts the interpreter at exit.)"""

    def __init__(self: ShashkiGame, params: Optional[Dict[str, Any]] = None) -> None:
        ShashkiGame.__init__(self, variant, params)

    name = "".join(part.title() for part in variant.name.split("_"))
    return type(f"Shashki{name}Game", (ShashkiGame,), {"__init__": __init__,
                                                       "__module__": __name__})


def _register() -> None:
    registered = set(pyspiel.registered_names())
    for variant in VARIANTS:
        cls = _game_class(variant)
        globals()[cls.__name__] = cls      # (found by name: pickle)
        if game_name(variant) not in registered:    # (a module imported twice, reloaded)
            pyspiel.register_game(_game_type(variant), cls)


_register()
