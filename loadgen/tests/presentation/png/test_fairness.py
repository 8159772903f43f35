"""image/result4.png, per-connection fairness: the Figure's lines are each cell's normalised
per-connection rates (the run fairness_run_for_chart picks), at the first thread setting and
the largest connection count with socket readings; when publish draws it."""

import math
from dataclasses import replace

import pytest

from httplab.model import Cell, FairnessRun
from httplab.presentation.png.fairness import build_fairness_figure, fairness_png, fairness_title
from httplab.presentation.wording.cells import fairness_label
from httplab.presentation.views.fairness import (fairness_connections, has_fairness_chart,
                                                 rank_fractions)
from httplab.presentation.publish import write_charts
from httplab.results.fairness import (Fairness, cell_fairness, fairness_run_for_chart,
                                      normalised_rates)

from tests.sample_results import sample_result
from tests.support.png_charts import png_size
from tests.presentation.png.test_sweep import HOST, SWEEP_CELLS, sweep_result

REQUEST_BYTES = 70


def sockets_run(requests: tuple[int, ...]) -> FairnessRun:
    """h2load with each connection's requests between two socket readings."""
    return FairnessRun(connections=len(requests), duration_s=10.0, requests_per_sec=1000.0,
                       succeeded=sum(requests), failed=0,
                       connection_bytes=tuple(sorted(n * REQUEST_BYTES for n in requests)),
                       sockets_from_s=2.0, sockets_to_s=8.0)


def summary_run(connections: int) -> FairnessRun:
    """h2load without socket readings: only its per-client req/s summary."""
    return FairnessRun(connections=connections, duration_s=10.0, requests_per_sec=1000.0,
                       succeeded=10_000, failed=0, client_rps_min=1.0, client_rps_max=3.0,
                       client_rps_mean=2.0, client_rps_sd=0.5)


STARVED = sockets_run((0,) * 10 + (100,) * 490)  # max/min infinite
UNEVEN = sockets_run((50,) * 50 + (100,) * 450)  # max/min 2: the median of Netty's three
MILD = sockets_run((90,) * 250 + (110,) * 250)
FLAT = sockets_run((100,) * 500)
AT_16 = sockets_run((10,) * 8 + (30,) * 8)

FAIRNESS = {("netty", 4, 500): (STARVED, UNEVEN, MILD), ("nginx", 4, 500): (FLAT,),
            ("undertow", 4, 500): (summary_run(500),), ("netty", 4, 16): (AT_16,),
            ("netty", 2, 500): (FLAT,)}


def with_fairness(fairness: dict) -> tuple[Cell, ...]:
    return tuple(replace(c, fairness=fairness.get((c.server, c.threads, c.connections), ()))
                 for c in SWEEP_CELLS)


def fair_result(fairness: dict = FAIRNESS):
    return sweep_result(with_fairness(fairness))


def cell(result, server: str, threads: int, connections: int) -> Cell:
    return next(c for c in result.cells
                if (c.server, c.threads, c.connections) == (server, threads, connections))


def drawn(axes) -> dict[str, list[float]]:
    return {line.get_label(): list(line.get_ydata()) for line in axes.get_lines()}


NETTY = "Netty: max/min 2.00, slowest 10 % served 8.2 %"
CEILING = "ceiling: nginx (reference): max/min 1.00, slowest 10 % served 10.0 %"


def test_each_line_is_the_normalised_rates_of_the_median_run():
    result = fair_result()
    (axes,) = build_fairness_figure(result).axes
    netty = cell(result, "netty", 4, 500)
    assert fairness_run_for_chart(netty) == UNEVEN
    assert drawn(axes) == {NETTY: list(normalised_rates(UNEVEN)),
                           CEILING: [1.0] * 500,
                           "perfectly fair": [1, 1]}
    assert drawn(axes)[NETTY][:2] == [pytest.approx(50 / 95)] * 2  # slowest first


def test_the_legend_has_each_cells_median_spread_and_slowest_share():
    result = fair_result()
    figures = cell_fairness(cell(result, "netty", 4, 500))
    assert NETTY == fairness_label("Netty", figures)
    assert figures.spread == 2.0 and figures.slowest_share == pytest.approx(280 / 3430)
    (axes,) = build_fairness_figure(result).axes
    assert [t.get_text() for t in axes.get_legend().get_texts()] == [NETTY, CEILING,
                                                                      "perfectly fair"]


def test_connections_run_from_the_slowest_at_0_to_the_fastest_at_1():
    (axes,) = build_fairness_figure(fair_result()).axes
    for line in axes.get_lines()[:2]:
        xs = list(line.get_xdata())
        assert len(xs) == 500 and xs[0] == 0 and xs[-1] == 1 and xs == sorted(xs)


def test_the_ceiling_is_dashed_grey_and_fair_is_a_dotted_line_at_1():
    (axes,) = build_fairness_figure(fair_result()).axes
    style = {line.get_label(): (line.get_linestyle(), line.get_color())
             for line in axes.get_lines()}
    assert style[CEILING] == ("--", "gray") and style[NETTY] == ("-", "C0")
    assert style["perfectly fair"][0] == ":"


def test_title_and_caption_say_the_count_and_how_to_read_it():
    result = fair_result()
    figure = build_fairness_figure(result)
    assert figure.axes[0].get_title() == fairness_title(result) == (
        "Per-connection fairness, h2load, 500 connections, after wrk at 4 threads\n"
        "each connection's requests over the mean of all, slowest first")
    captions = " ".join(text.get_text() for text in figure.texts)
    assert "flat at 1 is fair; a steep start means starved connections" in captions
    assert HOST.describe() in captions


def test_without_socket_readings_at_the_headline_the_largest_count_with_them_is_drawn():
    result = fair_result({("netty", 4, 16): (AT_16,), ("undertow", 4, 500): (summary_run(500),)})
    assert fairness_connections(result) == 16
    (axes,) = build_fairness_figure(result).axes
    assert drawn(axes) == {"Netty: max/min 3.00, slowest 10 % served 5.0 %":
                           list(normalised_rates(AT_16)), "perfectly fair": [1, 1]}
    assert sorted(set(normalised_rates(AT_16))) == [0.5, 1.5]  # 2 of 16: 20 of 320 requests


def test_the_shared_sample_draws_its_16_connection_runs():
    """The sample keeps socket readings only at 16 connections; at 500 only h2load's summary."""
    result = sample_result()
    (axes,) = build_fairness_figure(result).axes
    expected = normalised_rates(fairness_run_for_chart(cell(result, "netty", 10, 16)))
    assert [ys for label, ys in drawn(axes).items() if label.startswith("Netty")] == [
        list(expected)]


@pytest.mark.parametrize("name, figures, expected", [
    ("Netty", Fairness(math.inf, 0.3, 0.0, 500), "Netty: max/min ∞, slowest 10 % served 0.0 %"),
    ("Netty", Fairness(1.234, 0.1, 0.0912, 16), "Netty: max/min 1.23, slowest 10 % served 9.1 %"),
    ("Netty", Fairness(1.5, None, None, 16), "Netty: max/min 1.50, slowest 10 % served ?"),
    ("Netty", None, "Netty"),
])
def test_fairness_label(name, figures, expected):
    assert fairness_label(name, figures) == expected


@pytest.mark.parametrize("count, expected", [
    (1, (0.0,)), (2, (0.0, 1.0)), (5, (0.0, 0.25, 0.5, 0.75, 1.0))])
def test_rank_fractions(count, expected):
    assert rank_fractions(count) == expected


def test_no_fairness_chart_without_socket_readings():
    result = fair_result({("undertow", 4, 500): (summary_run(500),)})
    assert not has_fairness_chart(result) and fairness_connections(result) is None
    assert has_fairness_chart(fair_result())


def test_publish_draws_the_fairness_chart_only_with_socket_readings(tmp_path):
    write_charts(fair_result(), tmp_path / "with" / "result1.png")
    write_charts(fair_result({("undertow", 4, 500): (summary_run(500),)}),
                tmp_path / "without" / "result1.png")
    assert (tmp_path / "with" / "result4.png").is_file()
    assert not (tmp_path / "without" / "result4.png").exists()


def test_the_fairness_chart_is_a_png():
    width, height = png_size(fairness_png(fair_result()))
    assert 800 <= width <= 2000 and 400 <= height <= 1200
