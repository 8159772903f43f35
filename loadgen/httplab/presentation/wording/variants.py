"""A difference between two variants (or two runs) in one sentence: "B is 12 % faster (6 to
18 %)", "B costs 12 % more CPU per request (4 to 21 %)", or "not distinguishable from the
noise among 12 comparisons: the interval spans -9 to +14 %"; with too few rounds, how many
are needed. The figure is the estimate at its interval's centre: the paired one of a run's
variants, or make compare's unpaired one of two runs (results/unpaired_ratio.py). A
difference is said only when it is clear among the comparisons of the same figure: its
q-value below the false-discovery level (results/false_discovery.py). Pure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from httplab.model import BenchResult
from httplab.presentation.wording.formatting import MISSING
from httplab.results.false_discovery import FDR_LEVEL, discovered, excluded_by_chance
from httplab.results.paired_ratio import CONFIDENCE, MIN_ROUNDS, PairedRatio
from httplab.results.unpaired_ratio import UnpairedRatio
from httplab.results.variants import ComparedMetric, VariantComparison

METRIC_LABELS = {
    ComparedMetric.REQUESTS_PER_SEC: "Requests/sec",
    ComparedMetric.CPU_PER_REQUEST: "CPU per request",
    ComparedMetric.COMMON_RATE_COST: "CPU per request at the common rate",
    ComparedMetric.MAX_SUSTAINABLE_RATE: "Max sustainable rate",
}
ESTIMATE = "paired estimate"  # exp(mean log(B_r / A_r)) over the paired rounds
ESTIMATE_SAID = (f"the {ESTIMATE} is the geometric mean of the rounds' paired ratios (other ÷ "
                 f"base), the centre of its {CONFIDENCE:.0%} interval, a t interval on their "
                 f"logarithms")
NOT_DISTINGUISHABLE = "not distinguishable from the noise"
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
                               metric.is_cost, clear_difference(figures), figures.among)


def clear_difference(figures: PairedRatio | UnpairedRatio) -> bool:
    """Clear among the comparisons it was counted with; one never counted is its own family
    of one, its q-value its p-value."""
    return discovered(figures.q_value if figures.among else figures.p_value)


def difference_sentence(subject: str, ratio: float, low: float, high: float, is_cost: bool,
                        clear: bool, among: int | None = None) -> str:
    """subject's figure against the base's: ratio, and the interval (low to high) it could
    be in; clear: whether the difference stands out of the noise among `among`
    comparisons."""
    if not clear:
        return (f"{NOT_DISTINGUISHABLE}{_among(among)}: the interval spans "
                f"{_signed(low - 1)} to {_signed(high - 1)} %")
    more = ratio > 1
    if is_cost:
        amount, bounds = ("more", (low, high)) if more else ("less", (high, low))
        return (f"{subject} costs {_percent(ratio)} % {amount} CPU per request "
                f"({_percent(bounds[0])} to {_percent(bounds[1])} %)")
    word, bounds = ("faster", (low, high)) if more else ("slower", (high, low))
    return (f"{subject} is {_percent(ratio)} % {word} ({_percent(bounds[0])} to "
            f"{_percent(bounds[1])} %)")


RUNS_SUBJECT = "new"


def runs_sentence(figures: UnpairedRatio, is_cost: bool, rate_steps: bool = False) -> str | None:
    """make compare's verdict on two runs in the same words, over its Welch interval; None
    without an interval (a side measured once, or a figure of 0). rate_steps: the figure is
    one of the rates offered (a max sustainable rate), which every round may share."""
    if figures.ratio is None or not figures.has_interval:
        return None
    if rate_steps and figures.low == figures.high == 1:
        return SAME_STEP
    return difference_sentence(RUNS_SUBJECT, figures.ratio, figures.low, figures.high,
                               is_cost, clear_difference(figures), figures.among)


def format_interval(figures: PairedRatio | UnpairedRatio) -> str:
    """'0.75–0.88×', or MISSING without an interval."""
    if not figures.has_interval:
        return MISSING
    return f"{figures.low:.2f}–{figures.high:.2f}×"


def comparisons_counted(comparisons: Sequence[VariantComparison]) -> str:
    """What a run's many comparisons mean together (counted_sentence), or that none has the
    rounds an interval needs."""
    by_metric = {}
    for one in (one for one in comparisons if one.figures.p_value is not None):
        label = METRIC_LABELS[one.metric]
        by_metric[label] = by_metric.get(label, 0) + 1
    if not by_metric:
        return (f"No comparison in this run has the {MIN_ROUNDS} paired rounds an interval "
                f"needs.")
    named = sum(clear_difference(one.figures) for one in comparisons)
    return counted_sentence("This run made", by_metric, named)


def counted_sentence(made_by: str, by_figure: Mapping[str, int], named: int) -> str:
    """How many comparisons were made (by_figure: how many of each figure, all with an
    interval), how many of their intervals would exclude 1 by chance alone, how many
    (named) stand out of the noise, and the rule that decides which are named. made_by:
    'This run made'."""
    made = sum(by_figure.values())
    counts = ", ".join(f"{count} of {figure}" for figure, count in by_figure.items())
    plural = "s" if made != 1 else ""
    return (f"{made_by} {made} comparison{plural} ({counts}): about "
            f"{excluded_by_chance(made):.1f} of their {CONFIDENCE:.0%} intervals "
            f"would exclude 1 by chance alone, and {named} "
            f"{'stands' if named == 1 else 'stand'} out of the noise. A "
            f"difference is named only when its q-value "
            f"(Benjamini–Hochberg, among the comparisons of the same figure) is below "
            f"{FDR_LEVEL:g}.")


def format_q(figures: PairedRatio | UnpairedRatio) -> str:
    """'0.003', '< 0.001', or MISSING without a p-value."""
    if figures.q_value is None:
        return MISSING
    return "< 0.001" if figures.q_value < 0.001 else f"{figures.q_value:.3f}"


def rounds_text(figures: PairedRatio) -> str:
    """'5'; '4 (round 3 left out: the host's)'; '3 (round 4 on one side only)'."""
    notes = [f"{_rounds_named(figures.lost_to_host)} left out: the host's"] \
        if figures.lost_to_host else []
    notes += [f"{_rounds_named(figures.unpaired)} on one side only"] if figures.unpaired else []
    return f"{figures.rounds}" + (f" ({'; '.join(notes)})" if notes else "")


def _rounds_named(rounds: tuple[int, ...]) -> str:
    return ("round " if len(rounds) == 1 else "rounds ") + ", ".join(map(str, rounds))


def _among(among: int | None) -> str:
    if not among or among == 1:
        return ""
    return f" among {among} comparisons"


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
