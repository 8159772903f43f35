"""Versions of the external tools a run used, for the results' record."""

from __future__ import annotations

import subprocess

from httplab.model import JAVA_VERSION_SEPARATOR


def command_output(command: list[str], timeout_s: float = 20.0,
                   env: dict[str, str] | None = None) -> str | None:
    """stdout+stderr of a short command (env: its whole environment, default this
    process's), or None when it cannot run."""
    try:
        completed = subprocess.run(command, capture_output=True, text=True, timeout=timeout_s,
                                   env=env)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return (completed.stdout + completed.stderr).strip() or None


def first_line(text: str | None) -> str | None:
    return text.splitlines()[0].strip() if text else None


def java_version(java: str | list[str] = "java", env: dict[str, str] | None = None) -> str | None:
    """'openjdk version "17.0.15" 2025-04-15' and the runtime line, joined. `java` may be
    a command prefix, such as `docker exec CONTAINER java` (with env aiming docker at an
    engine)."""
    output = command_output([*([java] if isinstance(java, str) else java), "-version"],
                            env=env)
    if not output:
        return None
    return JAVA_VERSION_SEPARATOR.join(line.strip() for line in output.splitlines()[:2])


def wrk_version(wrk: str = "wrk") -> str | None:
    """wrk has no --version; its usage text starts with the version line."""
    return first_line(command_output([wrk, "--version"]))
