"""Two variants measured in the same run, round by round (A the base, B the other): how much
B differs from A, and whether that is more than the run's noise. Pure.

Everything is taken over the paired rounds, the rounds both sides measured (less those the
host decided, `left_out`), from their log ratios x_r = log(B_r / A_r):

    estimate   exp(mean(x))                                   the geometric mean ratio
    interval   exp(mean(x) ± t(0.975, n - 1) · sd(x) / √n)    n paired rounds
    p-value    the paired t test's, two-sided, of mean(x) = 0

so the estimate is always its interval's centre (on the log scale), and the interval holds 1
exactly when p ≥ 0.05. A round only one side has is listed (`unpaired`) and never enters
the ratio; each side's own median stays in the tables as a figure of its own.

Why paired rounds: both variants ran in the same round, minutes apart, so the host's drift
between rounds (another tenant, a hotter CPU, a fuller cache) moves both and cancels in
their ratio; comparing the two sides' spreads instead would count that drift as noise.
Why logarithms: a ratio is not symmetric (0.5 and 2 are the same distance from 1), its
logarithm is, and run-to-run noise in a rate is closer to log-normal than to normal.
Why t and not a bootstrap: with the 3 to 10 rounds a run has, a bootstrap's percentile
interval resamples from a handful of distinct values and undercovers (it is too narrow);
the t interval widens with few rounds as it should, and is exact for log-normal noise.
With fewer than MIN_ROUNDS paired rounds there is no interval and no p-value (two rounds
give one degree of freedom and an interval too wide to say anything). The t distribution
is SciPy's."""

from __future__ import annotations

import math
import statistics
from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from functools import cache

from scipy.stats import t as student_t

CONFIDENCE = 0.95
MIN_ROUNDS = 3


@dataclass(frozen=True)
class PairedRatio:
    """B against A over their paired rounds: the estimate (None: no round paired), its
    interval and p-value (None with fewer than MIN_ROUNDS paired rounds), and the q-value
    the run's other comparisons of the same figure give it (results/false_discovery.py;
    None until counted, or without a p-value)."""

    ratio: float | None
    low: float | None
    high: float | None
    rounds: int
    confidence: float = CONFIDENCE
    p_value: float | None = None
    q_value: float | None = None
    among: int | None = None  # the comparisons its q-value was counted among
    log_sd: float | None = None  # of the paired log ratios; None with fewer than 2
    unpaired: tuple[int, ...] = ()  # rounds only one side measured
    lost_to_host: tuple[int, ...] = ()  # rounds the host decided, left out of the pairing

    @property
    def has_interval(self) -> bool:
        return self.low is not None and self.high is not None

    @property
    def rounds_needed(self) -> int:
        return MIN_ROUNDS

    @property
    def half_width(self) -> float | None:
        """How far the interval reaches from the estimate, as a fraction of it: 0.05 is
        ±5 % (its upper end over the estimate, less 1; the lower end is as far in log)."""
        return None if not self.has_interval else self.high / self.ratio - 1

    def counted(self, q_value: float | None, among: int) -> PairedRatio:
        """The same figures with the q-value `among` comparisons gave it."""
        return replace(self, q_value=q_value, among=among)


def paired_ratio(base: Mapping[int, float | None], other: Mapping[int, float | None],
                 left_out: Collection[int] = ()) -> PairedRatio:
    """base and other: each round's figure by its round (positive; None and others are
    left out); left_out: rounds the host decided, never paired."""
    base, other = _positive(base), _positive(other)
    both = base.keys() & other.keys()
    lost = tuple(sorted(both & set(left_out)))
    paired = sorted(both - set(lost))
    unpaired = tuple(sorted((base.keys() ^ other.keys())))
    logs = [math.log(other[r] / base[r]) for r in paired]
    found = {"unpaired": unpaired, "lost_to_host": lost}
    if not logs:
        return PairedRatio(None, None, None, 0, **found)
    estimate = math.exp(statistics.fmean(logs))
    if len(logs) < MIN_ROUNDS:
        return PairedRatio(estimate, None, None, len(logs), log_sd=_sd(logs), **found)
    low, high = log_t_interval(logs)
    return PairedRatio(estimate, low, high, len(logs), p_value=paired_p_value(logs),
                       log_sd=_sd(logs), **found)


def log_t_interval(logs: list[float], confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The interval of exp(mean) from the logarithms' Student t interval."""
    half = t_multiplier(len(logs), confidence) * statistics.stdev(logs) / math.sqrt(len(logs))
    mean = statistics.fmean(logs)
    return math.exp(mean - half), math.exp(mean + half)


def paired_p_value(logs: list[float]) -> float:
    """The two-sided p-value of the paired t test that the mean log ratio is 0 (rounds that
    all agree exactly: 1 when they agree on no difference, else 0)."""
    mean, sd = statistics.fmean(logs), statistics.stdev(logs)
    if sd == 0:
        return 1.0 if mean == 0 else 0.0
    statistic = mean / (sd / math.sqrt(len(logs)))
    return float(2 * student_t.sf(abs(statistic), len(logs) - 1))


@cache
def t_multiplier(rounds: int, confidence: float = CONFIDENCE) -> float:
    """Student t's two-sided quantile for `rounds` paired rounds: 4.30 for 3, 2.78 for 5."""
    return float(student_t.ppf(0.5 + confidence / 2, rounds - 1))


def _sd(logs: list[float]) -> float | None:
    return statistics.stdev(logs) if len(logs) > 1 else None


def _positive(values: Mapping[int, float | None]) -> dict[int, float]:
    return {key: value for key, value in values.items() if value is not None and value > 0}
