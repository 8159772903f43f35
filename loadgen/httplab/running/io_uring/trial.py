"""The try itself, once per run that asks io_uring, before any load: the probe in a
throwaway container of the Netty image (no network, removed after) under the engine's
default seccomp profile and, if that refuses io_uring, under the shipped one; or, with
BACKEND=local, with the host's java and the Netty jar. `run` runs one command and returns
what it did (docker aimed at the server's engine, or a process here): tests give a stand-in."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from httplab.manifest import ServerManifest, discover
from httplab.model import ENGINE_SECCOMP
from httplab.running.backend_error import BackendError
from httplab.running.docker.compose import JAR_IN_IMAGE
from httplab.running.io_uring.probe import (KERNEL_SETTING_FILE, PROBE_SERVER, ProbeAnswer,
                                            probe_arguments, read_answer,
                                            refused_in_containers, refused_on_host)

Run = Callable[[list[str]], "subprocess.CompletedProcess[str]"]
PROBE_TIMEOUT_S = 60


def probe_server(servers: tuple[ServerManifest, ...], servers_dir: Path) -> ServerManifest:
    """The server whose jar carries the probe: the run's own (its JDK's jar or image is
    there already), else its manifest as found in servers/."""
    return next((server for server in servers if server.name == PROBE_SERVER), None) or \
        next(server for server in discover(servers_dir) if server.name == PROBE_SERVER)


def run_here(command: list[str]) -> subprocess.CompletedProcess[str]:
    """One command on this host, its output captured; BackendError when it cannot run."""
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=PROBE_TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise BackendError(f"the io_uring probe could not run: {error}") from error


def container_command(image: str, seccomp: Path | None, *command: str) -> list[str]:
    """`docker run` of command in a throwaway container of image, without a network, under
    the seccomp profile at `seccomp` (None: the engine's own). The docker CLI reads the
    file itself and sends its content, so the path is this machine's."""
    profile = ["--security-opt", f"seccomp={seccomp}"] if seccomp else []
    return ["docker", "run", "--rm", "--network", "none", *profile,
            "--entrypoint", command[0], image, *command[1:]]


def probe_in_container(run: Run, image: str, seccomp: Path | None = None) -> ProbeAnswer:
    done = run(container_command(image, seccomp, "java", *probe_arguments(JAR_IN_IMAGE)))
    return read_answer(done.returncode, done.stdout, done.stderr)


def try_in_containers(run: Run, image: str, shipped: Path) -> str:
    """The seccomp profile io_uring cells run under: ENGINE_SECCOMP when the engine's own
    allows io_uring, else the shipped file's name; BackendError (one line naming the
    setting) when that refuses it too."""
    if probe_in_container(run, image).available:
        return ENGINE_SECCOMP
    answer = probe_in_container(run, image, shipped)
    if answer.available:
        return shipped.name
    # Read inside a container: the engine's host, wherever that is (SERVER_HOST).
    setting = run(container_command(image, None, "cat", KERNEL_SETTING_FILE))
    raise BackendError(refused_in_containers(
        answer.cause, setting.stdout if setting.returncode == 0 else None))


def try_on_host(run: Run, java: str, jar: Path,
                kernel_setting_file: Path = Path(KERNEL_SETTING_FILE)) -> None:
    """BackendError (one line naming the setting) when io_uring cannot start on this host."""
    done = run([java, *probe_arguments(str(jar))])
    answer = read_answer(done.returncode, done.stdout, done.stderr)
    if not answer.available:
        setting = kernel_setting_file.read_text() if kernel_setting_file.is_file() else None
        raise BackendError(refused_on_host(answer.cause, setting))
