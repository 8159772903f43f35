"""The stall meter's log-linear buckets: exact below 64 µs, then 32 per power of two."""

from __future__ import annotations

import pytest

from httplab.loadtools.stall_meter.histogram import bucket_bounds, bucket_of


@pytest.mark.parametrize("value_us, bounds", [
    (-5, (0, 0)), (0, (0, 0)), (1, (1, 1)), (63, (63, 63)),
    (64, (64, 65)), (65, (64, 65)), (127, (126, 127)), (128, (128, 131)),
    (1000, (992, 1007)), (38_123, (37_888, 38_911)), (60_000_000, (59_768_832, 60_817_407)),
])
def test_a_lateness_falls_in_the_bucket_that_holds_it(value_us, bounds):
    assert bucket_bounds(bucket_of(value_us)) == bounds


def test_buckets_are_contiguous_and_at_most_about_3_percent_wide():
    previous_high = -1
    for index in range(0, 32 * 30):
        low, high = bucket_bounds(index)
        assert low == previous_high + 1 and bucket_of(low) == bucket_of(high) == index
        assert high - low <= max(low / 32, 0)
        previous_high = high
