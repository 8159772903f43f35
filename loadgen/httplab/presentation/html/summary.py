"""The summary a run's page opens with. Pure.

A bench: per workload and framework (fastest first, the reference last), its headline cell
(at the headline connection count, its best thread setting: presentation/views/points.py), with
its median Requests/sec, the spread of its runs, which CPU limited it (results/bottleneck.py's
words), its share of the ceiling (results/ceiling.py) and its status, marked failed or warned
by row_marks.py. A make latency run: per server its max sustainable rate with each round's,
what broke it, and its CPU per request at the common rate, as the terminal summary gives
them (presentation/wording/latency_summary.py)."""

from __future__ import annotations

from dataclasses import dataclass

from httplab.model import BenchResult, Cell, SustainedRate
from httplab.presentation.wording.cells import cell_status
from httplab.presentation.wording.cells import share_of_ceiling_text
from httplab.presentation.wording.formatting import MISSING
from httplab.presentation.html.raw_links import FileLink
from httplab.presentation.html.row_marks import FAILED, WARNED, RunMarks
from httplab.presentation.views.latency_figures import is_reference, run_maxima
from httplab.presentation.wording.latency_summary import common_rate_cost_text
from httplab.presentation.wording.latency import (broke_at_text, max_rate_text, rounds_text,
                                                  server_label)
from httplab.presentation.views.points import (fastest, headline_cells, measured, of_workload,
                                               reference_servers, run_workloads, server_order)
from httplab.results.bottleneck import cell_bottleneck
from httplab.results.stats import cell_summary

@dataclass(frozen=True)
class SummaryRow:
    framework: str
    workload: str
    cell: str  # "5 threads, 500 connections"
    figure: str  # its median Requests/sec: "69,297 req/s"
    spread: str  # "61,001–72,000, CV 8.3 % over 3 runs"
    verdict: str  # the bottleneck in words
    verdict_detail: str  # the figures behind it
    ceiling: str  # "58%", "the ceiling", "not applicable" or "—"
    mark: str | None  # FAILED, WARNED or None
    status: str  # "ok", "failed: why", "warned: what"
    flame_graphs: tuple[FileLink, ...] = ()


@dataclass(frozen=True)
class LatencySummaryRow:
    framework: str
    max_rate: str
    rounds: str
    broke_at: str
    cost: str  # CPU per request at the common rate, the median over rounds
    mark: str | None


def summary_rows(result: BenchResult, files: frozenset[str]) -> tuple[SummaryRow, ...]:
    marks = RunMarks(result)
    return tuple(_row(result, marks, cell, files) for workload in run_workloads(result)
                 for cell in _headline_cells(of_workload(result, workload)))


def _headline_cells(result: BenchResult) -> list[Cell]:
    """Each framework's headline cell, fastest first, then the reference's."""
    servers = server_order(result) + reference_servers(result)
    return [cell for cell in (headline_of(result, server) for server in servers) if cell]


def headline_of(result: BenchResult, server: str) -> Cell | None:
    """Its measured cell at the headline count with the highest median, at any thread
    setting; else (none measured) its first cell there, or its first of all."""
    cells = headline_cells(result, server)
    return fastest(cells) or next(iter(cells), next(
        (cell for cell in result.cells if cell.server == server), None))


def _row(result: BenchResult, marks: RunMarks, cell: Cell, files: frozenset[str]) -> SummaryRow:
    head = (result.label(cell.server), cell.workload.label,
            f"{cell.threads} threads, {cell.connections} connections")
    mark = marks.of_cell(cell)
    status = (cell_status(cell, result) if mark == FAILED
              else marks.warned_words(cell) if mark == WARNED else cell.status.value)
    if not measured(cell):
        return SummaryRow(*head, MISSING, MISSING, MISSING, "", MISSING, mark, status)
    verdict = cell_bottleneck(cell, result)
    return SummaryRow(*head, f"{cell_summary(cell).median:,.0f} req/s", spread_text(cell),
                      verdict.words, verdict.detail, share_of_ceiling_text(cell, result), mark,
                      status, flame_graph_links(cell, files))


def spread_text(cell: Cell) -> str:
    """The range of its runs' Requests/sec and their CV; "one run" alone."""
    rate = cell_summary(cell)
    if rate is None or rate.n < 2:
        return "one run"
    cv = MISSING if rate.cv is None else f"{rate.cv:.1%}"
    return f"{rate.minimum:,.0f}–{rate.maximum:,.0f}, CV {cv} over {rate.n} runs"


def flame_graph_links(cell: Cell, files: frozenset[str]) -> tuple[FileLink, ...]:
    """Each run's flame graph that is in the folder (PROFILE=1), named by its round when
    the cell has several."""
    graphs = [(index, profile.flame_graph_file) for index, profile in enumerate(cell.profiles)
              if profile is not None and profile.flame_graph_file in files]
    if len(graphs) == 1 and len(cell.runs) <= 1:
        return (FileLink(graphs[0][1], "flame graph"),)
    return tuple(FileLink(path, f"flame graph, round {_round(cell, index)}")
                 for index, path in graphs)


def _round(cell: Cell, index: int) -> int:
    return cell.rounds[index] if index < len(cell.rounds) else index + 1


def latency_summary_rows(result: BenchResult) -> tuple[LatencySummaryRow, ...]:
    """One per server with a maximum, the highest first, the reference last (none for a
    bench)."""
    maxima = sorted(run_maxima(result), key=lambda rate: (
        is_reference(result, rate.server), -(rate.value or 0.0)))
    return tuple(LatencySummaryRow(
        server_label(result, rate.server), max_rate_text(rate), rounds_text(rate),
        broke_at_text(rate), common_rate_cost_text(result, rate.server), latency_mark(rate))
        for rate in maxima)


def latency_mark(rate: SustainedRate) -> str | None:
    """Failed when no rate held; warned when the load tool's limit came first (the figure
    is a floor, not the server's)."""
    if rate.value is None:
        return FAILED
    return WARNED if rate.limited_by_tool else None


def workload_labels(rows: tuple[SummaryRow, ...]) -> tuple[str, ...]:
    """The workloads the rows show, in their order (the page names the column only when
    there are several)."""
    return tuple(dict.fromkeys(row.workload for row in rows))
