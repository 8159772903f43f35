"""BenchResult <-> plain dicts for results.json. Pure: no files here."""

from __future__ import annotations

from typing import Any

from httplab.model import (BenchResult, Cell, CellStatus, HostInfo, Latency, ResourceUsage,
                           ServerRecord, Settings, SocketErrors, ThreadRequestRate, WrkRun)

FORMAT_VERSION = 4
# Later versions added fields (3: each server's log file; 4: each run's round and the CPU
# figures beside the server's); older files read with their defaults.
READABLE_VERSIONS = (1, 2, 3, 4)


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
    }


def resources_to_dict(usage: ResourceUsage) -> dict[str, Any]:
    return vars(usage).copy()


def resources_from_dict(data: dict[str, Any]) -> ResourceUsage:
    return ResourceUsage(**data)


def cell_to_dict(cell: Cell) -> dict[str, Any]:
    return {
        "server": cell.server, "threads": cell.threads, "connections": cell.connections,
        "status": cell.status.value, "reason": cell.reason,
        "runs": [{**run_to_dict(run), "round": round_number} if round_number else run_to_dict(run)
                 for run, round_number in zip(cell.runs, cell.rounds or (None,) * len(cell.runs))],
        "resources": [resources_to_dict(usage) for usage in cell.resources],
    }


def result_to_dict(result: BenchResult) -> dict[str, Any]:
    return {
        "format_version": result.format_version,
        "created_utc": result.created_utc,
        "settings": None if result.settings is None else {
            **vars(result.settings), "servers": list(result.settings.servers),
            "threads": list(result.settings.threads),
            "worker_settings": list(result.settings.worker_settings)},
        "host": vars(result.host).copy(),
        "servers": [vars(server).copy() for server in result.servers],
        "cells": [cell_to_dict(cell) for cell in result.cells],
        "lab_commit": result.lab_commit,
        "warnings": list(result.warnings),
    }


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
    )


def cell_from_dict(data: dict[str, Any]) -> Cell:
    return Cell(server=data["server"], threads=data["threads"],
                connections=data["connections"], status=CellStatus(data["status"]),
                runs=tuple(run_from_dict(run) for run in data["runs"]), reason=data.get("reason"),
                rounds=tuple(run["round"] for run in data["runs"] if "round" in run),
                resources=tuple(resources_from_dict(usage) for usage in data.get("resources", ())))


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
            settings=None if settings is None else Settings(
                **{**settings, "servers": tuple(settings["servers"]),
                   "threads": tuple(settings["threads"]),
                   "worker_settings": tuple(settings.get("worker_settings", ("original",)))}),
            host=HostInfo(**data["host"]),
            servers=tuple(ServerRecord(**server) for server in data["servers"]),
            cells=tuple(cell_from_dict(cell) for cell in data["cells"]),
            lab_commit=data.get("lab_commit"), warnings=tuple(data.get("warnings", ())),
        )
    except (KeyError, TypeError) as error:
        raise ResultsFormatError(f"results.json is missing or has an unknown field: {error}") from error
