"""The cost ladder's charts: a PNG and the page's chart, listed only for a latency run that
chose PROTOCOL."""

from __future__ import annotations

from httplab.presentation.plotly.protocols import protocols_chart
from httplab.presentation.png.protocols import protocols_png
from httplab.presentation.views.charts import ChartKind, run_charts

from tests.latency_sample import latency_sample_result
from tests.protocol_sample import ladder_result


def test_the_ladder_is_charted_as_a_png_and_on_the_page():
    result = ladder_result()
    assert ChartKind.PROTOCOLS in [chart.kind for chart in run_charts(result)]
    assert ChartKind.PROTOCOLS not in [chart.kind for chart in run_charts(latency_sample_result())]
    assert protocols_png(result).startswith(b"\x89PNG")
    chart = protocols_chart(result)
    assert [trace["name"] for trace in chart.figure["data"]] == [
        "HTTP/1.1", "HTTP/1.1 over TLS", "HTTP/2 over TLS"]
    assert ("Netty", "HTTP/2 over TLS") == chart.table.rows[2][:2]
