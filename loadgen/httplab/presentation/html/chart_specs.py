"""Every interactive chart of a run's page, drawn from its BenchResult alone, as the PNG
charts draw it (presentation/publish.py): per workload, Requests/sec, latency, memory and
CPU at the headline connection count, then the sweep and fairness when the run has them;
the profile layers with PROFILE=1; a make latency run's curve and maxima instead. A chart
with nothing to draw (e.g. memory never sampled) is left out. Pure."""

from __future__ import annotations

from httplab.model import BenchResult, Workload
from httplab.presentation.charts.fairness import has_fairness_chart
from httplab.presentation.charts.latency_curve import shows_latency_curve
from httplab.presentation.points import shows_a_sweep
from httplab.presentation.html.chart_bench import (cpu_chart, latency_chart, memory_chart,
                                                   throughput_chart)
from httplab.presentation.html.chart_latency_run import latency_run_charts
from httplab.presentation.html.chart_lines import fairness_chart, sweep_chart
from httplab.presentation.html.chart_model import ChartSpec
from httplab.presentation.html.chart_profile import profile_chart
from httplab.presentation.points import (at_connections, headline_connections, of_workload,
                                         run_workloads)
from httplab.presentation.profile_figures import has_profiles

HEADLINE_CHARTS = (throughput_chart, latency_chart, memory_chart, cpu_chart)


def run_charts(result: BenchResult) -> tuple[ChartSpec, ...]:
    """The page's charts in the order it shows them; none for a run without cells or steps."""
    if result.latency is not None:
        charts = latency_run_charts(result) if shows_latency_curve(result) else []
    else:
        charts = [chart for workload in run_workloads(result)
                  for chart in workload_charts(of_workload(result, workload), workload)]
        charts += [profile_chart(result)] if has_profiles(result) else []
    return tuple(chart for chart in charts if chart.traces)


def workload_charts(result: BenchResult, workload: Workload) -> list[ChartSpec]:
    """One workload's charts, each from its own cells: those of the headline count, then
    the sweep over the counts and per-connection fairness when the run measured them."""
    headline = at_connections(result, headline_connections(result))
    charts = [chart(headline, workload) for chart in HEADLINE_CHARTS]
    for shows, chart in ((shows_a_sweep, sweep_chart), (has_fairness_chart, fairness_chart)):
        charts += [chart(result, workload)] if shows(result) else []
    return charts
