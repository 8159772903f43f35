"""BACKEND=docker's database for real: the `db` service's container (httplab/postgres on
the official image, or on the local Debian one where no registry answers), seeded,
measured through its cgroup, and removed once the block ends, also when it raises."""

from __future__ import annotations

import subprocess

import pytest

from httplab.running.database.base import DB_PORT, DatabaseError
from httplab.running.database.docker import DockerDatabase
from tests.conftest import port_is_listening
from tests.running.database.test_local import assert_seeded_and_measured, assert_start_refused_on_a_taken_port
from tests.docker_support import engine_problem, require


@pytest.fixture(scope="module")
def database(repo) -> DockerDatabase:
    require(engine_problem())
    docker = DockerDatabase(repo)
    docker.check_available()
    docker.prepare()
    return docker


def _container_exists(container: str) -> bool:
    listed = subprocess.run(["docker", "ps", "-a", "-q", "--no-trunc", "--filter",
                             f"id={container}"], capture_output=True, text=True)
    return bool(listed.stdout.strip())


@pytest.mark.docker
@pytest.mark.slow
def test_a_fresh_container_is_seeded_measured_and_removed(tmp_path, database):
    assert not port_is_listening(DB_PORT), f"port {DB_PORT} is busy before the test"
    log = tmp_path / "database.log"
    with database.serve(log) as started:
        assert started.record.where == "docker" and started.record.version.startswith("PostgreSQL 15")
        assert started.record.image.startswith("httplab/postgres:latest FROM ")
        assert_seeded_and_measured(database, started)
        assert database.resource_probe(started).source.startswith("cgroup")
        assert database.exit_status(started) is None
    assert not _container_exists(started.container)
    assert not port_is_listening(DB_PORT)
    assert "httplab-db: initdb" in log.read_text()


@pytest.mark.docker
@pytest.mark.slow
def test_a_block_that_raises_still_removes_the_container(tmp_path, database):
    with pytest.raises(RuntimeError, match="the body failed"):
        with database.serve(tmp_path / "database.log") as started:
            raise RuntimeError("the body failed")
    assert not _container_exists(started.container)


@pytest.mark.docker
@pytest.mark.slow
def test_a_taken_port_stops_the_start_in_one_line(tmp_path, database):
    assert_start_refused_on_a_taken_port(database, tmp_path)


@pytest.mark.docker
@pytest.mark.slow
def test_a_missing_base_image_stops_the_build_in_one_line(repo, monkeypatch):
    require(engine_problem())
    monkeypatch.setenv("DATABASE_IMAGE", "httplab/no-such-postgres:15")
    docker = DockerDatabase(repo)
    with pytest.raises(DatabaseError, match="image build failed for httplab/postgres") as refused:
        docker.prepare()
    assert "\n" not in str(refused.value)
