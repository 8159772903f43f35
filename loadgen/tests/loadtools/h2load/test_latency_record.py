"""h2load's log of requests reduced to its record and read back: the same statuses, exact
mean, stdev, min and max as the log, percentiles from the HdrHistogram within 0.1 % of the
log's own; records that are not one are refused, naming their source."""

from __future__ import annotations

import json

import pytest

from httplab.loadtools.h2load.latency_record import (latency_from_log, latency_from_record,
                                                     reduced_log)
from httplab.loadtools.hdr_latency import RELATIVE_PRECISION
from httplab.loadtools.wrk.stats import exact_histogram_latency
from httplab.model import LatencyHistogram
from tests.conftest import FIXTURES

MEASURED = FIXTURES / "h2load" / "measured"
# Latencies above 2048 µs, where a 3-digit HdrHistogram's buckets are wider than 1 µs.
WIDE = "".join(f"{start}\t200\t{latency}\n" for start, latency in
               enumerate([2_049, 3_001, 3_002, 10_007, 65_535, 123_457, 999_999] * 3))


def exact(log: str):
    """wrk's figures of the log's answered requests, from an exact histogram."""
    latencies: dict[int, int] = {}
    for line in log.splitlines():
        _, status, latency = (int(field) for field in line.split("\t")[:3])
        if status != -1:
            latencies[latency] = latencies.get(latency, 0) + 1
    return exact_histogram_latency(LatencyHistogram(tuple(sorted(latencies.items()))))


@pytest.mark.parametrize("log", [WIDE, (MEASURED / "nginx-h2c-goaway.h2load-requests.tsv")
                                 .read_text(), (MEASURED / "nginx-h2c-404.h2load-requests"
                                                ".tsv").read_text()])
def test_the_record_keeps_the_exact_figures_and_percentiles_within_the_precision(log):
    record = json.loads(json.dumps(reduced_log(log, "l")))  # as written and read back
    latency, truth = latency_from_record(record, "r").latency, exact(log)
    assert (latency.mean_us, latency.stdev_us, latency.min_us, latency.max_us) == (
        truth.mean_us, truth.stdev_us, truth.min_us, truth.max_us)
    for (p, found), (_, true_value) in zip(latency.percentiles_us, truth.percentiles_us,
                                           strict=True):
        assert true_value <= found <= true_value * (1 + RELATIVE_PRECISION), p
    assert latency_from_log(log, "l") == latency_from_record(record, "r")


def test_the_record_counts_each_status_and_the_last_end():
    log = "10\t200\t5\n20\t-1\t100\n30\t404\t7\n"
    latency = latency_from_log(log, "l")
    assert latency.statuses == {200: 1, -1: 1, 404: 1} and latency.answered == 2
    assert latency.ended_at_us == 120


def test_a_log_without_requests_has_no_latency():
    latency = latency_from_log("", "l")
    assert latency.answered == 0 and latency.latency.mean_us is None
    assert latency.latency.percentiles_us == () and latency.ended_at_us is None


@pytest.mark.parametrize("change, message", [
    ({"format": 2}, r"^r: not an h2load latency record of format 1"),
    ({"histogram": "nope"}, r"^r: h2load latency record without not an encoded"),
    ({"answered": 3}, r"^r: its histogram holds 2 requests, where it says 3"),
])
def test_what_is_not_a_record_is_refused_naming_its_source(change, message):
    record = {**reduced_log("1\t200\t5\n2\t200\t6\n", "l"), **change}
    with pytest.raises(ValueError, match=message):
        latency_from_record(record, "r")
