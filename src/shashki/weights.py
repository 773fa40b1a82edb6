"""The engine's evaluation weights, as data: one JSON file per game.

    >>> from shashki import weights
    >>> w = weights.default("russian")
    >>> w["man"][0] > 0 and len(w.pst("man")) == 32
    True

The evaluation (shashki/_core/evaluate.pxi) is a sum of terms -- material, square tables for
men and kings seen from their owner's side, runaway men, mobility and trapped kings, supported
and blocked men, the threat of a capture, the first king, the opposition -- each with a
middlegame and an endgame weight, mixed by the number of pieces on the board.  A game's
weights are in ``shashki/data/eval/<game>.json`` (written by the tuner, shashki.tuner); a
game without a file plays with `classic` weights, the hand-set evaluation of shashki 0.1.
A JSON file holds::

    {"game": "russian", "source": "...",
     "terms": {"man": [100, 100], "king": [250, 300], ...},
     "pst_man": [[...one per square...], [...]], "pst_king": [[...], [...]]}

Terms and squares that a file leaves out weigh 0.
"""

from __future__ import annotations

import json
import os
from importlib import resources
from typing import Any, Dict, List, Mapping, Sequence, Tuple, Union

from ._core.search import FEATURE_NAMES
from .errors import ShashkiError
from .limits import as_int, shown
from .variants import Variant, get_variant

__all__ = ["FEATURE_NAMES", "MAX_WEIGHT", "SCALAR_TERMS", "Weights", "WeightsError",
           "check_weight", "classic", "default", "load"]

#: the terms with one weight (pair) each; the square tables are pst_man_<i>, pst_king_<i>
SCALAR_TERMS: Tuple[str, ...] = tuple(n for n in FEATURE_NAMES
                                      if not n.startswith("pst_") and n != "spare")
#: the largest weight accepted, in hundredths of a man
MAX_WEIGHT = 10_000
_NSQMAX = sum(1 for n in FEATURE_NAMES if n.startswith("pst_man_"))
_INDEX = {name: i for i, name in enumerate(FEATURE_NAMES)}

PathLike = Union[str, "os.PathLike[str]"]


class WeightsError(ShashkiError):
    """Evaluation weights that cannot be used: an unknown term, a value that is not a whole
    number or is too large, a file that cannot be read."""


class Weights:
    """The middlegame and endgame weight of every evaluation term of one game."""

    def __init__(self, game: Union[str, Variant], mg: Sequence[int], eg: Sequence[int],
                 source: str = "") -> None:
        self.variant = get_variant(game)
        if len(mg) != len(FEATURE_NAMES) or len(eg) != len(FEATURE_NAMES):
            raise WeightsError(f"expected {len(FEATURE_NAMES)} weights per phase")
        self.mg: List[int] = [check_weight(FEATURE_NAMES[i], v) for i, v in enumerate(mg)]
        self.eg: List[int] = [check_weight(FEATURE_NAMES[i], v) for i, v in enumerate(eg)]
        self.source = source

    @property
    def squares(self) -> int:
        return self.variant.geometry.squares

    def __getitem__(self, term: str) -> Tuple[int, int]:
        i = _index(term)
        return self.mg[i], self.eg[i]

    def pst(self, kind: str, phase: int = 0) -> List[int]:
        """The square table of `kind` ("man" or "king"), middlegame (0) or endgame (1)."""
        start = _INDEX[f"pst_{kind}_0"]
        values = self.mg if phase == 0 else self.eg
        return values[start:start + self.squares]

    def replace(self, **terms: Union[int, Tuple[int, int]]) -> Weights:
        """A copy with some scalar terms set: an int sets both phases, a pair each."""
        mg, eg = list(self.mg), list(self.eg)
        for name, value in terms.items():
            i = _index(name)
            if isinstance(value, tuple):
                mg[i], eg[i] = value
            else:
                mg[i] = eg[i] = value
        return Weights(self.variant, mg, eg, self.source)

    def flat(self) -> List[int]:
        """Every middlegame weight then every endgame one (what the C search takes)."""
        return list(self.mg) + list(self.eg)

    def to_json(self) -> Dict[str, Any]:
        terms = {n: [self.mg[_INDEX[n]], self.eg[_INDEX[n]]] for n in SCALAR_TERMS}
        return {"game": self.variant.name, "source": self.source, "terms": terms,
                "pst_man": [self.pst("man", 0), self.pst("man", 1)],
                "pst_king": [self.pst("king", 0), self.pst("king", 1)]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], game: Union[str, Variant, None] = None
                  ) -> Weights:
        try:
            variant = get_variant(game if game is not None else data["game"])
            mg = [0] * len(FEATURE_NAMES)
            eg = [0] * len(FEATURE_NAMES)
            for name, pair in dict(data.get("terms", {})).items():
                i = _index(name)
                mg[i], eg[i] = (pair, pair) if isinstance(pair, int) else pair
            n = variant.geometry.squares
            for kind in ("man", "king"):
                table = data.get(f"pst_{kind}")
                if table is None:
                    continue
                if len(table) != 2 or any(len(row) != n for row in table):
                    raise WeightsError(f"pst_{kind} must be two lists of {n} weights")
                start = _INDEX[f"pst_{kind}_0"]
                mg[start:start + n] = table[0]
                eg[start:start + n] = table[1]
            return cls(variant, mg, eg, str(data.get("source", "")))
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, WeightsError):
                raise
            raise WeightsError(f"cannot read evaluation weights: {exc}") from None

    def save(self, path: PathLike) -> None:
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(self.to_json(), handle, indent=1)
            handle.write("\n")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Weights) and (self.variant, self.mg, self.eg) == \
            (other.variant, other.mg, other.eg)

    def __repr__(self) -> str:
        return f"<Weights {self.variant.name} {self.source or 'unnamed'}>"


def _index(name: str) -> int:
    i = _INDEX.get(name)
    if i is None or name == "spare":
        raise WeightsError(f"unknown evaluation term {name!r}; expected one of "
                           f"{', '.join(SCALAR_TERMS)}, pst_man_<i> or pst_king_<i>")
    return i


def check_weight(name: str, value: object) -> int:
    """`value` as the weight of the term `name`: WeightsError for a value that is not a whole
    number or is too large."""
    number = as_int(value)
    if number is None:
        raise WeightsError(f"evaluation weight {name} must be a whole number, "
                           f"not {shown(value)}")
    if abs(number) > MAX_WEIGHT:
        raise WeightsError(f"evaluation weight {name}={shown(number)} is too large: at most "
                           f"{MAX_WEIGHT} in absolute value")
    return number


def classic(game: Union[str, Variant]) -> Weights:
    """The hand-set evaluation of shashki 0.1, from the game's record (Variant.engine):
    material, a bonus per row advanced, for a man on its own back row and for a piece on the
    centre squares (giveaway and antidraughts: material only, negated)."""
    variant = get_variant(game)
    record = variant.engine
    n = len(FEATURE_NAMES)
    mg = [0] * n
    if variant.reversed_goal:
        mg[_INDEX["man"]] = -record.man
        mg[_INDEX["king"]] = -record.man - 2
        return Weights(variant, mg, list(mg), "classic")
    g = variant.geometry
    mg[_INDEX["man"]] = record.man
    mg[_INDEX["king"]] = record.king
    for s in range(g.squares):
        file, row = g.coords(s)
        middle = g.rows // 2 - 1 <= row <= g.rows // 2 and 0 < file < g.files - 1
        mg[_INDEX[f"pst_man_{s}"]] = record.advance * row + \
            (record.back_rank if row == 0 else 0) + (record.centre if middle else 0)
        mg[_INDEX[f"pst_king_{s}"]] = record.centre if middle else 0
    return Weights(variant, mg, list(mg), "classic")


_DEFAULTS: Dict[str, Weights] = {}


def default(game: Union[str, Variant]) -> Weights:
    """The weights a game's engine plays with: its tuned file in shashki/data/eval, or the
    classic ones."""
    variant = get_variant(game)
    cached = _DEFAULTS.get(variant.name)
    if cached is None:
        resource = resources.files("shashki").joinpath("data", "eval", f"{variant.name}.json")
        if resource.is_file():
            cached = Weights.from_json(json.loads(resource.read_text("utf-8")), variant)
        else:
            cached = classic(variant)
        _DEFAULTS[variant.name] = cached
    return cached


def load(spec: Union[str, PathLike, Weights, Mapping[str, Any], None],
         game: Union[str, Variant]) -> Weights:
    """Weights from `spec`: None or "default" (the game's own), "classic", a path to a JSON
    file, its parsed contents, or Weights (returned as is when they are this game's)."""
    variant = get_variant(game)
    if spec is None or spec == "default":
        return default(variant)
    if spec == "classic":
        return classic(variant)
    if isinstance(spec, Weights):
        if spec.variant != variant:
            raise WeightsError(f"these weights are {spec.variant.name}'s, not "
                               f"{variant.name}'s")
        return spec
    if isinstance(spec, Mapping):
        return Weights.from_json(spec, variant)
    path = os.fspath(spec)
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except OSError as exc:
        raise WeightsError(f"cannot read evaluation weights from {path!r}: "
                           f"{exc.strerror or exc}") from None
    except json.JSONDecodeError as exc:
        raise WeightsError(f"{path!r} is not a JSON file of weights: {exc}") from None
    if not isinstance(data, dict):
        raise WeightsError(f"{path!r} does not hold an object of weights")
    return Weights.from_json(data, variant)

