import functools
import os
import subprocess
import sys
from pathlib import Path

import pytest

# tests import their helpers (perftfile) from this folder
sys.path.insert(0, str(Path(__file__).resolve().parent))

from perftfile import shared_dir  # noqa: E402

# The engine probes the endgame databases of the default folder when there are any: the tests
# must not depend on what the user's cache holds, so they get an empty folder of their own
# (subprocesses inherit it) unless SHASHKI_TEST_EGDB names one.
if "SHASHKI_TEST_EGDB" in os.environ:
    os.environ["SHASHKI_EGDB"] = os.environ["SHASHKI_TEST_EGDB"]
else:
    import atexit  # noqa: E402
    import shutil  # noqa: E402
    import tempfile  # noqa: E402
    os.environ["SHASHKI_EGDB"] = tempfile.mkdtemp(prefix="shashki-test-egdb-")
    # removed when this process ends (each xdist worker makes and removes its own): a run
    # left one behind in the temporary folder for every process before
    atexit.register(shutil.rmtree, os.environ["SHASHKI_EGDB"], ignore_errors=True)

# The modules that read the perft suites and games of ../shared.  Where that folder cannot be
# had (a wheel tested inside cibuildwheel's container), SHASHKI_SKIP_SHARED=1 skips them;
# anywhere else a missing shared/ stops the run with the reason, rather than failing
# hundreds of tests one by one.
NEEDS_SHARED = {"test_perft_suites.py", "test_games.py", "test_parallel.py",
                "test_reference.py", "test_fuzz.py", "test_docs.py", "test_differential.py"}


def _shared_missing():
    return not (shared_dir() / "perft").is_dir()


def pytest_sessionstart(session):
    if _shared_missing() and not os.environ.get("SHASHKI_SKIP_SHARED"):
        pytest.exit(f"the shared data folder {shared_dir()} was not found: put shared/ beside "
                    f"the checkout, point SHASHKI_SHARED at it, or set SHASHKI_SKIP_SHARED=1 "
                    f"to skip the tests that need it", returncode=4)


@functools.lru_cache(maxsize=None)
def _interpreter_starts():
    """Whether this interpreter can start another of itself.  Not under qemu-user without
    binfmt_misc (tox -e aarch64): an emulated program's child is run by the host's kernel,
    which cannot run an aarch64 program."""
    try:
        return subprocess.run([sys.executable, "-c", "pass"], capture_output=True,
                              timeout=120).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def pytest_collection_modifyitems(config, items):
    # the tests that start the interpreter (marked "subprocess") where it cannot start itself
    started = [item for item in items if item.get_closest_marker("subprocess")]
    if started and not _interpreter_starts():
        skip = pytest.mark.skip(reason="starts the interpreter, which cannot start itself here "
                                       "(qemu-user without binfmt_misc runs no emulated child)")
        for item in started:
            item.add_marker(skip)
    if not _shared_missing():
        return
    skip = pytest.mark.skip(reason=f"needs {shared_dir()} (SHASHKI_SKIP_SHARED is set)")
    for item in items:
        if Path(str(item.fspath)).name in NEEDS_SHARED:
            item.add_marker(skip)
