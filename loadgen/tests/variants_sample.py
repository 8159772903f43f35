"""Runs with variants for the tests of variants compared: the committed PROFILE=0,1 run
(a measurement: make bench PROFILE=0,1 SERVERS=netty,undertow REPEAT=3), and a make latency
run with Netty measured with and without the profiler (test data, built by hand); the
PROFILE run as if REPEAT=auto had run it."""

from dataclasses import replace

from httplab.model import AutoRepeat, StepPurpose, SustainedRate
from httplab.results.store import read_results

from tests.conftest import TESTS_DIR
from tests.latency_sample import COST, cost_steps, latency_sample_result, step, usage

PROFILE_RUN = TESTS_DIR.parent.parent / "results" / "2026-11-24T15-10-47Z" / "results.json"


def latency_run_with_a_profiled_netty():
    """The latency sample with a third round, and netty+profiled beside netty: its cost
    steps 10 % dearer, its maxima 10 % lower."""
    result = latency_sample_result()
    netty = [s for s in (*result.latency.steps, *cost_steps(3))
             if s.server == "netty" and s.purpose is StepPurpose.COST]
    profiled = tuple(step("netty+profiled", 10000, s.repeat, 0.2, 0.8,
                          usage(s.resources.cpu_cores * 1.1 + 0.01 * s.repeat, 0.35, 182, 24),
                          purpose=COST) for s in netty)
    maxima = (SustainedRate("netty", (20000.0, 22000.0, 21000.0)),
              SustainedRate("netty+profiled", (18000.0, 20000.0, 19000.0)))
    latency = replace(result.latency, steps=(*result.latency.steps, *cost_steps(3), *profiled),
                      maxima=maxima)
    return replace(result, latency=latency,
                   settings=replace(result.settings, profile=(False, True)))


def profile_run_as_auto(precision: float = 0.05, max_repeat: int = 3):
    """The committed PROFILE=0,1 run as if REPEAT=auto had run its 3 rounds."""
    result = read_results(PROFILE_RUN)
    rule = AutoRepeat(precision, max_repeat, "requests_per_sec")
    return replace(result, settings=replace(result.settings, auto_repeat=rule))
