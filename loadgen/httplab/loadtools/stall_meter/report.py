"""The stall meter's JSON (what __main__.py writes) -> the model's HostStalls: its
percentiles from its HdrHistogram, its maximum, the time covered by stalls and its own cost.
A meter file holds one record per CPU metered (format 2; format 1 held the one record of
an unpinned meter). A record's lateness comes in one of three forms: the HdrHistogram the
lab keeps (hdr_histogram, loadtools/hdr_latency.py), each lateness's exact count as the
meter writes it (lateness_us, reduced to the first once the meter stopped), or the lab's
own log-linear buckets of runs before (histogram: [lowest, highest, count] each, read as
the highest, the value its percentiles gave). Every record of one run (each CPU's, this
host's and each load generator engine's) pools into one, which keeps each CPU's own record
beside it: the histograms add (the library's add), the maximum is the largest, and the
share stalled is the time stalled over the time covered, summed over the records. Only real-time meters pool
with real-time ones (an ordinary meter's lateness also counts its wait for busy CPUs): the
others are named in the place, left out. Pure: dicts in, a record out."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from hdrh.histogram import HdrHistogram

from httplab.loadtools.hdr_latency import (decoded, encoded, histogram_of, merged,
                                           percentile_us)
from httplab.model import HostStalls

FORMATS = (1, 2)  # of the meter's JSON that this reader knows
PER_CPU_FORMAT = 2  # from this format on, a file holds each CPU's record in "cpus"


class StallReportError(ValueError):
    """A JSON the stall meter did not write, or in a format this reader does not know."""


def host_stalls(data: dict[str, Any]) -> HostStalls:
    """One meter file's record, each CPU's inside; StallReportError when data is not the
    meter's JSON."""
    return pooled_host_stalls([data])


def pooled_host_stalls(files: list[dict[str, Any]]) -> HostStalls:
    """One record of several meter files over the same run (the first is the host's, if it
    ran), as the module says; StallReportError when one is not the meter's JSON, or when
    they were not measured alike (interval, threshold, buckets)."""
    records = [record for data in files for record in cpu_records(data)]
    checked = [_record(data) for data in records]
    whole = checked[0] if len(records) == 1 else _record(_pooled(records))
    # Beside a meter per CPU, one unpinned meter (an engine's older image) is a record too.
    per_cpu = tuple(checked) if any(record.cpu is not None for record in checked) else ()
    steals = [record.steal_s for record in per_cpu if record.steal_s is not None]
    return replace(whole, cpu=None, role="", cpus=per_cpu,
                   steal_s=sum(steals) if steals else None)


def cpu_records(data: dict[str, Any]) -> list[dict[str, Any]]:
    """A meter file's records: each CPU's, or the one of a file before per-CPU meters."""
    if data.get("format") not in FORMATS:
        raise StallReportError(f"not a stall meter's JSON of a known format: "
                               f"format {data.get('format')!r}")
    if data["format"] < PER_CPU_FORMAT:
        return [data]
    records = data.get("cpus")
    if not isinstance(records, list) or not records:
        raise StallReportError("stall meter's JSON without a CPU's record")
    return records


def _record(data: dict[str, Any]) -> HostStalls:
    """One record's figures (a CPU's, a format 1 file's, or a pooled one)."""
    try:
        histogram = lateness_histogram(data)
        max_us = float(data["max_us"])
        return HostStalls(
            interval_us=data["interval_us"], threshold_us=data["threshold_us"],
            samples=data["samples"], p99_us=_capped(percentile_us(histogram, 99), max_us),
            p999_us=_capped(percentile_us(histogram, 99.9), max_us), max_us=max_us,
            stalled_s=data["stalled_us"] / 1e6,
            covered_s=_covered_s(data),
            meter_cpu_s=data["loop_cpu_s"], place=data["place"],
            priority=data.get("priority", "normal (not recorded)"), cpu=data.get("cpu"),
            role=data.get("role", ""), steal_s=data.get("steal_s"))
    except (KeyError, TypeError, ValueError) as error:
        raise StallReportError(f"stall meter's JSON without {error}") from error


def lateness_histogram(record: dict[str, Any]) -> HdrHistogram:
    """A record's lateness as an HdrHistogram, from whichever form it holds (the module
    says which); KeyError, TypeError or ValueError when it holds none."""
    if "hdr_histogram" in record:
        return decoded(record["hdr_histogram"])
    if "lateness_us" in record:
        return histogram_of((max(late_us, 0), count) for late_us, count in record["lateness_us"])
    return histogram_of((high, count) for _, high, count in record["histogram"]["buckets"])


def with_hdr_histograms(data: dict[str, Any]) -> dict[str, Any]:
    """A meter file with each record's lateness as an HdrHistogram (hdr_histogram), its
    other forms left out; StallReportError when data is not the meter's JSON."""
    if data.get("format") not in FORMATS:
        raise StallReportError(f"not a stall meter's JSON of a known format: "
                               f"format {data.get('format')!r}")
    if data["format"] < PER_CPU_FORMAT:
        return _record_with_hdr(data)
    return {**data, "cpus": [_record_with_hdr(record) for record in cpu_records(data)]}


def _record_with_hdr(record: dict[str, Any]) -> dict[str, Any]:
    try:
        histogram = encoded(lateness_histogram(record))
    except (KeyError, TypeError, ValueError) as error:
        raise StallReportError(f"stall meter's JSON without {error}") from error
    kept = {key: value for key, value in record.items()
            if key not in ("histogram", "lateness_us")}
    return {**kept, "hdr_histogram": histogram}


def _pooled(records: list[dict[str, Any]]) -> dict[str, Any]:
    """One record of several, as the module says."""
    real_time = [data for data in records if _real_time(data)]
    pooled = real_time or records
    left_out = [data for data in records if not _real_time(data)] if real_time else []
    try:
        return {**pooled[0], "hdr_histogram": _merged_histogram(pooled),
                **{key: sum(data[key] for data in pooled)
                   for key in ("samples", "stalls", "stalled_us", "loop_cpu_s")},
                "max_us": max(data["max_us"] for data in pooled),
                "started": {"monotonic_s": 0.0},
                "ended": {"monotonic_s": sum(_covered_s(data) for data in pooled)},
                "place": _places(pooled, left_out),
                "priority": pooled[0]["priority"] if real_time else _ordinary(pooled)}
    except (KeyError, TypeError) as error:
        raise StallReportError(f"stall meter's JSON without {error}") from error


def _real_time(data: dict[str, Any]) -> bool:
    """As the model tells it, from the priority the meter recorded."""
    return HostStalls(priority=str(data.get("priority", ""))).real_time


def _merged_histogram(records: list[dict[str, Any]]) -> str:
    """The records' histograms added, encoded; StallReportError for records not measured
    alike, or without a histogram."""
    for key in ("interval_us", "threshold_us"):
        if len({data[key] for data in records}) > 1:
            raise StallReportError(f"stall meters of different {key} cannot be pooled")
    try:
        return encoded(merged(lateness_histogram(data) for data in records))
    except ValueError as error:
        raise StallReportError(f"stall meter's JSON without {error}") from error


def _covered_s(data: dict[str, Any]) -> float:
    return data["ended"]["monotonic_s"] - data["started"]["monotonic_s"]


def _places(pooled: list[dict[str, Any]], left_out: list[dict[str, Any]]) -> str:
    """'host; load generator 1 (ssh://b)', then the places left out and how they ran (a
    place with a meter per CPU is named once)."""
    places = "; ".join(dict.fromkeys(data["place"] for data in pooled))
    if not left_out:
        return places
    return places + "; not real-time, left out: " + "; ".join(dict.fromkeys(
        f"{_where(data)}: {data.get('priority', 'normal')}" for data in left_out))


def _ordinary(records: list[dict[str, Any]]) -> str:
    """No meter ran as a real-time task: 'normal (each place: why)'."""
    return "normal (" + "; ".join(dict.fromkeys(
        f"{data['place']}: {data.get('priority', 'not recorded')}" for data in records)) + ")"


def _where(data: dict[str, Any]) -> str:
    """'host' or 'host CPU 1': a record's place, and its CPU where it metered one."""
    return data["place"] if data.get("cpu") is None else f"{data['place']} CPU {data['cpu']}"


def _capped(value: int | None, max_us: float) -> float | None:
    """A bucket's top may lie above the largest value seen."""
    return None if value is None else min(float(value), max_us)
