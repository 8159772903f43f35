"""One measured run's profile (PROFILE=1): the profiler's record and its collapsed stacks
become a RunProfile: its samples by layer (results/profile_layers.py), its hottest frames,
and the consistency check of a CPU event's samples against the CPU the server was measured
to use over the same run. Pure: the text is read by collect.py."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from httplab.loadtools.async_profiler.collapsed import Stack, parse_collapsed
from httplab.model import HotFrame, RunProfile
from httplab.results.profile_layers import LAYERS, layer_of, layer_rules
from httplab.results.profile_record import ProfilerRecord

HOT_FRAMES = 10
# How far samples x interval may stray from the CPU measured (a share of the measured):
# the samples of one run are a few thousand, the profiler starts and stops a moment apart
# from the sampler's window, and a CPU event's interval is CPU time.
CPU_TOLERANCE = 0.20
# A run is checked only when its samples, or those the CPU measured stands for, reach this:
# below it a count's own noise (1/sqrt(n)) reaches half the tolerance, and the moments at
# the profile's edges (a step's warm-up ending, the JIT finishing) weigh more than a light
# run's whole CPU allows. At 5 ms, half a second of CPU.
MIN_CHECKED_SAMPLES = 100


def run_profile(record: ProfilerRecord, collapsed: str | None,
                framework_packages: tuple[str, ...], measured_cpu_seconds: float | None,
                source: str = "collapsed stacks") -> RunProfile:
    """The run's profile; RunProfile(failure=...) when the profiler failed or its stacks
    are missing or cannot be read (`source` names them in that message)."""
    empty = RunProfile(record.event, record.interval, measured_cpu_seconds=measured_cpu_seconds)
    if record.failure:
        return _failed(empty, record.failure)
    if collapsed is None:
        return _failed(empty, f"the profiler left no collapsed stacks ({source})")
    try:
        stacks = parse_collapsed(collapsed, source)
    except ValueError as error:
        return _failed(empty, str(error))
    return profile_of_stacks(empty, stacks, framework_packages)


def _failed(profile: RunProfile, failure: str) -> RunProfile:
    return replace(profile, failure=failure)


def profile_of_stacks(empty: RunProfile, stacks: tuple[Stack, ...],
                      framework_packages: tuple[str, ...]) -> RunProfile:
    """`empty` (the event, interval and CPU measured) with these stacks' figures and check."""
    rules = layer_rules(framework_packages)
    by_layer: Counter[str] = Counter()
    by_frame: dict[str, Counter[str]] = {}
    for stack in stacks:
        layer = layer_of(stack.frames, rules)
        by_layer[layer] += stack.samples
        by_frame.setdefault(stack.leaf, Counter())[layer] += stack.samples
    profile = RunProfile(
        empty.event, empty.interval, samples=sum(by_layer.values()),
        layers=tuple((layer, by_layer[layer]) for layer in LAYERS),
        hot_frames=hot_frames(by_frame), measured_cpu_seconds=empty.measured_cpu_seconds)
    return replace(profile, mismatch=cpu_mismatch(profile))


def hot_frames(by_frame: dict[str, Counter[str]]) -> tuple[HotFrame, ...]:
    """The HOT_FRAMES frames with the most self samples (ties by name); each in the layer
    most of its samples count in (a memset's under Netty and under the handler differ)."""
    frames = [HotFrame(frame, _main_layer(layers), sum(layers.values()))
              for frame, layers in by_frame.items()]
    return tuple(sorted(frames, key=lambda hot: (-hot.samples, hot.frame))[:HOT_FRAMES])


def _main_layer(layers: Counter[str]) -> str:
    return max(LAYERS, key=lambda layer: (layers[layer], -LAYERS.index(layer)))


def checkable(profile: RunProfile) -> bool:
    """Whether the consistency check applies: a CPU event, the CPU measured, and at least
    MIN_CHECKED_SAMPLES samples taken or standing for the CPU measured."""
    measured, interval = profile.measured_cpu_seconds, profile.interval
    if profile.profiled_cpu_seconds is None or not measured or not interval:
        return False
    return max(profile.samples, measured * 1e9 / interval) >= MIN_CHECKED_SAMPLES


def cpu_mismatch(profile: RunProfile) -> str | None:
    """The consistency check: None when samples x interval is within CPU_TOLERANCE of the
    CPU measured, or when the check does not apply (checkable); else what differs and why
    it likely does."""
    if not checkable(profile):
        return None
    profiled, measured = profile.profiled_cpu_seconds, profile.measured_cpu_seconds
    difference = (profiled - measured) / measured
    if abs(difference) <= CPU_TOLERANCE:
        return None
    cause = (LOST_SAMPLES_CAUSE if difference < 0 else SHORTER_INTERVAL_CAUSE)
    return (f"{profile.samples} samples x {profile.interval / 1e6:g} ms = {profiled:.2f} s of CPU, "
            f"while the server used {measured:.2f} s ({abs(difference):.0%} "
            f"{'less' if difference < 0 else 'more'}, tolerance {CPU_TOLERANCE:.0%}): {cause}")


LOST_SAMPLES_CAUSE = ("samples were lost (threads the timer did not reach, samples dropped) "
                      "or the interval was longer than recorded")
SHORTER_INTERVAL_CAUSE = ("the interval was shorter than recorded, or the CPU measurement "
                          "missed part of the run")


def layer_share(profile: RunProfile, layer: str) -> float | None:
    """The layer's share of the profile's samples; None without samples."""
    if not profile.samples:
        return None
    return dict(profile.layers).get(layer, 0) / profile.samples
