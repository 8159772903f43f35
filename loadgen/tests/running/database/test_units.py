"""The database's pure parts: what psql is asked and how its answers are read, the record
of the database as it ran, the process-tree probe on a made-up /proc, the Compose
command lines and variables of the `db` service, and the local cluster's refusals."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from httplab.model import DatabaseRecord
from httplab.running.docker import compose
from httplab.running.backends.local import server_environment
from httplab.running.database.base import DB_PORT, DatabaseError, StartedDatabase
from httplab.running.database.docker import database_build_args, server_database_environment
from httplab.running.database.local import LocalDatabase, start_environment
from httplab.running.database.probe import (ProcessTreeProbe, parse_proc_stat,
                                            tree_cpu_ticks)
from httplab.running.database.record import (FIELD_SEPARATOR, database_record, parse_rows,
                                             psql_arguments, read_record)
from httplab.running.database.support import ensure_port_free, last_log_line

VERSION = ("PostgreSQL 15.18 (Debian 15.18-0+deb12u1) on x86_64-pc-linux-gnu, compiled by "
           "gcc (Debian 12.2.0-14+deb12u1) 12.2.0, 64-bit")
REPO = Path("/lab")
V2 = ["docker", "compose"]
DB_PREFIX = [*V2, "-p", "httplab-db", "-f", "/lab/docker-compose.yml", "--project-directory",
             "/lab", "--profile", "db"]


def test_the_record_holds_what_the_database_said():
    record = database_record("local", VERSION + "\n", " 100\n", "128MB\n",
                             binaries="/usr/lib/postgresql/15/bin")
    assert record == DatabaseRecord(where="local", version=VERSION, max_connections=100,
                                    shared_buffers="128MB", binaries="/usr/lib/postgresql/15/bin")


def test_unknown_answers_stay_unknown():
    assert database_record("docker", None, "lots", "") == DatabaseRecord(where="docker")


def test_the_record_is_read_with_three_statements():
    answers = {"SELECT version()": [(VERSION,)], "SHOW max_connections": [("200",)],
               "SHOW shared_buffers": [("1GB",)]}
    record = read_record(answers.__getitem__, "docker", image="httplab/postgres:latest")
    assert (record.version, record.max_connections, record.shared_buffers, record.image) == \
        (VERSION, 200, "1GB", "httplab/postgres:latest")


def test_psql_reads_one_statement_unaligned_and_stops_at_an_error():
    assert psql_arguments("SELECT 1", 15432, "/tmp/db/data") == [
        "-h", "/tmp/db/data", "-p", "15432", "-U", "httplab", "-d", "httplab", "-X", "-A", "-t",
        "-F", FIELD_SEPARATOR, "-v", "ON_ERROR_STOP=1", "-c", "SELECT 1"]
    assert psql_arguments("SELECT 1", 15432)[:2] == ["-p", "15432"]  # the image's PGHOST


def test_rows_are_split_on_the_field_separator_only():
    output = f"1{FIELD_SEPARATOR}a|b\n2{FIELD_SEPARATOR}\n\n"
    assert parse_rows(output) == [("1", "a|b"), ("2", "")]
    assert parse_rows("") == []


def test_a_server_gets_every_variable_to_reach_the_database():
    started = StartedDatabase("127.0.0.1", DB_PORT, DatabaseRecord(where="local"))
    assert started.server_environment() == {"DB_HOST": "127.0.0.1", "DB_PORT": "15432",
                                            "DB_NAME": "httplab", "DB_USER": "httplab",
                                            "DB_PASSWORD": "httplab"}


STAT = "{pid} (post gres) S {ppid} 1 1 0 -1 4194560 100 0 0 0 {utime} {stime} {cutime} {cstime} 20 0 1 0"


def test_a_stat_line_gives_parent_own_and_reaped_childrens_ticks():
    stat = parse_proc_stat(STAT.format(pid=7, ppid=1, utime=30, stime=12, cutime=5, cstime=2))
    assert (stat.parent, stat.ticks, stat.children_ticks) == (1, 42, 7)


def test_the_tree_counts_live_children_and_the_roots_reaped_ones():
    root = parse_proc_stat(STAT.format(pid=7, ppid=1, utime=10, stime=0, cutime=4, cstime=1))
    child = parse_proc_stat(STAT.format(pid=8, ppid=7, utime=3, stime=2, cutime=99, cstime=0))
    assert tree_cpu_ticks(root, [child, child]) == 10 + 5 + 5 + 5


def _fake_process(proc: Path, pid: int, ppid: int, utime: int, rss_kb: int) -> None:
    folder = proc / str(pid)
    (folder / "task" / str(pid)).mkdir(parents=True)
    (folder / "stat").write_text(STAT.format(pid=pid, ppid=ppid, utime=utime, stime=0,
                                             cutime=0, cstime=0))
    (folder / "status").write_text(f"Name:\tpostgres\nVmRSS:\t{rss_kb} kB\n")
    (folder / "task" / str(pid) / "status").write_text(
        "Name:\tpostgres\nvoluntary_ctxt_switches:\t3\nnonvoluntary_ctxt_switches:\t1\n")


def test_the_probe_sums_the_postmaster_and_its_children_only(tmp_path):
    _fake_process(tmp_path, 100, 1, utime=200, rss_kb=1000)
    _fake_process(tmp_path, 101, 100, utime=100, rss_kb=500)
    _fake_process(tmp_path, 102, 100, utime=100, rss_kb=500)
    _fake_process(tmp_path, 200, 1, utime=9999, rss_kb=9999)  # not the database's
    (tmp_path / "stat").write_text("not a process")
    probe = ProcessTreeProbe(100, proc=tmp_path)
    probe._ticks_per_second = 100
    sample = probe.read()
    assert (sample.cpu_seconds, sample.memory_bytes) == (4.0, 2000 * 1024)
    assert (sample.context_switches, sample.threads) == (12, 3)
    assert probe.source == "/proc (process tree)"


def test_the_db_service_runs_as_a_project_of_its_own_behind_its_profile():
    assert compose.build_command(V2, REPO, "db") == [*DB_PREFIX, "build", "db"]
    assert compose.database_up_command(V2, REPO) == \
        [*DB_PREFIX, "up", "-d", "--no-build", "--force-recreate", "db"]
    assert compose.database_down_command(V2, REPO) == \
        [*DB_PREFIX, "down", "-v", "--remove-orphans", "-t", "10"]
    assert compose.database_container_id_command(V2, REPO) == [*DB_PREFIX, "ps", "-a", "-q", "db"]


def test_the_server_service_gets_the_databases_variables_or_empty_ones():
    started = StartedDatabase("127.0.0.1", DB_PORT, DatabaseRecord(where="docker"))
    assert server_database_environment(started.server_environment()) == {
        "HTTPLAB_DB_HOST": "127.0.0.1", "HTTPLAB_DB_PORT": "15432", "HTTPLAB_DB_NAME": "httplab",
        "HTTPLAB_DB_USER": "httplab", "HTTPLAB_DB_PASSWORD": "httplab"}
    assert set(server_database_environment(None).values()) == {""}


ENV_FILE = "HTTPLAB_RUNTIME_IMAGE=a\nHTTPLAB_DATABASE_IMAGE=httplab/debian-postgres:bookworm\n"


@pytest.mark.parametrize("environment, choice, reachable, expected", [
    ({"DATABASE_IMAGE": "mine:15"}, "local", False, {"DATABASE_IMAGE": "mine:15"}),
    ({}, "official", False, {}),
    ({}, "auto", True, {}),
    ({}, "auto", False, {"DATABASE_IMAGE": "httplab/debian-postgres:bookworm"}),
    ({}, "local", True, {"DATABASE_IMAGE": "httplab/debian-postgres:bookworm"}),
])
def test_the_databases_base_image_follows_base_images(environment, choice, reachable, expected):
    assert database_build_args(environment, choice, reachable, ENV_FILE) == expected


def test_a_base_images_file_without_the_database_image_is_refused():
    with pytest.raises(DatabaseError, match="HTTPLAB_DATABASE_IMAGE"):
        database_build_args({}, "local", False, "HTTPLAB_RUNTIME_IMAGE=a\n")


def test_the_repositorys_base_images_file_names_the_database_image(repo):
    args = database_build_args({}, "local", False, (repo / "scripts/base-images.env").read_text())
    assert args == {"DATABASE_IMAGE": "httplab/debian-postgres:bookworm"}


def test_start_sh_gets_only_what_it_reads(tmp_path):
    env = start_environment(tmp_path / "data", 15432, "/usr/lib/postgresql/15/bin")
    assert {key: env[key] for key in ("HTTPLAB_DB_DATA", "HTTPLAB_DB_BIN", "DB_HOST", "DB_PORT")} \
        == {"HTTPLAB_DB_DATA": str(tmp_path / "data"), "HTTPLAB_DB_BIN": "/usr/lib/postgresql/15/bin",
            "DB_HOST": "127.0.0.1", "DB_PORT": "15432"}
    assert "DB_PASSWORD" not in env


def test_a_local_server_gets_the_databases_variables_and_never_a_stray_one(manifests, monkeypatch):
    monkeypatch.setenv("DB_PORT", "5432")
    netty = next(m for m in manifests if m.name == "netty")
    assert "DB_PORT" not in server_environment(netty, 9000)
    assert server_environment(netty, 9000, {"DB_PORT": "15432"})["DB_PORT"] == "15432"


def test_missing_binaries_are_refused_naming_the_package(tmp_path):
    with pytest.raises(DatabaseError, match="postgresql-15"):
        LocalDatabase(REPO / "database", binaries=str(tmp_path)).check_available()


def test_a_taken_port_is_refused_saying_what_to_do():
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        with pytest.raises(DatabaseError, match=f"port {port} .* already in use.*ss -ltnp"):
            ensure_port_free(port)


def test_the_last_log_line_names_the_failure(tmp_path):
    log = tmp_path / "database.log"
    log.write_text("initdb ...\nFATAL:  could not bind IPv4 address\n\n")
    assert last_log_line(log) == "FATAL:  could not bind IPv4 address"
    assert last_log_line(tmp_path / "none.log") == "no log"


def test_the_official_image_named_in_code_is_the_dockerfiles_default():
    from httplab.running.database.docker import OFFICIAL_IMAGE
    from tests.conftest import TESTS_DIR

    dockerfile = (TESTS_DIR.parents[1] / "database" / "Dockerfile").read_text()
    assert f"FROM ${{DATABASE_IMAGE:-{OFFICIAL_IMAGE}}}" in dockerfile
    assert "postgres:15-" in OFFICIAL_IMAGE  # the major of Debian 12's postgresql-15
