"""Who connects to the server: the peers of its established TCP connections, read with
`ss` in the server's namespace, once (pure parser) or over a run (PeerWatch)."""

from __future__ import annotations

import ipaddress
import threading
from typing import Callable


def parse_established_peers(ss_output: str, port: int) -> set[str]:
    """Peer addresses of `ss -Htn state established` lines whose local port is `port`
    (with a state filter ss prints: Recv-Q Send-Q Local:Port Peer:Port). A dual-stack
    socket (Java's) shows IPv4 peers as ::ffff:a.b.c.d: they are given as a.b.c.d."""
    found = set()
    for line in ss_output.splitlines():
        fields = line.split()
        if len(fields) >= 4 and fields[2].rsplit(":", 1)[-1] == str(port):
            peer = ipaddress.ip_address(fields[3].rsplit(":", 1)[0].strip("[]"))
            mapped = getattr(peer, "ipv4_mapped", None)
            found.add(str(mapped or peer))
    return found


class PeerWatch:
    """Polls `read_peers()` every `interval_s` in a thread while the `with` block runs;
    `seen` gathers every peer met, `polls` counts the reads, `errors` keeps what failed."""

    def __init__(self, read_peers: Callable[[], set[str]], interval_s: float = 0.2):
        self._read_peers = read_peers
        self._interval_s = interval_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._poll, daemon=True)
        self.seen: set[str] = set()
        self.polls = 0
        self.errors: list[str] = []

    def _poll(self) -> None:
        while not self._stop.is_set():
            try:
                self.seen |= self._read_peers()
                self.polls += 1
            except Exception as failure:  # noqa: BLE001 - reported by the test, not lost
                self.errors.append(str(failure))
            self._stop.wait(self._interval_s)

    def __enter__(self) -> "PeerWatch":
        self._thread.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self._stop.set()
        self._thread.join(15)
