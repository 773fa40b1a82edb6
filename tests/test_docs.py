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


#: libraries of the extras whose modules the API pages may name
OPTIONAL_LIBRARIES = {"pyspiel", "numpy"}


def test_api_pages_name_real_objects():
    names = []
    for page in (DOCS / "api").glob("*.md"):
        names += re.findall(r"^::: ([\w.]+)", page.read_text(encoding="utf-8"), re.M)
    assert len(names) >= 14
    for name in names:
        module_name, _, attr = name.rpartition(".")
        try:
            module = importlib.import_module(name)
        except ImportError as missing:
            if missing.name in OPTIONAL_LIBRARIES:
                continue        # (a module of an extra, e.g. shashki.openspiel: open_spiel)
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


def _perft_parser():
    from shashki.apps.cli import build_parser
    parser = build_parser()
    sub = next(a for a in parser._actions if a.choices and "perft" in a.choices)
    return sub.choices["perft"]


@pytest.mark.parametrize("where", ["README.md", "src/shashki/apps/cli.py"])
def test_the_perft_synopsis_is_the_commands(where):
    # issue 23: the README's synopsis left out --progress and showed DEPTH as required
    text = (ROOT / where).read_text(encoding="utf-8")
    start = text.index("shashki perft VARIANT")
    lines = [text[start:].splitlines()[0]]
    for line in text[start:].splitlines()[1:]:
        if not line.strip().startswith("["):
            break
        lines.append(line)
    synopsis = " ".join(lines)
    parser = _perft_parser()
    options = {s for a in parser._actions for s in a.option_strings
               if s.startswith("--") and s != "--help"}
    assert set(re.findall(r"\[(--[a-z-]+)", synopsis)) == options
    depth = next(a for a in parser._actions if a.dest == "depth")
    assert ("[DEPTH]" in synopsis) == (depth.nargs == "?")
    progress = next(a for a in parser._actions if "--progress" in a.option_strings)
    assert f"--progress {'|'.join(progress.choices)}" in synopsis


def test_the_readmes_perft_signature_is_boards():
    # the README writes Board.perft's signature out: it is the real one, keyword-only marked
    import inspect
    import shashki
    parts, star = [], False
    for name, parameter in inspect.signature(shashki.Board.perft).parameters.items():
        if name == "self":
            continue
        if parameter.kind is parameter.KEYWORD_ONLY and not star:
            parts.append("*")
            star = True
        default = parameter.default
        parts.append(name if default is parameter.empty else f"{name}={default!r}")
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert f"board.perft({', '.join(parts)})" in readme


def test_no_signature_shows_a_whole_variant_as_its_default():
    # help() prints a default as its repr: a Variant's is a whole dataclass of rules.  The
    # default game is written by its name (issue 23 found rl.env; Board, Engine and match had it)
    import inspect
    import pkgutil

    import shashki
    from shashki.variants import Variant
    found = []
    for info in pkgutil.walk_packages(shashki.__path__, "shashki."):
        if ".rl" in info.name or info.name.endswith(("openspiel", "tuner", "__main__")):
            continue            # (optional libraries; rl is tested in test_rl.py)
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if name.startswith("_") or getattr(value, "__module__", None) != info.name:
                continue
            targets = [value] + [member for member in vars(value).values()
                                 if callable(member)] if inspect.isclass(value) else [value]
            for target in targets:
                try:
                    parameters = inspect.signature(target).parameters.values()
                except (TypeError, ValueError):
                    continue
                found += [f"{info.name}.{name}: {p.name}" for p in parameters
                          if isinstance(p.default, Variant)]
    assert not found


#: files in src/ that are built from others there (the compiled modules, from their .pyx)
_BUILT = (".so", ".pyd", ".dll")


def _shipped_texts():
    # every file of src/ (the wheel and the sdist) and docs/ (the sdist, the site)
    for top in (ROOT / "src", DOCS):
        for path in sorted(top.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and \
                    not path.name.endswith(_BUILT):
                yield path, path.read_bytes().decode("utf-8", errors="replace")


def test_the_manual_stands_alone():
    # issue 29: docstrings and pages sent the reader to RULES.md, the project's rule book
    # beside the checkout, which no user of the wheel or the sdist has; the rules are stated on
    # the docs/games pages and everything refers to those
    found = [f"{path.relative_to(ROOT)}:{n}" for path, text in _shipped_texts()
             for n, line in enumerate(text.splitlines(), 1) if "RULES.md" in line]
    assert not found, f"RULES.md is no file a user has; refer to docs/games instead: {found}"


def test_references_to_the_games_pages_name_real_sections():
    # a docstring's `docs/games/notation.md, "Move text"` names a page and one of its headings
    pattern = re.compile(r'docs/games/([\w-]+\.md)(?:,\s+"([^"]+)")?')
    references = [(path, match) for path, text in _shipped_texts()
                  for match in pattern.finditer(" ".join(text.split()))]
    assert len(references) >= 10
    for path, (page, section) in ((p, m.groups()) for p, m in references):
        target = DOCS / "games" / page
        assert target.is_file(), f"{path.relative_to(ROOT)} names {page}"
        if section:
            headings = re.findall(r"^#+\s+(.+?)\s*$", target.read_text(encoding="utf-8"), re.M)
            assert section in headings, f"{path.relative_to(ROOT)}: no {section!r} in {page}"


def test_install_lines_never_rebuild_the_core():
    # issue 33.5: docs/quickstart.md installed with `pip install ".[test]"` and ".[docs]",
    # which build the whole core again (the README warns of it): an extra goes in by name
    # once shashki is installed, or from tests/requirements.txt
    offenders = []
    for path in [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            command = line.split("#")[0]
            if re.search(r"""pip install\s+["']?\.\[""", command) and "would build" not in line:
                offenders.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not offenders, offenders
