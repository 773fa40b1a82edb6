"""Reading numbers out of untrusted text (FEN, move text, PDN tags, protocol lines).

Python refuses to convert a string of more than 4,300 digits (sys.set_int_max_str_digits) with
a plain ValueError, and a zero-padded number passes a length check made before stripping the
zeros.  Every parser reads its numbers through `bounded_int`, which looks at the significant
digits first, so any input length is cheap and a number out of range is reported by the
parser's own error.
"""

from __future__ import annotations

from typing import Optional


def bounded_int(digits: str, maximum: int) -> Optional[int]:
    """The value of a run of decimal digits, or None when it is greater than `maximum`."""
    significant = digits.lstrip("0") or "0"
    if len(significant) > len(str(maximum)):
        return None
    value = int(significant)
    return value if value <= maximum else None
