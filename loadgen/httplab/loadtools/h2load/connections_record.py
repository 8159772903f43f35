"""The socket readings fairness.sh takes during an h2load run (sockets.py) reduced to what
a table reads, and read back: <stem>.connections.json, each connection's request bytes
acknowledged between the first reading and the last, the connections reopened in between,
when the two readings were taken and h2load's version line. Pure: text and dicts in,
records out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from httplab.loadtools.h2load.sockets import connection_deltas, parse_sockets

FORMAT = 1  # of the record this module writes and reads


@dataclass(frozen=True)
class ConnectionBytes:
    tool: str | None  # h2load's version line; None when it printed none
    # Each connection's bytes, ascending, and the readings' times (s after h2load
    # started); None without two readings.
    connection_bytes: tuple[int, ...] | None = None
    from_s: float | None = None
    to_s: float | None = None
    reopened: int | None = None


def reduced_readings(text: str, connections: int, source: str) -> dict[str, Any]:
    """The record of the readings of h2load's `connections` clients; ValueError naming the
    source's line that cannot be read."""
    readings = parse_sockets(text, source)
    record = {"format": FORMAT, "connections": connections, "readings": len(readings),
              "tool": readings[0].tool if readings else None}
    if len(readings) < 2:
        return record
    connection_bytes, reopened = connection_deltas(readings, connections)
    return {**record, "from_s": readings[0].at_s, "to_s": readings[-1].at_s,
            "connection_bytes": list(connection_bytes), "reopened": reopened}


def connections_from_readings(text: str, connections: int, source: str) -> ConnectionBytes:
    """Readings read as their record would be (the form runs before it kept)."""
    return connections_from_record(reduced_readings(text, connections, source), source)


def connections_from_record(data: Any, source: str) -> ConnectionBytes:
    """ValueError naming the source when data is not a record of a known format."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{source}: not a connections record of format {FORMAT}")
    try:
        if "connection_bytes" not in data:
            return ConnectionBytes(data["tool"])
        return ConnectionBytes(data["tool"], tuple(int(n) for n in data["connection_bytes"]),
                               float(data["from_s"]), float(data["to_s"]),
                               int(data["reopened"]))
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"{source}: connections record without {error}") from error
