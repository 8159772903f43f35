"""REPEAT=auto's rule: after each round, whether the run needs another, from the variants
compared so far (results/variants.py) and the rule's settings (model.AutoRepeat). Pure.

From the third round on, a round is added while some pair's interval of the chosen figure
is wider than ±precision, up to max_repeat rounds. The rule looks at the interval's width
only, never at its verdict: stopping once a difference looks clear (or once it looks like
none) would pick the rounds that happen to agree, and the interval would no longer hold the
true ratio 95 times in 100. A pair is one compared figure (for a bench, at one cell's
workload, threads and connections); one measured on a side only has nothing to narrow and
is left out; one with too few paired rounds for an interval counts as wide."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from httplab.model import AutoRepeat, BenchResult, RunKind
from httplab.results.calibration import HostCalibration, NoiseMetric
from httplab.results.paired_ratio import MIN_ROUNDS
from httplab.results.precision import rounds_for
from httplab.results.variants import ComparedMetric, VariantComparison, variant_comparisons

# METRIC's names (bench_settings.ROUND_METRICS) -> the figure each kind of run compares.
RULED_METRICS = {
    RunKind.BENCH: {"requests_per_sec": ComparedMetric.REQUESTS_PER_SEC,
                    "cpu_per_request": ComparedMetric.CPU_PER_REQUEST},
    RunKind.LATENCY: {"requests_per_sec": ComparedMetric.MAX_SUSTAINABLE_RATE,
                      "cpu_per_request": ComparedMetric.COMMON_RATE_COST},
}


class RoundsWhy(str, Enum):
    """Why the rule goes on or stops; its value is results.json's name for it."""

    TOO_FEW = "fewer_than_min_rounds"  # go on: no interval before MIN_ROUNDS
    TOO_WIDE = "wider_than_precision"  # go on
    NARROW = "precision_reached"  # stop: every pair within ±precision
    LIMIT = "max_repeat_reached"  # stop: some pair still wider
    NO_PAIR = "no_pair_measured"  # stop: no pair measured on both sides


@dataclass(frozen=True)
class PairPrecision:
    """One pair's interval against the precision asked."""

    comparison: VariantComparison
    precision: float  # the half-width asked for, a fraction

    @property
    def half_width(self) -> float | None:
        """The half-width reached (None: too few paired rounds for an interval)."""
        return self.comparison.figures.half_width

    @property
    def narrowed(self) -> bool:
        return self.half_width is not None and self.half_width <= self.precision

    @property
    def rounds(self) -> int:
        """The paired rounds its interval took."""
        return self.comparison.figures.rounds

    @property
    def log_sd(self) -> float | None:
        """The spread of its rounds' log ratios (0.05: about 5 % from round to round)."""
        return self.comparison.figures.log_sd

    @property
    def rounds_expected(self) -> int | None:
        """The paired rounds its current spread needs for ±precision (precision.py); None:
        unknown (one paired round) or more than any run has."""
        return None if self.log_sd is None else rounds_for(self.log_sd, self.precision)


@dataclass(frozen=True)
class RoundsDecision:
    """After `rounds` rounds: go on or stop, why, and the widest pair (None: none)."""

    go_on: bool
    why: RoundsWhy
    rounds: int
    widest: PairPrecision | None


def ruled_metric(rule: AutoRepeat, kind: RunKind) -> ComparedMetric:
    return RULED_METRICS[kind][rule.metric]


def pair_precisions(comparisons: Iterable[VariantComparison], rule: AutoRepeat,
                    kind: RunKind) -> tuple[PairPrecision, ...]:
    """The pairs the rule narrows: the chosen figure's, measured on both sides."""
    metric = ruled_metric(rule, kind)
    return tuple(PairPrecision(one, rule.precision) for one in comparisons
                 if one.metric is metric and one.figures.ratio is not None)


def widest(pairs: tuple[PairPrecision, ...]) -> PairPrecision | None:
    """The pair whose interval reaches furthest; one without an interval before any."""
    return max(pairs, key=lambda pair: math.inf if pair.half_width is None else pair.half_width,
               default=None)


def next_round(comparisons: Iterable[VariantComparison], rule: AutoRepeat, kind: RunKind,
               rounds: int) -> RoundsDecision:
    """After `rounds` rounds, whether to run another."""
    pairs = pair_precisions(comparisons, rule, kind)
    found = widest(pairs)
    if rounds < MIN_ROUNDS:
        return RoundsDecision(True, RoundsWhy.TOO_FEW, rounds, found)
    if found is None:
        return RoundsDecision(False, RoundsWhy.NO_PAIR, rounds, None)
    if found.narrowed:
        return RoundsDecision(False, RoundsWhy.NARROW, rounds, found)
    if rounds >= rule.max_repeat:
        return RoundsDecision(False, RoundsWhy.LIMIT, rounds, found)
    return RoundsDecision(True, RoundsWhy.TOO_WIDE, rounds, found)


@dataclass(frozen=True)
class RoundsReached:
    """How a run of REPEAT=auto ended: its rule, the rule's answer after its last round, and
    every pair the rule narrowed, with the precision each reached."""

    rule: AutoRepeat
    decision: RoundsDecision
    pairs: tuple[PairPrecision, ...]

    @property
    def not_narrowed(self) -> tuple[PairPrecision, ...]:
        return tuple(pair for pair in self.pairs if not pair.narrowed)


def rounds_reached(result: BenchResult, comparisons: tuple[VariantComparison, ...] | None = None
                   ) -> RoundsReached | None:
    """A run's REPEAT=auto as it ended (None: a fixed REPEAT, or an older run); comparisons:
    the run's, when already made."""
    rule = result.settings.auto_repeat if result.settings else None
    if rule is None:
        return None
    comparisons = variant_comparisons(result) if comparisons is None else comparisons
    return RoundsReached(rule, next_round(comparisons, rule, result.kind, result.settings.repeat),
                         pair_precisions(comparisons, rule, result.kind))


# METRIC's names -> the figure whose noise make calibrate measured for it.
CALIBRATED_METRICS = {"requests_per_sec": NoiseMetric.REQUESTS_PER_SEC,
                      "cpu_per_request": NoiseMetric.CPU_PER_REQUEST}


@dataclass(frozen=True)
class CalibratedExpectation:
    """What the host's newest calibration says of a REPEAT=auto run before it starts: the
    spread of METRIC's figure from round to round, and the paired rounds that spread needs
    for the precision asked (None: more than a thousand)."""

    calibration: HostCalibration
    log_sd: float
    rounds: int | None


def calibrated_expectation(calibration: HostCalibration | None,
                           rule: AutoRepeat) -> CalibratedExpectation | None:
    """None without a calibration of this host that measured METRIC's figure."""
    log_sd = None if calibration is None else calibration.of(CALIBRATED_METRICS[rule.metric])
    if log_sd is None:
        return None
    return CalibratedExpectation(calibration, log_sd, rounds_for(log_sd, rule.precision))
