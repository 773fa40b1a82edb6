"""How soon `shashki serve` answers: seconds from starting the command to its first answer of
the page, over a few starts.

    python benchmarks/serve_start.py [--runs 7]

The figure of docs/serve.md and the README.  Each start is a new process on a free port, asked
for / every 5 ms until it answers 200; the process is ended after.  Wall-clock seconds, so a
loaded machine shows it (the median is printed with every run).
"""

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.request


def command():
    """The `shashki` command beside this Python (what a user runs), else python -m shashki."""
    script = shutil.which("shashki", path=os.path.dirname(sys.executable))
    return [script] if script else [sys.executable, "-m", "shashki"]


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_time(timeout=30.0):
    port = free_port()
    start = time.perf_counter()
    proc = subprocess.Popen(command() + ["serve", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while time.perf_counter() - start < timeout:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as answer:
                    if answer.status == 200:
                        return time.perf_counter() - start
            except OSError:
                time.sleep(0.005)
        raise SystemExit(f"no answer in {timeout:g} s")
    finally:
        proc.terminate()
        proc.wait()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args(argv)
    times = [start_time() for _ in range(args.runs)]
    print("seconds to the first page: " + " ".join(f"{t:.3f}" for t in times) +
          f"; median {statistics.median(times):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
