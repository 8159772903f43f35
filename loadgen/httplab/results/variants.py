"""Variants compared inside one run: every framework measured under two or more variants
(SETTINGS=original,default: netty and netty@default; JDK=17,25: netty@jdk17 and netty;
PROFILE=0,1: netty and netty+profiled), each variant against its base, figure by figure,
with the paired ratio of results/paired_ratio.py. Pure.

A pair is two variants of one framework that differ on one axis only (httplab/axes.py),
the base being the one at the axis's first value in the run's settings (original; 17 of
JDK=17,25; PROFILE 0): with several axes asked for, each variant is paired along each
axis it differs by. Runs are
paired by their round. A bench compares each cell's Requests/sec and CPU per request at
the same workload, threads and connections; make latency each server's CPU per request
at the common rate (its cost steps) and its max sustainable rate (per round)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from httplab.axes import AXES, Variant
from httplab.model import (PLAINTEXT, BenchResult, Cell, CellStatus, RunKind, Settings,
                           StepPurpose, Workload)
from httplab.results.false_discovery import count_family
from httplab.results.host_load import cell_host_rounds, server_host_rounds
from httplab.results.paired_ratio import PairedRatio, paired_ratio
from httplab.results.stats import per_request
from httplab.results.step_figures import US_PER_S, step_figures


class ComparedMetric(str, Enum):
    """A figure compared between variants; its value is results.json's name for it."""

    REQUESTS_PER_SEC = "requests_per_sec"
    CPU_PER_REQUEST = "cpu_us_per_request"
    COMMON_RATE_COST = "common_rate_cpu_us_per_request"
    MAX_SUSTAINABLE_RATE = "max_sustainable_rate"

    @property
    def is_cost(self) -> bool:
        """Less is better: CPU per request."""
        return self in (ComparedMetric.CPU_PER_REQUEST, ComparedMetric.COMMON_RATE_COST)


@dataclass(frozen=True)
class VariantComparison:
    """One figure of the other variant against the base one (threads and connections:
    None for make latency's figures, which have none)."""

    framework: str  # the framework's folder
    axis: str  # SETTINGS, PROFILE
    base: str  # the servers' keys
    other: str
    metric: ComparedMetric
    figures: PairedRatio
    workload: Workload = PLAINTEXT
    threads: int | None = None
    connections: int | None = None


Pair = tuple[str, str, str]  # axis, base key, other key


def variant_pairs(result: BenchResult) -> list[Pair]:
    """Each server of the run against each variant before it on each axis it differs by
    (the axis's values in the order the run listed them: the first is every other's base;
    with three, the third is also compared with the second: io_uring with epoll as well as
    with nio), in the order the servers were measured."""
    servers = _measured_servers(result)
    pairs = []
    for server in servers:
        variant = Variant.of_key(server)
        for axis, values in axis_orders(result.settings).items():
            earlier = values[:values.index(variant.axes[axis])] \
                if variant.axes[axis] in values else ()
            pairs += [(axis, base, server) for base in
                      (variant.on_axis(axis, value).key for value in earlier) if base in servers]
    return pairs


def axis_orders(settings: Settings | None) -> dict[str, tuple[str, ...]]:
    """Each axis's values in the order the run's settings list them, the base first (a
    run without them: each axis's default)."""
    return {axis.setting: axis.recorded(settings) for axis in AXES}


def variant_comparisons(result: BenchResult) -> tuple[VariantComparison, ...]:
    """Every pair's figures: a bench's cell by cell, a latency run's server by server, each
    with its q-value among the run's comparisons of the same figure."""
    compare = _latency_pair if result.kind is RunKind.LATENCY else _bench_pair
    return counted(tuple(one for pair in variant_pairs(result) for one in compare(result, *pair)))


def counted(comparisons: tuple[VariantComparison, ...]) -> tuple[VariantComparison, ...]:
    """The comparisons with their q-values, counted per figure compared (Requests/sec among
    Requests/sec, CPU among CPU): a run's family of tests is each metric's comparisons."""
    figures = [one.figures for one in comparisons]
    for metric in ComparedMetric:
        family = [index for index, one in enumerate(comparisons) if one.metric is metric]
        for index, counted_figures in zip(family, count_family([figures[i] for i in family])):
            figures[index] = counted_figures
    return tuple(replace(one, figures=counted_figures)
                 for one, counted_figures in zip(comparisons, figures))


def comparison_between(comparisons: tuple[VariantComparison, ...], base: str, other: str,
                       metric: ComparedMetric, point: tuple | None = None
                       ) -> VariantComparison | None:
    """The run's comparison of other against base on one figure (at a bench cell's point:
    workload, threads, connections), as counted among the others; None if not made."""
    return next((one for one in comparisons if (one.base, one.other, one.metric)
                 == (base, other, metric) and (point is None or _point_of(one) == point)),
                None)


def _point_of(comparison: VariantComparison) -> tuple:
    return comparison.workload, comparison.threads, comparison.connections


def _bench_pair(result: BenchResult, axis: str, base: str, other: str) -> list[VariantComparison]:
    comparisons = []
    for cell in measured_cells(result, other):
        twin = next((one for one in measured_cells(result, base)
                     if cell_point(one) == cell_point(cell)), None)
        comparisons += [] if twin is None else [
            VariantComparison(Variant.of_key(other).name, axis, base, other, metric, figures,
                              cell.workload, cell.threads, cell.connections)
            for metric, figures in cell_ratios(twin, cell).items()]
    return comparisons


def cell_ratios(base: Cell, other: Cell) -> dict[ComparedMetric, PairedRatio]:
    """A bench cell's figures against the same point's under the base variant, without
    the rounds the host decided on either side."""
    left_out = cell_host_rounds(base) | cell_host_rounds(other)
    return {ComparedMetric.REQUESTS_PER_SEC: paired_ratio(rates_by_round(base),
                                                          rates_by_round(other), left_out),
            ComparedMetric.CPU_PER_REQUEST: paired_ratio(cpu_by_round(base),
                                                         cpu_by_round(other), left_out)}


def _latency_pair(result: BenchResult, axis: str, base: str,
                  other: str) -> list[VariantComparison]:
    steps = result.latency.steps_of(other)
    workload = steps[0].workload if steps else PLAINTEXT
    left_out = (server_host_rounds(result.latency, base)
                | server_host_rounds(result.latency, other))
    return [VariantComparison(Variant.of_key(other).name, axis, base, other, metric,
                              paired_ratio(per_round(result, base), per_round(result, other),
                                           left_out),
                              workload)
            for metric, per_round in ((ComparedMetric.COMMON_RATE_COST, costs_by_round),
                                      (ComparedMetric.MAX_SUSTAINABLE_RATE, maxima_by_round))]


def rates_by_round(cell: Cell) -> dict[int, float]:
    return dict(zip(cell.round_numbers, (run.requests_per_sec for run in cell.runs)))


def cpu_by_round(cell: Cell) -> dict[int, float | None]:
    """The server's CPU µs per completed request in each round, as the tables count it."""
    return dict(zip(cell.round_numbers, (per_request(usage.cpu_seconds, run.requests, US_PER_S)
                                    for run, usage in zip(cell.runs, cell.resources))))


def costs_by_round(result: BenchResult, server: str) -> dict[int, float | None]:
    """make latency: the CPU µs per answered request of the server's cost step per round."""
    return {step.repeat: step_figures(step).cpu_us_per_request
            for step in result.latency.steps_of(server, StepPurpose.COST)}


def maxima_by_round(result: BenchResult, server: str) -> dict[int, float | None]:
    """make latency: each round's max sustainable rate (None: nothing held)."""
    rate = next((one for one in result.latency.maxima if one.server == server), None)
    return {} if rate is None else dict(enumerate(rate.rounds, start=1))


def cell_point(cell: Cell) -> tuple[Workload, int, int]:
    return cell.workload, cell.threads, cell.connections


def measured_cells(result: BenchResult, server: str) -> list[Cell]:
    return [cell for cell in result.cells
            if cell.server == server and cell.status is CellStatus.OK and cell.runs]


def _measured_servers(result: BenchResult) -> list[str]:
    if result.kind is RunKind.LATENCY:
        return list(dict.fromkeys([*(step.server for step in result.latency.steps),
                                   *(rate.server for rate in result.latency.maxima)]))
    return list(dict.fromkeys(cell.server for cell in result.cells))
