"""Per-connection fairness as figures: the connection count its chart is drawn at and where
each connection stands (png/fairness.py, plotly/lines.py). Pure."""

from __future__ import annotations

from httplab.model import BenchResult
from httplab.presentation.views.points import thread_settings
from httplab.results.fairness import fairness_run_for_chart


def rank_fractions(count: int) -> tuple[float, ...]:
    """Where each of `count` connections stands, slowest (0) to fastest (1)."""
    if count == 1:
        return (0.0,)
    return tuple(index / (count - 1) for index in range(count))


def fairness_connections(result: BenchResult) -> int | None:
    """The largest connection count at which a cell at the first thread setting has
    per-connection figures: the headline count, unless h2load's socket readings are
    missing there; None when there are none."""
    threads = thread_settings(result)[0]
    return max((cell.connections for cell in result.cells
                if cell.threads == min(threads, cell.connections)
                and fairness_run_for_chart(cell) is not None), default=None)


def has_fairness_chart(result: BenchResult) -> bool:
    """Whether result4 has a line to draw: a cell it charts has socket readings."""
    return fairness_connections(result) is not None
