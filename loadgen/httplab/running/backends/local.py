"""The local backend: servers as `java -jar` (the reference: its start script with the
host's nginx) and wrk as a process, all on this host."""

from __future__ import annotations

import functools
import os
import resource
import shlex
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import TextIO

from httplab.manifest import ServerManifest
from httplab.run_tls import RunTls
from httplab.running.tls.server_files import tls_environment
from httplab.running.process import ServerProcess, pin_to
from httplab.running.resources.probes import ProcProbe, ResourceProbe, UnavailableProbe
from httplab.checking.readiness import (READY_TIMEOUT_S, ServerProbes, answers_correctly,
                                        not_ready_reason, wait_until_ready)
from httplab.checking.conformance import Verification, verify_started
from httplab.checking.ready_line import StartupInfo
from httplab.model import Workload
from httplab.running.tools import command_output, java_version, wrk_version
from httplab.running.jdks import JdkNotFound, java_executable, server_jdk
from httplab.loadtools.wrk.command import JSON_PATH_VARIABLE, WrkRequest, wrk_arguments, wrk_time_limit_s
from httplab.running.backends.base import (H2LOAD_MISSING_HINT, OHA_MISSING, StartedServer,
                                           WrkOutcome, ensure_port_free, oha_version)
from httplab.running.backend_error import BackendError
from httplab.addresses import LOOPBACK
from httplab.loadtools.h2load.command import H2loadRequest, fairness_script_arguments, h2load_time_limit_s
from httplab.loadtools.h2load.measured_command import (H2loadRunRequest, h2load_run_arguments,
                                                       h2load_run_time_limit_s)
from httplab.loadtools.h2load.measured_run import TOOL as H2LOAD, summary_header
from httplab.loadtools.oha.command import OhaRequest, oha_arguments, oha_time_limit_s
from httplab.paths import ASYNC_PROFILER_LIB, FAIRNESS_SCRIPT, oha_binary
from httplab.running.backends.local_profiler import (JATTACH, LocalProfilerControl,
                                                     check_local_profiler)
from httplab.running.profiling.jvm import jvm_options
from httplab.running.database.base import ENV_HOST, ENV_NAME, ENV_PASSWORD, ENV_PORT, ENV_USER
from httplab.running.database.local import LocalDatabase
from httplab.running.io_uring.probe import tried
from httplab.running.io_uring.trial import probe_server, run_here, try_on_host

HOST_NGINX = Path("/usr/sbin/nginx")
H2LOAD_COMMAND = "h2load"  # on PATH: Debian's nghttp2-client
BUILD_JARS = "run `mvn -f servers/pom.xml package` (make jars)"
REFERENCE_START_SCRIPT = "start.sh"  # in servers/<name>/, beside the manifest
NGINX_MISSING = ("nginx not found at {path}: install Debian's nginx (`apt-get install "
                 "nginx-light`) to run the reference locally, or use BACKEND=docker")
# What a server speaks and its TLS files: only the harness's, never a stray one of the shell.
TLS_VARIABLES = ("PROTOCOL", "TLS_CERT", "TLS_KEY")
# The database settings a server reads: only the harness's, never a stray one of the shell.
DATABASE_VARIABLES = (ENV_HOST, ENV_PORT, ENV_NAME, ENV_USER, ENV_PASSWORD)
REFERENCE_NOT_PROBED = ("the /proc probe reads one process, and nginx serves from its "
                        "worker processes: BACKEND=docker measures the reference's CPU and memory")


def server_environment(manifest: ServerManifest, port: int,
                       extra: Mapping[str, str] | None = None,
                       tls: RunTls | None = None) -> dict[str, str]:
    """The environment a server gets: port, loopback bind, its manifest's JVM options, its
    protocol (with the run's TLS files over TLS), and extra (a database's variables)."""
    dropped = ("WORKERS", "EXECUTOR", "TRANSPORT", *TLS_VARIABLES, *DATABASE_VARIABLES)
    env = {key: value for key, value in os.environ.items() if key not in dropped}
    env.update(PORT=str(port), BIND_ADDRESS=LOOPBACK, JAVA_OPTS=jvm_options(manifest),
               PROTOCOL=manifest.protocol, **tls_environment(manifest, tls), **(extra or {}))
    if manifest.workers_variable:
        env["WORKERS"] = manifest.workers_variable
    if manifest.executor_variable:
        env["EXECUTOR"] = manifest.executor_variable
    if manifest.transport_variable:
        env["TRANSPORT"] = manifest.transport_variable
    return env


def java_command(java: str, manifest: ServerManifest, jar: Path) -> list[str]:
    return [java, *shlex.split(jvm_options(manifest)), "-jar", str(jar)]


def reference_command(script: Path) -> list[str]:
    return ["bash", str(script)]


def reference_environment(manifest: ServerManifest, port: int, nginx: Path,
                          runtime_dir: Path, extra: Mapping[str, str] | None = None,
                          tls: RunTls | None = None) -> dict[str, str]:
    """The reference's environment: a server's, plus its nginx and a directory for
    nginx's config, pid and temp files (see servers/nginx/start.sh)."""
    return {**server_environment(manifest, port, extra, tls), "HTTPLAB_NGINX": str(nginx),
            "HTTPLAB_RUNTIME_DIR": str(runtime_dir)}


Started = tuple[ServerProcess, StartupInfo | None, float | None]


@contextmanager
def run_jar(java: str, manifest: ServerManifest, jar: Path, port: int, cpus: str | None = None,
            timeout_s: float = READY_TIMEOUT_S, log_path: Path | None = None,
            environment: Mapping[str, str] | None = None,
            tls: RunTls | None = None) -> Iterator[Started]:
    """Starts a jar on 127.0.0.1:port with environment's variables beside its own, its
    output kept in log_path, and waits until it is ready (readiness.py); yields it with its
    ready line and the seconds until its first correct answer. It always stops the
    process, however the block ends."""
    with _run_ready(java_command(java, manifest, jar),
                    server_environment(manifest, port, environment, tls),
                    manifest, port, cpus, timeout_s, log_path, tls) as started:
        yield started


@contextmanager
def run_reference(manifest: ServerManifest, script: Path, port: int, cpus: str | None = None,
                  timeout_s: float = READY_TIMEOUT_S, log_path: Path | None = None,
                  nginx: Path = HOST_NGINX, environment: Mapping[str, str] | None = None,
                  tls: RunTls | None = None) -> Iterator[Started]:
    """run_jar for the reference: its start script runs nginx, whose files go to a
    temporary directory, removed once the server has stopped."""
    with tempfile.TemporaryDirectory(prefix="httplab-nginx-") as runtime_dir:
        env = reference_environment(manifest, port, nginx, Path(runtime_dir), environment, tls)
        with _run_ready(reference_command(script), env, manifest, port, cpus, timeout_s,
                        log_path, tls) as started:
            yield started


@contextmanager
def _run_ready(command: list[str], env: dict[str, str], manifest: ServerManifest, port: int,
               cpus: str | None, timeout_s: float, log_path: Path | None,
               tls: RunTls | None = None) -> Iterator[Started]:
    process = ServerProcess(command, env, cpus, log_path)
    try:
        probes = ServerProbes(lambda: answers_correctly(LOOPBACK, port, manifest.server_header,
                                                        manifest.protocol, tls),
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
    """Everything on this host: no other engine, wrk aimed at loopback."""

    name = "local"
    target_address = LOOPBACK
    server_engine = None
    load_generators: tuple = ()

    def __init__(self, servers_dir: Path, lua_script: Path, java: str | None = None,
                 wrk: str = "wrk",
                 ready_timeout_s: float = READY_TIMEOUT_S, nginx: Path = HOST_NGINX,
                 oha: str | None = None, jattach: str = JATTACH):
        self.servers_dir, self.lua_script = servers_dir, lua_script
        # None: each server on the host's JDK of its variant (running/jdks.py); a path: that
        # java for every server (the tests' stand-ins).
        self.java, self.wrk, self.ready_timeout_s = java, wrk, ready_timeout_s
        self.nginx = nginx
        # Default: the repository's `make oha` build (servers_dir is REPO/servers), else PATH's.
        self.oha = oha if oha is not None else oha_binary(servers_dir.parent)
        self._running: dict[int, ServerProcess] = {}
        self.database = LocalDatabase(servers_dir.parent / "database")
        # PROFILE=1: jattach loads the agent `make jars` unpacked into the java process.
        self.jattach, self.profiler_agent = jattach, servers_dir.parent / ASYNC_PROFILER_LIB
        self.tls: RunTls | None = None  # the run's TLS files, once use_tls() gave them

    def use_tls(self, tls: RunTls | None) -> None:
        self.tls = tls

    def check_available(self) -> None:
        tools = [(self.wrk, "install wrk (Debian: apt-get install wrk) or use BACKEND=docker")]
        if self.java is not None:
            tools.insert(0, (self.java, "install a JDK 17+ or use BACKEND=docker"))
        for tool, hint in tools:
            if shutil.which(tool) is None:
                raise BackendError(f"{tool} not found on PATH: {hint}")

    def check_engines(self) -> None:
        """Every engine is this host's: nothing to check."""

    def check_h2load(self) -> None:
        """Raises BackendError when h2load, make bench's tool for HTTP/2, is missing."""
        if shutil.which(H2LOAD_COMMAND) is None:
            raise BackendError(f"{H2LOAD_COMMAND} not found on PATH, and PROTOCOL h2c and h2 "
                               "need it: install Debian's nghttp2-client, or leave them out")

    def check_fairness_tools(self) -> None:
        for tool in (H2LOAD_COMMAND, "ss"):
            if shutil.which(tool) is None:
                raise BackendError(f"{tool} not found on PATH, and FAIRNESS=1 needs it: "
                                   f"{H2LOAD_MISSING_HINT}")

    def check_oha(self) -> None:
        if shutil.which(self.oha) is None:
            raise BackendError(OHA_MISSING)

    def check_profiler(self) -> None:
        check_local_profiler(self.jattach, self.profiler_agent)

    def profiler_control(self, started: StartedServer) -> LocalProfilerControl:
        if started.pid is None:
            raise BackendError(f"{started.manifest.key} has no process to profile")
        return LocalProfilerControl(self.jattach, started.pid, self.profiler_agent)

    def open_file_limit(self) -> int | None:
        """This process's limit, raised to its hard limit first: wrk and the servers inherit it."""
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft != hard:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        return None if hard == resource.RLIM_INFINITY else hard

    def verify(self, started: StartedServer,
               workloads: tuple[Workload, ...] = ()) -> Verification:
        return verify_started(started.startup, started.manifest, started.manifest.port,
                              workloads=workloads, tls=self.tls)

    def run_spread(self, request: WrkRequest, stem: Path, cpus: str | None = None) -> tuple:
        raise BackendError("BACKEND=local runs wrk on this host only: LOADGEN_HOSTS needs "
                           "BACKEND=docker")

    def engine_records(self) -> tuple:
        return ()

    def prepare(self, servers: tuple[ServerManifest, ...]) -> None:
        missing = [str(m.jar_path(self.servers_dir)) for m in servers
                   if m.is_maven_module and not m.jar_path(self.servers_dir).is_file()]
        if missing:
            raise BackendError(f"jar not built: {', '.join(missing)}; {BUILD_JARS}")
        if any(not m.is_maven_module for m in servers) and not self.nginx.is_file():
            raise BackendError(NGINX_MISSING.format(path=self.nginx))
        for manifest in servers:  # a JDK this host lacks stops the run here, before any load
            if manifest.is_maven_module:
                self._java_for(manifest)

    def try_io_uring(self, servers: tuple[ServerManifest, ...]) -> str:
        """TRANSPORT=io_uring's try: Netty's probe with the host's java and the Netty jar."""
        netty = probe_server(servers, self.servers_dir)
        jar = netty.jar_path(self.servers_dir)
        if not jar.is_file():
            raise BackendError(f"jar not built: {jar}, which holds the io_uring probe; "
                               f"{BUILD_JARS}")
        try_on_host(run_here, self._java_for(netty), jar)
        return tried(None)

    def _java_for(self, manifest: ServerManifest) -> str:
        """The java that runs this server: the host's JDK of its variant, or the one given."""
        if self.java is not None:
            return self.java
        try:
            return str(java_executable(server_jdk(manifest), self.servers_dir.parent))
        except JdkNotFound as error:
            raise BackendError(f"{manifest.key}: {error}") from error

    @contextmanager
    def serve(self, manifest: ServerManifest, cpus: str | None = None,
              log_path: Path | None = None, environment: Mapping[str, str] | None = None,
              ) -> Iterator[StartedServer]:
        ensure_port_free(manifest.port)
        with self._start(manifest, cpus, log_path, environment) as (process, startup, seconds):
            self._running[process.pid] = process
            java = self._java_version(self._java_for(manifest)) if manifest.is_maven_module \
                else None
            try:
                yield StartedServer(manifest, startup, seconds, java_version=java,
                                    pid=process.pid, log_path=log_path)
            finally:
                del self._running[process.pid]

    def _start(self, manifest: ServerManifest, cpus: str | None, log_path: Path | None,
               environment: Mapping[str, str] | None) -> AbstractContextManager[Started]:
        """A jar with java, or a server that is no Maven module (nginx) by its start script."""
        if manifest.is_maven_module:
            return run_jar(self._java_for(manifest), manifest, manifest.jar_path(self.servers_dir),
                           manifest.port, cpus, self.ready_timeout_s, log_path, environment,
                           self.tls)
        script = self.servers_dir / manifest.name / REFERENCE_START_SCRIPT
        return run_reference(manifest, script, manifest.port, cpus, self.ready_timeout_s,
                             log_path, self.nginx, environment, self.tls)

    def exit_status(self, started: StartedServer) -> str | None:
        process = self._running.get(started.pid or -1)
        if process is None or process.is_running():
            return None
        return f"the server exited with code {process.exit_code()}"

    def resource_probe(self, started: StartedServer) -> ResourceProbe:
        if not started.manifest.is_maven_module:
            return UnavailableProbe(REFERENCE_NOT_PROBED, source="/proc")
        # The blocking pool's threads, by name, counted in every sample ("": none counted).
        return ProcProbe(started.pid,
                         pool_prefix=started.manifest.live_thread_prefix)

    def run_wrk(self, request: WrkRequest, text_path: Path, json_path: Path,
                cpus: str | None = None) -> WrkOutcome:
        command = [self.wrk, *wrk_arguments(request, str(self.lua_script))]
        env = {**os.environ, JSON_PATH_VARIABLE: str(json_path)}
        with text_path.open("w") as text:
            return _run_timed(command, env, text, cpus, ("wrk", wrk_time_limit_s(request)))

    def run_h2load_bench(self, request: H2loadRunRequest, summary_path: Path,
                         cpus: str | None = None) -> WrkOutcome:
        """h2load once, the line naming its arguments then its output into summary_path."""
        arguments = h2load_run_arguments(request)
        with summary_path.open("w") as summary:
            summary.write(summary_header(arguments))
            summary.flush()  # before h2load writes after it through the same file
            return _run_timed([H2LOAD_COMMAND, *arguments], dict(os.environ), summary, cpus,
                              (H2LOAD, h2load_run_time_limit_s(request)))

    def run_oha(self, request: OhaRequest, json_path: Path,
                cpus: str | None = None) -> WrkOutcome:
        """oha once, its JSON summary (stdout) into json_path."""
        command = [self.oha, *oha_arguments(request)]
        with json_path.open("w") as summary:
            return _run_timed(command, dict(os.environ), summary, cpus,
                              ("oha", oha_time_limit_s(request)))

    def run_h2load(self, request: H2loadRequest, stem: Path, port: int,
                   cpus: str | None = None) -> WrkOutcome:
        command = ["sh", str(FAIRNESS_SCRIPT), *fairness_script_arguments(str(stem), request, port)]
        limit_s = h2load_time_limit_s(request)
        # Its own process group, ended whole: the script's h2load must not outlive it.
        script = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                  text=True, preexec_fn=pin_to(cpus), start_new_session=True)
        try:
            _, stderr = script.communicate(timeout=limit_s)
        except subprocess.TimeoutExpired:
            return WrkOutcome(-1, f"h2load did not finish within {limit_s} s")
        finally:
            _end_group(script)
        return WrkOutcome(script.returncode, stderr.strip())

    @functools.cache
    def _java_version(self, java: str) -> str | None:
        return java_version(java)

    def versions(self) -> dict[str, str | None]:
        return {"java": java_version(self.java or "java"), "wrk": wrk_version(self.wrk),
                "oha": oha_version(command_output([self.oha, "--version"]))}


def _run_timed(command: list[str], env: dict[str, str], stdout: TextIO, cpus: str | None,
               limit: tuple[str, int]) -> WrkOutcome:
    """A load tool as a process pinned to cpus, killed after its time limit; its CPU
    time is this process's children's, taken around it."""
    tool, limit_s = limit
    before = _children_cpu_seconds()
    try:
        completed = subprocess.run(command, env=env, stdout=stdout, stderr=subprocess.PIPE,
                                   text=True, timeout=limit_s, preexec_fn=pin_to(cpus))
    except subprocess.TimeoutExpired:
        return WrkOutcome(-1, f"{tool} did not finish within {limit_s} s")
    return WrkOutcome(completed.returncode, completed.stderr.strip(),
                      _children_cpu_seconds() - before)


def _end_group(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()


def _children_cpu_seconds() -> float:
    """CPU time of this process's finished children: around one wrk run, wrk's own."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime
