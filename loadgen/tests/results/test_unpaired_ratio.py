"""The unpaired ratio of two separate runs (results/unpaired_ratio.py): Welch's interval on
the logarithms against a hand computation and against SciPy's own Welch test, the p-value
against the interval, what one run or a figure of 0 gives, and the q-values of a family."""

import math
import random
import statistics

import pytest
from scipy.stats import ttest_ind

from httplab.results.false_discovery import count_family
from httplab.results.unpaired_ratio import unpaired_ratio, welch_error

BASE, NEW = [100.0, 104.0, 98.0], [110.0, 118.0, 111.0, 115.0]


def test_welchs_interval_by_hand():
    b, n = [math.log(v) for v in BASE], [math.log(v) for v in NEW]
    vb, vn = statistics.variance(b) / 3, statistics.variance(n) / 4
    se = math.sqrt(vb + vn)
    df = (vb + vn) ** 2 / (vb ** 2 / 2 + vn ** 2 / 3)
    assert welch_error(b, n) == pytest.approx((se, df))
    assert 3 < df < 5, "between the smaller side's n - 1 and n_b + n_n - 2"
    # Student's t, 0.975 quantile, at this df (between 3.182 at df 3 and 2.776 at df 4)
    t = {3: 3.182, 4: 2.776}
    quantile = t[3] + (t[4] - t[3]) * (df - 3)  # linear between the table's rows: ~1e-2
    difference = statistics.fmean(n) - statistics.fmean(b)
    figures = unpaired_ratio(BASE, NEW)
    assert figures.ratio == pytest.approx(math.exp(difference))
    assert figures.degrees_of_freedom == pytest.approx(df)
    assert figures.low == pytest.approx(math.exp(difference - quantile * se), rel=1e-2)
    assert figures.high == pytest.approx(math.exp(difference + quantile * se), rel=1e-2)
    assert math.log(figures.ratio) == pytest.approx(
        (math.log(figures.low) + math.log(figures.high)) / 2), "the estimate is the centre"


@pytest.mark.parametrize("seed", range(5))
def test_the_interval_and_p_value_are_scipys_welch_test_on_the_logs(seed):
    rng = random.Random(seed)
    base = [rng.lognormvariate(5, 0.1) for _ in range(rng.randint(2, 6))]
    new = [rng.lognormvariate(5.05, 0.2) for _ in range(rng.randint(2, 6))]
    test = ttest_ind([math.log(v) for v in new], [math.log(v) for v in base], equal_var=False)
    interval = test.confidence_interval(0.95)
    figures = unpaired_ratio(base, new)
    assert figures.p_value == pytest.approx(test.pvalue)
    assert (figures.low, figures.high) == pytest.approx(
        (math.exp(interval.low), math.exp(interval.high)))


def test_the_p_value_is_below_005_exactly_when_the_interval_excludes_1():
    rng = random.Random(3)
    for _ in range(300):
        figures = unpaired_ratio([rng.lognormvariate(0, 0.1) for _ in range(3)],
                                 [rng.lognormvariate(0.1, 0.1) for _ in range(3)])
        assert (figures.p_value < 0.05) == (figures.low > 1 or figures.high < 1)


@pytest.mark.parametrize("base, new, ratio, interval, p_value", [
    ([100.0], [121.0, 144.0], 1.32, False, None),  # the geometric mean of new: 132
    ([100.0, 144.0], [150.0], 1.25, False, None),
    ([100.0, 100.0], [100.0, 100.0], 1.0, True, 1.0),
    ([100.0, 100.0], [110.0, 110.0], 1.1, True, 0.0),
    ([0.0, 100.0], [110.0, 120.0], None, False, None),
], ids=["base once", "new once", "all agree, no difference", "all agree, 10 % apart",
        "a figure of 0"])
def test_one_run_exact_agreement_and_zero(base, new, ratio, interval, p_value):
    figures = unpaired_ratio(base, new)
    assert figures.ratio == (None if ratio is None else pytest.approx(ratio))
    assert figures.has_interval is interval
    assert figures.p_value == p_value
    assert (figures.base_runs, figures.new_runs) == (len(base), len(new))


def test_a_family_is_counted_among_those_with_a_p_value():
    ratios = [unpaired_ratio([100, 101, 99], [110, 111, 112]), None,
              unpaired_ratio([100], [110, 111]), unpaired_ratio([100, 102, 99], [101, 100, 98])]
    family = count_family(ratios)
    assert family[1] is None and family[2] == ratios[2], "not counted"
    assert (family[0].among, family[3].among) == (2, 2)
    assert family[0].q_value == pytest.approx(min(1, 2 * ratios[0].p_value))
    assert family[3].q_value == pytest.approx(ratios[3].p_value)
