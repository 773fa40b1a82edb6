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
  SHASHKI_BUILD_DIR  where everything the build writes goes (default build/): the generated
                   modules, the C, the objects, the egg-info.  Nothing is written into src/.

The kernels: src/shashki/_core/kernel.pxi is the move generator and perft of every game,
written once.  For each distinct set of move rules and geometry among the games of
shashki/variants.py, this file writes a module build/generated/shashki/_core/kernels/<name>.pyx
that defines those rules as C constants and includes kernel.pxi, so each game's kernel is
compiled with its rules fixed.  The records stay the one place where a game's rules are
written.  On x86-64 each kernel is compiled twice, for the x86-64 baseline and for x86-64-v2
(kernel_flavours); shashki._core.cpu loads the one the CPU runs.
"""

import importlib
import os
import platform
import re
import sys
import types

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext as _build_ext

DEBUG = bool(os.environ.get("SHASHKI_DEBUG"))
# Everything the build writes goes here: the generated .pyx/.pxd, Cython's C, the objects and
# the egg-info.  Never src/, so a read-only copy of the tree builds.
BUILD = os.environ.get("SHASHKI_BUILD_DIR", "build")
GENERATED = os.path.join(BUILD, "generated")


# the names compilers and platforms give one machine
_MACHINES = {"amd64": "x86_64", "x64": "x86_64", "arm64": "aarch64"}


def target_machine():
    """The machine the extension is compiled for: the one a cross build names in
    _PYTHON_HOST_PLATFORM (as crossenv and cibuildwheel do: "linux-aarch64"), else the one
    this interpreter runs on (under qemu-user, the emulated one: tools/aarch64.py)."""
    host = os.environ.get("_PYTHON_HOST_PLATFORM")
    machine = host.rsplit("-", 1)[-1] if host else platform.machine()
    return _MACHINES.get(machine.lower(), machine.lower())


def compiler_machine():
    """The machine a cross compiler named in CC compiles for (aarch64-linux-gnu-gcc: aarch64),
    or None for a compiler that names none."""
    name = os.path.basename(os.environ.get("CC", "").split(" ")[0])
    match = re.fullmatch(r"([a-z0-9_]+)-(?:[a-z0-9_]+-)*(?:linux|w64|mingw32|apple|darwin)"
                         r"[a-z0-9_.-]*-(?:gcc|cc|clang)(?:-[0-9.]+)?", name)
    return _MACHINES.get(match.group(1), match.group(1)) if match else None


def targets_x86_64():
    """Whether the extension is compiled for x86-64 only (not the machine running setup.py:
    cibuildwheel cross-compiles macOS wheels, telling the compiler the arch in ARCHFLAGS)."""
    if sys.maxsize <= 2**32:
        return False  # a 32-bit Python (manylinux i686 runs on x86-64 hosts)
    if sys.platform == "darwin" and os.environ.get("ARCHFLAGS"):
        # "-arch x86_64", "-arch arm64", or both for universal2 (then the flag must go)
        return re.findall(r"-arch\s+(\S+)", os.environ["ARCHFLAGS"]) == ["x86_64"]
    return target_machine() == "x86_64"


def check_platform():
    """Stop with one sentence where the core cannot be built, instead of the compiler's errors."""
    cross = compiler_machine()
    if cross is not None and cross != target_machine():
        # an x86-64 Python with an ARM compiler would add x86-64 flags to an ARM compile
        sys.exit(f"CC={os.environ['CC']} compiles for {cross}, but this build is for "
                 f"{target_machine()}: a cross build runs setup.py with the target's Python "
                 f"(tools/aarch64.py runs arm64's under qemu-user), or names the target in "
                 f"_PYTHON_HOST_PLATFORM (linux-{cross})")
    if sys.platform == "win32" and not targets_x86_64():
        sys.exit("shashki builds on 64-bit x86 Windows only (its core uses 64-bit bit scans "
                 "that MSVC has on x64 alone); this Python is "
                 f"{platform.machine() or 'unknown'}, {64 if sys.maxsize > 2**32 else 32}-bit.")


# The kernels' instruction sets on x86-64: (subpackage, compiler flags).  The first, the
# x86-64 baseline, runs on every x86-64 CPU; the second needs POPCNT (x86-64-v2: every CPU
# since 2008-2011), which the bit counts of move generation and perft live on (the baseline's
# software count costs 20-30% of perft's speed).  shashki._core.cpu picks one at import from
# CPUID.  Off x86-64 there is one build (arm64 has a popcount instruction of its own).
# The baseline build is -O2 without the inlining limits raised (build_ext.GCC_KERNEL_ARGS):
# it serves CPUs of before 2008 and emulators, and compiles in 1.2 s a kernel where the tuned
# -O3 takes 3.0 s, which keeps the build with both within the time of one.
X86_FLAVOURS = [("", ["-O2"]), ("x86_64_v2", ["-march=x86-64-v2", "-mtune=generic"])]


def kernel_flavours():
    if "SHASHKI_CFLAGS" in os.environ or not targets_x86_64():
        return [("", [])]
    if sys.platform == "win32":
        # MSVC: /arch:AVX implies POPCNT, which bits.pxd's __popcnt64 then uses
        return [("", []), ("x86_64_v2", ["/arch:AVX"])]
    return X86_FLAVOURS


def compile_args():
    if "SHASHKI_CFLAGS" in os.environ:
        return os.environ["SHASHKI_CFLAGS"].split()
    if sys.platform == "win32":
        return ["/O2"]
    # -g0: Python's own flags ask for debug info, which doubles the build time of each kernel
    # (12.5 s -> 5.6 s here) and makes its object 50 times larger; a debug build sets
    # SHASHKI_CFLAGS instead.  No -march: a wheel runs on the x86-64 baseline, and the
    # kernels' faster build is a flavour of its own (kernel_flavours).
    return ["-O3", "-g0"]


def link_args():
    # a sanitizer's runtime library comes in at link time
    return [a for a in compile_args() if a.startswith(("-fsanitize", "-fno-sanitize"))]


directives = {"language_level": "3", "boundscheck": False, "wraparound": False}
if DEBUG:
    directives.update(boundscheck=True, wraparound=True)


HERE = os.path.dirname(os.path.abspath(__file__))
# the generated modules live in a tree of their own, laid out as the package (Cython finds
# enums.pxd there through the include path, and names each kernel from its Extension)
GENERATED_CORE = os.path.join(GENERATED, "shashki", "_core")


def load_module(name):
    """shashki.<name> (variants, outcome), read without running shashki/__init__.py (which
    imports the compiled core that is about to be built): the records import only pure-Python
    modules."""
    saved = {k: v for k, v in sys.modules.items() if k == "shashki" or k.startswith("shashki.")}
    package = types.ModuleType("shashki")
    package.__path__ = [os.path.join(HERE, "src", "shashki")]
    for k in saved:
        del sys.modules[k]
    sys.modules["shashki"] = package
    try:
        return importlib.import_module(f"shashki.{name}")
    finally:
        for k in [k for k in sys.modules if k == "shashki" or k.startswith("shashki.")]:
            del sys.modules[k]
        sys.modules.update(saved)


def write_if_changed(path, text):
    """Write a generated file only when its text changed, so rebuilds stay incremental."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    old = open(path).read() if os.path.exists(path) else None
    if old != text:
        with open(path, "w") as f:
            f.write(text)


def c_constant(name, value):
    """One of a kernel's constants as C: an array, a 64-bit mask, or an int."""
    if isinstance(value, tuple):
        return f"    static const int {name}[{len(value)}] = {{{', '.join(map(str, value))}}};"
    if name == "K_BOARD" or name.startswith(("K_ROW_", "K_EDGE_")):
        return f"    #define {name} {value:#x}ULL"
    return f"    #define {name} {value}"


def write_enums():
    """The enums the C code shares with Python, written from the Python definitions (their
    order gives the codes): _core/enums.pxd."""
    variants = load_module("variants")
    outcome = load_module("outcome")
    limits = load_module("limits")
    lines = ["# Generated by setup.py from shashki.variants (Promotion, ALTERNATE_ACTIONS,",
             "# OBSERVATION_PLANES), shashki.outcome.Termination and shashki.limits (MAX_PLY,",
             "# SEARCH_OPTIONS): do not edit.", "",
             "# how a man that reaches the far row in the middle of a capture goes on",
             "cdef enum Promotion:"]
    lines += [f"    PROMO_{p.name} = {i}" for i, p in enumerate(variants.Promotion)]
    lines += ["", "# why a game ended (0: it goes on)", "cdef enum Termination:", "    T_NONE = 0"]
    lines += [f"    T_{t.name} = {i + 1}" for i, t in enumerate(outcome.Termination)]
    lines += ["", "cdef enum:", f"    MAXPLY = {limits.MAX_PLY}        # the search's longest path",
              "", "# the search's options (Engine(options=...)), indices of Engine.opt", "cdef enum:"]
    lines += [f"    O_{name.upper()} = {i}" for i, name in enumerate(limits.SEARCH_OPTIONS)]
    lines += [f"    NOPTIONS = {len(limits.SEARCH_OPTIONS)}"]
    lines += ["", "# the learning surfaces' sizes (spaces.pxd)", "cdef enum:",
              f"    ALTERNATE_ACTIONS = {variants.ALTERNATE_ACTIONS}",
              f"    PLANES = {variants.OBSERVATION_PLANES}"]
    write_if_changed(os.path.join(GENERATED_CORE, "enums.pxd"),
                     "\n".join(lines) + "\n")


def write_kernels():
    """Write the kernel modules (only those whose text changed, so rebuilds stay incremental);
    returns (name, constants) of each."""
    variants = load_module("variants")
    kernels = variants.kernels()
    users = {}
    for v in variants.VARIANTS:
        users.setdefault(v.kernel_name, []).append(v.name)
    for name, constants in kernels.items():
        defines = "\n".join(c_constant(k, v) for k, v in constants.items())
        text = (f"# Generated by setup.py from the rules records in shashki/variants.py: do not edit.\n"
                f"# The kernel of {', '.join(users[name])}.\n"
                f"# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True\n"
                f"# cython: initializedcheck=False\n\n"
                f'cdef extern from *:\n    """\n{defines}\n    """\n\n'
                f'include "shashki/_core/kernel.pxi"\n')
        write_if_changed(os.path.join(GENERATED_CORE, "kernels", f"{name}.pyx"), text)
    return sorted(kernels.items())


class build_ext(_build_ext):
    """Cythonize when the extensions are built, not whenever setup.py runs (sdist asks this
    command for its sources too): building the sdist then needs no Cython run and never
    rewrites the C files in the source tree."""

    # The kernels are recursive capture searches over small inline helpers: GCC's default
    # limits leave the per-position count out of line in the flying-king games, which costs a
    # call per leaf of perft (callgrind: russian 40.5 -> 36.5 instructions per leaf, brazilian
    # 41.7 -> 34.8, english 28.3 -> 26.4; 1.1x -> 1.25x the native yardstick).
    GCC_KERNEL_ARGS = ["--param", "max-inline-insns-single=1000",
                       "--param", "large-function-growth=1000"]

    @staticmethod
    def unit_growth(orthogonal):
        # The growth a kernel's C file may take from inlining.  Frisian's capture search tries
        # eight directions where the others try four: at 200% its men's legs stopped inlining
        # the end of a capture (perft 7 of frisian, callgrind: 76.1M kernel instructions at
        # 200, 63.1M at 400); the four-direction kernels lose at 400 (italian 8 +3.6%,
        # brazilian 8 +2.6%, international 6 +2.3%).
        return ["--param", f"inline-unit-growth={400 if orthogonal else 200}"]

    def build_extensions(self):
        if "SHASHKI_CFLAGS" not in os.environ and self._compiler_is_gcc():
            for ext in self.extensions:
                if getattr(ext, "tuned", False):
                    ext.extra_compile_args = (ext.extra_compile_args + self.GCC_KERNEL_ARGS
                                              + self.unit_growth(ext.orthogonal))
        super().build_extensions()

    def _compiler_is_gcc(self):
        if self.compiler.compiler_type != "unix":
            return False
        import subprocess
        try:
            out = subprocess.run([self.compiler.compiler_so[0], "--version"],
                                 capture_output=True, text=True, timeout=30).stdout
        except (OSError, subprocess.SubprocessError):
            return False
        return "Free Software Foundation" in out and "clang" not in out.lower()

    def finalize_options(self):
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1    # one C file per kernel: build them at once

    def run(self):
        from Cython.Build import cythonize

        # One cythonize over every module, translated in parallel (the kernels are eleven
        # translations of the same template); the flavours compile copies of a kernel's C.
        translated = [e for e in self.extensions if not hasattr(e, "flavour_of")]
        c_files = {
            ext.name: ext.sources
            for ext in cythonize(
                translated,
                compiler_directives=directives,
                include_path=[GENERATED, "src"],
                annotate=bool(os.environ.get("SHASHKI_ANNOTATE")),
                build_dir=os.path.join(BUILD, "cython-debug" if DEBUG else "cython"),
                force=DEBUG,
                nthreads=os.cpu_count() or 1,
                quiet=True,
            )
        }
        for ext in self.extensions:
            if hasattr(ext, "flavour_of"):
                # the same C compiled with other flags: a copy, so that each has its object
                (source,) = c_files[ext.flavour_of]
                copy = os.path.join(BUILD, "flavours", ext.name.replace(".", os.sep) + ".c")
                write_if_changed(copy, open(source).read())
                ext.sources = [copy]
            else:
                ext.sources = c_files[ext.name]
        super().run()


def core_extension(name, source, extra=()):
    return Extension(name, [source], extra_compile_args=compile_args() + list(extra),
                     extra_link_args=link_args())


check_platform()
write_enums()
extensions = [
    core_extension(f"shashki._core.{name}", f"src/shashki/_core/{name}.pyx")
    for name in ("position", "move", "game", "board", "perft", "egdb", "egdb_build", "search",
                 "arrays", "actions", "playouts", "vector_env", "cpu", "_testing")
]
for kernel, constants in write_kernels():
    source = f"{GENERATED_CORE}/kernels/{kernel}.pyx".replace(os.sep, "/")
    for package, flags in kernel_flavours():
        name = ".".join(filter(None, ("shashki._core.kernels", package, kernel)))
        ext = core_extension(name, source, flags)
        # the kernels' inlining limits for the build that CPUs run (the only one off x86-64)
        ext.tuned = bool(package) or len(kernel_flavours()) == 1
        ext.orthogonal = bool(constants["K_ORTHO"])
        if package:
            ext.flavour_of = f"shashki._core.kernels.{kernel}"
        extensions.append(ext)

setup(ext_modules=extensions, cmdclass={"build_ext": build_ext},
      options={"build": {"build_base": BUILD}, "egg_info": {"egg_base": BUILD}})
