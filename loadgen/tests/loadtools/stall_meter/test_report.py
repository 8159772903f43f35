"""The stall meter's JSON read into HostStalls: percentiles from the histogram (a bucket's
top, never above the maximum), the time stalled and the meter's own cost."""

from __future__ import annotations

import pytest

from httplab.loadtools.stall_meter.report import StallReportError, host_stalls, percentile_us

from tests.stalls_sample import CLEAN, STALLED, meter_json


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
