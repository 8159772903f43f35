"""Runs the plan: one server at a time, verify, then wrk per thread setting.

The runner only starts things and records where their raw output went; reading that
output is collect.py's job."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .backends.base import Backend, BackendError, StartedServer
from .manifest import ServerManifest
from .plan import TARGET_URL, BenchPlan
from .progress import START_AND_VERIFY_S, Progress
from .verify import Verification, verify_started
from .wrk_command import WrkRequest


@dataclass(frozen=True)
class CellOutcome:
    server: str
    threads: int
    connections: int
    text_path: Path | None = None
    json_path: Path | None = None
    failure: str | None = None


@dataclass(frozen=True)
class ServerOutcome:
    manifest: ServerManifest
    cells: tuple[CellOutcome, ...]
    started: StartedServer | None = None
    verification: Verification | None = None


def raw_paths(raw_dir: Path, server: str, request: WrkRequest) -> tuple[Path, Path]:
    stem = f"{server}-{request.label}"
    return raw_dir / f"{stem}.txt", raw_dir / f"{stem}.json"


class Runner:
    def __init__(self, backend: Backend, plan: BenchPlan, raw_dir: Path, progress: Progress,
                 on_server_done: Callable[[ServerOutcome], None]):
        self.backend, self.plan, self.raw_dir = backend, plan, raw_dir
        self.progress, self.on_server_done = progress, on_server_done

    def requests(self) -> list[WrkRequest]:
        plan = self.plan
        return [WrkRequest(threads, plan.connections, plan.duration, plan.duration_s, TARGET_URL)
                for threads in plan.threads]

    def run(self) -> list[ServerOutcome]:
        self.raw_dir.mkdir(parents=True, exist_ok=True)
        outcomes = []
        for index, manifest in enumerate(self.plan.servers, start=1):
            outcome = self.run_server(index, manifest)
            outcomes.append(outcome)
            self.on_server_done(outcome)
        return outcomes

    def run_server(self, index: int, manifest: ServerManifest) -> ServerOutcome:
        self.progress.step(index, manifest.name, "starting")
        try:
            with self.backend.serve(manifest) as started:
                return self._measure(index, started)
        except BackendError as error:
            self.progress.step(index, manifest.name, f"FAILED: {error}")
            self.progress.spent(START_AND_VERIFY_S + self.plan.duration_s * len(self.plan.threads))
            return ServerOutcome(manifest, self._failed_cells(manifest, str(error)))

    def _measure(self, index: int, started: StartedServer) -> ServerOutcome:
        manifest = started.manifest
        verification = verify_started(started.startup, manifest, manifest.port)
        self.progress.spent(START_AND_VERIFY_S)
        if not verification.passed:
            reason = f"verification failed: {verification.summary()}"
            self.progress.step(index, manifest.name, reason)
            self.progress.spent(self.plan.duration_s * len(self.plan.threads))
            return ServerOutcome(manifest, self._failed_cells(manifest, reason), started,
                                 verification)
        self.progress.step(index, manifest.name, f"ready in {started.startup_seconds:.1f} s, "
                                                 f"verified ({verification.summary()})")
        cells = tuple(self._run_cell(index, manifest.name, request) for request in self.requests())
        return ServerOutcome(manifest, cells, started, verification)

    def _run_cell(self, index: int, server: str, request: WrkRequest) -> CellOutcome:
        text_path, json_path = raw_paths(self.raw_dir, server, request)
        self.progress.step(index, server, f"wrk -t{request.threads} -c{request.connections} "
                                          f"-d{request.duration}")
        json_path.unlink(missing_ok=True)
        outcome = self.backend.run_wrk(request, text_path, json_path)
        self.progress.spent(request.duration_s)
        failure = None
        if outcome.exit_code != 0:
            failure = f"wrk exited with {outcome.exit_code}: {outcome.stderr or 'no message'}"
            self.progress.step(index, server, failure)
        return CellOutcome(server, request.threads, request.connections, text_path,
                           json_path if json_path.exists() else None, failure)

    def _failed_cells(self, manifest: ServerManifest, reason: str) -> tuple[CellOutcome, ...]:
        return tuple(CellOutcome(manifest.name, request.threads, request.connections,
                                 failure=reason) for request in self.requests())
