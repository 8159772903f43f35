"""One h2load fairness run from its two raw files: h2load's output and the socket readings
fairness.sh took during it. Pure."""

from __future__ import annotations

from dataclasses import replace

from httplab.loadtools.h2load.report import parse_h2load
from httplab.loadtools.h2load.sockets import connection_deltas, parse_sockets
from httplab.model import FairnessRun


def read_fairness_run(h2load_text: str, sockets_text: str | None, connections: int,
                      h2load_source: str, sockets_source: str) -> FairnessRun:
    """Errors name the text's source (its file, e.g. "raw/netty-t2-c50.h2load.txt"). Without
    two socket readings the run has no connection_bytes, and its fairness comes from h2load's
    own per-client summary."""
    report = parse_h2load(h2load_text, h2load_source)
    readings = () if sockets_text is None else parse_sockets(sockets_text, sockets_source)
    run = FairnessRun(connections=connections, duration_s=report.duration_s,
                      requests_per_sec=report.requests_per_sec, succeeded=report.succeeded,
                      failed=report.failed, client_rps_min=report.client_rps_min,
                      client_rps_max=report.client_rps_max,
                      client_rps_mean=report.client_rps_mean, client_rps_sd=report.client_rps_sd,
                      tool=readings[0].tool if readings else None)
    if len(readings) < 2:
        return run
    connection_bytes, reopened = connection_deltas(readings, connections)
    return replace(run, connection_bytes=connection_bytes, sockets_from_s=readings[0].at_s,
                   sockets_to_s=readings[-1].at_s, reopened_connections=reopened)
