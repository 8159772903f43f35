"""What a bench will do, validated before any load starts. Pure functions."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .manifest import ServerManifest

_DURATION = re.compile(r"^(\d+)(s|m|h)?$")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600}
TARGET_URL = "http://127.0.0.1:8080/"
MAX_THREADS = 1024
MAX_CONNECTIONS = 1_000_000


class PlanError(ValueError):
    """Bad bench input; the message is the one line the user sees."""


@dataclass(frozen=True)
class BenchPlan:
    servers: tuple[ServerManifest, ...]
    threads: tuple[int, ...]
    connections: int
    duration: str  # as wrk takes it: "10s"
    duration_s: int

    @property
    def load_seconds(self) -> int:
        return len(self.servers) * len(self.threads) * self.duration_s


def parse_duration(text: str) -> tuple[str, int]:
    """'10s' -> ('10s', 10); '2m' -> ('2m', 120); a bare number is seconds."""
    match = _DURATION.match(text.strip())
    if not match or int(match.group(1)) == 0:
        raise PlanError(f"DURATION must be a positive whole number of seconds, minutes or "
                        f"hours such as 10s, 2m or 1h; got {text!r}")
    count, unit = int(match.group(1)), match.group(2) or "s"
    return f"{count}{unit}", count * _UNIT_SECONDS[unit]


def parse_positive_list(name: str, text: str, maximum: int) -> tuple[int, ...]:
    """'10,5' -> (10, 5); each a whole number from 1 to maximum."""
    values = []
    for part in text.split(","):
        part = part.strip()
        if not part.isdigit() or not 1 <= int(part) <= maximum:
            raise PlanError(f"{name} must be whole numbers from 1 to {maximum}, separated by "
                            f"commas; got {text!r}")
        values.append(int(part))
    return tuple(values)


def select_servers(requested: str, known: tuple[ServerManifest, ...]) -> tuple[ServerManifest, ...]:
    """'netty,vertx' -> those manifests, in the order asked; '' or 'all' -> every server."""
    if requested.strip() in ("", "all"):
        return known
    by_name = {manifest.name: manifest for manifest in known}
    names = [name.strip() for name in requested.split(",") if name.strip()]
    unknown = [name for name in names if name not in by_name]
    if unknown:
        raise PlanError(f"unknown server {', '.join(unknown)}; known: {', '.join(by_name)}")
    return tuple(by_name[name] for name in dict.fromkeys(names))


def make_plan(servers: str, threads: str, connections: str, duration: str,
              known: tuple[ServerManifest, ...]) -> BenchPlan:
    thread_counts = parse_positive_list("THREADS", threads, MAX_THREADS)
    if "," in connections:
        raise PlanError(f"CONNECTIONS takes one number; got {connections!r}")
    (connection_count,) = parse_positive_list("CONNECTIONS", connections, MAX_CONNECTIONS)
    too_many = [count for count in thread_counts if count > connection_count]
    if too_many:
        raise PlanError(f"THREADS {too_many[0]} is more than CONNECTIONS {connection_count}: "
                        "wrk needs at least one connection per thread")
    duration_text, duration_s = parse_duration(duration)
    return BenchPlan(select_servers(servers, known), thread_counts, connection_count,
                     duration_text, duration_s)
