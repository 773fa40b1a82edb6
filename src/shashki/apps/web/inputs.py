"""What a request to `shashki serve` carries, read and checked: a JSON body, a query string,
each field.  Anything else gets a RequestError that names the field and what it takes; nothing
a client sends reaches the library unchecked."""

from __future__ import annotations

import json
import math
from typing import Any, Dict, Mapping, Optional, Sequence

from ...limits import MAX_DEPTH, Limit, shown
from .errors import RequestError

__all__ = ["DEFAULT_MOVETIME", "MAX_BODY", "MAX_MOVETIME", "MAX_TEXT", "MAX_VERSION", "Fields",
           "read_json", "read_query"]

#: the largest request body, in bytes: a long game's PDN is a few KiB
MAX_BODY = 256 * 1024
#: the longest text field (a FEN, a PDN) in characters
MAX_TEXT = MAX_BODY
#: the longest time the engine may take for a move or an analysis, in seconds
MAX_MOVETIME = 600.0
#: the time of an engine move whose limit gives none (a depth alone), in seconds: a deep
#: depth would take far longer, and each search holds one of the server's few engines
DEFAULT_MOVETIME = 30.0
#: the largest version of a game (each change adds one)
MAX_VERSION = 1 << 62


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def read_json(body: bytes) -> Dict[str, Any]:
    """The JSON object of a request body (UTF-8)."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RequestError(400, f"the body is not UTF-8 text ({error.reason} at byte "
                                f"{error.start})", "a JSON object in UTF-8") from None
    try:
        value = json.loads(text, parse_constant=_no_constant) if text.strip() else {}
    except RecursionError:
        raise RequestError(400, "the body's JSON is nested too deeply",
                           "a JSON object of fields") from None
    except ValueError as error:
        raise RequestError(400, f"the body is not JSON: {error}",
                           "a JSON object of fields") from None
    if not isinstance(value, dict):
        raise RequestError(400, f"the body is a JSON {type(value).__name__}, not an object",
                           "a JSON object of fields")
    return value


def read_query(query: Mapping[str, Sequence[str]], allowed: Sequence[str]) -> Dict[str, str]:
    """The parameters of a query string (parsed with parse_qs), each at most once and each one
    of `allowed`."""
    out: Dict[str, str] = {}
    for name, values in query.items():
        if name not in allowed:
            raise RequestError(400, f"unknown query parameter {shown(name)}",
                               _one_of("parameters", allowed))
        if len(values) != 1:
            raise RequestError(400, f"query parameter {name} is given {len(values)} times",
                               f"{name} once")
        out[name] = values[0]
    return out


def _one_of(kind: str, names: Sequence[str]) -> str:
    return f"{kind}: {', '.join(names)}" if names else f"no {kind}"


class Fields:
    """The fields of a JSON object that a route reads: every key must be one of `allowed`."""

    def __init__(self, body: Mapping[str, Any], allowed: Sequence[str]) -> None:
        unknown = [key for key in body if key not in allowed]
        if unknown:
            raise RequestError(400, f"unknown field {shown(unknown[0])}",
                               _one_of("fields", allowed))
        self.body = body

    def text(self, name: str, *, required: bool = False,
             limit: int = MAX_TEXT) -> Optional[str]:
        value = self.body.get(name)
        if value is None:
            if required:
                raise RequestError(400, f"field {name} is missing", f"{name}: a string")
            return None
        if not isinstance(value, str):
            raise RequestError(400, f"field {name} is a {_kind(value)}", f"{name}: a string")
        if len(value) > limit:
            raise RequestError(413, f"field {name} is {len(value)} characters long",
                               f"{name}: at most {limit} characters")
        _check_unicode(name, value)
        return value

    def whole(self, name: str, low: int, high: int, default: Optional[int] = None,
              *, required: bool = False) -> Optional[int]:
        value = self.body.get(name)
        if value is None:
            if required:
                raise RequestError(400, f"field {name} is missing",
                                   f"{name}: a whole number from {low} to {high}")
            return default
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise RequestError(400, f"field {name} is {shown(value)}",
                               f"{name}: a whole number from {low} to {high}")
        return value

    def flag(self, name: str) -> bool:
        """A true or false field (absent or null: false)."""
        value = self.body.get(name)
        if value is None:
            return False
        if not isinstance(value, bool):
            raise RequestError(400, f"field {name} is {shown(value)}", f"{name}: true or false")
        return value

    def choice(self, name: str, options: Sequence[str]) -> Optional[str]:
        """One of the strings `options`, or None when the field is absent (or null)."""
        value = self.body.get(name)
        if value is None:
            return None
        if not isinstance(value, str) or value not in options:
            raise RequestError(400, f"field {name} is {shown(value)}",
                               f"{name}: one of " + ", ".join(options))
        return value

    def version(self) -> Optional[int]:
        """The `version` of the game that the request was made for, or None."""
        return self.whole("version", 0, MAX_VERSION)

    def limit(self, name: str) -> Limit:
        """A search limit: {"depth": plies, "movetime": seconds}, either or both; the time is
        at most MAX_MOVETIME, and DEFAULT_MOVETIME when none is given, so that every search
        ends soon."""
        value = self.body.get(name)
        if not isinstance(value, dict) or not value:
            raise RequestError(400, f"field {name} is {shown(value)}", _LIMIT_TEXT)
        limit = Fields(value, ("depth", "movetime"))
        depth = limit.whole("depth", 1, MAX_DEPTH)
        movetime = limit.body.get("movetime")
        if movetime is not None:
            if isinstance(movetime, bool) or not isinstance(movetime, (int, float)) or \
                    not 0 < movetime <= MAX_MOVETIME or math.isnan(movetime):
                raise RequestError(400, f"field {name}.movetime is {shown(movetime)}",
                                   _LIMIT_TEXT)
        return Limit(depth=depth, movetime=float(movetime or DEFAULT_MOVETIME))


_LIMIT_TEXT = (f"a limit {{\"depth\": 1..{MAX_DEPTH}, \"movetime\": seconds, more than 0 and "
               f"at most {MAX_MOVETIME:g}}}, either or both")


def _check_unicode(name: str, value: str) -> None:
    """RequestError unless `value` is Unicode text: JSON's escapes can write half of a
    surrogate pair alone (\\udc00), which no UTF-8 answer (a PDN download) could carry."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as error:
        raise RequestError(400, f"field {name} holds a lone surrogate "
                                f"(U+{ord(value[error.start]):04X} at character {error.start})",
                           f"{name}: Unicode text (a surrogate only in a pair)") from None


def _kind(value: Any) -> str:
    return {dict: "JSON object", list: "JSON array", bool: "boolean", int: "number",
            float: "number"}.get(type(value), type(value).__name__)


