"""A fixed make latency run with PROFILE=1 for the export tests: test data, built by hand,
not a measurement.

RATES=10000,20000 with one round and a p99 target of 10 ms, the profiler in Netty and
Undertow (netty+profiled, undertow+profiled), nginx the reference, never profiled:
- Netty held both rates, sampled by cpu; at 20k its samples fell short of the CPU measured,
  so the consistency check marked that step;
- Undertow held 10k and broke at 20k (p99 over the target), sampled by itimer (the
  container refused perf events); the profiler failed on its step at the common rate;
- nginx held both rates.
Then each server ran at 10k, the lowest of the maxima, for its cost."""

from __future__ import annotations

from dataclasses import replace

from httplab.axes import PROFILE
from httplab.model import (BenchResult, HotFrame, LatencyResult, RateStep, RunProfile,
                           StepPurpose, StepVerdict, SustainedRate)
from httplab.results.profile_layers import LAYERS

from tests.latency_sample import SERVERS, latency_sample_result, step, usage

PROFILED_MARK = f"{PROFILE.mark}{PROFILE.token('1')}"  # netty+profiled

NETTY, UNDERTOW = (f"{name}{PROFILED_MARK}" for name in ("netty", "undertow"))
INTERVAL_NS = 5_000_000
# Each framework's share of samples by layer, in percent, in LAYERS' order.
NETTY_SHARES = (42, 16, 27, 0, 3, 2, 6, 4)
UNDERTOW_SHARES = (31, 27, 0, 25, 3, 6, 5, 3)
NETTY_MISMATCH = ("900 samples x 5 ms = 4.50 s of CPU, while the server used 5.80 s (22% "
                  "less, tolerance 20%): samples were lost (threads the timer did not reach, "
                  "samples dropped) or the interval was longer than recorded")
UNDERTOW_FAILURE = "the profiler did not stop: return code 200"


def _profile(raw_file: str, event: str, shares: tuple[int, ...], cpu_seconds: float,
             samples: int | None = None, mismatch: str | None = None) -> RunProfile:
    """A step's profile: by default its samples x 5 ms are the CPU measured."""
    samples = round(cpu_seconds * 1e9 / INTERVAL_NS) if samples is None else samples
    layers = tuple((layer, samples * share // 100) for layer, share in zip(LAYERS, shares))
    layers = layers[:-1] + (("other", samples - sum(n for _, n in layers[:-1])),)
    stem = raw_file.removesuffix(".oha.json")
    return RunProfile(event=event, interval=INTERVAL_NS, samples=samples, layers=layers,
                      hot_frames=(HotFrame("finish_task_switch.isra.0_[k]", "kernel",
                                           samples // 10),),
                      measured_cpu_seconds=cpu_seconds, mismatch=mismatch,
                      collapsed_file=f"{stem}.collapsed.txt", flame_graph_file=f"{stem}.flame.html")


def _profiled(one: RateStep, event: str, shares: tuple[int, ...], **fields) -> RateStep:
    return replace(one, profile=_profile(one.raw_file, event, shares,
                                         one.resources.cpu_seconds, **fields))


def _steps() -> tuple[RateStep, ...]:
    netty = (step(NETTY, 10000, 1, 0.21, 0.9, usage(0.31, 0.35, 180, 24)),
             step(NETTY, 20000, 1, 0.24, 1.6, usage(0.58, 0.66, 190, 24)),
             step(NETTY, 10000, 1, 0.2, 0.8, usage(0.30, 0.35, 182, 24), purpose=StepPurpose.COST))
    undertow = (step(UNDERTOW, 10000, 1, 0.45, 4.8, usage(0.52, 0.36, 310, 212)),
                step(UNDERTOW, 20000, 1, 2.1, 14.2, usage(0.97, 0.68, 340, 212),
                     StepVerdict.P99, "p99 14.2 ms over the target of 10.0 ms", full=True),
                step(UNDERTOW, 10000, 1, 0.47, 5.1, usage(0.55, 0.36, 315, 212),
                     purpose=StepPurpose.COST))
    nginx = tuple(step("nginx", rate, 1, 0.12, p99, usage(cores, 0.34, 12, 5), purpose=purpose)
                  for rate, p99, cores, purpose in (
                      (10000, 0.5, 0.12, StepPurpose.LIST), (20000, 0.7, 0.23, StepPurpose.LIST),
                      (10000, 0.5, 0.11, StepPurpose.COST)))
    return (_profiled(netty[0], "cpu", NETTY_SHARES),
            _profiled(netty[1], "cpu", NETTY_SHARES, samples=900, mismatch=NETTY_MISMATCH),
            _profiled(netty[2], "cpu", NETTY_SHARES),
            *(_profiled(one, "itimer", UNDERTOW_SHARES) for one in undertow[:2]),
            replace(undertow[2], profile=RunProfile(event="itimer", interval=INTERVAL_NS,
                                                    failure=UNDERTOW_FAILURE)),
            *nginx)


MAXIMA = (
    SustainedRate(NETTY, (20000.0,), broke_at=("no step broke the target",)),
    SustainedRate(UNDERTOW, (10000.0,),
                  broke_at=("20000/s: p99 14.2 ms over the target of 10.0 ms",)),
    SustainedRate("nginx", (20000.0,), broke_at=("no step broke the target",)),
)


def _servers():
    """Netty and Undertow as run with the profiler in them; nginx as always."""
    netty, undertow, nginx = SERVERS
    return tuple(replace(record, name=f"{record.name}{PROFILED_MARK}",
                         label=f"{record.label} (profiled)", profiled=True,
                         log_file=f"raw/{record.name}{PROFILED_MARK}.log")
                 for record in (netty, undertow)) + (nginx,)


def latency_profile_sample_result() -> BenchResult:
    base = latency_sample_result()
    return replace(
        base, servers=_servers(),
        settings=replace(base.settings, repeat=1, profile=(True,), profile_event="cpu"),
        latency=LatencyResult(base.latency.slo_p99_us, "10000,20000", _steps(), MAXIMA,
                              10000.0, "lowest maximum", tool="oha 1.16.0", step_warmup_s=5.0))
