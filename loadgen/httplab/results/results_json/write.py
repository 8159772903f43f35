"""BenchResult -> results.json: every field of the model written by name, and beside them the
figures derived for the file's readers (not read back), each in its fixed place. A new field
of the model enters the file only when it is written here or named in LEFT_OUT
(tests/results/results_json/test_write.py holds the two to the model). Pure.

Derived, per cell: the summary of its Requests/sec, then on delay and blocking the bound
waiting sets (littles_law_bound), on db and queries the database's figures
(database_summary), its Little's law self-check (littles_law_check), and after its runs
its fairness figures and its bottleneck verdict (limited_by); per step of a latency run: its
costs per answered request and its verdict; last, when the run measured a framework under
two or more variants, the variants compared (variants_compared: each figure's paired
estimate, its interval and q-value, results/variants.py), and with REPEAT=auto how its
rounds ended (rounds_reached: why no more ran, and each pair's precision reached,
results/adaptive_rounds.py); and for make calibrate the host's noise (calibration: each A/A
cell's figures, results/calibration.py). JSON has no
infinity: an infinite fairness spread is the string "inf". Per record of host stalls: the
share of the run stalled and the stall meter's own cores; per run and step its foreign CPU
(foreign_cpu_cores: the host's busy cores that neither the server, the load tool nor the
database used)."""

from __future__ import annotations

import json
import math
from typing import Any

from httplab.bench_settings import AUTO_REPEAT
from httplab.model import (AutoRepeat, BenchResult, Cell, CellWarning, DatabaseRecord, EngineRecord,
                           FairnessRun, HostInfo, HostStalls, HotFrame, Latency, LatencyResult,
                           RateStep, RawArchive, RunProfile, ServerRecord, Settings, SocketErrors,
                           SustainedRate, ThreadRequestRate, Workload, WrkRun)
from httplab.raw_files import resources_to_dict
from httplab.results.adaptive_rounds import PairPrecision, RoundsReached, rounds_reached
from httplab.results.bottleneck import Bottleneck, cell_bottleneck
from httplab.results.calibration import (PRECISIONS, ROUNDS_SHOWN, MetricNoise, ReplicaPair,
                                         replica_pairs)
from httplab.results.closed_loop_check import HIGH, LOW, CellCheck, check_cell
from httplab.results.database_figures import DatabaseFigures, database_figures
from httplab.results.fairness import Fairness, cell_fairness
from httplab.results.foreign_cpu import foreign_cores
from httplab.results.littles_law import cell_wait_bound, pool_threads_max, share_of_bound
from httplab.results.paired_ratio import PairedRatio
from httplab.results.pinned_record import pinned_run_to_dict
from httplab.results.stats import Summary, cell_summary
from httplab.results.step_bottleneck import step_bottleneck
from httplab.results.step_figures import step_figures
from httplab.results.variants import VariantComparison, variant_comparisons

# The fields of the model that results.json leaves out on purpose, and why.
LEFT_OUT = {
    WrkRun: {"latency_histogram": "the whole histogram stays in the raw done() JSON; the "
                                  "file keeps whether it was exact and its sample count"},
}


def results_json_text(result: BenchResult) -> str:
    """The text of results.json."""
    return json.dumps(result_to_dict(result), indent=2, ensure_ascii=False) + "\n"


def raw_archive_to_dict(archive: RawArchive) -> dict[str, Any]:
    return {"name": archive.name, "sha256": archive.sha256}


def result_to_dict(result: BenchResult) -> dict[str, Any]:
    comparisons, pairs = variant_comparisons(result), replica_pairs(result)
    return {
        "format_version": result.format_version, "created_utc": result.created_utc,
        "settings": _optional(settings_to_dict, result.settings),
        "host": host_to_dict(result.host),
        "servers": [server_to_dict(server) for server in result.servers],
        "cells": [cell_to_dict(cell, result) for cell in result.cells],
        "lab_commit": result.lab_commit,
        "warnings": [warning_to_dict(warning) for warning in result.warnings],
        "engines": [engine_to_dict(engine) for engine in result.engines],
        "latency": None if result.latency is None else latency_result_to_dict(result.latency,
                                                                               result),
        "raw_archive": _optional(raw_archive_to_dict, result.raw_archive),
        **({"variants_compared": [variant_comparison_to_dict(one) for one in comparisons]}
           if comparisons else {}),
        **_optional_entry("rounds_reached", rounds_reached_to_dict,
                          rounds_reached(result, comparisons)),
        **({"calibration": [replica_pair_to_dict(pair) for pair in pairs]}
           if pairs else {}),
    }


def rounds_reached_to_dict(reached: RoundsReached) -> dict[str, Any]:
    """Derived, REPEAT=auto: why no more rounds ran, after how many, and each pair the rule
    narrowed with the half-width it reached (a fraction) over its paired rounds."""
    decision = reached.decision
    return {"stopped": decision.why.value, "rounds": decision.rounds,
            "pairs": [pair_precision_to_dict(pair) for pair in reached.pairs]}


def pair_precision_to_dict(pair: PairPrecision) -> dict[str, Any]:
    one = pair.comparison
    return {"base": one.base, "other": one.other, "metric": one.metric.value,
            "workload": workload_to_dict(one.workload), "threads": one.threads,
            "connections": one.connections, "half_width": pair.half_width,
            "rounds": pair.rounds, "narrowed": pair.narrowed, "log_sd": pair.log_sd,
            "rounds_expected": pair.rounds_expected}


def replica_pair_to_dict(pair: ReplicaPair) -> dict[str, Any]:
    """Derived: one A/A cell of make calibrate, each figure's noise."""
    return {"base": pair.base, "other": pair.other, "workload": workload_to_dict(pair.workload),
            "threads": pair.threads, "connections": pair.connections,
            "figures": [metric_noise_to_dict(noise) for noise in pair.noise]}


def metric_noise_to_dict(noise: MetricNoise) -> dict[str, Any]:
    """A figure's A/A: the paired SD of its log ratios, the half-width expected after each
    of ROUNDS_SHOWN rounds, the rounds each of PRECISIONS needs (null: more than 1000, or
    unknown), whether the A/A interval holds 1, and the paired ratio itself."""
    return {"metric": noise.metric.value, "log_sd": noise.log_sd,
            "expected_half_width": {str(rounds): noise.half_width_at(rounds)
                                    for rounds in ROUNDS_SHOWN},
            "rounds_for": {f"{precision:g}": noise.rounds_for(precision)
                           for precision in PRECISIONS},
            "holds_one": noise.holds_one, **paired_ratio_to_dict(noise.figures)}


def variant_comparison_to_dict(comparison: VariantComparison) -> dict[str, Any]:
    """Derived: one figure of a variant against its base (results/variants.py)."""
    return {"framework": comparison.framework, "axis": comparison.axis,
            "base": comparison.base, "other": comparison.other,
            "workload": workload_to_dict(comparison.workload), "threads": comparison.threads,
            "connections": comparison.connections, "metric": comparison.metric.value,
            **paired_ratio_to_dict(comparison.figures)}


def paired_ratio_to_dict(figures: PairedRatio) -> dict[str, Any]:
    """The paired estimate (other over base), its interval and p-value over the paired
    rounds (null with fewer than rounds_needed), its confidence, its q-value among the
    comparisons counted with it (`among`), the spread of the log ratios, and the rounds
    left out: measured on one side only, or decided by the host."""
    return {"ratio": figures.ratio, "low": figures.low, "high": figures.high,
            "confidence": figures.confidence, "rounds": figures.rounds,
            "rounds_needed": figures.rounds_needed, "p_value": figures.p_value,
            "q_value": figures.q_value, "among": figures.among, "log_sd": figures.log_sd,
            "unpaired": list(figures.unpaired), "lost_to_host": list(figures.lost_to_host)}


def warning_to_dict(warning: CellWarning) -> dict[str, Any]:
    return {"kind": warning.kind.value, "text": warning.text, "cell": warning.cell,
            "cause": warning.cause, "detail": warning.detail, "advice": warning.advice}


def settings_to_dict(settings: Settings) -> dict[str, Any]:
    return {
        "servers": list(settings.servers), "threads": list(settings.threads),
        "connections": list(settings.connections), "duration_s": settings.duration_s,
        "backend": settings.backend, "url": settings.url,
        **repeat_to_dict(settings.repeat, settings.auto_repeat),
        "primer_s": settings.primer_s, "primer_connections": settings.primer_connections,
        "warmup_s": settings.warmup_s, "cv_threshold": settings.cv_threshold,
        "server_cpus": settings.server_cpus, "loadgen_cpus": settings.loadgen_cpus,
        "worker_settings": list(settings.worker_settings),
        "server_host": settings.server_host, "loadgen_hosts": list(settings.loadgen_hosts),
        "target_address": settings.target_address, "fairness": settings.fairness,
        "workloads": [workload_to_dict(workload) for workload in settings.workloads],
        "database": _optional(database_record_to_dict, settings.database),
        "profile": list(settings.profile), "profile_event": settings.profile_event,
        "jdks": list(settings.jdks), "executors": list(settings.executors),
        "transports": list(settings.transports),
        "protocols": list(settings.protocols), "streams": settings.streams,
        "keepalive": settings.keepalive,
        **({"replicas": list(settings.replicas)} if settings.replicas else {}),
    }


def repeat_to_dict(repeat: int, rule: AutoRepeat | None) -> dict[str, Any]:
    """A fixed REPEAT's rounds; or "auto", the rounds it ran and its rule."""
    if rule is None:
        return {"repeat": repeat}
    return {"repeat": AUTO_REPEAT, "rounds": repeat, **auto_repeat_to_dict(rule)}


def auto_repeat_to_dict(rule: AutoRepeat) -> dict[str, Any]:
    return {"precision": rule.precision, "max_repeat": rule.max_repeat, "metric": rule.metric}


def database_record_to_dict(database: DatabaseRecord) -> dict[str, Any]:
    return {"where": database.where, "version": database.version,
            "max_connections": database.max_connections,
            "shared_buffers": database.shared_buffers, "image": database.image,
            "binaries": database.binaries, "log_file": database.log_file}


def host_to_dict(host: HostInfo) -> dict[str, Any]:
    return {"hostname": host.hostname, "cpu_model": host.cpu_model, "cores": host.cores,
            "memory_bytes": host.memory_bytes, "kernel": host.kernel, "os": host.os,
            "docker": host.docker, "compose": host.compose, "java": host.java,
            "wrk": host.wrk, "python": host.python}


def server_to_dict(server: ServerRecord) -> dict[str, Any]:
    return {
        "name": server.name, "label": server.label, "framework": server.framework,
        "version": server.version, "worker_setting": server.worker_setting,
        "transport": server.transport, "startup_line": server.startup_line,
        "verification": server.verification, "image_size_bytes": server.image_size_bytes,
        "java_version": server.java_version, "startup_seconds": server.startup_seconds,
        "image_id": server.image_id, "log_file": server.log_file, "role": server.role,
        "setting": server.setting, "blocking_pool": server.blocking_pool,
        "blocking_pool_kind": server.blocking_pool_kind, "db_pool": server.db_pool,
        "db_driver": server.db_driver, "profiled": server.profiled,
        "framework_packages": list(server.framework_packages), "jdk": server.jdk,
        "gc": server.gc, "heap_max_mb": server.heap_max_mb, "java_vendor": server.java_vendor,
        "beyond_write_up": server.beyond_write_up, "not_applicable": server.not_applicable,
        "executor": server.executor,
        "seccomp": server.seccomp, "protocol": server.protocol, "tls_engine": server.tls_engine,
    }


def engine_to_dict(engine: EngineRecord) -> dict[str, Any]:
    return {"engine": engine.engine, "role": engine.role, "docker": engine.docker,
            "hostname": engine.hostname, "cores": engine.cores,
            "memory_bytes": engine.memory_bytes, "kernel": engine.kernel, "os": engine.os,
            "clock_offset_s": engine.clock_offset_s, "images": dict(engine.images)}


def workload_to_dict(workload: Workload) -> dict[str, Any]:
    return {"name": workload.name, "delay_ms": workload.delay_ms, "queries": workload.queries}


def cell_to_dict(cell: Cell, result: BenchResult) -> dict[str, Any]:
    rounds = cell.rounds or (None,) * len(cell.runs)
    return {
        "server": cell.server, "workload": workload_to_dict(cell.workload),
        "threads": cell.threads, "connections": cell.connections,
        "status": cell.status.value, "reason": cell.reason,
        **_cell_summaries(cell, result),
        "host_stalls": [_optional(host_stalls_to_dict, stalls) for stalls in cell.host_stalls],
        "pinned": [_optional(pinned_run_to_dict, pinned) for pinned in cell.pinned],
        "foreign_cpu_cores": [foreign_cores(usage) for usage in cell.resources],
        "runs": [run_to_dict(run, round_number) for run, round_number in zip(cell.runs, rounds)],
        "resources": [resources_to_dict(usage) for usage in cell.resources],
        "fairness": [fairness_run_to_dict(run) for run in cell.fairness],
        "profiles": [_optional(profile_to_dict, profile) for profile in cell.profiles],
        "fairness_summary": _optional(fairness_to_dict, cell_fairness(cell)),
        "limited_by": bottleneck_to_dict(cell_bottleneck(cell, result)),
    }


def run_to_dict(run: WrkRun, round_number: int | None = None) -> dict[str, Any]:
    """One wrk run; its round last, when its cell was measured in rounds."""
    data = {
        "duration_s": run.duration_s, "requests": run.requests, "bytes_read": run.bytes_read,
        "requests_per_sec": run.requests_per_sec,
        "successful_requests_per_sec": run.successful_requests_per_sec,
        "transfer_bytes_per_sec": run.transfer_per_sec,
        "latency_us": latency_to_dict(run.latency),
        "socket_errors": socket_errors_to_dict(run.errors), "non_2xx_3xx": run.non_2xx_3xx,
        "threads": run.threads, "connections": run.connections, "url": run.url,
        "thread_requests_per_sec": _optional(thread_rate_to_dict, run.thread_requests_per_sec),
        "latency_histogram_exact": run.latency_histogram_exact,
        "latency_samples": run.latency_samples, "ended_at_s": run.ended_at_s,
        "engine": run.engine, "start_skew_s": run.start_skew_s, "notes": list(run.notes),
        "generators": [run_to_dict(generator) for generator in run.generators],
        # Only a run another tool than wrk measured says its tool (so wrk's files stay as
        # they were): h2load's, with the application protocol it spoke and its streams.
        **({"tool": run.tool, "protocol": run.protocol, "streams": run.streams}
           if run.tool is not None else {}),
    }
    return {**data, "round": round_number} if round_number else data


def percentile_key(percentile: float) -> str:
    """99.9 -> 'p99.9', 50.0 -> 'p50'."""
    return f"p{percentile:g}"


def latency_to_dict(latency: Latency) -> dict[str, Any]:
    return {
        "min": latency.min_us, "mean": latency.mean_us, "stdev": latency.stdev_us,
        "max": latency.max_us,
        "percentiles": {percentile_key(p): value for p, value in latency.percentiles_us},
    }


def socket_errors_to_dict(errors: SocketErrors) -> dict[str, Any]:
    return {"connect": errors.connect, "read": errors.read, "write": errors.write,
            "timeout": errors.timeout}


def thread_rate_to_dict(rate: ThreadRequestRate) -> dict[str, Any]:
    return {"mean": rate.mean, "stdev": rate.stdev, "max": rate.max, "min": rate.min}


def fairness_run_to_dict(run: FairnessRun) -> dict[str, Any]:
    return {
        "connections": run.connections, "duration_s": run.duration_s,
        "requests_per_sec": run.requests_per_sec, "succeeded": run.succeeded,
        "failed": run.failed, "client_rps_min": run.client_rps_min,
        "client_rps_max": run.client_rps_max, "client_rps_mean": run.client_rps_mean,
        "client_rps_sd": run.client_rps_sd, "connection_bytes": list(run.connection_bytes),
        "sockets_from_s": run.sockets_from_s, "sockets_to_s": run.sockets_to_s,
        "reopened_connections": run.reopened_connections, "tool": run.tool,
    }


def profile_to_dict(profile: RunProfile) -> dict[str, Any]:
    """A run's profile; profiled_cpu_seconds (samples x interval) is derived, for readers of
    the JSON, and not read back."""
    return {
        "event": profile.event, "interval": profile.interval, "samples": profile.samples,
        "layers": dict(profile.layers),
        "hot_frames": [hot_frame_to_dict(hot) for hot in profile.hot_frames],
        "measured_cpu_seconds": profile.measured_cpu_seconds, "mismatch": profile.mismatch,
        "collapsed_file": profile.collapsed_file,
        "flame_graph_file": profile.flame_graph_file, "failure": profile.failure,
        "profiled_cpu_seconds": profile.profiled_cpu_seconds,
    }


def host_stalls_to_dict(stalls: HostStalls) -> dict[str, Any]:
    """The stall meter's figures, each CPU's as their own (older files have none), then
    (derived) the share of the run stalled and its cost."""
    return {"place": stalls.place, "interval_us": stalls.interval_us,
            "threshold_us": stalls.threshold_us, "samples": stalls.samples,
            "p99_us": stalls.p99_us, "p999_us": stalls.p999_us, "max_us": stalls.max_us,
            "stalled_s": stalls.stalled_s, "covered_s": stalls.covered_s,
            "meter_cpu_s": stalls.meter_cpu_s, "unavailable": stalls.unavailable,
            "priority": stalls.priority, "cpu": stalls.cpu, "role": stalls.role,
            "steal_s": stalls.steal_s,
            "cpus": [host_stalls_to_dict(record) for record in stalls.cpus],
            "stalled_share": stalls.stalled_share, "meter_cores": stalls.meter_cores}


def hot_frame_to_dict(hot: HotFrame) -> dict[str, Any]:
    return {"frame": hot.frame, "layer": hot.layer, "samples": hot.samples}


def _cell_summaries(cell: Cell, result: BenchResult) -> dict[str, Any]:
    """Derived, after the cell's reason: the summary of its Requests/sec, then the bound
    (delay and blocking cells only) and the database's figures (db and queries only), as
    results.csv names them."""
    summaries: dict[str, Any] = {
        "requests_per_sec_summary": _optional(summary_to_dict, cell_summary(cell))}
    if cell_wait_bound(cell, result) is not None:
        summaries["littles_law_bound"] = littles_law_bound_to_dict(cell, result)
    if cell.workload.uses_database:
        summaries["database_summary"] = _optional(database_figures_to_dict,
                                                  database_figures(cell))
    summaries["littles_law_check"] = _optional(littles_law_check_to_dict, check_cell(cell))
    return summaries


def summary_to_dict(summary: Summary) -> dict[str, Any]:
    return {"n": summary.n, "median": summary.median, "minimum": summary.minimum,
            "maximum": summary.maximum, "mean": summary.mean, "stdev": summary.stdev,
            "cv": summary.cv}


def littles_law_check_to_dict(check: CellCheck) -> dict[str, Any]:
    """rate × mean latency ÷ connections: the run farthest from 1, each run's, the bounds,
    and the side that is wrong when out of them (results/closed_loop_check.py)."""
    return {"ratio": check.worst.ratio, "run_ratios": [run.ratio for run in check.runs],
            "bounds": [LOW, HIGH],
            "side": None if check.worst.side is None else check.worst.side.value}


def littles_law_bound_to_dict(cell: Cell, result: BenchResult) -> dict[str, Any]:
    """The figures results.csv names in its bound columns."""
    bound = cell_wait_bound(cell, result)
    blocking = bound.pool_threads is not None
    return {"bound_requests_per_sec": bound.rate, "set_by": bound.set_by,
            "share_of_bound": share_of_bound(cell, result),
            "connections_bound_requests_per_sec": bound.connections_rate,
            "pool_bound_requests_per_sec": bound.pool_rate,
            "blocking_pool": bound.pool_threads,
            "blocking_pool_threads_max": pool_threads_max(cell) if blocking else None}


def database_figures_to_dict(figures: DatabaseFigures) -> dict[str, Any]:
    """The figures results.csv names in its database columns (null where not measured; the
    server's db_pool and db_driver are in its record)."""
    return {"database_cores": figures.cores,
            "database_cpu_us_per_request": figures.cpu_us_per_request,
            "database_memory_peak_bytes": figures.memory_peak_bytes,
            "database_context_switches": figures.context_switches,
            "database_context_switches_per_request": figures.context_switches_per_request,
            "database_unavailable": figures.unavailable}


def fairness_to_dict(figures: Fairness) -> dict[str, Any]:
    spread = "inf" if math.isinf(figures.spread) else figures.spread
    return {"spread": spread, "cv": figures.cv, "slowest_share": figures.slowest_share,
            "connections": figures.connections}


def bottleneck_to_dict(verdict: Bottleneck) -> dict[str, Any]:
    return {"limit": verdict.limit.value, "detail": verdict.detail}


def latency_result_to_dict(latency: LatencyResult, result: BenchResult) -> dict[str, Any]:
    """A make latency run's target, settings, every step and each server's maximum."""
    return {
        "slo_p99_us": latency.slo_p99_us, "rates": latency.rates,
        "cost_rate": latency.cost_rate, "cost_rate_source": latency.cost_rate_source,
        "target_url": latency.target_url, "tool": latency.tool,
        "step_warmup_s": latency.step_warmup_s,
        "steps": [rate_step_to_dict(step, result) for step in latency.steps],
        "maxima": [sustained_rate_to_dict(rate) for rate in latency.maxima],
    }


def rate_step_to_dict(step: RateStep, result: BenchResult) -> dict[str, Any]:
    """One fixed-rate step, then (derived) its costs per answered request and which CPU
    limited it, as results.md shows them."""
    figures = step_figures(step)
    return {
        "server": step.server, "offered_rate": step.offered_rate,
        "connections": step.connections, "purpose": step.purpose.value,
        "verdict": step.verdict.value, "reason": step.reason, "round": step.repeat,
        "duration_s": step.duration_s, "achieved_rate": step.achieved_rate,
        "answered": step.answered, "errors": dict(step.errors),
        "latency_us": _optional(latency_to_dict, step.latency),
        "resources": _optional(resources_to_dict, step.resources),
        "out_of_connections": step.out_of_connections, "raw_file": step.raw_file,
        "attempt": step.attempt, "workload": workload_to_dict(step.workload),
        "profile": _optional(profile_to_dict, step.profile),
        "host_stalls": _optional(host_stalls_to_dict, step.host_stalls),
        "cpu_us_per_request": figures.cpu_us_per_request,
        "foreign_cpu_cores": foreign_cores(step.resources),
        "context_switches_per_request": figures.context_switches_per_request,
        "limited_by": bottleneck_to_dict(step_bottleneck(step, result)),
    }


def sustained_rate_to_dict(rate: SustainedRate) -> dict[str, Any]:
    """A server's maximum; its "value" is derived, the lowest of its rounds."""
    return {"server": rate.server, "rounds": list(rate.rounds), "value": rate.value,
            "limited_by_tool": rate.limited_by_tool, "broke_at": list(rate.broke_at),
            "host_rounds": list(rate.host_rounds)}


def _optional(write, record):
    """write(record), or None when there is no record."""
    return None if record is None else write(record)


def _optional_entry(key: str, write, record) -> dict[str, Any]:
    """{key: write(record)}, or nothing when there is no record."""
    return {} if record is None else {key: write(record)}
