"""BACKEND=local's database for real: a throwaway cluster of Debian's postgresql-15 on
127.0.0.1:15432 (as the postgres user under root), seeded, measured, and gone, processes
and directory, once the block ends, also when it raises. A host without the package skips,
except under CI=true, where it fails."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from httplab.running.database.base import DB_PORT, Database, DatabaseError, StartedDatabase
from httplab.running.database.local import LocalDatabase
from tests.conftest import port_is_listening

pytestmark = pytest.mark.shared_host  # DB_PORT


# The checks every database, local or in Docker (running/database/test_docker.py), must pass.
def assert_seeded_and_measured(database: Database, started: StartedDatabase) -> None:
    """The world table whole, pg_stat_statements counting, the probe reading CPU and memory."""
    rows = database.query(started, "SELECT count(*), min(randomnumber), max(randomnumber) "
                                   "FROM world")
    count, low, high = (int(value) for value in rows[0])
    assert count == 10000 and 1 <= low <= high <= 10000
    database.query(started, "SELECT pg_stat_statements_reset()")
    for _ in range(3):
        database.query(started, "SELECT randomnumber FROM world WHERE id = 42")
    calls = database.query(started, "SELECT calls FROM pg_stat_statements "
                                    "WHERE query LIKE '%FROM world WHERE id%'")
    assert calls == [("3",)]
    assert started.record.max_connections and started.record.shared_buffers
    sample = database.resource_probe(started).read()
    assert sample.cpu_seconds > 0 and sample.memory_bytes > 0


def assert_start_refused_on_a_taken_port(database: Database, tmp_path: Path) -> None:
    with socket.socket() as listener:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", DB_PORT))
        listener.listen()
        with pytest.raises(DatabaseError, match=f"port {DB_PORT}") as refused:
            with database.serve(tmp_path / "database.log"):
                pass
    assert "\n" not in str(refused.value)


@pytest.fixture
def database(repo) -> LocalDatabase:
    local = LocalDatabase(repo / "database")
    try:
        local.check_available()
    except DatabaseError as error:
        if os.environ.get("CI") == "true":
            pytest.fail(str(error))
        pytest.skip(str(error))
    assert not port_is_listening(DB_PORT), f"port {DB_PORT} is busy before the test"
    return local


def _group_members(group: int) -> list[int]:
    members = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and os.getpgid(int(entry.name)) == group:
                members.append(int(entry.name))
        except ProcessLookupError:
            continue
    return members


def _data_dir(pid: int) -> Path:
    arguments = Path(f"/proc/{pid}/cmdline").read_text().split("\0")
    return Path(arguments[arguments.index("-D") + 1])


@pytest.mark.slow
def test_a_fresh_cluster_is_seeded_measured_and_removed(tmp_path, database):
    log = tmp_path / "database.log"
    with database.serve(log) as started:
        assert started.record.where == "local" and started.record.version.startswith("PostgreSQL 15")
        assert_seeded_and_measured(database, started)
        pid, data_dir = started.pid, _data_dir(started.pid)
        assert data_dir.is_dir() and database.exit_status(started) is None
    assert not _group_members(pid), "postgres processes outlived the block"
    assert not data_dir.parent.exists()
    assert "database system is shut down" in log.read_text()


@pytest.mark.slow
def test_a_block_that_raises_still_removes_the_cluster(tmp_path, database):
    with pytest.raises(RuntimeError, match="the body failed"):
        with database.serve(tmp_path / "database.log") as started:
            pid, data_dir = started.pid, _data_dir(started.pid)
            raise RuntimeError("the body failed")
    assert not _group_members(pid) and not data_dir.parent.exists()
    assert not port_is_listening(DB_PORT)


@pytest.mark.slow
def test_a_taken_port_stops_the_start_in_one_line(tmp_path, database):
    assert_start_refused_on_a_taken_port(database, tmp_path)


@pytest.mark.slow
def test_a_start_that_fails_stops_in_one_line_and_keeps_the_log(tmp_path, database):
    broken = tmp_path / "database"
    broken.mkdir()
    (broken / "start.sh").write_text("echo 'httplab-db: initdb failed: disk full' >&2\nexit 3\n")
    (broken / "seed.sql").write_text("")
    log = tmp_path / "database.log"
    with pytest.raises(DatabaseError, match="exited during its start .code 3.: httplab-db: "
                                            "initdb failed: disk full; log: ") as refused:
        with LocalDatabase(broken).serve(log):
            pass
    assert "\n" not in str(refused.value) and "disk full" in log.read_text()
