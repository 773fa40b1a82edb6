"""The argument types and arguments that the `shashki` subcommands share.

Each type turns the text of one argument into a value or raises
argparse.ArgumentTypeError, so a bad argument ends the command with status 2 and the reason.
"""

from __future__ import annotations

import argparse
import math
import re
from typing import Any, Callable, List, Optional, Sequence, Tuple

from .._text import bounded_int
from ..limits import MAX_SECONDS, shown
from ..variants import VARIANTS, Variant

__all__ = ["add_command", "add_variant", "depth_range", "even", "game", "seconds",
           "variant_names", "whole"]

# the subparsers action of the shashki parser (argparse keeps its class private)
SubParsers = Any


def variant_names() -> List[str]:
    """Every game's name and aliases, the choices of a VARIANT argument."""
    names: List[str] = []
    for v in VARIANTS:
        names.append(v.name)
        names.extend(v.aliases)
    return names


def _games(variants: Sequence[Variant] = VARIANTS) -> str:
    names = [v.name for v in variants]
    return ", ".join(names[:-1]) + " or " + names[-1]


def game(text: str) -> str:
    """The type of a VARIANT argument: a game's name or alias, in any case.  An unknown one
    is refused naming the games (argparse's choices would list every alias on one line)."""
    name = text.strip().lower()
    if name not in variant_names():
        raise argparse.ArgumentTypeError(f"unknown game {shown(text)}; the games are "
                                         f"{_games()} (or an alias of one)")
    return name


def add_variant(parser: argparse.ArgumentParser, *flags: str, default: Optional[str] = None,
                help: str = "") -> None:
    """A VARIANT argument: positional without `flags`, else an option with a `default`."""
    text = help or f"{_games()} (or an alias)"
    if default is not None:
        text += f"; default {default}"
    if flags:
        parser.add_argument(*flags, type=game, default=default, metavar="VARIANT",
                            dest="variant", help=text)
    else:
        parser.add_argument("variant", metavar="VARIANT", type=game, help=text)


def add_command(sub: SubParsers, name: str, func: Callable[[argparse.Namespace, Any], int],
                **kwargs: Any) -> argparse.ArgumentParser:
    """A subcommand whose arguments `func(args, out)` carries out; its own parser is kept as
    `args.parser`, so its usage goes with its errors."""
    parser: argparse.ArgumentParser = sub.add_parser(name, **kwargs)
    parser.set_defaults(func=func, parser=parser)
    return parser


def whole(name: str, low: int, high: int) -> Callable[[str], int]:
    """The type of a whole number from `low` to `high`, named `name` in its errors."""
    def parse(text: str) -> int:
        match = re.fullmatch(r"\s*\+?([0-9]+)\s*", text)
        # read through bounded_int: a number too long for int() is out of range anyway
        value = bounded_int(match.group(1), high) if match else None
        if value is None or value < low:
            raise argparse.ArgumentTypeError(f"{name} must be a whole number from {low} to "
                                             f"{high}, not {shown(text)}")
        return value
    return parse


def seconds(name: str) -> Callable[[str], float]:
    """The type of a number of seconds, more than 0 and at most MAX_SECONDS."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not 0 < value <= MAX_SECONDS:        # NaN fails too
            raise argparse.ArgumentTypeError(
                f"{name} must be a number of seconds, more than 0 and at most "
                f"{MAX_SECONDS:g}, not {shown(text)}")
        return value
    return parse


def even(name: str, low: int, high: int, why: str) -> Callable[[str], int]:
    """The type of an even whole number from `low` to `high`; `why` says why it is even."""
    number = whole(name, low, high)

    def parse(text: str) -> int:
        value = number(text)
        if value % 2:
            raise argparse.ArgumentTypeError(f"{name} must be an even number ({why}), "
                                             f"not {value}")
        return value
    return parse


def depth_range(high: int) -> Callable[[str], Tuple[int, int]]:
    """The type of a range of depths A-B, both from 0 to `high`."""
    depth = whole("a depth", 0, high)

    def parse(text: str) -> Tuple[int, int]:
        lo, dash, hi = text.partition("-")
        if not dash:
            raise argparse.ArgumentTypeError(f"expected a range of depths such as 1-12, "
                                             f"not {shown(text)}")
        low, top = depth(lo), depth(hi)
        if low > top:
            raise argparse.ArgumentTypeError(f"empty depth range {text!r}: write the lower "
                                             f"first")
        return low, top
    return parse
