"""Cell texts shared by the outputs: results.md uses them all, the CSV the log, the
generator count and the notes, the pages and their charts the status and the share of the
ceiling, both fairness charts a cell's legend."""

from __future__ import annotations

import math

from httplab.model import BenchResult, Cell, CellStatus, SocketErrors
from httplab.presentation.wording.formatting import MISSING
from httplab.presentation.wording.workloads import NOT_APPLICABLE
from httplab.results.ceiling import ceiling_not_applicable, ceiling_share
from httplab.results.fairness import SLOWEST_FRACTION, Fairness


def socket_errors(errors: SocketErrors) -> str:
    return f"{errors.connect}/{errors.read}/{errors.write}/{errors.timeout}"


def cell_status(cell: Cell, result: BenchResult) -> str:
    """'ok', or 'failed: why', naming the server's log where the run kept one."""
    if cell.reason is None:
        return cell.status.value
    status = f"{cell.status.value}: {cell.reason}"
    log_file = server_log(cell, result)
    if cell.status is CellStatus.FAILED and log_file:
        status += f" (server output: {log_file})"
    return status


def server_log(cell: Cell, result: BenchResult) -> str | None:
    record = result.server(cell.server)
    return record.log_file if record else None


def generator_count(cell: Cell) -> int | None:
    """How many load generators measured the cell (1 for wrk on one machine); None when
    it has no measured run."""
    return max((len(run.generators) or 1 for run in cell.runs), default=None)


def spread_over_generators(result: BenchResult) -> bool:
    return any((generator_count(cell) or 1) > 1 for cell in result.cells)


def run_notes(cell: Cell) -> tuple[str, ...]:
    """What the cell's runs say about their own figures (e.g. why latency is unknown),
    each once."""
    return tuple(dict.fromkeys(note for run in cell.runs for note in run.notes))


def share_of_ceiling_text(cell: Cell, result: BenchResult) -> str:
    """"58%", "the ceiling" (the reference's own), "not applicable" or "—"."""
    record = result.server(cell.server)
    if record is not None and record.is_reference:
        return "the ceiling"
    if ceiling_not_applicable(cell.workload, result):
        return NOT_APPLICABLE
    share = ceiling_share(cell, result)
    return MISSING if share is None else f"{share:.0%}"


def fairness_label(name: str, fairness: Fairness | None) -> str:
    """E.g. "Netty: max/min 1.42, slowest 10 % served 8.1 %"."""
    if fairness is None:
        return name
    spread = "∞" if math.isinf(fairness.spread) else f"{fairness.spread:.2f}"
    share = "?" if fairness.slowest_share is None else f"{fairness.slowest_share * 100:.1f} %"
    return f"{name}: max/min {spread}, slowest {SLOWEST_FRACTION * 100:g} % served {share}"
