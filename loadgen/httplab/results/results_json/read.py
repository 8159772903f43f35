"""results.json -> BenchResult, for every format this lab wrote (version.py): the fields a
format did not have yet read as their defaults, and the figures write.py derives for the
file's readers are not read back. Pure."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from httplab.axes import SETTINGS
from httplab.bench_settings import AUTO_REPEAT
from httplab.model import (AutoRepeat, BenchResult, Cell, CellStatus, CellWarning, DatabaseRecord,
                           EngineRecord, FairnessRun, HostInfo, HostStalls, HotFrame, Latency,
                           LatencyResult, RateStep, RawArchive, RunProfile, ServerRecord, Settings,
                           SocketErrors, StepPurpose, StepVerdict, SustainedRate,
                           ThreadRequestRate, WarningKind, Workload, WrkRun)
from httplab.raw_files import resources_from_dict
from httplab.results.pinned_record import pinned_run_from_dict
from httplab.results.results_json.version import READABLE_VERSIONS, ResultsFormatError
from httplab.results.stability import cell_name
from httplab.results.warning_groups import cell_warnings

STRUCTURED_WARNINGS_SINCE = 11  # before, each warning was its sentence only


def result_from_dict(data: dict[str, Any]) -> BenchResult:
    if not isinstance(data, dict):
        raise ResultsFormatError("results.json does not hold a JSON object")
    version = data.get("format_version")
    if version not in READABLE_VERSIONS:
        raise ResultsFormatError(f"results format version {version!r}; this httplab reads "
                                 f"versions {', '.join(map(str, READABLE_VERSIONS))}")
    try:
        return _with_warnings(_result(data), version, data.get("warnings", ()))
    except (KeyError, TypeError, ValueError) as error:  # ValueError: an unknown enum value
        raise ResultsFormatError(f"results.json is missing or has an unknown field: {error}") from error


def _result(data: dict[str, Any]) -> BenchResult:
    """Everything but the warnings."""
    return BenchResult(
        format_version=data["format_version"], created_utc=data["created_utc"],
        settings=_optional(settings_from_dict, data.get("settings")),
        host=HostInfo(**data["host"]),
        servers=tuple(server_from_dict(server) for server in data["servers"]),
        cells=tuple(cell_from_dict(cell) for cell in data["cells"]),
        lab_commit=data.get("lab_commit"),
        engines=tuple(engine_from_dict(engine) for engine in data.get("engines", ())),
        latency=_optional(latency_result_from_dict, data.get("latency")),
        raw_archive=_optional(lambda archive: RawArchive(**archive), data.get("raw_archive")))


def _with_warnings(result: BenchResult, version: int, stored: list) -> BenchResult:
    if version >= STRUCTURED_WARNINGS_SINCE:
        return replace(result, warnings=tuple(warning_from_dict(item) for item in stored))
    return replace(result, warnings=warnings_of_sentences(result, stored))


def warning_from_dict(data: dict[str, Any]) -> CellWarning:
    return CellWarning(WarningKind(data["kind"]), data["text"], data.get("cell", ""),
                       data.get("cause", ""), data.get("detail", ""), data.get("advice", ""))


def warnings_of_sentences(result: BenchResult, sentences: list[str]) -> tuple[CellWarning, ...]:
    """The warnings of a file before version 11, which kept only their sentences: each kind,
    cause and figure recovered by making the warnings again from the cells and matching the
    sentences. One this lab no longer makes (an older run's) is of kind OTHER, about the cell
    its sentence names first, if any."""
    known = {warning.text: warning for warning in cell_warnings(result)}
    names = [cell_name(cell, result.label(cell.server)) for cell in result.cells]
    return tuple(known.get(text) or CellWarning(WarningKind.OTHER, text, next(
        (name for name in names if text.startswith(f"{name}: ")), "")) for text in sentences)


def settings_from_dict(data: dict[str, Any]) -> Settings:
    """Versions 1-5 wrote one connection count; 6 a list (one point, or a sweep). Before 9
    there was no database, before 10 no profile, before 13 no JDK asked, before 14 no
    executor, before 15 no transport asked, before 18 no REPEAT=auto; replicas only in make
    calibrate's runs."""
    connections = data["connections"]
    data = _with_auto_repeat(data)
    return Settings(**{
        **data, "servers": tuple(data["servers"]), "threads": tuple(data["threads"]),
        "connections": (connections,) if isinstance(connections, int) else tuple(connections),
        "worker_settings": tuple(data.get("worker_settings", (SETTINGS.default,))),
        "loadgen_hosts": tuple(data.get("loadgen_hosts", ())),
        "workloads": tuple(workload_from_dict(workload)
                           for workload in data.get("workloads", [None])),
        "database": _optional(lambda database: DatabaseRecord(**database),
                              data.get("database")),
        "profile": tuple(data.get("profile", (False,))), "jdks": tuple(data.get("jdks", ())),
        "executors": tuple(data.get("executors", ())),
        "transports": tuple(data.get("transports", ())),
        "protocols": tuple(data.get("protocols", ())), "streams": data.get("streams", 1),
        "keepalive": data.get("keepalive", True), "replicas": tuple(data.get("replicas", ()))})


def _with_auto_repeat(data: dict[str, Any]) -> dict[str, Any]:
    """REPEAT=auto (version 18): "repeat" is "auto", beside the rounds it ran and its rule;
    without it, a fixed REPEAT's rounds."""
    if data.get("repeat") != AUTO_REPEAT:
        return data
    rest = {key: value for key, value in data.items() if key not in AUTO_REPEAT_KEYS}
    return {**rest, "repeat": data["rounds"],
            "auto_repeat": AutoRepeat(data["precision"], data["max_repeat"], data["metric"])}


AUTO_REPEAT_KEYS = ("rounds", "precision", "max_repeat", "metric")


def server_from_dict(data: dict[str, Any]) -> ServerRecord:
    """Before version 10 no server was profiled; before 15 none recorded its seccomp profile;
    before 16 none its protocol or TLS engine."""
    return ServerRecord(**{**data, "framework_packages": tuple(data.get("framework_packages",
                                                                        ()))})


def engine_from_dict(data: dict[str, Any]) -> EngineRecord:
    return EngineRecord(**{**data, "images": tuple(data.get("images", {}).items())})


def workload_from_dict(data: dict[str, Any] | None) -> Workload:
    """Before version 8 every cell was plaintext; before 9 none had queries."""
    return Workload() if data is None else Workload(data["name"], data.get("delay_ms"),
                                                    data.get("queries"))


def cell_from_dict(data: dict[str, Any]) -> Cell:
    return Cell(server=data["server"], threads=data["threads"],
                connections=data["connections"], status=CellStatus(data["status"]),
                runs=tuple(run_from_dict(run) for run in data["runs"]), reason=data.get("reason"),
                rounds=tuple(run["round"] for run in data["runs"] if "round" in run),
                resources=tuple(resources_from_dict(usage) for usage in data.get("resources", ())),
                fairness=tuple(fairness_run_from_dict(run) for run in data.get("fairness", ())),
                workload=workload_from_dict(data.get("workload")),
                profiles=tuple(_optional(profile_from_dict, profile)
                               for profile in data.get("profiles", ())),
                host_stalls=tuple(_optional(host_stalls_from_dict, stalls)
                                  for stalls in data.get("host_stalls", ())),
                pinned=tuple(_optional(pinned_run_from_dict, pinned)
                             for pinned in data.get("pinned", ())))


def run_from_dict(data: dict[str, Any]) -> WrkRun:
    return WrkRun(
        duration_s=data["duration_s"], requests=data["requests"],
        bytes_read=data["bytes_read"], requests_per_sec=data["requests_per_sec"],
        transfer_per_sec=data["transfer_bytes_per_sec"],
        latency=latency_from_dict(data["latency_us"]),
        errors=SocketErrors(**data["socket_errors"]), non_2xx_3xx=data["non_2xx_3xx"],
        threads=data.get("threads"), connections=data.get("connections"), url=data.get("url"),
        thread_requests_per_sec=_optional(lambda rate: ThreadRequestRate(**rate),
                                          data.get("thread_requests_per_sec")),
        latency_histogram_exact=data.get("latency_histogram_exact"),
        latency_samples=data.get("latency_samples"), ended_at_s=data.get("ended_at_s"),
        engine=data.get("engine"), start_skew_s=data.get("start_skew_s"),
        notes=tuple(data.get("notes", ())),
        generators=tuple(run_from_dict(generator) for generator in data.get("generators", ())),
        tool=data.get("tool"), protocol=data.get("protocol"), streams=data.get("streams"),
    )


def latency_from_dict(data: dict[str, Any]) -> Latency:
    percentiles = tuple(sorted((float(key[1:]), value)
                               for key, value in data.get("percentiles", {}).items()))
    return Latency(mean_us=data["mean"], stdev_us=data["stdev"], max_us=data["max"],
                   min_us=data.get("min"), percentiles_us=percentiles)


def fairness_run_from_dict(data: dict[str, Any]) -> FairnessRun:
    return FairnessRun(**{**data, "connection_bytes": tuple(data.get("connection_bytes", ()))})


def profile_from_dict(data: dict[str, Any]) -> RunProfile:
    fields = {name: data[name] for name in RunProfile.__dataclass_fields__ if name in data}
    return RunProfile(**{**fields, "layers": tuple(data.get("layers", {}).items()),
                         "hot_frames": tuple(HotFrame(**hot)
                                             for hot in data.get("hot_frames", ()))})


def host_stalls_from_dict(data: dict[str, Any]) -> HostStalls:
    """Its fields, each CPU's record among them (none in an older file); the derived share
    and cost are left to the record."""
    fields = {name: data[name] for name in HostStalls.__dataclass_fields__ if name in data}
    return HostStalls(**{**fields, "cpus": tuple(host_stalls_from_dict(record)
                                                 for record in data.get("cpus", ()))})


def latency_result_from_dict(data: dict[str, Any]) -> LatencyResult:
    return LatencyResult(
        slo_p99_us=data["slo_p99_us"], rates=data["rates"],
        steps=tuple(rate_step_from_dict(step) for step in data["steps"]),
        maxima=tuple(sustained_rate_from_dict(rate) for rate in data["maxima"]),
        cost_rate=data.get("cost_rate"), cost_rate_source=data.get("cost_rate_source", ""),
        target_url=data.get("target_url"), tool=data.get("tool"),
        step_warmup_s=data.get("step_warmup_s", 0.0))


def rate_step_from_dict(data: dict[str, Any]) -> RateStep:
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
        profile=_optional(profile_from_dict, data.get("profile")),
        host_stalls=_optional(host_stalls_from_dict, data.get("host_stalls")))


def sustained_rate_from_dict(data: dict[str, Any]) -> SustainedRate:
    return SustainedRate(server=data["server"], rounds=tuple(data["rounds"]),
                         limited_by_tool=data.get("limited_by_tool", False),
                         broke_at=tuple(data.get("broke_at", ())),
                         host_rounds=tuple(data.get("host_rounds", ())))


def _optional(read, data: dict[str, Any] | None):
    """read(data), or None when the field is null or absent."""
    return None if data is None else read(data)
