"""The ceiling: what the reference server (nginx, the same hello world) reached under the
same wrk load and workload, and each framework cell's share of it. Pure.

The reference has no handler that waits and no database (workloads.answers): on delay,
blocking, db and queries there is no ceiling, and the share is not applicable."""

from __future__ import annotations

from httplab.model import BenchResult, Cell, CellStatus, Workload
from httplab.results.stats import cell_summary
from httplab.workloads import answers


def reference_cell(cell: Cell, result: BenchResult) -> Cell | None:
    """The reference's measured cell at the same workload, threads and connections, if any."""
    for other in result.cells:
        record = result.server(other.server)
        if (record is not None and record.is_reference and other.status is CellStatus.OK
                and other.runs and (other.workload, other.threads, other.connections)
                == (cell.workload, cell.threads, cell.connections)):
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


def ceiling_not_applicable(workload: Workload, result: BenchResult) -> bool:
    """Whether the run has a reference that does not answer this workload (nginx on delay,
    blocking, db and queries): its frameworks' share of the ceiling is then not applicable,
    not unknown."""
    return any(record.is_reference and not answers(workload, True) for record in result.servers)
