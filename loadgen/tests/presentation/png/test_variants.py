"""The chart of variants compared (png/variants.py): a point per figure at its ratio, its
interval as an error bar, hollow without one, and a line at 1."""

from httplab.presentation.png.variants import build_variants_figure, variants_png
from httplab.results.store import read_results

from tests.profile_sample import profile_sample_result
from tests.support.png_charts import png_size
from tests.variants_sample import PROFILE_RUN


def test_each_figure_is_a_point_with_its_interval_beside_a_line_at_one():
    axes = build_variants_figure(read_results(PROFILE_RUN)).axes[0]
    labels = [tick.get_text() for tick in axes.get_yticklabels()]
    assert labels[0] == "Netty (profiled) ÷ Netty, Requests/sec" and len(labels) == 4
    bars = [container for container in axes.containers]
    assert len(bars) == 4, "an error bar per figure with an interval"
    (low, high), = bars[0].lines[2][0].get_segments()[0][:, 0].reshape(1, 2)
    assert (round(low, 2), round(high, 2)) == (0.75, 0.88)
    assert any(list(line.get_xdata()) == [1, 1] for line in axes.lines)


def test_without_intervals_the_points_are_hollow():
    axes = build_variants_figure(profile_sample_result()).axes[0]
    assert not axes.containers
    points = [line for line in axes.lines if line.get_marker() == "o"]
    assert len(points) == 6 and all(line.get_markerfacecolor() == "none" for line in points)


def test_the_chart_is_a_png():
    width, height = png_size(variants_png(read_results(PROFILE_RUN)))
    assert 800 <= width <= 2000 and 200 <= height <= 1200


def test_the_ratio_axis_spans_far_apart_ratios_with_room_and_never_reaches_zero():
    # Virtual threads at 25 times a small pool's rate beside a third of its CPU: a linear
    # margin would have reached below zero, which a log axis cannot take.
    from types import SimpleNamespace

    from httplab.presentation.png.variants import ratio_range
    far = [SimpleNamespace(figures=SimpleNamespace(ratio=25.0, low=None, high=None)),
           SimpleNamespace(figures=SimpleNamespace(ratio=0.3, low=0.25, high=0.36))]
    low, high = ratio_range(far)
    assert 0 < low < 0.25 and high > 25.0
    assert ratio_range([]) == (1 / 1.05, 1.05)

