"""Build, repair, check and test the manylinux wheels: what `tox -e wheels` runs.

    python tools/wheels.py [--python 3.9 --python 3.13] [--out wheelhouse] [--keep DIR]
                           [-- PYTEST ARGS]

For each CPython asked for (default: every one of 3.9-3.13 found, with pyenv or on PATH):

1. the wheel is built from the sdist (as pip builds it on a user's machine, in a build
   environment of its own), never from the checkout;
2. `auditwheel repair` makes it a manylinux wheel (the oldest manylinux tag its symbols allow:
   see docs/install.md) into --out, and `twine check` reads its metadata;
3. it is installed into a fresh venv of that Python with no compiler reachable (CC and CXX
   are /bin/false, and every compiler's name on PATH is a program that fails) and no package
   index (`--no-index --only-binary=:all:`); `shashki --version` and a perft count must answer;
4. the tests a build can change (TESTS below, or the pytest arguments after --) run against
   that install from a temporary folder, so that they import it and never src/;
5. where `qemu-x86_64` is installed (Debian's qemu-user), the same install counts perft and
   runs `shashki bench --quick` under `-cpu qemu64`, an x86-64 CPU without POPCNT, BMI2 or AVX2,
   on the baseline kernels: the signature must be the recorded one (its exit status says so).

Any failure stops the run with a non-zero exit.  The machine needs only the Pythons, the
network to PyPI (the build environments and the test libraries) and, for step 5, qemu-user.
"""

import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VERSIONS = ("3.9", "3.10", "3.11", "3.12", "3.13")
# the tests whose outcome a build can change: what the package carries and reads (its data,
# its compiled modules, the pages and tables) and what the compiled code counts
TESTS = ("test_installed.py", "test_bench.py", "test_openings.py", "test_games.py",
         "test_serve_api.py", "test_doctests.py", "test_perft_suites.py", "test_egdb.py")
COMPILERS = ("cc", "gcc", "g++", "c++", "clang", "clang++", "x86_64-linux-gnu-gcc",
             "x86_64-linux-gnu-g++", "gcc-12", "g++-12")
# the perft count every install must give: russian from the start, 6 plies
CHECK = "import shashki; print(shashki.build_info()['code_path'], shashki.Board('russian').perft(6))"
CHECK_COUNT = "37986"


def run(cmd, **kw):
    print("+", " ".join(map(str, cmd)), flush=True)
    return subprocess.run([str(c) for c in cmd], check=True, **kw)


def find_python(version):
    """The interpreter of CPython `version`: pyenv's newest of that version, else pythonX.Y."""
    root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv"))
    found = sorted(glob.glob(str(root / "versions" / f"{version}.*" / "bin" / f"python{version}")),
                   key=lambda p: [int(x) for x in Path(p).parts[-3].split(".") if x.isdigit()])
    if found:
        return found[-1]
    return shutil.which(f"python{version}")


def no_compiler_env(tmp):
    """The environment of an install that must not compile: CC/CXX fail, and so does every
    compiler named on PATH (a directory of failing programs put first)."""
    shims = Path(tmp) / "no-compiler"
    shims.mkdir(exist_ok=True)
    for name in COMPILERS:
        shim = shims / name
        shim.write_text("#!/bin/sh\necho \"$0: no compiler here (tools/wheels.py)\" >&2\nexit 1\n")
        shim.chmod(0o755)
    env = dict(os.environ, CC="/bin/false", CXX="/bin/false", PATH=f"{shims}:{os.environ['PATH']}",
               PIP_DISABLE_PIP_VERSION_CHECK="1")
    env.pop("PYTHONPATH", None)
    return env


def build_sdist(tmp):
    out = Path(tmp) / "sdist"
    run([sys.executable, "-m", "build", "--sdist", "--outdir", out, ROOT])
    (sdist,) = out.glob("shashki-*.tar.gz")
    return sdist


def build_wheel(python, sdist, tmp, wheelhouse):
    raw = Path(tmp) / f"raw-{Path(python).name}"
    run([python, "-m", "pip", "wheel", "--no-deps", "--wheel-dir", raw, sdist])
    (wheel,) = raw.glob("shashki-*.whl")
    run([sys.executable, "-m", "auditwheel", "show", wheel])
    fixed = Path(tmp) / f"repaired-{Path(python).name}"
    run([sys.executable, "-m", "auditwheel", "repair", "--wheel-dir", fixed, wheel])
    (built,) = fixed.glob("shashki-*.whl")
    repaired = wheelhouse / built.name
    shutil.move(str(built), str(repaired))
    run([sys.executable, "-m", "auditwheel", "show", repaired])
    run([sys.executable, "-m", "twine", "check", "--strict", repaired])
    return repaired


def test_wheel(python, wheel, tmp, pytest_args):
    venv = Path(tmp) / f"venv-{Path(python).name}"
    run([python, "-m", "venv", venv])
    py = venv / "bin" / "python"
    env = no_compiler_env(tmp)
    env["PATH"] = f"{venv / 'bin'}:{env['PATH']}"
    run([py, "-m", "pip", "install", "--no-index", "--only-binary=:all:", "--find-links",
         wheel.parent, f"shashki=={wheel.name.split('-')[1]}"], env=env)
    # the test libraries from PyPI, as wheels too (nothing compiles; shashki stays as it is)
    run([py, "-m", "pip", "install", "-q", "--only-binary=:all:", "-r",
         ROOT / "tests" / "requirements.txt"], env=env)
    run([venv / "bin" / "shashki", "--version"], env=env)
    # the build's signature: the recorded one, or the command fails
    run([venv / "bin" / "shashki", "bench", "--quick"], env=env)
    out = run([py, "-c", CHECK], env=env, capture_output=True, text=True).stdout
    print(out, end="")
    assert out.split()[-1] == CHECK_COUNT, out
    args = pytest_args or [str(ROOT / "tests" / t) for t in TESTS]
    run([py, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--import-mode=importlib",
         "-c", ROOT / "pyproject.toml", "--rootdir", ROOT, *args],
        env=dict(env, SHASHKI_TEST_INSTALLED="1"), cwd=tmp)
    qemu = shutil.which("qemu-x86_64")
    if qemu:
        out = run([qemu, "-cpu", "qemu64", py, "-c", CHECK], env=env, capture_output=True,
                  text=True).stdout
        print("qemu64:", out, end="")
        assert out.split() == ["x86-64", CHECK_COUNT], out
        # (qemu-user runs ELF programs, not the shashki script: its Python runs the module)
        run([qemu, "-cpu", "qemu64", py, "-m", "shashki", "--version"], env=env)
        # perft and the engine's searches in every game on the baseline code path (a search
        # once ran POPCNT there that the perft count never reached)
        run([qemu, "-cpu", "qemu64", py, "-m", "shashki", "bench", "--quick"], env=env)
    else:
        print("qemu-x86_64 not found (apt-get install qemu-user): the baseline check is skipped")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", action="append", metavar="X.Y",
                        help=f"a CPython version to build for (default: each of {', '.join(VERSIONS)} found)")
    parser.add_argument("--out", default=str(ROOT / "wheelhouse"), help="where the wheels go")
    parser.add_argument("--keep", help="a folder for the builds and venvs (default: a temporary one)")
    parser.add_argument("pytest_args", nargs="*", help="pytest's arguments (after --)")
    args = parser.parse_args(argv)
    versions = args.python or VERSIONS
    pythons = {v: find_python(v) for v in versions}
    missing = [v for v, p in pythons.items() if p is None]
    if args.python and missing:
        parser.error(f"no CPython {', '.join(missing)} found (pyenv install, or pythonX.Y on PATH)")
    for v in missing:
        print(f"CPython {v} not found: no wheel for it")
    pythons = {v: p for v, p in pythons.items() if p}
    if not pythons:
        parser.error(f"none of CPython {', '.join(versions)} found")
    wheelhouse = Path(args.out)
    wheelhouse.mkdir(parents=True, exist_ok=True)
    tmp = args.keep or tempfile.mkdtemp(prefix="shashki-wheels-")
    Path(tmp).mkdir(parents=True, exist_ok=True)
    sdist = build_sdist(tmp)
    built = []
    for version, python in pythons.items():
        print(f"=== CPython {version}: {python}", flush=True)
        wheel = build_wheel(python, sdist, tmp, wheelhouse)
        test_wheel(python, wheel, tmp, args.pytest_args)
        built.append(wheel)
    print("wheels built, repaired, checked and tested:", *(w.name for w in built), sep="\n  ")
    if not args.keep:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
