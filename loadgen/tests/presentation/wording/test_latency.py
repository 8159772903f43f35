"""How a latency run's figures read (rates, milliseconds, the target, a maximum, what broke
it, a step's errors), and which CPU limited a step: the bench's rule with the load tool in
wrk's place."""

from dataclasses import replace

import pytest

from httplab.model import HostInfo, ResourceUsage, StepVerdict, SustainedRate
from httplab.presentation.wording.latency import (broke_at_text, errors_text, max_rate_text,
                                                  ms_text, rate_text, rounds_text, slo_text)
from httplab.results.bottleneck import Limit
from httplab.results.step_bottleneck import step_bottleneck

from tests.latency_sample import failed_step, latency_sample_result


@pytest.mark.parametrize(("value", "text"), [
    (20000.0, "20,000"), (1500.5, "1,500.5"), (None, "—")])
def test_rate_text(value, text):
    assert rate_text(value) == text


@pytest.mark.parametrize(("us", "text"), [
    (212.0, "0.21"), (9_994.0, "9.99"), (14_200.0, "14.2"), (180_400.0, "180"), (None, "—")])
def test_ms_text_keeps_about_three_figures(us, text):
    assert ms_text(us) == text


@pytest.mark.parametrize(("us", "text"), [(10_000.0, "p99 ≤ 10 ms"), (500.0, "p99 ≤ 500 µs"),
                                          (2_500.0, "p99 ≤ 2.5 ms")])
def test_slo_text(us, text):
    assert slo_text(us) == text


@pytest.mark.parametrize(("rate", "text"), [
    (SustainedRate("a", (20000.0, 30000.0)), "20,000 req/s"),
    (SustainedRate("a", (20000.0,), limited_by_tool=True),
     "at least 20,000 req/s, limited by the load tool"),
    (SustainedRate("a", (None, 30000.0)), "none held"),
    (SustainedRate("a", ()), "none held"),
    (SustainedRate("a", (None, 30000.0), host_rounds=(1,)), "30,000 req/s"),
    (SustainedRate("a", (None, None), host_rounds=(1, 2)),
     "not determined: the host stalled or was busy"),
])
def test_max_rate_text(rate, text):
    assert max_rate_text(rate) == text


def test_each_rounds_maximum_names_those_the_host_left_undetermined():
    rate = SustainedRate("a", (None, None, 30000.0), host_rounds=(2,))
    assert rounds_text(rate) == "none held, not determined, 30,000"


def test_what_broke_is_said_once_when_every_round_agrees():
    assert broke_at_text(SustainedRate("a", (1.0,), broke_at=("2/s: p99",))) == "2/s: p99"
    assert broke_at_text(SustainedRate("a", (1.0, 1.0), broke_at=("x",) * 2)) == "x (every round)"
    assert broke_at_text(SustainedRate("a", (1.0,))) == "—"


def test_errors_text():
    steps = latency_sample_result().latency.steps
    errors = next(step for step in steps if step.verdict is StepVerdict.ERRORS)
    assert errors_text(errors) == "8,520: HTTP 503 ×8,120, connection error ×400"
    assert errors_text(steps[0]) == "0"
    assert errors_text(failed_step("netty", 1000, 1)) == "—"


# (server cores, tool cores, host busy, the limit) with the server on 1 CPU, oha on 1, of 4
LIMITS = [(0.95, 0.3, 1.4, Limit.SERVER), (0.3, 0.95, 1.4, Limit.LOADGEN),
          (0.3, 0.3, 3.8, Limit.SHARED), (0.3, 0.3, 0.7, Limit.NONE)]


@pytest.mark.parametrize(("server", "tool", "host", "limit"), LIMITS)
def test_a_steps_cpu_verdict_is_the_benchs_rule_naming_the_load_tool(server, tool, host, limit):
    result = latency_sample_result()
    step = replace(result.latency.steps[0], resources=ResourceUsage(
        cpu_cores=server, loadgen_cores=tool, host_busy_cores=host))
    verdict = step_bottleneck(step, result)
    assert verdict.limit is limit
    assert verdict.detail == (f"server {server:.2f} of 1 cores, oha {tool:.2f} of 1, host busy "
                              f"{host:.2f} of 4")


def test_a_step_without_cpu_figures_or_host_cores_is_unknown():
    result = latency_sample_result()
    assert step_bottleneck(failed_step("netty", 1000, 1), result).limit is Limit.UNKNOWN
    no_cores = replace(result, host=HostInfo(hostname="x"))
    assert step_bottleneck(result.latency.steps[0], no_cores).limit is Limit.UNKNOWN
