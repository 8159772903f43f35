"""Summaries of repeated measurements: median, spread and noise (CV)."""

import pytest

from httplab.model import Cell, CellStatus
from httplab.results.stats import Summary, cell_summary, summarize
from tests.sample_results import _run


@pytest.mark.parametrize("values, median", [
    ([3.0, 1.0, 2.0], 2.0),
    ([4.0, 1.0, 3.0, 2.0], 2.5),
    ([7.0], 7.0),
])
def test_median_of_odd_and_even_counts(values, median):
    assert summarize(values).median == median


@pytest.mark.parametrize("values, expected", [
    ([90.0, 100.0, 110.0], Summary(n=3, median=100.0, minimum=90.0, maximum=110.0,
                                   mean=100.0, stdev=10.0, cv=0.1)),
    ([5.0, 5.0, 5.0], Summary(n=3, median=5.0, minimum=5.0, maximum=5.0,
                              mean=5.0, stdev=0.0, cv=0.0)),
    ([42.0], Summary(n=1, median=42.0, minimum=42.0, maximum=42.0,
                     mean=42.0, stdev=None, cv=None)),
    ([0.0, 0.0], Summary(n=2, median=0.0, minimum=0.0, maximum=0.0,
                         mean=0.0, stdev=0.0, cv=None)),
], ids=["spread", "equal values", "one value", "mean zero"])
def test_summary(values, expected):
    actual = summarize(values)
    for field, want in vars(expected).items():
        assert getattr(actual, field) == (None if want is None else pytest.approx(want)), field


def test_sample_stdev_divides_by_n_minus_1():
    assert summarize([1.0, 3.0]).stdev == pytest.approx(2 ** 0.5)


def test_any_iterable_is_summarized():
    assert summarize(value for value in (1.0, 2.0, 3.0)).n == 3


def test_no_values_is_an_error():
    with pytest.raises(ValueError):
        summarize([])


def test_cell_summary_of_requests_per_sec_by_default():
    runs = (_run(100.0, 10), _run(120.0, 10), _run(110.0, 10))
    cell = Cell("netty", 10, 500, CellStatus.OK, runs)
    summary = cell_summary(cell)
    assert (summary.n, summary.median, summary.minimum, summary.maximum) == (3, 110.0, 100.0, 120.0)


def test_cell_summary_of_another_metric():
    cell = Cell("netty", 10, 500, CellStatus.OK, (_run(100.0, 10), _run(200.0, 10)))
    assert cell_summary(cell, lambda run: run.transfer_per_sec).median == 15000.0


def test_cell_without_runs_has_no_summary():
    assert cell_summary(Cell("netty", 10, 500, CellStatus.FAILED, reason="crashed")) is None
