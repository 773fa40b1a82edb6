"""What an installed shashki carries: the compiled core, its type stubs, py.typed, the opening
tables, the page of shashki serve.  Under ``tox -e wheel`` / ``tox -e debug`` (SHASHKI_TEST_INSTALLED=1) also that the
package under test is the installed wheel, not the source tree."""

import importlib.machinery
import os
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
