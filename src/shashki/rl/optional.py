"""numpy, the library that VectorEnv, planes_batch and masks_batch need (the extra ``rl``):
looked up by name, so that shashki.rl imports without it and says what to install."""

from __future__ import annotations

import importlib
from typing import Any, Optional

try:
    _np: Any = importlib.import_module("numpy")
    _MISSING: Optional[ImportError] = None
except ImportError as missing:  # pragma: no cover - the rl extra is installed in tox -e rl
    _MISSING = missing


def numpy() -> Any:
    """The numpy module, or ImportError saying which extra has it."""
    if _MISSING is not None:
        raise ImportError(f"shashki.rl.VectorEnv, planes_batch and masks_batch need numpy, a "
                          f"library of the extra 'rl' (README.md, \"Optional libraries\"): "
                          f"{_MISSING}")
    return _np
