"""The chart of variants compared (as result-variants.png): each figure of a variant against
its base at its paired estimate, its interval over the paired rounds as an error
bar, a line at 1; beside it the same figures as a table with the verdict in words."""

from __future__ import annotations

from httplab.model import BenchResult
from httplab.presentation.plotly.model import ChartSpec
from httplab.presentation.plotly.parts import (CEILING_COLOR, base_layout, hover_lines,
                                               server_trace, table)
from httplab.presentation.views.variants import charted_comparisons
from httplab.presentation.wording.variants import (ESTIMATE, ESTIMATE_SAID,
                                                    comparison_label, comparisons_counted,
                                                    format_interval, format_q, paired_verdict,
                                                    rounds_text, several_points)
from httplab.results.paired_ratio import CONFIDENCE, MIN_ROUNDS
from httplab.results.variants import VariantComparison


def variants_chart(result: BenchResult) -> ChartSpec:
    comparisons = charted_comparisons(result)
    with_point = several_points(comparisons)
    labels = {id(one): comparison_label(result, one, with_point) for one in comparisons}
    others = list(dict.fromkeys(one.other for one in comparisons))
    traces = [_trace(result, [one for one in comparisons if one.other == other], labels)
              for other in others]
    layout = base_layout(f"other variant ÷ base ({ESTIMATE})", "",
                         shapes=[{"type": "line", "x0": 1, "x1": 1, "xref": "x", "y0": 0,
                                  "y1": 1, "yref": "paper", "line": {"color": CEILING_COLOR}}])
    layout["yaxis"] = {"autorange": "reversed", "automargin": True,
                       "categoryorder": "array", "categoryarray": list(labels.values())}
    layout["xaxis"] |= {"type": "log", "rangemode": "normal"}  # as the interval is taken
    caption = (f"Each framework measured under two variants in this run: the point is the "
               f"{ESTIMATE}, the bar its {CONFIDENCE:.0%} interval (none with fewer than "
               f"{MIN_ROUNDS} rounds); {ESTIMATE_SAID}. The line at 1 is no difference. "
               f"{comparisons_counted(comparisons)}")
    columns = ("Compared", "Estimate", f"{CONFIDENCE:.0%} interval", "q", "Rounds", "Verdict")
    rows = [(labels[id(one)], f"{one.figures.ratio:.3f}×", format_interval(one.figures),
             format_q(one.figures), rounds_text(one.figures), _verdict(result, one))
            for one in comparisons]
    return ChartSpec("variants", "Variants compared: other ÷ base, with its interval",
                     caption, {"data": traces, "layout": layout}, table(columns, rows))


def _trace(result: BenchResult, comparisons: list[VariantComparison],
           labels: dict[int, str]) -> dict:
    """One variant's figures against its base: a point each, its interval as an error bar."""
    hover = [hover_lines(f"{one.figures.ratio:.3f}× ({format_interval(one.figures)})",
                         _verdict(result, one)) for one in comparisons]
    return server_trace(result, comparisons[0].other, "scatter", hover, mode="markers",
                        x=[one.figures.ratio for one in comparisons],
                        y=[labels[id(one)] for one in comparisons],
                        error_x={"type": "data", "symmetric": False,
                                 "array": [_above(one) for one in comparisons],
                                 "arrayminus": [_below(one) for one in comparisons]})


def _verdict(result: BenchResult, one: VariantComparison) -> str:
    return paired_verdict(result.label(one.other), one.figures, one.metric)


def _above(one: VariantComparison) -> float | None:
    figures = one.figures
    return figures.high - figures.ratio if figures.has_interval else None


def _below(one: VariantComparison) -> float | None:
    figures = one.figures
    return figures.ratio - figures.low if figures.has_interval else None
