"""The interface the runner uses to start the database of the db and queries workloads,
to read it (the conformance checks) and to measure it; the facts every server and the
database agree on, said once."""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from httplab.model import DatabaseRecord
from httplab.running.resources.probes import ResourceProbe

# What the servers connect to (servers/common DatabaseSettings reads these variables) and
# what database/seed.sql creates. The port is the lab's own, away from a system
# cluster's 5432.
DB_NAME, DB_USER, DB_PASSWORD = "httplab", "httplab", "httplab"
DB_PORT = 15432
# The environment variables servers read (servers/common DatabaseSettings).
ENV_HOST, ENV_PORT, ENV_NAME, ENV_USER, ENV_PASSWORD = (
    "DB_HOST", "DB_PORT", "DB_NAME", "DB_USER", "DB_PASSWORD")
POSTGRES_MAJOR = 15  # the official image's tag and Debian 12's postgresql-15


class DatabaseError(Exception):
    """The database could not be started, read or stopped; the message is for the user."""


@dataclass(frozen=True)
class StartedDatabase:
    address: str  # where the server reaches it: 127.0.0.1 on one machine
    port: int
    record: DatabaseRecord  # version, max_connections, shared_buffers as it runs
    container: str | None = None  # docker: the database's container id
    pid: int | None = None  # local: the postmaster's process on this host
    log_path: Path | None = None

    def server_environment(self) -> dict[str, str]:
        """The variables a server needs to reach this database."""
        return {ENV_HOST: self.address, ENV_PORT: str(self.port), ENV_NAME: DB_NAME,
                ENV_USER: DB_USER, ENV_PASSWORD: DB_PASSWORD}


class Database(Protocol):
    where: str  # "docker" or "local", as DatabaseRecord.where

    def check_available(self) -> None:
        """Raises DatabaseError, in one line naming what to install or build, when the
        database cannot be started here: called before any load."""

    def prepare(self) -> None:
        """Builds what the database needs (its image); raises DatabaseError."""

    def serve(self, log_path: Path) -> AbstractContextManager[StartedDatabase]:
        """Starts a fresh database (seeded world table, pg_stat_statements), keeps its whole
        log in log_path, waits until it answers, and always removes it on exit (Ctrl-C
        included). Raises DatabaseError, naming the log, when it does not start."""

    def query(self, started: StartedDatabase, sql: str) -> list[tuple[str, ...]]:
        """Runs one SQL statement as the lab's user (psql -At: docker exec on the
        database's engine, or the local cluster's socket); its rows as text. Raises
        DatabaseError."""

    def exit_status(self, started: StartedDatabase) -> str | None:
        """None while the database runs; once it has stopped, a phrase saying how."""

    def resource_probe(self, started: StartedDatabase) -> ResourceProbe:
        """How to read the database's CPU and memory (its container's cgroup, or its
        process tree); never raises: an UnavailableProbe says why."""
