"""What both databases need before and after a start: a free port, the log's last line."""

from __future__ import annotations

from pathlib import Path

from httplab.addresses import LOOPBACK
from httplab.running.ports import port_in_use
from httplab.running.database.base import DatabaseError


def ensure_port_free(port: int) -> None:
    """Raises DatabaseError when something on this machine already listens on the port."""
    if port_in_use(port, LOOPBACK):
        raise DatabaseError(f"port {port} on {LOOPBACK} is already in use, and the database "
                            f"needs it: stop whatever listens there (ss -ltnp 'sport = "
                            f":{port}'), such as a system cluster, and run again")


def last_log_line(log_path: Path) -> str:
    """The log's last non-empty line, for a DatabaseError (the whole log stays)."""
    try:
        lines = log_path.read_text(errors="replace").strip().splitlines()
    except OSError:
        return "no log"
    return lines[-1].strip() if lines else "the log is empty"
