"""done.lua run by the real wrk against a tiny server on 127.0.0.1 (1 s per run).

Some runs hand done() a stand-in for wrk's latency stats object (FAKE_STATS_LUA, built
as wrk's src/script.c and src/stats.c define it) holding a histogram of the test's
choosing, so the exact histogram and the quantile grid can be checked value by value."""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from httplab.loadtools.wrk.stats import histogram_percentile
from httplab.loadtools.wrk.done_json import parse_done_json
from httplab.loadtools.wrk.text_report import parse_report

from tests.fake_server import FakeServer, hello_answer
from tests.conftest import TESTS_DIR

DONE_LUA = TESTS_DIR.parent / "done.lua"
WRK_TIME_LIMIT_S = 30


def run_wrk(port: int, json_path: str | None, script: Path = DONE_LUA,
            **variables: str) -> subprocess.CompletedProcess[str]:
    wrk = shutil.which("wrk")
    assert wrk, "wrk is not installed"
    environment = {key: value for key, value in os.environ.items()
                   if key not in ("HTTPLAB_WRK_JSON", "HTTPLAB_HISTOGRAM_BUDGET")}
    environment.update(variables)
    if json_path is not None:
        environment["HTTPLAB_WRK_JSON"] = json_path
    command = [wrk, "-t1", "-c2", "-d1s", "--latency", "-s", str(script), f"http://127.0.0.1:{port}/"]
    return subprocess.run(command, env=environment, capture_output=True, text=True, timeout=WRK_TIME_LIMIT_S)


class QuietServer(FakeServer):
    def handle_error(self, request, client_address) -> None:
        pass  # wrk resets its open connections when it stops: not worth a traceback


@pytest.fixture(scope="module")
def server():
    with QuietServer(hello_answer) as running:
        yield running


@pytest.mark.slow
def test_writes_one_json_object_that_agrees_with_the_report(server: FakeServer, tmp_path: Path) -> None:
    json_path = tmp_path / "run.json"
    finished = run_wrk(server.port, str(json_path))
    assert finished.returncode == 0, finished.stderr
    exact = parse_done_json(json_path.read_text(), str(json_path))
    printed = parse_report(finished.stdout, "wrk stdout")
    assert exact.requests == printed.requests > 0
    assert (exact.threads, exact.url) == (1, f"http://127.0.0.1:{server.port}/")
    assert exact.latency.min_us is not None and exact.latency.percentile(99.9) is not None


@pytest.mark.slow
def test_writes_nothing_without_the_variable(server: FakeServer, tmp_path: Path) -> None:
    finished = run_wrk(server.port, None)
    assert finished.returncode == 0, finished.stderr
    assert finished.stderr == ""
    assert parse_report(finished.stdout).requests > 0


@pytest.mark.slow
def test_unwritable_path_is_reported_without_failing_wrk(server: FakeServer, tmp_path: Path) -> None:
    finished = run_wrk(server.port, str(tmp_path / "missing-folder" / "run.json"))
    assert finished.returncode == 0
    assert "done.lua: cannot write HTTPLAB_WRK_JSON" in finished.stderr
    assert parse_report(finished.stdout).requests > 0


def written(json_path: Path) -> dict:
    return json.loads(json_path.read_text())


@pytest.mark.slow
def test_writes_the_end_time_and_the_exact_histogram(server: FakeServer, tmp_path: Path) -> None:
    json_path = tmp_path / "run.json"
    finished = run_wrk(server.port, str(json_path))
    assert finished.returncode == 0, finished.stderr
    document, run = written(json_path), parse_done_json(json_path.read_text())
    assert abs(document["ended_at_us"] / 1e6 - time.time()) < 10
    assert run.started_at_s == pytest.approx(run.ended_at_s - run.duration_s)
    histogram = run.latency_histogram
    assert (histogram.exact, document["latency_histogram_rank_error_pct"]) == (True, 0)
    assert document["latency_samples"] == histogram.total > 0
    assert isinstance(document["latency_histogram_ms"], int)
    for p, value in run.latency.percentiles_us:
        assert histogram_percentile(histogram, p) == value, p
    assert (histogram.min, histogram.max) == (run.latency.min_us, run.latency.max_us)


@pytest.mark.slow
def test_a_zero_budget_writes_the_quantile_grid(server: FakeServer, tmp_path: Path) -> None:
    json_path = tmp_path / "run.json"
    finished = run_wrk(server.port, str(json_path), HTTPLAB_HISTOGRAM_BUDGET="0")
    assert finished.returncode == 0, finished.stderr
    run = parse_done_json(json_path.read_text())
    histogram = run.latency_histogram
    assert (histogram.exact, histogram.rank_error_pct) == (False, 0.1)
    assert histogram.total == run.latency_samples > 0
    assert histogram.max == run.latency.max_us
    for p, value in run.latency.percentiles_us:
        assert (value <= histogram_percentile(histogram, p)
                <= histogram_percentile(histogram, p + 0.1)), p


FAKE_STATS_LUA = r"""
dofile(os.getenv("HTTPLAB_TEST_DONE_LUA"))
local wrk_done = done
local values, counts, total = {}, {}, 0
for value, count in string.gmatch(os.getenv("HTTPLAB_TEST_HISTOGRAM"), "(%d+):(%d+)") do
   values[#values + 1], counts[#counts + 1] = tonumber(value), tonumber(count)
   total = total + tonumber(count)
end
local function percentile(_, p)
   local rank = math.floor(p / 100 * total + 0.5 + 0.5)  -- C's round(), of a positive number
   local cumulative = 0
   for i, count in ipairs(counts) do
      cumulative = cumulative + count
      if cumulative >= rank then return values[i] end
   end
   return 0
end
local stats = newproxy(true)
local meta = getmetatable(stats)
meta.__len = function() return #values end
meta.__call = function(_, i)
   if os.getenv("HTTPLAB_TEST_BROKEN") then error("broken stats") end
   return values[i], counts[i]
end
meta.__index = function(_, key)
   if key == "percentile" then return percentile end
   if key == "min" then return values[1] end
   if key == "max" then return values[#values] end
   if key == "mean" or key == "stdev" then return 1 end
end
function done(summary, latency, requests) wrk_done(summary, stats, requests) end
"""


def grid_percents() -> list[float]:
    return ([k / 10 for k in range(0, 991)] + [k / 100 for k in range(9901, 9991)]
            + [k / 1000 for k in range(99901, 100001)])


def expected_grid(histogram: list[tuple[int, int]]) -> list[list[int]]:
    """The quantile grid done.lua should write, in the same double arithmetic as LuaJIT."""
    total = sum(count for _, count in histogram)
    buckets: list[list[int]] = []
    previous = 0
    for p in grid_percents():
        rank = math.floor(total * p / 100 + 0.5)
        share, previous = rank - previous, rank
        if share > 0:
            value = histogram[-1][0] if p == 100 else fake_percentile(histogram, total, p)
            if buckets and buckets[-1][0] == value:
                buckets[-1][1] += share
            else:
                buckets.append([value, share])
    return buckets


def fake_percentile(histogram: list[tuple[int, int]], total: int, p: float) -> int:
    rank, cumulative = math.floor(p / 100 * total + 0.5 + 0.5), 0
    for value, count in histogram:
        cumulative += count
        if cumulative >= rank:
            return value
    return 0


SMALL = [(100, 7), (150, 1000), (151, 3), (900, 50), (5000, 1)]
WIDE = [(value, value * 37 % 1000 + 1) for value in range(50, 30000, 7)]  # 2,141,708 samples
ONE_VALUE = [(42, 123457)]

# (name, histogram, budget, exact)
FAKE_CASES = [
    ("small exact", SMALL, "4e9", True),
    ("small grid", SMALL, "0", False),
    ("wide grid", WIDE, "1000", False),
    ("one value grid", ONE_VALUE, "0", False),
]


def run_with_fake_stats(port: int, tmp_path: Path, histogram: list[tuple[int, int]],
                        **variables: str) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "fake_stats.lua"
    script.write_text(FAKE_STATS_LUA)
    return run_wrk(port, str(tmp_path / "run.json"), script, HTTPLAB_TEST_DONE_LUA=str(DONE_LUA),
                   HTTPLAB_TEST_HISTOGRAM=",".join(f"{v}:{c}" for v, c in histogram), **variables)


@pytest.mark.slow
@pytest.mark.parametrize(("histogram", "budget", "exact"), [case[1:] for case in FAKE_CASES],
                         ids=[case[0] for case in FAKE_CASES])
def test_histogram_from_wrks_stats_object(server: FakeServer, tmp_path: Path, histogram, budget,
                                          exact) -> None:
    """The grid needs the sample count, which wrk's Lua API lacks: done.lua finds it from
    where percentile() leaves the minimum, and must find it exactly."""
    finished = run_with_fake_stats(server.port, tmp_path, histogram, HTTPLAB_HISTOGRAM_BUDGET=budget)
    assert finished.returncode == 0, finished.stderr
    document = written(tmp_path / "run.json")
    assert document["latency_samples"] == sum(count for _, count in histogram)
    assert document["latency_histogram_exact"] is exact
    expected = [list(pair) for pair in histogram] if exact else expected_grid(histogram)
    assert document["latency_histogram"] == expected


@pytest.mark.slow
def test_a_failing_histogram_is_null_and_wrk_still_succeeds(server: FakeServer, tmp_path: Path) -> None:
    finished = run_with_fake_stats(server.port, tmp_path, SMALL, HTTPLAB_TEST_BROKEN="1")
    assert finished.returncode == 0
    assert "done.lua: cannot read the latency histogram:" in finished.stderr
    assert "broken stats" in finished.stderr
    document = written(tmp_path / "run.json")
    assert (document["latency_histogram"], document["latency_samples"]) == (None, None)
    assert document["requests"] > 0 and document["ended_at_us"] is not None
