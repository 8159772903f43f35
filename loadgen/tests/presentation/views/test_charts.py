"""The chart catalogue (presentation/views/charts.py): which charts each kind of run has,
and that the PNG files publish writes are the catalogue's."""

from dataclasses import replace
from pathlib import Path

import pytest

from httplab.presentation.publish import write_charts
from httplab.presentation.views.charts import ChartKind, run_charts

from tests.latency_sample import latency_sample_result
from tests.profile_sample import profile_sample_result
from tests.sample_results import sample_result, workloads_sample_result
from tests.variants_sample import latency_run_with_a_profiled_netty

BENCH_CHARTS = [ChartKind.THROUGHPUT, ChartKind.LATENCY_MEMORY, ChartKind.CPU,
                ChartKind.SWEEP, ChartKind.FAIRNESS]


def test_a_bench_has_each_workloads_charts_then_the_profile():
    charts = run_charts(workloads_sample_result())
    workloads = list(dict.fromkeys(chart.workload for chart in charts[:-1]))
    assert [chart.kind for chart in charts] == BENCH_CHARTS * len(workloads) + [ChartKind.PROFILE]
    assert len(workloads) > 1 and charts[-1].workload is None and not charts[-1].shown


def test_a_latency_run_has_its_curve_alone_and_a_run_without_cells_none():
    (curve,) = run_charts(latency_sample_result())
    assert curve.kind is ChartKind.LATENCY_CURVE and curve.shown
    assert run_charts(replace(sample_result(), cells=())) == ()


@pytest.mark.parametrize("sample", [sample_result, workloads_sample_result,
                                    profile_sample_result, latency_sample_result])
def test_publish_writes_the_png_of_each_shown_chart_and_no_other(tmp_path, sample):
    result, image = sample(), tmp_path / "result1.png"
    write_charts(result, image)
    shown = {chart.png_path(image).name for chart in run_charts(result) if chart.shown}
    assert shown and {path.name for path in tmp_path.glob("*.png")} == shown


def test_the_chart_of_variants_is_listed_only_when_the_run_has_pairs():
    """After the bench's charts (or the latency curve), and never in a run of one variant
    each: the catalogue lists it shown, or not at all."""
    charts = run_charts(profile_sample_result())
    assert charts[-1].kind is ChartKind.VARIANTS and charts[-1].shown
    assert charts[-1].png_path(Path("result1.png")).name == "result-variants.png"
    for sample in (sample_result, workloads_sample_result, latency_sample_result):
        assert ChartKind.VARIANTS not in {chart.kind for chart in run_charts(sample())}
    latency = run_charts(latency_run_with_a_profiled_netty())
    assert [chart.kind for chart in latency] == [ChartKind.LATENCY_CURVE, ChartKind.VARIANTS]
