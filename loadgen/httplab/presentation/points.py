"""Which cells a chart draws when a run swept several connection counts. Pure.

The charts of one connection count (result1, result2, the CPU chart) draw the headline
count: the largest measured, which for the original protocol is its only one, 500."""

from __future__ import annotations

from dataclasses import replace

from httplab.model import BenchResult, Cell


def connection_counts(result: BenchResult) -> list[int]:
    """The connection counts the cells were measured at, ascending."""
    return sorted({cell.connections for cell in result.cells})


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
