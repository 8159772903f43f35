"""The docker backend's load generators on this machine: wrk, h2load (through
fairness.sh) and oha, each in a container of the wrk image that writes into the run's raw
folder and is removed whatever happens; and the versions of the tools in that image."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from httplab.running.backends.base import WrkOutcome, oha_version
from httplab.running.backends.docker_images import tail
from httplab.running.docker import compose as cmd
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
                limit: tuple[str, int]) -> WrkOutcome:
    """A load generator's container, named `name`; removed whatever happens."""
    tool, limit_s = limit
    try:
        completed = subprocess.run(command, env=env, stdout=stdout, stderr=subprocess.PIPE,
                                   text=True, timeout=limit_s)
    except subprocess.TimeoutExpired:
        return WrkOutcome(-1, f"{tool} did not finish within {limit_s} s")
    finally:
        command_output(["docker", "rm", "-f", name])
    return WrkOutcome(completed.returncode, tail(completed.stderr, 5))


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
