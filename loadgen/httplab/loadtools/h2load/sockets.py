"""Read the client socket readings fairness.sh takes during an h2load run, and turn two of
them into each connection's request bytes acknowledged in between. Pure.

Each reading is a header line, "# httplab sockets at_s=<s> port=<port> tool=<h2load
--version>", then `ss -Htin` for the established connections to that port: per socket a
line "Recv-Q Send-Q local peer" and a tab-indented line of TCP details, among them
bytes_acked:N (the request bytes the server has acknowledged; absent until it sent any).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping

_HEADER = re.compile(r"# httplab sockets at_s=(\d+(?:\.\d+)?) port=(\d+) tool=(.*)")
_BYTES_ACKED = re.compile(r"\bbytes_acked:(\d+)")


@dataclass(frozen=True)
class SocketReading:
    at_s: float  # seconds since h2load started
    port: int
    tool: str | None  # h2load's version line; None when it printed none
    bytes_acked: Mapping[str, int]  # local address:port -> bytes acknowledged so far


SocketReadings = tuple[SocketReading, ...]


def parse_sockets(text: str, source: str) -> SocketReadings:
    """Every reading in `text`, in order; `source` names it in error messages."""
    lines = list(enumerate(text.splitlines(), start=1))
    starts = [index for index, (_, line) in enumerate(lines) if line.startswith("#")]
    before = [(number, line) for number, line in lines[:starts[0] if starts else None]
              if line.strip()]
    if before:
        raise ValueError(f"{source}:{before[0][0]}: a line before any '# httplab sockets' header")
    ends = starts[1:] + [len(lines)]
    return tuple(_reading(lines[start], lines[start + 1:end], source)
                 for start, end in zip(starts, ends))


def _reading(header: tuple[int, str], body: list[tuple[int, str]], source: str) -> SocketReading:
    number, line = header
    match = _HEADER.fullmatch(line.rstrip())
    if match is None:
        raise ValueError(f"{source}:{number}: not a '# httplab sockets' header: {line!r}")
    acked: dict[str, int] = {}
    local = None
    for number, line in body:
        if not line.strip():
            continue
        if line[0].isspace():  # the details of the socket above
            if local is None:
                raise ValueError(f"{source}:{number}: socket details without a socket line")
            acked[local] = _bytes_acked(line, acked[local])
            continue
        local, rest = _socket_line(number, line, source)
        if local in acked:
            raise ValueError(f"{source}:{number}: {local} twice in one reading")
        acked[local] = _bytes_acked(rest, 0)
    at_s, port, tool = match.groups()
    return SocketReading(float(at_s), int(port), tool.strip() or None, acked)


def _socket_line(number: int, line: str, source: str) -> tuple[str, str]:
    """(local address:port, what follows the peer: the details, when ss put them on one line)."""
    fields = line.split(maxsplit=4)
    if len(fields) < 4 or not (fields[0].isdigit() and fields[1].isdigit()):
        raise ValueError(f"{source}:{number}: not an ss socket line: {line!r}")
    return fields[2], fields[4] if len(fields) == 5 else ""


def _bytes_acked(details: str, otherwise: int) -> int:
    match = _BYTES_ACKED.search(details)
    return int(match.group(1)) if match else otherwise


def connection_deltas(readings: SocketReadings, connections: int) -> tuple[tuple[int, ...], int]:
    """Each connection's bytes acknowledged from the first reading to the last, ascending, and
    how many connections were reopened in between (their share is unknown: left out).

    h2load keeps `connections` clients, each on one connection, and opens a new one for a
    client whose connection the server closed. So a socket only in the last reading (or
    one whose count went down: a new connection on a reused port) is a reopened client's,
    up to the number of clients not in both readings. The clients left count as 0: they
    had no connection at the last reading (never connected, or the server closed theirs
    and none replaced it). More sockets in both readings than connections means another
    client used the port: all are kept, as which ones are not h2load's cannot be told."""
    if len(readings) < 2:
        raise ValueError(f"two socket readings are needed, not {len(readings)}")
    first, last = readings[0].bytes_acked, readings[-1].bytes_acked
    kept = [last[local] - first[local] for local in last.keys() & first.keys()
            if last[local] >= first[local]]
    new = len(last) - len(kept)
    reopened = min(new, max(0, connections - len(kept)))
    unseen = max(0, connections - len(kept) - reopened)
    return tuple(sorted(kept + [0] * unseen)), reopened
