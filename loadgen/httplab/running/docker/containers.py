"""One docker command and what Docker says of a container or an image: `docker inspect`,
whether a container still runs or with which code it exited, whether an image is here or
can be pulled. Each failure to run a command raises the caller's error class."""

from __future__ import annotations

import subprocess

from httplab.running.backend_error import BackendError

STATE_TEMPLATE = "{{.State.Running}} {{.State.ExitCode}}"
PULL_TIMEOUT_S = 300


def run_docker(command: list[str], env: dict[str, str] | None = None, timeout: float = 120,
               error: type[Exception] = BackendError) -> subprocess.CompletedProcess[str]:
    """The command's result, whatever its exit code; `error` when it cannot run or hangs."""
    try:
        return subprocess.run(command, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as expired:
        raise error(f"`{' '.join(command[:6])} ...` did not finish in {timeout:g} s") from expired
    except OSError as failed:
        raise error(f"cannot run {command[0]}: {failed}") from failed


def inspect(target: str, template: str, env: dict[str, str] | None,
            error: type[Exception] = BackendError) -> str:
    """`docker inspect -f template target`, stripped; empty when Docker does not know it."""
    return run_docker(["docker", "inspect", "-f", template, target], env,
                      error=error).stdout.strip()


def stopped_exit_code(container: str, env: dict[str, str] | None,
                      error: type[Exception] = BackendError) -> str | None:
    """None while the container runs; else its exit code ("unknown" when Docker cannot
    say, e.g. once it is removed)."""
    state = inspect(container, STATE_TEMPLATE, env, error)
    if state.startswith("true"):
        return None
    return state.split()[-1] if state else "unknown"


def image_reachable(image: str, env: dict[str, str] | None = None,
                    error: type[Exception] = BackendError) -> bool:
    """The image is on this machine's engine, or can be pulled now."""
    if run_docker(["docker", "image", "inspect", image], env, error=error).returncode == 0:
        return True
    return run_docker(["docker", "pull", "-q", image], env, timeout=PULL_TIMEOUT_S,
                      error=error).returncode == 0
