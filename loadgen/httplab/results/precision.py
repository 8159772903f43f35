"""How many paired rounds a comparison needs for the precision asked, from the spread of its
log ratios (paired_ratio.py's log_sd): the half-width an interval is expected to have after
n rounds, and the fewest rounds that bring it within ±precision. The rule REPEAT=auto and
make calibrate share (docs/method.md, "How many rounds"). Pure."""

from __future__ import annotations

import math

from httplab.results.paired_ratio import CONFIDENCE, MIN_ROUNDS, t_multiplier


def expected_half_width(log_sd: float, rounds: int, confidence: float = CONFIDENCE) -> float:
    """The half-width (a fraction: 0.05 is ±5 %) of the interval after `rounds` paired
    rounds whose log ratios spread by log_sd."""
    return math.exp(t_multiplier(rounds, confidence) * log_sd / math.sqrt(rounds)) - 1


def rounds_for(log_sd: float, precision: float, limit: int = 1000) -> int | None:
    """The fewest paired rounds (at least MIN_ROUNDS) whose expected half-width is within
    ±precision; None when not even `limit` rounds are."""
    for rounds in range(MIN_ROUNDS, limit + 1):
        if expected_half_width(log_sd, rounds) <= precision:
            return rounds
    return None
