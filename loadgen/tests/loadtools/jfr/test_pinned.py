"""The reader of `jfr print --json --events jdk.VirtualThreadPinned`: on the output captured
from a stand-in that sleeps inside `synchronized` on a virtual thread (JDK 21 pins it, 25
does not), and on events made up here, table by table; read whole or a few characters at a
time, as it comes from jfr."""

from __future__ import annotations

import json

import pytest

from httplab.loadtools.jfr.pinned import (NO_FRAME_OUTSIDE_JDK, JfrJsonError, duration_seconds,
                                          first_frame_outside_jdk, pinned_run)
from httplab.model import PinnedFrame, PinnedRun

from tests.conftest import FIXTURES

JFR = FIXTURES / "jfr"
PARK = ("java/lang/VirtualThread.parkOnCarrierThread", "java/lang/VirtualThread.parkNanos",
        "java/lang/Thread.sleep")


def _in_pieces(text: str, size: int) -> list[str]:
    return [text[start:start + size] for start in range(0, len(text), size)]


def _stack(*frames: str) -> dict:
    """A stack as jfr prints it, its most recent call first: "package/Class.method" each."""
    return {"truncated": False, "frames": [
        {"method": {"type": {"name": frame.rpartition(".")[0]}, "name": frame.rpartition(".")[2]},
         "lineNumber": 1, "type": "Interpreted"} for frame in frames]}


def _output(*events: tuple[str, dict | None]) -> str:
    return json.dumps({"recording": {"events": [
        {"type": "jdk.VirtualThreadPinned", "values": {"duration": duration, "stackTrace": stack}}
        for duration, stack in events]}}, indent=2)


@pytest.mark.parametrize("size", [1 << 16, 7], ids=["whole", "7-characters-at-a-time"])
def test_jdk_21_pins_the_stand_in_where_it_sleeps_holding_the_lock(size):
    text = (JFR / "pinned-jdk21.json").read_text()
    run = pinned_run(_in_pieces(text, size), "pinned-jdk21.json")
    assert run.events == 4 and run.failure is None
    assert run.total_ms == pytest.approx(60.241961)  # the first began before the recording
    assert run.longest_ms == pytest.approx(20.099068)
    assert run.top_frames == (PinnedFrame("Pinned.holdLock", 4),)


def test_jdk_25_does_not_pin_it():
    text = (JFR / "pinned-jdk25.json").read_text()
    assert pinned_run(_in_pieces(text, 5), "pinned-jdk25.json") == PinnedRun(0, 0.0, 0.0, ())


@pytest.mark.parametrize("events, top_frames", [
    ([("PT0.001S", _stack(*PARK, "com/zaxxer/hikari/pool/HikariPool.getConnection",
                          "org/example/Handler.db"))],
     (PinnedFrame("com.zaxxer.hikari.pool.HikariPool.getConnection", 1),)),
    ([("PT0.001S", _stack(*PARK, "sun/nio/ch/NioSocketImpl.park", "jdk/internal/misc/X.y",
                          "org/postgresql/core/PGStream.receive"))],
     (PinnedFrame("org.postgresql.core.PGStream.receive", 1),)),
    ([("PT0.001S", _stack(*PARK, "Heavy$$Lambda/0x00007fbbf0000a08.call"))],
     (PinnedFrame("Heavy$$Lambda.call", 1),)),
    ([("PT0.001S", _stack(*PARK)), ("PT0.001S", None), ("PT0.001S", _stack())],
     (PinnedFrame(NO_FRAME_OUTSIDE_JDK, 3),)),
    ([("PT0.001S", _stack(*PARK, f"a/{name}.run")) for name in "DCCBBBAAAA"],
     (PinnedFrame("a.A.run", 4), PinnedFrame("a.B.run", 3), PinnedFrame("a.C.run", 2))),
    ([("PT0.001S", _stack(*PARK, f"a/{name}.run")) for name in "BA"],
     (PinnedFrame("a.A.run", 1), PinnedFrame("a.B.run", 1))),
], ids=["library", "below-jdk-internals", "hidden-class", "jdk-only-or-no-stack",
        "top-three-most-first", "ties-by-name"])
def test_each_event_counts_under_its_first_frame_outside_the_jdk(events, top_frames):
    run = pinned_run([_output(*events)], "made up")
    assert (run.events, run.top_frames) == (len(events), top_frames)


@pytest.mark.parametrize("text, seconds", [
    ("PT0S", 0.0), ("PT0.020076314S", 0.020076314), ("PT1M2.5S", 62.5), ("PT2H", 7200.0),
    ("PT1H0M0.001S", 3600.001)])
def test_durations_as_jfr_writes_them(text, seconds):
    assert duration_seconds(text, "made up") == pytest.approx(seconds)


def test_the_total_and_the_longest_are_in_milliseconds():
    run = pinned_run([_output(("PT0.002S", None), ("PT1.5S", None), ("PT0S", None))], "x")
    assert (run.total_ms, run.longest_ms) == (pytest.approx(1502.0), pytest.approx(1500.0))


@pytest.mark.parametrize("text, says", [
    ("", "no recording.events"),
    ("jfr print: filename must end with '.jfr'", "no recording.events"),
    ('{"recording": {"events": [{"type": "jdk.VirtualThreadPinned", "values": {"dur',
     "its events end unfinished"),
    (_output(("20 ms", None)), "an event's duration '20 ms' is not an ISO-8601 one"),
    (_output(("PT", None)), "is not an ISO-8601 one"),
    ('{"recording": {"events": [3]}}', "an event is not an object: 3"),
    (_output(("PT0S", {"frames": [{"method": {"type": {}, "name": "run"}}]})),
     "a frame without its class or method name"),
], ids=["empty", "an-error-message", "cut-short", "duration", "empty-duration", "not-an-object",
        "frame-without-class"])
def test_what_is_not_jfrs_json_of_pinned_events_says_where(text, says):
    with pytest.raises(JfrJsonError) as raised:
        pinned_run(_in_pieces(text, 11) if text else [], "the source")
    assert str(raised.value).startswith("the source: ") and says in str(raised.value)


def test_no_stack_at_all_is_a_frame_of_its_own_kind():
    assert first_frame_outside_jdk(None, "x") == NO_FRAME_OUTSIDE_JDK
