"""The chart of variants compared (result-variants.png beside result1.png), drawn when the
run measured a framework under two or more variants: each figure of a variant against its
base as a point at its paired estimate, its interval over the paired rounds as an
error bar (none with too few rounds: a hollow point), and a line at 1, no difference; the
ratio's axis is logarithmic, as the interval is taken."""

from __future__ import annotations

from matplotlib.figure import Figure
from matplotlib.ticker import FixedLocator, NullLocator, ScalarFormatter

from httplab.model import BenchResult
from httplab.presentation.png.kit import (GRID_ALPHA, SMALL_SIZE, TITLE_SIZE, finish_figure,
                                          new_figure, png_bytes, series_color)
from httplab.presentation.views.variants import charted_comparisons
from httplab.presentation.wording.variants import ESTIMATE, comparison_label, several_points
from httplab.results.paired_ratio import CONFIDENCE, MIN_ROUNDS

ROW_HEIGHT_IN = 0.42  # per compared figure, so that long runs stay readable
# The ratios the axis names, by how wide the drawn range is (its highest over its lowest).
RATIO_TICKS = ((12.0, (0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 10.0)),
               (3.0, (0.25, 0.5, 1.0, 2.0, 4.0)),
               (1.5, (0.5, 0.67, 0.8, 1.0, 1.25, 1.5, 2.0)),
               (0.0, (0.8, 0.9, 0.95, 1.0, 1.05, 1.1, 1.25)))


def build_variants_figure(result: BenchResult) -> Figure:
    comparisons = charted_comparisons(result)
    with_point = several_points(comparisons)
    figure = new_figure((10, 2.2 + ROW_HEIGHT_IN * len(comparisons)))
    axes = figure.subplots()
    for row, one in enumerate(comparisons):
        figures, color = one.figures, series_color(int(one.metric.is_cost))
        if figures.has_interval:
            axes.errorbar(figures.ratio, row, color=color, fmt="o", capsize=4,
                          xerr=[[figures.ratio - figures.low], [figures.high - figures.ratio]])
        else:
            axes.plot(figures.ratio, row, "o", markerfacecolor="none", color=color)
    axes.axvline(1.0, color="gray", linewidth=1)
    _log_ratio_axis(axes, ratio_range(comparisons))
    axes.set_yticks(range(len(comparisons)),
                    [comparison_label(result, one, with_point) for one in comparisons],
                    fontsize=SMALL_SIZE)
    axes.invert_yaxis()  # the table's order, top down
    axes.set_xlabel(f"other variant ÷ base ({ESTIMATE})")
    axes.set_title(f"Variants compared in this run: {ESTIMATE}, other ÷ base\n"
                   f"bars: {CONFIDENCE:.0%} interval over paired rounds; hollow: fewer than "
                   f"{MIN_ROUNDS} rounds", fontsize=TITLE_SIZE)
    axes.grid(axis="x", alpha=GRID_ALPHA)
    return finish_figure(figure, result)


def ratio_range(comparisons) -> tuple[float, float]:
    """The axis's range: every point and interval, and 1, with a margin of a tenth of its
    width on each side in log terms (a linear axis's own margin may reach below zero)."""
    values = [1.0] + [value for one in comparisons for value in
                      (one.figures.ratio, one.figures.low, one.figures.high)
                      if value is not None and value > 0]
    low, high = min(values), max(values)
    margin = (high / low) ** 0.1 if high > low else 1.05
    return low / margin, high * margin


def _log_ratio_axis(axes, limits: tuple[float, float]) -> None:
    """A logarithmic ratio axis (0.5 and 2 as far from 1, as the interval treats them),
    named at plain ratios that suit its range."""
    low, high = limits
    axes.set_xscale("log")
    ticks = next(ticks for wider_than, ticks in RATIO_TICKS if high / low > wider_than)
    axes.xaxis.set_major_locator(FixedLocator([t for t in ticks if low <= t <= high] or [1.0]))
    axes.xaxis.set_major_formatter(ScalarFormatter())
    axes.xaxis.set_minor_locator(NullLocator())
    axes.set_xlim(low, high)


def variants_png(result: BenchResult) -> bytes:
    return png_bytes(build_variants_figure(result))
