"""Where each profiled server's CPU time went (PROFILE=1, as result-profile.png): each
layer's share of the profiler's samples, summed over the cell's runs
(presentation/views/profile_figures.py). One trace per profiled cell, a bar per layer, so the
frameworks stand side by side in each layer and the toggles act on them as on every chart."""

from __future__ import annotations

from httplab.model import BenchResult, Cell
from httplab.presentation.plotly.model import ChartSpec
from httplab.presentation.plotly.parts import (base_layout, drawn, hover_lines, number, percent,
                                               server_trace, table)
from httplab.presentation.views.profile_figures import (ITIMER, OK, by_itimer, cell_check,
                                                        cell_events, cell_samples, layer_order,
                                                        layer_shares, profiled_cells)


def profile_chart(result: BenchResult) -> ChartSpec:
    cells, layers = profiled_cells(result), layer_order(result)
    several = len({(c.workload, c.threads, c.connections) for c in cells}) > 1
    traces = [_trace(result, cell, layers, several) for cell in cells]
    unsampled = [_name(result, cell, True) for cell in cells if not cell_samples(cell)]
    itimer = (f" {ITIMER}: the event sees no kernel frames, so its \"kernel\" is the time in "
              "libc's wrappers of system calls." if any(by_itimer(c) for c in cells) else "")
    caption = ("async-profiler during the measured runs: each layer's share of the samples, "
               "summed over each cell's runs; a cell whose samples did not match the CPU "
               f"measured says so in its hover and in the table's check.{itimer}"
               + (f" No samples: {', '.join(unsampled)}." if unsampled else ""))
    layout = base_layout("layer", "share of the profiler's samples (%)", barmode="group")
    columns = ("Framework", "Workload", "Threads", "Connections", "Samples", *layers, "Check")
    return ChartSpec("profile", "Where the CPU time went inside each server, by layer",
                     caption, {"data": drawn(traces), "layout": layout},
                     table(columns, [_row(result, cell, layers) for cell in cells]))


def _name(result: BenchResult, cell: Cell, with_point: bool) -> str:
    """The server's label; its workload and point when the cells differ in them."""
    if not with_point:
        return result.label(cell.server)
    return f"{result.label(cell.server)} {cell.workload.key} t{cell.threads} c{cell.connections}"


def _trace(result: BenchResult, cell: Cell, layers: tuple[str, ...], several: bool) -> dict:
    shares = layer_shares(cell, layers)
    samples, check = cell_samples(cell), cell_check(cell)
    hover = [hover_lines(f"{layer}: {percent(share)} of {number(samples)} samples",
                         f"{cell.workload.label}, {cell.threads} threads, "
                         f"{cell.connections} connections",
                         f"event: {', '.join(cell_events(cell))}",
                         None if check == OK else f"check: {check}")
             for layer, share in zip(layers, shares)]
    trace = server_trace(result, cell.server, "bar", hover, x=list(layers),
                         y=[None if share is None else share * 100 for share in shares])
    trace["name"] = _name(result, cell, several)
    return trace


def _row(result: BenchResult, cell: Cell, layers: tuple[str, ...]) -> tuple[str, ...]:
    return ((result.label(cell.server), cell.workload.label, str(cell.threads),
             str(cell.connections), number(cell_samples(cell)))
            + tuple(percent(share) for share in layer_shares(cell, layers))
            + (cell_check(cell),))
