from __future__ import annotations

import json
import re
from typing import Any, Callable

import pytest

from httplab.loadtools.wrk.stats import histogram_mean, histogram_percentile, histogram_stdev
from httplab.model import Latency, LatencyHistogram, SocketErrors, ThreadRequestRate, WrkRun
from httplab.loadtools.wrk.done_json import WrkJsonError, parse_done_json
from httplab.loadtools.wrk.text_report import parse_report

from tests.loadtools.wrk.test_text_report import assert_same_run
from tests.conftest import FIXTURES

WRK_FIXTURES = FIXTURES / "wrk"
HISTOGRAMS = FIXTURES / "generators"
JSON_NAMES = sorted(path.name for path in WRK_FIXTURES.glob("*.json"))
NGINX = "http://127.0.0.1:18081"
PYTHON = "http://127.0.0.1:18082/"

# (duration_us, requests, bytes, socket errors, status errors, min, max, p99.9, url) as done.lua wrote them.
EXPECTED: dict[str, tuple[int, int, int, SocketErrors, int, float | None, float | None, float | None, str]] = {
    "nginx-hello.json": (1011461, 66072, 10571220, SocketErrors(), 0, 15, 11069, 9178, f"{NGINX}/"),
    "nginx-hello-latency.json": (1100428, 57685, 9229325, SocketErrors(), 0, 15, 92992, 90142, f"{NGINX}/"),
    "nginx-404.json": (1100632, 49107, 15124731, SocketErrors(), 49107, 13, 72053, 70460, f"{NGINX}/missing"),
    "nginx-500.json": (1084811, 19441, 6590499, SocketErrors(), 19441, 23, 53817, 51585, f"{NGINX}/broken"),
    "slow-timeouts.json": (3037872, 58621, 4513817, SocketErrors(timeout=10), 0, 38, 64499, 59250, PYTHON),
    "reset-read-errors.json": (1004467, 0, 0, SocketErrors(read=2492), 0, None, None, None, PYTHON),
    "silent-zero-requests.json": (1050833, 0, 0, SocketErrors(), 0, None, None, None, PYTHON),
    "refused-zero-requests.json": (1089768, 0, 0, SocketErrors(read=5, write=49580), 0, None, None, None, PYTHON),
}


def read_fixture(name: str) -> str:
    return (WRK_FIXTURES / name).read_text()


def test_every_json_fixture_has_expected_values() -> None:
    assert JSON_NAMES == sorted(EXPECTED)


@pytest.mark.parametrize("name", JSON_NAMES)
def test_reads_fixture(name: str) -> None:
    duration_us, requests, bytes_read, errors, status, minimum, maximum, p99_9, url = EXPECTED[name]
    run = parse_done_json(read_fixture(name), name)
    assert (run.requests, run.bytes_read, run.errors, run.non_2xx_3xx) == (requests, bytes_read, errors, status)
    assert (run.latency.min_us, run.latency.max_us, run.latency.percentile(99.9)) == (minimum, maximum, p99_9)
    assert (run.threads, run.connections, run.url) == (2, None, url)
    assert run.duration_s == duration_us / 1e6
    assert run.requests_per_sec == requests / (duration_us / 1e6)
    assert run.transfer_per_sec == bytes_read / (duration_us / 1e6)


def test_reads_every_field_exactly() -> None:
    expected = WrkRun(
        duration_s=1.084811, requests=19441, bytes_read=6590499,
        requests_per_sec=19441 / 1.084811, transfer_per_sec=6590499 / 1.084811,
        latency=Latency(
            mean_us=992.53022986285505, stdev_us=4689.3812862501294, max_us=53817.0, min_us=23.0,
            percentiles_us=((50.0, 293.0), (75.0, 451.0), (90.0, 719.0), (99.0, 30803.0), (99.9, 51585.0)),
        ),
        non_2xx_3xx=19441, threads=2, url=f"{NGINX}/broken",
        thread_requests_per_sec=ThreadRequestRate(mean=9269.0952380952385, stdev=2338.5462771722499, max=15070.0, min=4410.0),
    )
    assert_same_run(parse_done_json(read_fixture("nginx-500.json"), "nginx-500.json"), expected)


def test_run_without_samples_has_unknown_statistics() -> None:
    run = parse_done_json(read_fixture("reset-read-errors.json"))
    assert run.latency == Latency(mean_us=None, stdev_us=None, max_us=None, min_us=None)
    assert run.thread_requests_per_sec is None
    assert (run.requests_per_sec, run.transfer_per_sec) == (0.0, 0.0)


def test_optional_keys_may_be_absent() -> None:
    document = json.loads(read_fixture("nginx-hello.json"))
    for key in ("threads", "url", "thread_requests_per_sec"):
        del document[key]
    document["connections"] = 10
    run = parse_done_json(json.dumps(document))
    assert (run.threads, run.connections, run.url, run.thread_requests_per_sec) == (None, 10, None, None)


def edit(change: Callable[[dict[str, Any]], None]) -> str:
    document = json.loads(read_fixture("nginx-hello.json"))
    change(document)
    return json.dumps(document)


# (what is wrong, the text, the reason given)
MALFORMED: list[tuple[str, str, str]] = [
    ("empty", "", "not valid JSON: Expecting value: line 1 column 1"),
    ("truncated", read_fixture("nginx-hello.json")[:40], "not valid JSON"),
    ("array", "[1, 2]", "expected a JSON object, got list"),
    ("NaN literal", read_fixture("nginx-hello.json").replace('"min": 15', '"min": NaN'), "not valid JSON: NaN is not JSON"),
    ("no duration", edit(lambda d: d.pop("duration_us")), "missing key 'duration_us'"),
    ("no status errors", edit(lambda d: d["errors"].pop("status")), "missing key 'errors.status'"),
    ("no p99_9", edit(lambda d: d["latency"].pop("p99_9")), "missing key 'latency.p99_9'"),
    ("errors not an object", edit(lambda d: d.update(errors=3)), "'errors' must be an object, got 3"),
    ("requests as text", edit(lambda d: d.update(requests="66072")), "'requests' must be a number >= 0, got '66072'"),
    ("negative bytes", edit(lambda d: d.update(bytes=-1)), "'bytes' must be a number >= 0, got -1"),
    ("fractional requests", edit(lambda d: d.update(requests=1.5)), "'requests' must be a whole number, got 1.5"),
    ("boolean error count", edit(lambda d: d["errors"].update(read=True)), "'errors.read' must be a number >= 0, got True"),
    ("latency as text", edit(lambda d: d["latency"].update(mean="1ms")), "'latency.mean' must be a number >= 0, got '1ms'"),
    ("url not text", edit(lambda d: d.update(url=8080)), "'url' must be a string, got 8080"),
]


@pytest.mark.parametrize(("text", "reason"), [case[1:] for case in MALFORMED], ids=[case[0] for case in MALFORMED])
def test_malformed_json_names_source_and_reason(text: str, reason: str) -> None:
    with pytest.raises(WrkJsonError) as caught:
        parse_done_json(text, "netty-t10-c500.json")
    assert caught.value.source == "netty-t10-c500.json"
    assert str(caught.value).startswith(f"netty-t10-c500.json: {reason}")


def close_to_printed(printed: float | None, exact: float | None) -> bool:
    """wrk prints 2 decimals of a mantissa >= 0.85 (src/units.c), so rounding stays under 0.6%."""
    if printed is None or exact is None:
        return printed is exact
    return abs(printed - exact) <= 0.01 * abs(exact) + 1e-9


@pytest.mark.parametrize("name", [name.removesuffix(".json") for name in JSON_NAMES])
def test_text_and_json_of_one_run_agree(name: str) -> None:
    printed = parse_report(read_fixture(f"{name}.txt"), f"{name}.txt")
    exact = parse_done_json(read_fixture(f"{name}.json"), f"{name}.json")
    assert (printed.requests, printed.errors, printed.non_2xx_3xx) == (exact.requests, exact.errors, exact.non_2xx_3xx)
    assert (printed.threads, printed.url) == (exact.threads, exact.url)
    assert printed.requests_per_sec == pytest.approx(exact.requests_per_sec, abs=0.005 + 1e-9)
    for field in ("duration_s", "bytes_read", "transfer_per_sec"):
        assert close_to_printed(getattr(printed, field), getattr(exact, field)), field
    for field in ("mean_us", "stdev_us", "max_us"):
        assert close_to_printed(getattr(printed.latency, field), getattr(exact.latency, field)), field
    for percentile, value in printed.latency.percentiles_us:
        assert close_to_printed(value, exact.latency.percentile(percentile)), percentile
    assert_rates_agree(printed.thread_requests_per_sec, exact.thread_requests_per_sec)


def assert_rates_agree(printed: ThreadRequestRate | None, exact: ThreadRequestRate | None) -> None:
    if printed is None or exact is None:
        assert printed is exact
        return
    for field in ("mean", "stdev", "max"):
        assert close_to_printed(getattr(printed, field), getattr(exact, field)), field


def test_json_without_histogram_or_end_time_has_them_unknown() -> None:
    run = parse_done_json(read_fixture("nginx-hello.json"))
    assert (run.latency_histogram, run.latency_histogram_exact, run.latency_samples, run.ended_at_s,
            run.started_at_s) == (None, None, None, None, None)


def read_histogram_fixture(name: str) -> WrkRun:
    return parse_done_json((HISTOGRAMS / name).read_text(), name)


# (fixture, exact, distinct values, samples, requests, ended_at_us, duration_us)
HISTOGRAM_FIXTURES = [
    ("netty-t2-c50.json", True, 6664, 62562, 58010, 1795404273455803, 2098481),
    ("undertow-t2-c50.g1.json", True, 7241, 9476, 7594, 1795404288725260, 2022605),
    ("undertow-t2-c50.g2.json", True, 6931, 8687, 6963, 1795404289035973, 2112026),
    ("netty-t5-c500-grid.json", False, 1180, 812961, 718456, None, None),
]


@pytest.mark.parametrize(("name", "exact", "distinct", "samples", "requests", "ended_at_us", "duration_us"),
                         HISTOGRAM_FIXTURES, ids=[case[0] for case in HISTOGRAM_FIXTURES])
def test_reads_the_histogram_and_the_end_time(name, exact, distinct, samples, requests, ended_at_us,
                                              duration_us) -> None:
    run = read_histogram_fixture(name)
    histogram = run.latency_histogram
    assert (histogram.exact, len(histogram.buckets), histogram.total) == (exact, distinct, samples)
    assert (run.latency_histogram_exact, run.latency_samples, run.requests) == (exact, samples, requests)
    assert histogram.rank_error_pct == (0.0 if exact else 0.1)
    if ended_at_us is not None:
        assert run.ended_at_s == ended_at_us / 1e6
        assert run.started_at_s == pytest.approx((ended_at_us - duration_us) / 1e6, abs=1e-6)


@pytest.mark.parametrize("name", [case[0] for case in HISTOGRAM_FIXTURES if case[1]])
def test_an_exact_histogram_gives_wrks_own_figures(name: str) -> None:
    """Percentiles by wrk's rule, and its mean, stdev, min and max, from the histogram alone."""
    run = read_histogram_fixture(name)
    histogram, latency = run.latency_histogram, run.latency
    for p, value in latency.percentiles_us:
        assert histogram_percentile(histogram, p) == value, p
    assert (histogram.min, histogram.max) == (latency.min_us, latency.max_us)
    assert histogram_mean(histogram) == pytest.approx(latency.mean_us, rel=1e-12)
    assert histogram_stdev(histogram) == pytest.approx(latency.stdev_us, rel=1e-12)


def test_a_quantile_grid_is_within_its_rank_error_of_wrks_percentiles() -> None:
    """Each grid step's samples sit at its upper percentile's value: the grid's p is wrk's
    p or a value up to one step (0.1 percentile points) above it."""
    run = read_histogram_fixture("netty-t5-c500-grid.json")
    histogram, latency = run.latency_histogram, run.latency
    assert histogram.max == latency.max_us  # the grid's 100th percentile is wrk's max
    assert latency.min_us < histogram.min == 173  # the first step's samples sit at p0.1
    for p, value in latency.percentiles_us:
        assert (value <= histogram_percentile(histogram, p)
                <= histogram_percentile(histogram, p + histogram.rank_error_pct)), p
    assert histogram_percentile(histogram, 99) == 38172 != latency.percentile(99) == 38080


# (what is wrong, the change, the reason given)
BAD_HISTOGRAMS: list[tuple[str, Any, str]] = [
    ("not a list", {"latency_histogram": 3}, "'latency_histogram' must be a list, got 3"),
    ("not pairs", {"latency_histogram": [[1, 2, 3]]}, "'latency_histogram' holds [value, count] pairs"),
    ("negative count", {"latency_histogram": [[1, -2]]}, "'latency_histogram' must be a number >= 0"),
    ("descending", {"latency_histogram": [[5, 1], [4, 1]]}, "'latency_histogram' values must ascend"),
    ("exact as text", {"latency_histogram": [[5, 1]], "latency_histogram_exact": "yes"},
     "'latency_histogram_exact' must be true or false"),
    ("end time as text", {"ended_at_us": "now"}, "'ended_at_us' must be a number >= 0"),
]


@pytest.mark.parametrize(("change", "reason"), [case[1:] for case in BAD_HISTOGRAMS],
                         ids=[case[0] for case in BAD_HISTOGRAMS])
def test_a_malformed_histogram_is_named(change: dict[str, Any], reason: str) -> None:
    with pytest.raises(WrkJsonError, match=re.escape(reason)):
        parse_done_json(edit(lambda document: document.update(change)), "g1.json")


def test_samples_default_to_the_histograms_total() -> None:
    text = edit(lambda document: document.update(latency_histogram=[[10, 3], [12, 1]]))
    run = parse_done_json(text)
    assert (run.latency_samples, run.latency_histogram) == (4, LatencyHistogram(((10, 3), (12, 1))))
