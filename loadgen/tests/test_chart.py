import struct

from httplab.chart import chart_title, draw_throughput_chart

from .sample_results import sample_result

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == PNG_SIGNATURE, "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_chart_is_a_png_of_readable_size(tmp_path):
    path = tmp_path / "image" / "result1.png"
    draw_throughput_chart(sample_result(), path)
    data = path.read_bytes()
    width, height = png_size(data)
    assert 800 <= width <= 2000 and 400 <= height <= 1200
    assert 10_000 < len(data) < 1_000_000


def test_title_names_the_protocol():
    assert chart_title(sample_result()) == ("wrk Requests/sec, 500 connections, 10 s per run "
                                            "(higher is better)\nmedian of 3 runs, bars from "
                                            "min to max")


def test_latency_and_memory_chart_is_a_png_of_readable_size(tmp_path):
    from httplab.chart_latency import draw_latency_memory_chart

    path = tmp_path / "result2.png"
    draw_latency_memory_chart(sample_result(), path)
    width, height = png_size(path.read_bytes())
    assert 1000 <= width <= 2000 and 400 <= height <= 1200


def test_second_chart_goes_beside_the_first():
    from pathlib import Path

    from httplab.results_store import second_chart_path

    assert second_chart_path(Path("image/result1.png")) == Path("image/result2.png")
    assert second_chart_path(Path("/tmp/out/chart.png")) == Path("/tmp/out/chart-2.png")
