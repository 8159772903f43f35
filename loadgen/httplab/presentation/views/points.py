"""Which cells a chart or table draws, and in what order. Pure.

A run's cells are split by workload first (of_workload): every table and chart below
draws one workload's cells, so a cell is found by its server, threads and connections.
The charts of one connection count (result1, result2, the CPU chart) draw the headline
count: the largest measured, which for the original protocol is its only one, 500. The
frameworks come fastest first; the reference server is drawn apart, as the ceiling."""

from __future__ import annotations

from dataclasses import replace

from httplab.model import BenchResult, Cell, CellStatus, Workload
from httplab.results.stats import cell_summary


def run_workloads(result: BenchResult) -> tuple[Workload, ...]:
    """The workloads the cells were measured at: plaintext first, then in the order the
    cells have them."""
    workloads = dict.fromkeys(cell.workload for cell in result.cells)
    return tuple(sorted(workloads, key=lambda workload: not workload.is_plaintext))


def only_plaintext(result: BenchResult) -> bool:
    """A run of the original protocol alone (or of no cells): shown as it always was."""
    return all(workload.is_plaintext for workload in run_workloads(result))


def of_workload(result: BenchResult, workload: Workload) -> BenchResult:
    """The result with only its cells at this workload."""
    return replace(result, cells=tuple(cell for cell in result.cells
                                       if cell.workload == workload))


def connection_counts(result: BenchResult) -> list[int]:
    """The connection counts the cells were measured at, ascending."""
    return sorted({cell.connections for cell in result.cells})


def shows_a_sweep(result: BenchResult) -> bool:
    """Whether the cells were measured at more than one connection count (make sweep)."""
    return len(connection_counts(result)) > 1


def headline_connections(result: BenchResult) -> int | None:
    """The largest count measured; without cells, the largest asked for; None without either."""
    asked = result.settings.connections if result.settings else ()
    return max(connection_counts(result) or asked, default=None)


def at_connections(result: BenchResult, connections: int) -> BenchResult:
    """The result with only its cells at this connection count."""
    return replace(result, cells=tuple(cell for cell in result.cells
                                       if cell.connections == connections))


def cell_at(result: BenchResult, server: str, threads: int, connections: int) -> Cell | None:
    """The server's cell at a thread setting and connection count; wrk runs no more threads
    than connections, so below `threads` connections the cell has one thread per connection."""
    wanted = (server, min(threads, connections), connections)
    return next((cell for cell in result.cells
                 if (cell.server, cell.threads, cell.connections) == wanted), None)


def thread_settings(result: BenchResult) -> list[int]:
    if result.settings:
        return list(result.settings.threads)
    return sorted({cell.threads for cell in result.cells}, reverse=True)


def server_order(result: BenchResult) -> list[str]:
    """The frameworks, the write-up's first and those beyond it after, each group fastest
    first: by each one's best median Requests/sec; unmeasured ones last in their group.
    The reference server is not among them: it is the ceiling line."""
    servers = [name for name in dict.fromkeys(cell.server for cell in result.cells)
               if name not in reference_servers(result)]
    return sorted(servers, key=lambda server: (_beyond_write_up(result, server),
                                               -_best_rate(result, server)))


def _beyond_write_up(result: BenchResult, server: str) -> bool:
    record = result.server(server)
    return record is not None and record.beyond_write_up


def reference_servers(result: BenchResult) -> list[str]:
    """The reference servers that have cells here: none on a workload they do not answer."""
    with_cells = {cell.server for cell in result.cells}
    return [record.name for record in result.servers
            if record.is_reference and record.name in with_cells]


def _best_rate(result: BenchResult, server: str) -> float:
    rates = [cell_summary(cell).median for cell in result.cells
             if cell.server == server and measured(cell)]
    return max(rates, default=-1.0)


def headline_cell(result: BenchResult, server: str, threads: int) -> Cell | None:
    """The server's cell at this thread setting and the headline connection count."""
    connections = headline_connections(result)
    return None if connections is None else cell_at(result, server, threads, connections)


def headline_cells(result: BenchResult, server: str) -> list[Cell]:
    """The server's cells at the headline connection count, one per thread setting it has."""
    return [cell for cell in (headline_cell(result, server, threads)
                              for threads in thread_settings(result)) if cell is not None]


def fastest(cells: list[Cell]) -> Cell | None:
    """The measured cell with the highest median Requests/sec; None when none is measured."""
    return max((cell for cell in cells if measured(cell)),
               key=lambda cell: cell_summary(cell).median, default=None)


def measured(cell: Cell | None) -> bool:
    """Whether a cell is drawn as figures: only an OK cell with runs. A FAILED cell is drawn
    as "failed" even when it carries a run (e.g. one with zero requests)."""
    return cell is not None and cell.status is CellStatus.OK and bool(cell.runs)
