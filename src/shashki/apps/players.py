"""Who plays in a match: the built-in engine with the settings of an engine spec
(``"depth=4"``, ``"movetime=0.1,hash=16"``), an external engine over the Hub protocol
(``"hub:scan hub"``: the command after ``hub:``, with the match's limit), a 10x10 engine over
DXP (``"dxp:127.0.0.1:27531"``: a follower such as ``shashki dxp``, with its own time), or any
object with a ``choose(board)`` method, or a plain function of the board.

    >>> from shashki.apps.players import EngineSpec
    >>> spec = EngineSpec.parse("depth=4, hash=16, king=250")
    >>> spec.limit, spec.hash_mb, spec.weights
    (Limit(depth=4), 16, (('king', 250),))
    >>> str(spec)
    'depth=4,hash=16,king=250'
    >>> str(EngineSpec.parse("nodes=5000 probcut=0 eval=classic"))
    'nodes=5000,eval=classic,probcut=0'

A spec sets the search limit (depth, nodes, movetime), the hash size, the threads of a search
with a time limit (``threads=2``), a name, the evaluation
(``eval=``: "classic", "default" or a JSON file of weights, see shashki.weights, and single
terms such as ``king=250``), the search options (``lmr=0``, ``probcut=40``: see
shashki.engine.SEARCH_OPTIONS) and the endgame databases (``egdb_path=FOLDER``; ``egdb=0``
probes none).  Values with spaces or commas are quoted as in a shell.
"""

from __future__ import annotations

import dataclasses
import shlex
from dataclasses import dataclass
from typing import Any, Callable, Dict, Optional, Protocol, Sequence, Tuple, Union

from ..board import Board
from ..dxp.client import DxpEngine
from ..dxp.messages import GAME
from ..engine import EVAL_WEIGHTS, SEARCH_OPTIONS, Engine, Score, SearchResult
from ..errors import ShashkiError
from ..hub.client import HubEngine
from ..limits import Limit, check_hash_mb, check_threads
from ..move import Move
from ..variants import Variant

__all__ = ["DEFAULT_DEPTH", "DEFAULT_HASH_MB", "DXP_PREFIX", "HUB_PREFIX", "DxpPlayer",
           "EnginePlayer", "EngineSpec", "EngineSpecError", "HubPlayer", "Player", "PlayerStats",
           "dxp_address", "hub_command", "make_player", "player_name"]

#: what starts a player spec that names an external Hub engine's command
HUB_PREFIX = "hub:"
DXP_PREFIX = "dxp:"

#: the search limit of a spec that names none, when the match gives none either
DEFAULT_DEPTH = 6
#: transposition table of each engine in a match, MiB: two engines share the machine
DEFAULT_HASH_MB = 16


class EngineSpecError(ShashkiError):
    """An engine spec that cannot be read (``depth=4,hash=16`` is one that can)."""


@dataclass(frozen=True)
class EngineSpec:
    """Settings of the built-in engine: the search `limit`, the hash size, an optional `name`
    for the score table, and evaluation weights (`weights`, (name, value) pairs passed to
    Engine)."""

    limit: Limit = Limit()
    hash_mb: Optional[int] = None
    name: Optional[str] = None
    weights: Tuple[Tuple[str, int], ...] = ()
    evaluation: Optional[str] = None
    options: Tuple[Tuple[str, int], ...] = ()
    egdb: Optional[str] = None
    threads: Optional[int] = None

    KEYS = ("depth", "nodes", "movetime", "hash", "threads", "name", "eval", "egdb_path")

    @property
    def depth(self) -> Optional[int]:
        return self.limit.depth

    @property
    def nodes(self) -> Optional[int]:
        return self.limit.nodes

    @property
    def movetime(self) -> Optional[float]:
        return self.limit.movetime

    @classmethod
    def parse(cls, text: Union[str, EngineSpec]) -> EngineSpec:
        """Read ``key=value`` settings separated by commas or spaces (see the module
        docstring): depth (plies), nodes, movetime (seconds; also ``time``), hash (MiB), name,
        eval, single evaluation weights (EVAL_WEIGHTS, integers), search options
        (SEARCH_OPTIONS, integers), egdb_path, threads (a timed search's threads)."""
        if isinstance(text, EngineSpec):
            return text
        if not isinstance(text, str):
            raise EngineSpecError(f"an engine spec is text such as 'depth=4', "
                                  f"not {type(text).__name__}")
        settings: Dict[str, str] = {}
        try:
            lexer = shlex.shlex(text, posix=True)
            lexer.whitespace = " \t\n,"
            lexer.whitespace_split = True
            lexer.commenters = ""
            items = list(lexer)
        except ValueError as exc:
            raise EngineSpecError(f"cannot read engine spec {text!r}: {exc}") from None
        if not items:
            raise EngineSpecError(f"empty engine spec {text!r}; expected settings such as "
                                  f"'depth=4' or 'movetime=0.1,hash=16'")
        for item in items:
            key, eq, value = item.partition("=")
            key = key.strip().lower().replace("-", "_")
            value = value.strip()
            if not eq or not key or not value:
                raise EngineSpecError(f"cannot read {item!r} in engine spec {text!r}; expected "
                                      f"key=value, e.g. depth=4")
            key = "movetime" if key == "time" else key
            if key == "hub":
                # an external engine is a player of its own, not a setting of this one's
                raise EngineSpecError(
                    f"{item!r} in engine spec {text!r}: an external Hub engine is named by a "
                    f"spec of its own, hub:COMMAND (e.g. \"hub:scan hub\"), not hub=")
            if key not in cls.KEYS and key not in EVAL_WEIGHTS and key not in SEARCH_OPTIONS:
                raise EngineSpecError(
                    f"unknown setting {key!r} in engine spec {text!r}; expected "
                    f"{', '.join(cls.KEYS)}, a search option ({', '.join(SEARCH_OPTIONS)}) "
                    f"or an evaluation weight ({', '.join(EVAL_WEIGHTS)})")
            if key in settings:
                raise EngineSpecError(f"{key} is given twice in engine spec {text!r}")
            settings[key] = value
        try:
            limit = Limit(depth=_number(settings.get("depth"), int),
                          nodes=_number(settings.get("nodes"), int),
                          movetime=_number(settings.get("movetime"), float))
            hash_mb = _number(settings.get("hash"), int)
            if hash_mb is not None:
                check_hash_mb(hash_mb, whole=True)
            threads = _number(settings.get("threads"), int)
            if threads is not None:
                check_threads(threads)
            weights = tuple(sorted((k, _whole(k, v)) for k, v in settings.items()
                                   if k in EVAL_WEIGHTS))
            options = tuple(sorted((k, _whole(k, v)) for k, v in settings.items()
                                   if k in SEARCH_OPTIONS))
        except ValueError as exc:
            raise EngineSpecError(f"{exc} (in engine spec {text!r})") from None
        return cls(limit, hash_mb, settings.get("name"), weights, settings.get("eval"),
                   options, settings.get("egdb_path"), threads)

    @property
    def has_limit(self) -> bool:
        return self.limit != Limit()

    def with_defaults(self, depth: Optional[int] = None,
                      movetime: Optional[float] = None) -> EngineSpec:
        """This spec, or, when it sets no search limit, the match's `depth`/`movetime` (or
        DEFAULT_DEPTH when neither is given)."""
        if self.has_limit:
            return self
        if depth is None and movetime is None:
            depth = DEFAULT_DEPTH
        return dataclasses.replace(self, limit=Limit(depth=depth, movetime=movetime))

    def __str__(self) -> str:
        return self.name or self.settings()

    def settings(self) -> str:
        """The spec's settings as text (without its name)."""
        parts = [f"{k}={v:g}" if k == "movetime" else f"{k}={v}"
                 for k, v in (("depth", self.depth), ("nodes", self.nodes),
                              ("movetime", self.movetime), ("hash", self.hash_mb),
                              ("threads", self.threads))
                 if v is not None]
        parts += [f"{k}={shlex.quote(v)}" for k, v in (("eval", self.evaluation),
                                                        ("egdb_path", self.egdb))
                  if v is not None]
        parts += [f"{k}={v}" for k, v in self.weights + self.options]
        return ",".join(parts) or "default"


def _number(text: Optional[str], kind: Callable[[str], Any]) -> Any:
    """`text` read as an int or a float (the Limit checks the value), or None."""
    if text is None:
        return None
    try:
        return kind(text)
    except ValueError:
        return text         # refused by the check, with the text in its message


def _whole(key: str, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{key} must be a whole number, not {text!r}") from None


@dataclass
class PlayerStats:
    """What one player spent over a match: its moves, and for engines their search effort."""
    moves: int = 0
    searches: int = 0
    nodes: int = 0
    time: float = 0.0
    depth_sum: int = 0

    @property
    def mean_depth(self) -> float:
        return self.depth_sum / self.searches if self.searches else 0.0

    @property
    def nps(self) -> float:
        return self.nodes / self.time if self.time > 0 else 0.0


class Player(Protocol):
    """What plays in a match: `choose(board)` returns a legal Move of `board`, its text, or a
    SearchResult (whose effort is then counted in the match's PlayerStats)."""

    def choose(self, board: Board) -> Union[Move, str, SearchResult]: ...


class EnginePlayer:
    """The built-in engine with an EngineSpec's settings, one per player (own hash table)."""

    def __init__(self, spec: EngineSpec, variant: Variant) -> None:
        self.spec = spec
        self.name = str(spec)
        self.engine = Engine(variant, spec.hash_mb or DEFAULT_HASH_MB,
                             evaluation=spec.evaluation, options=dict(spec.options),
                             egdb=spec.egdb, threads=spec.threads or 1, **dict(spec.weights))

    def new_game(self, board: Board) -> None:
        # a fresh table per game: each game then depends only on its opening and the settings
        self.engine.new_game()

    def choose(self, board: Board) -> SearchResult:
        return self.engine.search(board, limit=self.spec.limit)


class HubPlayer:
    """An external engine driven through the Hub protocol (shashki.hub.client) with a search
    `limit`; `close()` ends its process."""

    def __init__(self, command: Sequence[str], limit: Limit, variant: Variant) -> None:
        self.engine = HubEngine.popen(command, variant=variant)
        self.limit = limit
        self.name = f"{self.engine.name} {self.engine.id.get('version', '')}".strip()

    def new_game(self, board: Board) -> None:
        self.engine.new_game()

    def choose(self, board: Board) -> SearchResult:
        result = self.engine.play(board, self.limit)
        info = result.info      # what the engine said of its search, for the match's stats
        return SearchResult(result.move, info.score or Score(0), list(info.pv) or [result.move],
                            info.depth or 0, info.nodes or 0, info.time or 0.0)

    def close(self) -> None:
        self.engine.quit()


class DxpPlayer:
    """An engine over DXP (shashki.dxp.client), a 10x10 follower at (host, port): a connection
    a game, since DXP asks for a game at its start with the time control of the whole game
    (`minutes`; 0: the engine's own).  `close()` ends the last one."""

    def __init__(self, host: str, port: int, variant: Variant, minutes: int = 0) -> None:
        if variant != GAME:
            raise EngineSpecError(f"DXP plays {GAME.name} (10x10) only, not {variant.name}")
        self.host = host
        self.port = port
        self.minutes = minutes
        self.name = f"dxp:{host}:{port}"
        self.client: Optional[DxpEngine] = None

    def new_game(self, board: Board) -> None:
        self.close()

    def choose(self, board: Board) -> SearchResult:
        if self.client is None:
            self.client = DxpEngine.connect(self.host, self.port, minutes=self.minutes)
            self.name = self.client.engine_name or self.name
        result = self.client.play(board)
        if result.move is None:
            raise EngineSpecError(f"{self.name} ended the game instead of moving "
                                  f"({result.ended})")
        if self.client.engine_name:
            self.name = self.client.engine_name
        return SearchResult(result.move, Score(0), [result.move], 0, 0, float(result.seconds))

    def close(self) -> None:
        if self.client is not None:
            self.client.quit()
            self.client = None


def dxp_address(text: str) -> Optional[Tuple[str, int]]:
    """(host, port) of a ``dxp:HOST:PORT`` player spec, or None for another spec;
    EngineSpecError for one that names no port."""
    if not text.startswith(DXP_PREFIX):
        return None
    host, colon, port = text[len(DXP_PREFIX):].rpartition(":")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise EngineSpecError(f"{text!r} is not dxp:HOST:PORT (e.g. dxp:127.0.0.1:27531)")
    return host.strip("[]"), int(port)


def hub_command(text: str) -> Optional[Sequence[str]]:
    """The command of a ``hub:COMMAND`` player spec (split as a shell would), or None for
    another spec; EngineSpecError for an empty one."""
    if not text.startswith(HUB_PREFIX):
        return None
    try:
        command = shlex.split(text[len(HUB_PREFIX):])
    except ValueError as exc:
        raise EngineSpecError(f"cannot read the command of {text!r}: {exc}") from None
    if not command:
        raise EngineSpecError(f"{text!r} names no command; expected hub:COMMAND, e.g. "
                              f"'hub:scan hub'")
    return command


class _FunctionPlayer:
    def __init__(self, function: Callable[[Board], Any], name: str) -> None:
        self.function = function
        self.name = name

    def choose(self, board: Board) -> Any:
        return self.function(board)


def make_player(item: Any, variant: Variant, depth: Optional[int],
                movetime: Optional[float], label: str) -> Any:
    """The player for `item` (an engine spec, ``hub:COMMAND``, a player, a function of the
    board), named `label` unless it has a name; a spec without limits (and a Hub engine) gets
    `depth`/`movetime`."""
    address = dxp_address(item) if isinstance(item, str) else None
    if address is not None:
        return DxpPlayer(*address, variant)
    command = hub_command(item) if isinstance(item, str) else None
    if command is not None:
        return HubPlayer(command, EngineSpec().with_defaults(depth, movetime).limit, variant)
    if isinstance(item, (str, EngineSpec)):
        return EnginePlayer(EngineSpec.parse(item).with_defaults(depth, movetime), variant)
    if hasattr(item, "choose"):
        if not getattr(item, "name", None):
            try:
                item.name = label
            except AttributeError:
                pass
        return item
    if callable(item):
        return _FunctionPlayer(item, getattr(item, "__name__", label))
    raise EngineSpecError(f"player {label} must be an engine spec, an object with a "
                          f"choose(board) method or a function of the board, "
                          f"not {type(item).__name__}")


def player_name(player: Any) -> str:
    name: str = getattr(player, "name", None) or type(player).__name__
    return name
