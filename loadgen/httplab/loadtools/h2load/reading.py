"""One h2load fairness run from its two raw files: h2load's output and the record of the
socket readings fairness.sh took during it (or, in runs before that record, the readings
themselves). Pure."""

from __future__ import annotations

from dataclasses import replace

from httplab.loadtools.h2load.connections_record import (ConnectionBytes,
                                                         connections_from_readings)
from httplab.loadtools.h2load.report import parse_h2load
from httplab.model import FairnessRun


def read_fairness_run(h2load_text: str, sockets_text: str | None, connections: int,
                      h2load_source: str, sockets_source: str) -> FairnessRun:
    """Errors name the text's source (its file, e.g. "raw/netty-t2-c50.h2load.txt"), from
    the socket readings as fairness.sh wrote them."""
    counted = (None if sockets_text is None
               else connections_from_readings(sockets_text, connections, sockets_source))
    return fairness_run(h2load_text, counted, connections, h2load_source)


def fairness_run(h2load_text: str, counted: ConnectionBytes | None, connections: int,
                 h2load_source: str) -> FairnessRun:
    """Without two socket readings the run has no connection_bytes, and its fairness comes
    from h2load's own per-client summary."""
    report = parse_h2load(h2load_text, h2load_source)
    run = FairnessRun(connections=connections, duration_s=report.duration_s,
                      requests_per_sec=report.requests_per_sec, succeeded=report.succeeded,
                      failed=report.failed, client_rps_min=report.client_rps_min,
                      client_rps_max=report.client_rps_max,
                      client_rps_mean=report.client_rps_mean, client_rps_sd=report.client_rps_sd,
                      tool=None if counted is None else counted.tool)
    if counted is None or counted.connection_bytes is None:
        return run
    return replace(run, connection_bytes=counted.connection_bytes,
                   sockets_from_s=counted.from_s, sockets_to_s=counted.to_s,
                   reopened_connections=counted.reopened)
