"""The docker backend's load generators on this machine: wrk, h2load (through
fairness.sh) and oha, each in a container of the wrk image that writes into the run's raw
folder and is removed whatever happens; each one's own CPU time; and the versions of the
tools in that image.

A tool's CPU time is read inside its container: loadgen/cpu-times.sh runs the tool as its
child, waits for it, and writes its own /proc stat line into the raw folder, whose
children's ticks (cutime + cstime) are the tool's user and system time with its own
children's (fairness.sh's h2load): what the local backend reads as the tool's parent, so
both backends give the same figure. Not the container's cgroup, read from here: `run --rm`
removes the container and its cgroup the moment the tool exits, so no reading after the
run could be sure to find it, and one just before the end would miss the end. The harness
reads the record and removes it. A record missing or unreadable (a tool killed at its time
limit) leaves cpu_seconds None, and the load tool's CPU is estimated as before, the host's
busy cores less the server's (measure.py, which says so as its loadgen_source)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from httplab.running.backends.base import WrkOutcome, oha_version
from httplab.running.backends.docker_images import tail
from httplab.running.docker import compose as cmd
from httplab.running.resources.parse import SamplingError, parse_cpu_times
from httplab.running.tools import command_output, first_line

UNPRIVILEGED_ID = 10001  # the user the lab's images run as


def loadgen_container_name() -> str:
    """One name per harness process, so an interrupted run's container can be removed."""
    return f"httplab-wrk-{os.getpid()}"


def loadgen_environment(raw_dir: Path, cpus: str | None) -> dict[str, str]:
    """What docker-compose.yml's wrk service reads: the raw folder, the user its files
    belong to, the CPUs it may use."""
    uid, gid = _wrk_user(raw_dir)
    return {"HTTPLAB_RAW_DIR": str(raw_dir.resolve()), "HTTPLAB_UID": str(uid),
            "HTTPLAB_GID": str(gid), "HTTPLAB_LOADGEN_CPUS": cpus or ""}


def run_loadgen(command: list[str], name: str, env: dict[str, str], stdout,
                limit: tuple[str, int], cpu_times: Path) -> WrkOutcome:
    """A load generator's container, named `name`; removed whatever happens. Its CPU time is
    what cpu-times.sh wrote to cpu_times (the command names it)."""
    tool, limit_s = limit
    cpu_times.unlink(missing_ok=True)  # an interrupted run's, never read as this one's
    try:
        completed = subprocess.run(command, env=env, stdout=stdout, stderr=subprocess.PIPE,
                                   text=True, timeout=limit_s)
    except subprocess.TimeoutExpired:
        completed = None
    finally:
        command_output(["docker", "rm", "-f", name])
    cpu_seconds = taken_cpu_seconds(cpu_times)
    if completed is None:
        return WrkOutcome(-1, f"{tool} did not finish within {limit_s} s")
    return WrkOutcome(completed.returncode, tail(completed.stderr, 5), cpu_seconds)


def taken_cpu_seconds(cpu_times: Path) -> float | None:
    """The tool's CPU seconds that cpu-times.sh wrote, its file removed once read; None when
    it wrote none or something else."""
    try:
        text = cpu_times.read_text()
    except OSError:
        return None
    cpu_times.unlink(missing_ok=True)
    try:
        return parse_cpu_times(text)
    except SamplingError:
        return None


def _wrk_user(raw_dir: Path) -> tuple[int, int]:
    """wrk writes its JSON as the calling user, so the files are theirs; never as root:
    a root caller lends the raw directory to the images' unprivileged user instead."""
    if os.getuid() != 0:
        return os.getuid(), os.getgid()
    os.chown(raw_dir, UNPRIVILEGED_ID, UNPRIVILEGED_ID)
    return UNPRIVILEGED_ID, UNPRIVILEGED_ID


def docker_versions(compose: list[str]) -> dict[str, str | None]:
    """Docker's client and engine, Compose, and wrk and oha as the wrk image holds them."""
    wrk = command_output(["docker", "run", "--rm", "--network", "none", cmd.WRK_IMAGE, "-v"])
    oha = command_output(["docker", "run", "--rm", "--network", "none",
                          "--entrypoint", cmd.OHA_IN_IMAGE, cmd.WRK_IMAGE, "--version"])
    return {"docker": first_line(command_output(["docker", "version", "--format",
                                                 "client {{.Client.Version}}, engine {{.Server.Version}}"])),
            "compose": first_line(command_output([*compose, "version"])),
            "wrk": first_line(wrk), "oha": oha_version(oha)}
