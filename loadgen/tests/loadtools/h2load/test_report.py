from __future__ import annotations

import pytest

from httplab.loadtools.h2load.report import H2loadReport, parse_h2load
from tests.conftest import FIXTURES

H2LOAD_FIXTURES = FIXTURES / "h2load"

# What each captured run's summary says, copied by hand from the .h2load.txt files.
EXPECTED = {
    "nginx-c50": H2loadReport(3.0, 87174.33, 261523, 261523, 0, 0, 0,
                              1376.24, 2108.54, 1743.37, 362.92),
    "nginx-reopen-c50": H2loadReport(3.0, 88390.33, 265171, 265171, 0, 0, 0,
                                     1396.89, 2138.15, 1767.69, 365.82),
    "flaky-500-c50": H2loadReport(3.0, 29596.33, 88789, 79932, 8857, 0, 0,
                                  587.89, 596.29, 591.84, 2.17),
    "stalled-c50": H2loadReport(3.0, 4983.33, 14950, 13500, 1450, 0, 0,
                                739.97, 746.80, 742.45, 2.02),
    "refused-c50": H2loadReport(3.0, 0.0, 0, 0, 0, 0, 0, 0.0, 0.0, 0.0, 0.0),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_reads_captured_summaries(name):
    text = (H2LOAD_FIXTURES / f"{name}.h2load.txt").read_text()
    assert parse_h2load(text, name) == EXPECTED[name]


def test_a_run_h2load_never_finished_has_no_summary():
    text = (H2LOAD_FIXTURES / "hung-c50.h2load.txt").read_text()
    with pytest.raises(ValueError, match=r"^hung-c50: no h2load summary: no 'finished in'"):
        parse_h2load(text, "hung-c50")


# Hand-written summaries, for what the captures do not show.
FINISHED = "finished in {}, 100.00 req/s, 1.00KB/s"
REQUESTS = "requests: 9 total, 10 started, 9 done, 7 succeeded, 2 failed, 1 errored, 1 timeout"
RATES = "req/s           :       {}"


def summary(finished="3.00s", rates="1.00 3.00 2.00 0.50 66.67%", before=""):
    return "\n".join([before, FINISHED.format(finished), REQUESTS, RATES.format(rates)])


@pytest.mark.parametrize("finished, seconds", [
    ("3.00s", 3.0), ("250.50ms", 0.2505), ("523.00us", 0.000523), ("12s", 12.0),
])
def test_durations_in_each_unit_h2load_prints(finished, seconds):
    assert parse_h2load(summary(finished), "hand").duration_s == pytest.approx(seconds)


def test_counts_of_the_requests_line():
    report = parse_h2load(summary(), "hand")
    assert (report.total, report.succeeded, report.failed, report.errored, report.timeout) == (
        9, 7, 2, 1, 1)
    assert report.requests_per_sec == 100.0


@pytest.mark.parametrize("rates, expected", [
    ("1.00 3.00 2.00 0.50 66.67%", (1.0, 3.0, 2.0, 0.5)),
    ("-nan -nan -nan -nan 0.00%", (None, None, None, None)),
    ("0.00 0.00 0.00 nan 100.00%", (0.0, 0.0, 0.0, None)),
])
def test_client_rates_with_nan_as_unknown(rates, expected):
    report = parse_h2load(summary(rates=rates), "hand")
    assert (report.client_rps_min, report.client_rps_max, report.client_rps_mean,
            report.client_rps_sd) == expected


def test_without_the_client_rates_row_they_are_unknown():
    report = parse_h2load("\n".join([FINISHED.format("1.00s"), REQUESTS]), "hand")
    assert report.client_rps_min is None and report.client_rps_sd is None


@pytest.mark.parametrize("text, message", [
    ("", r"^empty: no h2load summary: no 'finished in' line"),
    ("getaddrinfo() failed: Name or service not known\n", r"no 'finished in' line"),
    (FINISHED.format("3.00s"), r"no 'requests:' line"),
    (REQUESTS, r"no 'finished in' line"),
    (summary(finished="3.00 s"), r"^bad:2: not an h2load 'finished in' line"),
    (summary().replace("2 failed", "two failed"), r"^bad:3: not an h2load 'requests:' line"),
    (summary(rates="1.00 3.00 2.00"), r"^bad:4: not an h2load 'req/s' line"),
    (summary() + "\n" + FINISHED.format("1.00s"), r"^bad:5: a second 'finished in' line"),
])
def test_refuses_missing_or_damaged_summaries(text, message):
    source = "empty" if not text else "bad"
    with pytest.raises(ValueError, match=message):
        parse_h2load(text, source)
