"""The protocols tables: a latency run's cost ladder (each framework's CPU per request at
the common rate over each protocol, against the first with its interval, and with
KEEPALIVE=0 the CPU per TLS handshake), and a bench's cells with the protocol, TLS engine
and load each server was measured with; none for a run that chose no protocol."""

from __future__ import annotations

from dataclasses import replace

from httplab.model import PLAINTEXT
from httplab.presentation.markdown.protocols import (BENCH_HEADER, protocol_ladder,
                                                     protocol_table)

from tests.latency_sample import latency_sample_result
from tests.protocol_sample import ladder_result as _ladder_result
from tests.sample_results import sample_result


def _row(lines, label="| Netty"):
    return [cell.strip() for cell in next(line for line in lines
                                          if line.startswith(label)).split("|")[1:-1]]


def test_no_tables_for_a_run_that_chose_no_protocol_or_plaintext_http1_alone():
    assert protocol_ladder(latency_sample_result()) == []
    assert protocol_table(sample_result(), PLAINTEXT) == []
    h1 = sample_result()
    h1 = replace(h1, settings=replace(h1.settings, protocols=("h1",)))
    assert protocol_table(h1, PLAINTEXT) == []


def test_the_ladder_gives_each_protocol_its_cost_and_ratio_against_the_first():
    lines = protocol_ladder(_ladder_result())
    header = next(line for line in lines if line.startswith("| Server"))
    assert header.split("|")[3:6] == [" HTTP/1.1 ", " HTTP/1.1 over TLS ", " HTTP/2 over TLS "]
    cells = _row(lines)
    assert cells[1] == "jdk"
    few = "paired round(s), too few for an interval)"  # the sample's 2 rounds
    assert cells[3].startswith("45.00us (1.50×; 2 ") and cells[3].endswith(few)
    assert cells[4].startswith("60.00us (2.00×; 2 ")


def test_a_ladder_without_keepalive_gives_the_cpu_of_one_tls_handshake():
    lines = protocol_ladder(_ladder_result(keepalive=False, factors=(("h1-tls", 3.0),)))
    assert any(line.startswith("KEEPALIVE=0") for line in lines)
    header = next(line for line in lines if line.startswith("| Server"))
    assert header.rstrip(" |").endswith("CPU per TLS handshake")
    cells = _row(lines)
    assert cells[2] == "30.00us" and cells[-1] == "60.00us"  # 3 x 30 less 30


def test_a_protocol_a_server_does_not_serve_says_why():
    result = _ladder_result()
    result = replace(result, servers=tuple(
        replace(server, not_applicable="X 1 serves h1 only here, not h2 (its page)")
        if server.name == "netty@h2" else server for server in result.servers))
    assert _row(protocol_ladder(result))[4] == ("not applicable: X 1 serves h1 only here, "
                                                "not h2 (its page)")


def test_each_bench_cell_names_its_protocol_tls_engine_and_load():
    result = sample_result()
    result = replace(result, settings=replace(result.settings, protocols=("h2",), streams=4),
                     servers=tuple(replace(server, protocol="h2", tls_engine="openssl")
                                   for server in result.servers))
    lines = protocol_table(result, PLAINTEXT)
    assert "4 stream(s) in flight per connection" in lines[0]
    assert lines[2].startswith("| " + " | ".join(BENCH_HEADER[:4]))
    cells = [cell.strip() for cell in lines[4].split("|")[1:-1]]
    assert cells[1:3] == ["HTTP/2 over TLS", "openssl"]
    assert cells[3].startswith("h2load -t") and cells[3].endswith("-m4")

