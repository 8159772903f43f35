"""The pure parts of reaching the database: psql's command line and output, and the
DatabaseRecord made of what the database says about itself."""

from __future__ import annotations

from collections.abc import Callable

from httplab.model import DatabaseRecord
from httplab.running.database.base import DB_NAME, DB_USER, POSTGRES_MAJOR, DatabaseError

# The directory of initdb, pg_ctl, postgres and psql, in Debian's package and in the
# official image alike.
POSTGRES_BIN = f"/usr/lib/postgresql/{POSTGRES_MAJOR}/bin"
FIELD_SEPARATOR = "\x1f"  # ASCII unit separator: no value the lab reads holds one
VERSION_SQL, MAX_CONNECTIONS_SQL, SHARED_BUFFERS_SQL = (
    "SELECT version()", "SHOW max_connections", "SHOW shared_buffers")


def psql_arguments(sql: str, port: int, socket_dir: str | None = None) -> list[str]:
    """psql's arguments (after the program) for one statement as the lab's user: unaligned,
    tuples only, no ~/.psqlrc, stopping at the first error; over the unix socket in
    socket_dir, else psql's default host (PGHOST in the image)."""
    host = ["-h", socket_dir] if socket_dir else []
    return [*host, "-p", str(port), "-U", DB_USER, "-d", DB_NAME, "-X", "-A", "-t",
            "-F", FIELD_SEPARATOR, "-v", "ON_ERROR_STOP=1", "-c", sql]


def parse_rows(output: str) -> list[tuple[str, ...]]:
    """psql -At output (fields split by FIELD_SEPARATOR): one tuple a row."""
    return [tuple(line.split(FIELD_SEPARATOR)) for line in output.splitlines() if line]


def first_value(rows: list[tuple[str, ...]]) -> str | None:
    return rows[0][0].strip() if rows and rows[0] else None


def database_record(where: str, version: str | None, max_connections: str | None,
                    shared_buffers: str | None, *, image: str | None = None,
                    binaries: str | None = None) -> DatabaseRecord:
    """The record of what SELECT version(), SHOW max_connections and SHOW shared_buffers
    answered (None where a statement gave nothing)."""
    connections = max_connections.strip() if max_connections else ""
    return DatabaseRecord(where=where, version=version.strip() if version else None,
                          max_connections=int(connections) if connections.isdigit() else None,
                          shared_buffers=shared_buffers.strip() if shared_buffers else None,
                          image=image, binaries=binaries)


def read_record(query: Callable[[str], list[tuple[str, ...]]], where: str, *,
                image: str | None = None, binaries: str | None = None) -> DatabaseRecord:
    """The record of a running database, asked through query (one statement's rows)."""
    answers = [first_value(query(sql))
               for sql in (VERSION_SQL, MAX_CONNECTIONS_SQL, SHARED_BUFFERS_SQL)]
    return database_record(where, *answers, image=image, binaries=binaries)


def one_line(text: str) -> str:
    """The last non-empty line of a tool's output, for a DatabaseError."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "no message"


def query_failed(sql: str, code: int, stderr: str) -> DatabaseError:
    return DatabaseError(f"psql exited {code} on `{sql[:60]}`: {one_line(stderr)}")
