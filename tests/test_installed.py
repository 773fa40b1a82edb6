"""What an installed shashki carries: the compiled core, its type stubs, py.typed, the opening
tables, the page of shashki serve.  Under ``tox -e wheel`` / ``tox -e debug`` (SHASHKI_TEST_INSTALLED=1) also that the
package under test is the installed wheel, not the source tree."""

import importlib.machinery
import os
import platform
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import shashki
from shashki._core import board, move, perft, position, search
from shashki._core.position import kernel_of
from shashki.variants import VARIANTS

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = Path(shashki.__file__).resolve().parent
CORE = (position, move, board, perft, search)
INSTALLED = bool(os.environ.get("SHASHKI_TEST_INSTALLED"))


@pytest.mark.parametrize("module", CORE, ids=lambda m: m.__name__)
def test_core_modules_are_compiled(module):
    assert module.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
    # each compiled module has its stub beside it, for type checkers
    assert (Path(module.__file__).parent / (module.__name__.rsplit(".", 1)[1] + ".pyi")).is_file()


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_every_games_kernel_is_compiled(variant):
    kernel = importlib.import_module(f"shashki._core.kernels.{variant.kernel_name}")
    assert kernel.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
    assert kernel_of(variant).name == variant.kernel_name


def test_typed_marker_and_package_data():
    assert (PACKAGE / "py.typed").is_file()
    tables = {p.name for p in (PACKAGE / "data" / "openings").glob("*.json")}
    assert {"russian.json", "brazilian.json", "corrections.json"} <= tables
    # and they load through the package's own reader
    assert len(shashki.openings("russian")) > 100
    # the page of shashki serve
    page = {p.name for p in (PACKAGE / "apps" / "web" / "static").iterdir()}
    assert {"index.html", "app.js", "board.js", "picker.js", "api.js", "style.css",
            "favicon.svg"} <= page


@pytest.mark.skipif(not INSTALLED, reason="only where the tests run against an installed wheel")
def test_the_package_under_test_is_the_installed_one():
    assert not PACKAGE.is_relative_to(ROOT / "src"), f"imported from the source tree: {PACKAGE}"
    site = {Path(sysconfig.get_path(k)).resolve() for k in ("purelib", "platlib")}
    assert any(PACKAGE.is_relative_to(s) for s in site), f"{PACKAGE} not under {site}"
    # no built module or generated C of a development build travels in the wheel
    assert not list(PACKAGE.rglob("*.c"))


SANITIZERS = {name for flag in os.environ.get("SHASHKI_CFLAGS", "").split()
              if flag.startswith("-fsanitize=") for name in flag.split("=", 1)[1].split(",")}


@pytest.mark.skipif(not (INSTALLED and "undefined" in SANITIZERS),
                    reason="only under the sanitizer builds (tox -e debug, debug-asan)")
@pytest.mark.parametrize("module", CORE, ids=lambda m: m.__name__)
def test_debug_build_is_instrumented(module):
    # the sanitizers' checks call their runtimes' handlers: the names are in the built module
    built = Path(module.__file__).read_bytes()
    assert b"__ubsan_handle_out_of_bounds" in built
    if "address" in SANITIZERS:
        assert b"__asan_report_" in built


def test_the_test_requirements_are_the_test_extra():
    # the README installs tests/requirements.txt; tox and cibuildwheel install shashki[test]
    import re
    here = Path(__file__).resolve().parent
    listed = [line.strip() for line in (here / "requirements.txt").read_text().splitlines()
              if line.strip() and not line.startswith("#")]
    pyproject = (here.parent / "pyproject.toml").read_text()
    extra = re.search(r"^test = \[(.*)\]$", pyproject, re.M).group(1)
    assert sorted(listed) == sorted(re.findall(r'"([^"]+)"', extra))


def _installed():
    """Whether this shashki is an installed distribution (not a build on PYTHONPATH, as tox -e
    aarch64 tests one)."""
    from importlib import metadata
    try:
        metadata.distribution("shashki")
    except metadata.PackageNotFoundError:
        return False
    return True


@pytest.mark.skipif(not _installed(), reason="shashki is not installed here (a build on "
                                             "PYTHONPATH): pip has no shashki to add it to")
def test_an_extra_is_added_to_the_installed_shashki_without_a_build():
    # README "Optional libraries": shashki is on no package index, yet once it is installed
    # `pip install "shashki[rl]"` works: pip takes the installed shashki (no index, no build)
    # and adds what the extra names (left out here: --no-deps, so that nothing is fetched)
    import subprocess
    import sys
    pip = subprocess.run([sys.executable, "-m", "pip", "install", "--dry-run", "--no-index",
                          "--no-deps", "shashki[rl]"], capture_output=True, text=True)
    if "no such option: --dry-run" in pip.stderr:
        pytest.skip("this pip has no --dry-run (pip 22.2 and later have)")
    assert pip.returncode == 0, pip.stderr
    assert "Requirement already satisfied: shashki[rl]" in pip.stdout
    assert "Building" not in pip.stdout + pip.stderr


# --- the kernels' builds for x86-64 CPUs (shashki._core.cpu) -----------------------------------

X86_64 = platform.machine().lower() in ("x86_64", "amd64") and sys.maxsize > 2**32
# the check a wheel must pass on any CPU: which kernels it got, and a count
CHECK = ("import shashki; print(shashki.build_info()['code_path'], "
         "shashki.Board('russian').perft(6), shashki.Board('international').perft(4))")


@pytest.mark.skipif(not X86_64 or "SHASHKI_CFLAGS" in os.environ,
                    reason="two builds of the kernels on x86-64 alone (one with SHASHKI_CFLAGS)")
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_every_kernel_has_a_popcnt_build_on_x86_64(variant):
    kernel = importlib.import_module(f"shashki._core.kernels.x86_64_v2.{variant.kernel_name}")
    assert kernel.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def test_the_code_path_is_the_fastest_this_cpu_runs():
    from shashki._core import cpu
    info = shashki.build_info()
    assert info["version"] == shashki.__version__ and info["cpu"] == cpu.features()
    if not X86_64:
        assert info["code_path"] == "generic"
    elif "SHASHKI_KERNELS" in os.environ:
        assert info["code_path"] == os.environ["SHASHKI_KERNELS"]
    elif cpu.features()["popcnt"] and "SHASHKI_CFLAGS" not in os.environ:
        assert info["code_path"] == "x86-64-v2"


@pytest.mark.skipif(not X86_64 or "SHASHKI_CFLAGS" in os.environ, reason="x86-64 builds")
@pytest.mark.parametrize("path", ["x86-64", "x86-64-v2"])
def test_both_builds_of_the_kernels_count_alike(path):
    from shashki._core import cpu
    if path == "x86-64-v2" and not cpu.features()["popcnt"]:
        pytest.skip("this CPU has no POPCNT")
    out = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True,
                         env=dict(os.environ, SHASHKI_KERNELS=path), check=True).stdout
    assert out.split() == [path, "37986", "4265"]


def test_an_unknown_kernel_build_is_refused():
    out = subprocess.run([sys.executable, "-c", "import shashki; shashki.Board('russian')"],
                         capture_output=True, text=True,
                         env=dict(os.environ, SHASHKI_KERNELS="avx9000"))
    assert out.returncode != 0
    names = "x86-64-v2, x86-64" if X86_64 else "generic"
    assert f"SHASHKI_KERNELS='avx9000': expected one of {names}" in out.stderr


def test_the_generic_build_is_named_off_x86_64():
    # off x86-64 the one build is "generic", and asking for it by name is no error
    out = subprocess.run([sys.executable, "-c", "import shashki; print(shashki.Board('russian')"
                          ".perft(3))"], capture_output=True, text=True,
                         env=dict(os.environ, SHASHKI_KERNELS="generic"))
    if X86_64:
        assert out.returncode != 0 and "expected one of x86-64-v2, x86-64" in out.stderr
    else:
        assert out.returncode == 0 and out.stdout.split() == ["302"]


@pytest.mark.skipif(not X86_64 or shutil.which("qemu-x86_64") is None,
                    reason="needs qemu-x86_64 (Debian's qemu-user) on an x86-64 machine")
def test_the_core_runs_on_an_x86_64_cpu_without_popcnt():
    # qemu64: an x86-64 CPU with no POPCNT, BMI2 or AVX2.  A build that used any of them
    # outside the x86-64-v2 kernels ends with SIGILL (exit 132, as every build did before)
    out = subprocess.run(["qemu-x86_64", "-cpu", "qemu64", sys.executable, "-c", CHECK],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["x86-64", "37986", "4265"]


# a search the old build ended with SIGILL under qemu64: GCC ran the guarded POPCNT of
# bits.pxd's shashki_popcount ahead of its guard (a plain asm is a pure expression to it)
SEARCH = ("import shashki; from shashki.engine import Engine; "
          "fen = 'W:Wa1,b2,d2,f2,b4,d4:Bh2,g3,g5,b6,d6,h6,e7,g7,b8,f8,h8'; "
          "print(Engine('russian', 8, egdb=False).search(shashki.Board('russian', fen=fen), "
          "depth=14).nodes)")


@pytest.mark.skipif(not X86_64 or shutil.which("qemu-x86_64") is None,
                    reason="needs qemu-x86_64 (Debian's qemu-user) on an x86-64 machine")
def test_the_engine_runs_on_an_x86_64_cpu_without_popcnt():
    native = subprocess.run([sys.executable, "-c", SEARCH], capture_output=True, text=True,
                            check=True).stdout
    out = subprocess.run(["qemu-x86_64", "-cpu", "qemu64", sys.executable, "-c", SEARCH],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout == native


def test_version_says_the_code_path():
    out = subprocess.run([sys.executable, "-m", "shashki", "--version"], capture_output=True,
                         text=True, check=True).stdout
    assert out.startswith(f"shashki {shashki.__version__} (kernels {shashki.build_info()['code_path']}")
