"""REPEAT=auto in words: why the run ran the rounds it did, and each pair's precision reached
over its rounds; a pair that never narrowed to the precision asked named with its spread
(results/adaptive_rounds.py). Pure."""

from __future__ import annotations

from httplab.model import BenchResult
from httplab.presentation.wording.variants import comparison_label, several_points
from httplab.results.adaptive_rounds import PairPrecision, RoundsReached, RoundsWhy

WHY_STOPPED = {
    RoundsWhy.NARROW: "no more once every pair's interval was within {precision}",
    RoundsWhy.LIMIT: "MAX_REPEAT reached with {wide} wider than {precision}",
    RoundsWhy.NO_PAIR: "no pair of variants was measured on both sides",
    RoundsWhy.TOO_FEW: "the run ended before its intervals were within {precision}",
    RoundsWhy.TOO_WIDE: "the run ended before its intervals were within {precision}",
}


def rounds_reached_sentence(reached: RoundsReached) -> str:
    """'REPEAT=auto (±5.0 % on requests_per_sec, at most 10 rounds) ran 6 rounds: no more
    once every pair's interval was within ±5.0 %.'"""
    rule, decision = reached.rule, reached.decision
    wide = len(reached.not_narrowed)
    why = WHY_STOPPED[decision.why].format(
        precision=precision_text(rule.precision),
        wide=f"{wide} pair{'s' if wide != 1 else ''}")
    return (f"REPEAT=auto ({precision_text(rule.precision)} on {rule.metric}, at most "
            f"{rule.max_repeat} rounds; docs/method.md, \"REPEAT=auto\") "
            f"ran {decision.rounds} rounds: {why}.")


def pair_precision_sentences(result: BenchResult, reached: RoundsReached) -> list[str]:
    """Each pair's precision reached, those that never narrowed first."""
    with_point = several_points([pair.comparison for pair in reached.pairs])
    ordered = sorted(reached.pairs, key=lambda pair: pair.narrowed)
    return [pair_sentence(result, pair, with_point) for pair in ordered]


def pair_sentence(result: BenchResult, pair: PairPrecision, with_point: bool) -> str:
    """'Netty (JDK 17) ÷ Netty, Requests/sec: ±3.1 % over 6 rounds', or for one that never
    narrowed, its spread and the rounds that spread would need."""
    label = comparison_label(result, pair.comparison, with_point)
    reached = "no interval" if pair.half_width is None else precision_text(pair.half_width)
    said = f"{label}: {reached} over {pair.rounds} rounds"
    if pair.narrowed:
        return said
    return f"{said}, never narrowed to {precision_text(pair.precision)}: {spread_text(pair)}"


def spread_text(pair: PairPrecision) -> str:
    """Its paired ratios' spread from round to round (log sd, as a %), and the rounds it
    would take."""
    if pair.log_sd is None:
        return "its spread is unknown (fewer than 2 paired rounds)"
    needs = "more than 1000 rounds" if pair.rounds_expected is None \
        else f"about {pair.rounds_expected} rounds"
    return (f"its rounds' ratios spread by {percent_text(pair.log_sd)} (log sd), which "
            f"needs {needs}")


def precision_text(fraction: float) -> str:
    """0.05 -> '±5.0 %'."""
    return f"±{percent_text(fraction)}"


def percent_text(fraction: float) -> str:
    """0.05 -> '5.0 %'."""
    return f"{fraction * 100:.1f} %"
