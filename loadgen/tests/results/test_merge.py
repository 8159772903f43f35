"""Latency histograms merged, and runs over several load generators merged into one:
counts summed, latency from the summed histograms (by wrk's rules: loadtools/wrk/test_stats.py),
Requests/sec over the common window."""

from __future__ import annotations

import statistics
from dataclasses import replace
from pathlib import Path

import pytest

from httplab.loadtools.wrk.stats import (histogram_mean, histogram_percentile, histogram_stdev,
                                         wrk_percentile_rank)
from httplab.model import CellStatus, Latency, LatencyHistogram, SocketErrors, WrkRun
from httplab.outcomes import CellOutcome, GeneratorOutcome
from httplab.results.collect import cell_from_outcomes
from httplab.results.merge import merge_generator_runs, pooled_latency
from httplab.loadtools.wrk.done_json import parse_done_json
from tests.loadtools.wrk.test_stats import FOUR

from tests.conftest import FIXTURES

HISTOGRAMS = FIXTURES / "generators"


def test_merged_histograms_sum_their_counts_and_keep_the_worst_rank_error() -> None:
    grid = LatencyHistogram(((20, 5), (50, 1)), exact=False, rank_error_pct=0.1)
    merged = LatencyHistogram.merged([FOUR, grid])
    assert merged == LatencyHistogram(((10, 1), (20, 6), (30, 1), (40, 1), (50, 1)), False, 0.1)
    assert LatencyHistogram.merged([FOUR, FOUR]).exact


def samples_of(histogram: LatencyHistogram) -> list[int]:
    return [value for value, count in histogram.buckets for _ in range(count)]


def test_merged_p99_is_the_pooled_samples_p99_not_the_average_of_p99s() -> None:
    """A fast generator with many samples and a slow one with few: averaging their p99s
    says 26 ms, while 99 % of all requests took at most 2 ms."""
    fast = LatencyHistogram(((1000, 99000), (2000, 1000)))
    slow = LatencyHistogram(((50000, 1000),))
    merged = LatencyHistogram.merged([fast, slow])
    pooled = sorted(samples_of(fast) + samples_of(slow))
    assert histogram_percentile(merged, 99) == pooled[wrk_percentile_rank(99, len(pooled)) - 1] == 2000
    assert (histogram_percentile(fast, 99) + histogram_percentile(slow, 99)) / 2 == 26000
    assert histogram_mean(merged) == pytest.approx(statistics.fmean(pooled))
    assert histogram_stdev(merged) == pytest.approx(statistics.stdev(pooled))


def fixture_run(name: str, engine: str | None = None) -> WrkRun:
    run = parse_done_json((HISTOGRAMS / name).read_text(), name)
    return replace(run, engine=engine, connections=25)


@pytest.fixture
def pair() -> list[WrkRun]:
    """Two wrk runs against one Undertow at once, the second started 0.2 s later."""
    return [fixture_run("undertow-t2-c50.g1.json", "ssh://a"),
            fixture_run("undertow-t2-c50.g2.json", "ssh://b")]


def test_counts_add_up(pair: list[WrkRun]) -> None:
    merged = merge_generator_runs(pair)
    assert (merged.requests, merged.bytes_read) == (7594 + 6963, sum(r.bytes_read for r in pair))
    assert (merged.threads, merged.connections, merged.url) == (2, 50, "http://127.0.0.1:18480/")
    assert (merged.generators, merged.thread_requests_per_sec) == (tuple(pair), None)
    assert [run.engine for run in merged.generators] == ["ssh://a", "ssh://b"]


def test_requests_per_sec_is_over_the_window_in_which_all_ran(pair: list[WrkRun]) -> None:
    first, second = pair
    merged = merge_generator_runs(pair)
    latest_start = second.started_at_s
    assert merged.duration_s == pytest.approx(first.ended_at_s - latest_start) == pytest.approx(1.801, abs=1e-3)
    assert merged.start_skew_s == pytest.approx(latest_start - first.started_at_s) == pytest.approx(0.221, abs=1e-3)
    assert (merged.ended_at_s, merged.started_at_s) == (first.ended_at_s, pytest.approx(latest_start))
    assert merged.requests_per_sec == merged.requests / merged.duration_s
    assert merged.transfer_per_sec == merged.bytes_read / merged.duration_s
    assert merged.notes == ()


def test_latency_comes_from_the_summed_histograms(pair: list[WrkRun]) -> None:
    merged = merge_generator_runs(pair)
    summed = LatencyHistogram.merged(run.latency_histogram for run in pair)
    assert merged.latency_histogram == summed
    assert (merged.latency_samples, merged.latency_histogram_exact) == (9476 + 8687, True)
    assert merged.latency.percentiles_us == tuple((p, histogram_percentile(summed, p)) for p in (50, 75, 90, 99, 99.9))
    assert (merged.latency.min_us, merged.latency.max_us) == (130, 140477)
    # wrk's own figures pooled by sample count give the same mean and stdev
    pooled = pooled_latency(pair, ())
    assert merged.latency.mean_us == pytest.approx(pooled.mean_us, rel=1e-12)
    assert merged.latency.stdev_us == pytest.approx(pooled.stdev_us, rel=1e-9)


def test_errors_and_non_2xx_add_up(pair: list[WrkRun]) -> None:
    first, second = pair
    runs = [replace(first, errors=SocketErrors(1, 2, 3, 4), non_2xx_3xx=5),
            replace(second, errors=SocketErrors(10, 20, 30, 40), non_2xx_3xx=50)]
    merged = merge_generator_runs(runs)
    assert (merged.errors, merged.non_2xx_3xx) == (SocketErrors(11, 22, 33, 44), 55)


def test_without_an_end_time_the_window_is_the_longest_run_and_skew_unknown(pair) -> None:
    first, second = pair
    merged = merge_generator_runs([first, replace(second, ended_at_s=None)])
    assert (merged.duration_s, merged.start_skew_s, merged.ended_at_s) == (second.duration_s, None, None)
    assert merged.requests_per_sec == merged.requests / second.duration_s
    assert merged.notes == ("generator 2 (ssh://b) wrote no end time: Requests/sec is over the "
                            "longest run (2.11 s) and the generators' start skew is unknown",)


def test_runs_that_never_overlapped_say_so(pair: list[WrkRun]) -> None:
    first, second = pair
    later = replace(second, ended_at_s=second.ended_at_s + 100)
    merged = merge_generator_runs([first, later])
    assert merged.duration_s == second.duration_s
    assert merged.start_skew_s == pytest.approx(100.221, abs=1e-3)
    assert merged.notes[0].startswith("the generators' runs did not overlap (they started 100.22 s apart)")


def test_without_every_histogram_latency_is_unknown_and_noted(pair: list[WrkRun]) -> None:
    first, second = pair
    merged = merge_generator_runs([first, replace(second, latency_histogram=None)])
    assert merged.latency == Latency(mean_us=None, stdev_us=None, max_us=None, min_us=None)
    assert (merged.latency_histogram, merged.latency_samples) == (None, None)
    assert merged.notes == ("latency unknown: generator 2 (ssh://b) wrote no latency histogram (an "
                            "older done.lua, or only wrk's printed report), and percentiles cannot "
                            "be averaged",)


def test_a_quantile_grid_makes_the_merge_inexact_with_moments_from_wrk(pair: list[WrkRun]) -> None:
    grid = fixture_run("netty-t5-c500-grid.json")
    merged = merge_generator_runs([pair[0], grid])
    assert (merged.latency_histogram.exact, merged.latency_histogram.rank_error_pct) == (False, 0.1)
    assert merged.latency_histogram_exact is False
    runs = (pair[0], grid)
    total = sum(run.latency_samples for run in runs)
    assert merged.latency.mean_us == pytest.approx(
        sum(run.latency_samples * run.latency.mean_us for run in runs) / total)
    assert merged.latency.min_us == min(run.latency.min_us for run in runs)
    assert merged.latency.max_us == max(run.latency.max_us for run in runs)


def test_no_runs_is_an_error() -> None:
    with pytest.raises(ValueError):
        merge_generator_runs([])


def generator(index: int, engine: str, failure: str | None = None) -> GeneratorOutcome:
    stem = HISTOGRAMS / f"undertow-t2-c50.g{index}"
    return GeneratorOutcome(index, engine, 1, 25, stem.with_name(stem.name + ".txt"),
                            stem.with_name(stem.name + ".json"), failure)


def spread_outcome(*generators: GeneratorOutcome, failure: str | None = None) -> CellOutcome:
    return CellOutcome("undertow", 2, 50, failure=failure, generators=generators)


def test_collect_merges_the_generators_of_a_run() -> None:
    cell = cell_from_outcomes([spread_outcome(generator(1, "ssh://a"), generator(2, "ssh://b"))])
    assert (cell.status, cell.reason) == (CellStatus.OK, None)
    (run,) = cell.runs
    assert run.requests == 7594 + 6963
    assert [(g.engine, g.connections, g.threads) for g in run.generators] == [
        ("ssh://a", 25, 1), ("ssh://b", 25, 1)]


# (what failed, the outcome, the cell's reason)
FAILED_GENERATORS = [
    ("wrk failed", spread_outcome(generator(1, "ssh://a"), generator(2, "ssh://b", "wrk on ssh://b exited with 1: boom")),
     "generator 2 (ssh://b): wrk on ssh://b exited with 1: boom"),
    ("server stopped", spread_outcome(generator(1, "ssh://a"), generator(2, "ssh://b"), failure="server exited"),
     "server exited"),
    ("no output", spread_outcome(generator(1, "ssh://a"), replace(generator(2, "ssh://b"), text_path=None, json_path=None)),
     "generator 2 (ssh://b): no wrk output at None"),
]


def test_a_generator_that_completed_no_request_fails_the_run(tmp_path: Path) -> None:
    (tmp_path / "g2.txt").write_text((FIXTURES / "wrk" / "reset-read-errors.txt").read_text())
    silent = replace(generator(2, "ssh://b"), text_path=tmp_path / "g2.txt", json_path=None)
    cell = cell_from_outcomes([spread_outcome(generator(1, "ssh://a"), silent)])
    assert cell.status is CellStatus.FAILED
    assert cell.reason.startswith("generator 2 (ssh://b): no request completed in 1.00 s (socket errors: "
                                  "connect 0, read 2492")
    (run,) = cell.runs
    assert (run.requests, run.errors.read) == (7594, 2492)


@pytest.mark.parametrize(("outcome", "reason"), [case[1:] for case in FAILED_GENERATORS],
                         ids=[case[0] for case in FAILED_GENERATORS])
def test_a_failed_generator_fails_the_run_naming_it_and_keeps_every_figure(outcome, reason) -> None:
    cell = cell_from_outcomes([outcome])
    assert (cell.status, cell.reason) == (CellStatus.FAILED, reason)
    (run,) = cell.runs
    readable = [g for g in outcome.generators if g.text_path is not None]
    assert len(run.generators) == len(readable)
    assert run.requests == sum(g.requests for g in run.generators) > 0


def test_a_run_with_no_readable_generator_keeps_no_figures() -> None:
    nothing = replace(generator(1, "ssh://a", "cannot create wrk on ssh://a: no such host"),
                      text_path=None, json_path=None)
    cell = cell_from_outcomes([spread_outcome(nothing)])
    assert (cell.status, cell.runs) == (CellStatus.FAILED, ())
    assert cell.reason == "generator 1 (ssh://a): cannot create wrk on ssh://a: no such host"


def with_skew(run: WrkRun, skew_s: float | None, window_s: float = 10.0) -> WrkRun:
    return replace(run, start_skew_s=skew_s, duration_s=window_s)


# (case, the runs' start skews in s over a 10 s window, warned)
SKEWS = [
    ("one machine", [None], False),
    ("within 1 %", [0.05, 0.1], False),
    ("above 1 %", [0.05, 0.25], True),
]


@pytest.mark.parametrize(("skews", "warned"), [case[1:] for case in SKEWS], ids=[case[0] for case in SKEWS])
def test_a_start_skew_above_1_percent_of_the_window_is_warned_once(pair, skews, warned) -> None:
    from httplab.model import Cell
    from httplab.results.stability import skewed_warning

    merged = merge_generator_runs(pair)
    cell = Cell("undertow", 2, 50, CellStatus.OK, tuple(with_skew(merged, skew) for skew in skews))
    skewed = skewed_warning(cell, "Undertow")
    if not warned:
        assert skewed is None
        return
    warning = skewed.text
    assert warning.startswith("Undertow t2 c50: the 2 load generators started 0.250 s apart, 2.5% "
                              "of the 10.00 s window in which all of them ran (threshold 1%)")
    assert "check that the generators' clocks agree" in warning and "SSH" in warning
