"""The machine a run happens on: CPU, cores, memory, kernel and tool versions."""

from __future__ import annotations

import os
import platform
import socket
from pathlib import Path

from httplab.model import HostInfo


def cpu_model(cpuinfo: str) -> str | None:
    """The 'model name' of /proc/cpuinfo's text. Pure."""
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "model name":
            return " ".join(value.split())
    return None


def memory_bytes(meminfo: str) -> int | None:
    """MemTotal of /proc/meminfo's text, in bytes. Pure."""
    for line in meminfo.splitlines():
        if line.startswith("MemTotal:"):
            return int(line.split()[1]) * 1024
    return None


def _read(path: str) -> str:
    try:
        return Path(path).read_text()
    except OSError:
        return ""


def usable_cpu_set() -> set[int]:
    """The CPUs this process may run on (a cpuset may name only these)."""
    try:
        return set(os.sched_getaffinity(0))
    except AttributeError:
        return set(range(os.cpu_count() or 1))


def usable_cpus() -> int:
    return len(usable_cpu_set())


def collect_host(versions: dict[str, str | None]) -> HostInfo:
    """This host, with the tool versions a backend reported (java, wrk, docker, compose)."""
    return HostInfo(
        hostname=socket.gethostname(), cpu_model=cpu_model(_read("/proc/cpuinfo")),
        cores=usable_cpus(), memory_bytes=memory_bytes(_read("/proc/meminfo")),
        kernel=platform.release(), os=platform.system(),
        docker=versions.get("docker"), compose=versions.get("compose"),
        java=versions.get("java"), wrk=versions.get("wrk"),
        python=platform.python_version(),
    )
