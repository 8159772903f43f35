"""A Sampler reads a probe on a background thread while wrk measures, and
summarize_samples turns the samples into the model's ResourceUsage."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from types import TracebackType

from httplab.model import ResourceUsage
from httplab.running.resources.parse import HostCpu, ResourceSample, SamplingError
from httplab.running.resources.probes import ResourceProbe

DEFAULT_INTERVAL_S = 0.5


def summarize_samples(samples: list[tuple[float, ResourceSample]],
                      source: str | None = None) -> ResourceUsage:
    """CPU cores used between the first and last sample, memory peak and mean over all, and
    the most threads (and blocking pool threads) seen in any. With fewer than two samples
    cpu_cores is None, and `unavailable` says why."""
    if not samples:
        return ResourceUsage(source=source, unavailable="no samples were taken")
    memory = [sample.memory_bytes for _, sample in samples]
    peak, mean = max(memory), round(sum(memory) / len(memory))
    (first_at, first), (last_at, last) = samples[0], samples[-1]
    cpu_seconds = last.cpu_seconds - first.cpu_seconds
    reason = _cpu_unknown_reason(len(samples), last_at - first_at, cpu_seconds)
    cpu_cores = None if reason else cpu_seconds / (last_at - first_at)
    return ResourceUsage(cpu_cores=cpu_cores, memory_peak_bytes=peak, memory_mean_bytes=mean,
                         samples=len(samples), source=source, unavailable=reason,
                         cpu_seconds=None if reason else cpu_seconds,
                         context_switches=_switches(first.context_switches,
                                                    last.context_switches, reason),
                         involuntary_switches=_switches(first.involuntary_switches,
                                                        last.involuntary_switches, reason),
                         threads_max=max((s.threads for _, s in samples if s.threads),
                                         default=None),
                         pool_threads_max=max((s.pool_threads for _, s in samples
                                               if s.pool_threads is not None), default=None))


def _switches(first: int | None, last: int | None, reason: str | None) -> int | None:
    """Switches over the window from two cumulative counts; None when unknown, or when the
    count went down (threads ended, taking their counts with them: the delta would
    understate)."""
    if reason or first is None or last is None:
        return None
    delta = last - first
    return delta if delta >= 0 else None


def busy_cores(before: HostCpu, after: HostCpu, wall_s: float,
               ticks_per_second: int) -> float | None:
    """How many of the host's cores were busy, on average, between two /proc/stat readings."""
    if wall_s <= 0 or after.busy_ticks < before.busy_ticks:
        return None
    return (after.busy_ticks - before.busy_ticks) / ticks_per_second / wall_s


def _cpu_unknown_reason(count: int, wall_s: float, cpu_s: float) -> str | None:
    if count < 2:
        return "only one sample: CPU use needs two"
    if wall_s <= 0:
        return "the samples span no time"
    if cpu_s < 0:
        return "the CPU counter went backwards (did the server restart?)"
    return None


class Sampler:
    """Samples a probe every interval_s on a background thread while the block runs, plus
    once on entry and once on exit. A failing probe never raises into the block: usage()
    then reports it as `unavailable`."""

    def __init__(self, probe: ResourceProbe, interval_s: float = DEFAULT_INTERVAL_S,
                 clock: Callable[[], float] = time.monotonic):
        self.probe, self.interval_s, self._clock = probe, interval_s, clock
        self._samples: list[tuple[float, ResourceSample]] = []
        self._failure: str | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="resource-sampler", daemon=True)

    def __enter__(self) -> Sampler:
        self._sample_once()
        self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self._stop.set()
        # Long enough for a read in progress: a remote probe may take its whole timeout.
        self._thread.join(timeout=self.interval_s + getattr(self.probe, "timeout_s", 10) + 5)
        if self._thread.is_alive():
            self._failure = self._failure or "the sampling thread did not stop"
        self._sample_once()

    def _loop(self) -> None:
        while not self._stop.wait(self.interval_s) and self._failure is None:
            self._sample_once()

    def _sample_once(self) -> None:
        if self._failure is not None:
            return
        try:
            sample = self.probe.read()
            # A probe that dates its own reads (ExecProbe) must date them all.
            when = sample.taken_at_s if sample.taken_at_s is not None else self._clock()
            self._samples.append((when, sample))
        except Exception as error:  # a broken probe must never break the measured run
            self._failure = str(error) or type(error).__name__

    def usage(self) -> ResourceUsage:
        source = getattr(self.probe, "source", None)
        if self._failure is not None:
            return ResourceUsage(source=source, unavailable=self._failure)
        return summarize_samples(list(self._samples), source)
