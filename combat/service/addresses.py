"""Where the table screen is: the lines `combat serve` prints when it starts, so that a GM
finds /app/ without reading the docs, and the phones at the table find it on the LAN.

A server on loopback is reached at its own address; one on a wildcard address (0.0.0.0, ::)
on this machine's loopback and on each LAN address found; one on a named address at that
name. The LAN addresses are this host's name resolved, plus the address the default route
leaves by (a UDP socket's `connect` picks it and sends nothing); none is found offline."""

from __future__ import annotations

import contextlib
import ipaddress
import socket
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from combat.service.admission import is_loopback

__all__ = ["Listening", "lan_addresses", "table_screen_lines"]

_WILDCARDS = {"", "0.0.0.0", "::"}
_DOCUMENTATION_ADDRESS = ("192.0.2.1", 9)  # TEST-NET-1 (RFC 5737): never reached, only routed to


def table_screen_lines(host: str, port: int, lan: Callable[[], Iterable[str]] | None = None) -> list[str]:
    """`["table screen: http://127.0.0.1:8000/app/", ...]`: one line per address to open."""
    if host not in _WILDCARDS:
        return [f"table screen: {_url(host, port)}"]
    lines = [f"table screen: {_url('127.0.0.1', port)} (this machine)"]
    for address in (lan or lan_addresses)():
        lines.append(f"table screen: {_url(address, port)} (on the network: for the players' phones)")
    return lines


@dataclass(frozen=True)
class Listening:
    """Where the service listens, as `combat serve` was told (`host`: None when another server
    runs the app, read then from the connection's own address), and how the LAN addresses are
    found (a test gives fixed ones)."""

    host: str | None = None
    lan: Callable[[], Iterable[str]] | None = None

    def reachable(self, local: str, port: int) -> tuple[bool, list[str]]:
        """(loopback only, the origins a phone can open: `http://192.168.1.20:8000`), for a
        request that came in on `local`:`port`."""
        host = local if self.host is None else self.host
        if host in _WILDCARDS:
            return False, [_origin(a, port) for a in (self.lan or lan_addresses)()]
        if is_loopback(host):
            return True, []
        return False, [_origin(host, port)]


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses beyond loopback, sorted."""
    found: set[str] = set()
    with contextlib.suppress(OSError):
        found.update(str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET))
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_DOCUMENTATION_ADDRESS)
            found.add(probe.getsockname()[0])
    except OSError:
        pass
    return sorted((a for a in found if not is_loopback(a) and a != "0.0.0.0"), key=ipaddress.ip_address)


def _url(host: str, port: int) -> str:
    return f"{_origin(host, port)}/app/"


def _origin(host: str, port: int) -> str:
    try:
        literal = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    shown = f"[{host}]" if literal is not None and literal.version == 6 else host
    return f"http://{shown}:{port}"
