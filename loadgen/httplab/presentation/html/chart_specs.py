"""Every interactive chart of a run's page, drawn from its BenchResult alone, as the PNG
charts draw it (presentation/publish.py): per workload, Requests/sec, latency, memory and
CPU at the headline connection count, then the sweep and fairness when the run has them;
the profile layers with PROFILE=1; a make latency run's curve and maxima instead. Pure."""

from __future__ import annotations

from httplab.model import BenchResult, Workload
from httplab.presentation.html.chart_bench import (cpu_chart, latency_chart, memory_chart,
                                                   throughput_chart)
from httplab.presentation.html.chart_model import ChartSpec
from httplab.presentation.points import (at_connections, headline_connections, of_workload,
                                         run_workloads)

HEADLINE_CHARTS = (throughput_chart, latency_chart, memory_chart, cpu_chart)


def run_charts(result: BenchResult) -> tuple[ChartSpec, ...]:
    """The page's charts in the order it shows them; none for a run without cells or steps."""
    charts: list[ChartSpec] = []
    for workload in run_workloads(result):
        charts += workload_charts(of_workload(result, workload), workload)
    return tuple(charts)


def workload_charts(result: BenchResult, workload: Workload) -> list[ChartSpec]:
    """One workload's charts, each from its own cells."""
    headline = at_connections(result, headline_connections(result))
    return [chart(headline, workload) for chart in HEADLINE_CHARTS]
