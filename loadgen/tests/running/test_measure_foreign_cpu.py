"""Foreign CPU as measured: a bounded busy loop on the host (not the server's, not the load
tool's) during a sampled run shows as about one core of foreign CPU in that run's figures.
The host is shared, so other work can only add to it: the bound is from below."""

from __future__ import annotations

import subprocess
import sys

import pytest

from httplab.running.backends.base import WrkOutcome
from httplab.running.measure import sampled_run
from httplab.running.resources.parse import ResourceSample
from httplab.running.resources.sampler import Sampler
from httplab.results.foreign_cpu import foreign_cores

BUSY_SECONDS = 2.0
BUSY_LOOP = f"""
import time
end = time.monotonic() + {BUSY_SECONDS}
while time.monotonic() < end:
    pass
"""


class IdleServer:
    """A server that used no CPU during the run."""

    source = "fake"

    def read(self) -> ResourceSample:
        return ResourceSample(cpu_seconds=1.0, memory_bytes=1)


@pytest.mark.alone  # the loop must get its core
@pytest.mark.slow
def test_a_busy_loop_beside_the_run_is_about_one_core_of_foreign_cpu():
    def run() -> WrkOutcome:  # the load tool's part: it used no CPU; a stranger used one
        busy = subprocess.Popen([sys.executable, "-c", BUSY_LOOP])
        try:
            busy.wait(timeout=BUSY_SECONDS + 30)
        finally:
            busy.kill()
            busy.wait()
        return WrkOutcome(0, "", cpu_seconds=0.0)

    _, usage = sampled_run(run, Sampler(IdleServer(), 0.2), "wrk")
    assert usage.cpu_cores == pytest.approx(0.0, abs=0.01) and usage.loadgen_cores == 0.0
    assert foreign_cores(usage) >= 0.8, f"foreign CPU {foreign_cores(usage):.2f} cores"
