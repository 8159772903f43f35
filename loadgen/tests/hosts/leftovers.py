"""What a testbed run may leave behind, found by what is the run's own: its namespaces
(processes found by their network namespace, whatever their name), its root-side veths,
its directories (processes naming them, mounts under them, the directories themselves).

    python -m tests.hosts.leftovers          # lists what earlier runs left
    python -m tests.hosts.leftovers --clean  # and removes it (after a run killed by SIGKILL)
"""

from __future__ import annotations

import os
import shutil
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from tests.hosts.engines import mounts_under, unmount_under
from tests.hosts.plan import NAME_PREFIX, UPLINK
from tests.hosts.shell import output, run

DIR_PREFIX = "httplab-hosts-"
DIR_PARENTS = (Path("/run"), Path("/var/tmp"))  # short paths for sockets; data on disk


@dataclass(frozen=True)
class RunMarks:
    namespaces: tuple[str, ...]
    netns_inodes: tuple[int, ...]
    root_veths: tuple[str, ...]
    directories: tuple[Path, ...]


def netns_inode(netns: str) -> int:
    return os.stat(f"/var/run/netns/{netns}").st_ino


def _read(path: str) -> str:
    try:
        with open(path, "rb") as source:
            return source.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:  # the process ended meanwhile
        return ""


def _in_run_netns(pid: int, marks: RunMarks) -> bool:
    """In one of the run's namespaces. The inode alone is not enough: once a namespace is
    freed the kernel may give its number to a new one (another engine's container), so
    the namespace must also have the run's uplink interface."""
    try:
        inode = os.stat(f"/proc/{pid}/ns/net").st_ino
    except OSError:
        return False
    interfaces = [line.split(":")[0].strip()
                  for line in _read(f"/proc/{pid}/net/dev").splitlines() if ":" in line]
    return inode in marks.netns_inodes and UPLINK in interfaces


def processes_of(marks: RunMarks) -> dict[int, str]:
    """pid -> command line of every process in the run's namespaces or naming its
    directories (this process and its ancestors left out)."""
    own = {os.getpid(), os.getppid()}
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) in own:
            continue
        pid, command = int(entry.name), _read(f"/proc/{entry.name}/cmdline")
        if (_in_run_netns(pid, marks)
                or any(str(directory) in command for directory in marks.directories)):
            found[pid] = command.strip()
    return found


def end_processes(marks: RunMarks, grace_s: float = 10.0) -> list[str]:
    """SIGTERM, then after grace_s SIGKILL, to every process of the run; those that remain."""
    for sent in (signal.SIGTERM, signal.SIGKILL):
        for pid in processes_of(marks):
            try:
                os.kill(pid, sent)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + grace_s
        while processes_of(marks) and time.monotonic() < deadline:
            time.sleep(0.2)
    return [f"process {pid} still runs: {command}" for pid, command in processes_of(marks).items()]


def remove_directories(directories: tuple[Path, ...]) -> list[str]:
    """Removes the run's directories, but never one with something still mounted below it
    (removing files through a mount would delete what is mounted there)."""
    problems = unmount_under(*directories)
    still = mounts_under(*directories)
    if still:
        return problems + [f"not removing {', '.join(map(str, directories))}: still mounted: "
                           f"{', '.join(still)}"]
    for directory in directories:
        shutil.rmtree(directory, ignore_errors=True)
    return problems + [f"cannot remove {d}" for d in directories if d.exists()]


def leftovers(marks: RunMarks) -> list[str]:
    """Everything of the run still there, as text: empty when it left nothing."""
    namespaces = set(output(["ip", "netns", "list"]).split())
    found = [f"namespace {name}" for name in marks.namespaces if name in namespaces]
    found += [f"veth {name}" for name in marks.root_veths
              if run(["ip", "link", "show", name], check=False).returncode == 0]
    found += [f"process {pid}: {command}" for pid, command in processes_of(marks).items()]
    found += [f"mount {point}" for point in mounts_under(*marks.directories)]
    found += [f"directory {d}" for d in marks.directories if d.exists()]
    return found


def earlier_runs() -> RunMarks:
    """What earlier runs (killed before their teardown) left: namespaces named hl-*,
    root veths named hlr-*, and directories named httplab-hosts-*."""
    namespaces = tuple(name for name in output(["ip", "netns", "list"]).split()
                       if name.startswith(NAME_PREFIX))
    veths = tuple(line.split(":")[1].strip().split("@")[0]
                  for line in output(["ip", "-o", "link", "show"]).splitlines()
                  if line.split(":")[1].strip().startswith("hlr-"))
    directories = tuple(path for parent in DIR_PARENTS for path in parent.glob(DIR_PREFIX + "*"))
    return RunMarks(namespaces, tuple(netns_inode(name) for name in namespaces), veths,
                    directories)


def clean(marks: RunMarks) -> list[str]:
    problems = end_processes(marks)
    for name in marks.namespaces:
        problems += _problem(["ip", "netns", "delete", name])
    for name in marks.root_veths:
        problems += _problem(["ip", "link", "delete", name])
    return problems + remove_directories(marks.directories)


def _problem(command: list[str]) -> list[str]:
    done = run(command, check=False)
    return [done.stderr.strip()] if done.returncode != 0 else []


if __name__ == "__main__":
    found = leftovers(earlier_runs())
    print("\n".join(found) or "nothing left by earlier runs")
    if found and "--clean" in sys.argv:
        print("\n".join(clean(earlier_runs())) or "cleaned")
