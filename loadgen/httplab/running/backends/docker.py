"""The docker backend: each server in turn and wrk in containers from docker-compose.yml,
on host networking, so load stays on the target address (127.0.0.1 unless TARGET_ADDRESS says
otherwise) as in the original benchmark. The file's
one `server` service becomes the server that HTTPLAB_SERVER names."""

from __future__ import annotations

import os
import subprocess
import time
from dataclasses import replace
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from httplab.manifest import ServerManifest
from httplab.paths import servers_dir
from httplab.running.resources.probes import (ResourceProbe, probe_for_container,
                                              probe_for_remote_container)
from httplab.checking.conformance import (Verification, checks_wait_s, verify_started,
                                          with_ready_line)
from httplab.running.backends.remote_checks import (ANSWER_PROBE_TIMEOUT_S,
                                                    CONFORMANCE_TIMEOUT_S, RemoteCheckError,
                                                    answer_probe_command, conformance_command,
                                                    verification_from_output)
from httplab.running.process import ServerProcess
from httplab.checking.readiness import (READY_TIMEOUT_S, Readiness, ServerProbes,
                                        answers_correctly, not_ready_reason, wait_until_ready)
from httplab.checking.ready_line import StartupInfo
from httplab.running.tools import command_output, first_line, java_version
from httplab.loadtools.wrk.command import WrkRequest, wrk_arguments, wrk_time_limit_s
from httplab.loadtools.h2load.command import H2loadRequest, fairness_script_arguments, h2load_time_limit_s
from httplab.loadtools.oha.command import OhaRequest, oha_arguments, oha_time_limit_s
from httplab.running.backends import compose as cmd
from httplab.running.backends.base import (BackendError, StartedServer, WrkOutcome,
                                           ensure_port_free, oha_version)
from httplab.addresses import LOOPBACK
from httplab.running.base_images import (BASE_IMAGES_ENV, BUILD_ARGS, OFFICIAL_PROBE_IMAGE,
                                         local_build_args)
from httplab.running.backends.generators import run_generators
from httplab.running.backends.remote_engines import engine_env, inspect_engine, ship_image
from httplab.running.backends.docker_profiler import DockerProfilerControl
from httplab.running.profiling.jvm import jvm_options
from httplab.running.database.docker import DockerDatabase
from httplab.running.engines import Engine, Topology
from httplab.model import EngineRecord, Workload
from httplab.outcomes import GeneratorOutcome

BUILD_TIMEOUT_S = 3600
WAYS_ON = ("Either install and start Docker (README, \"Installing Docker on Debian\": "
           "`apt-get install docker.io docker-compose` then `dockerd &` or `systemctl start "
           "docker`), or run without containers: `make bench BACKEND=local` (needs a JDK 17+ "
           "and wrk on this host)")
LOG_FOLLOW_GRACE_S = 5.0  # `docker logs -f` ends by itself once the container is gone
UNPRIVILEGED_ID = 10001  # the user the lab's images run as


def _run(command: list[str], env: dict[str, str] | None = None, timeout: float = 120,
         ) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(command, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as error:
        raise BackendError(f"`{' '.join(command[:6])} ...` did not finish in {timeout:g} s") from error
    except OSError as error:
        raise BackendError(f"cannot run {command[0]}: {error}") from error


def _tail(text: str, lines: int = 15) -> str:
    return "\n".join(text.strip().splitlines()[-lines:])


class DockerBackend:
    name = "docker"

    def __init__(self, repo: Path, base_images: str = "auto", compose: str | None = None,
                 ready_timeout_s: float = READY_TIMEOUT_S, topology: Topology | None = None):
        self.repo, self.base_images_choice = repo.resolve(), base_images
        self.ready_timeout_s = ready_timeout_s
        self.preferred_compose = compose
        self.compose: list[str] = []
        self.build_args: dict[str, str] = {}
        self.serving: str | None = None  # the server whose container is up, for wrk's runs
        # Other machines' engines (issue 11); None: everything on this machine's engine.
        self.server_engine: Engine | None = topology.server if topology else None
        self.load_generators: tuple[Engine, ...] = topology.generators if topology else ()
        self.target_address = topology.target_address if topology else LOOPBACK
        self.engines: list[EngineRecord] = []  # every other engine's machine, for the record
        self.image_ids: dict[str, dict[str, str]] = {}  # engine -> image -> id it ran
        # On the server's engine, so that the server reaches it on its own loopback.
        self.database = DockerDatabase(self.repo, base_images, compose, self.server_engine)

    def check_available(self) -> None:
        if command_output(["docker", "--version"]) is None:
            raise BackendError(f"docker not found. {WAYS_ON}")
        info = _run(["docker", "info", "--format", "{{.ServerVersion}}"], timeout=30)
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
        self.build_args = self._resolve_base_images()
        for name in dict.fromkeys(server.name for server in servers):  # one image per folder
            label = f"{name} (servers/{self._dockerfile(name)})"
            self._build(cmd.SERVER_SERVICE, name, label)
        if servers:  # Compose reads the whole file: wrk's build needs a server named too
            self._build(cmd.WRK_SERVICE, servers[0].name, "wrk")
        self._ship([f"httplab/{name}:latest" for name in dict.fromkeys(s.name for s in servers)])

    def _ship(self, server_images: list[str]) -> None:
        """The images built here, sent to the engines that run them where they differ."""
        wanted = ([(self.server_engine, image) for image in server_images]
                  if self.server_engine else [])
        wanted += [(engine, cmd.WRK_IMAGE) for engine in self.load_generators]
        for engine, image in wanted:
            self.image_ids.setdefault(engine.spec, {})[image] = ship_image(image, engine)

    def _build(self, service: str, server: str, label: str) -> None:
        build = _run(cmd.build_command(self.compose, self.repo, service), self._env(server),
                     BUILD_TIMEOUT_S)
        if build.returncode != 0:
            raise BackendError(f"image build failed for {label}:\n"
                               f"{_tail(build.stdout + build.stderr)}")

    def _resolve_base_images(self) -> dict[str, str]:
        choice = self.base_images_choice
        if any(arg in os.environ for arg in BUILD_ARGS):
            return {arg: os.environ[arg] for arg in BUILD_ARGS if arg in os.environ}
        if choice == "official" or (choice == "auto" and _official_images_reachable()):
            return {}
        args = local_build_args((self.repo / BASE_IMAGES_ENV).read_text())
        missing = [image for image in set(args.values()) if not _image_exists(image)]
        if missing:
            raise BackendError(f"official base images cannot be pulled and local ones are "
                               f"missing ({', '.join(sorted(missing))}): run `make base-images`")
        return args

    def _env(self, server: str, **extra: str) -> dict[str, str]:
        """The Compose command's environment, with `server` as the file's server."""
        return {**os.environ, **self.build_args, **self.server_environment(server), **extra}

    def _server_env(self, server: str, **extra: str) -> dict[str, str]:
        """The same, aimed at the engine that runs the server (SERVER_HOST, if set)."""
        engine = self.server_engine.environment() if self.server_engine else {}
        return {**self._env(server, **extra), **engine}

    def _on_server_engine(self) -> dict[str, str]:
        return engine_env(self.server_engine)

    def server_environment(self, server: str) -> dict[str, str]:
        """HTTPLAB_SERVER and HTTPLAB_DOCKERFILE, which make the Compose file's one server
        service this server; set always, so a stray value in the caller's shell is ignored."""
        return cmd.server_environment(server, self._dockerfile(server))

    def _dockerfile(self, server: str) -> str:
        """The server's Dockerfile, relative to the build context servers/."""
        folder = servers_dir(self.repo)
        return cmd.dockerfile_for(folder, server).relative_to(folder).as_posix()

    @contextmanager
    def serve(self, manifest: ServerManifest, cpus: str | None = None,
              log_path: Path | None = None, environment: Mapping[str, str] | None = None,
              ) -> Iterator[StartedServer]:
        if self.server_engine is None:
            ensure_port_free(manifest.port, self.target_address)
        follower: ServerProcess | None = None
        self.serving = manifest.name
        try:
            container, up_seconds = self._start(manifest, cpus, environment)
            # `docker logs -f` gives everything from the container's start, then follows it.
            follower = ServerProcess(["docker", "logs", "-f", container],
                                     self._on_server_engine(), log_path=log_path)
            readiness = self._wait_ready(manifest, container, follower)
            yield self._describe(manifest, container, up_seconds + (readiness.first_answer_s or 0),
                                 readiness.startup, log_path)
        finally:
            _run(cmd.down_command(self.compose, self.repo), self._server_env(manifest.name))
            self.serving = None
            if follower is not None:
                follower.stop(let_finish_s=LOG_FOLLOW_GRACE_S)

    def _start(self, manifest: ServerManifest, cpus: str | None,
               environment: Mapping[str, str] | None) -> tuple[str, float]:
        """Starts the container; returns its id and the seconds `up` took."""
        started_at = time.monotonic()
        up = _run(cmd.up_command(self.compose, self.repo),
                  self._server_env(manifest.name, JAVA_OPTS=jvm_options(manifest),
                                   HTTPLAB_SERVER_CPUS=cpus or "",
                                   HTTPLAB_WORKERS=manifest.workers_variable,
                                   HTTPLAB_BIND_ADDRESS=self.target_address,
                                   **cmd.server_database_environment(environment)))
        if up.returncode != 0:
            raise BackendError(f"cannot start {manifest.name}: {_tail(up.stderr, 5)}")
        return self._container_id(manifest.name), time.monotonic() - started_at

    def _wait_ready(self, manifest: ServerManifest, container: str,
                    follower: ServerProcess) -> Readiness:
        probes = ServerProbes(lambda: self._answers(manifest, container), follower.output,
                              lambda: self._is_running(container))
        readiness = wait_until_ready(probes, self.ready_timeout_s)
        if not readiness.ready:
            exit_note = f" with code {self._inspect(container, '{{.State.ExitCode}}')}"
            raise BackendError(f"{manifest.name} " + not_ready_reason(
                readiness, self.ready_timeout_s, follower.output(), exit_note))
        return readiness

    def _answers(self, manifest: ServerManifest, container: str) -> bool:
        """Does the server answer GET / correctly yet? Asked from here when the server runs
        on this machine, else from inside its container (this machine may not reach it)."""
        if self.server_engine is None:
            return answers_correctly(self.target_address, manifest.port, manifest.server_header)
        probe = answer_probe_command(container, self.target_address, manifest.port)
        return _run(probe, self._on_server_engine(),
                    ANSWER_PROBE_TIMEOUT_S).returncode == 0

    def _describe(self, manifest: ServerManifest, container: str, startup_seconds: float,
                  startup: StartupInfo | None, log_path: Path | None) -> StartedServer:
        image = f"httplab/{manifest.name}:latest"
        # nginx's image may hold a JRE (the local base image has one), which it does not run.
        java = (java_version(["docker", "exec", container, "java"], self._on_server_engine())
                if manifest.is_maven_module else None)
        size = self._inspect(image, "{{.Size}}")
        return StartedServer(manifest, startup, startup_seconds,
                             int(size) if size.isdigit() else None, java,
                             self._inspect(image, "{{.Id}}") or None, container=container,
                             log_path=log_path)

    def _inspect(self, target: str, template: str) -> str:
        return _run(["docker", "inspect", "-f", template, target],
                    self._on_server_engine()).stdout.strip()

    def _is_running(self, container: str) -> bool:
        return self._inspect(container, "{{.State.Running}}") == "true"

    def exit_status(self, started: StartedServer) -> str | None:
        state = self._inspect(started.container or "", "{{.State.Running}} {{.State.ExitCode}}")
        if state.startswith("true"):
            return None
        code = state.split()[-1] if state else "unknown"
        return f"the server's container stopped (exit code {code})"

    def resource_probe(self, started: StartedServer) -> ResourceProbe:
        # The blocking pool's threads, by name, counted in every sample ("": none counted).
        pool_prefix = started.manifest.blocking_thread_prefix
        if self.server_engine is not None:
            return probe_for_remote_container(started.container or "", self._on_server_engine(),
                                              pool_prefix)
        return probe_for_container(started.container or "", pool_prefix)

    def _container_id(self, server: str) -> str:
        ids = _run(cmd.container_id_command(self.compose, self.repo), self._server_env(server))
        container = ids.stdout.strip()
        if not container:
            raise BackendError(f"{server} started no container: {_tail(ids.stderr, 5)}")
        return container.splitlines()[0]

    def run_wrk(self, request: WrkRequest, text_path: Path, json_path: Path,
                cpus: str | None = None) -> WrkOutcome:
        name = self._loadgen_container()
        command = cmd.wrk_run_command(self.compose, self.repo, name, json_path.name,
                                      wrk_arguments(request, cmd.WRK_SCRIPT_IN_IMAGE))
        with text_path.open("w") as text:
            return self._run_loadgen(command, name, json_path.parent, cpus, text,
                                     ("wrk", wrk_time_limit_s(request)))

    def run_h2load(self, request: H2loadRequest, stem: Path, port: int,
                   cpus: str | None = None) -> WrkOutcome:
        name = self._loadgen_container()
        in_image = f"{cmd.WRK_OUT_DIR_IN_IMAGE}/{stem.name}"
        command = cmd.fairness_run_command(self.compose, self.repo, name,
                                           fairness_script_arguments(in_image, request, port))
        return self._run_loadgen(command, name, stem.parent, cpus, subprocess.DEVNULL,
                                 ("h2load", h2load_time_limit_s(request)))

    def run_oha(self, request: OhaRequest, json_path: Path,
                cpus: str | None = None) -> WrkOutcome:
        """oha in the wrk image, its JSON summary (stdout) into json_path. cpu_seconds is
        None: the container is gone (--rm) before its CPU time could be read."""
        name = self._loadgen_container()
        command = cmd.oha_run_command(self.compose, self.repo, name, oha_arguments(request))
        with json_path.open("w") as summary:
            return self._run_loadgen(command, name, json_path.parent, cpus, summary,
                                     ("oha", oha_time_limit_s(request)))

    def _loadgen_container(self) -> str:
        if self.serving is None:
            raise BackendError("the load runs only while a server is up (inside serve())")
        return f"httplab-wrk-{os.getpid()}"

    def _run_loadgen(self, command: list[str], name: str, raw_dir: Path, cpus: str | None,
                     stdout, limit: tuple[str, int]) -> WrkOutcome:
        """A load generator's container, writing to raw_dir; removed whatever happens."""
        uid, gid = _wrk_user(raw_dir)
        env = self._env(self.serving or "", HTTPLAB_RAW_DIR=str(raw_dir.resolve()),
                        HTTPLAB_UID=str(uid), HTTPLAB_GID=str(gid), HTTPLAB_LOADGEN_CPUS=cpus or "")
        tool, limit_s = limit
        try:
            completed = subprocess.run(command, env=env, stdout=stdout, stderr=subprocess.PIPE,
                                       text=True, timeout=limit_s)
        except subprocess.TimeoutExpired:
            return WrkOutcome(-1, f"{tool} did not finish within {limit_s} s")
        finally:
            command_output(["docker", "rm", "-f", name])
        return WrkOutcome(completed.returncode, _tail(completed.stderr, 5))

    def check_fairness_tools(self) -> None:
        """h2load and ss are in the wrk image, built in prepare()."""

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
        return run_generators(request, self.load_generators, stem,
                              f"httplab-wrk-{os.getpid()}", cpus)

    def verify(self, started: StartedServer,
               workloads: tuple[Workload, ...] = ()) -> Verification:
        """The conformance check, from where wrk runs: this machine, or the first load
        generator's engine, in the wrk image, against the target address."""
        manifest = started.manifest
        if self.server_engine is None and not self.load_generators:
            return verify_started(started.startup, manifest, manifest.port, workloads=workloads)
        engine = self.load_generators[0] if self.load_generators else None
        command = conformance_command(self.target_address, manifest.port, manifest.server_header,
                                      workloads=workloads)
        checked = _run(command, engine_env(engine),
                       timeout=CONFORMANCE_TIMEOUT_S + checks_wait_s(workloads))
        try:
            answers = verification_from_output(checked.stdout, checked.stderr)
        except RemoteCheckError as error:
            where = engine.spec if engine else "this machine"
            raise BackendError(f"the conformance check on {where} gave no answer: {error}") from error
        return with_ready_line(answers, started.startup, manifest)

    def engine_records(self) -> tuple[EngineRecord, ...]:
        """The other engines' machines, each with the image ids it ran."""
        return tuple(replace(engine, images=tuple(sorted(self.image_ids.get(engine.engine, {})
                                                         .items())))
                     for engine in self.engines)

    def versions(self) -> dict[str, str | None]:
        wrk = command_output(["docker", "run", "--rm", "--network", "none", cmd.WRK_IMAGE, "-v"])
        oha = command_output(["docker", "run", "--rm", "--network", "none",
                              "--entrypoint", cmd.OHA_IN_IMAGE, cmd.WRK_IMAGE, "--version"])
        return {"docker": first_line(command_output(["docker", "version", "--format",
                                                     "client {{.Client.Version}}, engine {{.Server.Version}}"])),
                "compose": first_line(command_output([*self.compose, "version"])),
                "wrk": first_line(wrk), "oha": oha_version(oha)}


def _wrk_user(raw_dir: Path) -> tuple[int, int]:
    """wrk writes its JSON as the calling user, so the files are theirs; never as root:
    a root caller lends the raw directory to the images' unprivileged user instead."""
    if os.getuid() != 0:
        return os.getuid(), os.getgid()
    os.chown(raw_dir, UNPRIVILEGED_ID, UNPRIVILEGED_ID)
    return UNPRIVILEGED_ID, UNPRIVILEGED_ID


def _image_exists(image: str) -> bool:
    return _run(["docker", "image", "inspect", image]).returncode == 0


def _official_images_reachable() -> bool:
    if _image_exists(OFFICIAL_PROBE_IMAGE):
        return True
    return _run(["docker", "pull", "-q", OFFICIAL_PROBE_IMAGE], timeout=300).returncode == 0


