"""The transports table: shown for a run that chose TRANSPORT, each row naming the engine
the server said it ran on beside what it charged (a bench's cells; a latency run's steps at
the common rate, medians over rounds, with the kernel's share where profiled)."""

from __future__ import annotations

from dataclasses import replace

from httplab.model import ENGINE_SECCOMP, PLAINTEXT, RunProfile
from httplab.presentation.markdown.transports import (BENCH_HEADER, LATENCY_HEADER,
                                                      latency_transport_table, transport_table)
from httplab.results.profile_layers import KERNEL

from tests.latency_sample import latency_sample_result
from tests.sample_results import sample_result


def _chose(result, said="io_uring"):
    return replace(result, settings=replace(result.settings, transports=("epoll", "io_uring")),
                   servers=tuple(replace(server, transport=said) for server in result.servers))


def test_no_table_for_a_run_that_left_each_framework_on_its_own_engine():
    assert transport_table(sample_result(), PLAINTEXT) == []
    assert latency_transport_table(latency_sample_result()) == []


def test_each_bench_cell_names_the_engine_its_server_said_it_ran_on():
    lines = transport_table(_chose(sample_result()), PLAINTEXT)
    assert lines[2].startswith("| " + " | ".join(BENCH_HEADER[:4]))
    rows = [line for line in lines[4:] if line.startswith("|")]
    assert rows and all(row.split("|")[2].strip() == "io_uring" for row in rows)
    assert len(rows) == len(sample_result().cells)


def test_a_latency_run_shows_each_server_at_the_common_rate_over_its_rounds():
    result = _chose(latency_sample_result(), said="epoll")
    lines = latency_transport_table(result)
    assert lines[3].startswith("| " + " | ".join(LATENCY_HEADER[:3]))
    netty = next(line for line in lines if line.startswith("| Netty"))
    cells = [cell.strip() for cell in netty.split("|")[1:-1]]
    rounds = len({step.repeat for step in result.latency.steps if step.server == "netty"})
    assert cells[1:4] == ["epoll", "10,000", str(rounds)]
    assert cells[-1] == "not profiled"


def test_the_kernel_share_is_the_median_of_the_profiled_steps():
    result = _chose(latency_sample_result())
    profiles = iter((RunProfile("cpu", 10_000, samples=100, layers=((KERNEL, 40),)),
                     RunProfile("cpu", 10_000, samples=200, layers=((KERNEL, 120), ("JDK", 80)))))
    steps = tuple(replace(step, profile=next(profiles, None))
                  if step.server == "netty" and step.purpose.value == "cost" else step
                  for step in result.latency.steps)
    profiled = replace(result, latency=replace(result.latency, steps=steps))
    netty = next(line for line in latency_transport_table(profiled) if line.startswith("| Netty"))
    assert netty.rstrip(" |").endswith("| 50%")  # its two rounds: the median of 40 % and 60 %


def test_a_row_names_the_seccomp_profile_where_it_was_not_the_engines_own():
    result = _chose(sample_result())
    shipped = replace(result, servers=tuple(replace(server, seccomp="io_uring.json")
                                            for server in result.servers))
    engine = replace(result, servers=tuple(replace(server, seccomp=ENGINE_SECCOMP)
                                           for server in result.servers))
    assert "| io_uring (seccomp profile io_uring.json) |" in transport_table(shipped, PLAINTEXT)[4]
    assert "| io_uring |" in transport_table(engine, PLAINTEXT)[4]
