"""What results.md adds for a run with profiles (PROFILE=1): "Where the time went", one row
per profiled cell with its samples by layer, its consistency check and its flame graphs,
notes on the runs the check marked or the profiler failed on, the reference that is not
profiled, then each cell's hottest frames. Pure."""

from __future__ import annotations

import re

from httplab.model import BenchResult, Cell
from httplab.presentation.wording.cells import cell_status
from httplab.presentation.markdown.table import markdown_table
from httplab.presentation.views.figures import cell_figures
from httplab.presentation.wording.formatting import MISSING
from httplab.presentation.views.profile_figures import (ITIMER, Profiled, by_itimer, by_round,
                                                        cell_check, cell_events, cell_samples,
                                                        flame_graphs, has_profiles, hottest_frames,
                                                        layer_order, layer_shares, profiled_cells,
                                                        run_findings, share_of)
from httplab.results.stability import cell_name

PROFILE_INTRO = ("Where the time went (async-profiler in each profiled server during its "
                 "measured runs only, never the warm-up: each layer's share of the samples, "
                 "summed over the cell's runs; which frame counts in which layer, and the "
                 "check of the samples against the CPU measured, are in docs/method.md, "
                 "\"Profiles\"):")
ITIMER_MARK = " †"
ITIMER_NOTE = ("† itimer: the timer this event samples by sees no kernel frames, so its "
               "\"kernel\" is the time in the libc wrappers of system calls (send, writev, "
               "epoll_wait...), not in the kernel itself.")
HOT_INTRO = ("Hottest frames (self samples: the frame on top of the stack; each run's "
             "profile keeps its own ten hottest, summed here over the cell's runs; the "
             "share is of the cell's samples):")
HOT_HEADER = ("Frame", "Layer", "Self samples", "Share")
COST_INTRO = ("What each layer costs per request (µs of the server's CPU: its CPU per "
              "request, as \"Where the CPU went\" gives it, times the layer's share of the "
              "samples), so that servers can be compared layer by layer:")


def profile_sections(result: BenchResult) -> list[str]:
    """The lines of both sections, each after a blank line; none without profiles."""
    if not has_profiles(result):
        return []
    cells = profiled_cells(result)
    lines = ["", PROFILE_INTRO, "", *_layer_table(result, cells)]
    for block in (itimer_note(cells), _findings(result, cells), not_profiled(result),
                  _cost_table(result, cells), _hot_tables(result, cells)):
        lines += ["", *block] if block else []
    return lines


def _several_workloads(cells: tuple[Cell, ...]) -> bool:
    return len({cell.workload for cell in cells}) > 1


def _head(result: BenchResult, cell: Cell, workloads: bool) -> tuple[str, ...]:
    """Framework, its workload when the cells have several, threads, connections."""
    workload = (cell.workload.label,) if workloads else ()
    return (result.label(cell.server), *workload, str(cell.threads), str(cell.connections))


def _layer_table(result: BenchResult, cells: tuple[Cell, ...]) -> list[str]:
    layers, workloads = layer_order(result), _several_workloads(cells)
    header = (("Framework",) + (("Workload",) if workloads else ()) + ("Threads", "Connections",
              "Event", "Samples", *layers, "Check", "Flame graphs"))
    return markdown_table(header, [_head(result, cell, workloads)
                                   + profile_columns(cell, layers, _check(result, cell))
                                   for cell in cells])


def _cost_table(result: BenchResult, cells: tuple[Cell, ...]) -> list[str]:
    """Each layer's share times the cell's CPU per request; none when no cell has both."""
    layers, workloads = layer_order(result), _several_workloads(cells)
    rows = [_head(result, cell, workloads) + _layer_costs(cell, layers) for cell in cells]
    if all(row[-1] == MISSING for row in rows):
        return []
    header = (("Framework",) + (("Workload",) if workloads else ())
              + ("Threads", "Connections", *layers, "CPU per request"))
    return [COST_INTRO, "", *markdown_table(header, rows)]


def _layer_costs(cell: Cell, layers: tuple[str, ...]) -> tuple[str, ...]:
    """Each layer's µs per request, then the whole; MISSING where either is unknown."""
    figures = cell_figures(cell)
    per_request = figures.cpu_us_per_request if figures else None
    if per_request is None:
        return (MISSING,) * (len(layers) + 1)
    costs = tuple(MISSING if share is None else f"{share * per_request:.1f}"
                  for share in layer_shares(cell, layers))
    return (*costs, f"{per_request:.1f}")


def _check(result: BenchResult, cell: Cell) -> str:
    """Its runs' check, or why it has no runs."""
    return cell_check(cell) if cell.runs else cell_status(cell, result)


def profile_columns(item: Profiled, layers: tuple[str, ...], check: str) -> tuple[str, ...]:
    """A cell's or a latency step's event, samples, each layer's share, check and flame
    graphs, as the "Where the time went" tables show them."""
    samples = cell_samples(item)
    shares = tuple(_percent(share) for share in layer_shares(item, layers))
    return (_event(item), str(samples) if samples else MISSING, *shares, check, _links(item))


def _event(cell: Profiled) -> str:
    """The event(s) sampled, itimer marked for the note under the table."""
    return " / ".join(event + (ITIMER_MARK if event == ITIMER else "")
                      for event in cell_events(cell)) or MISSING


def _links(cell: Profiled) -> str:
    """Each run's flame graph, relative to results.md."""
    graphs = flame_graphs(cell)
    if len(graphs) == 1 and len(by_round(cell)) == 1:
        return f"[flame graph]({graphs[0][1]})"
    return ", ".join(f"[run {round_number}]({path})" for round_number, path in graphs) or MISSING


def itimer_note(cells: tuple[Profiled, ...]) -> list[str]:
    """Once, when a cell (or step) was sampled by itimer."""
    return [ITIMER_NOTE] if any(by_itimer(cell) for cell in cells) else []


def _findings(result: BenchResult, cells: tuple[Cell, ...]) -> list[str]:
    """Each run the check marked or the profiler failed on, with its sentence."""
    return [f"- {cell_name(cell, result.label(cell.server))}, run {finding.round_number} "
            f"{finding.status}: {finding.text}" for cell in cells for finding in run_findings(cell)]


def not_profiled(result: BenchResult) -> list[str]:
    """One line per reference server: nginx is no JVM."""
    return [f"{record.framework}: not a JVM, not profiled." for record in result.servers
            if record.is_reference]


def _hot_tables(result: BenchResult, cells: tuple[Cell, ...]) -> list[str]:
    """The intro, then each cell's hottest frames under its name; none without frames."""
    tables = [line for cell in cells for line in _hot_table(result, cell)]
    return [HOT_INTRO, *tables] if tables else []


def _hot_table(result: BenchResult, cell: Cell) -> list[str]:
    frames = hottest_frames(cell)
    if not frames:
        return []
    rows = [(code_span(hot.frame), hot.layer, str(hot.samples),
             _percent(share_of(hot.samples, cell))) for hot in frames]
    return ["", f"{cell_name(cell, result.label(cell.server))}:", "",
            *markdown_table(HOT_HEADER, rows)]


def code_span(text: str) -> str:
    """The text as inline code, whole: fenced by more backticks than any run inside it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    padding = " " if longest else ""
    return f"{'`' * (longest + 1)}{padding}{text}{padding}{'`' * (longest + 1)}"


def _percent(share: float | None) -> str:
    return MISSING if share is None else f"{share:.1%}"
