"""A run's profile from the profiler's record and its collapsed stacks: samples by layer,
the hottest frames, and the consistency check against the CPU measured."""

from __future__ import annotations

import pytest

from httplab.model import HotFrame, RunProfile
from httplab.results.profile_layers import JIT, KERNEL, LAYERS, NETTY
from httplab.results.profile_record import ProfilerRecord
from httplab.results.profiles import (CPU_TOLERANCE, HOT_FRAMES, LOST_SAMPLES_CAUSE,
                                      SHORTER_INTERVAL_CAUSE, checkable, cpu_mismatch,
                                      layer_share, run_profile)
from tests.conftest import FIXTURES

ITIMER = ProfilerRecord("itimer", 5_000_000, "netty-t2-c20.collapsed.txt")
CPU = ProfilerRecord("cpu", 5_000_000, "netty-t2-c20.collapsed.txt")
STACKS = ("java/lang/Thread.run;io/netty/channel/unix/Socket.sendAddress;__GI___send 60\n"
          "java/lang/Thread.run;io/netty/buffer/ByteBufUtil.writeAscii 25\n"
          "java/lang/Thread.run;httplab/netty/HelloHandler.respond;__GI___send 5\n"
          "start_thread;CompileBroker::compiler_thread_loop;PhaseChaitin::Split 10\n")


def fixture(name: str) -> str:
    return (FIXTURES / "profiles" / name).read_text()


def test_samples_by_layer_in_the_layers_order():
    profile = run_profile(ITIMER, STACKS, (), None)
    assert profile.samples == 100 and profile.failure is None
    assert [layer for layer, _ in profile.layers] == list(LAYERS)
    assert dict(profile.layers) == {**dict.fromkeys(LAYERS, 0), KERNEL: 65, NETTY: 25, JIT: 10}
    assert layer_share(profile, KERNEL) == 0.65


def test_hot_frames_by_self_samples_one_entry_per_frame():
    profile = run_profile(ITIMER, STACKS, (), None)
    assert profile.hot_frames == (
        HotFrame("__GI___send", KERNEL, 65), HotFrame("io/netty/buffer/ByteBufUtil.writeAscii",
                                                      NETTY, 25),
        HotFrame("PhaseChaitin::Split", JIT, 10))


def test_at_most_ten_hot_frames_most_first_in_a_real_profile():
    profile = run_profile(CPU, fixture("netty-cpu-local.collapsed.txt"), (), None)
    samples = [hot.samples for hot in profile.hot_frames]
    assert len(samples) == HOT_FRAMES and samples == sorted(samples, reverse=True)
    # 60: the fixture's lines ending in that frame, summed by grep and awk
    assert profile.hot_frames[0] == HotFrame("finish_task_switch.isra.0_[k]", KERNEL, 60)
    assert sum(count for _, count in profile.layers) == profile.samples == 257


def test_a_real_itimer_profile_adds_up():
    profile = run_profile(ITIMER, fixture("netty-itimer-local.collapsed.txt"), (), 2.58)
    assert profile.samples == 516 and profile.profiled_cpu_seconds == pytest.approx(2.58)
    assert profile.mismatch is None
    assert dict(profile.layers)[KERNEL] == 406  # 291 send + 68 epoll_pwait2 + 47 recv


@pytest.mark.parametrize("measured, marked", [
    (0.5 / 1.19, False),  # samples x interval is 19 % above the CPU measured
    (0.5 / 1.21, True),   # 21 % above
    (0.5 / 0.81, False),  # 19 % below
    (0.5 / 0.79, True),   # 21 % below
])
def test_the_check_holds_within_the_tolerance(measured, marked):
    profile = run_profile(CPU, STACKS, (), measured)  # 100 samples x 5 ms = 0.5 s
    assert CPU_TOLERANCE == 0.20
    assert (profile.mismatch is not None) == marked


def test_a_mismatch_says_both_figures_and_the_likely_cause():
    fewer = run_profile(CPU, STACKS, (), 1.0).mismatch
    assert fewer == ("100 samples x 5 ms = 0.50 s of CPU, while the server used 1.00 s "
                     f"(50% less, tolerance 20%): {LOST_SAMPLES_CAUSE}")
    more = run_profile(CPU, STACKS, (), 0.25).mismatch
    assert "(100% more, tolerance 20%)" in more and more.endswith(SHORTER_INTERVAL_CAUSE)


@pytest.mark.parametrize("record, measured", [
    (ProfilerRecord("wall", 5_000_000, "x.collapsed.txt"), 0.1),  # not a CPU event
    (ProfilerRecord("alloc", 524288, "x.collapsed.txt"), 0.1),
    (CPU, None),  # the CPU was not measured
    (ProfilerRecord("cpu", None, "x.collapsed.txt"), 0.1),  # no interval recorded
])
def test_no_check_without_a_cpu_event_or_both_figures(record, measured):
    assert run_profile(record, STACKS, (), measured).mismatch is None


@pytest.mark.parametrize("samples, measured, checked", [
    (100, 0.1, True),   # 100 samples: checked (and marked: 0.5 s against 0.1 s)
    (99, 0.3, False),   # 99 samples, 0.3 s measured stands for 60: a light run, not checked
    (32, 0.25, False),  # a 1,000 req/s step of Netty on this host
    (0, 0.5, True),     # none taken, but 0.5 s measured stands for 100: checked, marked
])
def test_a_light_run_is_not_checked(samples, measured, checked):
    profile = RunProfile("cpu", 5_000_000, samples, measured_cpu_seconds=measured)
    assert checkable(profile) == checked
    assert (cpu_mismatch(profile) is not None) == checked


def test_no_samples_at_all_is_marked_as_lost():
    profile = run_profile(ITIMER, "", (), 2.0)
    assert profile.samples == 0 and layer_share(profile, KERNEL) is None
    assert profile.mismatch.endswith(LOST_SAMPLES_CAUSE)


@pytest.mark.parametrize("record, text, failure", [
    (ProfilerRecord("cpu", None, failure="jattach: return code 200"), STACKS,
     "jattach: return code 200"),
    (CPU, None, "the profiler left no collapsed stacks (raw/x.collapsed.txt)"),
    (CPU, "a;b 1\nno samples here\n", "raw/x.collapsed.txt:2: expected"),
])
def test_a_failed_or_unreadable_profile_is_a_failure(record, text, failure):
    profile = run_profile(record, text, (), 1.0, "raw/x.collapsed.txt")
    assert profile.failure.startswith(failure)
    assert profile.samples == 0 and profile.layers == () and profile.mismatch is None
