"""results.md's "Variants compared" (markdown/variants.py): one row per figure of a variant
against its base, with its interval and verdict; a latency run's without threads and
connections; none in a run of one variant each. The profiler overhead's ratio and interval
are the same figures."""

from dataclasses import replace

from httplab.presentation.markdown.overhead import overhead_section
from httplab.presentation.markdown.variants import VARIANTS_INTRO, variants_section
from httplab.results.store import read_results

from tests.profile_sample import profile_sample_result
from tests.sample_results import sample_result
from tests.variants_sample import PROFILE_RUN, latency_run_with_a_profiled_netty


def test_the_committed_profile_run_has_a_row_per_framework_and_figure():
    lines = variants_section(read_results(PROFILE_RUN))
    assert lines[1] == VARIANTS_INTRO
    header, *rows = [line.strip("| ").split(" | ") for line in lines if line.startswith("| ")]
    assert header == ["Framework", "Threads", "Connections", "Metric", "Base", "Other",
                      "Estimate", "95% interval", "q", "Rounds", "Verdict"]
    netty = rows[1]
    assert netty[3:] == ["Requests/sec", "Netty", "Netty (profiled)", "0.813×", "0.75–0.88×",
                         "0.017", "3", "Netty (profiled) is 19 % slower (12 to 25 %)"]
    assert lines[3].startswith("This run made 4 comparisons (2 of Requests/sec, 2 of CPU per "
                               "request): about 0.2 of their 95% intervals would exclude 1")
    assert len(rows) == 1 + 4  # the dashes, then two figures each of Netty and Undertow


def test_the_overhead_tables_ratio_and_interval_are_the_same_figures():
    result = read_results(PROFILE_RUN)
    overhead = [line for line in overhead_section(result) if line.startswith("| Netty |")]
    assert overhead[0].endswith("| 0.813× | 11.23us | 13.01us | 0.75–0.88× |")
    assert "| 0.813× | 0.75–0.88× |" in "\n".join(variants_section(result))


def test_with_two_rounds_each_row_asks_for_three():
    rows = [line for line in variants_section(profile_sample_result()) if "profiled)" in line]
    assert rows and all(row.endswith("| — | — | 2 | needs at least 3 rounds (this run has 2) |")
                        for row in rows)


def test_a_latency_run_compares_its_cost_and_maximum_without_threads_or_connections():
    lines = variants_section(latency_run_with_a_profiled_netty())
    header = lines[5]
    assert header.startswith("| Framework | Metric | Base | Other |")
    assert any("| CPU per request at the common rate | Netty | netty+profiled |" in line
               and "costs 17 % more CPU per request" in line for line in lines)
    assert any("| Max sustainable rate |" in line for line in lines)


def test_a_run_of_one_variant_each_has_no_section():
    assert variants_section(sample_result()) == []
    result = profile_sample_result()
    assert variants_section(replace(result, cells=result.cells[:3])) == []
