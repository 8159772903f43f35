"""The CPU chart of a workload that reads the database (db, queries): the database's CPU
time per request stacked on each server's bar, lighter and hatched, with its own legend
entry and both figures in the label; a cell without the database's figures draws the
server alone. Other workloads' CPU charts are test_charts.py's."""

from dataclasses import replace

import pytest
from matplotlib.colors import to_rgba

from httplab.presentation.png.cpu import (DATABASE_HATCH, DATABASE_LABEL, build_cpu_figure,
                                          cpu_label, server_database_label)
from httplab.presentation.views.figures import cell_figures
from httplab.presentation.views.points import at_connections, headline_connections, of_workload
from httplab.results.database_figures import database_figures

from tests.database_sample import DB, QUERIES_20, database_sample_result
from tests.support.png_charts import bars, texts, value_labels


def _headline(workload, result=None):
    """What publish passes to the workload's CPU chart."""
    cells = of_workload(result or database_sample_result(), workload)
    return at_connections(cells, headline_connections(cells))


def _costs(result, server):
    cell = next(c for c in result.cells if c.server == server)
    return cell_figures(cell).cpu_us_per_request, database_figures(cell).cpu_us_per_request


def _segments(axes):
    """(server, database) bars by x: the database's is the hatched one."""
    by_x = {}
    for bar in bars(axes):
        by_x.setdefault(round(bar.get_x(), 6), {})[bar.get_hatch() or "server"] = bar
    return by_x


def test_db_chart_stacks_the_database_on_each_server_bar():
    result = _headline(DB)
    axes = build_cpu_figure(result).axes[0]
    segments = _segments(axes)
    assert len(segments) == 3 and all(set(s) == {"server", DATABASE_HATCH}
                                      for s in segments.values())
    # Netty, Spring WebFlux, Undertow: fastest first, the reference has no db cells.
    expected = [_costs(result, server) for server in ("netty", "webflux", "undertow")]
    drawn = [(s["server"], s[DATABASE_HATCH]) for _, s in sorted(segments.items())]
    for (server_us, database_us), (server_bar, database_bar) in zip(expected, drawn):
        assert server_bar.get_y() == 0 and server_bar.get_height() == pytest.approx(server_us)
        assert database_bar.get_y() == pytest.approx(server_us)
        assert database_bar.get_height() == pytest.approx(database_us)
        # the same colour as the server's, lighter
        assert server_bar.get_facecolor() == to_rgba("C0")
        assert database_bar.get_facecolor() != server_bar.get_facecolor()
        assert database_bar.get_edgecolor() == to_rgba("C0")
    netty_server, netty_database = expected[0]
    assert round(netty_server, 1) == 45.6 and round(netty_database, 1) == 61.9
    assert list(value_labels(axes).values()) == [server_database_label(*costs)
                                                 for costs in expected]
    assert value_labels(axes)[round(0.0, 6)] == "45.6 + 61.9 µs"


def test_db_chart_legend_and_title_name_the_database():
    axes = build_cpu_figure(_headline(DB)).axes[0]
    legend = [text.get_text() for text in axes.get_legend().get_texts()]
    assert legend == ["4 wrk threads", DATABASE_LABEL] == ["4 wrk threads",
                                                           "database (PostgreSQL)"]
    handles = axes.get_legend().legend_handles
    assert [handle.get_hatch() for handle in handles] == [None, DATABASE_HATCH]
    title = axes.get_title()
    assert title.startswith("Server and database CPU time per completed request, "
                            "256 connections, db (lower is better)")
    assert "server + database" in axes.get_ylabel()


def test_queries_chart_labels_both_and_marks_the_failed_cell():
    result = _headline(QUERIES_20)
    axes = build_cpu_figure(result).axes[0]
    assert len(bars(axes)) == 4 and len(texts(axes, "failed")) == 1  # WebFlux's second round
    assert sorted(value_labels(axes).values()) == ["167 + 1,003 µs", "70.5 + 1,657 µs"]


def test_a_cell_without_database_figures_draws_the_server_alone():
    sample = database_sample_result()
    without = replace(sample, cells=tuple(
        replace(c, resources=tuple(replace(u, database=None) for u in c.resources))
        if c.server == "undertow" else c for c in sample.cells))
    result = _headline(DB, without)
    axes = build_cpu_figure(result).axes[0]
    undertow = next(c for c in result.cells if c.server == "undertow")
    undertow_us = cell_figures(undertow).cpu_us_per_request
    segments = _segments(axes)
    assert [set(s) for _, s in sorted(segments.items())] == [
        {"server", DATABASE_HATCH}, {"server", DATABASE_HATCH}, {"server"}]
    assert sorted(segments.items())[2][1]["server"].get_height() == pytest.approx(undertow_us)
    assert value_labels(axes)[2.0] == cpu_label(undertow_us)
    # a legend entry for the database still: the other bars have its segment
    assert DATABASE_LABEL in [t.get_text() for t in axes.get_legend().get_texts()]


def test_other_workloads_keep_the_server_only_chart():
    from tests.sample_results import sample_result

    result = sample_result()
    axes = build_cpu_figure(at_connections(result, headline_connections(result))).axes[0]
    assert all(not bar.get_hatch() for bar in bars(axes))
    assert DATABASE_LABEL not in [t.get_text() for t in axes.get_legend().get_texts()]
    assert axes.get_title().startswith("Server CPU time per completed request")
