"""Which requests are for `shashki serve`: the names a request's Host and Origin may give.

A page on another site can make the browser send requests to the server (a form, a fetch
without CORS), and a name of that site resolved to 127.0.0.1 (DNS rebinding) makes them
same-origin in the browser's eyes.  Both give themselves away: the first by its Origin, the
second by its Host, which names the other site.  So a request is answered only when its Host,
and its Origin where it has one, name the server as it was bound:

- the address or name given to --host, with the port;
- for a loopback address (127.0.0.1, ::1, localhost): localhost, 127.0.0.1 and [::1], with
  the port;
- for every address (0.0.0.0, ::): those, this machine's host names, and any IP address, with
  the port (a rebinding attack needs a name, never an address);
- the names given to --allow-host, with any port (the name a reverse proxy serves it under).
"""

from __future__ import annotations

import ipaddress
import re
import socket
from typing import FrozenSet, Iterable, Optional, Tuple

__all__ = ["HostRule", "LOOPBACK_NAMES", "is_loopback", "split_authority"]

#: the names of the loopback interface a browser may use for a server bound to it
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "[::1]"})
#: addresses that bind every interface
_EVERY_ADDRESS = ("0.0.0.0", "::", "")
# host[:port], the host a name, an IPv4 address or a bracketed IPv6 one
_AUTHORITY = re.compile(r"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(?::([0-9]{1,5}))?")


def _bracketed(host: str) -> str:
    """`host` as a Host header writes it: lower case, an IPv6 address in brackets."""
    host = host.strip("[]").lower()
    return f"[{host}]" if ":" in host else host


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name.strip("[]"))
        return True
    except ValueError:
        return False


def is_loopback(host: str) -> bool:
    """Whether `host` (an address or name given to --host) is this machine only."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def split_authority(text: str) -> Optional[Tuple[str, int]]:
    """(host, port) of a Host header's value (port 80 when it has none), or None when it is
    not host[:port]."""
    match = _AUTHORITY.fullmatch(text.strip())
    if match is None:
        return None
    port = int(match.group(2)) if match.group(2) else 80
    return match.group(1).lower(), port


class HostRule:
    """The Host names of a server bound to `host`:`port`, and `extra` names (any port)."""

    def __init__(self, host: str, port: int, extra: Iterable[str] = ()) -> None:
        self.port = port
        self.every_address = host in _EVERY_ADDRESS
        names = {_bracketed(host)}
        if is_loopback(host) or self.every_address:
            names |= LOOPBACK_NAMES
        if self.every_address:
            names |= {socket.gethostname().lower(), socket.getfqdn().lower()}
        self.names: FrozenSet[str] = frozenset(names - {""})
        self.extra: FrozenSet[str] = frozenset(_bracketed(name) for name in extra)

    def allows(self, authority: str) -> bool:
        """Whether host[:port] (a Host header, or an Origin's) names this server."""
        split = split_authority(authority)
        if split is None:
            return False
        name, port = split
        if name in self.extra:
            return True
        if port != self.port:
            return False
        return name in self.names or (self.every_address and _is_address(name))

    def allows_origin(self, origin: str) -> bool:
        """Whether an Origin header is a page of this server (http://host[:port])."""
        scheme, sep, authority = origin.strip().partition("://")
        return bool(sep) and scheme.lower() == "http" and self.allows(authority)

    def expected(self) -> str:
        """The names allowed, for an error's `expected`."""
        shown = sorted(f"{name}:{self.port}" for name in self.names)
        if self.every_address:
            shown.append(f"any address of this machine:{self.port}")
        shown += sorted(self.extra)
        return "a Host (and Origin) naming this server: " + ", ".join(shown)
