"""make calibrate in words: the table of the host's noise (each A/A cell's figures, the
half-widths they lead to, the rounds a precision needs) and the one sentence that says
whether the host drifted within a round (results/calibration.py). Every output says them
from here. Pure."""

from __future__ import annotations

from httplab.model import BenchResult
from httplab.presentation.wording.formatting import MISSING
from httplab.presentation.wording.variants import format_interval
from httplab.results.calibration import (PRECISIONS, ROUNDS_LIMIT, ROUNDS_SHOWN, MetricNoise,
                                         NoiseMetric, ReplicaPair, replica_pairs)
from httplab.results.paired_ratio import CONFIDENCE, MIN_ROUNDS

METRIC_NAMES = {NoiseMetric.REQUESTS_PER_SEC: "Requests/sec",
                NoiseMetric.CPU_PER_REQUEST: "CPU per request", NoiseMetric.P99: "p99"}
CALIBRATION_TITLE = "Host noise (make calibrate)"
CALIBRATION_INTRO = (
    f"One server measured twice in every round as two identical variants (an A/A: the second "
    f"replica against the first), so their paired ratios vary by the host's noise alone. "
    f"Paired SD: the spread of the rounds' log ratios, in %; from it, the half-width of a "
    f"{CONFIDENCE:.0%} interval expected after {', '.join(map(str, ROUNDS_SHOWN))} rounds, "
    f"and the rounds an interval of ±{' or ±'.join(f'{p:.0%}' for p in PRECISIONS)} needs "
    f"(docs/method.md, \"Calibrating the host\"). The true A/A ratio is 1.")
CALIBRATION_HEADER = ("Server", "Workload", "Threads", "Connections", "Metric", "Paired SD",
                      *(f"± after {rounds} rounds" for rounds in ROUNDS_SHOWN),
                      *(f"Rounds for ±{precision:.0%}" for precision in PRECISIONS),
                      f"A/A ratio, {CONFIDENCE:.0%} interval", "Holds 1")


def calibration_rows(result: BenchResult) -> list[tuple[str, ...]]:
    """The table's rows: each A/A cell's figures, one row per figure."""
    return [_row(result, pair, noise) for pair in replica_pairs(result) for noise in pair.noise]


def _row(result: BenchResult, pair: ReplicaPair, noise: MetricNoise) -> tuple[str, ...]:
    return (result.label(pair.base), pair.workload.label, str(pair.threads),
            str(pair.connections), METRIC_NAMES[noise.metric], _percent(noise.log_sd),
            *(_plus_minus(noise.half_width_at(rounds)) for rounds in ROUNDS_SHOWN),
            *(_rounds(noise, precision) for precision in PRECISIONS),
            format_interval(noise.figures), _holds(noise.holds_one))


def drift_sentence(result: BenchResult) -> str:
    """Whether the A/A intervals held 1, in one sentence; "" for a run with no A/A."""
    pairs = replica_pairs(result)
    if not pairs:
        return ""
    drifting = [f"{METRIC_NAMES[noise.metric]} of {result.label(pair.base)} "
                f"({format_interval(noise.figures)})" for pair in pairs
                for noise in pair.drifting]
    if drifting:
        return (f"The host drifts within a round: the A/A interval of {', '.join(drifting)} "
                f"does not hold 1: identical servers measured minutes apart differed beyond the "
                f"noise, which more rounds will not cure.")
    if all(noise.holds_one is None for pair in pairs for noise in pair.noise):
        return (f"No A/A interval: it needs {MIN_ROUNDS} rounds or more "
                f"(this run paired {max(n.figures.rounds for p in pairs for n in p.noise)}).")
    return "Every A/A interval holds 1: the host did not drift within a round."


def noise_headlines(result: BenchResult) -> tuple[tuple[str, str], ...]:
    """The list of runs' figures of a calibration: each A/A's Requests/sec paired SD."""
    return tuple((result.label(pair.base), f"Requests/sec paired SD {_percent(noise.log_sd)}")
                 for pair in replica_pairs(result) for noise in pair.noise
                 if noise.metric is NoiseMetric.REQUESTS_PER_SEC)


def _percent(log_sd: float | None) -> str:
    return MISSING if log_sd is None else f"{log_sd * 100:.1f} %"


def _plus_minus(half_width: float | None) -> str:
    return MISSING if half_width is None else f"±{half_width * 100:.1f} %"


def _rounds(noise: MetricNoise, precision: float) -> str:
    if noise.log_sd is None:
        return MISSING
    rounds = noise.rounds_for(precision)
    return f"more than {ROUNDS_LIMIT}" if rounds is None else str(rounds)


def _holds(holds_one: bool | None) -> str:
    return MISSING if holds_one is None else ("yes" if holds_one else "no: the host drifted")
