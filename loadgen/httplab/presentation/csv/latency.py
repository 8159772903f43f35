"""results.csv of a make latency run, in base units (µs, bytes, requests a second) for
spreadsheets and scripts: one header, and a row per server's maximum (table "max"), per
search or list step ("step") and per step at the common rate ("cost"), in results.md's
order (a round's maximum the host left undetermined reads "host"). A column that does not apply to a row's table is empty. A run whose steps were
profiled (PROFILE=1) ends every row with the profile's columns (csv/profile.py),
empty for a maximum and for a step without a profile. Pure."""

from __future__ import annotations

import csv
import io

from httplab.model import BenchResult, RateStep, ResourceUsage, StepVerdict, SustainedRate
from httplab.presentation.csv.profile import profile_header, profile_values
from httplab.presentation.views.latency_figures import (cost_steps, is_reference,
                                                        latency_servers, rate_steps)
from httplab.presentation.views.profile_figures import layer_order, profiled_steps
from httplab.results.step_bottleneck import step_bottleneck
from httplab.results.step_figures import StepFigures, step_figures

HEAD = ("table", "framework", "server", "role")
STEP_COLUMNS = (
    "round", "purpose", "offered_rate", "achieved_rate", "connections", "out_of_connections",
    "duration_s", "answered", "failed_requests", "errors", "latency_p50_us", "latency_p90_us",
    "latency_p99_us", "latency_p99_9_us", "latency_max_us", "latency_mean_us", "cpu_cores",
    "cpu_us_per_request", "context_switches_per_request",
    "involuntary_switches_per_request", "memory_peak_bytes",
    "memory_mean_bytes", "server_threads", "loadgen_cores", "host_busy_cores", "limited_by",
    "limited_by_detail", "verdict", "reason", "raw_file")
MAX_COLUMNS = ("max_sustainable_rate", "max_rounds", "limited_by_tool", "broke_at")
LATENCY_CSV_HEADER = HEAD + STEP_COLUMNS + MAX_COLUMNS
USAGE_COLUMNS = 9  # from cpu_cores to host_busy_cores


def render_latency_csv(result: BenchResult) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    layers = layer_order(result) if profiled_steps(result) else None
    writer.writerow(LATENCY_CSV_HEADER + (profile_header(layers) if layers else ()))
    for rate in result.latency.maxima:
        writer.writerow(_head(result, "max", rate.server) + ("",) * len(STEP_COLUMNS)
                        + _max_columns(rate) + _profile_columns(None, layers))
    for table, steps_of in (("step", rate_steps), ("cost", cost_steps)):
        for step in (one for server in latency_servers(result) for one in steps_of(result, server)):
            writer.writerow(_head(result, table, step.server) + _step_columns(result, step)
                            + ("",) * len(MAX_COLUMNS) + _profile_columns(step, layers))
    return buffer.getvalue()


def _head(result: BenchResult, table: str, server: str) -> tuple[str, ...]:
    return (table, result.label(server), server,
            "reference" if is_reference(result, server) else "framework")


def _max_columns(rate: SustainedRate) -> tuple[str, ...]:
    return (_number(rate.value), ";".join(StepVerdict.HOST.value if number in rate.host_rounds
                                          else _number(value)
                                          for number, value in enumerate(rate.rounds, 1)),
            _flag(rate.limited_by_tool), "; ".join(rate.broke_at))


def _step_columns(result: BenchResult, step: RateStep) -> tuple[object, ...]:
    figures, verdict = step_figures(step), step_bottleneck(step, result)
    return (step.repeat, step.purpose.value, _number(step.offered_rate),
            _number(step.achieved_rate), step.connections, _flag(step.out_of_connections),
            _number(step.duration_s, digits=3), step.answered, step.failed_requests,
            "; ".join(f"{kind}={count}" for kind, count in step.errors),
            *(_number(value) for value in figures.latency_us),
            _number(step.latency and step.latency.mean_us),
            *_usage_columns(step.resources, figures),
            verdict.limit.value, verdict.detail, step.verdict.value, step.reason,
            step.raw_file or "")


def _usage_columns(usage: ResourceUsage | None, figures: StepFigures) -> tuple[str, ...]:
    """The server's CPU, its costs per request, memory and threads, the tool's and the
    host's cores."""
    if usage is None:
        return ("",) * USAGE_COLUMNS
    return (_number(usage.cpu_cores, digits=3), _number(figures.cpu_us_per_request),
            _number(figures.context_switches_per_request),
            _number(figures.involuntary_switches_per_request),
            _number(usage.memory_peak_bytes, digits=0), _number(usage.memory_mean_bytes, digits=0),
            "" if usage.threads_max is None else str(usage.threads_max),
            _number(usage.loadgen_cores, digits=3), _number(usage.host_busy_cores, digits=3))


def _profile_columns(step: RateStep | None, layers: tuple[str, ...] | None) -> tuple[str, ...]:
    """None when no step of the run has a profile; empty for a maximum's row."""
    if layers is None:
        return ()
    if step is None:
        return ("",) * len(profile_header(layers))
    return profile_values(step, layers)


def _flag(value: bool) -> str:
    return "true" if value else "false"


def _number(value: float | None, digits: int = 2) -> str:
    return "" if value is None else f"{value:.{digits}f}"
