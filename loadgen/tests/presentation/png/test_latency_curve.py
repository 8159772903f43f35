"""image/result-latency.png, a make latency run's chart: where publish writes it, and the
Figure it draws from the hand-built run of tests/latency_sample.py (the median over rounds
per rate, no cost step, no point for a failed step, the target line and each maximum)."""

from dataclasses import replace
from pathlib import Path

import pytest
from matplotlib.colors import to_rgba

from httplab.model import StepVerdict
from httplab.presentation.png.kit import CEILING_COLOR
from httplab.presentation.png.latency_curve import (HOLLOW_MEANING, build_latency_curve_figure,
                                                    latency_curves)
from httplab.presentation.views.latency_curve import shows_latency_curve
from httplab.presentation.publish import write_results
from httplab.presentation.views.charts import ChartKind, chart_path

from tests.latency_sample import latency_sample_result
from tests.support.png_charts import png_size

NETTY, UNDERTOW, NGINX = "Netty", "Undertow (200 workers)", "nginx (reference)"


def lines_by_label(axes) -> dict[str, object]:
    return {line.get_label(): line for line in axes.get_lines()}


def points(line) -> list[tuple[float, float]]:
    return [(float(x), pytest.approx(float(y))) for x, y in zip(line.get_xdata(), line.get_ydata())]


@pytest.mark.parametrize(("image", "chart"), [
    ("image/result1.png", "image/result-latency.png"),
    ("out/bench.png", "out/bench-latency.png"),
])
def test_the_chart_sits_beside_the_image(image, chart):
    assert chart_path(Path(image), ChartKind.LATENCY_CURVE) == Path(chart)


def test_publish_writes_the_latency_chart_and_leaves_the_bench_charts(tmp_path):
    image = tmp_path / "image" / "result1.png"
    image.parent.mkdir()
    image.write_bytes(b"the bench's chart")
    write_results(latency_sample_result(), tmp_path / "run", image)
    width, height = png_size((tmp_path / "image" / "result-latency.png").read_bytes())
    assert (width, height) == (1375, 682)
    assert image.read_bytes() == b"the bench's chart"
    assert sorted(p.name for p in (tmp_path / "run").iterdir()) == [
        "index.html", "results.csv", "results.json", "results.md"]


def test_a_run_without_a_measured_step_draws_nothing_and_removes_an_older_chart(tmp_path):
    result = latency_sample_result()
    failed = tuple(replace(step, verdict=StepVerdict.FAILED, latency=None)
                   for step in result.latency.steps)
    result = replace(result, latency=replace(result.latency, steps=failed))
    chart = chart_path(tmp_path / "result1.png", ChartKind.LATENCY_CURVE)
    chart.write_bytes(b"older")
    assert not shows_latency_curve(result)
    write_results(result, tmp_path / "run", tmp_path / "result1.png")
    assert not chart.exists()


def test_each_percentile_is_the_median_over_rounds_without_the_cost_steps():
    (axes,) = build_latency_curve_figure(latency_sample_result()).axes
    lines = lines_by_label(axes)
    # round 1 and 2 agree at 10k (0.9 ms), not the cost steps' 0.8 ms
    assert points(lines[f"_{NETTY} p99"]) == [(10000, 0.9), (20000, 1.6), (40000, 6.5)]
    # 20k: the median of 14.2 and 9.1; 40k: round 2 failed, so round 1 alone
    assert points(lines[f"_{UNDERTOW} p99"]) == [(10000, 4.8), (20000, 11.65), (40000, 60.0)]
    assert points(lines[f"_{NGINX} p50"]) == [(10000, 0.12), (20000, 0.12), (40000, 0.12)]
    assert axes.get_xscale() == "log" and axes.get_yscale() == "log"


def test_a_rate_that_broke_in_a_round_is_hollow():
    (axes,) = build_latency_curve_figure(latency_sample_result()).axes
    lines = lines_by_label(axes)
    assert list(lines[f"_{UNDERTOW} p99: held"].get_xdata()) == [10000]
    assert list(lines[f"_{UNDERTOW} p99: broke"].get_xdata()) == [20000, 40000]
    assert lines[f"_{UNDERTOW} p99: broke"].get_markerfacecolor() == "none"
    assert list(lines[f"_{NETTY} p99.9: broke"].get_xdata()) == [40000]


def test_the_reference_is_grey_and_dashed_and_each_framework_has_its_colour():
    curves = latency_curves(latency_sample_result())
    assert [(c.label, c.linestyle) for c in curves] == [
        (NETTY, "-"), (UNDERTOW, "-"), (NGINX, "--")]
    assert curves[2].color == CEILING_COLOR and curves[0].color != curves[1].color
    (axes,) = build_latency_curve_figure(latency_sample_result()).axes
    line = lines_by_label(axes)[f"_{NGINX} p99"]
    assert (line.get_linestyle(), to_rgba(line.get_color())) == ("--", to_rgba(CEILING_COLOR))


def test_the_target_and_each_maximum_are_marked():
    (axes,) = build_latency_curve_figure(latency_sample_result()).axes
    lines = lines_by_label(axes)
    assert list(lines["_target"].get_ydata()) == [10.0, 10.0]
    assert {label: float(line.get_xdata()[0]) for label, line in lines.items()
            if label.endswith(" maximum")} == {
        f"_{NETTY} maximum": 20000.0, f"_{UNDERTOW} maximum": 10000.0,
        f"_{NGINX} maximum": 40000.0}
    assert sorted(text.get_text() for text in axes.texts) == ["10,000", "40,000", "≥ 20,000"]


def test_the_legend_title_and_caption_say_how_to_read_it():
    figure = build_latency_curve_figure(latency_sample_result())
    (axes,) = figure.axes
    legend = [text.get_text() for text in axes.get_legend().get_texts()]
    assert legend[:6] == [NETTY, UNDERTOW, NGINX, "p50", "p99", "p99.9"]
    assert "target: p99 ≤ 10 ms" in legend and HOLLOW_MEANING in legend
    assert "median of 2 rounds per rate" in axes.get_title()
    captions = " ".join(text.get_text() for text in figure.texts)
    assert "oha 1.16.0 at fixed rates" in captions and "due time" in captions
    assert latency_sample_result().host.describe() in captions
