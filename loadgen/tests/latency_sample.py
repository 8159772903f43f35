"""A small, fixed make latency result for the export, chart and compare tests: test data,
built by hand, not a measurement.

RATES=10000,20000,40000 with REPEAT=2 and a p99 target of 10 ms, on a 4-core host with the
server pinned to CPU 1 and oha to CPU 0:
- Netty held 10k and 20k in both rounds; at 40k oha (on its one core) could not keep up:
  its maximum is "at least 20k", limited by the load tool;
- Undertow held only 10k in round 1 (at 20k p99 went over the target, with every
  connection busy; at 40k it answered 503s) and 20k in round 2 (at 40k it stopped):
  its maximum is 10k;
- nginx, the reference, held every rate in both rounds.
Then each server ran twice at 10k, the lowest of the maxima, for its cost."""

from __future__ import annotations

from httplab.model import (BenchResult, HostInfo, Latency, LatencyResult, RateStep,
                           ResourceUsage, ServerRecord, Settings, StepPurpose, StepVerdict,
                           SustainedRate)
from httplab.results.results_json.version import FORMAT_VERSION

SLO_US = 10_000.0
DURATION_S = 10.0
HELD, LIST, COST = StepVerdict.HELD, StepPurpose.LIST, StepPurpose.COST


def latency(p50_ms: float, p99_ms: float, max_ms: float) -> Latency:
    """oha's percentiles (p10 to p99.99, no stdev), from three of them."""
    p50, p99 = p50_ms * 1000, p99_ms * 1000
    return Latency(mean_us=p50 * 1.2, stdev_us=None, max_us=max_ms * 1000, min_us=p50 / 4,
                   percentiles_us=((10.0, p50 / 2), (50.0, p50), (90.0, p50 * 2.5),
                                   (99.0, p99), (99.9, p99 * 1.5), (99.99, p99 * 2)))


def usage(server_cores: float, tool_cores: float, peak_mib: int, threads: int) -> ResourceUsage:
    return ResourceUsage(
        cpu_cores=server_cores, memory_peak_bytes=peak_mib * 2**20,
        memory_mean_bytes=(peak_mib - 10) * 2**20, samples=21, source="cgroup v2",
        cpu_seconds=round(server_cores * DURATION_S, 3),
        context_switches=round(server_cores * 50_000), threads_max=threads,
        loadgen_cores=tool_cores, loadgen_source="oha process",
        host_busy_cores=round(server_cores + tool_cores + 0.1, 2))


def step(server: str, rate: float, round_number: int, p50_ms: float, p99_ms: float,
         resources: ResourceUsage, verdict: StepVerdict = HELD, reason: str = "",
         purpose: StepPurpose = LIST, achieved_share: float = 1.0,
         errors: tuple[tuple[str, int], ...] = (), full: bool = False) -> RateStep:
    achieved = round(rate * achieved_share, 2)
    kind = "cost" if purpose is COST else f"q{rate:g}"
    return RateStep(
        server, float(rate), max(round(rate * SLO_US / 1e6 * 2), 1), purpose, verdict,
        reason or f"p99 {p99_ms:.1f} ms, {achieved_share:.1%} of the rate answered",
        round_number, DURATION_S, achieved, round(achieved * DURATION_S),
        errors, latency(p50_ms, p99_ms, p99_ms * 3), resources, full,
        f"raw/{server}-{kind}-r{round_number}.oha.json")


def failed_step(server: str, rate: float, round_number: int) -> RateStep:
    return RateStep(server, float(rate), 800, LIST, StepVerdict.FAILED,
                    "the server stopped during the step (exit 137)", round_number,
                    raw_file=f"raw/{server}-q{rate:g}-r{round_number}.oha.json")


TOOL_REASON = ("the load tool could not hold the rate: 91.0% of it answered, while the load "
               "tool used 0.97 of 1 cores, the host 1.89 of 4")


def netty_steps(round_number: int) -> tuple[RateStep, ...]:
    return (step("netty", 10000, round_number, 0.21, 0.9, usage(0.31, 0.35, 180, 24)),
            step("netty", 20000, round_number, 0.24, 1.6, usage(0.58, 0.66, 190, 24)),
            step("netty", 40000, round_number, 0.4, 6.5, usage(0.82, 0.97, 205, 24),
                 StepVerdict.LOAD_TOOL, TOOL_REASON, achieved_share=0.91))


def undertow_steps(round_number: int) -> tuple[RateStep, ...]:
    first = step("undertow", 10000, round_number, 0.45, 4.8, usage(0.52, 0.36, 310, 212))
    if round_number == 1:
        return (first,
                step("undertow", 20000, 1, 2.1, 14.2, usage(0.97, 0.68, 340, 212),
                     StepVerdict.P99, "p99 14.2 ms over the target of 10.0 ms", full=True),
                step("undertow", 40000, 1, 3.5, 60.0, usage(0.99, 0.9, 352, 212),
                     StepVerdict.ERRORS, "2.13% of requests failed (at most 0.1%)",
                     achieved_share=0.97, errors=(("HTTP 503", 8120), ("connection error", 400))))
    return (first, step("undertow", 20000, 2, 1.8, 9.1, usage(0.95, 0.67, 338, 212)),
            failed_step("undertow", 40000, 2))


def nginx_steps(round_number: int) -> tuple[RateStep, ...]:
    return tuple(step("nginx", rate, round_number, 0.12, p99, usage(cores, tool, 12, 5))
                 for rate, p99, cores, tool in ((10000, 0.5, 0.12, 0.34),
                                                (20000, 0.7, 0.23, 0.65),
                                                (40000, 1.1, 0.45, 0.88)))


def cost_steps(round_number: int) -> tuple[RateStep, ...]:
    return (step("netty", 10000, round_number, 0.2, 0.8, usage(0.30, 0.35, 182, 24), purpose=COST),
            step("undertow", 10000, round_number, 0.47, 5.1, usage(0.55, 0.36, 315, 212),
                 purpose=COST),
            step("nginx", 10000, round_number, 0.12, 0.5, usage(0.11, 0.34, 12, 5), purpose=COST))


MAXIMA = (
    SustainedRate("netty", (20000.0, 20000.0), limited_by_tool=True,
                  broke_at=(f"40000/s: {TOOL_REASON}",) * 2),
    SustainedRate("undertow", (10000.0, 20000.0),
                  broke_at=("20000/s: p99 14.2 ms over the target of 10.0 ms",
                            "40000/s: the server stopped during the step (exit 137)")),
    SustainedRate("nginx", (40000.0, 40000.0), broke_at=("no step broke the target",) * 2),
)

SERVERS = (
    ServerRecord("netty", "Netty", "Netty", "4.2.18.Final", "event loops: one per CPU", "epoll",
                 verification="all 7 checks passed", log_file="raw/netty.log"),
    ServerRecord("undertow", "Undertow (200 workers)", "Spring Boot (Undertow)", "3.5.16",
                 "200 worker threads", "nio", log_file="raw/undertow.log"),
    ServerRecord("nginx", "nginx", "nginx", "1.26.3", "auto", "epoll", role="reference",
                 log_file="raw/nginx.log"),
)


def latency_sample_result() -> BenchResult:
    steps = (*netty_steps(1), *undertow_steps(1), *nginx_steps(1),
             *netty_steps(2), *undertow_steps(2), *nginx_steps(2),
             *cost_steps(1), *cost_steps(2))
    return BenchResult(
        format_version=FORMAT_VERSION, created_utc="2026-12-02T09-15-00Z",
        settings=Settings(("netty", "undertow", "nginx"), (10,), (500,), DURATION_S, "docker",
                          repeat=2, primer_s=5.0, primer_connections=8, warmup_s=10.0,
                          server_cpus="1", loadgen_cpus="0"),
        host=HostInfo(hostname="lab-host", cpu_model="Test CPU @ 3.40GHz", cores=4,
                      memory_bytes=16 * 2**30, kernel="6.1.0", os="Linux",
                      docker="Docker version 28.2.2", java="openjdk version \"17.0.15\"",
                      python="3.11.7"),
        servers=SERVERS, cells=(), lab_commit="0123456789ab",
        latency=LatencyResult(SLO_US, "10000,20000,40000", steps, MAXIMA, 10000.0,
                              "lowest maximum", tool="oha 1.16.0", step_warmup_s=5.0))
