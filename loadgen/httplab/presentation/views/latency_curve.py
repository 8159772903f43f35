"""make latency's curve as points: per server, the median over the rounds of each percentile
at each offered rate of the search or list steps (the cost steps repeat one rate), and
whether the rate held in every round; the frameworks in the order they ran, then the
reference. Drawn by png/latency_curve.py and plotly/latency_curve.py. Pure."""

from __future__ import annotations

from dataclasses import dataclass

from httplab.model import BenchResult, RateStep
from httplab.presentation.views.latency_figures import (is_reference, latency_servers, rate_steps,
                                                        step_figures)
from httplab.results.stats import median_of_known

PERCENTILE_NAMES = ("p50", "p99", "p99.9")


@dataclass(frozen=True)
class CurvePoint:
    rate: float
    latency_ms: tuple[float | None, ...]  # in the order of PERCENTILES; None: unknown
    held: bool  # in every round that ran this rate


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


def ordered_servers(result: BenchResult) -> list[str]:
    """The frameworks in the order they ran, then the reference."""
    servers = latency_servers(result)
    return ([s for s in servers if not is_reference(result, s)]
            + [s for s in servers if is_reference(result, s)])


def shows_latency_curve(result: BenchResult) -> bool:
    """Whether a latency run has a point to draw: a search or list step with latency."""
    return any(curve_points(rate_steps(result, server)) for server in latency_servers(result))
