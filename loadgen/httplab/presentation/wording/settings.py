"""The run line's words for what was run: a bench's settings, a latency run's protocol, the
database beside the servers (results.md's "Run:" line, the run page's header, the list of
runs). Pure."""

from __future__ import annotations

from httplab.axes import AXES
from httplab.model import PLAINTEXT, DatabaseRecord, LatencyResult, Settings
from httplab.presentation.wording.auto_repeat import precision_text
from httplab.presentation.wording.formatting import MISSING
from httplab.presentation.wording.latency import slo_text

def describe_settings(settings: Settings) -> str:
    text = (f"wrk with {spoken_list(settings.connections)} connections, threads "
            f"{spoken_list(settings.threads)}, {settings.duration_s:g} s per run, against "
            f"{settings.url}; backend {settings.backend}")
    text += (f"; {settings.repeat} measured run{'s' if settings.repeat > 1 else ''} per cell"
             f"{auto_repeat_text(settings)}")
    warmups = [f"{name} {seconds:g} s" for name, seconds in
               (("primer", settings.primer_s), ("warm-up", settings.warmup_s)) if seconds]
    text += f", after {' and '.join(warmups)} (not measured)" if warmups else ", no warm-up"
    if settings.fairness:
        text += "; fairness: h2load after each measured run"
    if settings.workloads != (PLAINTEXT,):
        text += f"; workloads {spoken_list(tuple(w.label for w in settings.workloads))}"
    text += axes_text(settings)
    for name, cpus in (("server", settings.server_cpus), ("wrk", settings.loadgen_cpus)):
        if cpus:
            text += f"; {name} on CPUs {cpus}"
    return text + (f"; {describe_database(settings.database)}" if settings.database else "")


def axes_text(settings: Settings) -> str:
    """Each variant axis (AXES) the run asked other than its default alone, by its setting
    and its values in the order asked: "; JDK 17 and 25; PROTOCOL h1 and h2"."""
    return "".join(f"; {axis.setting} {spoken_list(axis.recorded(settings))}" for axis in AXES
                   if axis.recorded(settings) != (axis.default,))


def spoken_list(values: tuple[object, ...]) -> str:
    """(16, 128, 500) -> '16, 128 and 500'."""
    texts = [str(value) for value in values]
    return " and ".join(filter(None, (", ".join(texts[:-1]), texts[-1]))) if texts else MISSING


def describe_database(database: DatabaseRecord) -> str:
    """The run line's part: "database PostgreSQL 15.14 (Debian 15.14-1.pgdg120+1)
    (max_connections 100, shared_buffers 128MB), docker image postgres:15.14, started
    afresh for each server, each one's log raw/<server>.database.log"."""
    version = (database.version or "PostgreSQL, version unknown").split(" on ")[0]
    settings = ", ".join(f"{name} {value}" for name, value in
                         (("max_connections", database.max_connections),
                          ("shared_buffers", database.shared_buffers)) if value is not None)
    where = (f"docker image {database.image or 'unknown'}" if database.where == "docker"
             else f"{database.where} binaries {database.binaries or 'unknown'}")
    text = f"database {version}" + (f" ({settings})" if settings else "")
    text += f", {where}, started afresh for each server"
    return text + (f", each one's log {database.log_file}" if database.log_file else "")


def describe_latency_run(latency: LatencyResult, settings: Settings | None) -> str:
    """The tool, the rates, the target, the steps' timing and the rest of the protocol."""
    rates = ("found by search (doubled while the target held, then bisected between the "
             "highest that held and the lowest that broke)" if latency.rates == "auto" else
             f"of {latency.rates.replace(',', ', ')} req/s")
    target = latency.target_url or (settings.url if settings else None)
    text = (f"{latency.tool or 'the load tool'} at fixed rates {rates}, against "
            f"{target or 'each server'}; target {slo_text(latency.slo_p99_us)}")
    return text + (_protocol(settings, latency.step_warmup_s, latency.target_url is not None)
                   if settings else "")


def auto_repeat_text(settings: Settings) -> str:
    """' (REPEAT=auto: ±5.0 % on requests_per_sec, at most 10 rounds)'; nothing for a fixed
    REPEAT."""
    rule = settings.auto_repeat
    if rule is None:
        return ""
    return (f" (REPEAT=auto: {precision_text(rule.precision)} on {rule.metric}, at most "
            f"{rule.max_repeat} rounds)")


def _protocol(settings: Settings, step_warmup_s: float, users_server: bool) -> str:
    step = f"; {settings.duration_s:g} s measured per step"
    if step_warmup_s:
        step += f", after {step_warmup_s:g} s unmeasured at its rate"
    rounds = f"; {settings.repeat} round{'s' if settings.repeat > 1 else ''}" \
        f"{auto_repeat_text(settings)}"
    warmups = [f"{name} {seconds:g} s" for name, seconds in
               (("primer", settings.primer_s), ("warm-up", settings.warmup_s)) if seconds]
    start = f", each server started, then {' and '.join(warmups)} (not measured)" if warmups else ""
    if users_server:
        start = ", the server started by the user (URL=): not started, checked or sampled by the lab"
    text = f"{step}{rounds}{start}; backend {settings.backend}"
    for name, cpus in (("server", settings.server_cpus), ("load tool", settings.loadgen_cpus)):
        if cpus:
            text += f"; {name} on CPUs {cpus}"
    return text + (f"; {describe_database(settings.database)}" if settings.database else "")
