"""The Hub protocol: moved to shashki.apps.hub; this name stays for code that imports it."""

from .apps.hub import *  # noqa: F401,F403
from .apps.hub import __all__  # noqa: F401
