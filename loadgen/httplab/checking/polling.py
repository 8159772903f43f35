"""The one wait of the harness before any load: look again every interval until something
is there or the deadline passes (a server's readiness, a database's start). The clock and
the sleep are injected, so a test of a wait needs no sleeping."""

from __future__ import annotations

import time
from typing import Callable, TypeVar

Seen = TypeVar("Seen")


def poll_until(look: Callable[[], Seen | None], timeout_s: float, interval_s: float,
               clock: Callable[[], float] = time.monotonic,
               sleep: Callable[[float], None] = time.sleep) -> Seen | None:
    """What look() returns first that is not None; None once timeout_s have passed since
    the first look (which the last look reaches). An exception from look() ends the wait."""
    deadline = clock() + timeout_s
    while True:
        seen = look()
        if seen is not None:
            return seen
        if clock() >= deadline:
            return None
        sleep(interval_s)
