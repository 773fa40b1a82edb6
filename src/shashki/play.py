"""`shashki play`: moved to shashki.apps.play; this name stays for code that imports it."""

from .apps.play import *  # noqa: F401,F403
from .apps.play import __all__  # noqa: F401
