"""Probes read one sample of a server's CPU and memory: a process from /proc, a
container from its cgroup, or from inside it with `docker exec` (a container on another
Docker engine); an UnavailableProbe says why there is none."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Protocol

from httplab.running.resources.parse import (CgroupLayout, HostCpu, ResourceSample, SamplingError,
                                             ThreadCounts, count_threads, parse_host_cpu,
                                             parse_cpu_stat_seconds, parse_cpuacct_usage_seconds,
                                             parse_exec_sample, parse_proc_stat_cpu_ticks,
                                             parse_status_rss_bytes, resolve_cgroup_layout,
                                             working_set_bytes)

PROC = Path("/proc")
CGROUP_V1, CGROUP_V2, PROC_SOURCE = "cgroup v1", "cgroup v2", "/proc"
EXEC_SOURCE = "docker exec"
EXEC_TIMEOUT_S = 30.0  # an exec over SSH on a machine that wrk and the server saturate


class ResourceProbe(Protocol):
    source: str

    def read(self) -> ResourceSample: ...


def _read_text(path: Path) -> str:
    try:
        return path.read_text()
    except OSError as error:
        raise SamplingError(f"cannot read {path}: {error.strerror or error}") from error


def _task_statuses(pids: list[int], proc: Path) -> Iterator[str]:
    """The status text of every thread of these processes; a thread (or process) that ends
    while being listed or read is skipped."""
    for pid in pids:
        try:
            tasks = list((proc / str(pid) / "task").iterdir())
        except OSError:
            continue
        for task in tasks:
            try:
                # A Java thread's name, cut at 15 bytes, may end inside a UTF-8 character.
                yield (task / "status").read_text(errors="replace")
            except OSError:
                continue


def task_counts(pids: list[int], proc: Path = PROC,
                pool_prefix: str | None = None) -> ThreadCounts:
    """Context switches summed over every thread of these processes, the thread count and,
    given a pool prefix, the threads named with it: one read of each thread's status."""
    return count_threads(_task_statuses(pids, proc), pool_prefix)


def read_host_cpu(proc: Path = PROC) -> HostCpu:
    return parse_host_cpu(_read_text(proc / "stat"))


class ProcProbe:
    """A process on this host (the local backend's JVM), all its threads included. Given a
    pool_prefix (a manifest's blocking_thread_prefix), each sample counts the threads whose
    name starts with it; without one (None or ""), pool_threads is None."""

    source = PROC_SOURCE

    def __init__(self, pid: int, proc: Path = PROC, *, pool_prefix: str | None = None):
        self.pid, self._dir, self.pool_prefix = pid, proc / str(pid), pool_prefix or None
        self._ticks_per_second = os.sysconf("SC_CLK_TCK")

    def read(self) -> ResourceSample:
        ticks = parse_proc_stat_cpu_ticks(_read_text(self._dir / "stat"))
        rss = parse_status_rss_bytes(_read_text(self._dir / "status"))
        counts = task_counts([self.pid], self._dir.parent, self.pool_prefix)
        return ResourceSample(ticks / self._ticks_per_second, rss, counts.context_switches,
                              counts.threads, pool_threads=counts.pool_threads,
                              involuntary_switches=counts.involuntary_switches)


class CgroupProbe:
    """A cgroup (the docker backend's container): every process in it, as `docker stats`;
    pool_prefix as for ProcProbe."""

    def __init__(self, layout: CgroupLayout, proc: Path = PROC, *,
                 pool_prefix: str | None = None):
        self.layout, self.proc, self.pool_prefix = layout, proc, pool_prefix or None
        self.source = CGROUP_V1 if layout.version == 1 else CGROUP_V2

    @classmethod
    def for_pid(cls, pid: int, proc: Path = PROC, *,
                pool_prefix: str | None = None) -> CgroupProbe:
        """The cgroup of a process, such as a container's main PID from `docker inspect`."""
        layout = resolve_cgroup_layout(_read_text(proc / str(pid) / "cgroup"),
                                       _read_text(proc / "self" / "mountinfo"))
        if not layout.cpu_dir.is_dir() or not layout.memory_dir.is_dir():
            raise SamplingError(f"cgroup directory missing: {layout.cpu_dir} or {layout.memory_dir}")
        return cls(layout, proc, pool_prefix=pool_prefix)

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
        counts = task_counts(pids, self.proc, self.pool_prefix)
        return ResourceSample(cpu_seconds, working_set, counts.context_switches, counts.threads,
                              pool_threads=counts.pool_threads,
                              involuntary_switches=counts.involuntary_switches)


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


def probe_for_container(container: str, pool_prefix: str | None = None) -> ResourceProbe:
    """A CgroupProbe for a running container, or an UnavailableProbe saying why not."""
    try:
        return CgroupProbe.for_pid(container_main_pid(container), pool_prefix=pool_prefix)
    except SamplingError as error:
        return UnavailableProbe(str(error), source="cgroup")


# Run by `docker exec CONTAINER sh -c` (POSIX sh). It prints, after a marker line each,
# the lines needed of the container's cgroup files, read by the shell's builtins, then one
# grep over every thread's status (its switch counts and its name; in the C locale, where a
# name cut inside a UTF-8 character is no "binary file"). The exec'd shell and that grep run in the container
# too: the last line names their PIDs ($$ and $!), which the parser leaves out. A lone
# "0::" line in /proc/self/cgroup is cgroup v2, where the directory is relative to the
# cgroup namespace's root ("/" by default); anything else is v1, where Docker mounts the
# container's own cpuacct and memory directories. The time, read just before the CPU
# counter on the container's own clock, dates the sample: an exec over SSH on a busy
# machine can take seconds, so the harness's clock would misdate it.
EXEC_SCRIPT = r"""
read -r first < /proc/self/cgroup
case $first in
  0::*) dir=/sys/fs/cgroup${first#0::}
        files="$dir/cpu.stat $dir/memory.current $dir/memory.stat" ;;
  *) files="/sys/fs/cgroup/cpuacct/cpuacct.usage /sys/fs/cgroup/memory/memory.usage_in_bytes
            /sys/fs/cgroup/memory/memory.stat" ;;
esac
echo "@@httplab time"
date +%s.%N
for file in $files; do
  echo "@@httplab ${file##*/}"
  while read -r key value; do
    case $key in usage_usec|inactive_file|total_inactive_file|[0-9]*) echo "$key $value" ;; esac
  done < "$file"
done
echo "@@httplab threads"
cd /proc || exit 1
LC_ALL=C grep -H -e ^Name: -e ^voluntary_ctxt_switches -e ^nonvoluntary_ctxt_switches \
  [0-9]*/task/[0-9]*/status &
wait $!
echo "@@httplab sampler $$ $!"
"""


def exec_probe_command(container: str) -> list[str]:
    return ["docker", "exec", container, "sh", "-c", EXEC_SCRIPT]


class ExecProbe:
    """A container on any Docker engine, read from inside by one `docker exec` per sample,
    for engines whose host files the harness cannot read. env is the docker command's
    whole environment (os.environ with the engine's DOCKER_HOST or DOCKER_CONTEXT), used
    as is. The exec'd shell's own CPU lands in the container's cgroup: on the lab's 2-core
    VM, two reads back to back on an idle Netty differ by 0.019 CPU seconds (0.015 of
    them runc's exec itself, as for `sh -c true`), so sampling every 0.5 s adds about
    0.04 cores to what the server is seen to use; a read takes about 0.1 s. pool_prefix as
    for ProcProbe."""

    # Read less often than a local probe, so its own cost stays near 0.01 cores; the
    # CPU figures need only the first and last reads.
    interval_s = 2.5

    def __init__(self, container: str, env: dict[str, str], timeout_s: float = EXEC_TIMEOUT_S,
                 *, pool_prefix: str | None = None):
        self.container, self.env, self.timeout_s = container, env, timeout_s
        self.pool_prefix = pool_prefix or None
        self.source = EXEC_SOURCE  # the cgroup version is added once a read has seen it

    def read(self) -> ResourceSample:
        command = exec_probe_command(self.container)
        try:
            completed = subprocess.run(command, env=self.env, capture_output=True, text=True,
                                       errors="replace", timeout=self.timeout_s)
        except subprocess.TimeoutExpired as error:
            raise SamplingError(f"docker exec in container {self.container[:12]} did not answer "
                                f"within {self.timeout_s:g} s") from error
        except OSError as error:
            raise SamplingError(f"cannot run docker exec: {error}") from error
        problem = completed.stderr.strip()[:200]
        if completed.returncode != 0:
            raise SamplingError(f"docker exec in {self.container} exited "
                                f"{completed.returncode}: {problem or 'no message'}")
        try:
            version, sample = parse_exec_sample(completed.stdout, self.pool_prefix)
        except SamplingError as error:
            raise SamplingError(f"{error}{f' ({problem})' if problem else ''}") from error
        self.source = f"{EXEC_SOURCE}, {CGROUP_V1 if version == 1 else CGROUP_V2}"
        return sample


def probe_for_remote_container(container: str, env: dict[str, str],
                               pool_prefix: str | None = None) -> ResourceProbe:
    """An ExecProbe for a running container on the engine env addresses, tried by one
    read, or an UnavailableProbe saying why not."""
    if not container:
        return UnavailableProbe("no container to read", source=EXEC_SOURCE)
    probe = ExecProbe(container, env, pool_prefix=pool_prefix)
    try:
        probe.read()
    except SamplingError as error:
        return UnavailableProbe(str(error), source=EXEC_SOURCE)
    return probe
