"""The one line each server prints when ready (see servers/common StartupLine). Pure."""

from __future__ import annotations

import re
from dataclasses import dataclass

READY_MARKER = "httplab-ready "
_FIELDS = ("framework", "version", "transport", "workers", "observed_workers", "bind")
# Last, and absent from the lines of older runs: the most threads the pool /blocking runs
# on may have, as the server configured it (0: no such endpoint, the reference), then the
# database connection pool's size (0: none).
_POOLS = re.compile(r" blocking_pool=(?P<value>\S*)(?: db_pool=(?P<db>\S*))?$")


@dataclass(frozen=True)
class StartupInfo:
    framework: str
    version: str
    transport: str
    workers: int
    observed_workers: int
    bind: str
    line: str
    blocking_pool: int | None = None  # None: a line without it (older runs)
    db_pool: int | None = None  # likewise


def find_startup_line(output: str) -> StartupInfo | None:
    """The first httplab-ready line in a server's output, or None."""
    for line in output.splitlines():
        start = line.find(READY_MARKER)
        if start >= 0:
            return parse_startup_line(line[start:].strip())
    return None


def parse_startup_line(line: str) -> StartupInfo | None:
    """Reads key=value pairs; the framework name may hold spaces up to ' version='."""
    body = line.removeprefix(READY_MARKER.strip()).strip()
    pool = _POOLS.search(body)
    if pool is not None:
        if not pool["value"].isdigit() or not (pool["db"] is None or pool["db"].isdigit()):
            return None
        body = body[:pool.start()]
    values: dict[str, str] = {}
    keys = [f"{name}=" for name in _FIELDS]
    for index, key in enumerate(keys):
        start = body.find(key)
        if start < 0:
            return None
        end = body.find(" " + keys[index + 1]) if index + 1 < len(keys) else len(body)
        if end < start:
            return None
        values[_FIELDS[index]] = body[start + len(key):end].strip()
    if not values["workers"].isdigit() or not values["observed_workers"].isdigit():
        return None
    return StartupInfo(values["framework"], values["version"], values["transport"],
                       int(values["workers"]), int(values["observed_workers"]),
                       values["bind"], line, int(pool["value"]) if pool else None,
                       int(pool["db"]) if pool and pool["db"] else None)
