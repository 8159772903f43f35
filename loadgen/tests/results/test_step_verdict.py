"""The step verdict on real oha captures (tests/fixtures/oha/README.txt says how each was made)."""

from dataclasses import replace

import pytest

from httplab.loadtools.oha.report import parse_oha_json
from httplab.model import HostStalls, StepVerdict
from httplab.results.bottleneck import CpuFigures
from httplab.results.step_verdict import error_kinds, judge_step

from tests.conftest import FIXTURES

OHA_FIXTURES = FIXTURES / "oha"
SLO_10_MS = 10_000.0
RATES = {"netty-5000": 5000, "netty-behind-200000": 200_000, "freezing-500": 500,
         "refused": 500, "reset": 500, "status-500": 500}


def report(name: str):
    return parse_oha_json((OHA_FIXTURES / f"{name}.json").read_text(), RATES[name], name)


@pytest.mark.parametrize("name, slo_us, verdict", [
    ("netty-5000", SLO_10_MS, StepVerdict.HELD),
    ("freezing-500", SLO_10_MS, StepVerdict.P99),
    ("freezing-500", 250_000.0, StepVerdict.HELD),
    ("refused", SLO_10_MS, StepVerdict.ERRORS),
    ("status-500", SLO_10_MS, StepVerdict.ERRORS),
    ("netty-behind-200000", SLO_10_MS, StepVerdict.P99),  # no CPU figures: the server's p99
])
def test_verdict_of_a_capture(name, slo_us, verdict):
    assert judge_step(report(name), None, slo_us, 50).verdict is verdict


def figures(tool, tool_limit, server, host_busy) -> CpuFigures:
    """A 2-core host's step: the load tool's and the server's cores, the host's busy ones."""
    return CpuFigures(server, 2, tool, tool_limit, host_busy, 2, tool="oha")


@pytest.mark.parametrize("cpu, verdict", [
    (figures(tool=1.9, tool_limit=2, server=0.1, host_busy=2.0), StepVerdict.LOAD_TOOL),
    (figures(tool=0.95, tool_limit=1, server=0.9, host_busy=1.9), StepVerdict.LOAD_TOOL),
    (figures(tool=1.0, tool_limit=2, server=0.9, host_busy=1.9), StepVerdict.LOAD_TOOL),
    (figures(tool=0.8, tool_limit=2, server=1.1, host_busy=1.9), StepVerdict.P99),
    (figures(tool=1.0, tool_limit=2, server=0.6, host_busy=1.6), StepVerdict.P99),
    (figures(tool=None, tool_limit=2, server=0.6, host_busy=1.9), StepVerdict.P99),
])
def test_a_tool_that_fell_behind_is_told_apart_by_its_cpu(cpu, verdict):
    assert judge_step(report("netty-behind-200000"), None, SLO_10_MS, 50, cpu).verdict is verdict


def test_a_failed_run_says_why():
    judgement = judge_step(None, "oha exited with 1: boom", SLO_10_MS, 50)
    assert (judgement.verdict, judgement.reason) == (StepVerdict.FAILED, "oha exited with 1: boom")


def test_the_reason_gives_the_figures():
    assert judge_step(report("freezing-500"), None, SLO_10_MS, 50).reason.startswith("p99 19")


def test_error_kinds_name_statuses_and_messages_but_not_the_deadline():
    assert error_kinds(report("status-500")) == (("HTTP 500", report("status-500").answered),)
    kinds = dict(error_kinds(report("refused")))
    assert kinds and all("deadline" not in kind for kind in kinds)


def test_little_law_says_when_connections_ran_out():
    behind = report("netty-behind-200000")
    assert judge_step(behind, None, SLO_10_MS, 50).out_of_connections
    assert not judge_step(report("netty-5000"), None, SLO_10_MS, 50).out_of_connections


STALLED_STEP = HostStalls(interval_us=10_000, threshold_us=1000, samples=1000, max_us=40_000,
                          stalled_s=1.3, covered_s=10.0, priority="SCHED_FIFO 1")


@pytest.mark.parametrize("name, cpu, stalls, verdict", [
    ("freezing-500", None, STALLED_STEP, StepVerdict.HOST),
    ("freezing-500", figures(0.1, 2, 0.1, 1.2), None, StepVerdict.P99),  # no foreign figure
    ("freezing-500", replace(figures(0.1, 2, 0.1, 1.2), foreign=1.0), None, StepVerdict.HOST),
    ("netty-5000", None, STALLED_STEP, StepVerdict.HOST),  # held, but the tool froze too
    ("netty-5000", replace(figures(0.1, 2, 0.1, 1.2), foreign=1.0), None, StepVerdict.HELD),
    ("refused", None, STALLED_STEP, StepVerdict.ERRORS),
    ("netty-behind-200000", figures(1.9, 2, 0.1, 2.0), STALLED_STEP, StepVerdict.LOAD_TOOL),
])
def test_a_step_the_host_broke_is_the_hosts(name, cpu, stalls, verdict):
    assert judge_step(report(name), None, SLO_10_MS, 50, cpu, stalls).verdict is verdict


def test_a_step_that_seemed_to_hold_on_a_stalled_host_says_its_latency_understates():
    reason = judge_step(report("netty-5000"), None, SLO_10_MS, 50, None, STALLED_STEP).reason
    assert reason.endswith("seemed to hold, but the host stalled up to 40 ms (13.0% of the "
                           "step), the load tool with it: this latency understates what users "
                           "would see")


def test_a_host_verdict_says_what_broke_and_what_the_host_did():
    reason = judge_step(report("freezing-500"), None, SLO_10_MS, 50, None, STALLED_STEP).reason
    assert reason.startswith("p99 ") and reason.endswith(
        "over the target of 10.0 ms while the host stalled up to 40 ms (13.0% of the step)")
