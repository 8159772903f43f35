"""The chart catalogue: which charts a run has, in the order its page shows them, the cells
each is drawn from, and the PNG file it is written to beside the image path. The run's kind
decides, once, which charts those are. Both renderers read this list: png/charts.py draws
each chart as a PNG, plotly/charts.py as the page's interactive charts. Pure.

A bench has, per workload it measured (each from its own cells): Requests/sec, latency and
memory, and CPU at the headline connection count; the sweep over the counts and
per-connection fairness when the run has them; then the profile of every profiled cell. A
latency run (make latency) has its curve. A chart with nothing to show this run is listed
as not shown, so that an older PNG of its name is removed. Either kind then has, only when
it measured a framework under two or more variants, the chart of variants compared."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from httplab.model import BenchResult, RunKind, Workload
from httplab.presentation.views.fairness import has_fairness_chart
from httplab.presentation.views.latency_curve import shows_latency_curve
from httplab.presentation.views.points import (at_connections, headline_connections, of_workload,
                                               run_workloads, shows_a_sweep)
from httplab.presentation.views.profile_figures import has_profiles
from httplab.presentation.views.protocol_ladder import ladder_rows
from httplab.presentation.views.variants import has_variants_chart


class ChartKind(Enum):
    """Each chart, by what it shows; the value names its PNG beside result1.png."""

    THROUGHPUT = "result1"
    LATENCY_MEMORY = "result2"  # the bench's latency percentiles and memory, per server
    CPU = "result-cpu"
    SWEEP = "result3"
    FAIRNESS = "result4"
    PROFILE = "result-profile"
    LATENCY_CURVE = "result-latency"  # make latency's latency against the offered rate
    VARIANTS = "result-variants"  # each variant against its base, with its interval
    PROTOCOLS = "result-protocols"  # make latency's cost ladder over PROTOCOL's protocols


@dataclass(frozen=True)
class RunChart:
    kind: ChartKind
    drawn_from: BenchResult  # the cells it draws: one workload's, or the run's
    workload: Workload | None  # None: a chart of the whole run (profile, latency curve)
    shown: bool  # False: nothing to draw this run

    def png_path(self, image_path: Path) -> Path:
        path = chart_path(image_path, self.kind)
        return path if self.workload is None else workload_chart_path(path, self.workload)


def run_charts(result: BenchResult) -> tuple[RunChart, ...]:
    if result.kind is RunKind.LATENCY:
        charts = (RunChart(ChartKind.LATENCY_CURVE, result, None, shows_latency_curve(result)),
                  *protocol_charts(result))
    else:
        charts = bench_charts(result)
    return charts + variants_charts(result)


def protocol_charts(result: BenchResult) -> tuple[RunChart, ...]:
    """The cost ladder, listed only when the latency run chose PROTOCOL."""
    return (RunChart(ChartKind.PROTOCOLS, result, None, True),) if ladder_rows(result) else ()


def variants_charts(result: BenchResult) -> tuple[RunChart, ...]:
    """The chart of variants compared, listed only when the run has one to draw."""
    if not has_variants_chart(result):
        return ()
    return (RunChart(ChartKind.VARIANTS, result, None, True),)


def bench_charts(result: BenchResult) -> tuple[RunChart, ...]:
    """None for a run without cells, which draws (and removes) no chart."""
    if not result.cells:
        return ()
    charts = [chart for workload in run_workloads(result)
              for chart in workload_charts(of_workload(result, workload), workload)]
    return (*charts, RunChart(ChartKind.PROFILE, result, None, has_profiles(result)))


def workload_charts(result: BenchResult, workload: Workload) -> list[RunChart]:
    """One workload's charts, each from its own cells: those of the headline count, then
    the sweep over the counts and per-connection fairness."""
    headline = at_connections(result, headline_connections(result))
    return [*(RunChart(kind, headline, workload, True)
              for kind in (ChartKind.THROUGHPUT, ChartKind.LATENCY_MEMORY, ChartKind.CPU)),
            RunChart(ChartKind.SWEEP, result, workload, shows_a_sweep(result)),
            RunChart(ChartKind.FAIRNESS, result, workload, has_fairness_chart(result))]


def chart_path(image_path: Path, kind: ChartKind) -> Path:
    """Beside result1.png, each chart by its own name (result2.png, result-cpu.png, ...);
    beside any other IMAGE.png, as IMAGE.png, IMAGE-2.png, IMAGE-cpu.png, IMAGE-3.png, ..."""
    if image_path.name == "result1.png":
        return image_path.with_name(f"{kind.value}{image_path.suffix}")
    tail = kind.value.removeprefix("result").lstrip("-")
    name = image_path.stem + (f"-{tail}" if tail != "1" else "")
    return image_path.with_name(f"{name}{image_path.suffix}")


def workload_chart_path(path: Path, workload: Workload) -> Path:
    """Where a chart of this workload goes: plaintext's at the path itself (result1.png,
    result2.png, result-cpu.png, result3.png, result4.png, or IMAGE's NAME.png, NAME-2.png,
    ...), any other workload's beside it, its key before the suffix: result1-json.png,
    result2-blocking-10ms.png, result-cpu-delay-10ms.png, NAME-json.png."""
    if workload.is_plaintext:
        return path
    return path.with_name(f"{path.stem}-{workload.key}{path.suffix}")
