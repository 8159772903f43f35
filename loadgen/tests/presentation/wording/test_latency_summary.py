"""The terminal summary of a finished make latency run: each server's maximum, as results.md's
first table says it, and the CPU per request at the common rate."""

from dataclasses import replace

from httplab.presentation.wording.latency_summary import latency_summary_text

from tests.latency_sample import latency_sample_result
from tests.sample_results import sample_result


def test_the_summary_is_the_max_table_and_the_costs():
    lines = latency_summary_text(latency_sample_result()).splitlines()
    assert lines[0] == ("Max sustainable rate at p99 ≤ 10 ms, latency from each request's due "
                        "time (oha 1.16.0):")
    assert lines[2].split()[:4] == ["Framework", "Max", "sustainable", "rate"]
    assert lines[3].startswith("Netty                   at least 20,000 req/s, limited by the "
                               "load tool  20,000, 20,000  40000/s: the load tool could not")
    assert lines[4].startswith("Undertow (200 workers)  10,000 req/s")
    assert lines[5].startswith("nginx (reference)       40,000 req/s")
    assert lines[-1] == ("Server CPU per request at the common rate, 10,000 req/s: Netty 30.0 µs, "
                         "Undertow (200 workers) 55.0 µs, nginx (reference) 11.0 µs")


def test_without_a_common_rate_there_is_no_cost_line():
    result = latency_sample_result()
    result = replace(result, latency=replace(result.latency, cost_rate=None))
    assert "common rate" not in latency_summary_text(result)


def test_a_bench_has_no_latency_summary():
    assert latency_summary_text(sample_result()) == ""
