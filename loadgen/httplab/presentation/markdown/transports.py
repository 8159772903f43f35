"""What a run's page adds when it chose the I/O engine under the frameworks (TRANSPORT):
each variant's engine as the server said it ran (its ready line, checked against the one
asked before any load) beside what it charged: a bench's cells by workload, a latency run's
steps at the common rate (medians over rounds), with the kernel's share of the profile's
samples where profiled. The ratios with their intervals are under "Variants compared".
Pure."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from httplab.model import ENGINE_SECCOMP, BenchResult, Cell, RateStep, RunProfile, Workload
from httplab.presentation.markdown.table import markdown_table
from httplab.presentation.views.figures import cell_figures
from httplab.presentation.views.latency_figures import cost_steps, latency_servers
from httplab.presentation.wording.formatting import (MISSING, format_duration_us, format_rate,
                                                     format_switches)
from httplab.presentation.wording.latency import ms_text, rate_text, server_label
from httplab.results.fairness import cell_fairness
from httplab.results.profile_layers import KERNEL, layer_share
from httplab.results.stats import median_of_known
from httplab.results.step_figures import StepFigures, step_figures

TRANSPORTS_INTRO = ("The I/O engine under each framework (TRANSPORT), as the server said it "
                    "ran on it, checked against the one asked before any load. Context "
                    "switches count every thread of the server; involuntary ones are the "
                    "kernel taking a thread's CPU away, the rest are waits. See "
                    "docs/method.md, \"Transports\":")
BENCH_HEADER = ("Server", "Transport", "Threads", "Connections", "Requests/sec",
                "Latency p99", "CPU per request", "Context switches per request",
                "Fairness spread")
LATENCY_HEADER = ("Server", "Transport", "Rate (req/s)", "Rounds", "p50 (ms)", "p99 (ms)",
                  "p99.9 (ms)", "CPU per request", "Context switches per request",
                  "Kernel share of samples")


def transport_table(result: BenchResult, workload: Workload) -> list[str]:
    """A bench workload's table; none for a run that left TRANSPORT to each framework."""
    if not chose_transport(result):
        return []
    rows = [_cell_row(result, cell) for cell in result.cells if cell.workload == workload]
    return [TRANSPORTS_INTRO, "", *markdown_table(BENCH_HEADER, rows)]


def latency_transport_table(result: BenchResult) -> list[str]:
    """A latency run's table at the common rate, after a blank line; none for a run that
    left TRANSPORT to each framework or measured no common rate."""
    if not chose_transport(result) or result.latency.cost_rate is None:
        return []
    rows = [_server_row(result, server, steps) for server in latency_servers(result)
            if (steps := cost_steps(result, server))]
    return ["", TRANSPORTS_INTRO, "", *markdown_table(LATENCY_HEADER, rows)] if rows else []


def chose_transport(result: BenchResult) -> bool:
    return bool(result.settings and result.settings.transports)


def _said(result: BenchResult, server: str) -> str:
    """The engine the server said it ran on, and the seccomp profile its container ran
    under where it was not the engine's own (io_uring on an engine whose default blocks it)."""
    record = result.server(server)
    said = (record.transport if record else None) or MISSING
    profile = record.seccomp if record else None
    return said if profile in (None, ENGINE_SECCOMP) else f"{said} (seccomp profile {profile})"


def _cell_row(result: BenchResult, cell: Cell) -> tuple[str, ...]:
    head = (result.label(cell.server), _said(result, cell.server), str(cell.threads),
            str(cell.connections))
    figures = cell_figures(cell)
    if figures is None:
        return head + (MISSING,) * (len(BENCH_HEADER) - len(head) - 1) + (
            cell.reason or cell.status.value,)
    fairness = cell_fairness(cell)
    return head + (format_rate(figures.requests_per_sec.median),
                   format_duration_us(figures.latency_p99_us),
                   format_duration_us(figures.cpu_us_per_request),
                   format_switches(figures.context_switches_per_request,
                                   figures.involuntary_switches_per_request),
                   MISSING if fairness is None else f"{fairness.spread:.2f}")


def _server_row(result: BenchResult, server: str, steps: list[RateStep]) -> tuple[str, ...]:
    figures = [step_figures(step) for step in steps]

    def median(field: Callable[[StepFigures], float | None]) -> float | None:
        return median_of_known(field(one) for one in figures)

    return (server_label(result, server), _said(result, server),
            rate_text(steps[0].offered_rate), str(len(steps)),
            ms_text(median(lambda one: one.p50_us)), ms_text(median(lambda one: one.p99_us)),
            ms_text(median(lambda one: one.p999_us)),
            format_duration_us(median(lambda one: one.cpu_us_per_request)),
            format_switches(median(lambda one: one.context_switches_per_request),
                            median(lambda one: one.involuntary_switches_per_request)),
            _kernel_share(step.profile for step in steps))


def _kernel_share(profiles: Iterable[RunProfile | None]) -> str:
    """The median over the profiled steps of the kernel's share of their samples; "not
    profiled" without PROFILE=1."""
    shares = [layer_share(profile, KERNEL) for profile in profiles if profile is not None]
    share = median_of_known(shares)
    return "not profiled" if not shares else (MISSING if share is None else f"{share:.0%}")
