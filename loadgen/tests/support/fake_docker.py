"""A stand-in for the docker CLI, enough for the stall meter on a load generator's engine:
`run --rm` runs the container's python3 command on this machine, attached (the meter,
whose JSON goes to standard output as from a container), and forgets the container when it
ends; `kill --signal TERM` signals it (ignored with FAKE_DOCKER_IGNORE_KILL set), `rm -f`
removes it (killing what still runs). Each
call is logged with the DOCKER_HOST it was aimed at. With FAKE_DOCKER_REFUSE_REAL_TIME set,
a container run with --cpu-rt-runtime fails to start, as on an engine whose dockerd gives
no real-time time. Its state (each container's options, its process) lives in
FAKE_DOCKER_STATE.

Installed by `install(folder, state)`: an executable `docker` in folder, put first on PATH."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

REFUSED = ('Error response from daemon: failed to create shim task: unable to apply cgroup '
           'configuration: failed to write "50000": cpu.rt_runtime_us: invalid argument')


def _container(state: Path, name: str) -> Path:
    return state / f"{name}.json"


def _run(state: Path, arguments: list[str]) -> int:
    """`run --rm --name NAME ... --entrypoint python3 IMAGE ARGS`: python3 ARGS on this
    machine, attached; the container's state gone when it ends."""
    name = arguments[arguments.index("--name") + 1]
    entry = arguments.index("--entrypoint")
    options, command = arguments[:entry], arguments[entry + 3:]
    if "--cpu-rt-runtime" in options and os.environ.get("FAKE_DOCKER_REFUSE_REAL_TIME"):
        print(f"docker: {REFUSED}.", file=sys.stderr)
        return 125
    if _container(state, name).exists():
        print(f"docker: Error response from daemon: Conflict: {name} is in use.", file=sys.stderr)
        return 125
    _container(state, name).write_text(json.dumps(options))
    try:
        process = subprocess.Popen([sys.executable, *command], stdin=subprocess.DEVNULL,
                                   env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])})
        (state / f"{name}.pid").write_text(str(process.pid))
        return process.wait()
    finally:
        _remove(state, name)


def _signal(state: Path, name: str, signum: int) -> int:
    pid_file = state / f"{name}.pid"
    if not pid_file.exists():
        return 1
    try:
        os.kill(int(pid_file.read_text()), signum)
    except ProcessLookupError:
        pass
    return 0


def _remove(state: Path, name: str) -> int:
    _signal(state, name, signal.SIGKILL)
    for path in (_container(state, name), state / f"{name}.pid"):
        path.unlink(missing_ok=True)
    return 0


def main(arguments: list[str]) -> int:
    state = Path(os.environ["FAKE_DOCKER_STATE"])
    with (state / "log").open("a") as log:
        log.write(json.dumps([os.environ.get("DOCKER_HOST", ""), *arguments]) + "\n")
    command, rest = arguments[0], arguments[1:]
    if command == "run":
        return _run(state, rest)
    if command == "kill" and os.environ.get("FAKE_DOCKER_IGNORE_KILL"):
        return 0  # as a container whose process does not end on the signal
    if command == "kill":
        return _signal(state, rest[-1], signal.Signals[f"SIG{rest[1]}"])
    if command == "rm":
        return _remove(state, rest[-1])
    print(f"fake docker: {command} is not faked", file=sys.stderr)
    return 1


def install(folder: Path, state: Path, monkeypatch) -> Path:
    """The fake as `docker` first on PATH; returns its log."""
    state.mkdir(parents=True, exist_ok=True)
    executable = folder / "docker"
    executable.write_text(f"#!{sys.executable}\nimport sys\nsys.path.insert(0, "
                          f"{str(Path(__file__).parents[2])!r})\n"
                          "from tests.support.fake_docker import main\n"
                          "sys.exit(main(sys.argv[1:]))\n")
    executable.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("FAKE_DOCKER_STATE", str(state))
    return state / "log"


def logged(log: Path) -> list[list[str]]:
    """Each call: [DOCKER_HOST, arguments...]."""
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
