"""Pure parsers of /proc and cgroup files, and the sample a probe reads. No I/O."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path


class SamplingError(Exception):
    """A probe could not read its server's CPU or memory."""


@dataclass(frozen=True)
class ResourceSample:
    cpu_seconds: float  # cumulative since the server started
    memory_bytes: int  # at the moment of reading
    context_switches: int | None = None  # cumulative, over the threads alive now
    threads: int | None = None  # alive now
    taken_at_s: float | None = None  # when read, on the reader's own clock (else the sampler's)
    # Alive now whose name starts with the blocking pool's prefix; None: not counted
    pool_threads: int | None = None
    involuntary_switches: int | None = None  # of context_switches, those the kernel forced


@dataclass(frozen=True)
class HostCpu:
    """The host's cumulative CPU time from /proc/stat, in clock ticks."""

    busy_ticks: int
    total_ticks: int


def parse_host_cpu(stat_text: str) -> HostCpu:
    """The first "cpu" line of /proc/stat: busy is everything but idle and iowait."""
    for line in stat_text.splitlines():
        fields = line.split()
        if fields and fields[0] == "cpu":
            ticks = [int(value) for value in fields[1:9]]
            if len(ticks) < 5:
                break
            idle = ticks[3] + ticks[4]
            return HostCpu(sum(ticks) - idle, sum(ticks))
    raise SamplingError("no aggregate cpu line in /proc/stat")


_SWITCH_KEYS = ("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")


def parse_switch_counts(status_text: str) -> tuple[int, int]:
    """voluntary_ctxt_switches (the thread waited) and nonvoluntary_ctxt_switches (the
    kernel took its CPU away) from a /proc status file."""
    values = {}
    for line in status_text.splitlines():
        key, _, value = line.partition(":")
        if key in _SWITCH_KEYS:
            values[key] = int(value.strip())
    if len(values) != 2:
        raise SamplingError("no context switch counts in /proc status")
    voluntary, involuntary = (values[key] for key in _SWITCH_KEYS)
    return voluntary, involuntary


def parse_context_switches(status_text: str) -> int:
    """voluntary_ctxt_switches + nonvoluntary_ctxt_switches from a /proc status file."""
    return sum(parse_switch_counts(status_text))


COMM_LENGTH = 15  # the kernel keeps a thread's name (comm) to 15 bytes; Java's are cut there


def parse_thread_name(status_text: str) -> str | None:
    """The Name line of a /proc status file (the thread's comm, spaces kept), or None."""
    for line in status_text.splitlines():
        if line.startswith("Name:"):
            return line[len("Name:"):].removeprefix("\t")
    return None


def is_pool_thread(name: str | None, pool_prefix: str) -> bool:
    """Whether a thread's comm starts with the pool's prefix, cut as the kernel cuts names:
    "vert.x-worker-thread-3" is "vert.x-worker-t" there."""
    return name is not None and name.startswith(pool_prefix[:COMM_LENGTH])


@dataclass(frozen=True)
class ThreadCounts:
    """Over the threads whose status could be read; all None when none could."""

    context_switches: int | None = None
    threads: int | None = None
    pool_threads: int | None = None  # None also when no pool prefix was given
    involuntary_switches: int | None = None


def count_threads(statuses: Iterable[str], pool_prefix: str | None) -> ThreadCounts:
    """Context switches summed over these threads' status texts, the threads and, when a
    pool prefix is given, those of the pool. A status without its switch counts is of a
    thread that ended while being read: it no longer counts."""
    voluntary = involuntary = threads = pool = 0
    for status in statuses:
        try:
            counts = parse_switch_counts(status)
        except (SamplingError, ValueError):
            continue
        voluntary, involuntary = voluntary + counts[0], involuntary + counts[1]
        threads += 1
        if pool_prefix and is_pool_thread(parse_thread_name(status), pool_prefix):
            pool += 1
    if not threads:
        return ThreadCounts()
    return ThreadCounts(voluntary + involuntary, threads, pool if pool_prefix else None,
                        involuntary)


def _proc_stat_ticks(text: str, first_field: int) -> int:
    """The sum of fields first_field and the next (numbered from 1, as proc(5) does) of a
    /proc/<pid>/stat line, in clock ticks."""
    # The command name (field 2) may hold spaces and parentheses, so split after the last ')'.
    _, close, rest = text.rpartition(")")
    fields = rest.split()
    at = first_field - 3  # rest starts at field 3
    if not close or len(fields) < at + 2 or not all(f.isdigit() for f in fields[at:at + 2]):
        raise SamplingError(f"unexpected /proc stat line: {text[:80]!r}")
    return int(fields[at]) + int(fields[at + 1])


def parse_proc_stat_cpu_ticks(text: str) -> int:
    """utime + stime (fields 14 and 15), in clock ticks, from a /proc/<pid>/stat line."""
    return _proc_stat_ticks(text, 14)


def parse_proc_stat_children_ticks(text: str) -> int:
    """cutime + cstime (fields 16 and 17), in clock ticks, from a /proc/<pid>/stat line: the
    CPU time of the children the process waited for, and of theirs it waited for."""
    return _proc_stat_ticks(text, 16)


# The lines loadgen/cpu-times.sh writes: "<key> <value>".
CPU_TIMES_TICKS_KEY, CPU_TIMES_STAT_KEY = "clock_ticks_per_second", "stat"


def parse_cpu_times(text: str) -> float:
    """The load tool's CPU seconds (user + system, its children's included) from what
    loadgen/cpu-times.sh wrote once the tool had exited: its own stat line's children's
    ticks over the clock ticks a second."""
    lines = dict(line.partition(" ")[::2] for line in text.splitlines())
    ticks, stat = lines.get(CPU_TIMES_TICKS_KEY, "").strip(), lines.get(CPU_TIMES_STAT_KEY)
    if not ticks.isdigit() or int(ticks) == 0 or stat is None:
        raise SamplingError(f"not a cpu-times.sh record: {text[:80]!r}")
    return parse_proc_stat_children_ticks(stat) / int(ticks)


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


# --- A container read from inside by one `docker exec` (ExecProbe) -----------------------

EXEC_MARK = "@@httplab "  # starts the marker lines that the exec'd shell prints
EXEC_SAMPLER_MARK = "sampler"  # its line names the PIDs of the sampling shell itself
EXEC_THREADS_MARK = "threads"
EXEC_TIME_MARK = "time"
EXEC_V2_FILES = ("cpu.stat", "memory.current", "memory.stat")
EXEC_V1_FILES = ("cpuacct.usage", "memory.usage_in_bytes", "memory.stat")


def split_exec_output(text: str) -> tuple[dict[str, str], frozenset[int] | None]:
    """The sections of the exec'd shell's output by marker name, and the PIDs of the shell's
    own processes (None when their closing line is missing: the output was cut short)."""
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    sampler: frozenset[int] | None = None
    for line in text.splitlines():
        if not line.startswith(EXEC_MARK):
            if current is not None:
                current.append(line)
            continue
        name, *values = line[len(EXEC_MARK):].split()
        if name == EXEC_SAMPLER_MARK:
            sampler = frozenset(int(value) for value in values if value.isdigit())
        current = sections.setdefault(name, [])
    return {name: "\n".join(lines) for name, lines in sections.items()}, sampler


def exec_thread_counts(grep_text: str, excluded_pids: frozenset[int],
                       pool_prefix: str | None = None) -> ThreadCounts:
    """count_threads over `grep -H` lines such as
    "7/task/9/status:voluntary_ctxt_switches:\t12" or "7/task/9/status:Name:\tXNIO-1 task-3"
    (paths relative to /proc), leaving out the processes in excluded_pids. A thread missing
    a line ended while grep read it: it no longer counts, as in task_counts."""
    by_thread: dict[str, list[str]] = {}
    for line in grep_text.splitlines():
        path, _, status_line = line.partition(":")
        pid = path.split("/", 1)[0]
        if pid.isdigit() and int(pid) not in excluded_pids:
            by_thread.setdefault(path, []).append(status_line)
    return count_threads(("\n".join(lines) for lines in by_thread.values()), pool_prefix)


def _exec_section(sections: dict[str, str], name: str) -> str:
    text = sections.get(name, "")
    if not text.strip():
        raise SamplingError(f"the container printed no {name} (missing under /sys/fs/cgroup?)")
    return text


def _exec_cgroup(sections: dict[str, str]) -> tuple[int, float, int]:
    """The cgroup version, CPU seconds and working set from the cgroup files' sections."""
    if EXEC_V2_FILES[0] in sections:
        cpu, usage, stat = (_exec_section(sections, name) for name in EXEC_V2_FILES)
        return 2, parse_cpu_stat_seconds(cpu), working_set_bytes(usage, stat, "inactive_file")
    if EXEC_V1_FILES[0] in sections:
        cpu, usage, stat = (_exec_section(sections, name) for name in EXEC_V1_FILES)
        return (1, parse_cpuacct_usage_seconds(cpu),
                working_set_bytes(usage, stat, "total_inactive_file"))
    raise SamplingError("the container printed neither cgroup v2 cpu.stat nor cgroup v1 "
                        "cpuacct.usage")


def parse_exec_sample(text: str, pool_prefix: str | None = None) -> tuple[int, ResourceSample]:
    """The cgroup version and the sample in the output of ExecProbe's shell script, with
    the threads named with pool_prefix counted when given. Raises only SamplingError,
    saying what is missing."""
    sections, sampler_pids = split_exec_output(text)
    if sampler_pids is None:
        raise SamplingError("the container's output ended early (no sampler line)")
    try:
        version, cpu_seconds, memory = _exec_cgroup(sections)
    except ValueError as error:
        raise SamplingError(f"unexpected cgroup file contents: {error}") from error
    counts = exec_thread_counts(sections.get(EXEC_THREADS_MARK, ""), sampler_pids, pool_prefix)
    return version, ResourceSample(cpu_seconds, memory, counts.context_switches, counts.threads,
                                   _exec_time(sections.get(EXEC_TIME_MARK, "")),
                                   counts.pool_threads, counts.involuntary_switches)


def _exec_time(text: str) -> float:
    try:
        return float(text.strip())
    except ValueError:
        raise SamplingError(f"the container's clock did not answer: {text.strip()[:40]!r}") from None
