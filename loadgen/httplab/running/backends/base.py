"""The interface the runner uses to start a server and run wrk against it."""

from __future__ import annotations

import socket
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from httplab.manifest import ServerManifest
from httplab.running.plan import LOOPBACK
from httplab.running.resources.probes import ResourceProbe
from httplab.checking.conformance import Verification
from httplab.checking.ready_line import StartupInfo
from httplab.model import EngineRecord, GeneratorOutcome
from httplab.running.engines import Engine
from httplab.wrk.command import WrkRequest



class BackendError(Exception):
    """A backend could not do what was asked; the message is for the user."""


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
    log_path: Path | None = None  # the server's whole output, from start to stop


@dataclass(frozen=True)
class WrkOutcome:
    exit_code: int
    stderr: str
    cpu_seconds: float | None = None  # wrk's own CPU time, where the backend can see it


class Backend(Protocol):
    name: str
    target_address: str  # what wrk aims at and the server binds: 127.0.0.1 on one machine
    server_engine: Engine | None  # the server's other engine (SERVER_HOST); None: here
    load_generators: tuple[Engine, ...]  # wrk's other engines (LOADGEN_HOSTS); (): here

    def check_available(self) -> None:
        """Raises BackendError when a tool is missing: called before any load."""

    def prepare(self, servers: tuple[ServerManifest, ...]) -> None:
        """Builds what the servers need (jars, images)."""

    def serve(self, manifest: ServerManifest, cpus: str | None = None,
              log_path: Path | None = None) -> AbstractContextManager[StartedServer]:
        """Starts the server (pinned to a cpuset when given), keeps its whole output in
        log_path, waits until it is ready (readiness.py: a correct answer and its ready
        line), and always stops it on exit. Raises BackendError when it is not ready."""

    def verify(self, started: StartedServer) -> Verification:
        """The conformance check of a ready server, from where wrk runs."""

    def exit_status(self, started: StartedServer) -> str | None:
        """None while the server runs; once it has stopped, a phrase saying how."""

    def resource_probe(self, started: StartedServer) -> ResourceProbe:
        """How to read the server's CPU and memory; never raises: an UnavailableProbe says why."""

    def run_wrk(self, request: WrkRequest, text_path: Path, json_path: Path,
                cpus: str | None = None) -> WrkOutcome:
        """Runs wrk once; its report goes to text_path and done()'s JSON to json_path."""

    def run_spread(self, request: WrkRequest, stem: Path,
                   cpus: str | None = None) -> tuple[GeneratorOutcome, ...]:
        """Runs wrk on every load generator at once (only when there are some); each
        one's report and JSON go to stem.txt/.json, or stem.g<i>.txt/.json for several."""

    def engine_records(self) -> tuple[EngineRecord, ...]:
        """The other machines' engines this bench drove (none on one machine)."""

    def versions(self) -> dict[str, str | None]:
        """Versions of the tools this backend uses (java, wrk, docker, compose)."""


def ensure_port_free(port: int, host: str = LOOPBACK) -> None:
    """Raises BackendError when something already listens on host:port."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.settimeout(0.5)
        if probe.connect_ex((host, port)) == 0:
            raise BackendError(f"port {port} on {host} is already in use: stop whatever "
                               f"listens there (ss -ltnp 'sport = :{port}') and run again")
