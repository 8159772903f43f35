"""The docker backend: each server in turn and wrk in containers from docker-compose.yml,
on host networking, so load stays on the target address (127.0.0.1 unless TARGET_ADDRESS says
otherwise) as in the original benchmark. The file's
one `server` service becomes the server that HTTPLAB_SERVER names. Here: the server's
container (start, readiness, stop, its log, its state) and the checks; its images are
docker_images.py's, the load generators on this machine docker_loadgen.py's, on several
engines generators.py's."""

from __future__ import annotations

import copy
import os
import subprocess
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from httplab.addresses import LOOPBACK
from httplab.checking.conformance import (Verification, checks_wait_s, verify_started,
                                          with_ready_line)
from httplab.checking.readiness import (READY_TIMEOUT_S, Readiness, ServerProbes,
                                        answers_correctly, not_ready_reason, wait_until_ready)
from httplab.checking.ready_line import StartupInfo
from httplab.loadtools.h2load.command import (H2loadRequest, fairness_script_arguments,
                                              h2load_time_limit_s)
from httplab.loadtools.h2load.measured_command import (H2loadRunRequest, h2load_run_arguments,
                                                       h2load_run_time_limit_s)
from httplab.loadtools.h2load.measured_run import TOOL as H2LOAD, summary_header
from httplab.loadtools.oha.command import OhaRequest, oha_arguments, oha_time_limit_s
from httplab.loadtools.wrk.command import WrkRequest, wrk_arguments, wrk_time_limit_s
from httplab.manifest import ServerManifest
from httplab.model import ENGINE_SECCOMP, EngineRecord, Workload
from httplab.paths import servers_dir
from httplab.run_tls import RunTls
from httplab.outcomes import GeneratorOutcome
from httplab.running.backend_error import BackendError
from httplab.running.backends.base import StartedServer, WrkOutcome, ensure_port_free
from httplab.running.backends.docker_images import DockerImages, tail
from httplab.running.base_images import server_image
from httplab.running.backends.docker_loadgen import (docker_versions, loadgen_container_name,
                                                     loadgen_environment, run_loadgen,
                                                     UNPRIVILEGED_ID)
from httplab.running.backends.docker_profiler import DockerProfilerControl
from httplab.running.tls.server_files import tls_environment
from httplab.running.backends.generators import run_generators
from httplab.running.backends.remote_checks import (ANSWER_PROBE_TIMEOUT_S,
                                                    CONFORMANCE_TIMEOUT_S, RemoteCheckError,
                                                    answer_probe_command, conformance_command,
                                                    verification_from_output)
from httplab.running.database.docker import DockerDatabase, server_database_environment
from httplab.running.docker import compose as cmd
from httplab.running.docker.containers import inspect, run_docker, stopped_exit_code
from httplab.running.docker.remote import engine_env, inspect_engine
from httplab.running.engines import Engine, Topology
from httplab.running.io_uring.probe import SHIPPED_PROFILE, seccomp_of, tried
from httplab.running.io_uring.trial import probe_server, try_in_containers
from httplab.running.jdks import server_jdk
from httplab.running.process import ServerProcess
from httplab.running.profiling.jvm import jvm_options
from httplab.running.resources.probes import (ResourceProbe, probe_for_container,
                                              probe_for_remote_container)
from httplab.running.tools import command_output, java_version
from httplab.run_layout import H2LOAD_RUN_SUFFIX, JSON_SUFFIX, OHA_SUFFIX, RunFiles

WAYS_ON = ("Either install and start Docker (README, \"Installing Docker on Debian\": "
           "`apt-get install docker.io docker-compose` then `dockerd &` or `systemctl start "
           "docker`), or run without containers: `make bench BACKEND=local` (needs a JDK 17+ "
           "and wrk on this host)")
LOG_FOLLOW_GRACE_S = 5.0  # `docker logs -f` ends by itself once the container is gone


# Where docker-compose.yml mounts the run's TLS folder in the server's container.
TLS_MOUNT = Path("/run/httplab-tls")
NOT_ROOT_FOR_TLS = ("a protocol over TLS in Docker needs root here: the run's key, readable "
                    "by its owner alone, is handed to the containers' user "
                    f"{UNPRIVILEGED_ID}; run as root, or use BACKEND=local")


def give_to_container_user(tls: RunTls) -> None:
    """The run's TLS folder and files owned by the user the server's container runs as,
    the key still readable by its owner alone; BackendError when this user cannot."""
    if os.geteuid() != 0:
        raise BackendError(NOT_ROOT_FOR_TLS)
    for path in (tls.directory, tls.ca_file, tls.certificate_file, tls.key_file):
        os.chown(path, UNPRIVILEGED_ID, UNPRIVILEGED_ID)


class DockerBackend:
    name = "docker"

    def __init__(self, repo: Path, base_images: str = "auto", compose: str | None = None,
                 ready_timeout_s: float = READY_TIMEOUT_S, topology: Topology | None = None):
        self.repo = repo.resolve()
        self.images = DockerImages(self.repo, base_images)
        self.ready_timeout_s = ready_timeout_s
        self.preferred_compose = compose
        self.compose: list[str] = []
        self.serving: str | None = None  # the server whose container is up, for wrk's runs
        # The Compose variables naming the image of the server that is up (its JDK's).
        self.serving_image: dict[str, str] = {}
        # Other machines' engines (issue 11); None: everything on this machine's engine.
        self.server_engine: Engine | None = topology.server if topology else None
        self.load_generators: tuple[Engine, ...] = topology.generators if topology else ()
        self.target_address = topology.target_address if topology else LOOPBACK
        self.engines: list[EngineRecord] = []  # every other engine's machine, for the record
        # The seccomp profile io_uring cells run under: the engine's own until
        # try_io_uring() finds that it blocks io_uring, then the shipped one's file name.
        self.io_uring_seccomp = ENGINE_SECCOMP
        # On the server's engine, so that the server reaches it on its own loopback.
        self.database = DockerDatabase(self.repo, base_images, compose, self.server_engine)
        self.tls: RunTls | None = None  # the run's TLS files, once use_tls() gave them
        self.project = cmd.PROJECT  # the Compose project of the server's container

    def beside(self, project: str) -> DockerBackend:
        """This backend for a second server up at the same time, in a Compose project of its
        own (make pairing-study's other side): the same images, Compose and TLS files."""
        twin = copy.copy(self)
        twin.project, twin.serving, twin.serving_image = project, None, {}
        return twin

    def use_tls(self, tls: RunTls | None) -> None:
        """The run's TLS files, handed to the containers' user (the key stays readable by
        its owner alone): only root may give a file away."""
        if tls is not None:
            give_to_container_user(tls)
        self.tls = tls

    def check_available(self) -> None:
        if command_output(["docker", "--version"]) is None:
            raise BackendError(f"docker not found. {WAYS_ON}")
        info = run_docker(["docker", "info", "--format", "{{.ServerVersion}}"], timeout=30)
        if info.returncode != 0:
            raise BackendError("no Docker engine answers (is dockerd running, and may this user "
                               f"use it? docker said: {first_line(info.stderr) or 'nothing'}). "
                               f"{WAYS_ON}")
        compose = cmd.detect_compose(self.preferred_compose)
        if compose is None:
            raise BackendError("Docker Compose not found: install the compose plugin "
                               "(`docker compose`) or docker-compose v1.29, or use BACKEND=local")
        self.compose = compose

    def check_engines(self) -> None:
        """Each other engine answers and keeps time with this machine, before any load."""
        roles = ([(self.server_engine, "server")] if self.server_engine else []) + \
            [(engine, "load generator") for engine in self.load_generators]
        self.engines = [inspect_engine(engine, role) for engine, role in roles]

    def prepare(self, servers: tuple[ServerManifest, ...]) -> None:
        """Every server's image on the JDK it runs on (its variant's), and wrk's; sent to
        the other engines."""
        self.images.build_all(self.compose, servers, self._env)
        images = dict.fromkeys(server_image(server, server_jdk(server)) for server in servers)
        wanted = [(self.server_engine, image) for image in images] if self.server_engine else []
        self.images.ship(wanted + [(engine, cmd.WRK_IMAGE) for engine in self.load_generators])

    def try_io_uring(self, servers: tuple[ServerManifest, ...]) -> str:
        """TRANSPORT=io_uring's try, after prepare(): Netty's probe in throwaway containers
        on the server's engine; keeps the profile io_uring cells run under, and says it."""
        self.io_uring_seccomp = try_in_containers(
            lambda command: run_docker(command, self._on_server_engine()),
            self._probe_image(servers), self.repo / SHIPPED_PROFILE)
        return tried(self.io_uring_seccomp)

    def _probe_image(self, servers: tuple[ServerManifest, ...]) -> str:
        """The Netty image on the server's engine: prepare()'s, else built and sent now."""
        netty = probe_server(servers, servers_dir(self.repo))
        image = server_image(netty, server_jdk(netty))
        if netty not in servers:
            self.images.build_server(self.compose, netty, server_jdk(netty), self._env(netty.name))
            self.images.ship([(self.server_engine, image)] if self.server_engine else [])
        return image

    def _env(self, server: str, **extra: str) -> dict[str, str]:
        """The Compose command's environment, with `server` as the file's server (and the
        image of the JDK it is served on, while it is up)."""
        return {**os.environ, **self.images.build_args, **self.server_environment(server),
                **self.serving_image, **extra}

    def _server_env(self, server: str, **extra: str) -> dict[str, str]:
        """The same, aimed at the engine that runs the server (SERVER_HOST, if set)."""
        engine = self.server_engine.environment() if self.server_engine else {}
        return {**self._env(server, **extra), **engine}

    def _on_server_engine(self) -> dict[str, str]:
        return engine_env(self.server_engine)

    def server_environment(self, server: str) -> dict[str, str]:
        return self.images.server_environment(server)

    @contextmanager
    def serve(self, manifest: ServerManifest, cpus: str | None = None,
              log_path: Path | None = None, environment: Mapping[str, str] | None = None
              ) -> Iterator[StartedServer]:
        """The server's container from the image of the JDK it runs on (built in prepare())."""
        jdk = server_jdk(manifest)
        if self.server_engine is None:
            ensure_port_free(manifest.port, self.target_address)
        follower: ServerProcess | None = None
        container: str | None = None
        self.serving = manifest.name
        self.serving_image = self.images.image_environment(manifest, jdk)
        try:
            seccomp = seccomp_of(manifest, self.io_uring_seccomp)
            container, up_seconds = self._start(manifest, cpus, environment, seccomp)
            # `docker logs -f` gives everything from the container's start, then follows it.
            follower = ServerProcess(["docker", "logs", "-f", container],
                                     self._on_server_engine(), log_path=log_path)
            readiness = self._wait_ready(manifest, container, follower)
            yield replace(self._describe(manifest, server_image(manifest, jdk), container,
                                         up_seconds + (readiness.first_answer_s or 0),
                                         readiness.startup, log_path), seccomp=seccomp)
        finally:
            self._down(manifest.name, container)
            self.serving, self.serving_image = None, {}
            if follower is not None:
                follower.stop(let_finish_s=LOG_FOLLOW_GRACE_S)

    def _down(self, server: str, container: str | None) -> None:
        """Compose's down; where it failed or hung (a busy engine's "context deadline
        exceeded"), the container removed by its id, so that no server outlives its start
        and holds the port the next one needs."""
        try:
            removed = run_docker(cmd.down_command(self.compose, self.repo, self.project),
                                 self._server_env(server)).returncode == 0
        except BackendError:
            removed = False
        if not removed and container is not None:
            run_docker(["docker", "rm", "-f", container], self._server_env(server))

    def _start(self, manifest: ServerManifest, cpus: str | None,
               environment: Mapping[str, str] | None, seccomp: str = ENGINE_SECCOMP
               ) -> tuple[str, float]:
        """Starts the container under the seccomp profile named (the engine's own, or the
        shipped one's file name); returns its id and the seconds `up` took."""
        started_at = time.monotonic()
        shipped = None if seccomp == ENGINE_SECCOMP else self.repo / SHIPPED_PROFILE
        up = run_docker(cmd.up_command(self.compose, self.repo, seccomp=shipped is not None,
                                       project=self.project),
                  self._server_env(manifest.name, JAVA_OPTS=jvm_options(manifest),
                                   HTTPLAB_PORT=str(manifest.port),
                                   HTTPLAB_SERVER_CPUS=cpus or "",
                                   HTTPLAB_WORKERS=manifest.workers_variable,
                                   HTTPLAB_EXECUTOR=manifest.executor_variable,
                                   HTTPLAB_TRANSPORT=manifest.transport_variable,
                                   **self._protocol_environment(manifest),
                                   HTTPLAB_BIND_ADDRESS=self.target_address,
                                   **cmd.seccomp_environment(shipped),
                                   **server_database_environment(environment)))
        if up.returncode != 0:
            raise BackendError(f"cannot start {manifest.name}: {tail(up.stderr, 5)}")
        return self._container_id(manifest.name), time.monotonic() - started_at

    def _protocol_environment(self, manifest: ServerManifest) -> dict[str, str]:
        """What docker-compose.yml gives the server as PROTOCOL, TLS_CERT and TLS_KEY, and
        the run's TLS folder it mounts at TLS_MOUNT (over TLS only)."""
        files = tls_environment(manifest, self.tls, TLS_MOUNT)
        folder = {"HTTPLAB_TLS_DIR": str(self.tls.directory)} if files and self.tls else {}
        return {"HTTPLAB_PROTOCOL": manifest.protocol, **folder,
                **{f"HTTPLAB_{name}": value for name, value in files.items()}}

    def _wait_ready(self, manifest: ServerManifest, container: str,
                    follower: ServerProcess) -> Readiness:
        probes = ServerProbes(lambda: self._answers(manifest, container), follower.output,
                              lambda: self._is_running(container))
        readiness = wait_until_ready(probes, self.ready_timeout_s)
        if not readiness.ready:
            code = stopped_exit_code(container, self._on_server_engine()) or "unknown"
            exit_note = f" with code {code}"
            raise BackendError(f"{manifest.name} " + not_ready_reason(
                readiness, self.ready_timeout_s, follower.output(), exit_note))
        return readiness

    def _answers(self, manifest: ServerManifest, container: str) -> bool:
        """Does the server answer GET / correctly yet? Asked from here when the server runs
        on this machine, else from inside its container (this machine may not reach it)."""
        if self.server_engine is None:
            return answers_correctly(self.target_address, manifest.port, manifest.server_header,
                                     manifest.protocol, self.tls)
        probe = answer_probe_command(container, self.target_address, manifest.port)
        return run_docker(probe, self._on_server_engine(),
                          ANSWER_PROBE_TIMEOUT_S).returncode == 0

    def _describe(self, manifest: ServerManifest, image: str, container: str,
                  startup_seconds: float, startup: StartupInfo | None,
                  log_path: Path | None) -> StartedServer:
        # nginx's image may hold a JRE (the local base image has one), which it does not run.
        java = (java_version(["docker", "exec", container, "java"], self._on_server_engine())
                if manifest.is_maven_module else None)
        size = self._inspect(image, "{{.Size}}")
        return StartedServer(manifest, startup, startup_seconds,
                             int(size) if size.isdigit() else None, java,
                             self._inspect(image, "{{.Id}}") or None, container=container,
                             log_path=log_path)

    def _inspect(self, target: str, template: str) -> str:
        return inspect(target, template, self._on_server_engine())

    def _is_running(self, container: str) -> bool:
        return stopped_exit_code(container, self._on_server_engine()) is None

    def exit_status(self, started: StartedServer) -> str | None:
        code = stopped_exit_code(started.container or "", self._on_server_engine())
        return None if code is None else f"the server's container stopped (exit code {code})"

    def resource_probe(self, started: StartedServer) -> ResourceProbe:
        # The blocking pool's threads, by name, counted in every sample ("": none counted).
        pool_prefix = started.manifest.live_thread_prefix
        if self.server_engine is not None:
            return probe_for_remote_container(started.container or "", self._on_server_engine(),
                                              pool_prefix)
        return probe_for_container(started.container or "", pool_prefix)

    def _container_id(self, server: str) -> str:
        ids = run_docker(cmd.container_id_command(self.compose, self.repo, self.project),
                         self._server_env(server))
        container = ids.stdout.strip()
        if not container:
            raise BackendError(f"{server} started no container: {tail(ids.stderr, 5)}")
        return container.splitlines()[0]

    def run_wrk(self, request: WrkRequest, text_path: Path, json_path: Path,
                cpus: str | None = None) -> WrkOutcome:
        name = self._loadgen_container()
        cpu_times = RunFiles.of_output(json_path, JSON_SUFFIX).cpu_times("wrk")
        command = cmd.wrk_run_command(self.compose, self.repo, name, json_path.name,
                                      cpu_times.name,
                                      wrk_arguments(request, cmd.WRK_SCRIPT_IN_IMAGE))
        with text_path.open("w") as text:
            return self._run_loadgen(command, name, cpu_times, cpus, text,
                                     ("wrk", wrk_time_limit_s(request)))

    def run_h2load(self, request: H2loadRequest, stem: Path, port: int,
                   cpus: str | None = None) -> WrkOutcome:
        name = self._loadgen_container()
        in_image = f"{cmd.WRK_OUT_DIR_IN_IMAGE}/{stem.name}"
        cpu_times = RunFiles(stem).cpu_times("h2load")
        command = cmd.fairness_run_command(self.compose, self.repo, name, cpu_times.name,
                                           fairness_script_arguments(in_image, request, port))
        return self._run_loadgen(command, name, cpu_times, cpus, subprocess.DEVNULL,
                                 ("h2load", h2load_time_limit_s(request)))

    def run_h2load_bench(self, request: H2loadRunRequest, summary_path: Path,
                         cpus: str | None = None) -> WrkOutcome:
        """h2load in the wrk image, the line naming its arguments then its output into
        summary_path, its log of requests beside it (the raw folder, mounted)."""
        name = self._loadgen_container()
        cpu_times = RunFiles.of_output(summary_path, H2LOAD_RUN_SUFFIX).cpu_times(H2LOAD)
        log = request.log_file and f"{cmd.WRK_OUT_DIR_IN_IMAGE}/{Path(request.log_file).name}"
        arguments = h2load_run_arguments(replace(request, log_file=log))
        command = cmd.h2load_run_command(self.compose, self.repo, name, cpu_times.name,
                                         arguments)
        with summary_path.open("w") as summary:
            summary.write(summary_header(arguments))
            summary.flush()  # before h2load writes after it through the same file
            return self._run_loadgen(command, name, cpu_times, cpus, summary,
                                     (H2LOAD, h2load_run_time_limit_s(request)))

    def run_oha(self, request: OhaRequest, json_path: Path,
                cpus: str | None = None) -> WrkOutcome:
        """oha in the wrk image, its JSON summary (stdout) into json_path."""
        name = self._loadgen_container()
        cpu_times = RunFiles.of_output(json_path, OHA_SUFFIX).cpu_times("oha")
        command = cmd.oha_run_command(self.compose, self.repo, name, cpu_times.name,
                                      oha_arguments(request), request.ca_file)
        with json_path.open("w") as summary:
            return self._run_loadgen(command, name, cpu_times, cpus, summary,
                                     ("oha", oha_time_limit_s(request)))

    def _loadgen_container(self) -> str:
        if self.serving is None:
            raise BackendError("the load runs only while a server is up (inside serve())")
        return loadgen_container_name()

    def _run_loadgen(self, command: list[str], name: str, cpu_times: Path, cpus: str | None,
                     stdout, limit: tuple[str, int]) -> WrkOutcome:
        """A load generator's container, writing to the raw folder its CPU times go to; its
        own CPU time read from there (docker_loadgen.py says how and why)."""
        env = self._env(self.serving or "", **loadgen_environment(cpu_times.parent, cpus))
        return run_loadgen(command, name, env, stdout, limit, cpu_times)

    def check_fairness_tools(self) -> None:
        """h2load and ss are in the wrk image, built in prepare()."""

    def check_h2load(self) -> None:
        """h2load is in the wrk image, built in prepare()."""

    def check_profiler(self) -> None:
        """jattach and the agent are in the servers' images, built in prepare()."""

    def profiler_control(self, started: StartedServer) -> DockerProfilerControl:
        """On the server's engine, as every other docker command about the server."""
        return DockerProfilerControl(started.container or "", self._on_server_engine())

    def check_oha(self) -> None:
        """oha is in the wrk image, built in prepare(): nothing to install here."""

    def open_file_limit(self) -> int | None:
        return cmd.CONTAINER_NOFILE

    def run_spread(self, request: WrkRequest, stem: Path,
                   cpus: str | None = None) -> tuple[GeneratorOutcome, ...]:
        """wrk on every engine of LOADGEN_HOSTS at once, the load split between them."""
        if self.serving is None:
            raise BackendError("wrk runs only while a server is up (inside serve())")
        return run_generators(request, self.load_generators, stem, loadgen_container_name(),
                              cpus)

    def verify(self, started: StartedServer,
               workloads: tuple[Workload, ...] = ()) -> Verification:
        """The conformance check, from where wrk runs: this machine, or the first load
        generator's engine, in the wrk image, against the target address."""
        manifest = started.manifest
        if self.server_engine is None and not self.load_generators:
            return verify_started(started.startup, manifest, manifest.port, workloads=workloads,
                                  tls=self.tls)
        engine = self.load_generators[0] if self.load_generators else None
        command = conformance_command(self.target_address, manifest.port, manifest.server_header,
                                      workloads=workloads, blocking_thread=manifest.blocking_thread)
        checked = run_docker(command, engine_env(engine),
                       timeout=CONFORMANCE_TIMEOUT_S + checks_wait_s(workloads))
        try:
            answers = verification_from_output(checked.stdout, checked.stderr)
        except RemoteCheckError as error:
            where = engine.spec if engine else "this machine"
            raise BackendError(f"the conformance check on {where} gave no answer: {error}") from error
        return with_ready_line(answers, started.startup, manifest)

    def engine_records(self) -> tuple[EngineRecord, ...]:
        """The other engines' machines, each with the image ids it ran."""
        return tuple(replace(engine, images=tuple(sorted(self.images.ids.get(engine.engine, {})
                                                         .items())))
                     for engine in self.engines)

    def versions(self) -> dict[str, str | None]:
        return docker_versions(self.compose)
