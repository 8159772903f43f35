"""How evenly a server shared itself among its connections: figures from h2load's runs of a
cell. Pure.

From each connection's requests over the same window (the socket readings): the spread
(fastest over slowest; infinite when one completed none), the coefficient of variation
across connections, and the share of all requests that went to the slowest tenth of the
connections (0.10 when perfectly fair, a connection at the tenth's edge counting in part). Without socket readings, the spread and the
coefficient of variation come from h2load's own per-client req/s summary."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Sequence

from httplab.model import Cell, FairnessRun
from httplab.results.stats import median_of_known

SLOWEST_FRACTION = 0.10


@dataclass(frozen=True)
class Fairness:
    spread: float  # max / min of per-connection rates; math.inf when the slowest got none
    cv: float | None  # population standard deviation / mean
    slowest_share: float | None  # share of requests served to the slowest 10 % of connections
    connections: int  # how many connections the figures cover


def fairness_of_counts(counts: Sequence[float]) -> Fairness | None:
    """Figures from per-connection counts (any unit proportional to requests); None
    without connections or when none completed any request."""
    values = sorted(counts)
    total = sum(values)
    if not values or total <= 0:
        return None
    mean = total / len(values)
    spread = math.inf if values[0] == 0 else values[-1] / values[0]
    return Fairness(spread, statistics.pstdev(values) / mean,
                    _slowest_sum(values, SLOWEST_FRACTION) / total, len(values))


def _slowest_sum(ascending: list[float], fraction: float) -> float:
    """What the slowest `fraction` of the connections served, a connection cut at the edge
    counting in part, so that a perfectly fair server scores `fraction` at any count."""
    whole, part = divmod(len(ascending) * fraction, 1)
    whole = int(whole)
    edge = ascending[whole] * part if whole < len(ascending) else 0.0
    return sum(ascending[:whole]) + edge


def fairness_of_run(run: FairnessRun) -> Fairness | None:
    if run.connection_bytes:
        return fairness_of_counts(run.connection_bytes)
    low, high, mean, sd = (run.client_rps_min, run.client_rps_max, run.client_rps_mean,
                           run.client_rps_sd)
    if low is None or high is None or not high:
        return None
    spread = math.inf if low == 0 else high / low
    cv = sd / mean if sd is not None and mean else None
    return Fairness(spread, cv, None, run.connections)


def normalised_rates(run: FairnessRun) -> tuple[float, ...]:
    """Each connection's rate over the mean of all, slowest first: a flat line at 1 is fair."""
    values = sorted(run.connection_bytes)
    if not values or sum(values) <= 0:
        return ()
    mean = sum(values) / len(values)
    return tuple(value / mean for value in values)


def cell_fairness(cell: Cell) -> Fairness | None:
    """The median of each figure over the cell's h2load runs (an infinite spread counts as
    larger than any); None when no run has figures."""
    figures = [f for f in (fairness_of_run(run) for run in cell.fairness) if f is not None]
    if not figures:
        return None
    return Fairness(median_of_known(f.spread for f in figures),  # type: ignore[arg-type]
                    median_of_known(f.cv for f in figures),
                    median_of_known(f.slowest_share for f in figures),
                    max(f.connections for f in figures))


def fairness_run_for_chart(cell: Cell) -> FairnessRun | None:
    """The run whose sorted rates the fairness chart draws: the one with the median spread
    among those with socket readings."""
    runs = [run for run in cell.fairness if normalised_rates(run)]
    if not runs:
        return None
    ranked = sorted(runs, key=lambda run: fairness_of_run(run).spread)  # type: ignore[union-attr]
    return ranked[(len(ranked) - 1) // 2]
