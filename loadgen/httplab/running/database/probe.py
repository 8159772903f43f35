"""The local database's CPU and memory: the postmaster and every process it started
(PostgreSQL's backends and workers are all its direct children), read from /proc."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from httplab.running.resources.parse import ResourceSample, SamplingError, parse_status_rss_bytes
from httplab.running.resources.probes import PROC, task_counts

TREE_SOURCE = "/proc (process tree)"


@dataclass(frozen=True)
class ProcStat:
    parent: int
    ticks: int  # utime + stime
    children_ticks: int  # cutime + cstime: of its children that have exited and been reaped


def parse_proc_stat(text: str) -> ProcStat:
    """The fields of a /proc/<pid>/stat line the tree's CPU needs."""
    # The command name (field 2) may hold spaces and parentheses: split after the last ')'.
    _, close, rest = text.rpartition(")")
    fields = rest.split()
    if not close or len(fields) < 15:
        raise SamplingError(f"unexpected /proc stat line: {text[:80]!r}")
    # fields[0] is field 3 of the whole line (state); ppid is field 4, utime..cstime 14..17.
    utime, stime, cutime, cstime = (int(value) for value in fields[11:15])
    return ProcStat(int(fields[1]), utime + stime, cutime + cstime)


def tree_cpu_ticks(root: ProcStat, children: list[ProcStat]) -> int:
    """The tree's CPU so far: each live process's own, plus what the root's reaped children
    used, so a backend that ends keeps counting."""
    return root.ticks + root.children_ticks + sum(child.ticks for child in children)


class ProcessTreeProbe:
    """A process and its direct children on this host, summed. Memory is the sum of their
    RSS, which counts shared buffers once per process that touched them: an upper bound."""

    source = TREE_SOURCE

    def __init__(self, pid: int, proc: Path = PROC):
        self.pid, self.proc = pid, proc
        self._ticks_per_second = os.sysconf("SC_CLK_TCK")

    def read(self) -> ResourceSample:
        root = self._stat(self.pid)
        if root is None:
            raise SamplingError(f"process {self.pid} has exited")
        children = self._children()
        pids = [self.pid, *children]
        memory = sum(self._rss(pid) for pid in pids)
        counts = task_counts(pids, self.proc)
        cpu_ticks = tree_cpu_ticks(root, list(children.values()))
        return ResourceSample(cpu_ticks / self._ticks_per_second, memory,
                              counts.context_switches, counts.threads)

    def _children(self) -> dict[int, ProcStat]:
        children = {}
        for entry in self.proc.iterdir():
            if entry.name.isdigit() and entry.name != str(self.pid):
                stat = self._stat(int(entry.name))
                if stat is not None and stat.parent == self.pid:
                    children[int(entry.name)] = stat
        return children

    def _stat(self, pid: int) -> ProcStat | None:
        """None for a process that has ended meanwhile."""
        try:
            return parse_proc_stat((self.proc / str(pid) / "stat").read_text())
        except OSError:
            return None

    def _rss(self, pid: int) -> int:
        try:
            return parse_status_rss_bytes((self.proc / str(pid) / "status").read_text())
        except (OSError, SamplingError):
            return 0  # ended meanwhile
