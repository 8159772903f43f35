"""The rate search as a table: given the steps so far, the next rate and the outcome."""

import pytest

from httplab.model import StepVerdict
from httplab.results.sustained import search_outcome
from httplab.running.rate_search import MAX_AUTO_STEPS, RateSpec, START_RATE, next_rate

H, P99, TOOL, FAILED = (StepVerdict.HELD, StepVerdict.P99, StepVerdict.LOAD_TOOL,
                        StepVerdict.FAILED)
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
