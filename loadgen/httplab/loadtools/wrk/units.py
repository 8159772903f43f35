"""Read the numbers wrk prints with units (see wrk's src/units.c). Pure functions.

wrk prints durations in us/ms/s (and m/h for long spans), sizes in 1024
multiples followed by "B", and counts in 1000 multiples (k, M, ...).
"""

from __future__ import annotations

import re

_NUMBER = r"(\d+(?:\.\d+)?)"

DURATION_US = {"us": 1.0, "ms": 1e3, "s": 1e6, "m": 60e6, "h": 3600e6}
BINARY_PREFIXES = {"": 1.0, "K": 1024.0, "M": 1024.0**2, "G": 1024.0**3, "T": 1024.0**4, "P": 1024.0**5}
METRIC_PREFIXES = {"": 1.0, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}

_DURATION = re.compile(_NUMBER + r"(us|ms|s|m|h)")
_SIZE = re.compile(_NUMBER + r"([KMGTP]?)B")
_METRIC = re.compile(_NUMBER + r"([kMGTP]?)")


def parse_duration_us(text: str) -> float:
    """'523.00us', '7.68ms', '2.00s', '1.50m', '1.00h' -> microseconds."""
    number, unit = _match(_DURATION, text, "duration")
    return number * DURATION_US[unit]


def parse_size_bytes(text: str) -> float:
    """'512.00B', '1.02KB', '66.60MB', '3GB' -> bytes (wrk's K is 1024)."""
    number, prefix = _match(_SIZE, text, "size")
    return number * BINARY_PREFIXES[prefix]


def parse_metric(text: str) -> float:
    """'998', '7.02k', '1.19M' -> the count (wrk's k is 1000)."""
    number, prefix = _match(_METRIC, text, "count")
    return number * METRIC_PREFIXES[prefix]


def _match(pattern: re.Pattern[str], text: str, what: str) -> tuple[float, str]:
    match = pattern.fullmatch(text.strip())
    if match is None:
        raise ValueError(f"not a wrk {what}: {text!r}")
    return float(match.group(1)), match.group(2)
