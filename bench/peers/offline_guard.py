"""Keeps a benchmark process off the network: only loopback connections are allowed.

``install()`` adds a Python audit hook that refuses (``PermissionError``) every DNS lookup of
a name other than localhost and every socket connection to an address outside 127.0.0.0/8 and
::1, and remembers what was refused (``blocked()``), so a benchmark can report that a tool
tried to phone home instead of silently doing it. Standard library only.
"""

from __future__ import annotations

import ipaddress
import sys
from typing import Any

_LOCAL_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}
_blocked: list[str] = []
_installed = False


def _is_local(host: Any) -> bool:
    if host is None:
        return True
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    host = str(host).strip("[]")
    if host.lower() in _LOCAL_NAMES or host == "":
        return True
    try:
        return ipaddress.ip_address(host.split("%", 1)[0]).is_loopback
    except ValueError:
        return False


def _hook(event: str, args: tuple[Any, ...]) -> None:
    if event == "socket.getaddrinfo":
        host = args[0]
        if not _is_local(host):
            _blocked.append(f"lookup {host}")
            raise PermissionError(f"benchmark offline guard: DNS lookup of {host!r} refused")
    elif event == "socket.connect":
        address = args[1]
        if isinstance(address, tuple) and address and not _is_local(address[0]):
            _blocked.append(f"connect {address[0]}:{address[1] if len(address) > 1 else ''}")
            raise PermissionError(f"benchmark offline guard: connection to {address!r} refused")


def install() -> None:
    """Refuse every non-loopback lookup and connection in this process from now on (once)."""
    global _installed
    if not _installed:
        sys.addaudithook(_hook)
        _installed = True


def blocked() -> list[str]:
    """What was refused so far."""
    return list(_blocked)
