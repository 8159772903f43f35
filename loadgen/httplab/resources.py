"""CPU and memory of a server while wrk loads it: probes read one sample each (a process
from /proc, a container from its cgroup), a Sampler collects them on a background thread,
and summarize_samples turns them into a ResourceUsage. The parsers are pure, for tests."""

from __future__ import annotations

import os
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Protocol

from .model import ResourceUsage

DEFAULT_INTERVAL_S = 0.5
PROC = Path("/proc")
CGROUP_V1, CGROUP_V2, PROC_SOURCE = "cgroup v1", "cgroup v2", "/proc"


class SamplingError(Exception):
    """A probe could not read its server's CPU or memory."""


@dataclass(frozen=True)
class ResourceSample:
    cpu_seconds: float  # cumulative since the server started
    memory_bytes: int  # at the moment of reading


class ResourceProbe(Protocol):
    source: str

    def read(self) -> ResourceSample: ...


# --- Pure parsers -------------------------------------------------------------------------


def parse_proc_stat_cpu_ticks(text: str) -> int:
    """utime + stime, in clock ticks, from a /proc/<pid>/stat line."""
    # The command name (field 2) may hold spaces and parentheses, so split after the last ')'.
    _, close, rest = text.rpartition(")")
    fields = rest.split()
    if not close or len(fields) < 13:
        raise SamplingError(f"unexpected /proc stat line: {text[:80]!r}")
    utime, stime = fields[11], fields[12]  # fields 14 and 15 of the whole line
    return int(utime) + int(stime)


def parse_status_rss_bytes(text: str) -> int:
    """VmRSS from /proc/<pid>/status, in bytes."""
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key == "VmRSS":
            number, _, unit = value.strip().partition(" ")
            if unit.strip() != "kB":
                raise SamplingError(f"unexpected VmRSS unit: {line!r}")
            return int(number) * 1024
    raise SamplingError("no VmRSS in /proc status (has the process exited?)")


def parse_key_values(text: str) -> dict[str, int]:
    """The "key value" lines of cgroup files such as memory.stat and cpu.stat."""
    values: dict[str, int] = {}
    for line in text.splitlines():
        key, _, value = line.strip().partition(" ")
        if key and value.strip().lstrip("-").isdigit():
            values[key] = int(value)
    return values


def parse_cpu_stat_seconds(text: str) -> float:
    """cgroup v2 cpu.stat: usage_usec, in seconds."""
    usage = parse_key_values(text).get("usage_usec")
    if usage is None:
        raise SamplingError("no usage_usec in cpu.stat")
    return usage / 1e6


def parse_cpuacct_usage_seconds(text: str) -> float:
    """cgroup v1 cpuacct.usage: nanoseconds, in seconds."""
    try:
        return int(text.strip()) / 1e9
    except ValueError as error:
        raise SamplingError(f"unexpected cpuacct.usage: {text.strip()[:40]!r}") from error


def working_set_bytes(usage_text: str, memory_stat_text: str, inactive_key: str) -> int:
    """Usage minus the inactive page cache, as `docker stats` counts memory: inactive_key is
    total_inactive_file under cgroup v1 and inactive_file under v2."""
    try:
        usage = int(usage_text.strip())
    except ValueError as error:
        raise SamplingError(f"unexpected memory usage: {usage_text.strip()[:40]!r}") from error
    inactive = parse_key_values(memory_stat_text).get(inactive_key, 0)
    return max(usage - inactive, 0)


@dataclass(frozen=True)
class CgroupEntry:
    """One line of /proc/<pid>/cgroup; v2's line has hierarchy 0 and no controllers."""

    hierarchy: int
    controllers: tuple[str, ...]
    path: str


def parse_cgroup_file(text: str) -> list[CgroupEntry]:
    entries = []
    for line in text.splitlines():
        if not line.strip():
            continue
        hierarchy, controllers, path = line.split(":", 2)
        names = tuple(name for name in controllers.split(",") if name)
        entries.append(CgroupEntry(int(hierarchy), names, path))
    return entries


@dataclass(frozen=True)
class CgroupMount:
    root: str  # the part of the hierarchy the mount shows
    mount_point: str
    version: int
    options: tuple[str, ...]  # v1 super options name the controllers, e.g. "rw,cpu,cpuacct"


def _unescape_mount_path(path: str) -> str:
    """mountinfo writes space, tab, newline and backslash as octal escapes."""
    for escaped, plain in (("\\040", " "), ("\\011", "\t"), ("\\012", "\n"), ("\\134", "\\")):
        path = path.replace(escaped, plain)
    return path


def parse_cgroup_mounts(mountinfo_text: str) -> list[CgroupMount]:
    """The cgroup v1 and v2 mounts listed in /proc/self/mountinfo."""
    mounts = []
    for line in mountinfo_text.splitlines():
        before, separator, after = line.partition(" - ")
        fields, tail = before.split(), after.split()
        if not separator or len(fields) < 5 or len(tail) < 3 or tail[0] not in ("cgroup", "cgroup2"):
            continue
        mounts.append(CgroupMount(root=_unescape_mount_path(fields[3]),
                                  mount_point=_unescape_mount_path(fields[4]),
                                  version=2 if tail[0] == "cgroup2" else 1,
                                  options=tuple(tail[2].split(","))))
    return mounts


# --- Resolving a process's cgroup directories (pure) -------------------------------------


@dataclass(frozen=True)
class CgroupLayout:
    version: int
    cpu_dir: Path
    memory_dir: Path


def _directory_under(mount: CgroupMount, cgroup_path: str) -> Path:
    """/proc/<pid>/cgroup paths are relative to the hierarchy's root, and a mount may show
    only part of it (its root), so strip that part before joining to the mount point."""
    root = mount.root.rstrip("/")
    if cgroup_path != root and not cgroup_path.startswith(root + "/"):
        raise SamplingError(f"cgroup {cgroup_path} is outside the mount {mount.mount_point} "
                            f"(which shows {mount.root}); is the harness in a cgroup namespace?")
    return Path(mount.mount_point) / cgroup_path[len(root):].lstrip("/")


def _v1_directory(entries: list[CgroupEntry], mounts: list[CgroupMount], controller: str) -> Path:
    entry = next(e for e in entries if controller in e.controllers)
    mount = next((m for m in mounts if m.version == 1 and controller in m.options), None)
    if mount is None:
        raise SamplingError(f"the cgroup v1 {controller} controller is not mounted")
    return _directory_under(mount, entry.path)


def resolve_cgroup_layout(cgroup_text: str, mountinfo_text: str) -> CgroupLayout:
    """Where a process's CPU and memory accounting lives. v1 controllers win over the v2
    line, since hybrid hosts (like Docker with cgroupfs on v1) also list "0::" there."""
    entries, mounts = parse_cgroup_file(cgroup_text), parse_cgroup_mounts(mountinfo_text)
    listed = {name for entry in entries for name in entry.controllers}
    if {"cpuacct", "memory"} <= listed:
        return CgroupLayout(1, _v1_directory(entries, mounts, "cpuacct"),
                            _v1_directory(entries, mounts, "memory"))
    unified = next((entry for entry in entries if entry.hierarchy == 0), None)
    mount = next((m for m in mounts if m.version == 2), None)
    if unified is None or mount is None:
        raise SamplingError("neither cgroup v1 cpuacct+memory nor a cgroup v2 hierarchy "
                            "found for the process")
    directory = _directory_under(mount, unified.path)
    return CgroupLayout(2, directory, directory)


# --- Probes (they do the reading) ---------------------------------------------------------


def _read_text(path: Path) -> str:
    try:
        return path.read_text()
    except OSError as error:
        raise SamplingError(f"cannot read {path}: {error.strerror or error}") from error


class ProcProbe:
    """A process on this host (the local backend's JVM), all its threads included."""

    source = PROC_SOURCE

    def __init__(self, pid: int, proc: Path = PROC):
        self.pid, self._dir = pid, proc / str(pid)
        self._ticks_per_second = os.sysconf("SC_CLK_TCK")

    def read(self) -> ResourceSample:
        ticks = parse_proc_stat_cpu_ticks(_read_text(self._dir / "stat"))
        rss = parse_status_rss_bytes(_read_text(self._dir / "status"))
        return ResourceSample(ticks / self._ticks_per_second, rss)


class CgroupProbe:
    """A cgroup (the docker backend's container): every process in it, as `docker stats`."""

    def __init__(self, layout: CgroupLayout):
        self.layout = layout
        self.source = CGROUP_V1 if layout.version == 1 else CGROUP_V2

    @classmethod
    def for_pid(cls, pid: int, proc: Path = PROC) -> CgroupProbe:
        """The cgroup of a process, such as a container's main PID from `docker inspect`."""
        layout = resolve_cgroup_layout(_read_text(proc / str(pid) / "cgroup"),
                                       _read_text(proc / "self" / "mountinfo"))
        if not layout.cpu_dir.is_dir() or not layout.memory_dir.is_dir():
            raise SamplingError(f"cgroup directory missing: {layout.cpu_dir} or {layout.memory_dir}")
        return cls(layout)

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
        return ResourceSample(cpu_seconds, working_set)


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


# --- Summary and sampling -----------------------------------------------------------------


def summarize_samples(samples: list[tuple[float, ResourceSample]],
                      source: str | None = None) -> ResourceUsage:
    """CPU cores used between the first and last sample, and memory peak and mean over all.
    With fewer than two samples cpu_cores is None, and `unavailable` says why."""
    if not samples:
        return ResourceUsage(source=source, unavailable="no samples were taken")
    memory = [sample.memory_bytes for _, sample in samples]
    peak, mean = max(memory), round(sum(memory) / len(memory))
    (first_at, first), (last_at, last) = samples[0], samples[-1]
    reason = _cpu_unknown_reason(len(samples), last_at - first_at,
                                 last.cpu_seconds - first.cpu_seconds)
    cpu_cores = None if reason else (last.cpu_seconds - first.cpu_seconds) / (last_at - first_at)
    return ResourceUsage(cpu_cores=cpu_cores, memory_peak_bytes=peak, memory_mean_bytes=mean,
                         samples=len(samples), source=source, unavailable=reason)


def _cpu_unknown_reason(count: int, wall_s: float, cpu_s: float) -> str | None:
    if count < 2:
        return "only one sample: CPU use needs two"
    if wall_s <= 0:
        return "the samples span no time"
    if cpu_s < 0:
        return "the CPU counter went backwards (did the server restart?)"
    return None


class Sampler:
    """Samples a probe every interval_s on a background thread while the block runs, plus
    once on entry and once on exit. A failing probe never raises into the block: usage()
    then reports it as `unavailable`."""

    def __init__(self, probe: ResourceProbe, interval_s: float = DEFAULT_INTERVAL_S,
                 clock: Callable[[], float] = time.monotonic):
        self.probe, self.interval_s, self._clock = probe, interval_s, clock
        self._samples: list[tuple[float, ResourceSample]] = []
        self._failure: str | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="resource-sampler", daemon=True)

    def __enter__(self) -> Sampler:
        self._sample_once()
        self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self._stop.set()
        self._thread.join(timeout=self.interval_s + 10)
        if self._thread.is_alive():
            self._failure = self._failure or "the sampling thread did not stop"
        self._sample_once()

    def _loop(self) -> None:
        while not self._stop.wait(self.interval_s) and self._failure is None:
            self._sample_once()

    def _sample_once(self) -> None:
        if self._failure is not None:
            return
        try:
            self._samples.append((self._clock(), self.probe.read()))
        except Exception as error:  # a broken probe must never break the measured run
            self._failure = str(error) or type(error).__name__

    def usage(self) -> ResourceUsage:
        source = getattr(self.probe, "source", None)
        if self._failure is not None:
            return ResourceUsage(source=source, unavailable=self._failure)
        return summarize_samples(list(self._samples), source)
