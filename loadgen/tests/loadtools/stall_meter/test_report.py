"""The stall meter's JSON read into HostStalls: percentiles from its HdrHistogram (a
bucket's top, never above the maximum), the time stalled and the meter's own cost; each
form of a record's lateness (HdrHistogram, exact counts, the lab's buckets of runs before)."""

from __future__ import annotations

import pytest

import json

from httplab.loadtools.hdr_latency import RELATIVE_PRECISION
from httplab.paths import DEFAULT_REPO
from httplab.loadtools.stall_meter.report import (StallReportError, host_stalls,
                                                   lateness_histogram, pooled_host_stalls,
                                                   with_hdr_histograms)

from tests.stalls_sample import CLEAN, STALLED, meter_json, per_cpu_meter_json


@pytest.mark.parametrize("lateness, p99, p999, max_us, stalled_s, share", [
    (CLEAN, 50, 200, 200, 0.0, 0.0),
    (STALLED, 38_000, 38_000, 38_000, 2.508, 0.1254),
    ([50] * 998 + [40_000] * 2, 50, 40_000, 40_000, 0.08, 0.004),
    ([2_000] * 10, 2_000, 2_000, 2_000, 0.02, 0.001),
])
def test_figures_from_synthetic_lateness(lateness, p99, p999, max_us, stalled_s, share):
    stalls = host_stalls(meter_json(lateness))
    assert stalls.p99_us == pytest.approx(p99, rel=RELATIVE_PRECISION)
    assert stalls.p999_us == pytest.approx(p999, rel=RELATIVE_PRECISION)
    assert stalls.max_us == max_us and stalls.samples == len(lateness)
    assert stalls.stalled_s == pytest.approx(stalled_s)
    assert stalls.stalled_share == pytest.approx(share)


def test_the_meter_cost_is_its_loop_cpu_over_the_time_it_ran():
    stalls = host_stalls(meter_json(CLEAN, seconds=20, loop_cpu_s=0.14))
    assert stalls.meter_cpu_s == 0.14 and stalls.covered_s == 20
    assert stalls.meter_cores == pytest.approx(0.007)


def test_a_percentile_is_its_bucket_top_capped_at_the_maximum_and_none_without_samples():
    assert host_stalls(meter_json([0] * 98 + [1500] * 2)).p99_us == 1500  # exact below 2048
    top = host_stalls(meter_json([0] * 98 + [100_000, 100_001])).p99_us
    assert 100_000 < top <= 100_000 * (1 + RELATIVE_PRECISION)  # the bucket's top
    assert host_stalls(meter_json([100_000, 100_000])).p99_us == 100_000  # capped at the max
    assert host_stalls(meter_json([])).p99_us is None


@pytest.mark.parametrize("data", [{}, {"format": 3}, {"format": 1}, {"format": 1, "max_us": 1},
                                  {"format": 2}, {"format": 2, "cpus": []},
                                  {"format": 2, "cpus": [{"format": 1}]}])
def test_what_the_meter_did_not_write_is_refused(data):
    with pytest.raises(StallReportError):
        host_stalls(data)


def at(place: str, lateness: list[int], priority: str = "SCHED_FIFO 1", **changes) -> dict:
    return {**meter_json(lateness), "place": place, "priority": priority, **changes}


def test_pooled_meters_add_their_counts_and_keep_the_largest_stall():
    host, engine = at("host", STALLED), at("load generator 1 (ssh://b)", CLEAN)
    pooled = pooled_host_stalls([host, engine])
    assert pooled.place == "host; load generator 1 (ssh://b)" and pooled.real_time
    assert pooled.samples == 4000 and pooled.max_us == 38_000
    assert pooled.covered_s == 40 and pooled.stalled_share == pytest.approx(0.1254 / 2)
    assert pooled.p99_us == pytest.approx(38_000, rel=0.04)  # 66 of 4000 stalled: 1.65 %
    assert pooled.meter_cpu_s == pytest.approx(0.2)
    assert pooled_host_stalls([host]) == host_stalls(host)


def test_an_ordinary_meter_is_left_out_of_real_time_ones_and_named():
    ordinary = at("load generator 2 (ssh://c)", STALLED, "normal ([Errno 1] refused)")
    pooled = pooled_host_stalls([at("host", CLEAN), ordinary])
    assert pooled.max_us == 200 and pooled.samples == 2000 and pooled.real_time
    assert pooled.place == ("host; not real-time, left out: load generator 2 (ssh://c): "
                            "normal ([Errno 1] refused)")


def test_meters_none_of_them_real_time_pool_as_ordinary_saying_why_each():
    pooled = pooled_host_stalls([at("host", CLEAN, "normal (a)"),
                                 at("load generator 1 (x)", STALLED, "normal (b)")])
    assert not pooled.real_time and pooled.max_us == 38_000
    assert pooled.priority == "normal (host: normal (a); load generator 1 (x): normal (b))"


@pytest.mark.parametrize("other", [
    at("g", CLEAN, interval_us=5_000), at("g", CLEAN, threshold_us=2_000),
    {key: value for key, value in at("g", CLEAN).items() if key != "lateness_us"},
    {**at("g", CLEAN), "hdr_histogram": "not one"}, {"format": 1}])
def test_meters_not_measured_alike_are_not_pooled(other):
    with pytest.raises(StallReportError):
        pooled_host_stalls([at("host", CLEAN), other])


def test_a_meter_per_cpu_keeps_each_cpus_record_and_pools_them():
    data = per_cpu_meter_json({0: CLEAN, 1: STALLED}, {0: "server", 1: "load tool"},
                              steal_s=0.25)
    stalls = host_stalls(data)
    assert stalls.cpu is None and stalls.role == "" and stalls.place == "host"
    assert stalls.samples == 4000 and stalls.max_us == 38_000 and stalls.steal_s == 0.5
    assert stalls.stalled_share == pytest.approx(0.1254 / 2)  # pooled: diluted by CPU 0
    clean, stalled = stalls.cpus
    assert (clean.cpu, clean.role, clean.max_us, clean.stalled_share) == (0, "server", 200, 0)
    assert (stalled.cpu, stalled.role, stalled.max_us) == (1, "load tool", 38_000)
    assert stalled.stalled_share == pytest.approx(0.1254) and stalled.steal_s == 0.25
    assert not stalled.cpus


def test_a_file_before_per_cpu_meters_reads_as_it_did():
    stalls = host_stalls(meter_json(STALLED))
    assert stalls.cpus == () and stalls.cpu is None and stalls.steal_s is None
    assert stalls.max_us == 38_000 and stalls.stalled_share == pytest.approx(0.1254)


def test_a_file_per_cpu_pools_with_an_engines_older_file_each_a_record_each_place_named_once():
    host = per_cpu_meter_json({0: CLEAN, 1: CLEAN}, steal_s=None)
    pooled = pooled_host_stalls([host, at("load generator 1 (ssh://b)", STALLED)])
    assert pooled.place == "host; load generator 1 (ssh://b)" and pooled.samples == 6000
    assert [record.cpu for record in pooled.cpus] == [0, 1, None] and pooled.steal_s is None
    assert pooled.cpus[2].place == "load generator 1 (ssh://b)"
    assert pooled.max_us == 38_000


def test_an_ordinary_cpus_meter_is_named_with_its_cpu():
    data = per_cpu_meter_json({0: CLEAN, 1: STALLED})
    data["cpus"][1]["priority"] = "normal (refused)"
    pooled = host_stalls(data)
    assert pooled.max_us == 200 and pooled.place == (
        "host; not real-time, left out: host CPU 1: normal (refused)")


# A record of a committed run, in the lab's buckets of runs before the HdrHistogram.
OLD_RECORD = (DEFAULT_REPO / "results" / "2026-11-27T03-52-46Z" / "raw"
              / "armeria-t10-c500-r1.stalls.json")


def test_a_record_of_old_buckets_reads_alike_once_converted_and_converts_once():
    old = json.loads(OLD_RECORD.read_text())
    converted = with_hdr_histograms(old)
    assert "histogram" not in converted and "hdr_histogram" in converted
    assert with_hdr_histograms(converted) == converted
    assert host_stalls(converted) == host_stalls(old)
    assert lateness_histogram(converted).get_total_count() == old["samples"]


def test_exact_counts_convert_to_the_same_figures():
    data = per_cpu_meter_json({0: CLEAN, 1: STALLED})
    converted = with_hdr_histograms(data)
    assert all("lateness_us" not in record for record in converted["cpus"])
    assert host_stalls(converted) == host_stalls(data)


def test_pooled_meters_equal_one_meter_of_all_their_wake_ups():
    """The library's add of two meters' histograms is the histogram of their wake-ups."""
    first, second = [50] * 500 + [3_333] * 7, [61] * 400 + [38_017] * 9 + [3_334]
    pooled = pooled_host_stalls([at("host", first), at("load generator 1", second)])
    alone = host_stalls(at("host", first + second))
    assert (pooled.p99_us, pooled.p999_us, pooled.max_us) == (
        alone.p99_us, alone.p999_us, alone.max_us)
