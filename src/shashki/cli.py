"""The `shashki` command: moved to shashki.apps.cli; this name stays for code that imports it."""

import sys

from .apps.cli import *  # noqa: F401,F403
from .apps.cli import __all__, main  # noqa: F401

if __name__ == "__main__":
    sys.exit(main())
