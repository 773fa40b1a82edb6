"""setup.py's reading of the machine it builds for (issue 44): a cross build names its target
(_PYTHON_HOST_PLATFORM) or runs the target's Python; an x86-64 Python with an ARM compiler is
stopped with one sentence, instead of adding x86-64 flags to an ARM compile."""

import ast
import os
import platform
import re
import subprocess
import sys
from pathlib import Path

import pytest

SETUP = Path(__file__).resolve().parent.parent / "setup.py"
pytestmark = pytest.mark.skipif(not SETUP.is_file(), reason="needs the checkout's setup.py")
NAMES = ("_MACHINES", "target_machine", "compiler_machine", "targets_x86_64", "check_platform")


def _functions(monkeypatch, **env):
    """setup.py's platform functions alone (running setup.py would build), under `env`."""
    for key in ("CC", "_PYTHON_HOST_PLATFORM", "ARCHFLAGS"):
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    tree = ast.parse(SETUP.read_text(encoding="utf-8"))
    keep = [node for node in tree.body
            if getattr(node, "name", None) in NAMES
            or (isinstance(node, ast.Assign) and node.targets[0].id in NAMES)]
    namespace = {"os": os, "sys": sys, "re": re, "platform": platform}
    exec(compile(ast.Module(keep, []), str(SETUP), "exec"), namespace)
    return namespace


def test_the_target_is_the_one_a_cross_build_names(monkeypatch):
    f = _functions(monkeypatch, _PYTHON_HOST_PLATFORM="linux-aarch64",
                   CC="aarch64-linux-gnu-gcc")
    assert f["target_machine"]() == "aarch64" and not f["targets_x86_64"]()
    assert f["compiler_machine"]() == "aarch64"
    f["check_platform"]()       # the compiler and the target agree: no stop


def test_else_the_interpreters_machine(monkeypatch):
    f = _functions(monkeypatch)
    expected = {"amd64": "x86_64", "arm64": "aarch64"}.get(platform.machine().lower(),
                                                          platform.machine().lower())
    assert f["target_machine"]() == expected and f["compiler_machine"]() is None
    f["check_platform"]()


@pytest.mark.parametrize("cc,machine", [("aarch64-linux-gnu-gcc", "aarch64"),
                                        ("/usr/bin/x86_64-linux-gnu-gcc-12", "x86_64"),
                                        ("arm64-apple-darwin20-clang", "aarch64"),
                                        ("gcc", None), ("clang -O2", None), ("ccache gcc", None)])
def test_the_compilers_machine_is_read_from_its_name(monkeypatch, cc, machine):
    assert _functions(monkeypatch, CC=cc)["compiler_machine"]() == machine


def test_an_arm_compiler_with_an_x86_python_stops_saying_what_to_do():
    if _machine() != "x86_64":
        pytest.skip("an x86-64 interpreter's build")
    out = subprocess.run([sys.executable, str(SETUP), "--name"], cwd=SETUP.parent,
                         capture_output=True, text=True, timeout=120,
                         env={k: v for k, v in os.environ.items()
                              if k != "_PYTHON_HOST_PLATFORM"} | {"CC": "aarch64-linux-gnu-gcc"})
    assert out.returncode == 1
    assert ("CC=aarch64-linux-gnu-gcc compiles for aarch64, but this build is for x86_64: a "
            "cross build runs setup.py with the target's Python") in out.stderr


def _machine():
    return {"amd64": "x86_64"}.get(platform.machine().lower(), platform.machine().lower())
