"""Two variants measured in the same run, round by round (A the base, B the other): how much
B differs from A, and whether that is more than the run's noise. Pure.

The figure is the ratio of the medians, median(B) / median(A), each over its runs, as the
tables show them. Its 95 % confidence interval is taken over the rounds' paired ratios
B_r / A_r: a Student t interval on their logarithms, exponentiated,

    exp(mean(log r) ± t(0.975, n - 1) · sd(log r) / √n),   n paired rounds.

Why paired rounds: both variants ran in the same round, minutes apart, so the host's drift
between rounds (another tenant, a hotter CPU, a fuller cache) moves both and cancels in
their ratio; comparing the two sides' spreads instead would count that drift as noise.
Why logarithms: a ratio is not symmetric (0.5 and 2 are the same distance from 1), its
logarithm is, and run-to-run noise in a rate is closer to log-normal than to normal.
Why t and not a bootstrap: with the 3 to 5 rounds a run has, a bootstrap's percentile
interval resamples from at most a handful of distinct values and badly undercovers (it
is too narrow); the t interval widens with few rounds as it should, and is exact for
log-normal noise. With fewer than MIN_ROUNDS paired rounds there is no interval (two
rounds give one degree of freedom and an interval too wide to say anything).

The t quantile is computed here, without SciPy: the t distribution's CDF through the
regularized incomplete beta function (a continued fraction), inverted by bisection."""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping
from dataclasses import dataclass

CONFIDENCE = 0.95
MIN_ROUNDS = 3


@dataclass(frozen=True)
class PairedRatio:
    """B against A: the ratio of their medians (None: either side unmeasured), its
    interval (None with fewer than MIN_ROUNDS paired rounds), and the rounds paired."""

    ratio: float | None
    low: float | None
    high: float | None
    rounds: int
    confidence: float = CONFIDENCE

    @property
    def has_interval(self) -> bool:
        return self.low is not None and self.high is not None

    @property
    def rounds_needed(self) -> int:
        return MIN_ROUNDS


def paired_ratio(base: Mapping[int, float | None],
                 other: Mapping[int, float | None]) -> PairedRatio:
    """base and other: each round's figure by its round (positive; None and others are
    left out). The medians are over every round each side has; the interval over the
    rounds both have."""
    base, other = _positive(base), _positive(other)
    ratio = (statistics.median(other.values()) / statistics.median(base.values())
             if base and other else None)
    logs = [math.log(other[r] / base[r]) for r in sorted(base.keys() & other.keys())]
    if len(logs) < MIN_ROUNDS:
        return PairedRatio(ratio, None, None, len(logs))
    low, high = log_t_interval(logs)
    return PairedRatio(ratio, low, high, len(logs))


def log_t_interval(logs: list[float], confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The interval of exp(mean) from the logarithms' Student t interval."""
    n = len(logs)
    half = (t_quantile(0.5 + confidence / 2, n - 1) * statistics.stdev(logs) / math.sqrt(n))
    mean = statistics.fmean(logs)
    return math.exp(mean - half), math.exp(mean + half)


def _positive(values: Mapping[int, float | None]) -> dict[int, float]:
    return {key: value for key, value in values.items() if value is not None and value > 0}


def t_quantile(p: float, df: int) -> float:
    """The p quantile of Student's t with df degrees of freedom (0 < p < 1), by bisection
    on its CDF to about 1e-12."""
    if not 0 < p < 1 or df < 1:
        raise ValueError(f"t_quantile needs 0 < p < 1 and df >= 1; got p={p}, df={df}")
    if p < 0.5:
        return -t_quantile(1 - p, df)
    low, high = 0.0, 1.0
    while t_cdf(high, df) < p:
        low, high = high, high * 2
    while high - low > 1e-12 * max(1.0, high):
        middle = (low + high) / 2
        low, high = (middle, high) if t_cdf(middle, df) < p else (low, middle)
    return (low + high) / 2


def t_cdf(t: float, df: int) -> float:
    """P(T <= t) for Student's t with df degrees of freedom."""
    tail = 0.5 * regularized_beta(df / (df + t * t), df / 2, 0.5)
    return 1 - tail if t >= 0 else tail


def regularized_beta(x: float, a: float, b: float) -> float:
    """I_x(a, b), the regularized incomplete beta function, by its continued fraction
    (evaluated where it converges fast, by symmetry elsewhere)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(x, a, b) / a
    return 1 - front * _beta_fraction(1 - x, b, a) / b


def _beta_fraction(x: float, a: float, b: float) -> float:
    """The incomplete beta's continued fraction by the modified Lentz method."""
    tiny, c, d = 1e-300, 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 300):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return result
