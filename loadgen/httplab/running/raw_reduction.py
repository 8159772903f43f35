"""A load tool's bulky raw output reduced, once the tool ended, to the record a table reads
(written beside it, the output then removed): h2load's log of requests to
<stem>.h2load-latency.json, the socket readings of a fairness run to
<stem>.connections.json, and a stall meter's file to its HdrHistogram form. Output that
cannot be read stays as it was written, for the reader to name what is wrong with it.
The one-off conversion of committed runs (commands/convert_raw.py) calls these too."""

from __future__ import annotations

import json
from pathlib import Path

from httplab.loadtools.h2load.connections_record import reduced_readings
from httplab.loadtools.h2load.latency_record import reduced_log
from httplab.loadtools.stall_meter.report import StallReportError, with_hdr_histograms
from httplab.results.collect import h2load_log_text


def reduce_h2load_log(log: Path, record: Path) -> Path | None:
    """The record of log written to record, log removed; the log itself when it cannot be
    read, None when there is none (the tool wrote none)."""
    if not log.is_file():
        return None
    try:
        reduced = reduced_log(h2load_log_text(log), str(log))
    except (OSError, EOFError, ValueError):
        return log
    _write_json(record, reduced)
    log.unlink()
    return record


def reduce_sockets(readings: Path, record: Path, connections: int) -> Path | None:
    """As reduce_h2load_log, for the socket readings of `connections` clients."""
    if not readings.is_file():
        return None
    try:
        reduced = reduced_readings(readings.read_text(errors="replace"), connections,
                                   str(readings))
    except (OSError, ValueError):
        return readings
    _write_json(record, reduced)
    readings.unlink()
    return record


def reduce_stalls(path: Path) -> Path | None:
    """A stall meter's file rewritten in place with HdrHistograms (already so: unchanged);
    None when there is none, or when it cannot be read (left as it was)."""
    try:
        data = json.loads(path.read_text())
        converted = with_hdr_histograms(data)
    except (OSError, ValueError, StallReportError):
        return None
    if converted != data:
        _write_json(path, converted)
    return path


def _write_json(path: Path, data: dict) -> None:
    """Whole or not at all: a run stopped while writing leaves no half record."""
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(data) + "\n")
    partial.replace(path)
