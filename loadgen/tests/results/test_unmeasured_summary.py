"""A line for each unmeasured run, from whichever tool's file it left."""

from __future__ import annotations

from httplab.results.unmeasured_summary import run_stem, summary_lines

from tests.conftest import FIXTURES


def _text(folder: str, name: str) -> str:
    return (FIXTURES / folder / name).read_text()


def test_a_wrk_run_is_read_from_its_json_before_its_report():
    texts = {"netty-warmup.json": _text("wrk", "nginx-hello.json"),
             "netty-warmup.txt": _text("wrk", "nginx-hello.txt"),
             "netty-primer.txt": _text("wrk", "nginx-hello.txt"),
             "netty-warmup.wrk.cpu.txt": "0.5 0.1\n"}
    warmup, = [line for line in summary_lines(texts) if line.startswith("netty-warmup:")]
    primer, = [line for line in summary_lines(texts) if line.startswith("netty-primer:")]
    assert len(summary_lines(texts)) == 2
    assert warmup.startswith("netty-warmup: wrk, ") and " requests (" in warmup
    assert "p99 " in warmup and "socket errors 0" in warmup
    assert primer.startswith("netty-primer: wrk, ")


def test_an_h2load_run_and_an_oha_step_say_their_tool_and_counts():
    lines = summary_lines({
        "nginx-h2c-primer.h2load-run.txt": _text("h2load/measured", "nginx-h2c-m2.h2load-run.txt"),
        "netty-q5000.oha.json": _text("oha", "netty-5000.json")})
    oha, h2load = lines
    assert h2load.startswith("nginx-h2c-primer: h2load, ") and "succeeded" in h2load
    assert oha.startswith("netty-q5000: oha, offered 5000/s, ") and "p99 " in oha


def test_a_file_that_cannot_be_read_says_so_in_its_line():
    (line,) = summary_lines({"netty-warmup.txt": "not wrk\n"})
    assert line.startswith("netty-warmup: cannot read netty-warmup.txt: ")


def test_a_load_tools_cpu_time_is_no_run():
    assert run_stem("netty-warmup.wrk.cpu.txt") is None
    assert run_stem("netty-q5000.oha.json") == ("netty-q5000", 0)
