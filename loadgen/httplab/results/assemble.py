"""Builds the immutable BenchResult from what the runner recorded. Reads raw files via collect."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from httplab.results.collect import cells_from_outcomes
from httplab.results.latency_steps import latency_result
from httplab.manifest import ServerManifest
from httplab.model import (BenchResult, EngineRecord, HostInfo, LatencyResult, RateStep,
                           ServerRecord, Settings)
from httplab.outcomes import ServerOutcome, StepOutcome
from httplab.results.results_json.version import FORMAT_VERSION
from httplab.results.warning_groups import cell_warnings


def record_of_manifest(manifest: ServerManifest) -> ServerRecord:
    return ServerRecord(name=manifest.key, label=manifest.label, framework=manifest.framework,
                        version=manifest.version, worker_setting=manifest.worker_setting,
                        transport=manifest.transport, role=manifest.role,
                        setting=manifest.setting, blocking_pool_kind=manifest.blocking_pool_kind,
                        db_driver=manifest.db_driver, profiled=manifest.profiled,
                        framework_packages=manifest.framework_packages,
                        jdk=None if manifest.is_reference else manifest.jdk,
                        beyond_write_up=manifest.beyond_write_up,
                        not_applicable=manifest.not_applicable,
                        executor=None if manifest.is_reference else manifest.executor,
                        protocol=manifest.protocol)


def first_record_per_server(outcomes: list[ServerOutcome]) -> tuple[ServerRecord, ...]:
    """A server runs once per round; its record is that of its first round (a later round
    that fails says so in its cells' reasons)."""
    records: dict[str, ServerRecord] = {}
    for outcome in outcomes:
        records.setdefault(outcome.record.name, outcome.record)
    return tuple(records.values())


def with_warnings(result: BenchResult) -> BenchResult:
    return replace(result, warnings=cell_warnings(result))


def assemble(outcomes: list[ServerOutcome], settings: Settings, host: HostInfo,
             created_utc: str, lab_commit: str | None,
             engines: tuple[EngineRecord, ...] = ()) -> BenchResult:
    servers = first_record_per_server(outcomes)
    cells = cells_from_outcomes([cell for outcome in outcomes for cell in outcome.cells], servers)
    return with_warnings(BenchResult(
        format_version=FORMAT_VERSION, created_utc=created_utc, settings=settings, host=host,
        servers=servers, cells=cells,
        lab_commit=lab_commit, engines=engines))


def assemble_latency(outcomes: list[ServerOutcome], settings: Settings, host: HostInfo,
                     created_utc: str, lab_commit: str | None, base: LatencyResult,
                     read: Callable[[StepOutcome], RateStep],
                     engines: tuple[EngineRecord, ...] = ()) -> BenchResult:
    """A make latency run: no wrk cells, every fixed-rate step read and judged by `read`
    (read_step with the run's rules); the other machines' engines, as make bench's."""
    steps = tuple(read(step) for outcome in outcomes for step in outcome.steps)
    return BenchResult(format_version=FORMAT_VERSION, created_utc=created_utc,
                       settings=settings, host=host, servers=first_record_per_server(outcomes),
                       cells=(), lab_commit=lab_commit, engines=engines,
                       latency=latency_result(steps, base))
