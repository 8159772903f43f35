"""results.md's "Where the CPU went" shows what the host did beside each cell: its longest
stall (the stall meter's, over the cell's runs) and its foreign CPU, and the verdict's
figures say so when they explain the result, and not otherwise."""

from __future__ import annotations

from dataclasses import replace

from httplab.model import ResourceUsage
from httplab.presentation.markdown.results import CPU_HEADER, MarkdownExporter

from tests.sample_results import sample_result
from tests.stalls_sample import STALLED_HOST


def _cpu_row(text: str, server: str) -> dict[str, str]:
    start = text.index("| " + " | ".join(CPU_HEADER) + " |")
    for line in text[start:].splitlines()[2:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if cells[0] == server:
            return dict(zip(CPU_HEADER, cells))
    raise AssertionError(f"no row of {server}")


def test_a_stalled_cell_busy_with_other_work_shows_both():
    result = sample_result()
    cell = next(cell for cell in result.cells if cell.resources)
    usage = ResourceUsage(cpu_cores=0.6, loadgen_cores=0.3, host_busy_cores=2.9,
                          loadgen_source="wrk process", samples=4)
    stalled = replace(cell, resources=(usage,) * len(cell.runs),
                      host_stalls=(STALLED_HOST,) + (None,) * (len(cell.runs) - 1))
    result = replace(result, cells=tuple(stalled if c is cell else c for c in result.cells))
    row = _cpu_row(MarkdownExporter().render(result), result.label(cell.server))
    assert (row["Longest host stall"], row["Foreign CPU (cores)"]) == ("38.00ms", "2.00")
    assert row["Figures behind it"].endswith(  # a quarter of the sample host's 4 cores is 1
        "; the host was busy with other work: 2.00 cores; the host stalled up to 38 ms")


def test_a_cell_measured_before_the_meter_shows_no_stall_and_a_small_foreign_cpu_no_note():
    result = sample_result()
    cell = next(cell for cell in result.cells if cell.resources)
    row = _cpu_row(MarkdownExporter().render(result), result.label(cell.server))
    assert (row["Longest host stall"], row["Foreign CPU (cores)"]) == ("—", "0.10")
    assert "the host" not in row["Figures behind it"]
