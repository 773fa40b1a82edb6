"""The sdist holds what its build and its tests need and nothing else: every file of the package
that git tracks, the build's own files, the tests and docs; never ../shared, generated C, built
modules, local environments or the release tooling.  (What a wheel carries:
test_installed.py.)"""

import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(not (ROOT / ".git").exists(), reason="needs the git checkout")

# what may stand at the top of the sdist
# (build/shashki.egg-info: setuptools' metadata, kept where setup.py's egg_base puts it)
TOP = {"build", "PKG-INFO", "setup.cfg", "README.md", "CHANGELOG.md", "LICENSE", "MANIFEST.in",
       "pyproject.toml", "setup.py", "tox.ini", "mkdocs.yml", "src", "tests", "docs"}
NEVER = (".c", ".so", ".pyd", ".o", ".pyc", ".whl")


@pytest.fixture(scope="module")
def sdist_names(tmp_path_factory):
    pytest.importorskip("build")
    out = tmp_path_factory.mktemp("sdist")
    subprocess.run([sys.executable, "-m", "build", "--sdist", "--outdir", str(out), str(ROOT)],
                   check=True, capture_output=True)
    (path,) = out.glob("shashki-*.tar.gz")
    with tarfile.open(path) as tar:
        names = [m.name for m in tar.getmembers() if m.isfile()]
    prefix = path.name[:-len(".tar.gz")] + "/"
    assert all(n.startswith(prefix) for n in names)
    return {n[len(prefix):] for n in names}


def tracked(*paths):
    out = subprocess.run(["git", "ls-files", *paths], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout
    return set(out.split())


def test_the_sdist_has_every_file_of_the_package_and_its_tests(sdist_names):
    # everything the build reads (the package, setup.py's records, the .pyx/.pxd/.pxi), the
    # tests that check a build, the docs, and the license
    needed = tracked("src", "tests", "docs") | {"setup.py", "pyproject.toml", "LICENSE",
                                                "README.md", "MANIFEST.in"}
    # pictures of the docs are made by docs/gen_*.py, not needed to build or test
    missing = sorted(n for n in needed - sdist_names if not n.startswith("docs/img/"))
    assert not missing, f"tracked files the sdist lacks: {missing}"


def test_the_sdist_has_nothing_else(sdist_names):
    tops = {n.split("/", 1)[0] for n in sdist_names}
    assert tops <= TOP, f"unexpected at the top of the sdist: {sorted(tops - TOP)}"
    assert not [n for n in sdist_names if n.endswith(NEVER)]
    # no generated source (written under build/ by setup.py), no shared data, no egg-info but
    # setuptools' own
    assert not [n for n in sdist_names if "/kernels/" in n and n.endswith(".pyx")]
    assert "src/shashki/_core/enums.pxd" not in sdist_names
    assert not [n for n in sdist_names if "shared/" in n]
    assert not [n for n in sdist_names
                if n.startswith("build/") and not n.startswith("build/shashki.egg-info/")]
    untracked = sorted(n for n in sdist_names - tracked()
                       if n != "PKG-INFO" and n != "setup.cfg" and ".egg-info/" not in n)
    assert not untracked, f"files in the sdist that git does not track: {untracked}"
