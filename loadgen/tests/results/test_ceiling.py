"""The ceiling: the reference server's Requests/sec at the same load, each framework's share
of it, and the dashed line it draws on result1.png instead of bars."""

from __future__ import annotations

from dataclasses import replace

import pytest

from httplab.model import Cell, CellStatus, ServerRecord
from httplab.presentation.png.throughput import build_throughput_figure
from httplab.presentation.views.points import server_order
from httplab.presentation.exporters import all_exporters
from httplab.results.ceiling import ceiling_share

from tests.sample_results import _run, sample_result
from tests.support.png_charts import bars

NGINX = ServerRecord("nginx", "nginx (ceiling reference)", "nginx", "1.22.1",
                     "worker processes: one per CPU", "epoll", role="reference")


def with_ceiling(rate_10: float = 138592.0):
    """The sample with a reference measured at 10 threads only: twice Netty's median."""
    result = sample_result()
    reference = Cell("nginx", 10, 500, CellStatus.OK, (_run(rate_10, 10),))
    return replace(result, servers=(NGINX, *result.servers), cells=(reference, *result.cells))


def test_a_framework_cell_is_shown_as_its_share_of_the_ceiling_at_the_same_load():
    result = with_ceiling()
    netty_10, netty_5 = result.cells[1], result.cells[2]
    assert ceiling_share(netty_10, result) == pytest.approx(69296.64 / 138592.0)
    assert ceiling_share(netty_5, result) is None, "no reference measured at 5 threads"
    assert ceiling_share(result.cells[0], result) is None, "the reference is the ceiling"
    assert ceiling_share(result.cells[3], result) is None, "a failed cell has no share"


def test_without_a_reference_there_is_no_share():
    result = sample_result()
    assert all(ceiling_share(cell, result) is None for cell in result.cells)


def test_markdown_and_csv_show_the_share_and_name_the_ceiling():
    result = with_ceiling()
    exporters = {exporter.file_name: exporter for exporter in all_exporters()}
    markdown = exporters["results.md"].render(result)
    assert "| nginx (ceiling reference) | 10 | 500 | 138592.00 | the ceiling |" in markdown
    assert "| Netty | 10 | 500 | 69296.64 | 50% |" in markdown
    csv_text = exporters["results.csv"].render(result)
    assert ",0.5000," in csv_text.splitlines()[2]


def test_the_ceiling_is_a_dashed_line_not_a_bar():
    result = with_ceiling()
    assert "nginx" not in server_order(result)
    axes = build_throughput_figure(result).axes[0]
    assert 138592.0 not in [round(bar.get_height(), 2) for bar in bars(axes)]
    dashed = [line for line in axes.get_lines() if line.get_linestyle() == "--"]
    assert [line.get_ydata()[0] for line in dashed] == [138592.0]
