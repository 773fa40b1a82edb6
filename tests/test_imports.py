"""The shape of the package (issues 11 and 19): imports form no cycle, those inside functions
and those of the compiled modules (.pyx) included, so that every module can be read after
those it imports; the front ends and the engine import at module top and read no other
object's underscore names."""

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import shashki

PACKAGE = Path(shashki.__file__).resolve().parent
# every module's imports are at its top (a function-level import only where import time
# needs it, with a comment saying why, on the line before or on its own line)
TOP_LEVEL_ONLY = [p.name for p in PACKAGE.iterdir() if p.suffix == ".py" or
                  (p.is_dir() and (p / "__init__.py").exists())]
# Where an underscore name of another object is read on purpose: the object is of the
# module's own class (or the module is the Board's), or the name is a protocol's
OWN_CLASS = {"board.py": "the Board's own module (its C core's set-up methods)",
             "pdn/game.py": "a Game built by Game.from_tree: its own class's state",
             "pdn/model.py": "a GameNode linking the nodes of its own class"}
PROTOCOL = {"_value_": "the enum protocol: a member's value, set in a custom __new__"}


def _modules():
    """{module name: (path, is_package)} of every module of the package, the compiled ones
    (.pyx: the sources beside them) included."""
    out = {}
    for path in list(PACKAGE.rglob("*.py")) + list(PACKAGE.rglob("*.pyx")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        out[".".join(parts)] = (path, is_package)
    return out


def _runtime_imports(body):
    """The import statements that can run: at module level or in a function, but not under
    TYPE_CHECKING."""
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If) and "TYPE_CHECKING" in ast.dump(node.test):
            yield from _runtime_imports(node.orelse)
        else:
            for field in ("body", "orelse", "finalbody", "handlers"):
                block = getattr(node, field, None)
                if isinstance(block, list):
                    yield from _runtime_imports(block)


_PYX_IMPORT = re.compile(r"^\s*(?:from\s+(\.*)([\w.]*)\s+c?import\s+\(?([\w, ()\n]+?)\)?\s*$"
                         r"|import\s+([\w.]+))", re.MULTILINE)


def _pyx_imports(text):
    """The imports of a .pyx module (which ast cannot read), as ast.ImportFrom-like nodes:
    `from X cimport` too, which imports X's module at run time when it holds a class."""
    for match in _PYX_IMPORT.finditer(text):
        if match.group(4):
            yield ast.Import(names=[ast.alias(name=match.group(4))])
            continue
        names = [n for n in re.split(r"[,\s()]+", match.group(3)) if n and n != "as"]
        yield ast.ImportFrom(module=match.group(2) or None, names=[ast.alias(name=n)
                                                                     for n in names],
                             level=len(match.group(1)))


def _import_graph():
    modules = _modules()
    graph = {}
    for name, (path, is_package) in modules.items():
        package = name if is_package else name.rpartition(".")[0]
        targets = set()
        text = path.read_text(encoding="utf-8")
        nodes = _pyx_imports(text) if path.suffix == ".pyx" else \
            _runtime_imports(ast.parse(text).body)
        for node in nodes:
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
                continue
            base = node.module or ""
            if node.level:
                parts = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            targets.add(base)
            targets.update(f"{base}.{alias.name}" for alias in node.names)
        # importing a submodule imports its package first: that edge is no cycle
        graph[name] = {t for t in targets
                       if t in modules and t != name and not name.startswith(t + ".")}
    return graph


def test_the_graph_is_read():
    graph = _import_graph()
    assert "shashki.limits" in graph["shashki.engine"]
    assert {"shashki.apps.play", "shashki.apps.match", "shashki.apps.hub"} <= \
        graph["shashki.apps.cli"]


def test_the_compiled_modules_and_function_level_imports_are_read():
    graph = _import_graph()
    assert "shashki._core.position" in graph["shashki._core.board"]
    assert "shashki.perft" in graph["shashki._core.position"]      # inside Position.perft


def test_imports_form_no_cycle():
    graph = _import_graph()
    state = {}
    cycles = []

    def visit(name, path):
        state[name] = "open"
        for target in sorted(graph[name]):
            if state.get(target) == "open":
                cycles.append(" -> ".join(path[path.index(target):] + [target]))
            elif target not in state:
                visit(target, path + [target])
        state[name] = "done"

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


def _checked_files():
    for entry in TOP_LEVEL_ONLY:
        path = PACKAGE / entry
        yield from sorted(path.rglob("*.py")) if path.is_dir() else [path]


def test_front_ends_import_at_module_top():
    found = []
    for path in _checked_files():
        lines = path.read_text(encoding="utf-8").splitlines()
        for node in ast.walk(ast.parse("\n".join(lines))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for inner in ast.walk(node):
                    if isinstance(inner, (ast.Import, ast.ImportFrom)) and \
                            not lines[inner.lineno - 2].strip().startswith("#") and \
                            "#" not in lines[inner.lineno - 1]:
                        found.append(f"{path.relative_to(PACKAGE)}:{inner.lineno}")
    assert not found, f"function-level imports without a comment saying why: {found}"


def test_no_underscore_names_of_other_objects():
    # Board's private state (board._masks() ...) and other modules' private names
    found = []
    for path in _checked_files():
        if str(path.relative_to(PACKAGE)) in OWN_CLASS:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") and \
                    not node.attr.startswith("__") and node.attr not in PROTOCOL and \
                    not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} .{node.attr}")
    assert not found, found


def _docstring_nodes(tree):
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def test_no_game_is_named_outside_its_record():
    # a game's name lives in its record (shashki/variants.py); code elsewhere reads it from
    # there (variants.DEFAULT, a Variant's fields), so that a new or renamed game is one record
    from shashki.variants import VARIANTS
    # ("shashki", russian's alias, is the package's name too: resources, the program's name)
    names = {n for v in VARIANTS for n in (v.name, *v.aliases)} - {"shashki"}
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "variants.py" and path.parent == PACKAGE:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = _docstring_nodes(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                    node.value in names and id(node) not in docs:
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.value!r}")
    assert not found


# a file one can hold in one's head: split a longer one by what its parts are about
MAX_LINES = 900
SOURCE_SUFFIXES = {".py", ".pyx", ".pxd", ".pxi", ".pyi", ".js", ".html", ".css"}


def test_no_source_file_over_900_lines():
    root = Path(__file__).resolve().parent.parent
    folders = [PACKAGE, root / "tests", root / "benchmarks", root / "docs", root / "examples"]
    long = {}
    for folder in folders:
        for path in folder.rglob("*"):
            # (not the peers' venvs under benchmarks/.venvs, nor other hidden folders)
            hidden = any(part.startswith(".") for part in path.relative_to(folder).parts)
            if path.suffix in SOURCE_SUFFIXES and path.is_file() and not hidden:
                count = len(path.read_text(encoding="utf-8").splitlines())
                if count > MAX_LINES:
                    long[str(path.relative_to(folder.parent))] = count
    assert not long, f"files over {MAX_LINES} lines: {long}"


# `import shashki` is paid by every script and every worker process, so it is kept cheap: the
# submodules only some users need load on first use (shashki.__init__._LAZY), and none of the
# optional libraries.  What it costs beside `import json` is a benchmark's business
# (benchmarks/bench_import.py), not a test's: a timing depends on the machine and its load.
LAZY_MODULES = {"shashki.pdn", "shashki.opening", "shashki.engine", "shashki.perft",
                "shashki.svg", "shashki._core.playouts", "shashki.rl", "shashki._core.search",
                "shashki._core.egdb", "shashki.apps"}


def test_import_leaves_the_lazy_submodules_unloaded():
    code = "import json, sys, shashki; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(json.loads(out.stdout))
    assert not loaded & LAZY_MODULES
    # and they are there when asked for
    import shashki
    assert shashki.pdn.__name__ == "shashki.pdn" and callable(shashki.playouts)


def test_import_loads_no_optional_library():
    code = "import json, sys, shashki; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(json.loads(out.stdout))
    assert not loaded & {"numpy", "pettingzoo", "gymnasium", "pyspiel", "torch", "dask"}
