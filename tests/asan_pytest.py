"""Run pytest with AddressSanitizer's runtime preloaded (tox -e debug-asan).

An extension built with -fsanitize=address needs the ASan runtime loaded before anything else
in the process, and CPython itself is not built with it: so the runtime goes in LD_PRELOAD, found
the way the compiler that built the extension finds it (``gcc -print-file-name=libasan.so``).
CPython's small-object allocator is turned off (PYTHONMALLOC=malloc) so that every allocation
gets ASan's guard zones; CPython's own leaks at exit are not reported.

    python tests/asan_pytest.py [pytest arguments]
"""

import os
import subprocess
import sys


def main(argv):
    cc = os.environ.get("CC", "gcc").split()[0]
    library = subprocess.run([cc, "-print-file-name=libasan.so"], check=True,
                             capture_output=True, text=True).stdout.strip()
    if not os.path.isabs(library) or not os.path.exists(library):
        sys.exit(f"asan_pytest: {cc} does not know where libasan.so is ({library!r})")
    env = dict(os.environ, LD_PRELOAD=library, PYTHONMALLOC="malloc")
    env.setdefault("ASAN_OPTIONS", "detect_leaks=0:abort_on_error=1")
    return subprocess.call([sys.executable, "-m", "pytest", *argv], env=env)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
