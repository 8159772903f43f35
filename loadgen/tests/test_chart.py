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
    assert chart_title(sample_result()) == \
        "wrk Requests/sec, 500 connections, 10 s per run (higher is better)"
