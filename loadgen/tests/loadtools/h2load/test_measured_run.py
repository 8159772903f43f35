"""The measured h2load run read from real captures (tests/fixtures/h2load/measured/README.md
says how each was made) and from hand-made texts for what they do not show."""

from __future__ import annotations

import pytest

from httplab.loadtools.h2load.latency_record import latency_from_log
from httplab.loadtools.hdr_latency import RELATIVE_PRECISION
from httplab.loadtools.h2load.measured_run import (asked_protocol, protocol_failure,
                                                   read_h2load_run, summary_header)
from httplab.model import SocketErrors
from tests.conftest import FIXTURES

MEASURED = FIXTURES / "h2load" / "measured"


def read_logged(summary: str, log: str, summary_source: str, log_source: str):
    """The run from its summary and its log of requests, read as the log's record."""
    return read_h2load_run(summary, latency_from_log(log, log_source), summary_source,
                           log_source)


def read(name: str):
    return read_logged((MEASURED / f"{name}.h2load-run.txt").read_text(),
                       (MEASURED / f"{name}.h2load-requests.tsv").read_text(),
                       f"{name}.h2load-run.txt", f"{name}.h2load-requests.tsv")


# name: (requests, bytes, non-2xx/3xx, errors, protocol, threads, connections, streams,
# min, mean, max, p50, p99) as h2load printed them ("time for request" row) or the log says.
EXPECTED = {
    "nginx-h2c-m2": (60, 4898, 0, SocketErrors(), "h2c", 1, 2, 2, 63, 148.95, 406, 140, 406),
    "nginx-h2-m2": (60, 4906, 0, SocketErrors(), "h2", 2, 2, 2, 63, 190.78, 401, 186, 401),
    "nginx-h2c-404": (60, 13358, 60, SocketErrors(), "h2c", 1, 2, 2, 72, 167.05, 550, 173,
                      550),
    "nginx-h2c-goaway": (40, 3332, 0, SocketErrors(read=1), "h2c", 1, 2, 2, 37, 90.08, 184,
                         81, 184),
    "nginx-h1tls-asked-h2": (30, 4830, 0, SocketErrors(), "http/1.1", 1, 1, 1, 115, 387.9,
                             3052, 213, 3052),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_reads_captured_runs(name):
    (requests, bytes_read, non_2xx, errors, protocol, threads, connections, streams,
     minimum, mean, maximum, p50, p99) = EXPECTED[name]
    run = read(name)
    assert (run.requests, run.bytes_read, run.non_2xx_3xx, run.errors, run.protocol) == \
        (requests, bytes_read, non_2xx, errors, protocol)
    assert (run.threads, run.connections, run.streams, run.tool) == \
        (threads, connections, streams, "h2load")
    assert (run.latency.min_us, run.latency.max_us) == (minimum, maximum)
    assert run.latency.mean_us == pytest.approx(mean, abs=0.01)
    # Each percentile is its HdrHistogram bucket's top: the truth, or within 0.1 % above.
    for found, truth in ((run.latency.percentile(50), p50), (run.latency.percentile(99), p99)):
        assert truth <= found <= truth * (1 + RELATIVE_PRECISION)
    assert run.duration_s == 1.0 and run.requests_per_sec == requests
    # Below 2048 µs an HdrHistogram of 3 digits holds each value exactly.
    assert run.latency_samples == requests and run.latency_histogram_exact is False
    assert run.ended_at_s is not None and run.ended_at_s > 1.7e9


def test_a_run_that_answered_nothing_has_no_latency():
    run = read("nginx-h1-asked-h2c")
    assert (run.requests, run.requests_per_sec, run.latency.mean_us, run.ended_at_s) == \
        (0, 0.0, None, None)


@pytest.mark.parametrize("name, failure", [
    ("nginx-h2c-m2", None),
    ("nginx-h2-m2", None),
    ("nginx-h1tls-asked-h2",
     "h2load was asked for h2 at https://127.0.0.1:18183/ and spoke http/1.1"),
])
def test_a_run_fails_when_it_spoke_another_protocol_than_asked(name, failure):
    assert protocol_failure(read(name)) == failure


@pytest.mark.parametrize("url, protocol", [
    ("http://127.0.0.1:8080/", "h2c"), ("https://127.0.0.1:8443/json", "h2"),
    ("ftp://x/", None),
])
def test_the_protocol_asked_is_the_urls_schemes(url, protocol):
    assert asked_protocol(url) == protocol


SUMMARY = (summary_header(["-t1", "-c1", "-m1", "-D1", "--log-file=x.tsv",
                           "http://127.0.0.1:1/"])
           + "{application}finished in 1.00s, 2.00 req/s, 1.00KB/s\n"
           "requests: 2 total, 2 started, 2 done, 2 succeeded, 0 failed, 0 errored, 0 timeout\n"
           "status codes: 2 2xx, 0 3xx, 0 4xx, 0 5xx\n"
           "traffic: 1.00KB (1024) total, 0B (0) headers (space savings 0.00%), 0B (0) data\n")
LOG = "1\t200\t10\n5\t200\t20\n"


def test_a_run_without_an_application_protocol_says_it_named_none():
    run = read_logged(SUMMARY.format(application=""), LOG, "s", "l")
    assert protocol_failure(run) == ("h2load was asked for h2c at http://127.0.0.1:1/ and "
                                     "named no application protocol")


@pytest.mark.parametrize("summary, log, message", [
    (SUMMARY.format(application="").split("\n", 1)[1], LOG, r"^s:1: no '# httplab: h2load'"),
    ("# httplab: h2load -t1 -c1 http://x/\n", LOG, r"^s:1: the header needs -t, -c, -m"),
    (SUMMARY.format(application=""), "1\t200\n", r"^l:1: not an h2load log line"),
    (SUMMARY.format(application=""), "1\t200\t-3\n", r"^l:1: a negative latency"),
    (SUMMARY.format(application=""), "1\t200\t10\n", r"^l: 1 requests, where s says 2 done"),
    (SUMMARY.format(application="Application protocol: h2c\nApplication protocol: h2\n"),
     LOG, r"^s: h2load names several application protocols: h2, h2c"),
    (SUMMARY.format(application="").replace("traffic:", "traffic"), LOG,
     r"^s: not one h2load 'traffic:' line"),
])
def test_what_cannot_be_read_names_its_source_and_line(summary, log, message):
    with pytest.raises(ValueError, match=message):
        read_logged(summary, log, "s", "l")


def test_the_log_gives_each_answered_request_in_whole_microseconds():
    run = read_logged(SUMMARY.format(application="Application protocol: h2c\n"),
                      "1\t200\t10\n5\t200\t20\n", "s", "l")
    assert (run.latency.min_us, run.latency.max_us, run.latency.mean_us) == (10, 20, 15)
    # wrk's rank of p50 among 2: round(0.5 * 2 + 0.5) = 2
    assert run.latency.percentile(50) == 20 and run.latency.percentile(99) == 20
    assert run.ended_at_s == 25 / 1e6
