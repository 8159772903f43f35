"""Little's law, the self-check of every closed-loop cell (wrk; h2load over HTTP/2): do its
rate, connections and mean latency belong together? Pure.

In a closed loop each connection has one request in flight, so by Little's law
rate × (mean latency + the client's own time per request) = connections, and the ratio
rate × mean latency ÷ connections is 1 less the share of each connection's time spent
outside a request. It moves for four reasons, each a side the check names:
- below 1, fewer connections open than asked: wrk gives each thread connections ÷ threads,
  rounded down (c16 on t10 opens 10), so the rate is that of fewer connections;
- below 1, the client: the time between a response and the next request (wrk's own work,
  a starved wrk on a busy host) or a connection not open the whole run serves nothing;
  on loopback a healthy wrk spends a few µs of a cycle there;
- above 1, latency inflated by wrk's correction: wrk 4 (stats_correct) adds, for each
  request slower than twice the interval between a connection's requests (runtime ÷
  (requests ÷ connections)), a sample at every interval below it, so its mean and
  percentiles count samples no request took while the rate counts only answers; it adds
  nothing when no latency reached twice the interval;
- either way, errors or timeouts: a failed request counts in neither the rate nor the mean.
A ratio above 1 that the correction cannot explain: the figures do not belong together.
The bounds are LOW and HIGH: a tenth of each connection's time outside any request, or a
mean a tenth over what the rate allows, changes a figure by twice the noise the lab already
warns about (stability's 5 % CV threshold).

h2load's fairness runs are not checked: the summary the lab keeps of them has no mean
latency. The other self-check, achieved against offered for every fixed-rate step of make
latency, stays with the step's verdict (results/step_verdict.py, "short" and "load tool")."""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

from httplab.loadtools.h2load.measured_run import TOOL as H2LOAD
from httplab.model import BenchResult, Cell, CellWarning, ResourceUsage, WarningKind, WrkRun
from httplab.results.stability import cell_name
from httplab.results.step_verdict import MAX_ERROR_SHARE

LOW, HIGH = 0.9, 1.1
WRK = "wrk"  # the tool of a run that names none: every run before h2load measured any
CORRECTED_FROM = 2  # wrk corrects the samples at least this many intervals long
_US_PER_S = 1e6


class Side(str, Enum):
    """Which side of rate × mean latency = connections is wrong."""

    ERRORS = "errors or timeouts"
    CONNECTIONS = "fewer connections open than asked"
    CLIENT = "the client"
    CORRECTION = "latency inflated by wrk's correction"
    FIGURES = "figures that do not belong together"


CAUSES = {
    Side.ERRORS: "Requests failed or timed out: they count in neither the rate nor the mean "
                 "latency, so the two no longer describe the same requests",
    Side.CONNECTIONS: "wrk opened fewer connections than asked (each thread gets connections "
                      "÷ threads, rounded down), so the rate is that of fewer connections",
    Side.CLIENT: "The rate is below what the connections and the mean latency allow: each "
                 "connection spent time outside any request, in the load tool between a "
                 "response and the next request (a busy or starved client) or not open",
    Side.CORRECTION: "The mean latency is wrk's after its correction for coordinated omission: "
                     "for each request slower than twice the interval between a "
                     "connection's requests it adds samples no request took, so the mean "
                     "and the percentiles overstate what requests took",
    Side.FIGURES: "More answers a second than the connections can give at the mean latency, "
                  "and wrk's correction cannot explain it: no latency reached twice the "
                  "interval between a connection's requests",
}
ADVICE = {
    Side.ERRORS: "read the Socket errors and Non-2xx/3xx columns and the server's log: a "
                 "server that fails requests at these connections is failing, not slow",
    Side.CONNECTIONS: "ask for connections that are a multiple of the threads, or read the "
                      "cell as the connections wrk opened",
    Side.CLIENT: "give {tool} CPUs of its own (LOADGEN_CPUS, SERVER_CPUS), fewer threads or "
                 "another machine, on a quieter host; compare wrk CPU and Host busy",
    Side.CORRECTION: "read this cell's rate, not its mean latency; for latency as requests "
                     "took it, measure at a fixed rate (make latency)",
    Side.FIGURES: "check the raw report (raw/<stem>.txt): an edited or merged report, or "
                  "pipelined requests, give such figures",
}


@dataclass(frozen=True)
class RunCheck:
    """One run's ratio, and when it is out of bounds the side that is wrong."""

    ratio: float
    side: Side | None = None
    figures: str = ""  # what the side was told by


@dataclass(frozen=True)
class CellCheck:
    """The check of a cell's runs, in their order: the cell's is its run out of bounds, or
    else the one farthest from 1 (the farthest of those out, when several are)."""

    runs: tuple[RunCheck, ...]

    @property
    def worst(self) -> RunCheck:
        return max(self.runs, key=lambda check: (check.side is not None,
                                                 abs(math.log(check.ratio))))

    @property
    def failed(self) -> bool:
        return self.worst.side is not None


def littles_ratio(requests_per_sec: float, mean_latency_us: float, connections: int) -> float:
    """rate × mean latency ÷ connections: 1 when every connection always had a request in
    flight and the mean is the requests' own."""
    return requests_per_sec * mean_latency_us / _US_PER_S / connections


def ratio_text(ratio: float) -> str:
    """Two decimals, three where two would read as a bound: 1.103 is outside 0.9-1.1."""
    return f"{ratio:.3f}" if round(ratio, 2) in (LOW, HIGH) else f"{ratio:.2f}"


def opened_connections(run: WrkRun, asked: int) -> int:
    """The connections wrk opens: connections ÷ threads per thread, on every generator;
    h2load (HTTP/2) spreads the remainder over its threads and opens all of them."""
    if run.tool == H2LOAD:
        return asked
    if run.generators and all(generator.connections for generator in run.generators):
        return sum(opened_connections(generator, generator.connections)
                   for generator in run.generators)
    return asked if not run.threads or run.generators else run.threads * (asked // run.threads)


def check_run(run: WrkRun, connections: int,
              usage: ResourceUsage | None = None) -> RunCheck | None:
    """The run's ratio against the connections asked, and the side when out of bounds; None
    for a run without requests or a mean latency. usage: its CPU figures, when sampled."""
    mean = run.latency.mean_us
    if run.requests <= 0 or not mean or run.requests_per_sec <= 0 or connections <= 0:
        return None
    # Over HTTP/2 each connection carries h2load's streams: that many requests in flight.
    ratio = littles_ratio(run.requests_per_sec, mean, connections * (run.streams or 1))
    if LOW <= ratio <= HIGH:
        return RunCheck(ratio)
    if error_share(run) > MAX_ERROR_SHARE:
        return RunCheck(ratio, Side.ERRORS, f"{error_share(run):.2%} of requests failed or "
                                            "timed out")
    return _low_side(run, ratio, connections, usage) if ratio < LOW else _high_side(run, ratio,
                                                                                   connections)


def error_share(run: WrkRun) -> float:
    """Socket errors (timeouts among them) and answers other than 2xx/3xx, per request."""
    errors = run.errors
    failed = errors.connect + errors.read + errors.write + errors.timeout + run.non_2xx_3xx
    return failed / run.requests


def _low_side(run: WrkRun, ratio: float, connections: int,
              usage: ResourceUsage | None) -> RunCheck:
    opened = opened_connections(run, connections)
    if opened < connections and ratio * connections / opened >= LOW:
        return RunCheck(ratio, Side.CONNECTIONS, f"wrk opened {opened} of {connections} on "
                                                 f"{run.threads} threads, "
                                                 f"{ratio_text(ratio * connections / opened)} "
                                                 "against those")
    return RunCheck(ratio, Side.CLIENT, _cpu_words(usage, tool_name(run)))


def _cpu_words(usage: ResourceUsage | None, tool: str) -> str:
    if usage is None or usage.loadgen_cores is None:
        return f"{tool}'s CPU not measured"
    busy = "" if usage.host_busy_cores is None else f", the host {usage.host_busy_cores:.2f} busy"
    return f"{tool} used {usage.loadgen_cores:.2f} cores{busy}"


def _high_side(run: WrkRun, ratio: float, connections: int) -> RunCheck:
    """The correction when it can have added samples: a latency of at least twice the
    interval, and more samples than requests where the count is known."""
    interval_us = connections / run.requests_per_sec * _US_PER_S
    added = None if run.latency_samples is None else run.latency_samples - run.requests
    reached = run.latency.max_us is None or run.latency.max_us >= CORRECTED_FROM * interval_us
    if not reached or added == 0:
        return RunCheck(ratio, Side.FIGURES, f"interval {interval_us / 1000:.2f} ms, "
                                             f"max {_ms(run.latency.max_us)}")
    count = "" if added is None or added < 0 else (
        f", {added:,} samples added, {added / run.latency_samples:.0%} of its histogram")
    return RunCheck(ratio, Side.CORRECTION, f"interval {interval_us / 1000:.2f} ms, "
                                            f"max {_ms(run.latency.max_us)}{count}")


def _ms(value_us: float | None) -> str:
    return "unknown" if value_us is None else f"{value_us / 1000:.2f} ms"


def check_cell(cell: Cell) -> CellCheck | None:
    """Each measured run's check, with the CPU figures sampled beside it; None for a cell
    without a run that has requests and a mean latency."""
    usages = cell.resources if len(cell.resources) == len(cell.runs) else (None,) * len(cell.runs)
    checks = tuple(check for run, usage in zip(cell.runs, usages)
                   if (check := check_run(run, run.connections or cell.connections, usage)))
    return CellCheck(checks) if checks else None


def littles_law_warning(cell: Cell, label: str) -> CellWarning | None:
    """None when every run of the cell is within the bounds."""
    check = check_cell(cell)
    if check is None or not check.failed:
        return None
    worst, name = check.worst, cell_name(cell, label)
    detail = f"{ratio_text(worst.ratio)}: {worst.figures}"
    cause = (f"Rate × mean latency ÷ connections is outside {LOW:g}-{HIGH:g} (Little's law): "
             f"{worst.side.value}. {CAUSES[worst.side]}")
    advice = ADVICE[worst.side].format(tool=tool_name(cell.runs[0]))
    return CellWarning(WarningKind.LITTLE,
                       f"{name}: rate × mean latency ÷ connections is {detail}; outside "
                       f"{LOW:g}-{HIGH:g}: {worst.side.value}; {advice}",
                       name, cause, detail, advice)


def tool_name(run: WrkRun) -> str:
    """The tool that measured the run (h2load over HTTP/2, else wrk); a cell's runs share
    one, its protocol's."""
    return run.tool or WRK


def littles_law_warnings(result: BenchResult) -> tuple[CellWarning, ...]:
    warnings = (littles_law_warning(cell, result.label(cell.server)) for cell in result.cells)
    return tuple(warning for warning in warnings if warning)
