from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Callable

import pytest

from httplab.model import Latency, SocketErrors, ThreadRequestRate, WrkRun
from httplab.loadtools.wrk.text_report import WrkParseError, parse_report
from tests.conftest import FIXTURES

WRK_FIXTURES = FIXTURES / "wrk"
KB, MB, GB = 1024.0, 1024.0**2, 1024.0**3
NGINX = "http://127.0.0.1:18081"
PYTHON = "http://127.0.0.1:18082/"
NO_LATENCY = Latency(mean_us=None, stdev_us=None, max_us=None)

# What each fixture's report says, copied by hand from the .txt files.
EXPECTED: dict[str, WrkRun] = {
    "original-netty-t10-c500.txt": WrkRun(
        duration_s=10.08, requests=698315, bytes_read=round(66.60 * MB),
        requests_per_sec=69296.64, transfer_per_sec=6.61 * MB,
        latency=Latency(mean_us=7_680.0, stdev_us=10_210.0, max_us=151_090.0),
        errors=SocketErrors(read=498), threads=10, connections=500, url="http://127.0.0.1:8080",
        thread_requests_per_sec=ThreadRequestRate(mean=7_020.0, stdev=1_190.0, max=9_980.0),
    ),
    "nginx-hello.txt": WrkRun(
        duration_s=1.01, requests=66072, bytes_read=round(10.08 * MB),
        requests_per_sec=65323.33, transfer_per_sec=9.97 * MB,
        latency=Latency(mean_us=430.04, stdev_us=910.0, max_us=11_070.0),
        threads=2, connections=10, url=f"{NGINX}/",
        thread_requests_per_sec=ThreadRequestRate(mean=33_010.0, stdev=5_430.0, max=42_510.0),
    ),
    "nginx-hello-latency.txt": WrkRun(
        duration_s=1.10, requests=57685, bytes_read=round(8.80 * MB),
        requests_per_sec=52420.51, transfer_per_sec=8.00 * MB,
        latency=Latency(mean_us=3_410.0, stdev_us=12_000.0, max_us=92_990.0,
                        percentiles_us=((50.0, 113.0), (75.0, 323.0), (90.0, 3_970.0), (99.0, 67_900.0))),
        threads=2, connections=10, url=f"{NGINX}/",
        thread_requests_per_sec=ThreadRequestRate(mean=27_450.0, stdev=9_420.0, max=43_780.0),
    ),
    "nginx-404.txt": WrkRun(
        duration_s=1.10, requests=49107, bytes_read=round(14.42 * MB),
        requests_per_sec=44617.09, transfer_per_sec=13.11 * MB,
        latency=Latency(mean_us=2_990.0, stdev_us=9_560.0, max_us=72_050.0),
        non_2xx_3xx=49107, threads=2, connections=10, url=f"{NGINX}/missing",
        thread_requests_per_sec=ThreadRequestRate(mean=22_980.0, stdev=9_700.0, max=47_450.0),
    ),
    "nginx-500.txt": WrkRun(
        duration_s=1.08, requests=19441, bytes_read=round(6.29 * MB),
        requests_per_sec=17921.09, transfer_per_sec=5.79 * MB,
        latency=Latency(mean_us=990.0, stdev_us=4_690.0, max_us=53_820.0,
                        percentiles_us=((50.0, 293.0), (75.0, 451.0), (90.0, 719.0), (99.0, 30_800.0))),
        non_2xx_3xx=19441, threads=2, connections=10, url=f"{NGINX}/broken",
        thread_requests_per_sec=ThreadRequestRate(mean=9_270.0, stdev=2_340.0, max=15_070.0),
    ),
    "slow-timeouts.txt": WrkRun(
        duration_s=3.04, requests=58621, bytes_read=round(4.30 * MB),
        requests_per_sec=19296.73, transfer_per_sec=1.42 * MB,
        latency=Latency(mean_us=1_180.0, stdev_us=5_560.0, max_us=64_500.0,
                        percentiles_us=((50.0, 165.0), (75.0, 293.0), (90.0, 704.0), (99.0, 35_880.0))),
        errors=SocketErrors(timeout=10), threads=2, connections=10, url=PYTHON,
        thread_requests_per_sec=ThreadRequestRate(mean=9_770.0, stdev=3_970.0, max=20_320.0),
    ),
    # No request completed: wrk prints 0.00 and -nan for statistics without samples.
    "reset-read-errors.txt": WrkRun(
        duration_s=1.00, requests=0, bytes_read=0, requests_per_sec=0.0, transfer_per_sec=0.0,
        latency=NO_LATENCY, errors=SocketErrors(read=2492), threads=2, connections=10, url=PYTHON,
    ),
    "silent-zero-requests.txt": WrkRun(
        duration_s=1.05, requests=0, bytes_read=0, requests_per_sec=0.0, transfer_per_sec=0.0,
        latency=NO_LATENCY, threads=2, connections=10, url=PYTHON,
    ),
    "refused-zero-requests.txt": WrkRun(
        duration_s=1.09, requests=0, bytes_read=0, requests_per_sec=0.0, transfer_per_sec=0.0,
        latency=NO_LATENCY, errors=SocketErrors(read=5, write=49580), threads=2, connections=10, url=PYTHON,
    ),
}

# A 90 s run prints its length as "2m" and its runtime as "1.50m"; the rest
# exercises the units the fixtures do not: s, m, KB, GB, M, -nan.
LONG_RUN = """\
Running 2m test @ http://10.0.0.5:8080/plaintext?size=1
  4 threads and 1000 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.20s   850.00us    2.00s    -nan%
    Req/Sec     1.19M   998.00      1.50M    70.00%
  Latency Distribution
     50%  523.00us
     75%    7.68ms
     90%    1.50s
     99%    2.00s
  123456789 requests in 1.50m, 3.00GB read
  Socket errors: connect 12, read 34, write 56, timeout 78
  Non-2xx or 3xx responses: 9
Requests/sec: 1371742.10
Transfer/sec:    512.00KB
"""


def assert_same_run(actual: object, expected: object, path: str = "run") -> None:
    """Field by field, floats within float error (values scaled from units)."""
    if is_dataclass(expected):
        assert type(actual) is type(expected), path
        for field in fields(expected):
            assert_same_run(getattr(actual, field.name), getattr(expected, field.name), f"{path}.{field.name}")
    elif isinstance(expected, tuple):
        assert isinstance(actual, tuple) and len(actual) == len(expected), path
        for index, (got, want) in enumerate(zip(actual, expected)):
            assert_same_run(got, want, f"{path}[{index}]")
    elif isinstance(expected, float):
        assert actual == pytest.approx(expected, rel=1e-12), path
    else:
        assert actual == expected, path


def read_fixture(name: str) -> str:
    return (WRK_FIXTURES / name).read_text()


def test_every_text_fixture_has_expected_values() -> None:
    assert sorted(path.name for path in WRK_FIXTURES.glob("*.txt")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_reads_fixture(name: str) -> None:
    assert_same_run(parse_report(read_fixture(name), name), EXPECTED[name])


def test_reads_every_unit_and_optional_line() -> None:
    expected = WrkRun(
        duration_s=90.0, requests=123456789, bytes_read=round(3.00 * GB),
        requests_per_sec=1371742.10, transfer_per_sec=512.00 * KB,
        latency=Latency(mean_us=1_200_000.0, stdev_us=850.0, max_us=2_000_000.0,
                        percentiles_us=((50.0, 523.0), (75.0, 7_680.0), (90.0, 1_500_000.0), (99.0, 2_000_000.0))),
        errors=SocketErrors(connect=12, read=34, write=56, timeout=78), non_2xx_3xx=9,
        threads=4, connections=1000, url="http://10.0.0.5:8080/plaintext?size=1",
        thread_requests_per_sec=ThreadRequestRate(mean=1_190_000.0, stdev=998.0, max=1_500_000.0),
    )
    assert_same_run(parse_report(LONG_RUN, "long.txt"), expected)


def test_nan_statistics_are_unknown() -> None:
    text = LONG_RUN.replace("Latency     1.20s   850.00us", "Latency      -nan      -nan")
    latency = parse_report(text).latency
    assert (latency.mean_us, latency.stdev_us, latency.max_us) == (None, None, 2_000_000.0)


def test_reads_fractional_percentile_labels() -> None:
    text = LONG_RUN.replace("     99%    2.00s", "     99%    2.00s\n 99.900%    2.00s")
    assert parse_report(text).latency.percentile(99.9) == pytest.approx(2_000_000.0)


def test_header_is_optional() -> None:
    body = "\n".join(read_fixture("original-netty-t10-c500.txt").splitlines()[2:])
    run = parse_report(body)
    assert (run.url, run.threads, run.connections) == (None, None, None)
    assert run.requests == 698315


ORIGINAL = read_fixture("original-netty-t10-c500.txt")

PASTED: dict[str, Callable[[str], str]] = {
    "crlf": lambda text: text.replace("\n", "\r\n"),
    "surrounding whitespace": lambda text: "\n\n   \t" + text + "   \n\n\n",
    "no final newline": lambda text: text.rstrip("\n"),
    "byte order mark": lambda text: "\ufeff" + text,
    "indentation lost": lambda text: "\n".join(line.strip() for line in text.splitlines()),
    "indented by a tab": lambda text: "\n".join("\t" + line for line in text.splitlines()),
    "tabs between columns": lambda text: text.replace("     ", "\t"),
    "shell prompt around": lambda text: (
        "me@box:~/httplab$ wrk -t10 -c500 -d10s http://127.0.0.1:8080/\n" + text + "me@box:~/httplab$ \n"
    ),
    "lua output around": lambda text: (
        "thread 1 created\nthread 2 created\n" + text
        + "------------------------------\n50%,7012\n99%,60211\nLatency p99: 60.21ms\nRequests/sec: lots\n"
    ),
    "lua output between header and stats": lambda text: text.replace(
        "  Thread Stats", "response 200 after 3 ms\n  Thread Stats"
    ),
}


@pytest.mark.parametrize("paste", sorted(PASTED))
def test_reads_report_pasted_from_elsewhere(paste: str) -> None:
    assert_same_run(parse_report(PASTED[paste](ORIGINAL), "pasted.txt"), EXPECTED["original-netty-t10-c500.txt"])


def replace(old: str, new: str) -> Callable[[str], str]:
    def damage(text: str) -> str:
        assert old in text
        return text.replace(old, new, 1)

    return damage


# (damage done to the original report, line named in the error, reason)
DAMAGED: list[tuple[str, Callable[[str], str], int, str]] = [
    ("latency value", replace("7.68ms", "abc"), 4, "cannot read latency 'abc'"),
    ("latency without unit", replace("10.21ms", "10.21"), 4, "cannot read latency '10.21'"),
    ("within stdev", replace("93.80%", "93.80"), 4, "cannot read latency +/- stdev '93.80'"),
    ("short row", replace("151.09ms   93.80%", "151.09ms"), 4, "latency row needs Avg, Stdev, Max and +/- Stdev"),
    ("rate value", replace("1.19k", "1.19x"), 5, "cannot read requests/sec per thread '1.19x'"),
    ("duration", replace("in 10.08s", "in 10.08"), 6, "cannot read duration '10.08'"),
    ("bytes read", replace("66.60MB", "66.60M"), 6, "cannot read bytes read '66.60M'"),
    ("requests line", replace("66.60MB read", "66.60MB"), 6, "cannot read requests line"),
    ("socket errors", replace("read 498", "read many"), 7, "cannot read socket errors line"),
    ("requests/sec", replace("69296.64", "69,296.64"), 8, "cannot read requests/sec '69,296.64'"),
    ("transfer/sec", replace("6.61MB", "6.61"), 9, "cannot read transfer/sec '6.61'"),
    ("foreign line", replace("  698315", "  Oops\n  698315"), 6, "unexpected line in the wrk report: 'Oops'"),
    ("repeated line", replace("    Req/Sec", "    Latency 1.00ms 1.00ms 1.00ms 50.00%\n    Req/Sec"), 5,
     "repeated line in the wrk report"),
    ("no Req/Sec", replace("    Req/Sec     7.02k     1.19k    9.98k    82.10%\n", ""), 8, "the wrk report has no 'Req/Sec' line"),
    ("no requests line", replace("  698315 requests in 10.08s, 66.60MB read\n", ""), 8, "the wrk report has no 'N requests in' line"),
    ("no Requests/sec", replace("Requests/sec:  69296.64\n", ""), 8, "the wrk report has no 'Requests/sec:' line"),
    ("no Transfer/sec", replace("Transfer/sec:      6.61MB\n", ""), 8, "the wrk report ends without a 'Transfer/sec:' line"),
    ("two reports", lambda text: text + text, 12, "a second wrk report starts here"),
]


@pytest.mark.parametrize(("damage", "line_number", "reason"), [case[1:] for case in DAMAGED], ids=[case[0] for case in DAMAGED])
def test_damaged_report_names_file_and_line(damage: Callable[[str], str], line_number: int, reason: str) -> None:
    with pytest.raises(WrkParseError) as caught:
        parse_report(damage(ORIGINAL), "netty-t10-c500.txt")
    error = caught.value
    assert (error.source, error.line_number) == ("netty-t10-c500.txt", line_number)
    assert str(error).startswith(f"netty-t10-c500.txt:{line_number}: {reason}")


def test_damaged_percentile_line() -> None:
    text = read_fixture("nginx-500.txt").replace("75%  451.00us", "75%  451.00")
    with pytest.raises(WrkParseError, match=r"^nginx-500\.txt:8: cannot read latency percentile '451.00'$"):
        parse_report(text, "nginx-500.txt")


def test_damaged_non_2xx_line() -> None:
    text = read_fixture("nginx-404.txt").replace("responses: 49107", "responses: all")
    with pytest.raises(WrkParseError, match=r"^nginx-404\.txt:7: cannot read non-2xx or 3xx count line"):
        parse_report(text, "nginx-404.txt")


@pytest.mark.parametrize("text", ["", "\n\n", "me@box:~$ wrk http://127.0.0.1:8080/\nunable to connect to 127.0.0.1:8080 Connection refused\n"])
def test_text_without_report(text: str) -> None:
    with pytest.raises(WrkParseError) as caught:
        parse_report(text, "empty.txt")
    assert caught.value.line_number is None
    assert str(caught.value) == "empty.txt: no wrk report: no 'Thread Stats' line"


def test_default_source_name() -> None:
    with pytest.raises(WrkParseError, match=r"^<text>: no wrk report"):
        parse_report("nothing here")
