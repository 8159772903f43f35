"""The db and queries workloads end to end (issue 20): every framework benchmarked against
a fresh PostgreSQL of its own, on the local backend and in Docker, the reference not
applicable, the database measured, its log kept and nothing of it left behind; and the
statement-count check against a REAL database: a stand-in that read the world table once
and answers from memory fails it, one that runs a single-row select per row passes."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from httplab.checking.database import verify_database
from httplab.cli import main
from httplab.model import Workload
from httplab.running.docker.compose import DATABASE_PROJECT
from httplab.running.database.base import DB_PORT, DatabaseError
from httplab.running.database.local import LocalDatabase

from tests.conftest import port_is_listening
from tests.docker_support import engine_problem, require
from tests.fake_server import FakeServer
from tests.support.database_stand_in import (MemoryWorld, PerRowWorld, harness_postgres,
                                             processes_naming_temp_dirs, temp_database_dirs,
                                             world_answer)

FRAMEWORKS = ("netty", "vertx", "armeria", "undertow", "webflux", "tomcat")
REFERENCE = "nginx"
WORKLOAD_KEYS = ("db", "queries-20")
STATEMENT_COUNT_CHECKS = {"pg_stat_statements: one single-row select per GET /db",
                          "pg_stat_statements: 20 single-row selects per GET /queries?n=20"}
NOT_FROM_THE_DATABASE = "the answers did not all come from the database"


def _key(workload: dict) -> str:
    return workload["name"] if workload["queries"] is None else \
        f"{workload['name']}-{workload['queries']}"


def _assert_ports_free(repo: Path) -> None:
    assert not port_is_listening(8080), "port 8080 is busy before the test; free it first"
    assert not port_is_listening(DB_PORT), f"port {DB_PORT} is busy before the test; free it first"
    assert harness_postgres(repo) == [], "a harness database runs before the test"


def _bench(repo: Path, out: Path, backend: str) -> tuple[int, Path, dict]:
    code = main(["--repo", str(repo), "bench", "--backend", backend,
                 "--servers", ",".join(FRAMEWORKS), "--ceiling", "1",
                 "--workload", "db,queries", "--queries", "20",
                 "--threads", "2", "--connections", "32", "--duration", "2s", "--repeat", "1",
                 "--primer", "0", "--warmup", "1s", "--fairness", "0",
                 "--results-dir", str(out / "results"), "--image", str(out / "result1.png")])
    run_dir = (out / "results" / "latest").resolve()
    return code, run_dir, json.loads((run_dir / "results.json").read_text())


def _assert_database_run(code: int, run_dir: Path, data: dict, manifests, backend: str) -> None:
    failures = [(c["server"], _key(c["workload"]), c["reason"])
                for c in data["cells"] if c["status"] != "ok"]
    assert code == 0 and not failures, failures
    # every framework at db and queries-20; the reference has no cell (never asked)
    assert sorted((c["server"], _key(c["workload"])) for c in data["cells"]) == sorted(
        (name, key) for name in FRAMEWORKS for key in WORKLOAD_KEYS)
    for cell in data["cells"]:
        where = f"{cell['server']} {_key(cell['workload'])}"
        assert cell["runs"] and len(cell["runs"]) == len(cell["resources"]), where
        for run, usage in zip(cell["runs"], cell["resources"]):
            assert run["requests"] > 0 and run["non_2xx_3xx"] == 0, (where, run)
            database = usage["database"]
            assert database is not None and database["unavailable"] is None, (where, usage)
            assert database["cpu_cores"] > 0 and database["memory_peak_bytes"] > 0, (where, database)
            if backend == "local":
                assert database["source"] == "/proc (process tree)", (where, database)
            else:
                assert database["source"].startswith("cgroup v"), (where, database)
        assert cell["database_summary"]["database_cores"] > 0, where
    # the reference: in the run, measured nowhere, its db and queries "not applicable"
    records = {server["name"]: server for server in data["servers"]}
    assert set(records) == {*FRAMEWORKS, REFERENCE}
    assert records[REFERENCE]["role"] == "reference" and records[REFERENCE]["db_pool"] is None
    markdown = (run_dir / "results.md").read_text()
    for endpoint in ("/db", "/queries"):
        assert f"not applicable: nginx has no {endpoint} endpoint" in markdown
    pools = {manifest.name: manifest.db_pool for manifest in manifests}
    for name in FRAMEWORKS:
        record = records[name]
        assert record["role"] == "framework"
        assert record["verification"].startswith("all ") and \
            record["verification"].endswith(" checks passed"), record
        assert record["db_pool"] == pools[name] and record["db_pool"] > 0, record
        assert record["db_driver"], record
        log = run_dir / "raw" / f"{name}.database.log"
        assert log.is_file() and log.stat().st_size > 0, log
    assert not (run_dir / "raw" / f"{REFERENCE}.database.log").exists()
    database = data["settings"]["database"]
    assert database["where"] == backend
    assert database["version"].startswith("PostgreSQL 15."), database
    assert int(database["max_connections"]) > 0 and database["shared_buffers"], database
    assert database["log_file"] == "raw/<server>.database.log"
    assert [workload["name"] for workload in data["settings"]["workloads"]] == ["db", "queries"]


def _assert_nothing_left(repo: Path, dirs_before: set[Path]) -> None:
    # Only the harness's databases: other postgres clusters may run on this host.
    assert harness_postgres(repo) == [], "a database's postgres processes outlived the run"
    assert processes_naming_temp_dirs() == [], "a process still runs in a database's directory"
    assert temp_database_dirs() - dirs_before == set(), "a database's temporary directory was left"
    assert not port_is_listening(8080), "a server was left running on port 8080"
    assert not port_is_listening(DB_PORT), f"a database was left listening on port {DB_PORT}"


@pytest.mark.shared_host
@pytest.mark.slow
def test_local_bench_of_every_framework_at_db_and_queries(tmp_path, repo, manifests):
    _assert_ports_free(repo)
    dirs_before = temp_database_dirs()
    code, run_dir, data = _bench(repo, tmp_path, "local")
    _assert_database_run(code, run_dir, data, manifests, "local")
    assert data["settings"]["database"]["binaries"], data["settings"]["database"]
    _assert_nothing_left(repo, dirs_before)


def _database_containers() -> list[str]:
    listed = subprocess.run(["docker", "ps", "-aq", "--filter",
                             f"label=com.docker.compose.project={DATABASE_PROJECT}"],
                            capture_output=True, text=True, check=True)
    return listed.stdout.split()


@pytest.mark.docker
@pytest.mark.slow
def test_docker_bench_of_every_framework_at_db_and_queries(tmp_path, repo, manifests):
    require(engine_problem())
    _assert_ports_free(repo)
    assert DATABASE_PROJECT == "httplab-db"
    assert _database_containers() == [], "a database container is there before the test"
    dirs_before = temp_database_dirs()
    code, run_dir, data = _bench(repo, tmp_path, "docker")
    _assert_database_run(code, run_dir, data, manifests, "docker")
    assert data["settings"]["database"]["image"], data["settings"]["database"]
    assert _database_containers() == [], "the database's containers were left behind"
    _assert_nothing_left(repo, dirs_before)


# --- the statement count against a real database ------------------------------------------

@pytest.fixture
def local_database(repo) -> LocalDatabase:
    database = LocalDatabase(repo / "database")
    try:
        database.check_available()
    except DatabaseError as error:
        if os.environ.get("CI") == "true":
            pytest.fail(str(error))
        pytest.skip(str(error))
    assert not port_is_listening(DB_PORT), f"port {DB_PORT} is busy before the test"
    return database


def _failed(checks) -> dict[str, str]:
    return {check.name: check.detail for check in checks if not check.passed}


@pytest.mark.shared_host
@pytest.mark.slow
def test_the_statement_count_fails_a_cache_and_passes_a_select_per_row(tmp_path, repo,
                                                                       local_database):
    workloads = (Workload("db"), Workload("queries", queries=20))
    with local_database.serve(tmp_path / "database.log") as started:
        assert harness_postgres(repo), "the leftover check does not see a running database"
        def query(sql: str) -> list[tuple[str, ...]]:
            return local_database.query(started, sql)

        memory = MemoryWorld(query)
        with FakeServer(world_answer(memory)) as server:
            cached = verify_database("127.0.0.1", server.port, workloads, query,
                                     query_error=DatabaseError)
        assert memory.reads == 1
        assert len(cached) == 8 and {check.workload for check in cached} == set(WORKLOAD_KEYS)
        failed = _failed(cached)
        assert set(failed) == STATEMENT_COUNT_CHECKS, failed
        for detail in failed.values():
            assert detail.startswith("pg_stat_statements counted 0 single-row selects"), detail
            assert NOT_FROM_THE_DATABASE in detail, detail

        per_row = PerRowWorld(query)
        try:
            with FakeServer(world_answer(per_row)) as server:
                honest = verify_database("127.0.0.1", server.port, workloads, query,
                                         query_error=DatabaseError)
        finally:
            per_row.close()
        assert _failed(honest) == {}
        assert len(honest) == 8
        # each burst's rows at least: 20 /db answers and 20 answers of 20 rows
        assert per_row.statements >= 20 + 20 * 20
    assert harness_postgres(repo) == [] and not port_is_listening(DB_PORT)
