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
4. host: the host stalled enough to break p99 by itself (then, held or not, the load
   tool stalled with it and the latency understates what users would see), or p99 over
   the target or the answers short while other work took a sizeable share of the host
   (the rule and its thresholds: results/host_load.py); never counted against the
   server: the search runs it again;
5. p99: p99, counted from each request's due time, over the target;
6. short: the answers fell under HELD_SHARE of the offered rate;
7. held.
Apart from the verdict, a step ran out of connections when, by Little's law, the
requests in flight (answers a second × mean latency) filled OUT_OF_CONNECTIONS of them:
requests then waited for a free connection, and that wait is in their latency."""

from __future__ import annotations

from dataclasses import dataclass

from httplab.loadtools.oha.report import DEADLINE_ERROR, OhaReport
from httplab.model import HostStalls, StepVerdict
from httplab.results.bottleneck import SATURATED, CpuFigures
from httplab.results.host_load import host_broke_step

HELD_SHARE = 0.99
MAX_ERROR_SHARE = 0.001
OUT_OF_CONNECTIONS = 0.9
_US_PER_S = 1e6


@dataclass(frozen=True)
class StepJudgement:
    verdict: StepVerdict
    reason: str  # the verdict in words, with its figures
    out_of_connections: bool = False


def judge_step(report: OhaReport | None, failure: str | None, slo_p99_us: float,
               connections: int, cpu: CpuFigures | None = None,
               stalls: HostStalls | None = None) -> StepJudgement:
    """How the step ended; `cpu`: the step's CPU figures (the load tool as the load
    generator, the foreign CPU), when measured; `stalls`: the stall meter's over the step."""
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
    if achieved < HELD_SHARE and cpu is not None and _tool_limited(cpu):
        return StepJudgement(StepVerdict.LOAD_TOOL, f"the load tool could not hold the rate: "
                                                    f"{achieved:.1%} of it answered while "
                                                    f"{_tool_words(cpu)}", full)
    held = p99_held and achieved >= HELD_SHARE
    if host := _host_reason(cpu, stalls, slo_p99_us, held):
        return StepJudgement(StepVerdict.HOST, _host_words(p99, slo_p99_us, achieved, held,
                                                           host), full)
    if not p99_held:
        return StepJudgement(StepVerdict.P99, _missed(p99, slo_p99_us, achieved), full)
    if achieved < HELD_SHARE:
        return StepJudgement(StepVerdict.SHORT, f"answered {achieved:.1%} of the offered "
                                                f"rate (at least {HELD_SHARE:.0%})", full)
    return StepJudgement(StepVerdict.HELD, f"p99 {_ms(p99)}, {achieved:.1%} of the rate "
                                           "answered", full)


def _host_reason(cpu: CpuFigures | None, stalls: HostStalls | None, slo_p99_us: float,
                 held: bool) -> str | None:
    foreign = cpu.foreign if cpu else None
    return host_broke_step(foreign, cpu.host_cores if cpu else 0.0, stalls, slo_p99_us, held)


def _host_words(p99: float | None, slo_p99_us: float, achieved: float, held: bool,
                host: str) -> str:
    if held:
        return (f"p99 {_ms(p99)} seemed to hold, but {host}, the load tool with it: this "
                "latency understates what users would see")
    return f"{_missed(p99, slo_p99_us, achieved)} while {host}"


def _missed(p99: float | None, slo_p99_us: float, achieved: float) -> str:
    """What the step missed: 'p99 23.5 ms over the target of 10.0 ms', or the answers."""
    if p99 is None or p99 > slo_p99_us:
        return f"p99 {_ms(p99)} over the target of {_ms(slo_p99_us)}"
    return f"answered {achieved:.1%} of the offered rate"


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


def _tool_limited(cpu: CpuFigures) -> bool:
    """Rule 3: the tool's cpuset saturated, or a saturated host where it took at least the
    server's share."""
    tool, server, host_busy = cpu.loadgen, cpu.server, cpu.host_busy
    if tool is None:
        return False
    took_the_host = (server is not None and host_busy is not None
                     and host_busy >= SATURATED * cpu.host_cores and tool >= server)
    return tool >= SATURATED * cpu.loadgen_limit or took_the_host


def _tool_words(cpu: CpuFigures) -> str:
    tool = "unknown" if cpu.loadgen is None else f"{cpu.loadgen:.2f}"
    return (f"the load tool used {tool} of {cpu.loadgen_limit:g} cores, the host "
            f"{_cores(cpu.host_busy)} of {cpu.host_cores:g}")


def _cores(value: float | None) -> str:
    return "unknown" if value is None else f"{value:.2f}"


def _ms(us: float | None) -> str:
    if us is None:
        return "unknown"
    return f"{us / 1000:.1f} ms" if us >= 1000 else f"{us:.0f} µs"
