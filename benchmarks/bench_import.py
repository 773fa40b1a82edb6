"""What `import shashki` costs beside `import json`, measured in the same run.

    python benchmarks/bench_import.py            # best of 5, interleaved
    python benchmarks/bench_import.py --runs 9

`import shashki` is paid by every script and every worker process.  Each import runs in a fresh
interpreter (wall time of the import statement alone, from a bytecode cache of the run's own),
shashki and json interleaved, best of `--runs`; the ratio is the figure to read, the
milliseconds depend on the machine.  tests/test_imports.py checks what the import loads, not
how long it takes.
"""

import argparse
import os
import subprocess
import sys
import tempfile


def import_seconds(module, env):
    code = (f"import time; s = time.perf_counter(); import {module}; "
            f"print(time.perf_counter() - s)")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True)
    return float(out.stdout)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="interleaved runs (best of)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error(f"--runs must be at least 1, not {args.runs}")
    with tempfile.TemporaryDirectory() as cache:
        # (PYTHONDONTWRITEBYTECODE would make every run parse the sources again)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = cache
        best = {"shashki": float("inf"), "json": float("inf")}
        for module in best:
            import_seconds(module, env)         # fills the bytecode cache
        for _ in range(args.runs):
            for module, seconds in best.items():
                best[module] = min(seconds, import_seconds(module, env))
    ratio = best["shashki"] / best["json"]
    print(f"import shashki {best['shashki'] * 1e3:.1f} ms, import json "
          f"{best['json'] * 1e3:.1f} ms: {ratio:.1f} times (best of {args.runs})")
    return ratio


if __name__ == "__main__":
    main()
