"""Whether something on this machine already listens on a port (the servers' and the
database's, checked before each start)."""

from __future__ import annotations

import socket

from httplab.addresses import LOOPBACK


def port_in_use(port: int, host: str = LOOPBACK) -> bool:
    """Something already listens on host:port."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.settimeout(0.5)
        return probe.connect_ex((host, port)) == 0
