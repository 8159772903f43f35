"""The stall meter's JSON read into HostStalls: percentiles from the histogram (a bucket's
top, never above the maximum), the time stalled and the meter's own cost."""

from __future__ import annotations

import pytest

from httplab.loadtools.stall_meter.histogram import bucket_bounds, bucket_of
from httplab.loadtools.stall_meter.report import StallReportError, host_stalls, percentile_us


def meter_json(lateness_us: list[int], threshold_us: int = 1000, seconds: float = 20.0,
               loop_cpu_s: float = 0.1) -> dict:
    """What the meter would write after waking with these lateness values."""
    counts: dict[int, int] = {}
    for value in lateness_us:
        counts[bucket_of(value)] = counts.get(bucket_of(value), 0) + 1
    stalls = [value for value in lateness_us if value >= threshold_us]
    return {"format": 1, "interval_us": 5000, "threshold_us": threshold_us,
            "samples": len(lateness_us), "max_us": max(lateness_us, default=0),
            "stalls": len(stalls), "stalled_us": sum(stalls),
            "histogram": {"sub_bucket_bits": 5, "buckets": [
                [*bucket_bounds(index), counts[index]] for index in sorted(counts)]},
            "started": {"monotonic_s": 100.0, "wall_s": 1.7e9},
            "ended": {"monotonic_s": 100.0 + seconds, "wall_s": 1.7e9 + seconds},
            "stopped_by": "SIGTERM", "cpu_s": loop_cpu_s + 0.06, "loop_cpu_s": loop_cpu_s}


CLEAN = [50] * 3990 + [200] * 10  # 4000 wake-ups, none a stall
# 4000 wake-ups of 20 s; every 300 ms one 38 ms late (66 of them), as a busy loop makes
STALLED = [50] * 3934 + [38_000] * 66


@pytest.mark.parametrize("lateness, p99, p999, max_us, stalled_s, share", [
    (CLEAN, 50, 200, 200, 0.0, 0.0),
    (STALLED, 38_000, 38_000, 38_000, 2.508, 0.1254),
    ([50] * 999 + [40_000], 50, 40_000, 40_000, 0.04, 0.002),
    ([2_000] * 10, 2_000, 2_000, 2_000, 0.02, 0.001),
])
def test_figures_from_synthetic_lateness(lateness, p99, p999, max_us, stalled_s, share):
    stalls = host_stalls(meter_json(lateness))
    assert stalls.p99_us == pytest.approx(p99, rel=0.04)
    assert stalls.p999_us == pytest.approx(p999, rel=0.04)
    assert stalls.max_us == max_us and stalls.samples == len(lateness)
    assert stalls.stalled_s == pytest.approx(stalled_s)
    assert stalls.stalled_share == pytest.approx(share)


def test_the_meter_cost_is_its_loop_cpu_over_the_time_it_ran():
    stalls = host_stalls(meter_json(CLEAN, seconds=20, loop_cpu_s=0.14))
    assert stalls.meter_cpu_s == 0.14 and stalls.covered_s == 20
    assert stalls.meter_cores == pytest.approx(0.007)


def test_a_percentile_is_its_bucket_top_and_none_without_samples():
    assert percentile_us([], 99) is None
    assert percentile_us([[0, 0, 98], [992, 1007, 2]], 99) == 1007
    assert host_stalls(meter_json([1001, 1001])).p99_us == 1001  # capped at the maximum


@pytest.mark.parametrize("data", [{}, {"format": 2}, {"format": 1}, {"format": 1, "max_us": 1}])
def test_what_the_meter_did_not_write_is_refused(data):
    with pytest.raises(StallReportError):
        host_stalls(data)
