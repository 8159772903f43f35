"""Cell texts shared by the exporters: the Markdown table uses them all, the CSV the log,
the generator count and the notes."""

from __future__ import annotations

from httplab.model import BenchResult, Cell, CellStatus, SocketErrors


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
