"""tox -e debug: map every compiled module of the installed shashki into each Python process
of the env before anything runs, by a .pth file in its site-packages.

GCC's UBSan, without the dlopen interceptors of the other sanitizers, lists the loaded
modules once, at its first report, and cannot name a function of a module loaded after that:
the suppressions of Cython's MRO walk (tests/ubsan.supp) then miss it, and a suppressed report
in a module that `import shashki` loads lazily (playouts, egdb, ...) halts the run. Mapped
first (ctypes, without running any module's init), every module is in that list; Python's
import later finds the same library already loaded.
"""

import site
import sys
from pathlib import Path

# (one line of a .pth file is run by exec with its own locals: no comprehension, whose scope
# would not see them)
LINE = ("import ctypes, glob, importlib.util, os; "
        "list(map(ctypes.PyDLL, sorted(glob.glob(os.path.join(os.path.dirname("
        "importlib.util.find_spec('shashki').origin), '_core', '**', '*.so'), "
        "recursive=True))))\n")


def main():
    target = Path(site.getsitepackages()[0]) / "shashki_ubsan_preload.pth"
    target.write_text(LINE)
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
