"""The profiler's overhead (PROFILE=0,1): each profiled cell beside the same framework's cell
without the profiler, at the same workload, threads and connections, with the figures the
other tables show (presentation/views/figures.py: medians over runs), and the paired estimate
of the rates with its interval, as "Variants compared" gives them (results/variants.py).
Pure."""

from __future__ import annotations

from dataclasses import dataclass

from httplab.axes import PROFILE, Variant
from httplab.model import BenchResult, Cell
from httplab.presentation.views.figures import cell_figures
from httplab.results.paired_ratio import PairedRatio

NOT_COMPARED = PairedRatio(None, None, None, 0)
from httplab.results.variants import (ComparedMetric, comparison_between,
                                      variant_comparisons)


@dataclass(frozen=True)
class Overhead:
    """Requests/sec and CPU per request without and with the profiler (None: unmeasured)."""

    without: Cell
    with_profiler: Cell
    rate_without: float | None
    rate_with: float | None
    cpu_us_without: float | None
    cpu_us_with: float | None
    rate_figures: PairedRatio  # with over without: the paired estimate and its interval

    @property
    def rate_ratio(self) -> float | None:
        """Requests/sec with the profiler over without it (the paired estimate): 0.95 is 5 %
        fewer."""
        return self.rate_figures.ratio


def unprofiled_key(key: str) -> str:
    """netty+profiled -> netty: the same framework, measured without the profiler."""
    return Variant.of_key(key).on_axis(PROFILE.setting, PROFILE.default).key


def twin_cell(result: BenchResult, cell: Cell) -> Cell | None:
    """The cell of the framework without the profiler at the same point, if measured."""
    server = unprofiled_key(cell.server)
    return next((other for other in result.cells if other.server == server != cell.server
                 and (other.workload, other.threads, other.connections)
                 == (cell.workload, cell.threads, cell.connections)), None)


def overheads(result: BenchResult) -> list[Overhead]:
    """One per profiled cell that has its twin without the profiler, in the cells' order."""
    pairs = [(twin_cell(result, cell), cell) for cell in result.cells
             if _is_profiled(result, cell.server)]
    comparisons = variant_comparisons(result)
    return [_overhead(without, with_profiler, _rate_figures(comparisons, without, with_profiler))
            for without, with_profiler in pairs if without]


def _rate_figures(comparisons, without: Cell, with_profiler: Cell) -> PairedRatio:
    """The run's comparison of the two cells' Requests/sec, as counted among the others
    (none made where either cell measured nothing)."""
    point = (without.workload, without.threads, without.connections)
    found = comparison_between(comparisons, without.server, with_profiler.server,
                               ComparedMetric.REQUESTS_PER_SEC, point)
    return NOT_COMPARED if found is None else found.figures


def _is_profiled(result: BenchResult, server: str) -> bool:
    record = result.server(server)
    return record.profiled if record else (
        Variant.of_key(server).value(PROFILE.setting) != PROFILE.default)


def _overhead(without: Cell, with_profiler: Cell, rate_figures: PairedRatio) -> Overhead:
    before, after = cell_figures(without), cell_figures(with_profiler)
    return Overhead(without, with_profiler,
                    before.requests_per_sec.median if before else None,
                    after.requests_per_sec.median if after else None,
                    before.cpu_us_per_request if before else None,
                    after.cpu_us_per_request if after else None, rate_figures)
