"""The three tables of a latency run's results.md, as Markdown lines: each server's max
sustainable rate, every step by offered rate, and each server's cost at the common rate.
Pure."""

from __future__ import annotations

from httplab.model import BenchResult, RateStep
from httplab.presentation.markdown.table import markdown_table
from httplab.presentation.wording.formatting import (MISSING, format_bytes, format_duration_us,
                                                     format_switches)
from httplab.presentation.views.latency_figures import cost_steps, latency_servers, rate_steps
from httplab.presentation.wording.latency import (broke_at_text, connections_text, errors_text,
                                                  max_rate_text, ms_text, rate_text, rounds_text,
                                                  server_label, slo_text, verdict_text)
from httplab.results.step_bottleneck import step_bottleneck
from httplab.results.step_figures import step_figures

STEPS_HEADER = ("Framework", "Round", "Offered (req/s)", "Achieved (req/s)", "Connections",
                "Failed requests", "p50 (ms)", "p90 (ms)", "p99 (ms)", "p99.9 (ms)", "Max (ms)",
                "Server CPU (cores)", "CPU per request", "Memory peak", "Server threads",
                "Host busy (cores)", "Load tool (cores)", "Verdict")
COST_HEADER = ("Framework", "Round", "Rate (req/s)", "p99 (ms)", "Held", "CPU per request",
               "Context switches per request", "Memory peak", "Server threads",
               "Load tool (cores)", "Host busy (cores)", "Limited by", "Figures behind it")


def maxima_table(result: BenchResult) -> list[str]:
    header = ("Framework", f"Max sustainable rate ({slo_text(result.latency.slo_p99_us)})",
              "Each round", "What broke it")
    return markdown_table(header, [
        (server_label(result, rate.server), max_rate_text(rate), rounds_text(rate),
         broke_at_text(rate)) for rate in result.latency.maxima])


def steps_table(result: BenchResult) -> list[str]:
    return markdown_table(STEPS_HEADER, [
        _step_row(result, step) for server in latency_servers(result)
        for step in rate_steps(result, server)])


def cost_table(result: BenchResult) -> list[str]:
    return markdown_table(COST_HEADER, [
        _cost_row(result, step) for server in latency_servers(result)
        for step in cost_steps(result, server)])


def _step_row(result: BenchResult, step: RateStep) -> tuple[str, ...]:
    figures, usage = step_figures(step), step.resources
    return (server_label(result, step.server), str(step.repeat), rate_text(step.offered_rate),
            rate_text(step.achieved_rate), connections_text(step), errors_text(step),
            *(ms_text(value) for value in figures.latency_us),
            _cores(usage and usage.cpu_cores), format_duration_us(figures.cpu_us_per_request),
            format_bytes(usage and usage.memory_peak_bytes), _count(usage and usage.threads_max),
            _cores(usage and usage.host_busy_cores), _cores(usage and usage.loadgen_cores),
            verdict_text(step))


def _cost_row(result: BenchResult, step: RateStep) -> tuple[str, ...]:
    figures, usage = step_figures(step), step.resources
    verdict = step_bottleneck(step, result)
    return (server_label(result, step.server), str(step.repeat), rate_text(step.offered_rate),
            ms_text(figures.p99_us), "yes" if step.verdict.held else step.verdict.value,
            format_duration_us(figures.cpu_us_per_request),
            format_switches(figures.context_switches_per_request,
                            figures.involuntary_switches_per_request),
            format_bytes(usage and usage.memory_peak_bytes), _count(usage and usage.threads_max),
            _cores(usage and usage.loadgen_cores), _cores(usage and usage.host_busy_cores),
            verdict.limit.value, verdict.detail)


def _cores(value: float | None) -> str:
    return MISSING if value is None else f"{value:.2f}"


def _count(value: int | None) -> str:
    return MISSING if value is None else str(value)
