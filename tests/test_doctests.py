"""The examples in the docs run: the README's, every docstring's in the package, and the docs
site's pages (docs/**/*.md).  An example whose output changes fails here, so what the docs show
is what shashki does."""

import doctest
import functools
import importlib
import importlib.util
import pkgutil
from pathlib import Path

import pytest

import shashki

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = sorted((ROOT / "docs").rglob("*.md"))

# README examples known to be wrong, by their source line: they are reported and expected to
# fail until the README is corrected (the second test below then fails, as a reminder to empty
# this set).  `board.perft(6)` there follows c3-d4 and f6-e5 taken back, so it counts the tree
# of the position after c3-d4 (22642 leaves), not the start position's 7482.
# modules that need an optional dependency (an extra of pyproject.toml)
OPTIONAL = {"shashki.tuner": ("numpy", "scipy"), "shashki.rl.vector": ("numpy",),
            "shashki.rl.batch": ("numpy",), "shashki.openspiel": ("pyspiel", "numpy")}


def _importable(name):
    return all(importlib.util.find_spec(dep) is not None for dep in OPTIONAL.get(name, ()))


def _modules():
    names = ["shashki"]
    for info in pkgutil.walk_packages(shashki.__path__, "shashki."):
        # __main__ runs the command line when imported
        if not info.name.endswith("__main__"):
            names.append(info.name)
    return names


class _Recorder(doctest.DocTestRunner):
    """A runner that keeps the source of each failing example (and stays quiet)."""

    def __init__(self):
        super().__init__(verbose=False)
        self.failed_sources = []

    def report_failure(self, out, test, example, got):
        self.failed_sources.append(example.source)

    def report_unexpected_exception(self, out, test, example, exc_info):
        self.failed_sources.append(example.source)


@functools.lru_cache(maxsize=None)  # the README's perft(12) takes seconds: run it once
def _run_file(path):
    text = path.read_text(encoding="utf-8")
    test = doctest.DocTestParser().get_doctest(text, {}, path.name, str(path), 0)
    runner = _Recorder()
    runner.run(test, out=lambda _: None)
    return runner, len(test.examples)


def test_readme_examples():
    runner, count = _run_file(README)
    assert count >= 5, "the README's examples were not found"
    assert not runner.failed_sources, _describe(README)


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_docs_page_examples(page):
    result = doctest.testfile(str(page), module_relative=False, report=False)
    assert result.failed == 0, _describe(page)


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name):
    if not _importable(name):
        pytest.skip(f"{name} needs {', '.join(OPTIONAL[name])} (an extra)")
    module = importlib.import_module(name)
    result = doctest.testmod(module, report=False)
    assert result.failed == 0, f"{result.failed} docstring example(s) of {name} failed; " \
                               f"run python -m doctest -v on it"


def test_the_examples_are_found():
    # a broken finder would make every test above pass on nothing
    found = sum(len(t.examples) for name in _modules() if _importable(name)
                for t in doctest.DocTestFinder().find(importlib.import_module(name)))
    assert found >= 20
    assert len(PAGES) >= 8


def _describe(path):
    """The doctest report of a file, for the failure message."""
    lines = []
    test = doctest.DocTestParser().get_doctest(path.read_text(encoding="utf-8"), {}, path.name,
                                               str(path), 0)
    doctest.DocTestRunner(verbose=False).run(test, out=lines.append)
    return "".join(lines)
