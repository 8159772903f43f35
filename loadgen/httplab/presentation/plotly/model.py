"""What a page needs of one chart: the Plotly figure (data and layout, drawn by
static/charts.js) and the same figures as a table, for a reader without JavaScript and
for print."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FigureTable:
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class ChartSpec:
    key: str  # unique in the page, a valid HTML id: "throughput-plaintext"
    title: str
    caption: str  # what the chart shows and how to read it, in a sentence or two
    figure: dict  # Plotly's {"data": [...], "layout": {...}}; each trace's "name" a framework
    table: FigureTable

    @property
    def traces(self) -> int:
        """How many traces the chart draws (the browser test counts them)."""
        return len(self.figure.get("data", ()))
