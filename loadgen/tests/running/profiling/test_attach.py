"""The choice of event before a server's primer: the kernel's CPU clock where it is open,
itimer where it is not, any other event as asked, with a fake control."""

from __future__ import annotations

import pytest

from httplab.running.profiling.agent import ProfilerError
from httplab.running.profiling.attach import attach

from tests.support.fake_profiler import FakeProfilerControl


def test_cpu_is_chosen_where_the_kernels_cpu_clock_is_open():
    events: list[str] = []
    attached = attach(FakeProfilerControl(events), "cpu")
    assert events == ["check,event=cpu-clock", "check,event=cpu"]
    assert (attached.profiler.event, attached.profiler.interval) == ("cpu", 5_000_000)
    assert attached.note.startswith("profiling with cpu: the kernel's CPU clock is open")


def test_itimer_is_chosen_where_it_is_not_and_the_line_says_why():
    events: list[str] = []
    attached = attach(FakeProfilerControl(events, refuse=("check,event=cpu-clock",)), "cpu")
    assert events == ["check,event=cpu-clock", "check,event=itimer"]
    assert attached.profiler.event == "itimer"
    assert attached.note == ("profiling with itimer: perf events closed here (a fake); "
                             "`check,event=cpu-clock` gave return code 200, so no kernel "
                             "frames")


@pytest.mark.parametrize("event, interval", [("wall", 5_000_000), ("alloc", 524288),
                                             ("itimer", 5_000_000)])
def test_any_other_event_is_checked_as_asked(event, interval):
    events: list[str] = []
    attached = attach(FakeProfilerControl(events), event)
    assert events == [f"check,event={event}"]
    assert (attached.profiler.event, attached.profiler.interval) == (event, interval)
    assert attached.note == f"profiling with {event}: as PROFILE_EVENT asks"


def test_an_agent_that_refuses_the_event_stops_the_attach_with_its_answer():
    control = FakeProfilerControl([], refuse=("check",))
    with pytest.raises(ProfilerError, match=r"^async-profiler cannot profile it: "
                                            r"`check,event=itimer` gave return code 200$"):
        attach(control, "cpu")
