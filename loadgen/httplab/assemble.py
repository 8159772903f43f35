"""Builds the immutable BenchResult from what the runner recorded. Reads raw files via collect."""

from __future__ import annotations

from dataclasses import replace

from .collect import cells_from_outcomes
from .manifest import ServerManifest
from .model import BenchResult, HostInfo, ServerRecord, Settings
from .plan import TARGET_URL, BenchPlan
from .runner import ServerOutcome
from .serialize import FORMAT_VERSION
from .stability import stability_warnings

DEFAULT_CV_THRESHOLD = 0.05


def settings_of(plan: BenchPlan, backend: str, cv_threshold: float) -> Settings:
    primer, warmup = plan.phase("primer"), plan.phase("warmup")
    return Settings(servers=tuple(server.name for server in plan.servers), threads=plan.threads,
                    connections=plan.connections, duration_s=float(plan.duration_s),
                    backend=backend, url=TARGET_URL, repeat=plan.repeat,
                    primer_s=float(primer.duration_s) if primer else 0.0,
                    primer_connections=(primer.connections or 0) if primer else 0,
                    warmup_s=float(warmup.duration_s) if warmup else 0.0,
                    cv_threshold=cv_threshold, server_cpus=plan.server_cpus,
                    loadgen_cpus=plan.loadgen_cpus)


def record_of_manifest(manifest: ServerManifest) -> ServerRecord:
    return ServerRecord(name=manifest.name, label=manifest.label, framework=manifest.framework,
                        version=manifest.version, worker_setting=manifest.worker_setting,
                        transport=manifest.transport)


def record_of_outcome(outcome: ServerOutcome) -> ServerRecord:
    record = replace(record_of_manifest(outcome.manifest), log_file=outcome.log_file)
    started = outcome.started
    if started is None:
        return record
    startup = started.startup
    return replace(
        record, transport=startup.transport if startup else record.transport,
        startup_line=startup.line if startup else None,
        verification=outcome.verification.summary() if outcome.verification else None,
        image_size_bytes=started.image_size_bytes, java_version=started.java_version,
        startup_seconds=started.startup_seconds, image_id=started.image_id)


def with_warnings(result: BenchResult) -> BenchResult:
    threshold = result.settings.cv_threshold if result.settings else DEFAULT_CV_THRESHOLD
    return replace(result, warnings=stability_warnings(result, threshold))


def assemble(outcomes: list[ServerOutcome], settings: Settings, host: HostInfo,
             created_utc: str, lab_commit: str | None) -> BenchResult:
    cells = cells_from_outcomes([cell for outcome in outcomes for cell in outcome.cells])
    return with_warnings(BenchResult(
        format_version=FORMAT_VERSION, created_utc=created_utc, settings=settings, host=host,
        servers=tuple(record_of_outcome(outcome) for outcome in outcomes), cells=cells,
        lab_commit=lab_commit))
