"""Build the core for 64-bit ARM and test it under qemu-aarch64: what `tox -e aarch64` runs.

    python tools/aarch64.py [--work DIR] [--full] [-- PYTEST ARGS]

No ARM machine is needed, only Debian's packages and PyPI:

1. Debian's arm64 CPython 3.11 and the libraries it needs are downloaded (`apt-get download`,
   after `dpkg --add-architecture arm64` and `apt-get update` where arm64 is not yet known) and
   unpacked with `dpkg -x` into WORK/root, a root of their own; nothing is installed for arm64;
2. that Python runs under `qemu-aarch64 -L WORK/root` (Debian's qemu-user): a venv, pip from
   its wheel, and the build's and the tests' libraries from PyPI, as aarch64 wheels; the
   venv's `python-qemu`, a script that runs its Python under qemu with itself as argv[0], is
   the interpreter the tests see as sys.executable, so that the tests that start Python again
   (the command line, the Hub engine, the servers) run under emulation too: qemu-user without
   binfmt_misc cannot run an aarch64 program a process starts by itself;
3. `setup.py build_ext --inplace` runs with the emulated Python on a clean copy of the checkout
   (`git archive HEAD`): setup.py sees an aarch64 machine (one build of the kernels, no x86
   flags) and compiles with the cross compiler its sysconfig names (`aarch64-linux-gnu-gcc`,
   Debian's gcc-aarch64-linux-gnu, run natively), Python's headers from the unpacked root given
   in CPPFLAGS (CFLAGS would replace Python's own flags, -fwrapv -O2 -DNDEBUG among them);
4. the tests (default: the perft suites, the positions, the search at fixed depths and the
   bench signatures; --full: the whole default suite, with the test extra's libraries and a
   time limit a test; or the pytest arguments after --) run under emulation, the build's
   `shashki bench --quick` must print the signature recorded on x86-64, and a fixed-depth
   search of every game's start must find the move, score and node count that this machine's
   install finds.

Any failure stops the run with a non-zero exit; each step prints its time.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = "python3.11"
# Debian's arm64 CPython and its headers: apt resolves the libraries they need
PACKAGES = ("python3.11", "libpython3.11-dev")
# apt's names of packages that are tools of the system, not libraries: not needed in the root
NOT_NEEDED = ("dpkg", "install-info", "tar")
TESTS = ("test_perft_suites.py", "test_position.py", "test_bench.py", "test_turkish.py",
         "test_move_lists.py", "test_fen.py", "test_notation.py")
BUILD_DEPS = ("Cython>=3", "setuptools>=69", "wheel")
TEST_DEPS = ("pytest>=7", "hypothesis>=6")
# --full: a test that hangs under emulation fails at this limit (seconds) instead of stopping
# the run
FULL_TIMEOUT = 900
# a fixed-depth search of each game's start: the same on every machine and build
SEARCH = ("import json, shashki; from shashki.engine import Engine; "
          "print(json.dumps({v.name: (lambda r: [str(r.best_move), r.score.value, r.nodes])("
          "Engine(v.name, 8, egdb=False).search(shashki.Board(v.name), depth=7)) "
          "for v in shashki.VARIANTS}))")


def step(name, start=[time.monotonic()]):
    print(f"=== {time.monotonic() - start[0]:7.1f} s: {name}", flush=True)


def run(cmd, **kwargs):
    print("+", " ".join(map(str, cmd)), flush=True)
    return subprocess.run([str(c) for c in cmd], check=True, **kwargs)


def need(program, package):
    if shutil.which(program) is None:
        sys.exit(f"{program} not found: apt-get install {package}")


def arm64_known():
    out = subprocess.run(["dpkg", "--print-foreign-architectures"], capture_output=True,
                         text=True, check=True).stdout.split()
    return "arm64" in out


def unpack_root(work):
    """Debian's arm64 CPython and its libraries, unpacked into work/root (once)."""
    root = work / "root"
    if (root / "usr" / "bin" / PYTHON).exists():
        return root
    if not arm64_known():
        run(["dpkg", "--add-architecture", "arm64"])
        run(["apt-get", "update", "-q"])
    depends = subprocess.run(
        ["apt-cache", "depends", "--recurse", "--no-recommends", "--no-suggests",
         "--no-conflicts", "--no-breaks", "--no-replaces", "--no-enhances",
         *(f"{p}:arm64" for p in PACKAGES)], capture_output=True, text=True, check=True).stdout
    names = sorted({line.strip() for line in depends.splitlines()
                    if line and not line[0].isspace() and line.strip().endswith(":arm64")
                    and line.split(":")[0] not in NOT_NEEDED})
    debs = work / "debs"
    debs.mkdir(parents=True, exist_ok=True)
    run(["apt-get", "download", *names], cwd=debs)
    root.mkdir(exist_ok=True)
    for deb in sorted(debs.glob("*.deb")):
        run(["dpkg", "-x", deb, root])
    return root


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", default=str(ROOT / "build" / "aarch64"),
                        help="where the root, the venv and the build go (kept between runs)")
    parser.add_argument("--full", action="store_true",
                        help="the whole default suite (tests/requirements.txt installed too)")
    parser.add_argument("pytest_args", nargs="*", help="pytest's arguments (after --)")
    args = parser.parse_args(argv)
    need("qemu-aarch64", "qemu-user")
    need("aarch64-linux-gnu-gcc", "gcc-aarch64-linux-gnu")
    work = Path(args.work).resolve()
    work.mkdir(parents=True, exist_ok=True)

    step("Debian's arm64 CPython, unpacked")
    root = unpack_root(work)
    qemu = ["qemu-aarch64", "-L", root]

    step("a venv of it, with pip and the libraries from PyPI")
    venv = work / "venv"
    py = venv / "bin" / "python"
    if not py.exists():
        run([*qemu, root / "usr" / "bin" / PYTHON, "-m", "venv", "--without-pip", venv])
        wheels = work / "wheels"
        run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "-d", wheels, "pip"])
        pip = next(wheels.glob("pip-*.whl"))
        run([*qemu, py, pip / "pip", "install", "-q", pip])
    run([*qemu, py, "-m", "pip", "install", "-q", *BUILD_DEPS, *TEST_DEPS])
    emulated = venv / "bin" / "python-qemu"
    emulated.write_text(f'#!/bin/sh\nexec qemu-aarch64 -L {root} -0 "$0" {py} "$@"\n')
    emulated.chmod(0o755)
    if args.full:
        run([*qemu, py, "-m", "pip", "install", "-q", "-r", ROOT / "tests" / "requirements.txt",
             "pytest-timeout"])

    step("the core built for aarch64 (setup.py under the emulated Python)")
    src = work / "src"
    shutil.rmtree(src, ignore_errors=True)
    src.mkdir()
    archive = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, capture_output=True,
                             check=True).stdout
    run(["tar", "-x", "-C", src], input=archive)
    # Python.h, and the arm64 pyconfig.h that Debian's includes as
    # <aarch64-linux-gnu/python3.11/pyconfig.h>
    include = root / "usr" / "include"
    env = dict(os.environ, CPPFLAGS=f"-I{include / PYTHON} -I{include}")
    started = time.monotonic()
    run([*qemu, py, "setup.py", "build_ext", "--inplace"], cwd=src, env=env)
    print(f"built in {time.monotonic() - started:.0f} s", flush=True)
    env = dict(os.environ, PYTHONPATH=str(src / "src"),
               SHASHKI_SHARED=os.environ.get("SHASHKI_SHARED", str(ROOT.parent / "shared")))

    step("the build's machine and bench signature")
    run([emulated, "-c", "import platform, shashki; print(platform.machine(), "
                          "shashki.build_info())"], env=env)
    run([emulated, "-m", "shashki", "bench", "--quick"], env=env)

    step("fixed-depth searches against this machine's install")
    native = subprocess.run([sys.executable, "-c", SEARCH], capture_output=True, text=True,
                            check=True).stdout
    arm = run([emulated, "-c", SEARCH], env=env, capture_output=True, text=True).stdout
    if json.loads(arm) != json.loads(native):
        sys.exit(f"the searches differ:\n  aarch64: {arm}\n  here:    {native}")
    print(f"{len(json.loads(arm))} games: the same move, score and nodes", flush=True)

    step("the tests under emulation")
    tests = args.pytest_args or [str(src / "tests" / t) for t in TESTS]
    if args.full and not args.pytest_args:
        tests = ["-rfEs", f"--timeout={FULL_TIMEOUT}", str(src / "tests")]
    run([emulated, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests], cwd=src, env=env)
    step("done")


if __name__ == "__main__":
    main()
