"""The loop of the long-lived peer workers: one JSON request a line on stdin, one JSON reply a
line on stdout.  Stdlib only, so any peer's venv can run it."""

import json
import sys


class Quit(Exception):
    """Raised by a handler to end the session cleanly."""


def serve(handle):
    """Answer each request with handle(request); an error becomes {"error": ...} and the
    session goes on (the caller decides what a failed request means)."""
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            reply = handle(json.loads(line))
        except Quit:
            break
        except Exception as exc:  # report, don't die: one bad request must not end the session
            reply = {"error": f"{type(exc).__name__}: {exc}"}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    return 0
