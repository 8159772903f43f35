"""How a make latency run's figures read in results.md, its CSV, the pages, the terminal
summary and compare: rates, milliseconds, a server's maximum, its rounds, what broke it, a
step's errors and verdict, the common rate, and the curve's title and caption (both
charts'). Pure."""

from __future__ import annotations

from httplab.model import BenchResult, LatencyResult, RateStep, StepVerdict, SustainedRate
from httplab.presentation.wording.formatting import MISSING

NONE_HELD = "none held"
ROUND_NOT_DETERMINED = "not determined"
NOT_DETERMINED = f"{ROUND_NOT_DETERMINED}: the host stalled or was busy"
NOTHING_BROKE = "no step broke the target"  # as results/sustained.py words it
COST_SOURCES = {
    "COST_RATE": "set by COST_RATE",
    "lowest maximum": "the lowest of the servers' max sustainable rates, so every server "
                      "held it",
}


def server_label(result: BenchResult, server: str) -> str:
    """The server's label, marked when it is the reference (the ceiling, not a framework)."""
    record = result.server(server)
    label = result.label(server)
    return f"{label} (reference)" if record is not None and record.is_reference else label


def rate_text(rate: float | None) -> str:
    """20000.0 -> '20,000'; a rate with a fraction keeps one decimal."""
    if rate is None:
        return MISSING
    return f"{rate:,.0f}" if rate == round(rate) else f"{rate:,.1f}"


def ms_text(us: float | None) -> str:
    """Microseconds as milliseconds, to about three figures: 212.0 -> '0.21'."""
    if us is None:
        return MISSING
    ms = us / 1000
    digits = 2 if ms < 10 else 1 if ms < 100 else 0
    return f"{ms:.{digits}f}"


def slo_text(slo_p99_us: float) -> str:
    """10000.0 -> 'p99 ≤ 10 ms'; under a millisecond in µs."""
    value = f"{slo_p99_us / 1000:g} ms" if slo_p99_us >= 1000 else f"{slo_p99_us:g} µs"
    return f"p99 ≤ {value}"


def max_rate_text(rate: SustainedRate) -> str:
    """'10,000 req/s', 'at least 20,000 req/s, limited by the load tool', 'none held', or
    not determined when the host left every round undetermined."""
    if rate.not_determined:
        return NOT_DETERMINED
    if rate.value is None:
        return NONE_HELD
    text = f"{rate_text(rate.value)} req/s"
    return f"at least {text}, limited by the load tool" if rate.limited_by_tool else text


def rounds_text(rate: SustainedRate) -> str:
    """Each round's maximum when there were several ('10,000, not determined'), else '—'."""
    if len(rate.rounds) < 2:
        return MISSING
    return ", ".join(round_text(rate, number) for number in range(1, len(rate.rounds) + 1))


def round_text(rate: SustainedRate, number: int) -> str:
    """One round's maximum (from 1): a rate, 'none held' or 'not determined'."""
    value = rate.rounds[number - 1]
    if number in rate.host_rounds:
        return ROUND_NOT_DETERMINED
    return NONE_HELD if value is None else rate_text(value)


def broke_at_text(rate: SustainedRate) -> str:
    """What broke each round; said once when every round says the same."""
    reasons = [reason or NOTHING_BROKE for reason in rate.broke_at]
    if not reasons:
        return MISSING
    if len(set(reasons)) == 1:
        return reasons[0] + (" (every round)" if len(reasons) > 1 else "")
    return "; ".join(f"round {number}: {reason}" for number, reason in enumerate(reasons, 1))


def errors_text(step: RateStep) -> str:
    """'0', or the failed requests and each kind: '8,520: HTTP 503 ×8,120, connection error
    ×400'; '—' for a step that left no figures."""
    if step.verdict is StepVerdict.FAILED and not step.errors:
        return MISSING
    if not step.errors:
        return "0"
    kinds = ", ".join(f"{kind} ×{count:,}" for kind, count in step.errors)
    return f"{step.failed_requests:,}: {kinds}"


def connections_text(step: RateStep) -> str:
    """'400', or '400 (ran out)' when every connection was busy and requests waited."""
    return f"{step.connections} (ran out)" if step.out_of_connections else str(step.connections)


def verdict_text(step: RateStep) -> str:
    return f"{step.verdict.value}: {step.reason}"


def cost_rate_sentence(latency: LatencyResult) -> str:
    """How the common rate of the cost steps was chosen, or why there is none."""
    if latency.cost_rate is None and latency.target_url:
        return ("No common rate: one server, started by the user (URL=); COST_RATE=R measures "
                "it at R.")
    if latency.cost_rate is None:
        return "No common rate: no server held any rate, so nothing was measured for its cost."
    source = COST_SOURCES.get(latency.cost_rate_source, latency.cost_rate_source or "not recorded")
    return f"The common rate is {rate_text(latency.cost_rate)} req/s: {source}."


def latency_curve_title(result: BenchResult) -> str:
    rounds = result.settings.repeat if result.settings else 1
    median = f"\nmedian of {rounds} rounds per rate" if rounds > 1 else ""
    return ("Latency by offered rate: p50, p99 and p99.9 from each request's due time "
            f"(lower is better){median}")


def tool_note(result: BenchResult) -> str:
    """The caption's first line: the load tool, and how it counts latency."""
    tool = result.latency.tool or "the load tool"
    return (f"Load: {tool} at fixed rates, each request sent when due; its latency counts "
            "from that due time, waits for the server or a free connection included.")


def cost_rate_text(result: BenchResult) -> str:
    """The latency run's common rate, '10,000 req/s', or 'none'."""
    rate = result.latency.cost_rate
    return "none" if rate is None else f"{rate_text(rate)} req/s"
