"""Before a profiled server's primer: the event chosen (PROFILE_EVENT=cpu: the kernel's CPU
clock where it is open to the server, itimer where not) and asked of the agent, which
loads it into the JVM. A server the agent refuses is not loaded at all."""

from __future__ import annotations

from dataclasses import dataclass

from httplab.running.profiling.agent import (CPU_CLOCK_PROBE, CPU_EVENT, FALLBACK_EVENT,
                                             ProfilerError, check_arguments, sampling_interval)
from httplab.running.profiling.control import ProfilerControl, ServerProfiler


@dataclass(frozen=True)
class EventChoice:
    event: str
    why: str  # for the progress line


@dataclass(frozen=True)
class Attached:
    profiler: ServerProfiler
    note: str  # the progress line: which event, and why


def choose_event(control: ProfilerControl, requested: str) -> EventChoice:
    """cpu when `check,event=cpu-clock` passes, else itimer; any other event as asked."""
    if requested != CPU_EVENT:
        return EventChoice(requested, "as PROFILE_EVENT asks")
    probe = control.send(check_arguments(CPU_CLOCK_PROBE))
    if probe.ok:
        return EventChoice(CPU_EVENT, "the kernel's CPU clock is open to the server "
                                      "(kernel frames included)")
    return EventChoice(FALLBACK_EVENT, f"{control.perf_events_refused}; `"
                                       f"{check_arguments(CPU_CLOCK_PROBE)}` gave "
                                       f"{probe.summary}, so no kernel frames")


def attach(control: ProfilerControl, requested: str) -> Attached:
    """The agent loaded and the chosen event checked; ProfilerError saying what the agent
    answered when it cannot attach or refuses the event."""
    choice = choose_event(control, requested)
    arguments = check_arguments(choice.event)
    reply = control.send(arguments)
    if not reply.ok:
        raise ProfilerError(f"async-profiler cannot profile it: `{arguments}` gave "
                            f"{reply.summary}")
    profiler = ServerProfiler(control, choice.event, sampling_interval(choice.event))
    return Attached(profiler, f"profiling with {choice.event}: {choice.why}")
