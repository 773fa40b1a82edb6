"""The text of the Hub protocol: moved to shashki.hubtext, which the Hub client
(shashki.hubclient) shares with `shashki hub`; this name stays for code that imports it."""

from ..hubtext import *  # noqa: F401,F403
from ..hubtext import __all__  # noqa: F401
