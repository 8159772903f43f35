"""A stand-in for the docker CLI, enough for the stall meter on a load generator's engine:
`create` keeps the container's arguments, `start -a` runs its python3 command on this
machine (the meter, whose JSON goes to standard output as from a container), `kill
--signal TERM` signals it, `rm -f` removes it (killing what still runs). Each call is
logged with the DOCKER_HOST it was aimed at. With FAKE_DOCKER_REFUSE_REAL_TIME set, a
container created with --cpu-rt-runtime fails to start, as on an engine whose dockerd gives
no real-time time. Its state lives in FAKE_DOCKER_STATE.

Installed by `install(folder, state)`: an executable `docker` in folder, put first on PATH."""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path

REFUSED = ('Error response from daemon: failed to create shim task: unable to apply cgroup '
           'configuration: failed to write "50000": cpu.rt_runtime_us: invalid argument')


def _container(state: Path, name: str) -> Path:
    return state / f"{name}.json"


def _create(state: Path, arguments: list[str]) -> int:
    name = arguments[arguments.index("--name") + 1]
    entry = arguments.index("--entrypoint")
    _container(state, name).write_text(json.dumps({
        "options": arguments[:entry], "command": [arguments[entry + 1], *arguments[entry + 3:]]}))
    return 0


def _start(state: Path, name: str) -> int:
    container = json.loads(_container(state, name).read_text())
    if "--cpu-rt-runtime" in container["options"] and os.environ.get(
            "FAKE_DOCKER_REFUSE_REAL_TIME"):
        print(REFUSED, file=sys.stderr)
        return 1
    (state / f"{name}.pid").write_text(str(os.getpid()))
    command = container["command"]
    os.execve(sys.executable, [sys.executable, *command[1:]],  # keeps this pid
              {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])})


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
    if command == "create":
        return _create(state, rest)
    if command == "start":
        return _start(state, rest[-1])
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
