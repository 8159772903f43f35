"""One workload's charts at the headline connection count: Requests/sec (result1.png),
latency percentiles and memory (result2.png), and the CPU time per request (result-cpu.png),
from the figures the tables show (presentation/views/figures.py)."""

from __future__ import annotations

from httplab.model import BenchResult, Cell, Workload
from httplab.presentation.views.figures import cell_figures, measures_database
from httplab.presentation.wording.formatting import MISSING
from httplab.presentation.plotly.bars import (HEAD, Bar, BarChart, bar_chart, headline_text,
                                              load_line)
from httplab.presentation.plotly.model import ChartSpec
from httplab.presentation.plotly.parts import (base_layout, drawn, hover_lines, number, percent,
                                               server_trace, status_text, table, unmeasured_note)
from httplab.presentation.views.points import (headline_cell, measured, reference_servers,
                                               server_order, thread_settings)
from httplab.results.database_figures import database_figures
from httplab.results.bottleneck import Limit, cell_bottleneck
from httplab.results.ceiling import ceiling_share
from httplab.results.littles_law import cell_wait_bound
from httplab.results.stats import cell_summary
from httplab.results.database_figures import database_figures

MIB = 2**20
PERCENTILES = (("p50", "latency_p50_us"), ("p99", "latency_p99_us"),
               ("p99.9", "latency_p999_us"))  # as result2.png draws them


def workload_suffix(workload: Workload) -> str:
    """A title's part naming a workload other than plaintext: ', blocking 10 ms'."""
    return "" if workload.is_plaintext else f", {workload.label}"


def throughput_chart(result: BenchResult, workload: Workload) -> ChartSpec:
    repeats = result.settings.repeat if result.settings else 1
    spread = (f" Bars are the median of {repeats} runs; the whiskers go from the slowest "
              "run to the fastest." if repeats > 1 else "")
    chart = BarChart(
        f"throughput-{workload.key}",
        f"Requests/sec, {headline_text(result)}{workload_suffix(workload)} (higher is better)",
        "wrk's Requests/sec per framework and thread setting; the reference server (grey) "
        f"is the ceiling.{spread} A hatched bar was not limited by the server alone "
        "(wrk, the shared CPUs or unknown): it understates the server.",
        "Requests/sec", ("Requests/sec", "Min–max", "CV", "Share of ceiling", "Limited by"),
        lambda cell: _throughput_bar(result, cell))
    return bar_chart(result, server_order(result) + reference_servers(result), chart)


def _throughput_bar(result: BenchResult, cell: Cell) -> Bar:
    rate, verdict = cell_summary(cell), cell_bottleneck(cell, result)
    share, bound = ceiling_share(cell, result), cell_wait_bound(cell, result)
    repeated = rate.n > 1
    spread = f"{number(rate.minimum)}–{number(rate.maximum)}" if repeated else MISSING
    cv = percent(rate.cv)
    hover = (load_line(cell),
             f"Requests/sec: {number(rate.median)}"
             + (f" (median of {rate.n} runs)" if repeated else ""),
             f"min–max: {spread} req/s" if repeated else None,
             f"CV: {cv}" if rate.cv is not None else None,
             f"share of the ceiling: {percent(share)}" if share is not None else None,
             f"share of the bound {number(bound.rate)} req/s (set by the {bound.set_by}): "
             f"{percent(rate.median / bound.rate)}" if bound else None,
             verdict.words, f"status: {status_text(cell, result)}")
    return Bar(rate.median, hover, (number(rate.median), spread, cv, percent(share),
                                    verdict.words),
               rate.median - rate.minimum, rate.maximum - rate.median,
               hatched=verdict.limit is not Limit.SERVER)


def memory_chart(result: BenchResult, workload: Workload) -> ChartSpec:
    chart = BarChart(
        f"memory-{workload.key}",
        f"Server memory, {headline_text(result)}{workload_suffix(workload)}",
        "Each server's peak memory while wrk measured (the largest over its runs); the "
        "hover adds its mean memory and the CPU it used.",
        "peak memory (MiB)", ("Memory peak (MiB)", "Memory mean (MiB)", "CPU (cores)"),
        lambda cell: _memory_bar(result, cell))
    return bar_chart(result, server_order(result) + reference_servers(result), chart)


def _memory_bar(result: BenchResult, cell: Cell) -> Bar:
    figures = cell_figures(cell)
    peak = None if figures.memory_peak_bytes is None else figures.memory_peak_bytes / MIB
    mean = None if figures.memory_mean_bytes is None else figures.memory_mean_bytes / MIB
    row = (number(peak, 1), number(mean, 1), number(figures.cpu_cores, 2))
    hover = (load_line(cell), f"memory peak: {number(peak, 1, 'MiB')}",
             f"memory mean: {number(mean, 1, 'MiB')}",
             f"CPU: {number(figures.cpu_cores, 2, 'cores')}",
             f"not sampled: {figures.resources_unavailable}"
             if figures.resources_unavailable else None)
    return Bar(peak, hover, row)


def cpu_chart(result: BenchResult, workload: Workload) -> ChartSpec:
    with_database = measures_database(result)
    database = (" On a workload that reads the database, its CPU time per request is "
                "stacked on each bar, lighter: together they are what a request costs the "
                "host." if with_database else "")
    columns = ("Server CPU per request (µs)",) + (
        ("Database CPU per request (µs)",) if with_database else ()) + ("Server CPU (cores)",)
    chart = BarChart(
        f"cpu-{workload.key}",
        f"CPU time per completed request, {headline_text(result)}"
        f"{workload_suffix(workload)} (lower is better)",
        "The server's CPU time while wrk measured, over the requests wrk completed: what a "
        f"request costs, which holds across hosts better than Requests/sec.{database}",
        "CPU time per request (µs)", columns,
        lambda cell: _cpu_bar(result, cell, with_database), "database (PostgreSQL)")
    return bar_chart(result, reference_servers(result) + server_order(result), chart)


def _cpu_bar(result: BenchResult, cell: Cell, with_database: bool) -> Bar:
    figures = cell_figures(cell)
    cost = figures.cpu_us_per_request
    database = database_figures(cell) if with_database else None
    database_cost = database.cpu_us_per_request if database else None
    hover = (load_line(cell), f"server CPU per request: {number(cost, 1, 'µs')}",
             f"database CPU per request: {number(database_cost, 1, 'µs')}"
             if with_database else None,
             f"server CPU: {number(figures.cpu_cores, 2, 'cores')}",
             f"Requests/sec: {number(figures.requests_per_sec.median)}")
    row = ((number(cost, 1),) + ((number(database_cost, 1),) if with_database else ())
           + (number(figures.cpu_cores, 2),))
    return Bar(cost, hover, row, stacked=database_cost)


def latency_chart(result: BenchResult, workload: Workload) -> ChartSpec:
    """The percentiles at the first thread setting, as result2.png: every framework under
    the same load; x the percentile, one trace per server, log scale."""
    threads = thread_settings(result)[0]
    servers = server_order(result) + reference_servers(result)
    cells = {server: headline_cell(result, server, threads) for server in servers}
    names = [name for name, _ in PERCENTILES]
    traces, rows = [], []
    for server, cell in cells.items():
        values = _percentiles_ms(cell)
        hover = [hover_lines(load_line(cell), f"{name}: {number(value, 2, 'ms')}")
                 if value is not None else "" for name, value in zip(names, values)]
        traces.append(server_trace(result, server, "bar", hover, x=names, y=values))
        if cell is not None:
            rows.append((result.label(server), str(cell.threads), str(cell.connections))
                        + tuple(number(value, 2) for value in values)
                        + (status_text(cell, result),))
    missing = [cell for cell in cells.values() if not measured(cell)]
    layout = base_layout("percentile", "latency (ms, log scale)", barmode="group")
    layout["yaxis"] |= {"type": "log", "rangemode": "normal"}
    caption = (f"wrk's latency percentiles at {threads} threads and {headline_text(result)} "
               "(medians over each cell's runs), so every framework is under the same load; "
               "log scale.")
    return ChartSpec(f"latency-{workload.key}",
                     f"Latency percentiles, {threads} threads, {headline_text(result)}"
                     f"{workload_suffix(workload)} (lower is better)",
                     " ".join(filter(None, (caption, unmeasured_note(result, missing)))),
                     {"data": drawn(traces), "layout": layout},
                     table(HEAD + tuple(f"{name} (ms)" for name in names) + ("Status",), rows))


def _percentiles_ms(cell: Cell | None) -> list[float | None]:
    """The cell's percentiles in ms; None each for a cell not measured."""
    figures = cell_figures(cell) if measured(cell) else None
    values = [getattr(figures, field) if figures else None for _, field in PERCENTILES]
    return [None if us is None else us / 1000 for us in values]
