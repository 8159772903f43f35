"""The profile chart (result-profile.png, PROFILE=1): one horizontal bar per profiled cell,
its segments the layers' shares in the layers' order and colours, labelled where wide
enough, the bars labelled by server (and point, when they differ), itimer and a check that
did not pass said under the label, a cell without samples written, never drawn as zero."""

from dataclasses import replace

import pytest
from matplotlib.colors import to_rgba

from httplab.model import Workload
from httplab.presentation.png.kit import series_color
from httplab.presentation.png.profile import (SHARE_LABEL_MIN, bar_label, build_profile_figure,
                                              profile_png)
from httplab.presentation.views.profile_figures import layer_shares, profiled_cells
from httplab.results.profile_layers import LAYERS

from tests.profile_sample import profile_sample_result
from tests.support.png_charts import bars, png_size, texts


def _segments_by_bar(axes) -> dict[float, list]:
    """Each bar's segments, left to right, by the bar's y."""
    by_y: dict[float, list] = {}
    for patch in bars(axes):
        by_y.setdefault(round(patch.get_y() + patch.get_height() / 2, 6), []).append(patch)
    return {y: sorted(segments, key=lambda p: p.get_x()) for y, segments in by_y.items()}


def test_each_profiled_cell_is_one_bar_of_its_layer_shares():
    result = profile_sample_result()
    axes = build_profile_figure(result).axes[0]
    by_bar = _segments_by_bar(axes)
    assert sorted(by_bar) == [0.0, 1.0, 2.0]
    for y, cell in enumerate(profiled_cells(result)):
        shares = [share for share in layer_shares(cell, LAYERS)]
        drawn = [share for share in shares if share]  # a layer without samples: no segment
        segments = by_bar[float(y)]
        assert [s.get_width() for s in segments] == pytest.approx([s * 100 for s in drawn])
        assert segments[0].get_x() == 0 and sum(s.get_width() for s in segments) \
            == pytest.approx(100)
        colours = [to_rgba(series_color(LAYERS.index(layer)))
                   for layer, share in zip(LAYERS, shares) if share]
        assert [s.get_facecolor() for s in segments] == colours


def test_netty_has_no_framework_segment_and_undertow_no_netty_one():
    axes = build_profile_figure(profile_sample_result()).axes[0]
    by_bar = _segments_by_bar(axes)
    framework, netty = to_rgba(series_color(3)), to_rgba(series_color(2))
    assert framework not in [s.get_facecolor() for s in by_bar[0.0]]
    assert netty not in [s.get_facecolor() for s in by_bar[2.0]]


def test_wide_segments_are_labelled_with_their_share():
    axes = build_profile_figure(profile_sample_result()).axes[0]
    labels = [t.get_text() for t in axes.texts if hasattr(t, "xy")]
    assert labels[:5] == ["45%", "15%", "25%", "6%", "4%"]  # Netty: handler 3 %, GC 2 % unlabelled
    assert SHARE_LABEL_MIN == 0.04


def test_bars_are_labelled_by_server_with_itimer_and_the_check_when_not_ok():
    result = profile_sample_result()
    axes = build_profile_figure(result).axes[0]
    assert [t.get_text() for t in axes.get_yticklabels()] == [
        "Netty (profiled)",
        "Armeria (16 workers) (profiled)\ncheck: run 1 ok, run 2 marked",
        "Undertow (200 workers) (profiled)\nitimer: no kernel frames\n"
        "check: run 1 ok, run 2 failed"]
    assert axes.get_ylim() == (2.5, -0.5)  # the first cell on top
    legend = [t.get_text() for t in axes.get_legend().get_texts()]
    assert legend == list(LAYERS)
    assert axes.get_xlim() == (0, 100) and "%" in axes.get_xlabel()
    assert axes.get_title().startswith("Where the CPU time went inside each server, by layer")


def test_bars_at_several_points_say_their_workload_and_point():
    result = profile_sample_result()
    netty = next(c for c in result.cells if c.server == "netty+profiled")
    result = replace(result, cells=result.cells + (replace(netty, workload=Workload("json")),))
    cells = profiled_cells(result)
    assert bar_label(result, cells[0], True) == "Netty (profiled)\nt5 c500"
    assert bar_label(result, cells[-1], True) == "Netty (profiled)\njson t5 c500"
    axes = build_profile_figure(result).axes[0]
    assert axes.get_yticklabels()[-1].get_text() == "Netty (profiled)\njson t5 c500"


def test_a_cell_without_samples_is_written_not_drawn():
    result = profile_sample_result()
    result = replace(result, cells=tuple(
        replace(c, profiles=tuple(replace(p, failure="did not start", layers=(), samples=0)
                                  for p in c.profiles)) if c.server == "netty+profiled" else c
        for c in result.cells))
    axes = build_profile_figure(result).axes[0]
    assert 0.0 not in _segments_by_bar(axes)
    assert len(texts(axes, "no samples (see results.md)")) == 1


def test_the_chart_is_a_png_that_grows_with_its_bars():
    result = profile_sample_result()
    one = replace(result, cells=tuple(c for c in result.cells if c.server != "armeria+profiled"
                                      and c.server != "undertow+profiled"))
    (width, height), (_, smaller) = (png_size(profile_png(drawn)) for drawn in (result, one))
    assert width == 1100 and height > smaller
