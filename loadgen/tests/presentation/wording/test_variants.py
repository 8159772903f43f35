"""The verdict on a variant against its base, in words (wording/variants.py), table-driven:
faster, slower, costlier, cheaper, no difference detectable, and too few rounds."""

import pytest

from httplab.presentation.wording.variants import (difference_sentence, format_interval,
                                                    paired_verdict)
from httplab.results.paired_ratio import PairedRatio
from httplab.results.variants import ComparedMetric

RATE, CPU = ComparedMetric.REQUESTS_PER_SEC, ComparedMetric.CPU_PER_REQUEST
MAXIMUM, COST = ComparedMetric.MAX_SUSTAINABLE_RATE, ComparedMetric.COMMON_RATE_COST


@pytest.mark.parametrize("figures, metric, sentence", [
    (PairedRatio(1.12, 1.06, 1.18, 5), RATE, "B is 12 % faster (6 to 18 %)"),
    (PairedRatio(0.91, 0.87, 0.95, 5), RATE, "B is 9 % slower (5 to 13 %)"),
    (PairedRatio(1.02, 0.91, 1.14, 4), RATE,
     "no difference detectable at this noise: the interval spans -9 to +14 %"),
    (PairedRatio(1.12, 1.04, 1.21, 3), CPU, "B costs 12 % more CPU per request (4 to 21 %)"),
    (PairedRatio(0.80, 0.70, 0.90, 3), COST, "B costs 20 % less CPU per request (10 to 30 %)"),
    (PairedRatio(1.25, 1.10, 1.40, 3), MAXIMUM, "B is 25 % faster (10 to 40 %)"),
    (PairedRatio(1.0, 1.0, 1.0, 3), MAXIMUM, "the same in every round: both held the same of "
                                            "the rates offered; only rates between those "
                                            "steps, or above the highest, could tell them apart"),
    (PairedRatio(1.004, 1.001, 1.008, 3), RATE, "B is 0.4 % faster (0.1 to 0.8 %)"),
    (PairedRatio(1.1, None, None, 1), RATE, "needs at least 3 rounds (this run has 1)"),
    (PairedRatio(1.1, None, None, 2), CPU, "needs at least 3 rounds (this run has 2)"),
    (PairedRatio(None, None, None, 0), RATE, "not measured on both sides"),
])
def test_the_verdict_in_words(figures, metric, sentence):
    assert paired_verdict("B", figures, metric) == sentence


def test_a_figure_on_the_other_side_of_its_range_states_no_difference():
    """Medians and paired rounds can disagree: no direction is claimed then."""
    assert difference_sentence("B", 0.98, 1.01, 1.10, False).startswith(
        "no difference detectable at this noise: the interval spans +1 to +10 %")


def test_the_range_is_named_as_the_caller_says():
    assert difference_sentence("new", 1.0, 0.95, 1.05, False, "range of the runs") == (
        "no difference detectable at this noise: the range of the runs spans -5 to +5 %")


def test_the_interval_as_the_tables_show_it():
    assert format_interval(PairedRatio(0.83, 0.748, 0.883, 3)) == "0.75–0.88×"
    assert format_interval(PairedRatio(0.83, None, None, 2)) == "—"
