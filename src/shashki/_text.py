"""Reading untrusted text (FEN, move text, PDN tags, protocol lines): numbers of any length,
and quoting it in error messages; and the natural order of texts with numbers in them.

Python refuses to convert a string of more than 4,300 digits (sys.set_int_max_str_digits) with
a plain ValueError, and a zero-padded number passes a length check made before stripping the
zeros.  Every parser reads its numbers through `bounded_int`, which looks at the significant
digits first, so any input length is cheap and a number out of range is reported by the
parser's own error.
"""

from __future__ import annotations

import re
from typing import List, Optional, Union


#: the longest text quoted whole in an error message (fuzzed input can be huge)
QUOTE_LIMIT = 60


def quote(text: str) -> str:
    """`text` for an error message: its repr, cut short when long."""
    if len(text) > QUOTE_LIMIT:
        return repr(text[:QUOTE_LIMIT]) + "..."
    return repr(text)


def short(token: str, limit: int = 12) -> str:
    """A token of some text for an error message, cut short when long."""
    return token if len(token) <= limit else token[:limit] + "..."


def bounded_int(digits: str, maximum: int) -> Optional[int]:
    """The value of a run of decimal digits, or None when it is greater than `maximum`."""
    significant = digits.lstrip("0") or "0"
    if len(significant) > len(str(maximum)):
        return None
    value = int(significant)
    return value if value <= maximum else None


_DIGITS = re.compile(r"([0-9]+)")


def natural_key(text: object) -> List[Union[int, str]]:
    """A sort key for `text` (its str) that reads each run of digits as a number: ``9-14``
    before ``10-15``, ``a3-b4`` before ``c3-b4``."""
    return [int(part) if part.isdigit() else part for part in _DIGITS.split(str(text))]
