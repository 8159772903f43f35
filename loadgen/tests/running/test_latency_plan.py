"""make latency's settings: each bad one stops with one line before anything runs."""

import pytest

from httplab.plan_error import PlanError
from httplab.checking.url_check import UrlCheckError, check_answers
from httplab.loadtools.oha.command import MAX_CONNECTIONS, MIN_CONNECTIONS, oha_connections
from httplab.running.latency_plan import make_latency_plan, parse_rates, parse_slo

from tests.support.plans import KNOWN

CPUS = frozenset({0, 1})


@pytest.mark.parametrize("settings, message", [
    ({"rates": "2000,1000"}, "RATES must increase"),
    ({"rates": "1000,1000"}, "RATES must increase"),
    ({"rates": "0"}, "RATES must be requests a second"),
    ({"rates": "-5,10"}, "RATES must be requests a second"),
    ({"rates": "fast"}, "RATES must be requests a second"),
    ({"slo-p99": "10"}, "SLO_P99 must be a positive time with its unit"),
    ({"slo-p99": "0ms"}, "SLO_P99 must be a positive time with its unit"),
    ({"slo-p99": "10 minutes"}, "SLO_P99 must be a positive time with its unit"),
    ({"cost-rate": "zero"}, "COST_RATE must be requests a second"),
    ({"url": "https://127.0.0.1/"}, "URL must be http://host:port/path"),
    ({"url": "127.0.0.1:9000"}, "URL must be http://host:port/path"),
    ({"step-warmup": "2x"}, "STEP_WARMUP must be 0"),
    ({"fairness": "1"}, "FAIRNESS does not apply to make latency"),
    ({"loadgen-hosts": "ssh://a"}, "LOADGEN_HOSTS does not apply to make latency"),
    ({"duration": "0"}, "DURATION must be"),
])
def test_a_bad_setting_stops_with_one_line(settings, message):
    with pytest.raises(PlanError, match=message):
        make_latency_plan(settings, KNOWN, CPUS)


@pytest.mark.parametrize("text, rates", [
    ("1000,2000,5000", (1000.0, 2000.0, 5000.0)),
    (" 500 , 750.5 ", (500.0, 750.5)),
    ("auto", ()),
])
def test_rates(text, rates):
    assert parse_rates(text).fixed == rates


@pytest.mark.parametrize("text, microseconds", [
    ("10ms", 10_000), ("500us", 500), ("500µs", 500), ("1s", 1_000_000), ("2.5ms", 2_500)])
def test_slo_units(text, microseconds):
    assert parse_slo(text) == microseconds


def test_the_defaults_search_with_a_10_ms_target_and_a_common_rate_found_later():
    plan = make_latency_plan({}, KNOWN, CPUS)
    assert plan.rates.auto and plan.slo_p99_us == 10_000 and plan.cost_rate is None
    assert plan.url is None and not plan.bench.fairness and plan.step_warmup_s == 2


@pytest.mark.parametrize("rate, target_us, connections", [
    (1000, 10_000, 20), (100, 10_000, MIN_CONNECTIONS), (30_000, 10_000, 600),
    (80_000, 1_000_000, MAX_CONNECTIONS)])
def test_connections_absorb_the_rate_times_twice_the_target(rate, target_us, connections):
    assert oha_connections(rate, target_us) == connections


def test_a_url_that_does_not_answer_is_refused_before_any_load():
    with pytest.raises(UrlCheckError, match="does not answer"):
        check_answers("http://127.0.0.1:1/", timeout_s=1)


def test_a_url_that_answers_other_than_2xx_is_refused_and_2xx_passes():
    from tests.fake_server import FakeServer, hello_answer

    with FakeServer(hello_answer) as server:
        assert check_answers(f"http://127.0.0.1:{server.port}/") == 200
        with pytest.raises(UrlCheckError, match="answered a GET with 404"):
            check_answers(f"http://127.0.0.1:{server.port}/missing")
