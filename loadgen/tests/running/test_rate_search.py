"""The rate search as a table: given the steps so far, the next rate and the outcome."""

import pytest

from httplab.model import StepVerdict
from httplab.results.sustained import search_outcome, undetermined_by_host
from httplab.running.rate_search import (MAX_AUTO_STEPS, RateSpec, START_RATE, next_rate,
                                         why_again)

H, P99, TOOL, FAILED, HOST = (StepVerdict.HELD, StepVerdict.P99, StepVerdict.LOAD_TOOL,
                              StepVerdict.FAILED, StepVerdict.HOST)
AUTO = RateSpec()


@pytest.mark.parametrize("history, expected", [
    ((), START_RATE),
    (((1000, H),), 2000),
    (((1000, H), (2000, H), (4000, P99)), 4000),  # a break is run again before it counts
    (((1000, H), (2000, H), (4000, P99), (4000, H)), 8000),  # a stall, not the server
    (((1000, H), (2000, H), (4000, P99), (4000, P99)), 3000),
    (((1000, H), (2000, H), (4000, P99), (4000, P99), (3000, H)), 3500),
    (((1000, H), (2000, H), (4000, P99), (4000, P99), (3000, P99)), 3000),
    (((1000, H), (2000, H), (4000, P99), (4000, P99), (3000, P99), (3000, P99)), 2500),
    (((1000, H), (2000, FAILED), (2000, FAILED)), 1500),
    (((1000, P99), (1000, P99)), 500),
    (((1000, P99), (1000, P99), (500, P99), (500, P99), (250, P99), (250, P99),
      (125, P99), (125, P99)), 62),
    (((1000, P99), (1000, P99), (500, P99), (500, P99), (250, P99), (250, P99),
      (125, P99), (125, P99), (62, P99), (62, P99)), None),
    (((1000, H), (2000, TOOL)), None),  # the tool's limit is not run again
    (((1000, H), (2000, P99), (2000, P99), (1500, H), (1750, H), (1875, H), (1938, H)), None),
    (((1000, H), (2000, P99), (2000, P99), (1500, H), (1750, H), (1875, H)), 1938),
])
def test_next_rate_of_the_search(history, expected):
    assert next_rate(AUTO, history) == expected


@pytest.mark.parametrize("history, expected", [
    (((1000, H), (2000, HOST)), 2000),  # the host's: run again
    (((1000, H), (2000, HOST), (2000, HOST)), 2000),
    (((1000, H), (2000, HOST), (2000, HOST), (2000, HOST)), None),  # never clean: the end
    (((1000, H), (2000, HOST), (2000, H)), 4000),
    (((1000, H), (2000, HOST), (2000, P99)), 2000),  # the server's first break: confirm it
    (((1000, H), (2000, HOST), (2000, P99), (2000, P99)), 1500),
    (((1000, H), (2000, P99), (2000, HOST)), 2000),  # the confirmation was the host's
    (((1000, H), (2000, P99), (2000, HOST), (2000, HOST), (2000, HOST)), None),
])
def test_a_step_the_host_broke_is_run_again_a_bounded_number_of_times(history, expected):
    assert next_rate(AUTO, history) == expected


@pytest.mark.parametrize("history, undetermined, outcome", [
    (((1000, H), (2000, HOST), (2000, HOST), (2000, HOST)), 2000, (1000, False)),
    (((1000, HOST),) * 3, 1000, (None, False)),
    (((1000, H), (2000, HOST), (2000, P99), (2000, P99), (1500, H), (1750, H)), None,
     (1750, False)),  # the host's run did not count; the server broke twice
    # an old run rebuilt by the new rule: a host-broken rate above the highest that held
    (((1000, P99), (1000, P99), (500, H), (969, H)), None, (969, False)),
    (((1000, HOST), (1000, HOST), (500, H), (969, H)), 1000, (969, False)),
    (((1000, H), (2000, P99), (2000, P99), (4000, HOST)), None, (1000, False)),  # above a break
])
def test_a_rate_the_host_never_left_clean_leaves_the_maximum_undetermined(
        history, undetermined, outcome):
    assert undetermined_by_host(history) == undetermined
    assert search_outcome(history) == outcome


def test_why_a_rate_runs_again():
    assert why_again(((1000, H),), 2000) is None
    assert why_again(((1000, H), (2000, P99)), 2000) == "to confirm it broke"
    assert why_again(((1000, H), (2000, HOST)), 2000) == "the host was not clean"


def test_a_listed_rate_the_host_broke_is_run_again_then_the_list_goes_on():
    spec = RateSpec((100.0, 200.0))
    assert next_rate(spec, ((100, HOST),)) == 100
    assert next_rate(spec, ((100, HOST), (100, P99))) == 200
    assert next_rate(spec, ((100, HOST),) * 3) is None


def test_a_fixed_list_runs_in_order_whatever_held():
    spec = RateSpec((100.0, 200.0, 300.0))
    assert next_rate(spec, ()) == 100
    assert next_rate(spec, ((100, P99),)) == 200
    assert next_rate(spec, ((100, H), (200, H), (300, H))) is None


@pytest.mark.parametrize("history, expected", [
    (((1000, H), (2000, P99), (2000, P99), (1500, H)), (1500, False)),
    (((1000, H), (2000, P99), (2000, H)), (2000, False)),  # held in one of its two runs
    (((1000, H), (2000, TOOL)), (1000, True)),
    (((1000, P99),), (None, False)),
    # held above a rate that broke: luck, not capacity
    (((100, H), (200, P99), (300, H)), (100, False)),
])
def test_search_outcome(history, expected):
    assert search_outcome(history) == expected


def test_the_search_ends_within_its_bound_against_any_capacity():
    for capacity in (60, 999, 1000, 1001, 7777, 45_000, 3_000_000):
        history = ()
        while (rate := next_rate(AUTO, history)) is not None:
            history += ((rate, H if rate <= capacity else P99),)
        assert len(history) <= MAX_AUTO_STEPS
        found, _ = search_outcome(history)
        if 1000 <= capacity <= 1_000_000:
            assert capacity * 0.95 <= found <= capacity
