"""What this install is, in one line: the version, the kernels this CPU runs and the CPU's
features that choose them (`shashki --version`, and the first line of `shashki bench`)."""

from __future__ import annotations

from .. import build_info

__all__ = ["version_text"]


def version_text() -> str:
    """The version and the build of the kernels this CPU runs, with the CPU's features: what a
    bug report needs to say."""
    info = build_info()
    have = [name.upper() for name, on in info["cpu"].items() if on]
    return (f"shashki {info['version']} (kernels {info['code_path']}; "
            f"CPU: {', '.join(have) or 'no POPCNT, BMI2 or AVX2'})")
