"""Build the Cython core.  Everything else about the package is in pyproject.toml.

Environment:
  SHASHKI_CFLAGS   compiler flags replacing the defaults (e.g. "-O0 -g" for a debug build);
                   any -fsanitize flags among them are passed to the linker too.
  SHASHKI_DEBUG=1  Cython bounds and negative-index checks on by default; the C files are
                   generated afresh in build/cython-debug, so they never mix with the normal
                   build's.  (A directive in a .pyx header wins over these defaults, and the
                   core's headers turn both checks off; they would only cover buffers and
                   Python sequences anyway.  The C arrays are checked by a sanitizer build:
                   SHASHKI_CFLAGS="... -fsanitize=undefined,bounds-strict", see tox -e debug.)
  SHASHKI_ANNOTATE=1  write Cython's HTML annotation next to the C files.
"""

import os
import platform
import re
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext as _build_ext

DEBUG = bool(os.environ.get("SHASHKI_DEBUG"))


def targets_x86_64():
    """Whether the extension is compiled for x86-64 only (not the machine running setup.py:
    cibuildwheel cross-compiles macOS wheels, telling the compiler the arch in ARCHFLAGS)."""
    if sys.maxsize <= 2**32:
        return False  # a 32-bit Python (manylinux i686 runs on x86-64 hosts)
    if sys.platform == "darwin" and os.environ.get("ARCHFLAGS"):
        # "-arch x86_64", "-arch arm64", or both for universal2 (then the flag must go)
        return re.findall(r"-arch\s+(\S+)", os.environ["ARCHFLAGS"]) == ["x86_64"]
    return platform.machine().lower() in ("x86_64", "amd64")


def compile_args():
    if "SHASHKI_CFLAGS" in os.environ:
        return os.environ["SHASHKI_CFLAGS"].split()
    if sys.platform == "win32":
        # MSVC: the intrinsics (__popcnt64, _BitScanForward64) need no flag.
        return ["/O2"]
    args = ["-O3"]
    # POPCNT is in every x86-64 CPU of the last fifteen years (x86-64-v2); without it the
    # compiler replaces each popcount with a slow bit-twiddling sequence.  Other targets
    # (arm64 has a popcount instruction of its own) must not get this x86-only flag.
    if targets_x86_64():
        args.append("-mpopcnt")
    return args


def link_args():
    # a sanitizer's runtime library comes in at link time
    return [a for a in compile_args() if a.startswith(("-fsanitize", "-fno-sanitize"))]


directives = {"language_level": "3", "boundscheck": False, "wraparound": False}
if DEBUG:
    directives.update(boundscheck=True, wraparound=True)


class build_ext(_build_ext):
    """Cythonize when the extensions are built, not whenever setup.py runs (sdist asks this
    command for its sources too): building the sdist then needs no Cython run and never
    rewrites the C files in the source tree."""

    def run(self):
        from Cython.Build import cythonize

        for ext in self.extensions:
            # only the sources change: setuptools has already set up these Extension objects
            ext.sources = cythonize(
                [ext],
                compiler_directives=directives,
                annotate=bool(os.environ.get("SHASHKI_ANNOTATE")),
                build_dir="build/cython-debug" if DEBUG else None,
                force=DEBUG,
            )[0].sources
        super().run()


extensions = [
    Extension(f"shashki._core.{name}", [f"src/shashki/_core/{name}.pyx"],
              extra_compile_args=compile_args(), extra_link_args=link_args())
    for name in ("movegen", "perft", "search")
]

setup(ext_modules=extensions, cmdclass={"build_ext": build_ext})
