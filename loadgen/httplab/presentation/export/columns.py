"""Cell texts shared by the exporters: the Markdown table uses all three, the CSV the log."""

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
