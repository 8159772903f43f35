"""Commands run by the test hosts: every one with a timeout, failures raised with what
the command printed."""

from __future__ import annotations

import subprocess

DEFAULT_TIMEOUT_S = 30.0


class CommandFailed(RuntimeError):
    pass


def run(command: list[str], timeout: float = DEFAULT_TIMEOUT_S,
        check: bool = True, env: dict[str, str] | None = None
        ) -> subprocess.CompletedProcess[str]:
    """Runs a command to its end within `timeout` seconds; CommandFailed on a non-zero exit
    (when `check`) or on the timeout, naming the command and its output."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                              env=env)
    except subprocess.TimeoutExpired as expired:
        raise CommandFailed(f"{' '.join(command)}: no end after {timeout:.0f} s") from expired
    if check and done.returncode != 0:
        raise CommandFailed(f"{' '.join(command)}: exit {done.returncode}: "
                            f"{(done.stderr or done.stdout).strip()[-2000:]}")
    return done


def output(command: list[str], timeout: float = DEFAULT_TIMEOUT_S) -> str:
    return run(command, timeout).stdout


def in_netns(netns: str, command: list[str]) -> list[str]:
    """`command` run in a namespace's network only. Not `ip netns exec`: that also remounts
    /sys, where dockerd then finds no devices cgroup."""
    return ["nsenter", f"--net=/var/run/netns/{netns}", *command]
