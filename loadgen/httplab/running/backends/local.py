"""The local backend: servers as `java -jar` and wrk as a process, all on this host."""

from __future__ import annotations

import functools
import os
import resource
import shlex
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from httplab.manifest import ServerManifest
from httplab.running.process import ServerProcess, pin_to
from httplab.running.resources.probes import ProcProbe
from httplab.checking.readiness import (READY_TIMEOUT_S, ServerProbes, answers_correctly,
                                        not_ready_reason, wait_until_ready)
from httplab.checking.ready_line import StartupInfo
from httplab.running.tools import java_version, wrk_version
from httplab.wrk.command import JSON_PATH_VARIABLE, WrkRequest, wrk_arguments, wrk_time_limit_s
from httplab.running.backends.base import (LOOPBACK, BackendError, StartedServer, WrkOutcome,
                                           ensure_port_free)

def server_environment(manifest: ServerManifest, port: int) -> dict[str, str]:
    """The environment a server gets: port, loopback bind, and its manifest's JVM options."""
    env = {key: value for key, value in os.environ.items() if key != "WORKERS"}
    env.update(PORT=str(port), BIND_ADDRESS=LOOPBACK, JAVA_OPTS=manifest.jvm_options)
    return env


def java_command(java: str, manifest: ServerManifest, jar: Path) -> list[str]:
    return [java, *shlex.split(manifest.jvm_options), "-jar", str(jar)]


@contextmanager
def run_jar(java: str, manifest: ServerManifest, jar: Path, port: int, cpus: str | None = None,
            timeout_s: float = READY_TIMEOUT_S, log_path: Path | None = None,
            ) -> Iterator[tuple[ServerProcess, StartupInfo | None, float | None]]:
    """Starts a jar on 127.0.0.1:port, its output kept in log_path, and waits until it is
    ready (readiness.py); yields it with its ready line and the seconds until its first
    correct answer. It always stops the process, however the block ends."""
    process = ServerProcess(java_command(java, manifest, jar), server_environment(manifest, port),
                            cpus, log_path)
    try:
        probes = ServerProbes(lambda: answers_correctly(LOOPBACK, port, manifest.server_header),
                              process.output, process.is_running)
        readiness = wait_until_ready(probes, timeout_s)
        if not readiness.ready:
            process.stop()
            exit_note = f" with code {process.exit_code()}"
            reason = not_ready_reason(readiness, timeout_s, process.output(), exit_note)
            raise BackendError(f"{manifest.name} {reason}")
        yield process, readiness.startup, readiness.first_answer_s
    finally:
        process.stop()


class LocalBackend:
    name = "local"

    def __init__(self, servers_dir: Path, lua_script: Path, java: str = "java", wrk: str = "wrk",
                 ready_timeout_s: float = READY_TIMEOUT_S):
        self.servers_dir, self.lua_script = servers_dir, lua_script
        self.java, self.wrk, self.ready_timeout_s = java, wrk, ready_timeout_s
        self._running: dict[int, ServerProcess] = {}

    def check_available(self) -> None:
        for tool, hint in ((self.java, "install a JDK 17+ or use BACKEND=docker"),
                           (self.wrk, "install wrk (Debian: apt-get install wrk) or use BACKEND=docker")):
            if shutil.which(tool) is None:
                raise BackendError(f"{tool} not found on PATH: {hint}")

    def prepare(self, servers: tuple[ServerManifest, ...]) -> None:
        missing = [str(m.jar_path(self.servers_dir)) for m in servers
                   if not m.jar_path(self.servers_dir).is_file()]
        if missing:
            raise BackendError(f"jar not built: {', '.join(missing)}; run "
                               f"`mvn -f servers/pom.xml package` (make jars)")

    @contextmanager
    def serve(self, manifest: ServerManifest, cpus: str | None = None,
              log_path: Path | None = None) -> Iterator[StartedServer]:
        ensure_port_free(manifest.port)
        jar = manifest.jar_path(self.servers_dir)
        with run_jar(self.java, manifest, jar, manifest.port, cpus, self.ready_timeout_s,
                     log_path) as (process, startup, seconds):
            self._running[process.pid] = process
            try:
                yield StartedServer(manifest, startup, seconds, java_version=self._java_version(),
                                    pid=process.pid, log_path=log_path)
            finally:
                del self._running[process.pid]

    def exit_status(self, started: StartedServer) -> str | None:
        process = self._running.get(started.pid or -1)
        if process is None or process.is_running():
            return None
        return f"the server exited with code {process.exit_code()}"

    def resource_probe(self, started: StartedServer) -> ProcProbe:
        return ProcProbe(started.pid)

    def run_wrk(self, request: WrkRequest, text_path: Path, json_path: Path,
                cpus: str | None = None) -> WrkOutcome:
        command = [self.wrk, *wrk_arguments(request, str(self.lua_script))]
        env = {**os.environ, JSON_PATH_VARIABLE: str(json_path)}
        before = _children_cpu_seconds()
        with text_path.open("w") as text:
            try:
                completed = subprocess.run(command, env=env, stdout=text, stderr=subprocess.PIPE,
                                           text=True, timeout=wrk_time_limit_s(request),
                                           preexec_fn=pin_to(cpus))
            except subprocess.TimeoutExpired:
                return WrkOutcome(-1, f"wrk did not finish within {wrk_time_limit_s(request)} s")
        return WrkOutcome(completed.returncode, completed.stderr.strip(),
                          _children_cpu_seconds() - before)

    @functools.cache
    def _java_version(self) -> str | None:
        return java_version(self.java)

    def versions(self) -> dict[str, str | None]:
        return {"java": java_version(self.java), "wrk": wrk_version(self.wrk)}


def _children_cpu_seconds() -> float:
    """CPU time of this process's finished children: around one wrk run, wrk's own."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime
