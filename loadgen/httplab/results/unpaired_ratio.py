"""Two separate runs of the same figure (base and new, each with its own runs): how much new
differs from base, and whether that is more than the two runs' noise. Pure.

Two runs have no rounds in common to pair, so each side's runs stand alone, on the log scale
(b_i = log base_i, n_i = log new_j):

    estimate   exp(mean(n) - mean(b))                   the ratio of the geometric means
    se         √(var(b) / n_b + var(n) / n_n)           unequal variances, sample variances
    df         se⁴ / ((var(b)/n_b)² / (n_b - 1) + (var(n)/n_n)² / (n_n - 1))
    interval   exp(mean(n) - mean(b) ± t(0.975, df) · se)
    p-value    Welch's t test's, two-sided, of mean(n) = mean(b)

(Welch's interval, the degrees of freedom Welch and Satterthwaite's), so the estimate is its
interval's centre on the log scale and the interval holds 1 exactly when p ≥ 0.05. Unlike the
paired ratio of one run (paired_ratio.py), nothing cancels the host's drift between the two
runs: it stays in each side's spread and widens the interval. The logarithms for the reasons
paired_ratio.py gives. With fewer than MIN_RUNS runs on either side there is no interval and
no p-value: one run says nothing of its spread. A figure of 0 or less (a round in which no
rate held) has no logarithm, so it gets no estimate at all. The t distribution is SciPy's."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, replace

from scipy.stats import t as student_t

from httplab.results.paired_ratio import CONFIDENCE

MIN_RUNS = 2  # on each side


@dataclass(frozen=True)
class UnpairedRatio:
    """new against base: the estimate (None: a figure of 0 or less), its interval and p-value
    (None with fewer than MIN_RUNS runs on a side), and the q-value the other comparisons of
    the same figure give it (None until counted)."""

    ratio: float | None
    low: float | None
    high: float | None
    base_runs: int
    new_runs: int
    p_value: float | None = None
    degrees_of_freedom: float | None = None
    q_value: float | None = None
    among: int | None = None  # the comparisons its q-value was counted among
    confidence: float = CONFIDENCE

    @property
    def has_interval(self) -> bool:
        return self.low is not None and self.high is not None

    def counted(self, q_value: float | None, among: int) -> UnpairedRatio:
        """The same figures with the q-value `among` comparisons gave it."""
        return replace(self, q_value=q_value, among=among)


def unpaired_ratio(base: Sequence[float], new: Sequence[float]) -> UnpairedRatio:
    """base and new: each run's figure (at least one on each side)."""
    runs = {"base_runs": len(base), "new_runs": len(new)}
    if min(*base, *new) <= 0:
        return UnpairedRatio(None, None, None, **runs)
    base_logs, new_logs = [math.log(value) for value in base], [math.log(value) for value in new]
    difference = statistics.fmean(new_logs) - statistics.fmean(base_logs)
    if min(len(base), len(new)) < MIN_RUNS:
        return UnpairedRatio(math.exp(difference), None, None, **runs)
    se, df = welch_error(base_logs, new_logs)
    if se == 0:  # every run of both sides agrees exactly
        return UnpairedRatio(math.exp(difference), math.exp(difference), math.exp(difference),
                             p_value=1.0 if difference == 0 else 0.0, **runs)
    half = float(student_t.ppf(0.5 + CONFIDENCE / 2, df)) * se
    return UnpairedRatio(math.exp(difference), math.exp(difference - half),
                         math.exp(difference + half),
                         p_value=float(2 * student_t.sf(abs(difference) / se, df)),
                         degrees_of_freedom=df, **runs)


def welch_error(base_logs: Sequence[float], new_logs: Sequence[float]) -> tuple[float, float]:
    """The standard error of the difference of the means, and its Welch-Satterthwaite degrees
    of freedom (any positive number; those of the varying side when the other agrees)."""
    shares = [_variance(logs) / len(logs) for logs in (base_logs, new_logs)]
    variance = sum(shares)
    if variance == 0:
        return 0.0, math.inf
    df = variance ** 2 / sum(share ** 2 / (len(logs) - 1)
                             for share, logs in zip(shares, (base_logs, new_logs)))
    return math.sqrt(variance), df


def _variance(logs: Sequence[float]) -> float:
    """The sample variance, in floats (statistics.variance's exact sums are slow)."""
    mean = statistics.fmean(logs)
    return sum((value - mean) ** 2 for value in logs) / (len(logs) - 1)
