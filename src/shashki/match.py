"""Engine matches: moved to shashki.apps.match; this name stays for code that imports it."""

from .apps.match import *  # noqa: F401,F403
from .apps.match import __all__  # noqa: F401
