"""Variants compared inside one run (results/variants.py): which servers pair with which
base, the figures of a bench's cells and of a latency run's servers, and the committed
PROFILE=0,1 run's profiler overhead with its intervals, checked against figures computed by
hand from its results.json."""

import json
import math
import statistics
from dataclasses import replace

import pytest

from httplab.model import StepPurpose, StepVerdict
from httplab.results.store import read_results
from httplab.results.variants import (ComparedMetric, axis_orders, variant_comparisons,
                                      variant_pairs)

from tests.profile_sample import profile_sample_result
from tests.stalls_sample import STALLED_HOST
from tests.variants_sample import PROFILE_RUN, latency_run_with_a_profiled_netty

T_975_DF2 = 4.303  # Student's t, 0.975 quantile, 2 degrees of freedom (3 rounds)


def test_profile_pairs_each_framework_with_itself_unprofiled():
    assert variant_pairs(profile_sample_result()) == [
        ("PROFILE", "netty", "netty+profiled"), ("PROFILE", "armeria", "armeria+profiled"),
        ("PROFILE", "undertow", "undertow+profiled")]


def test_the_base_is_the_axis_value_listed_first():
    result = profile_sample_result()
    flipped = replace(result, settings=replace(result.settings, profile=(True, False)))
    assert axis_orders(flipped.settings)["PROFILE"] == ("1", "0")
    assert variant_pairs(flipped)[0] == ("PROFILE", "netty+profiled", "netty")


def test_both_axes_pair_each_variant_along_each_axis_it_differs_by():
    result = profile_sample_result()
    renamed = {"armeria": "netty@default", "armeria+profiled": "netty@default+profiled"}
    cells = tuple(replace(cell, server=renamed.get(cell.server, cell.server))
                  for cell in result.cells)
    both = replace(result, cells=cells, settings=replace(
        result.settings, worker_settings=("original", "default")))
    pairs = {pair for pair in variant_pairs(both) if "netty" in pair[1]}
    assert pairs == {("PROFILE", "netty", "netty+profiled"),
                     ("SETTINGS", "netty", "netty@default"),
                     ("SETTINGS", "netty+profiled", "netty@default+profiled"),
                     ("PROFILE", "netty@default", "netty@default+profiled")}


def test_a_third_value_is_compared_with_each_value_listed_before_it():
    result = profile_sample_result()
    keys = {"netty": "netty@nio", "netty+profiled": "netty@epoll",
            "armeria": "netty@io_uring"}
    cells = tuple(replace(cell, server=keys[cell.server]) for cell in result.cells
                  if cell.server in keys)
    three = replace(result, cells=cells, settings=replace(
        result.settings, profile=(False,), transports=("nio", "epoll", "io_uring")))
    assert sorted(variant_pairs(three)) == [("TRANSPORT", "netty@epoll", "netty@io_uring"),
                                            ("TRANSPORT", "netty@nio", "netty@epoll"),
                                            ("TRANSPORT", "netty@nio", "netty@io_uring")]


def test_a_run_of_one_variant_each_has_no_pairs():
    result = profile_sample_result()
    alone = replace(result, cells=tuple(c for c in result.cells if "+" not in c.server))
    assert variant_pairs(alone) == [] and variant_comparisons(alone) == ()


def test_a_bench_compares_each_cells_rate_and_cpu_per_request():
    comparisons = variant_comparisons(profile_sample_result())
    assert [(c.framework, c.metric) for c in comparisons[:2]] == [
        ("netty", ComparedMetric.REQUESTS_PER_SEC), ("netty", ComparedMetric.CPU_PER_REQUEST)]
    rate = comparisons[0]
    assert (rate.threads, rate.connections, rate.figures.rounds) == (5, 500, 2)
    assert rate.figures.ratio == pytest.approx(66800 / 69950, rel=1e-3)
    assert not rate.figures.has_interval


def test_a_latency_run_compares_the_common_rate_cost_and_the_maximum_by_round():
    cost, maximum = variant_comparisons(latency_run_with_a_profiled_netty())
    assert (cost.metric, maximum.metric) == (ComparedMetric.COMMON_RATE_COST,
                                             ComparedMetric.MAX_SUSTAINABLE_RATE)
    assert cost.threads is None and cost.figures.rounds == 3
    assert cost.figures.ratio == pytest.approx((0.30 * 1.1 + 0.02) / 0.30, rel=1e-3)
    assert cost.figures.low > 1
    assert maximum.figures.ratio == pytest.approx(19000 / 21000, rel=1e-3)
    assert maximum.figures.high < 1


def _by_hand(cells: dict, server: str, base: str, figure) -> tuple[float, float, float]:
    """The paired estimate and the t interval on the log ratios, from the JSON alone."""
    ours = {run["round"]: figure(run, usage) for run, usage in
            zip(cells[server]["runs"], cells[server]["resources"])}
    theirs = {run["round"]: figure(run, usage) for run, usage in
              zip(cells[base]["runs"], cells[base]["resources"])}
    logs = [math.log(ours[r] / theirs[r]) for r in sorted(ours)]
    half = T_975_DF2 * statistics.stdev(logs) / math.sqrt(len(logs))
    mean = statistics.fmean(logs)
    return math.exp(mean), math.exp(mean - half), math.exp(mean + half)


def _rate(run, usage):
    return run["requests_per_sec"]


def _cpu_us(run, usage):
    return usage["cpu_seconds"] * 1e6 / run["requests"]


@pytest.mark.parametrize("framework", ["netty", "undertow"])
def test_the_committed_profile_run_gives_each_frameworks_overhead_with_its_interval(framework):
    cells = {cell["server"]: cell for cell in json.loads(PROFILE_RUN.read_text())["cells"]}
    comparisons = {c.metric: c for c in variant_comparisons(read_results(PROFILE_RUN))
                   if c.framework == framework}
    for metric, figure in ((ComparedMetric.REQUESTS_PER_SEC, _rate),
                           (ComparedMetric.CPU_PER_REQUEST, _cpu_us)):
        figures = comparisons[metric].figures
        ratio, low, high = _by_hand(cells, f"{framework}+profiled", framework, figure)
        assert figures.rounds == 3
        assert figures.ratio == pytest.approx(ratio)
        assert (figures.low, figures.high) == pytest.approx((low, high), rel=1e-3)


def test_the_committed_profile_run_says_netty_lost_requests_to_the_profiler():
    """The figures as the report quotes them: Netty's Requests/sec 0.81x (0.75 to 0.88),
    beyond the noise among the run's two comparisons of Requests/sec (q 0.017); Undertow's
    1.09x, its interval spanning 1."""
    figures = {(c.framework, c.metric): c.figures
               for c in variant_comparisons(read_results(PROFILE_RUN))}
    netty = figures["netty", ComparedMetric.REQUESTS_PER_SEC]
    undertow = figures["undertow", ComparedMetric.REQUESTS_PER_SEC]
    assert (round(netty.ratio, 3), round(netty.low, 2), round(netty.high, 2)) == (0.813, 0.75,
                                                                                  0.88)
    assert (netty.among, round(netty.q_value, 3)) == (2, 0.017)
    assert round(undertow.ratio, 3) == 1.088 and undertow.low < 1 < undertow.high


# -- rounds the host decided (issue 44): left out of the pairing, on either side ---------

def _with_host_runs(result, server: str, rounds: set[int]):
    """The run with `server`'s runs of these rounds stalled enough to be the host's."""
    cells = tuple(replace(cell, host_stalls=tuple(
        STALLED_HOST if number in rounds else None for number in cell.round_numbers))
        if cell.server == server else cell for cell in result.cells)
    return replace(result, cells=cells)


def test_a_bench_round_the_host_decided_on_either_side_is_left_out_of_the_pairing():
    result = _with_host_runs(_with_host_runs(read_results(PROFILE_RUN), "netty+profiled", {2}),
                             "netty", {3})
    figures = {c.metric: c.figures for c in variant_comparisons(result)
               if c.framework == "netty"}
    for metric in (ComparedMetric.REQUESTS_PER_SEC, ComparedMetric.CPU_PER_REQUEST):
        assert figures[metric].lost_to_host == (2, 3) and figures[metric].rounds == 1
    clean = {c.metric: c.figures for c in variant_comparisons(read_results(PROFILE_RUN))
             if c.framework == "netty"}
    assert clean[ComparedMetric.REQUESTS_PER_SEC].lost_to_host == ()
    assert clean[ComparedMetric.REQUESTS_PER_SEC].rounds == 3


def test_a_latency_round_whose_cost_step_was_the_hosts_is_left_out_of_the_pairing():
    result = latency_run_with_a_profiled_netty()
    steps = tuple(replace(one, verdict=StepVerdict.HOST)
                  if one.server == "netty+profiled" and one.purpose is StepPurpose.COST
                  and one.repeat == 2 else one for one in result.latency.steps)
    stalled = replace(result, latency=replace(result.latency, steps=steps))
    cost, maximum = variant_comparisons(stalled)
    assert cost.figures.lost_to_host == (2,) and cost.figures.rounds == 2
    assert maximum.figures.lost_to_host == (2,)  # the server's round, for both figures
    assert variant_comparisons(result)[0].figures.lost_to_host == ()
