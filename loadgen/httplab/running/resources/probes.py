"""Probes read one sample of a server's CPU and memory: a process from /proc, a
container from its cgroup; an UnavailableProbe says why there is none."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Protocol

from httplab.running.resources.parse import (CgroupLayout, HostCpu, ResourceSample, SamplingError,
                                             parse_context_switches, parse_host_cpu,
                                             parse_cpu_stat_seconds, parse_cpuacct_usage_seconds,
                                             parse_proc_stat_cpu_ticks, parse_status_rss_bytes,
                                             resolve_cgroup_layout, working_set_bytes)

PROC = Path("/proc")
CGROUP_V1, CGROUP_V2, PROC_SOURCE = "cgroup v1", "cgroup v2", "/proc"


class ResourceProbe(Protocol):
    source: str

    def read(self) -> ResourceSample: ...


def _read_text(path: Path) -> str:
    try:
        return path.read_text()
    except OSError as error:
        raise SamplingError(f"cannot read {path}: {error.strerror or error}") from error


def task_switches(pids: list[int], proc: Path = PROC) -> tuple[int | None, int | None]:
    """Context switches summed over every thread of these processes, and the thread count;
    both None when no thread could be read. A thread that ends while being read is
    skipped: it no longer counts."""
    switches = threads = 0
    for pid in pids:
        try:
            tasks = list((proc / str(pid) / "task").iterdir())
        except OSError:
            continue
        for task in tasks:
            try:
                switches += parse_context_switches((task / "status").read_text())
            except (OSError, SamplingError):
                continue
            threads += 1
    return (switches, threads) if threads else (None, None)


def read_host_cpu(proc: Path = PROC) -> HostCpu:
    return parse_host_cpu(_read_text(proc / "stat"))


class ProcProbe:
    """A process on this host (the local backend's JVM), all its threads included."""

    source = PROC_SOURCE

    def __init__(self, pid: int, proc: Path = PROC):
        self.pid, self._dir = pid, proc / str(pid)
        self._ticks_per_second = os.sysconf("SC_CLK_TCK")

    def read(self) -> ResourceSample:
        ticks = parse_proc_stat_cpu_ticks(_read_text(self._dir / "stat"))
        rss = parse_status_rss_bytes(_read_text(self._dir / "status"))
        switches, threads = task_switches([self.pid], self._dir.parent)
        return ResourceSample(ticks / self._ticks_per_second, rss, switches, threads)


class CgroupProbe:
    """A cgroup (the docker backend's container): every process in it, as `docker stats`."""

    def __init__(self, layout: CgroupLayout, proc: Path = PROC):
        self.layout, self.proc = layout, proc
        self.source = CGROUP_V1 if layout.version == 1 else CGROUP_V2

    @classmethod
    def for_pid(cls, pid: int, proc: Path = PROC) -> CgroupProbe:
        """The cgroup of a process, such as a container's main PID from `docker inspect`."""
        layout = resolve_cgroup_layout(_read_text(proc / str(pid) / "cgroup"),
                                       _read_text(proc / "self" / "mountinfo"))
        if not layout.cpu_dir.is_dir() or not layout.memory_dir.is_dir():
            raise SamplingError(f"cgroup directory missing: {layout.cpu_dir} or {layout.memory_dir}")
        return cls(layout, proc)

    def read(self) -> ResourceSample:
        cpu, memory = self.layout.cpu_dir, self.layout.memory_dir
        if self.layout.version == 1:
            cpu_seconds = parse_cpuacct_usage_seconds(_read_text(cpu / "cpuacct.usage"))
            usage_file, inactive_key = "memory.usage_in_bytes", "total_inactive_file"
        else:
            cpu_seconds = parse_cpu_stat_seconds(_read_text(cpu / "cpu.stat"))
            usage_file, inactive_key = "memory.current", "inactive_file"
        working_set = working_set_bytes(_read_text(memory / usage_file),
                                        _read_text(memory / "memory.stat"), inactive_key)
        pids = [int(pid) for pid in _read_text(cpu / "cgroup.procs").split()]
        switches, threads = task_switches(pids, self.proc)
        return ResourceSample(cpu_seconds, working_set, switches, threads)


class UnavailableProbe:
    """Stands in when no probe could be built, so callers use a Sampler either way."""

    def __init__(self, reason: str, source: str | None = None):
        self.reason, self.source = reason, source

    def read(self) -> ResourceSample:
        raise SamplingError(self.reason)


def container_main_pid(container: str, timeout_s: float = 20.0) -> int:
    """The host PID of a running container's main process."""
    try:
        inspected = subprocess.run(["docker", "inspect", "-f", "{{.State.Pid}}", container],
                                   capture_output=True, text=True, timeout=timeout_s)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise SamplingError(f"cannot inspect container {container}: {error}") from error
    pid = inspected.stdout.strip()
    if inspected.returncode != 0 or not pid.isdigit() or pid == "0":
        raise SamplingError(f"no running process for container {container}: "
                            f"{(inspected.stderr.strip() or pid)[:200]}")
    return int(pid)


def probe_for_container(container: str) -> ResourceProbe:
    """A CgroupProbe for a running container, or an UnavailableProbe saying why not."""
    try:
        return CgroupProbe.for_pid(container_main_pid(container))
    except SamplingError as error:
        return UnavailableProbe(str(error), source="cgroup")
