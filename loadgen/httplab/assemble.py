"""Builds the immutable BenchResult from what the runner recorded. Reads raw files via collect."""

from __future__ import annotations

from .collect import cell_from_outcome
from .manifest import ServerManifest
from .model import BenchResult, HostInfo, ServerRecord, Settings
from .plan import TARGET_URL, BenchPlan
from .runner import ServerOutcome
from .serialize import FORMAT_VERSION


def settings_of(plan: BenchPlan, backend: str) -> Settings:
    return Settings(servers=tuple(server.name for server in plan.servers), threads=plan.threads,
                    connections=plan.connections, duration_s=float(plan.duration_s),
                    backend=backend, url=TARGET_URL)


def record_of_manifest(manifest: ServerManifest) -> ServerRecord:
    return ServerRecord(name=manifest.name, label=manifest.label, framework=manifest.framework,
                        version=manifest.version, worker_setting=manifest.worker_setting,
                        transport=manifest.transport)


def record_of_outcome(outcome: ServerOutcome) -> ServerRecord:
    record = record_of_manifest(outcome.manifest)
    started = outcome.started
    startup = started.startup if started else None
    return ServerRecord(
        **{**vars(record),
           "transport": startup.transport if startup else record.transport,
           "startup_line": startup.line if startup else None,
           "verification": outcome.verification.summary() if outcome.verification else None,
           "image_size_bytes": started.image_size_bytes if started else None,
           "java_version": started.java_version if started else None})


def assemble(outcomes: list[ServerOutcome], settings: Settings, host: HostInfo,
             created_utc: str) -> BenchResult:
    return BenchResult(
        format_version=FORMAT_VERSION, created_utc=created_utc, settings=settings, host=host,
        servers=tuple(record_of_outcome(outcome) for outcome in outcomes),
        cells=tuple(cell_from_outcome(cell) for outcome in outcomes for cell in outcome.cells),
    )
