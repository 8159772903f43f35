"""make calibrate: the host's own noise, from one server measured as two identical variants
(an A/A: netty and netty+replica2, REPLICA in httplab/axes.py) in the same rounds. Pure.

Each A/A cell's Requests/sec, CPU per request and p99 are paired round by round as any two
variants are (results/paired_ratio.py). Both sides are the same server, so the spread of
their log ratios (log_sd) is what the host alone puts between two variants measured a few
minutes apart, and precision.py turns it into the half-width an interval would have after
3, 5 or 10 rounds and the rounds a ±5 % or ±10 % interval needs. The true A/A ratio is 1:
an interval that does not hold it says the host drifts within a round (the A side and the
B side saw different hosts), which rounds alone do not cure.

newest_calibration finds, among runs read elsewhere (results/store.py), the newest
calibration of a host, with each figure's log_sd: what REPEAT=auto may start from."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from httplab.axes import REPLICA
from httplab.model import BenchResult, Cell, HostInfo, RunKind, Workload
from httplab.results.paired_ratio import PairedRatio, paired_ratio
from httplab.results.precision import expected_half_width, rounds_for
from httplab.results.variants import (cell_point, cpu_by_round, measured_cells, rates_by_round,
                                      variant_pairs)

ROUNDS_SHOWN = (3, 5, 10)  # the rounds whose expected half-width a calibration states
PRECISIONS = (0.05, 0.10)  # the half-widths whose rounds needed it states
ROUNDS_LIMIT = 1000  # beyond it, rounds_for says None: more than any run would take
P99 = 99.0


class NoiseMetric(str, Enum):
    """A figure whose A/A noise a calibration measures; its value is results.json's name."""

    REQUESTS_PER_SEC = "requests_per_sec"
    CPU_PER_REQUEST = "cpu_us_per_request"
    P99 = "latency_p99_us"


@dataclass(frozen=True)
class MetricNoise:
    """One figure's A/A: the replica over the first, over their paired rounds."""

    metric: NoiseMetric
    figures: PairedRatio

    @property
    def log_sd(self) -> float | None:
        return self.figures.log_sd

    def half_width_at(self, rounds: int) -> float | None:
        """The half-width (0.05: ±5 %) expected after `rounds` paired rounds at this noise."""
        return None if self.log_sd is None else expected_half_width(self.log_sd, rounds)

    def rounds_for(self, precision: float) -> int | None:
        """The fewest paired rounds for ±precision; None when unknown or beyond
        ROUNDS_LIMIT."""
        return None if self.log_sd is None else rounds_for(self.log_sd, precision, ROUNDS_LIMIT)

    @property
    def holds_one(self) -> bool | None:
        """Whether the A/A interval holds 1, as it should; None without an interval."""
        if not self.figures.has_interval:
            return None
        return self.figures.low <= 1.0 <= self.figures.high


@dataclass(frozen=True)
class ReplicaPair:
    """One server's A/A at one cell: the first replica's key, the second's, and each
    figure's noise."""

    base: str
    other: str
    workload: Workload
    threads: int
    connections: int
    noise: tuple[MetricNoise, ...]

    @property
    def drifting(self) -> tuple[MetricNoise, ...]:
        """The figures whose A/A interval does not hold 1: the host drifted within a round."""
        return tuple(one for one in self.noise if one.holds_one is False)


@dataclass(frozen=True)
class HostCalibration:
    """The newest calibration of a host: when it ran, its rounds, and each figure's log_sd
    (the largest over its A/A cells: a rounds estimate should not be optimistic)."""

    created_utc: str
    rounds: int
    log_sd: tuple[tuple[NoiseMetric, float], ...]

    def of(self, metric: NoiseMetric) -> float | None:
        return dict(self.log_sd).get(metric)


def replica_pairs(result: BenchResult) -> tuple[ReplicaPair, ...]:
    """Every A/A of a calibration, cell by cell, in the order the servers were measured;
    () for any other run."""
    if result.kind is not RunKind.CALIBRATE:
        return ()
    return tuple(pair for axis, base, other in variant_pairs(result) if axis == REPLICA.setting
                 for pair in _cell_pairs(result, base, other))


def _cell_pairs(result: BenchResult, base: str, other: str) -> list[ReplicaPair]:
    firsts = {cell_point(cell): cell for cell in measured_cells(result, base)}
    return [ReplicaPair(base, other, cell.workload, cell.threads, cell.connections,
                        cell_noise(firsts[cell_point(cell)], cell))
            for cell in measured_cells(result, other) if cell_point(cell) in firsts]


def cell_noise(first: Cell, replica: Cell) -> tuple[MetricNoise, ...]:
    """Each figure of a replica's cell against the first's, paired by round."""
    return tuple(MetricNoise(metric, paired_ratio(by_round(first), by_round(replica)))
                 for metric, by_round in ((NoiseMetric.REQUESTS_PER_SEC, rates_by_round),
                                          (NoiseMetric.CPU_PER_REQUEST, cpu_by_round),
                                          (NoiseMetric.P99, p99_by_round)))


def p99_by_round(cell: Cell) -> dict[int, float | None]:
    """Each round's p99 in µs, as the tables show it per run."""
    return dict(zip(cell.round_numbers, (run.latency.percentile(P99) for run in cell.runs)))


def newest_calibration(results: Iterable[BenchResult], host: HostInfo
                       ) -> HostCalibration | None:
    """The first calibration of `results` (given newest first) run on the same host, with
    an A/A that measured some figure's noise; None when there is none."""
    for result in results:
        if result.kind is RunKind.CALIBRATE and same_host(result.host, host):
            found = host_calibration(result)
            if found is not None:
                return found
    return None


def same_host(one: HostInfo, other: HostInfo) -> bool:
    """The same machine as far as its noise goes: name, CPU model, cores and memory (a
    kernel or tool updated since leaves it the same)."""
    return one.hostname is not None and (one.hostname, one.cpu_model, one.cores,
                                         one.memory_bytes) == (other.hostname, other.cpu_model,
                                                               other.cores, other.memory_bytes)


def host_calibration(result: BenchResult) -> HostCalibration | None:
    """A calibration's figures as the next run may use them: each figure's largest log_sd."""
    noise = [one for pair in replica_pairs(result) for one in pair.noise
             if one.log_sd is not None]
    if not noise:
        return None
    worst = {metric: max(one.log_sd for one in noise if one.metric is metric)
             for metric in NoiseMetric if any(one.metric is metric for one in noise)}
    rounds = max(one.figures.rounds for one in noise)
    return HostCalibration(result.created_utc, rounds, tuple(worst.items()))
