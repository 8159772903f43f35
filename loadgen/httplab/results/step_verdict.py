"""Whether one fixed-rate step held the target, and if not why. Pure.

The rule, in order (the first that applies):
1. failed: the load tool exited with an error or left no report;
2. errors: over MAX_ERROR_SHARE of the requests failed (refused, reset, timed out) or
   were answered with neither 2xx nor 3xx;
3. load tool: the answers fell under HELD_SHARE of the offered rate while
   a. the load tool used at least SATURATED of the CPUs it may use (its cpuset, or every
      core), or
   b. the host's cores were SATURATED busy and the load tool used at least as much of
      them as the server (unpinned on a shared host: the tool took the bigger part).
   oha does not report the requests it fell behind on, so its CPU is the sign; a step
   judged so is never counted against the server;
4. p99: p99, counted from each request's due time, over the target;
5. short: the answers fell under HELD_SHARE of the offered rate;
6. held.
Apart from the verdict, a step ran out of connections when, by Little's law, the
requests in flight (answers a second × mean latency) filled OUT_OF_CONNECTIONS of them:
requests then waited for a free connection, and that wait is in their latency."""

from __future__ import annotations

from dataclasses import dataclass

from httplab.loadtools.oha.report import DEADLINE_ERROR, OhaReport
from httplab.model import ResourceUsage, StepVerdict
from httplab.results.bottleneck import SATURATED

HELD_SHARE = 0.99
MAX_ERROR_SHARE = 0.001
OUT_OF_CONNECTIONS = 0.9
_US_PER_S = 1e6


@dataclass(frozen=True)
class ToolLoad:
    """Cores (CPU seconds a second) during the step; None: not measured."""

    tool: float | None
    tool_limit: float  # the cores the load tool may use
    server: float | None
    host_busy: float | None
    host_cores: float

    def tool_saturated(self) -> bool:
        return self.tool is not None and self.tool >= SATURATED * self.tool_limit

    def tool_took_the_host(self) -> bool:
        return (None not in (self.tool, self.server, self.host_busy)
                and self.host_busy >= SATURATED * self.host_cores and self.tool >= self.server)

    def words(self) -> str:
        tool = "unknown" if self.tool is None else f"{self.tool:.2f}"
        return (f"the load tool used {tool} of {self.tool_limit:g} cores, the host "
                f"{_cores(self.host_busy)} of {self.host_cores:g}")


@dataclass(frozen=True)
class StepJudgement:
    verdict: StepVerdict
    reason: str  # the verdict in words, with its figures
    out_of_connections: bool = False


def judge_step(report: OhaReport | None, failure: str | None, slo_p99_us: float,
               connections: int, load: ToolLoad | None = None) -> StepJudgement:
    """How the step ended; `load`: the CPU figures of the step, when measured."""
    if report is None or failure:
        return StepJudgement(StepVerdict.FAILED, failure or "the load tool left no report")
    full = out_of_connections(report, connections)
    p99 = report.percentile_us(99)
    errors = error_share(report)
    achieved = report.achieved_rate_per_s / report.offered_rate_per_s
    p99_held = p99 is not None and p99 <= slo_p99_us
    if errors > MAX_ERROR_SHARE:
        return StepJudgement(StepVerdict.ERRORS, f"{errors:.2%} of requests failed "
                                                 f"(at most {MAX_ERROR_SHARE:.1%})", full)
    if achieved < HELD_SHARE and load is not None and _tool_limited(load):
        return StepJudgement(StepVerdict.LOAD_TOOL, f"the load tool could not hold the rate: "
                                                    f"{achieved:.1%} of it answered while "
                                                    f"{load.words()}", full)
    if not p99_held:
        return StepJudgement(StepVerdict.P99, f"p99 {_ms(p99)} over the target of "
                                              f"{_ms(slo_p99_us)}", full)
    if achieved < HELD_SHARE:
        return StepJudgement(StepVerdict.SHORT, f"answered {achieved:.1%} of the offered "
                                                f"rate (at least {HELD_SHARE:.0%})", full)
    return StepJudgement(StepVerdict.HELD, f"p99 {_ms(p99)}, {achieved:.1%} of the rate "
                                           "answered", full)


def error_share(report: OhaReport) -> float:
    """Failed requests and answers other than 2xx/3xx, of every request that ended."""
    bad = report.failed + report.non_2xx_3xx
    ended = report.answered + report.failed
    return bad / ended if ended else 1.0


def out_of_connections(report: OhaReport, connections: int) -> bool:
    mean = report.latency.mean_us
    if mean is None or connections <= 0:
        return False
    in_flight = report.achieved_rate_per_s * mean / _US_PER_S
    return in_flight >= OUT_OF_CONNECTIONS * connections


def error_kinds(report: OhaReport) -> tuple[tuple[str, int], ...]:
    """Each kind of failure with its requests: "HTTP <status>" for an answer that was not
    2xx/3xx, else the tool's own message; the tool cutting its tasks at the end is left out."""
    statuses = [(f"HTTP {status}", count) for status, count in report.status_codes
                if not 200 <= status < 400]
    failures = [(message, count) for message, count in report.errors
                if count and message != DEADLINE_ERROR]
    return tuple(statuses + failures)


def _tool_limited(load: ToolLoad) -> bool:
    return load.tool_saturated() or load.tool_took_the_host()


def _cores(value: float | None) -> str:
    return "unknown" if value is None else f"{value:.2f}"


def _ms(us: float | None) -> str:
    if us is None:
        return "unknown"
    return f"{us / 1000:.1f} ms" if us >= 1000 else f"{us:.0f} µs"
