"""The stall meter's histogram of lateness in whole microseconds: log-linear buckets, as
HdrHistogram's, exact below 64 µs and then 32 buckets per power of two (each bucket at most
1/32 of its value wide, about 3 %). Standard library only: the meter imports it in the wrk
image too."""

from __future__ import annotations

SUB_BUCKET_BITS = 5
SUB_BUCKETS = 1 << SUB_BUCKET_BITS  # buckets per power of two above the exact range
EXACT_BELOW = 2 * SUB_BUCKETS  # values below this have a bucket each: 0..63 µs
_SIGNIFICANT_BITS = SUB_BUCKET_BITS + 1


def bucket_of(value_us: int) -> int:
    """The bucket a lateness falls in (negative values, early wake-ups, count as 0)."""
    if value_us < EXACT_BELOW:
        return max(value_us, 0)
    shift = value_us.bit_length() - _SIGNIFICANT_BITS
    return SUB_BUCKETS * shift + (value_us >> shift)


def bucket_bounds(index: int) -> tuple[int, int]:
    """The lateness a bucket holds, lowest and highest, in µs."""
    if index < EXACT_BELOW:
        return index, index
    shift = index // SUB_BUCKETS - 1
    low = (index - SUB_BUCKETS * shift) << shift
    return low, low + (1 << shift) - 1
