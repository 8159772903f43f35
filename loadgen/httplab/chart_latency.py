"""image/result2.png: latency percentiles and server memory per framework, side by side.

Drawn from a BenchResult only. Latency uses the first thread setting, so every framework is
shown under the same load; figures are medians over a cell's runs."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from .chart import DPI, server_order, thread_settings, caption  # noqa: E402
from .figures import CellFigures, cell_figures  # noqa: E402
from .model import BenchResult  # noqa: E402

PERCENTILES = (("p50", "latency_p50_us"), ("p99", "latency_p99_us"), ("p99.9", "latency_p999_us"))
FIGURE_SIZE_IN = (12, 5.6)
MIB = 2**20


def _figures_at(result: BenchResult, threads: int) -> dict[str, CellFigures]:
    found = {}
    for cell in result.cells:
        figures = cell_figures(cell) if cell.threads == threads else None
        if figures is not None:
            found[cell.server] = figures
    return found


def _draw_latency(axes, result: BenchResult, servers: list[str], figures: dict[str, CellFigures]):
    width = 0.8 / len(PERCENTILES)
    drawn = False
    for position, (name, field) in enumerate(PERCENTILES):
        offset = (position - (len(PERCENTILES) - 1) / 2) * width
        values = [(getattr(figures[s], field) or 0) / 1000 if s in figures else 0 for s in servers]
        axes.bar([i + offset for i in range(len(servers))], values, width, label=name)
        drawn = drawn or any(values)
    if drawn:  # a report without percentiles (wrk run without --latency) has nothing to log
        axes.set_yscale("log")
    axes.set_ylabel("latency (ms, log scale)" if drawn else "latency (no percentiles recorded)")
    axes.legend(fontsize=8)


def _draw_memory(axes, result: BenchResult, servers: list[str], figures: dict[str, CellFigures]):
    peaks = [(figures[s].memory_peak_bytes or 0) / MIB if s in figures else 0 for s in servers]
    bars = axes.bar(range(len(servers)), peaks, 0.6, color="C4")
    labels = []
    for server in servers:
        known = figures.get(server)
        cpu = known.cpu_cores if known else None
        labels.append("n/a" if cpu is None else f"{cpu:.2f} cores")
    axes.bar_label(bars, labels=labels, fontsize=7, padding=2)
    axes.set_ylabel("peak memory while measured (MiB); label: CPU used")


def draw_latency_memory_chart(result: BenchResult, path: Path) -> None:
    servers, threads = server_order(result), thread_settings(result)[0]
    figures = _figures_at(result, threads)
    figure, (left, right) = plt.subplots(1, 2, figsize=FIGURE_SIZE_IN, dpi=DPI)
    _draw_latency(left, result, servers, figures)
    _draw_memory(right, result, servers, figures)
    for axes, title in ((left, "Latency percentiles (lower is better)"),
                        (right, "Server memory and CPU")):
        axes.set_xticks(range(len(servers)), [result.label(s) for s in servers], fontsize=8,
                        rotation=15)
        axes.set_title(f"{title}, {threads} threads", fontsize=10)
        axes.grid(axis="y", alpha=0.3)
    figure.text(0.01, 0.01, caption(result), fontsize=7, color="dimgray")
    figure.tight_layout(rect=(0, 0.03, 1, 1))
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path)
    plt.close(figure)
