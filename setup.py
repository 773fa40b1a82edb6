"""Build the Cython core.  Everything else about the package is in pyproject.toml."""

import os
import platform
import sys

from setuptools import Extension, setup
from Cython.Build import cythonize


def compile_args():
    # SHASHKI_CFLAGS replaces the defaults (e.g. "-O0 -g" for a debug build).
    if "SHASHKI_CFLAGS" in os.environ:
        return os.environ["SHASHKI_CFLAGS"].split()
    if sys.platform == "win32":
        return ["/O2"]
    args = ["-O3"]
    # POPCNT is in every x86-64 CPU of the last fifteen years (x86-64-v2); without it the
    # compiler replaces each popcount with a slow bit-twiddling sequence.
    if platform.machine().lower() in ("x86_64", "amd64"):
        args.append("-mpopcnt")
    return args


directives = {"language_level": "3", "boundscheck": False, "wraparound": False}
if os.environ.get("SHASHKI_DEBUG"):
    directives.update(boundscheck=True, wraparound=True)

extensions = [
    Extension(f"shashki._core.{name}", [f"src/shashki/_core/{name}.pyx"],
              extra_compile_args=compile_args())
    for name in ("movegen", "perft", "search")
]

setup(ext_modules=cythonize(extensions, compiler_directives=directives,
                            annotate=bool(os.environ.get("SHASHKI_ANNOTATE"))))
