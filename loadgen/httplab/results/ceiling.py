"""The ceiling: what the reference server (nginx, the same hello world) reached under the
same wrk load, and each framework cell's share of it. Pure."""

from __future__ import annotations

from httplab.model import BenchResult, Cell, CellStatus
from httplab.results.stats import cell_summary


def reference_cell(cell: Cell, result: BenchResult) -> Cell | None:
    """The reference's measured cell at the same threads and connections, if any."""
    for other in result.cells:
        record = result.server(other.server)
        if (record is not None and record.is_reference and other.status is CellStatus.OK
                and other.runs and (other.threads, other.connections)
                == (cell.threads, cell.connections)):
            return other
    return None


def ceiling_share(cell: Cell, result: BenchResult) -> float | None:
    """The cell's median Requests/sec over the reference's at the same load; None without
    a measured reference, for a failed cell, or for the reference itself."""
    record = result.server(cell.server)
    reference = reference_cell(cell, result)
    if reference is None or (record is not None and record.is_reference):
        return None
    if cell.status is not CellStatus.OK or not cell.runs:
        return None
    ceiling = cell_summary(reference).median
    return cell_summary(cell).median / ceiling if ceiling > 0 else None
