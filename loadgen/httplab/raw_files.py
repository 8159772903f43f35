"""The formats of the two JSON files the runner writes into raw/ for `httplab report` to
read back: a measured run's resources (<stem>.resources.json, a ResourceUsage, the
database's nested) and the record of which load generator wrote which raw files of a run
spread over several (<stem>.generators.json). run_layout.py names them; this module says
what they hold. Pure: dicts in and out, no files here."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from httplab.model import DatabaseUsage, ResourceUsage
from httplab.outcomes import GeneratorOutcome


class RawFileError(ValueError):
    """A raw file this lab did not write, or not in a shape it knows."""


def resources_to_dict(usage: ResourceUsage) -> dict[str, Any]:
    """The server's usage, with the database's nested (null without a database);
    results.json keeps each run's resources in the same shape."""
    return {
        "cpu_cores": usage.cpu_cores, "memory_peak_bytes": usage.memory_peak_bytes,
        "memory_mean_bytes": usage.memory_mean_bytes, "samples": usage.samples,
        "source": usage.source, "unavailable": usage.unavailable,
        "cpu_seconds": usage.cpu_seconds, "context_switches": usage.context_switches,
        "threads_max": usage.threads_max, "loadgen_cores": usage.loadgen_cores,
        "loadgen_source": usage.loadgen_source, "host_busy_cores": usage.host_busy_cores,
        "pool_threads_max": usage.pool_threads_max,
        "involuntary_switches": usage.involuntary_switches,
        "database": None if usage.database is None else database_usage_to_dict(usage.database),
    }


def database_usage_to_dict(usage: DatabaseUsage) -> dict[str, Any]:
    return {"cpu_cores": usage.cpu_cores, "cpu_seconds": usage.cpu_seconds,
            "memory_peak_bytes": usage.memory_peak_bytes,
            "context_switches": usage.context_switches, "samples": usage.samples,
            "source": usage.source, "unavailable": usage.unavailable}


def resources_from_dict(data: dict[str, Any]) -> ResourceUsage:
    """Files written before the database existed have none: absent reads as None."""
    database = data.get("database")
    return ResourceUsage(**{**data, "database": None if database is None
                            else DatabaseUsage(**database)})


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
    """RawFileError when data is not what generators_to_dict writes."""
    try:
        return tuple(GeneratorOutcome(
            index=item["index"], engine=item["engine"], threads=item["threads"],
            connections=item["connections"], text_path=_path_in(item.get("text"), directory),
            json_path=_path_in(item.get("json"), directory), failure=item.get("failure"),
        ) for item in data["generators"])
    except (KeyError, TypeError) as error:
        raise RawFileError(f"generators file is missing or has an unknown field: {error}") from error


def _relative_name(path: Path | None, directory: Path) -> str | None:
    if path is None:
        return None
    try:
        return str(path.relative_to(directory))
    except ValueError:
        return str(path)  # elsewhere: kept whole


def _path_in(name: str | None, directory: Path) -> Path | None:
    return None if name is None else directory / name
