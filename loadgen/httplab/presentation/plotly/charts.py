"""Every interactive chart of a run's page, drawn from its BenchResult alone: the charts of
the catalogue (views/charts.py) that this run shows, in its order, each as one or more
ChartSpecs (the PNG of latency and memory is two charts here; a make latency run's curve
comes with its maxima). A chart with nothing to draw (e.g. memory never sampled) is left
out. Pure."""

from __future__ import annotations

from collections.abc import Callable

from httplab.model import BenchResult
from httplab.presentation.plotly.bench import (cpu_chart, latency_chart, memory_chart,
                                               throughput_chart)
from httplab.presentation.plotly.latency_curve import latency_run_charts
from httplab.presentation.plotly.lines import fairness_chart, sweep_chart
from httplab.presentation.plotly.model import ChartSpec
from httplab.presentation.plotly.profile import profile_chart
from httplab.presentation.plotly.protocols import protocols_chart
from httplab.presentation.plotly.variants import variants_chart
from httplab.presentation.views.charts import ChartKind, RunChart
from httplab.presentation.views.charts import run_charts as catalogue


def _of_workload(*charts: Callable) -> Callable[[RunChart], list[ChartSpec]]:
    return lambda chart: [draw(chart.drawn_from, chart.workload) for draw in charts]


DRAWN_AS: dict[ChartKind, Callable[[RunChart], list[ChartSpec]]] = {
    ChartKind.THROUGHPUT: _of_workload(throughput_chart),
    ChartKind.LATENCY_MEMORY: _of_workload(latency_chart, memory_chart),
    ChartKind.CPU: _of_workload(cpu_chart), ChartKind.SWEEP: _of_workload(sweep_chart),
    ChartKind.FAIRNESS: _of_workload(fairness_chart),
    ChartKind.PROFILE: lambda chart: [profile_chart(chart.drawn_from)],
    ChartKind.LATENCY_CURVE: lambda chart: latency_run_charts(chart.drawn_from),
    ChartKind.VARIANTS: lambda chart: [variants_chart(chart.drawn_from)],
    ChartKind.PROTOCOLS: lambda chart: [protocols_chart(chart.drawn_from)]}


def run_charts(result: BenchResult) -> tuple[ChartSpec, ...]:
    """The page's charts in the order it shows them; none for a run without cells or steps."""
    specs = [spec for chart in catalogue(result) if chart.shown
             for spec in DRAWN_AS[chart.kind](chart)]
    return tuple(spec for spec in specs if spec.traces)
