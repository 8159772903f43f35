"""Summary statistics of repeated measurements (one value per repeat of a cell). Pure."""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from httplab.model import Cell, WrkRun

Metric = Callable[[WrkRun], float]


@dataclass(frozen=True)
class Summary:
    """n values, summarized. stdev is the sample standard deviation and cv = stdev / mean
    (the run-to-run noise as a fraction); both are None when there is only one value."""

    n: int
    median: float
    minimum: float
    maximum: float
    mean: float
    stdev: float | None
    cv: float | None


def summarize(values: Iterable[float]) -> Summary:
    """Raises ValueError when there are no values: there is nothing to summarize."""
    values = tuple(values)
    if not values:
        raise ValueError("cannot summarize no values")
    mean = statistics.fmean(values)
    stdev = statistics.stdev(values) if len(values) >= 2 else None
    return Summary(n=len(values), median=statistics.median(values), minimum=min(values),
                   maximum=max(values), mean=mean, stdev=stdev,
                   cv=coefficient_of_variation(stdev, mean))


def median_of_known(values: Iterable[float | None]) -> float | None:
    """The median of the values that are known (not None); None when none is."""
    known = [value for value in values if value is not None]
    return statistics.median(known) if known else None


def coefficient_of_variation(stdev: float | None, mean: float) -> float | None:
    if stdev is None or mean == 0:
        return None
    return stdev / mean


def requests_per_sec(run: WrkRun) -> float:
    return run.requests_per_sec


def cell_summary(cell: Cell, metric: Metric = requests_per_sec) -> Summary | None:
    """The metric over the cell's measured runs; None when it has none (e.g. it failed
    before wrk measured anything)."""
    if not cell.runs:
        return None
    return summarize(metric(run) for run in cell.runs)


def per_request(total: float | None, requests: int, scale: float = 1.0) -> float | None:
    """A resource total (e.g. CPU seconds) times scale over the requests it served; None
    when the total is unknown or nothing was served."""
    if total is None or requests <= 0:
        return None
    return total * scale / requests
