"""make pairing-study's statistics: what an A/A of one server says of two designs of a
paired comparison, and which one reaches a precision in fewer minutes of load. Pure.

Whole rounds: each round starts, primes, warms and measures both sides; its log ratio
x_r = log(B_r / A_r), and the interval of n rounds is results/paired_ratio.py's t interval
(precision.py says how many rounds a spread needs).

Alternating pairs: both sides started once per start and warmed once, then P pairs of
short runs in A B B A order, each pair's log ratio x_sp. A start's luck (where each JVM
happened to land) is shared by its pairs, so the pairs are not independent samples: a
one-way random-effects model, x_sp = μ + b_s + w_sp, splits their spread into the pairs'
own σ_w and the starts' σ_b:

    MSW = Σ (x_sp − x̄_s)² / (S (P − 1))        MSB = P Σ (x̄_s − x̄)² / (S − 1)
    σ_w² = MSW                                   σ_b² = max(0, (MSB − MSW) / P)

σ_b's one-sided 95 % upper bound: (S − 1) MSB / (σ_w² + P σ_b²) is χ² with S − 1 degrees of
freedom, so σ_w² + P σ_b² is at most (S − 1) MSB / χ²₀.₀₅(S − 1), and σ_b² at most that less
MSW, over P (MSW, on S (P − 1) degrees of freedom, taken as known).

A later comparison run with S starts of P pairs averages each start's pairs, and its
interval is the t interval over the S start means, whose spread is √(σ_b² + σ_w² / P):
t(0.975, S − 1) · √((σ_b² + σ_w² / P) / S). Its cost is S · (fixed seconds per start +
P · seconds per pair); the best P is the one that costs least."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from scipy.stats import chi2

from httplab.results.paired_ratio import CONFIDENCE, MIN_ROUNDS, t_multiplier
from httplab.results.precision import rounds_for

UPPER_BOUND_CONFIDENCE = 0.95  # one-sided, for σ_b
PRECISIONS = (0.05, 0.10)  # the half-widths the study prices: ±5 % and ±10 %
MAX_PAIRS_PER_START = 60  # the pairs per start the cost search tries, at most
MAX_STARTS = 1000  # a design needing more starts than this is out of reach


@dataclass(frozen=True)
class RandomEffects:
    """The alternating design's pairs split into their own spread and the starts' luck."""

    starts: int
    pairs: int  # per start
    msb: float
    msw: float
    sigma_w: float
    sigma_b: float
    sigma_b_upper: float  # one-sided UPPER_BOUND_CONFIDENCE upper bound of sigma_b


@dataclass(frozen=True)
class Cost:
    """What a design needs for one precision: its starts (a whole round is a start of one
    pair), its pairs per start, and the seconds of load they take."""

    starts: int
    pairs: int
    seconds: float

    @property
    def minutes(self) -> float:
        return self.seconds / 60


def log_ratios(base: Sequence[float], other: Sequence[float]) -> tuple[float, ...]:
    """log(B / A) of each pair of positive figures, in order."""
    if len(base) != len(other) or any(value <= 0 for value in (*base, *other)):
        raise ValueError("log ratios need as many positive figures on each side")
    return tuple(math.log(b / a) for a, b in zip(base, other))


def whole_round_sd(logs: Sequence[float]) -> float:
    """The paired SD of the whole rounds' log ratios (at least two rounds)."""
    if len(logs) < 2:
        raise ValueError("a spread needs two rounds or more")
    return statistics.stdev(logs)


def random_effects(groups: Sequence[Sequence[float]]) -> RandomEffects:
    """The one-way random-effects split of the log ratios, one group per start, each with
    the same number of pairs (at least two starts of two pairs)."""
    starts, pairs = len(groups), len(groups[0]) if groups else 0
    if starts < 2 or pairs < 2 or any(len(group) != pairs for group in groups):
        raise ValueError("the split needs two starts or more, each of the same two pairs or more")
    means = [statistics.fmean(group) for group in groups]
    grand = statistics.fmean(means)
    msw = sum((x - mean) ** 2 for group, mean in zip(groups, means)
              for x in group) / (starts * (pairs - 1))
    msb = pairs * sum((mean - grand) ** 2 for mean in means) / (starts - 1)
    return RandomEffects(starts, pairs, msb, msw, math.sqrt(msw),
                         math.sqrt(max(0.0, (msb - msw) / pairs)),
                         sigma_b_upper(msb, msw, starts, pairs))


def sigma_b_upper(msb: float, msw: float, starts: int, pairs: int,
                  confidence: float = UPPER_BOUND_CONFIDENCE) -> float:
    """σ_b's one-sided upper bound from χ² with starts − 1 degrees of freedom."""
    degrees = starts - 1
    between_upper = degrees * msb / float(chi2.ppf(1 - confidence, degrees))
    return math.sqrt(max(0.0, (between_upper - msw) / pairs))


def alternating_half_width(sigma_w: float, sigma_b: float, starts: int, pairs: int,
                           confidence: float = CONFIDENCE) -> float:
    """The expected half-width (0.05: ±5 %) of the interval over `starts` start means of
    `pairs` pairs each."""
    spread = math.sqrt(sigma_b ** 2 + sigma_w ** 2 / pairs)
    return math.exp(t_multiplier(starts, confidence) * spread / math.sqrt(starts)) - 1


def whole_round_cost(log_sd: float, round_s: float, precision: float) -> Cost | None:
    """The rounds the whole-round spread needs for ±precision, and their seconds; None
    when out of reach."""
    rounds = rounds_for(log_sd, precision, MAX_STARTS)
    return None if rounds is None else Cost(rounds, 1, rounds * round_s)


def alternating_cost(sigma_w: float, sigma_b: float, start_s: float, pair_s: float,
                     precision: float) -> Cost | None:
    """The cheapest starts and pairs per start reaching ±precision; None when none does."""
    costs = [cost for pairs in range(1, MAX_PAIRS_PER_START + 1)
             if (cost := _cost_at(sigma_w, sigma_b, start_s, pair_s, precision, pairs))]
    return min(costs, key=lambda cost: cost.seconds, default=None)


def _cost_at(sigma_w: float, sigma_b: float, start_s: float, pair_s: float,
             precision: float, pairs: int) -> Cost | None:
    """The fewest starts (at least MIN_ROUNDS) of `pairs` pairs reaching ±precision."""
    for starts in range(MIN_ROUNDS, MAX_STARTS + 1):
        if alternating_half_width(sigma_w, sigma_b, starts, pairs) <= precision:
            return Cost(starts, pairs, starts * (start_s + pairs * pair_s))
    return None


@dataclass(frozen=True)
class Verdict:
    """One precision: each design's cost (None: out of reach), alternating's at σ_b's
    upper bound too, and whether alternating pairs are cheaper even there."""

    precision: float
    whole: Cost | None
    alternating: Cost | None
    alternating_at_upper: Cost | None

    @property
    def alternating_cheaper(self) -> bool:
        """Cheaper at σ_b's estimate AND at its upper bound; a design out of reach is
        never cheaper, and always dearer."""
        return all(_cheaper(cost, self.whole)
                   for cost in (self.alternating, self.alternating_at_upper))


def _cheaper(cost: Cost | None, than: Cost | None) -> bool:
    if cost is None:
        return False
    return than is None or cost.seconds < than.seconds


def verdict(log_sd: float, round_s: float, effects: RandomEffects, start_s: float,
            pair_s: float, precision: float) -> Verdict:
    """Both designs priced at one precision from what the study measured."""
    return Verdict(precision, whole_round_cost(log_sd, round_s, precision),
                   alternating_cost(effects.sigma_w, effects.sigma_b, start_s, pair_s,
                                    precision),
                   alternating_cost(effects.sigma_w, effects.sigma_b_upper, start_s, pair_s,
                                    precision))
