"""make calibrate's results built by hand for the tests: Netty and its replica over n
rounds, the replica's figures set off from the first's by log ratios of a chosen spread
(and, for a host that drifts within a round, a chosen shift), the first's moving from
round to round as a host's do."""

from __future__ import annotations

import math
import statistics

from httplab.model import (BenchResult, Cell, CellStatus, HostInfo, Latency, ResourceUsage,
                           Settings, WrkRun)

HOST = HostInfo(hostname="lab-a", cpu_model="Test CPU", cores=2, memory_bytes=4 * 2**30)
FIRST, REPLICA = "netty", "netty+replica2"
DURATION_S = 10.0


def unit_spread(rounds: int) -> list[float]:
    """Values centred on 0 whose sample standard deviation is exactly 1."""
    centred = [r - (rounds - 1) / 2 for r in range(rounds)]
    sd = statistics.stdev(centred)
    return [value / sd for value in centred]


def calibration_result(rounds: int = 5, rate_sd: float = 0.04, cpu_sd: float = 0.02,
                       p99_sd: float = 0.10, shift: float = 0.0,
                       created: str = "2026-11-28T22-00-00Z",
                       host: HostInfo = HOST) -> BenchResult:
    """An A/A whose paired log ratios have these sample SDs (Requests/sec, CPU per request,
    p99), the replica's rate `shift` (a log) above the first's besides."""
    spread = unit_spread(rounds)
    first = [(20000.0 * (1 + 0.2 * r), 0.5 * (1 + 0.1 * r), 900.0 * (1 + 0.3 * r))
             for r in range(rounds)]
    replica = [(rate * math.exp(shift + rate_sd * z), cpu * math.exp(cpu_sd * z),
                p99 * math.exp(p99_sd * z))
               for (rate, cpu, p99), z in zip(first, spread)]
    settings = Settings(servers=(FIRST, REPLICA), threads=(10,), connections=(500,),
                        duration_s=DURATION_S, backend="local", repeat=rounds,
                        replicas=("1", "2"))
    return BenchResult(17, created, settings, host, (),
                       (_cell(FIRST, first), _cell(REPLICA, replica)))


def _cell(server: str, rounds: list[tuple[float, float, float]]) -> Cell:
    """Per round: the rate, the server's CPU µs per request, the p99 in µs."""
    runs = tuple(_run(rate, p99) for rate, _, p99 in rounds)
    usage = tuple(ResourceUsage(cpu_seconds=cpu_per_request * run.requests / 1e6)
                  for (_, cpu_per_request, _), run in zip(rounds, runs))
    return Cell(server, 10, 500, CellStatus.OK, runs=runs, resources=usage,
                rounds=tuple(range(1, len(rounds) + 1)))


def _run(rate: float, p99: float) -> WrkRun:
    return WrkRun(DURATION_S, round(rate * DURATION_S), 0, rate, 0.0,
                  Latency(p99 / 3, p99 / 4, p99 * 2, percentiles_us=((50.0, p99 / 4),
                                                                      (99.0, p99))))
