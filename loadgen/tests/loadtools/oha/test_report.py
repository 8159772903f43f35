from __future__ import annotations

import json

import pytest

from httplab.loadtools.oha.report import OhaJsonError, parse_oha_json
from tests.conftest import FIXTURES

OHA_FIXTURES = FIXTURES / "oha"
DEADLINE = "aborted due to deadline"

# What each captured run's JSON says, copied by hand from the files (see README.txt there):
# offered rate (from the command), oha's total, status codes, errors, then p50, p90, p99,
# p99.9 and the slowest answer in µs (None without an answer).
EXPECTED = {
    "netty-5000": (5000, 3.001656112, ((200, 14996),), (),
                   (201.567, 384.594, 2446.166, 5389.167, 5772.377)),
    "netty-behind-200000": (200_000, 3.003407315, ((200, 220815),), ((DEADLINE, 30),),
                            (873290.24, 1686944.829, 1872570.921, 1893097.648, 1897838.708)),
    "freezing-500": (500, 3.001985054, ((200, 1500),), ((DEADLINE, 6),),
                     (196.013, 103645.792, 192388.514, 200783.092, 200913.825)),
    "freezing-500-uncorrected": (500, 3.00192736, ((200, 1500),), ((DEADLINE, 1),),
                                 (189.433, 103260.708, 192465.012, 200926.738, 201495.986)),
    "status-500": (200, 2.000630635, ((500, 400),), (),
                   (243.789, 388.471, 797.271, 1245.463, 1245.463)),
    "refused": (100, 2.000966092, (), (("Connection refused (os error 111)", 200),),
                (None, None, None, None, None)),
    "reset": (100, 2.001201546, (), (("connection error", 200),),
              (None, None, None, None, None)),
}


def read(name: str, offered: float):
    return parse_oha_json((OHA_FIXTURES / f"{name}.json").read_text(), offered, f"{name}.json")


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_reads_captured_runs(name):
    offered, duration_s, status_codes, errors, latencies_us = EXPECTED[name]
    report = read(name, offered)
    assert report.offered_rate_per_s == offered
    assert report.duration_s == duration_s
    assert report.status_codes == status_codes
    assert report.errors == errors
    found = [report.percentile_us(p) for p in (50, 90, 99, 99.9)] + [report.latency.max_us]
    assert found == pytest.approx(latencies_us)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_capture_has_the_nine_percentiles_or_none(name):
    report = read(name, EXPECTED[name][0])
    expected = () if report.answered == 0 else (10, 25, 50, 75, 90, 95, 99, 99.9, 99.99)
    assert tuple(p for p, _ in report.latency.percentiles_us) == expected


@pytest.mark.parametrize("name, answered, bins", [
    ("netty-5000", 14996, 11), ("freezing-500", 1500, 11), ("netty-behind-200000", 220815, 11),
    ("status-500", 400, 11), ("refused", 0, 0), ("reset", 0, 0),
])
def test_the_histogram_holds_every_answer(name, answered, bins):
    report = read(name, EXPECTED[name][0])
    assert report.answered == answered
    assert len(report.histogram_us) == bins
    assert sum(count for _, count in report.histogram_us) == answered
    if bins:
        assert report.histogram_us[0][0] == pytest.approx(report.latency.min_us)
        assert report.histogram_us[-1][0] == pytest.approx(report.latency.max_us)


@pytest.mark.parametrize("name, succeeded, non_2xx_3xx, failed, aborted", [
    ("netty-5000", 14996, 0, 0, 0),
    ("freezing-500", 1500, 0, 0, 6),
    ("status-500", 0, 400, 0, 0),
    ("refused", 0, 0, 200, 0),
    ("reset", 0, 0, 200, 0),
    ("netty-behind-200000", 220815, 0, 0, 30),
])
def test_counts_by_kind(name, succeeded, non_2xx_3xx, failed, aborted):
    report = read(name, EXPECTED[name][0])
    assert (report.succeeded, report.non_2xx_3xx, report.failed, report.aborted_at_deadline) == (
        succeeded, non_2xx_3xx, failed, aborted)


@pytest.mark.parametrize("name, achieved", [
    ("netty-5000", 4995.91), ("freezing-500", 499.67), ("refused", 0.0),
    ("netty-behind-200000", 73521.50),
])
def test_achieved_rate_counts_answers_over_the_run(name, achieved):
    assert read(name, EXPECTED[name][0]).achieved_rate_per_s == pytest.approx(achieved, abs=0.01)


def test_behind_the_rate_oha_reports_no_error_only_a_lower_rate():
    """At 200,000 a second oha sent what it could: about 74,000 a second were answered, the
    due requests it never sent are counted nowhere, and its success rate is still 1."""
    report = read("netty-behind-200000", 200_000)
    assert report.achieved_rate_per_s < 0.4 * report.offered_rate_per_s
    assert report.failed == 0


def test_latency_correction_counts_the_wait_for_a_connection():
    """Against the freezing server, the requests that waited for a free connection during
    a pause count their wait only with the correction: without it the 20-100 ms bins are
    empty and only the 50 requests in flight on the 50 connections at each pause are slow."""
    def slow_answers(name):
        return sum(count for edge_us, count in read(name, 500).histogram_us if edge_us > 30_000)
    assert slow_answers("freezing-500") == 276
    assert slow_answers("freezing-500-uncorrected") == 150


# Hand-written summaries, for what the captures do not show; shaped as oha 1.16 prints them.
def summary(**changes):
    document = {
        "summary": {"successRate": 1.0, "total": 2.0, "slowest": 0.004, "fastest": 0.0001,
                    "average": 0.0002, "requestsPerSec": 10.0},
        "responseTimeHistogram": {"0.0001": 15, "0.004": 5},
        "latencyPercentiles": {"p50": 0.0002, "p99": 0.004, "p99.9": 0.004},
        "statusCodeDistribution": {"200": 18, "500": 2},
        "errorDistribution": {"aborted due to deadline": 1},
    }
    for key, value in changes.items():
        if value is None:
            del document[key]
        else:
            document[key] = value
    return json.dumps(document)


def test_hand_written_summary():
    report = parse_oha_json(summary(), 10, "hand")
    assert report.status_codes == ((200, 18), (500, 2))
    assert (report.answered, report.succeeded, report.non_2xx_3xx) == (20, 18, 2)
    assert (report.aborted_at_deadline, report.failed) == (1, 0)
    assert report.achieved_rate_per_s == 10.0
    assert [p for p, _ in report.latency.percentiles_us] == [50.0, 99.0, 99.9]
    assert [us for _, us in report.latency.percentiles_us] == pytest.approx([200, 4000, 4000])
    assert [count for _, count in report.histogram_us] == [15, 5]
    assert [edge for edge, _ in report.histogram_us] == pytest.approx([100, 4000])


def test_null_percentiles_are_unknown_and_nan_bins_are_none():
    text = summary(latencyPercentiles={"p50": None, "p99": None},
                   responseTimeHistogram={"NaN": 0}, statusCodeDistribution={},
                   summary={"total": 1.0, "slowest": None, "fastest": None, "average": None})
    report = parse_oha_json(text, 10, "hand")
    assert report.latency.percentiles_us == () and report.histogram_us == ()
    assert report.percentile_us(99) is None and report.latency.max_us is None


@pytest.mark.parametrize("text, message", [
    ("", r"^bad: not valid JSON"),
    ("[]", r"^bad: expected a JSON object, got list"),
    ('{"summary": NaN}', r"^bad: not valid JSON: NaN is not JSON"),
    (summary(summary=None), r"^bad: missing key 'summary'"),
    (summary(errorDistribution=None), r"^bad: missing key 'errorDistribution'"),
    (summary(summary={"total": -1.0, "slowest": 0, "fastest": 0, "average": 0}),
     r"^bad: 'summary.total' must be a number >= 0, got -1.0"),
    (summary(summary={"total": 1.0, "fastest": 0, "average": 0}),
     r"^bad: missing key 'summary.slowest'"),
    (summary(statusCodeDistribution={"OK": 3}), r"'statusCodeDistribution' keys are HTTP"),
    (summary(statusCodeDistribution={"200": 2.5}),
     r"'statusCodeDistribution.200' must be a whole number"),
    (summary(latencyPercentiles={"median": 0.1}), r"'latencyPercentiles' keys are p<number>"),
    (summary(latencyPercentiles={"p50": "0.1"}), r"'latencyPercentiles.p50' must be a number"),
    (summary(responseTimeHistogram={"NaN": 4}), r"'responseTimeHistogram' bin 'NaN' holds 4"),
    (summary(responseTimeHistogram={"fast": 4}), r"'responseTimeHistogram' keys are seconds"),
    (summary(errorDistribution=[]), r"'errorDistribution' must be an object"),
])
def test_refuses_damaged_summaries(text, message):
    with pytest.raises(OhaJsonError, match=message):
        parse_oha_json(text, 10, "bad")
