"""A difference between two variants (or two runs) in one sentence: "B is 12 % faster (6 to
18 %)", "B costs 12 % more CPU per request (4 to 21 %)", or "no difference detectable at
this noise: the interval spans -9 to +14 %"; with too few rounds, how many are needed.
The figure is the ratio of the medians; the range in brackets is the interval (or, for
make compare, the range its rule judged by). A difference is stated only when the range
lies wholly on the figure's side of 1. Pure."""

from __future__ import annotations

from httplab.model import BenchResult
from httplab.presentation.wording.formatting import MISSING
from httplab.results.paired_ratio import PairedRatio
from httplab.results.stats import Summary
from httplab.results.variants import ComparedMetric, VariantComparison

METRIC_LABELS = {
    ComparedMetric.REQUESTS_PER_SEC: "Requests/sec",
    ComparedMetric.CPU_PER_REQUEST: "CPU per request",
    ComparedMetric.COMMON_RATE_COST: "CPU per request at the common rate",
    ComparedMetric.MAX_SUSTAINABLE_RATE: "Max sustainable rate",
}
NO_DIFFERENCE = "no difference detectable at this noise"
# Both variants held the same rate step in every round: no noise to judge, and no difference
# the rates offered could show.
SAME_STEP = ("the same in every round: both held the same of the rates offered; only rates "
             "between those steps, or above the highest, could tell them apart")


def paired_verdict(subject: str, figures: PairedRatio, metric: ComparedMetric) -> str:
    """The verdict on one compared figure of a run's two variants."""
    if figures.ratio is None:
        return "not measured on both sides"
    if not figures.has_interval:
        return (f"needs at least {figures.rounds_needed} rounds (this run has "
                f"{figures.rounds})")
    if metric is ComparedMetric.MAX_SUSTAINABLE_RATE and figures.low == figures.high == 1:
        return SAME_STEP
    return difference_sentence(subject, figures.ratio, figures.low, figures.high,
                               metric.is_cost, "interval")


def difference_sentence(subject: str, ratio: float, low: float, high: float, is_cost: bool,
                        range_name: str = "interval") -> str:
    """subject's figure against the base's: ratio, and the range (low to high) it could be
    in; range_name says what that range is ("interval", "range of the runs")."""
    if not (ratio > 1 and low > 1 or ratio < 1 and high < 1):
        return (f"{NO_DIFFERENCE}: the {range_name} spans {_signed(low - 1)} to "
                f"{_signed(high - 1)} %")
    more = ratio > 1
    if is_cost:
        amount, bounds = ("more", (low, high)) if more else ("less", (high, low))
        return (f"{subject} costs {_percent(ratio)} % {amount} CPU per request "
                f"({_percent(bounds[0])} to {_percent(bounds[1])} %)")
    word, bounds = ("faster", (low, high)) if more else ("slower", (high, low))
    return (f"{subject} is {_percent(ratio)} % {word} ({_percent(bounds[0])} to "
            f"{_percent(bounds[1])} %)")


RUNS_RANGE = "range of the runs"  # make compare's: new's runs over base's, lowest to highest
RUNS_SUBJECT = "new"


def runs_sentence(ratio: float | None, base: Summary | None, new: Summary | None,
                  is_cost: bool) -> str | None:
    """make compare's verdict on two runs in the same words: its range is the lowest new
    run over the highest base run to the highest over the lowest, which lies wholly above
    (or below) 1 exactly when its rule says faster (or slower). None when a side is
    missing or measured once, or a run measured nothing."""
    if ratio is None or base is None or new is None or min(base.n, new.n) < 2:
        return None
    if base.minimum <= 0 or new.minimum <= 0:
        return None
    return difference_sentence(RUNS_SUBJECT, ratio, new.minimum / base.maximum,
                               new.maximum / base.minimum, is_cost, RUNS_RANGE)


def format_interval(figures: PairedRatio) -> str:
    """'0.75–0.88×', or MISSING without an interval."""
    if not figures.has_interval:
        return MISSING
    return f"{figures.low:.2f}–{figures.high:.2f}×"


def _percent(ratio: float) -> str:
    """How far a ratio is from 1, in percent, unsigned: 1.12 and 0.88 -> '12'."""
    return _number(abs(ratio - 1) * 100)


def _signed(fraction: float) -> str:
    """-0.09 -> '-9', 0.14 -> '+14'; no sign on nothing: '0'."""
    number = _number(abs(fraction) * 100)
    if float(number) == 0:
        return "0"
    return ("+" if fraction > 0 else "-") + number


def _number(percent: float) -> str:
    return f"{percent:.1f}" if percent < 1 else f"{percent:.0f}"


def comparison_label(result: BenchResult, comparison: VariantComparison,
                     with_point: bool) -> str:
    """'Netty (profiled) ÷ Netty, Requests/sec'; with its workload and point when the run's
    comparisons differ in them."""
    label = (f"{result.label(comparison.other)} ÷ {result.label(comparison.base)}, "
             f"{METRIC_LABELS[comparison.metric]}")
    if not with_point or comparison.threads is None:
        return label
    return (f"{label}, {comparison.workload.label} t{comparison.threads} "
            f"c{comparison.connections}")


def several_points(comparisons: list[VariantComparison]) -> bool:
    return len({(one.workload, one.threads, one.connections) for one in comparisons}) > 1
