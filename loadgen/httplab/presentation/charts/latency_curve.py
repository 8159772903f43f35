"""image/result-latency.png: a make latency run's p50, p99 and p99.9 against the offered
rate (both axes log), one colour per framework, a marker per percentile, the reference
server grey and dashed; the target as a horizontal line, and each server's max sustainable
rate as a tick on it ("≥" when the load tool's limit came first).

Only the search or list steps make the curve (the cost steps repeat one rate). With
several rounds, a point is the median over the rounds that measured that rate; it is
filled when the rate held in each of them, hollow when it broke in one. A step without
latency (it failed) leaves no point."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter, NullFormatter, NullLocator

from httplab.model import BenchResult, RateStep
from httplab.presentation.charts.kit import (
    CEILING_COLOR, GRID_ALPHA, LEGEND_SIZE, SMALL_SIZE, TITLE_SIZE, finish_figure, new_figure,
    save_figure, series_color)
from httplab.presentation.latency_figures import is_reference, latency_servers, rate_steps
from httplab.presentation.latency_texts import rate_text, slo_text
from httplab.results.stats import median_of_known
from httplab.results.step_figures import step_figures

PERCENTILES = (("p50", "v"), ("p99", "o"), ("p99.9", "^"))  # (name, marker)
WIDE_FIGURE_SIZE_IN = (12.5, 6.2)  # the legend beside the axes
MAX_RATE_TICKS = 10  # more rates than this (a long search): the log axis's own ticks
TARGET_COLOR = "firebrick"
HOLLOW_MEANING = "hollow: the rate did not hold in every round (results.md says why)"


@dataclass(frozen=True)
class CurvePoint:
    rate: float
    latency_ms: tuple[float | None, ...]  # in the order of PERCENTILES; None: unknown
    held: bool  # in every round that ran this rate


@dataclass(frozen=True)
class Curve:
    label: str
    color: str
    linestyle: str
    points: tuple[CurvePoint, ...]  # ascending by rate
    max_rate: float | None
    limited_by_tool: bool


def curve_point(rate: float, steps: list[RateStep]) -> CurvePoint:
    """The median over the rounds' steps at one rate, of each percentile."""
    figures = [step_figures(step) for step in steps]
    columns = (lambda f: f.p50_us, lambda f: f.p99_us, lambda f: f.p999_us)
    medians = (median_of_known(column(one) for one in figures) for column in columns)
    return CurvePoint(rate, tuple(None if us is None else us / 1000 for us in medians),
                      all(step.verdict.held for step in steps))


def curve_points(steps: list[RateStep]) -> tuple[CurvePoint, ...]:
    rates = sorted({step.offered_rate for step in steps})
    points = (curve_point(rate, [step for step in steps if step.offered_rate == rate])
              for rate in rates)
    return tuple(point for point in points if any(v is not None for v in point.latency_ms))


def latency_curves(result: BenchResult) -> list[Curve]:
    """The frameworks in the order they ran, each its colour, then the reference."""
    maxima = {rate.server: rate for rate in result.latency.maxima} if result.latency else {}
    servers = latency_servers(result)
    ordered = ([s for s in servers if not is_reference(result, s)]
               + [s for s in servers if is_reference(result, s)])
    curves = []
    for position, server in enumerate(ordered):
        reference, maximum = is_reference(result, server), maxima.get(server)
        curves.append(Curve(
            f"{result.label(server)} (reference)" if reference else result.label(server),
            CEILING_COLOR if reference else series_color(position), "--" if reference else "-",
            curve_points(rate_steps(result, server)), maximum and maximum.value,
            bool(maximum and maximum.limited_by_tool)))
    return curves


def shows_latency_curve(result: BenchResult) -> bool:
    """Whether a latency run has a point to draw: a search or list step with latency."""
    return any(curve.points for curve in latency_curves(result))


def _draw_curve(axes, curve: Curve) -> None:
    """A line per percentile, then its filled and its hollow markers (labels that start
    with "_" stay out of the legend)."""
    rates = [point.rate for point in curve.points]
    for index, (name, marker) in enumerate(PERCENTILES):
        values = [_or_gap(point.latency_ms[index]) for point in curve.points]
        axes.plot(rates, values, color=curve.color, linestyle=curve.linestyle,
                  label=f"_{curve.label} {name}")
        for held in (True, False):
            chosen = [(x, y) for x, y, point in zip(rates, values, curve.points)
                      if point.held is held and not math.isnan(y)]
            axes.plot([x for x, _ in chosen], [y for _, y in chosen], linestyle="none",
                      marker=marker, color=curve.color,
                      markerfacecolor=curve.color if held else "none",
                      label=f"_{curve.label} {name}: {'held' if held else 'broke'}")


def _or_gap(value: float | None) -> float:
    return math.nan if value is None else value  # matplotlib breaks a line at NaN


def _mark_maximum(axes, curve: Curve, target_ms: float) -> None:
    """A tick on the target line at the max sustainable rate, with its value."""
    if curve.max_rate is None:
        return
    axes.plot([curve.max_rate], [target_ms], linestyle="none", marker="|", markersize=22,
              markeredgewidth=2.5, color=curve.color, label=f"_{curve.label} maximum")
    text = ("≥ " if curve.limited_by_tool else "") + rate_text(curve.max_rate)
    axes.annotate(text, (curve.max_rate, target_ms), xytext=(3, 12),
                  textcoords="offset points", fontsize=SMALL_SIZE, color=curve.color)


def _legend(curves: list[Curve], target: str) -> list[Line2D]:
    handles = [Line2D([], [], color=curve.color, linestyle=curve.linestyle, label=curve.label)
               for curve in curves]
    handles += [Line2D([], [], color="black", linestyle="none", marker=marker, label=name)
                for name, marker in PERCENTILES]
    return handles + [
        Line2D([], [], color=TARGET_COLOR, linestyle=":", label=f"target: {target}"),
        Line2D([], [], color="black", linestyle="none", marker="|", markersize=12,
               markeredgewidth=2, label="max sustainable rate (≥: the load tool's limit)"),
        Line2D([], [], color="black", linestyle="none", marker="o", markerfacecolor="none",
               label=HOLLOW_MEANING)]


def _set_axes(axes, curves: list[Curve]) -> None:
    """Both axes log; the rates as written (10,000), at each rate run when they are few."""
    axes.set_xscale("log")
    axes.set_yscale("log")
    rates = sorted({point.rate for curve in curves for point in curve.points})
    if 0 < len(rates) <= MAX_RATE_TICKS:
        axes.set_xticks(rates)
        axes.xaxis.set_minor_locator(NullLocator())
    axes.xaxis.set_major_formatter(FuncFormatter(lambda rate, _: rate_text(rate)))
    axes.xaxis.set_minor_formatter(NullFormatter())
    axes.yaxis.set_major_formatter(FuncFormatter(lambda ms, _: f"{ms:g}"))
    axes.set_xlabel("offered rate (requests a second, log scale)")
    axes.set_ylabel("latency from the due time (ms, log scale; lower is better)")


def latency_curve_title(result: BenchResult) -> str:
    rounds = result.settings.repeat if result.settings else 1
    median = f"\nmedian of {rounds} rounds per rate" if rounds > 1 else ""
    return ("Latency by offered rate: p50, p99 and p99.9 from each request's due time "
            f"(lower is better){median}")


def tool_note(result: BenchResult) -> str:
    """The caption's first line: the load tool, and how it counts latency."""
    tool = result.latency.tool if result.latency and result.latency.tool else "the load tool"
    return (f"Load: {tool} at fixed rates, each request sent when due; its latency counts "
            "from that due time, waits for the server or a free connection included.")


def build_latency_curve_figure(result: BenchResult) -> Figure:
    """The chart as a Figure, not yet written anywhere; needs a latency run."""
    figure = new_figure(WIDE_FIGURE_SIZE_IN)
    axes = figure.subplots()
    curves, target_ms = latency_curves(result), result.latency.slo_p99_us / 1000
    for curve in curves:
        _draw_curve(axes, curve)
        _mark_maximum(axes, curve, target_ms)
    axes.axhline(target_ms, color=TARGET_COLOR, linestyle=":", linewidth=1.2,
                 label="_target")
    _set_axes(axes, curves)
    axes.set_title(latency_curve_title(result), fontsize=TITLE_SIZE)
    axes.legend(handles=_legend(curves, slo_text(result.latency.slo_p99_us)),
                fontsize=LEGEND_SIZE, loc="upper left", bbox_to_anchor=(1.01, 1))
    axes.grid(alpha=GRID_ALPHA, which="both")
    figure.text(0.01, 0.035, tool_note(result), fontsize=SMALL_SIZE, va="bottom")
    return finish_figure(figure, result, bottom=0.06)


def draw_latency_curve_chart(result: BenchResult, path: Path) -> None:
    save_figure(build_latency_curve_figure(result), path)
