"""BenchResult <-> plain dicts for results.json, and the runner's record of a run's load
generators (<stem>.generators.json) <-> GeneratorOutcome. Pure: no files here."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from httplab.model import (BenchResult, Cell, CellStatus, DatabaseRecord, DatabaseUsage,
                           EngineRecord, FairnessRun, HostInfo, HotFrame, Latency, LatencyResult,
                           RateStep, ResourceUsage, RunProfile, ServerRecord, Settings,
                           SocketErrors, StepPurpose, StepVerdict, SustainedRate,
                           ThreadRequestRate, Workload, WrkRun)
from httplab.outcomes import GeneratorOutcome

FORMAT_VERSION = 10
# Later versions added fields (3: each server's log file; 4: each run's round and the CPU
# figures beside the server's; 5: each run's end time, latency sample count and whether its
# histogram was exact, and for a run over several load generators each one's own run and
# their start skew; 6: the connections as a list (a sweep), whether h2load measured
# fairness, and each cell's h2load runs; 7: a make latency run's steps and maxima, null for
# a wrk bench; 8: each cell's and step's workload, the settings' workloads, each server's
# blocking pool and the pool's live threads in the resources; 9: the db and queries workloads
# (a workload's queries), the database's usage in the resources, the database as run in the
# settings, each server's db_pool and db_driver; 10: PROFILE, each run's and step's profile,
# whether each server was profiled and its framework packages, the settings' profile and
# profile_event); older files read with their defaults (plaintext, no database, no profile).
READABLE_VERSIONS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)


class ResultsFormatError(ValueError):
    """results.json that this version cannot read."""


def percentile_key(percentile: float) -> str:
    """99.9 -> 'p99.9', 50.0 -> 'p50'."""
    return f"p{percentile:g}"


def latency_to_dict(latency: Latency) -> dict[str, Any]:
    return {
        "min": latency.min_us, "mean": latency.mean_us, "stdev": latency.stdev_us,
        "max": latency.max_us,
        "percentiles": {percentile_key(p): value for p, value in latency.percentiles_us},
    }


def run_to_dict(run: WrkRun) -> dict[str, Any]:
    return {
        "duration_s": run.duration_s, "requests": run.requests, "bytes_read": run.bytes_read,
        "requests_per_sec": run.requests_per_sec,
        "successful_requests_per_sec": run.successful_requests_per_sec,
        "transfer_bytes_per_sec": run.transfer_per_sec,
        "latency_us": latency_to_dict(run.latency),
        "socket_errors": vars(run.errors).copy(), "non_2xx_3xx": run.non_2xx_3xx,
        "threads": run.threads, "connections": run.connections, "url": run.url,
        "thread_requests_per_sec": (None if run.thread_requests_per_sec is None
                                    else vars(run.thread_requests_per_sec).copy()),
        # The histogram itself stays in the raw done() JSON.
        "latency_histogram_exact": run.latency_histogram_exact,
        "latency_samples": run.latency_samples, "ended_at_s": run.ended_at_s,
        "engine": run.engine, "start_skew_s": run.start_skew_s, "notes": list(run.notes),
        "generators": [run_to_dict(generator) for generator in run.generators],
    }


def resources_to_dict(usage: ResourceUsage) -> dict[str, Any]:
    """The server's usage, with the database's nested (null without a database)."""
    return {**vars(usage), "database": _optional(_fields, usage.database)}


def resources_from_dict(data: dict[str, Any]) -> ResourceUsage:
    """Before version 9 there was no database: absent reads as None."""
    return ResourceUsage(**{**data, "database": _optional(lambda database: DatabaseUsage(
        **database), data.get("database"))})


def workload_to_dict(workload: Workload) -> dict[str, Any]:
    return {"name": workload.name, "delay_ms": workload.delay_ms, "queries": workload.queries}


def workload_from_dict(data: dict[str, Any] | None) -> Workload:
    """Before version 8 every cell was plaintext; before 9 none had queries."""
    return Workload() if data is None else Workload(data["name"], data.get("delay_ms"),
                                                    data.get("queries"))


def profile_to_dict(profile: RunProfile) -> dict[str, Any]:
    """A run's profile; profiled_cpu_seconds (samples x interval) is derived, for readers of
    the JSON, and not read back."""
    return {**vars(profile), "layers": dict(profile.layers),
            "hot_frames": [vars(hot).copy() for hot in profile.hot_frames],
            "profiled_cpu_seconds": profile.profiled_cpu_seconds}


def profile_from_dict(data: dict[str, Any]) -> RunProfile:
    fields = {name: data[name] for name in RunProfile.__dataclass_fields__ if name in data}
    return RunProfile(**{**fields, "layers": tuple(data.get("layers", {}).items()),
                         "hot_frames": tuple(HotFrame(**hot)
                                             for hot in data.get("hot_frames", ()))})


def cell_to_dict(cell: Cell) -> dict[str, Any]:
    return {
        "server": cell.server, "workload": workload_to_dict(cell.workload),
        "threads": cell.threads, "connections": cell.connections,
        "status": cell.status.value, "reason": cell.reason,
        "runs": [{**run_to_dict(run), "round": round_number} if round_number else run_to_dict(run)
                 for run, round_number in zip(cell.runs, cell.rounds or (None,) * len(cell.runs))],
        "resources": [resources_to_dict(usage) for usage in cell.resources],
        "fairness": [fairness_run_to_dict(run) for run in cell.fairness],
        "profiles": [_optional(profile_to_dict, profile) for profile in cell.profiles],
    }


def fairness_run_to_dict(run: FairnessRun) -> dict[str, Any]:
    return {**vars(run), "connection_bytes": list(run.connection_bytes)}


def fairness_run_from_dict(data: dict[str, Any]) -> FairnessRun:
    return FairnessRun(**{**data, "connection_bytes": tuple(data.get("connection_bytes", ()))})


def result_to_dict(result: BenchResult) -> dict[str, Any]:
    return {
        "format_version": result.format_version,
        "created_utc": result.created_utc,
        "settings": None if result.settings is None else {
            **vars(result.settings), "servers": list(result.settings.servers),
            "threads": list(result.settings.threads),
            "connections": list(result.settings.connections),
            "worker_settings": list(result.settings.worker_settings),
            "loadgen_hosts": list(result.settings.loadgen_hosts),
            "workloads": [workload_to_dict(workload) for workload in result.settings.workloads],
            "database": _optional(_fields, result.settings.database),
            "profile": list(result.settings.profile)},
        "host": vars(result.host).copy(),
        "servers": [{**vars(server), "framework_packages": list(server.framework_packages)}
                    for server in result.servers],
        "cells": [cell_to_dict(cell) for cell in result.cells],
        "lab_commit": result.lab_commit,
        "warnings": list(result.warnings),
        "engines": [{**vars(engine), "images": dict(engine.images)} for engine in result.engines],
        "latency": None if result.latency is None else latency_result_to_dict(result.latency),
    }


def latency_result_to_dict(latency: LatencyResult) -> dict[str, Any]:
    """A make latency run's target, settings, every step and each server's maximum (its
    "value" is derived, the lowest of its rounds, and not read back)."""
    return {
        "slo_p99_us": latency.slo_p99_us, "rates": latency.rates,
        "cost_rate": latency.cost_rate, "cost_rate_source": latency.cost_rate_source,
        "target_url": latency.target_url, "tool": latency.tool,
        "step_warmup_s": latency.step_warmup_s,
        "steps": [rate_step_to_dict(step) for step in latency.steps],
        "maxima": [sustained_rate_to_dict(rate) for rate in latency.maxima],
    }


def rate_step_to_dict(step: RateStep) -> dict[str, Any]:
    return {
        "server": step.server, "offered_rate": step.offered_rate,
        "connections": step.connections, "purpose": step.purpose.value,
        "verdict": step.verdict.value, "reason": step.reason, "round": step.repeat,
        "duration_s": step.duration_s, "achieved_rate": step.achieved_rate,
        "answered": step.answered, "errors": dict(step.errors),
        "latency_us": None if step.latency is None else latency_to_dict(step.latency),
        "resources": None if step.resources is None else resources_to_dict(step.resources),
        "out_of_connections": step.out_of_connections, "raw_file": step.raw_file,
        "attempt": step.attempt, "workload": workload_to_dict(step.workload),
        "profile": _optional(profile_to_dict, step.profile),
    }


def sustained_rate_to_dict(rate: SustainedRate) -> dict[str, Any]:
    return {"server": rate.server, "rounds": list(rate.rounds), "value": rate.value,
            "limited_by_tool": rate.limited_by_tool, "broke_at": list(rate.broke_at)}


def engine_from_dict(data: dict[str, Any]) -> EngineRecord:
    return EngineRecord(**{**data, "images": tuple(data.get("images", {}).items())})


def latency_from_dict(data: dict[str, Any]) -> Latency:
    percentiles = tuple(sorted((float(key[1:]), value)
                               for key, value in data.get("percentiles", {}).items()))
    return Latency(mean_us=data["mean"], stdev_us=data["stdev"], max_us=data["max"],
                   min_us=data.get("min"), percentiles_us=percentiles)


def run_from_dict(data: dict[str, Any]) -> WrkRun:
    return WrkRun(
        duration_s=data["duration_s"], requests=data["requests"],
        bytes_read=data["bytes_read"], requests_per_sec=data["requests_per_sec"],
        transfer_per_sec=data["transfer_bytes_per_sec"],
        latency=latency_from_dict(data["latency_us"]),
        errors=SocketErrors(**data["socket_errors"]), non_2xx_3xx=data["non_2xx_3xx"],
        threads=data.get("threads"), connections=data.get("connections"), url=data.get("url"),
        thread_requests_per_sec=(None if data.get("thread_requests_per_sec") is None
                                 else ThreadRequestRate(**data["thread_requests_per_sec"])),
        latency_histogram_exact=data.get("latency_histogram_exact"),
        latency_samples=data.get("latency_samples"), ended_at_s=data.get("ended_at_s"),
        engine=data.get("engine"), start_skew_s=data.get("start_skew_s"),
        notes=tuple(data.get("notes", ())),
        generators=tuple(run_from_dict(generator) for generator in data.get("generators", ())),
    )


def cell_from_dict(data: dict[str, Any]) -> Cell:
    return Cell(server=data["server"], threads=data["threads"],
                connections=data["connections"], status=CellStatus(data["status"]),
                runs=tuple(run_from_dict(run) for run in data["runs"]), reason=data.get("reason"),
                rounds=tuple(run["round"] for run in data["runs"] if "round" in run),
                resources=tuple(resources_from_dict(usage) for usage in data.get("resources", ())),
                fairness=tuple(fairness_run_from_dict(run) for run in data.get("fairness", ())),
                workload=workload_from_dict(data.get("workload")),
                profiles=tuple(_optional(profile_from_dict, profile)
                               for profile in data.get("profiles", ())))


def result_from_dict(data: dict[str, Any]) -> BenchResult:
    if not isinstance(data, dict):
        raise ResultsFormatError("results.json does not hold a JSON object")
    version = data.get("format_version")
    if version not in READABLE_VERSIONS:
        raise ResultsFormatError(f"results format version {version!r}; this httplab reads "
                                 f"versions {', '.join(map(str, READABLE_VERSIONS))}")
    settings = data.get("settings")
    try:
        return BenchResult(
            format_version=version, created_utc=data["created_utc"],
            settings=None if settings is None else settings_from_dict(settings),
            host=HostInfo(**data["host"]),
            servers=tuple(server_from_dict(server) for server in data["servers"]),
            cells=tuple(cell_from_dict(cell) for cell in data["cells"]),
            lab_commit=data.get("lab_commit"), warnings=tuple(data.get("warnings", ())),
            engines=tuple(engine_from_dict(engine) for engine in data.get("engines", ())),
            latency=_optional(latency_result_from_dict, data.get("latency")),
        )
    except (KeyError, TypeError, ValueError) as error:  # ValueError: an unknown verdict or purpose
        raise ResultsFormatError(f"results.json is missing or has an unknown field: {error}") from error


def server_from_dict(data: dict[str, Any]) -> ServerRecord:
    """Before version 10 no server was profiled."""
    return ServerRecord(**{**data, "framework_packages": tuple(data.get("framework_packages",
                                                                        ()))})


def latency_result_from_dict(data: dict[str, Any]) -> LatencyResult:
    return LatencyResult(
        slo_p99_us=data["slo_p99_us"], rates=data["rates"],
        steps=tuple(rate_step_from_dict(step) for step in data["steps"]),
        maxima=tuple(sustained_rate_from_dict(rate) for rate in data["maxima"]),
        cost_rate=data.get("cost_rate"), cost_rate_source=data.get("cost_rate_source", ""),
        target_url=data.get("target_url"), tool=data.get("tool"),
        step_warmup_s=data.get("step_warmup_s", 0.0))


def rate_step_from_dict(data: dict[str, Any]) -> RateStep:
    """Only the fields rate_step_to_dict writes: an exporter's derived figures are left."""
    return RateStep(
        server=data["server"], offered_rate=data["offered_rate"],
        connections=data["connections"], purpose=StepPurpose(data["purpose"]),
        verdict=StepVerdict(data["verdict"]), reason=data["reason"], repeat=data["round"],
        duration_s=data.get("duration_s"), achieved_rate=data.get("achieved_rate"),
        answered=data.get("answered", 0), errors=tuple(data.get("errors", {}).items()),
        latency=_optional(latency_from_dict, data.get("latency_us")),
        resources=_optional(resources_from_dict, data.get("resources")),
        out_of_connections=data.get("out_of_connections", False),
        raw_file=data.get("raw_file"), attempt=data.get("attempt", 1),
        workload=workload_from_dict(data.get("workload")),
        profile=_optional(profile_from_dict, data.get("profile")))


def sustained_rate_from_dict(data: dict[str, Any]) -> SustainedRate:
    return SustainedRate(server=data["server"], rounds=tuple(data["rounds"]),
                         limited_by_tool=data.get("limited_by_tool", False),
                         broke_at=tuple(data.get("broke_at", ())))


def _optional(read, data: dict[str, Any] | None):
    """read(data), or None when the field is null or absent."""
    return None if data is None else read(data)


def _fields(record: object) -> dict[str, Any]:
    """A flat record (a dataclass of plain values) as a dict of its own."""
    return vars(record).copy()


def settings_from_dict(data: dict[str, Any]) -> Settings:
    """Versions 1-5 wrote one connection count; 6 a list (one point, or a sweep). Before 9
    there was no database, before 10 no profile."""
    connections = data["connections"]
    return Settings(**{
        **data, "servers": tuple(data["servers"]), "threads": tuple(data["threads"]),
        "connections": (connections,) if isinstance(connections, int) else tuple(connections),
        "worker_settings": tuple(data.get("worker_settings", ("original",))),
        "loadgen_hosts": tuple(data.get("loadgen_hosts", ())),
        "workloads": tuple(workload_from_dict(workload)
                           for workload in data.get("workloads", [None])),
        "database": _optional(lambda database: DatabaseRecord(**database),
                              data.get("database")),
        "profile": tuple(data.get("profile", (False,)))})


def generators_to_dict(generators: tuple[GeneratorOutcome, ...], stem_dir: Path) -> dict[str, Any]:
    """What <stem>.generators.json holds: each generator's engine, its share of the load,
    its raw files (relative to stem_dir, the raw folder) and its failure."""
    return {"generators": [{
        "index": generator.index, "engine": generator.engine, "threads": generator.threads,
        "connections": generator.connections,
        "text": _relative_name(generator.text_path, stem_dir),
        "json": _relative_name(generator.json_path, stem_dir), "failure": generator.failure,
    } for generator in generators]}


def generators_from_dict(data: dict[str, Any], directory: Path) -> tuple[GeneratorOutcome, ...]:
    """ResultsFormatError when data is not what generators_to_dict writes."""
    try:
        return tuple(GeneratorOutcome(
            index=item["index"], engine=item["engine"], threads=item["threads"],
            connections=item["connections"], text_path=_path_in(item.get("text"), directory),
            json_path=_path_in(item.get("json"), directory), failure=item.get("failure"),
        ) for item in data["generators"])
    except (KeyError, TypeError) as error:
        raise ResultsFormatError(f"generators file is missing or has an unknown field: {error}") from error


def _relative_name(path: Path | None, directory: Path) -> str | None:
    if path is None:
        return None
    try:
        return str(path.relative_to(directory))
    except ValueError:
        return str(path)  # elsewhere: kept whole


def _path_in(name: str | None, directory: Path) -> Path | None:
    return None if name is None else directory / name
