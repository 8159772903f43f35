"""The Sampler and its summary: CPU seconds over wall seconds on a fake clock and fixed
readings, memory's peak and mean, the most pool threads of any sample, a probe that fails
or has a bug reported and never raised, and a probe that dates its own reads."""

from __future__ import annotations

import threading
import time

import pytest

from httplab.running.resources.parse import ResourceSample, SamplingError
from httplab.running.resources.probes import UnavailableProbe
from httplab.running.resources.sampler import Sampler, summarize_samples

from tests.support.resource_samples import MiB


def test_summary_divides_cpu_seconds_by_wall_seconds_and_averages_memory():
    samples = [(10.0, ResourceSample(100.0, 200 * MiB)),
               (10.5, ResourceSample(101.0, 260 * MiB)),
               (12.0, ResourceSample(103.0, 230 * MiB))]
    usage = summarize_samples(samples, source="/proc")
    assert usage.cpu_cores == pytest.approx(1.5)
    assert (usage.memory_peak_bytes, usage.memory_mean_bytes) == (260 * MiB, 230 * MiB)
    assert (usage.samples, usage.source, usage.unavailable) == (3, "/proc", None)


@pytest.mark.parametrize("first, last, switches, involuntary", [
    ((100, 10), (400, 70), 300, 60),
    ((100, None), (400, None), 300, None),  # involuntary not counted (an older probe)
    ((500, 90), (400, 70), None, None),  # threads ended, taking their counts: unknown
])
def test_switches_over_the_window_and_of_them_the_involuntary(first, last, switches,
                                                              involuntary):
    samples = [(at, ResourceSample(cpu, 100 * MiB, total, involuntary_switches=forced))
               for at, cpu, (total, forced) in ((1.0, 5.0, first), (2.0, 6.0, last))]
    usage = summarize_samples(samples)
    assert (usage.context_switches, usage.involuntary_switches) == (switches, involuntary)


def test_one_sample_gives_memory_but_no_cpu_and_says_why():
    usage = summarize_samples([(1.0, ResourceSample(5.0, 64 * MiB))])
    assert usage.cpu_cores is None and usage.unavailable
    assert (usage.memory_peak_bytes, usage.memory_mean_bytes, usage.samples) == (
        64 * MiB, 64 * MiB, 1)


@pytest.mark.parametrize("samples, reason", [
    ([], "no samples"),
    ([(1.0, ResourceSample(5.0, 1)), (1.0, ResourceSample(5.0, 1))], "no time"),
    ([(1.0, ResourceSample(5.0, 1)), (2.0, ResourceSample(1.0, 1))], "backwards"),
])
def test_cpu_is_unknown_when_the_samples_cannot_give_it(samples, reason):
    usage = summarize_samples(samples)
    assert usage.cpu_cores is None
    assert reason in usage.unavailable


@pytest.mark.parametrize("pools, most", [
    ([0, 4, 10, 7], 10),  # threads started on demand, some ended again
    ([0, 0], 0),  # counted, never started
    ([None, 3, None], 3),  # some reads could not count
    ([None, None], None),  # never counted
], ids=["grew and shrank", "never started", "some not counted", "never counted"])
def test_the_usage_keeps_the_most_pool_threads_of_any_sample(pools, most):
    samples = [(float(at), ResourceSample(1.0 + at, 100, 10, 20, pool_threads=pool))
               for at, pool in enumerate(pools)]
    assert summarize_samples(samples, "/proc").pool_threads_max == most


class ScriptedProbe:
    """Each read adds cpu_step CPU seconds and each clock call wall_step seconds, so any
    number of samples gives cpu_step / wall_step cores. Sets `enough` after `wanted` reads."""

    source = "test"

    def __init__(self, cpu_step: float, wall_step: float, wanted: int):
        self.cpu_step, self.wall_step, self.wanted = cpu_step, wall_step, wanted
        self.reads = self.ticks = 0
        self.enough = threading.Event()

    def clock(self) -> float:
        self.ticks += 1
        return 1000.0 + self.ticks * self.wall_step

    def read(self) -> ResourceSample:
        self.reads += 1
        if self.reads >= self.wanted:
            self.enough.set()
        return ResourceSample(50.0 + self.reads * self.cpu_step, (100 + self.reads) * MiB)


def test_sampler_divides_cpu_seconds_by_clock_seconds_over_its_background_samples():
    probe = ScriptedProbe(cpu_step=0.75, wall_step=0.5, wanted=4)
    with Sampler(probe, interval_s=0.001, clock=probe.clock) as sampler:
        assert probe.enough.wait(timeout=60), "the sampling thread never sampled"
    usage = sampler.usage()
    assert usage.samples == probe.reads >= 5  # entry, at least 3 in the background, exit
    assert usage.cpu_cores == pytest.approx(1.5)
    assert usage.memory_peak_bytes == (100 + probe.reads) * MiB
    assert (usage.source, usage.unavailable) == ("test", None)


class FlakyProbe:
    source = "test"

    def __init__(self, good_reads: int):
        self.good_reads = good_reads

    def read(self) -> ResourceSample:
        if self.good_reads <= 0:
            raise SamplingError("cannot read /sys/fs/cgroup/memory/x/memory.stat: gone")
        self.good_reads -= 1
        return ResourceSample(1.0, 1)


@pytest.mark.parametrize("probe", [FlakyProbe(0), FlakyProbe(2), UnavailableProbe("no pid", "test")],
                         ids=["fails at once", "fails midway", "unavailable probe"])
def test_a_failing_probe_yields_unavailable_and_never_raises(probe):
    with Sampler(probe, interval_s=0.01) as sampler:
        time.sleep(0.1)
    usage = sampler.usage()
    assert usage.unavailable in ("cannot read /sys/fs/cgroup/memory/x/memory.stat: gone", "no pid")
    assert (usage.cpu_cores, usage.memory_peak_bytes, usage.source) == (None, None, "test")


def test_a_probe_bug_is_reported_not_raised():
    class BrokenProbe:
        source = "test"

        def read(self) -> ResourceSample:
            raise ZeroDivisionError("division by zero")

    with Sampler(BrokenProbe()) as sampler:
        pass
    assert sampler.usage().unavailable == "division by zero"


def test_sampler_samples_at_start_and_stop_even_when_the_block_is_short():
    ticks = iter(range(100))
    with Sampler(FlakyProbe(100), interval_s=60, clock=lambda: float(next(ticks))) as sampler:
        pass
    usage = sampler.usage()
    assert usage.samples == 2 and usage.cpu_cores == 0.0


class SelfDatingProbe:
    """Reads as ExecProbe does: each sample dated by the container's clock, here 2 s apart
    while the sampler's own clock says 100 s passed (a slow exec would misdate them)."""

    source = "docker exec"

    def __init__(self):
        self.reads = iter([ResourceSample(10.0, MiB, taken_at_s=5000.0),
                           ResourceSample(11.0, MiB, taken_at_s=5002.0)])

    def read(self):
        return next(self.reads)


def test_a_probe_that_dates_its_reads_is_timed_by_its_own_clock():
    ticks = iter([0.0, 100.0])
    with Sampler(SelfDatingProbe(), interval_s=60, clock=lambda: next(ticks)) as sampler:
        pass
    assert sampler.usage().cpu_cores == pytest.approx(0.5)
