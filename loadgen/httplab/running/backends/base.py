"""The interface of a backend, by the roles its callers use: the checks before any load
(PreflightChecks), the server's start, checks and watching (ServerControl), the load
tools' runs (LoadGeneration), and Backend, all of them with its build and its records."""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from httplab.manifest import ServerManifest
from httplab.addresses import LOOPBACK
from httplab.running.backend_error import BackendError
from httplab.running.database.base import Database
from httplab.running.ports import port_in_use
from httplab.running.resources.probes import ResourceProbe
from httplab.checking.conformance import Verification
from httplab.checking.ready_line import StartupInfo
from httplab.model import EngineRecord, Workload
from httplab.outcomes import GeneratorOutcome
from httplab.run_tls import RunTls
from httplab.running.engines import Engine
from httplab.running.profiling.control import ProfilerControl
from httplab.running.tools import first_line
from httplab.loadtools.h2load.command import H2loadRequest
from httplab.loadtools.h2load.measured_command import H2loadRunRequest
from httplab.loadtools.oha.command import OHA_VERSION, OhaRequest
from httplab.loadtools.wrk.command import WrkRequest

# Descriptors a load generator or a server needs beside one per connection (the JVM's jars,
# epoll, pipes, logs): CONNECTIONS above the open-file limit less this is refused.
DESCRIPTOR_HEADROOM = 256
H2LOAD_MISSING_HINT = "install Debian's nghttp2-client and iproute2, or set FAIRNESS=0"
OHA_MISSING = f"oha not found: run `make oha` (builds oha {OHA_VERSION} with cargo)"



@dataclass(frozen=True)
class StartedServer:
    manifest: ServerManifest
    startup: StartupInfo | None
    startup_seconds: float | None  # until the first correct answer; None if never
    image_size_bytes: int | None = None
    java_version: str | None = None
    image_id: str | None = None
    pid: int | None = None  # local: the server's process on this host
    container: str | None = None  # docker: the server's container id
    # docker: the seccomp profile it ran under, "default" (the engine's own) or the shipped
    # one's file name (TRANSPORT=io_uring where the engine's blocks it); local: None.
    seccomp: str | None = None
    log_path: Path | None = None  # the server's whole output, from start to stop


@dataclass(frozen=True)
class WrkOutcome:
    exit_code: int
    stderr: str
    # The load tool's own CPU time (user and system, its children's too), where the backend
    # can read it: local as its parent, docker through loadgen/cpu-times.sh
    cpu_seconds: float | None = None


class PreflightChecks(Protocol):
    """What preflight asks of a backend before any load (running/preflight.py)."""

    database: Database  # its check_available(), when a workload reads the database

    def check_available(self) -> None:
        """Raises BackendError when a tool is missing: called before any load."""

    def check_engines(self) -> None:
        """Raises BackendError when another machine's engine does not answer or its clock is
        too far from ours; keeps each one's machine for engine_records(). Before any load."""

    def check_fairness_tools(self) -> None:
        """Raises BackendError when h2load or ss is missing where it would run (FAIRNESS=1)."""

    def check_h2load(self) -> None:
        """Raises BackendError when h2load is missing where it would run: make bench's load
        tool for the HTTP/2 protocols (PROTOCOL h2c, h2). Before any load."""

    def open_file_limit(self) -> int | None:
        """The open-file limit the load generator and the server run under; None: unknown."""

    def check_oha(self) -> None:
        """Raises BackendError, saying how to install it, when oha is missing where it
        would run (fixed-rate runs). Before any load."""

    def check_profiler(self) -> None:
        """Raises BackendError, saying the way out, when async-profiler cannot be driven
        where the servers run (PROFILE=1). Before any load."""


class ServerControl(Protocol):
    """What the runner does with each server: start it, check it, watch it, profile it."""

    target_address: str  # what wrk aims at and the server binds: 127.0.0.1 on one machine
    server_engine: Engine | None  # the server's other engine (SERVER_HOST); None: here
    database: Database  # the db and queries workloads' PostgreSQL, on the server's machine

    def serve(self, manifest: ServerManifest, cpus: str | None = None,
              log_path: Path | None = None, environment: Mapping[str, str] | None = None,
              ) -> AbstractContextManager[StartedServer]:
        """Starts the server (pinned to a cpuset when given) with the extra variables of
        environment (a database's StartedDatabase.server_environment()), keeps its whole
        output in log_path, waits until it is ready (readiness.py: a correct answer and its
        ready line), and always stops it on exit. Raises BackendError when it is not ready."""

    def use_tls(self, tls: RunTls | None) -> None:
        """The run's TLS files (None: no server speaks TLS), which servers over TLS are
        started with and their checks and load trust; before the first serve()."""

    def verify(self, started: StartedServer,
               workloads: tuple[Workload, ...] = ()) -> Verification:
        """The conformance check of a ready server, from where wrk runs: the common checks
        and each workload's (Verification.failed_workloads says which not to load)."""

    def exit_status(self, started: StartedServer) -> str | None:
        """None while the server runs; once it has stopped, a phrase saying how."""

    def resource_probe(self, started: StartedServer) -> ResourceProbe:
        """How to read the server's CPU and memory; never raises: an UnavailableProbe says why."""

    def profiler_control(self, started: StartedServer) -> ProfilerControl:
        """How to drive async-profiler in the started JVM server: jattach against its java
        process, and its files brought back to raw/."""


class LoadGeneration(Protocol):
    """What a measured run asks: one load tool's run against the started server."""

    load_generators: tuple[Engine, ...]  # wrk's other engines (LOADGEN_HOSTS); (): here

    def run_wrk(self, request: WrkRequest, text_path: Path, json_path: Path,
                cpus: str | None = None) -> WrkOutcome:
        """Runs wrk once; its report goes to text_path and done()'s JSON to json_path."""

    def run_spread(self, request: WrkRequest, stem: Path,
                   cpus: str | None = None) -> tuple[GeneratorOutcome, ...]:
        """Runs wrk on every load generator at once (only when there are some); each
        one's report and JSON go to stem.txt/.json, or stem.g<i>.txt/.json for several."""

    def run_h2load(self, request: H2loadRequest, stem: Path, port: int,
                   cpus: str | None = None) -> WrkOutcome:
        """Runs h2load once through loadgen/fairness.sh: its output goes to stem.h2load.txt
        and the socket readings taken during it to stem.sockets.txt."""

    def run_h2load_bench(self, request: H2loadRunRequest, summary_path: Path,
                         cpus: str | None = None) -> WrkOutcome:
        """Runs h2load once as make bench's load tool (HTTP/2): summary_header's line, then
        its output, go to summary_path; each request to request.log_file (a path beside
        summary_path, as this host names it; None: not logged); killed after
        h2load_run_time_limit_s(request)."""

    def run_oha(self, request: OhaRequest, json_path: Path,
                cpus: str | None = None) -> WrkOutcome:
        """Runs oha once at a fixed rate: its JSON summary (stdout) goes to json_path, its
        stderr to the outcome; killed after oha_time_limit_s(request). cpu_seconds: oha's
        own CPU time where the backend can see it."""


class Backend(PreflightChecks, ServerControl, LoadGeneration, Protocol):
    """A whole backend, as the commands build and record it: the three roles above,
    and its build before any load and what it records of itself."""

    name: str

    def prepare(self, servers: tuple[ServerManifest, ...]) -> None:
        """Builds what the servers need (jars, images)."""

    def try_io_uring(self, servers: tuple[ServerManifest, ...]) -> str:
        """TRANSPORT=io_uring's one try, after prepare() and before any load: whether io_uring
        can start where the servers run (docker: also the seccomp profile its cells run
        under); BackendError with one line naming the setting that refuses it. Returns what
        it found, in one line."""

    def engine_records(self) -> tuple[EngineRecord, ...]:
        """The other machines' engines this bench drove (none on one machine)."""

    def versions(self) -> dict[str, str | None]:
        """Versions of the tools this backend uses (java, wrk, oha, docker, compose)."""


def oha_version(output: str | None) -> str | None:
    """"oha 1.16.0" from what `oha --version` printed; None when it printed something else,
    such as the error of an image or a path without oha."""
    line = first_line(output)
    return line if line and line.startswith("oha ") else None


def check_open_files(connections: int, limit: int | None) -> None:
    """Raises BackendError when CONNECTIONS cannot fit under the open-file limit."""
    if limit is not None and connections + DESCRIPTOR_HEADROOM > limit:
        raise BackendError(f"CONNECTIONS {connections} needs about "
                           f"{connections + DESCRIPTOR_HEADROOM} open files, over the limit of "
                           f"{limit} that wrk and the servers run under: use at most "
                           f"{limit - DESCRIPTOR_HEADROOM} connections")


def ensure_port_free(port: int, host: str = LOOPBACK) -> None:
    """Raises BackendError when something already listens on host:port."""
    if port_in_use(port, host):
        raise BackendError(f"port {port} on {host} is already in use: stop whatever "
                           f"listens there (ss -ltnp 'sport = :{port}') and run again")
