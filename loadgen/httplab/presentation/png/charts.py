"""The PNG renderer's entry: each chart of the catalogue (views/charts.py) drawn by its
module, as the bytes publish writes."""

from __future__ import annotations

from collections.abc import Callable

from httplab.model import BenchResult
from httplab.presentation.png.cpu import cpu_png
from httplab.presentation.png.fairness import fairness_png
from httplab.presentation.png.latency_curve import latency_curve_png
from httplab.presentation.png.latency_memory import latency_memory_png
from httplab.presentation.png.profile import profile_png
from httplab.presentation.png.protocols import protocols_png
from httplab.presentation.png.sweep import sweep_png
from httplab.presentation.png.throughput import throughput_png
from httplab.presentation.png.variants import variants_png
from httplab.presentation.views.charts import ChartKind, RunChart

DRAWN_BY: dict[ChartKind, Callable[[BenchResult], bytes]] = {
    ChartKind.THROUGHPUT: throughput_png, ChartKind.LATENCY_MEMORY: latency_memory_png,
    ChartKind.CPU: cpu_png, ChartKind.SWEEP: sweep_png, ChartKind.FAIRNESS: fairness_png,
    ChartKind.PROFILE: profile_png, ChartKind.LATENCY_CURVE: latency_curve_png,
    ChartKind.VARIANTS: variants_png, ChartKind.PROTOCOLS: protocols_png}


def chart_png(chart: RunChart) -> bytes:
    return DRAWN_BY[chart.kind](chart.drawn_from)
