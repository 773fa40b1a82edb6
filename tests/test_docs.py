"""The docs site's source stays true: the generated pages and pictures are current, every page
of the navigation exists, and every API page names an object that exists.  (The site itself is
built by `tox -e docs`; its examples run in test_doctests.py.)"""

import importlib
import importlib.util
import re
from pathlib import Path

import pytest

from perftfile import shared_dir

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def _script(name):
    spec = importlib.util.spec_from_file_location(name, DOCS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_perft_page_is_generated_from_the_data():
    data = shared_dir() / "perft" / "start.perft"
    if not data.is_file():
        pytest.skip(f"{data} not found; set SHASHKI_SHARED")
    gen = _script("gen_perft_tables")
    assert gen.main([str(data), "--check"]) == 0, "run python docs/gen_perft_tables.py"
    page = (DOCS / "perft.md").read_text(encoding="utf-8")
    # a count from each table, read straight from the data file
    for line in ("| 11 | 110,917,189 | 110,961,169 |", "| 12 | 388,617,999 | 388,623,673 |"):
        assert line in page


def test_perft_tables_render_every_game(tmp_path):
    gen = _script("gen_perft_tables")
    data = tmp_path / "x.perft"
    data.write_text("""
# source: a test
id x
variant english
fen B:W21-32:B1-12
perft 1 7
paths 1 7
paths 2 49
""")
    page = gen.render(gen.read_blocks(data))
    assert "## English" in page
    assert "| 2 | — | 49 |" in page
    assert "Source: a test." in page
    data.write_text("id y\nvariant chess\nperft 1 20\n")
    with pytest.raises(ValueError):
        gen.render(gen.read_blocks(data))


def test_pictures_are_current():
    gen = _script("gen_pictures")
    assert gen.main(["--check"]) == 0, "run python docs/gen_pictures.py"


def test_every_page_of_the_navigation_exists():
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    pages = re.findall(r":\s*([\w/.-]+\.md)\s*$", config, re.M)
    assert len(pages) >= 20
    for page in pages:
        assert (DOCS / page).is_file(), page
    # and every page is in the navigation
    listed = set(pages)
    for path in DOCS.rglob("*.md"):
        assert str(path.relative_to(DOCS)) in listed, path


def test_api_pages_name_real_objects():
    names = []
    for page in (DOCS / "api").glob("*.md"):
        names += re.findall(r"^::: ([\w.]+)", page.read_text(encoding="utf-8"), re.M)
    assert len(names) >= 14
    for name in names:
        module_name, _, attr = name.rpartition(".")
        try:
            module = importlib.import_module(name)
        except ImportError:
            module = importlib.import_module(module_name)
            assert hasattr(module, attr), name
        else:
            assert module.__doc__, f"{name} has no docstring to show"


def test_every_game_has_its_rules_on_the_games_pages():
    # the manual speaks of "the games of shashki.VARIANTS" rather than counting them (issue 23:
    # it said five long after there were fourteen); this keeps that true: every game is a
    # column of the five games' table or a row of the other games' table, and nothing else is
    import shashki
    five = (DOCS / "games" / "index.md").read_text(encoding="utf-8")
    header = next(line for line in five.splitlines() if line.startswith("| rule |"))
    columns = [cell.strip() for cell in header.strip().strip("|").split("|")[1:]]
    more = (DOCS / "games" / "more.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)` \|", more, re.M)
    assert sorted(columns + rows) == sorted(v.name for v in shashki.VARIANTS)
