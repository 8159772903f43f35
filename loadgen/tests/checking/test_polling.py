"""The one wait before load: look until something is seen or the deadline passes, with no
real sleeping (the clock and the sleep are injected)."""

from __future__ import annotations

import pytest

from httplab.checking.polling import poll_until


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def test_returns_the_first_thing_seen_without_waiting_longer():
    clock, looks = FakeClock(), iter([None, None, "ready"])
    assert poll_until(lambda: next(looks), 10.0, 0.5, clock, clock.sleep) == "ready"
    assert clock.sleeps == [0.5, 0.5]


def test_gives_none_once_the_deadline_passed_after_a_last_look():
    clock, looked_at = FakeClock(), []

    def look() -> None:
        looked_at.append(clock.now)

    assert poll_until(look, 1.0, 0.25, clock, clock.sleep) is None
    assert looked_at == [0.0, 0.25, 0.5, 0.75, 1.0]


def test_an_error_of_a_look_ends_the_wait():
    clock = FakeClock()

    def look() -> None:
        raise RuntimeError("it stopped")

    with pytest.raises(RuntimeError, match="it stopped"):
        poll_until(look, 10.0, 0.1, clock, clock.sleep)
    assert clock.sleeps == []
