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
# After them, absent from older runs' lines: where blocking work runs (pool, virtual).
_EXECUTOR = re.compile(r" executor=(?P<executor>\S+)$")
# After it, absent from older runs' lines: the protocol served and the TLS engine the
# framework runs (jdk, openssl, or none without TLS).
_WIRE = re.compile(r" protocol=(?P<protocol>\S+) tls=(?P<tls>\S+)$")
# After them, absent from the reference's and older runs' lines: the runtime as the JVM
# reports it; the vendor last, as it may hold spaces.
_RUNTIME = re.compile(r" java=(?P<java>\S+) gc=(?P<gc>\S+) heap_max_mb=(?P<heap>\d+)"
                      r" vendor=(?P<vendor>.*)$")


@dataclass(frozen=True)
class JavaRuntime:
    """The JVM a server ran on, as it said itself."""

    version: str  # java.version: 25.0.1
    gc: str  # G1, Parallel, Serial, ZGC, Shenandoah
    heap_max_mb: int  # Runtime.maxMemory()
    vendor: str  # java.vendor: Eclipse Adoptium, Debian

    @property
    def feature(self) -> str:
        """The feature release, as JDK= names it: "25" of 25.0.1, "17" of 17.0.15."""
        return re.split(r"[.+-]", self.version, maxsplit=1)[0]


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
    runtime: JavaRuntime | None = None  # None: no JVM (the reference), or an older line
    executor: str | None = None  # pool or virtual; None: an older line
    protocol: str | None = None  # h1, h1-tls, h2c, h2; None: an older line
    tls: str | None = None  # the TLS engine: jdk, openssl or none; None: an older line


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
    runtime = _RUNTIME.search(body)
    if runtime is not None:
        body = body[:runtime.start()]
    wire = _WIRE.search(body)
    if wire is not None:
        body = body[:wire.start()]
    executor = _EXECUTOR.search(body)
    if executor is not None:
        body = body[:executor.start()]
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
                       int(pool["db"]) if pool and pool["db"] else None,
                       _java_runtime(runtime), executor["executor"] if executor else None,
                       wire["protocol"] if wire else None, wire["tls"] if wire else None)


def _java_runtime(found: re.Match | None) -> JavaRuntime | None:
    if found is None:
        return None
    return JavaRuntime(found["java"], found["gc"], int(found["heap"]), found["vendor"].strip())
