"""BACKEND=docker's database: the `db` service of docker-compose.yml (httplab/postgres,
built from database/), as a Compose project of its own on the server's engine (SERVER_HOST,
or this machine's), on host networking: servers reach it on 127.0.0.1:DB_PORT of their
machine. A fresh container for each server, removed on every exit path."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from httplab.addresses import LOOPBACK
from httplab.checking.polling import poll_until
from httplab.running.docker import compose as cmd
from httplab.running.docker.containers import (image_reachable, inspect, run_docker,
                                               stopped_exit_code)
from httplab.running.backend_error import BackendError
from httplab.running.docker.remote import engine_env, ship_image
from httplab.running.base_images import BASE_IMAGES_ENV, parse_env_file
from httplab.running.database.base import (DB_PORT, ENV_HOST, ENV_NAME, ENV_PASSWORD, ENV_PORT,
                                           ENV_USER, DatabaseError, StartedDatabase)
from httplab.running.database.support import ensure_port_free, last_log_line
from httplab.running.database.record import (one_line, parse_rows, psql_arguments,
                                             query_failed, read_record)
from httplab.running.engines import Engine
from httplab.running.process import ServerProcess
from httplab.running.resources.probes import (ResourceProbe, probe_for_container,
                                              probe_for_remote_container)

BUILD_ARG = "DATABASE_IMAGE"  # database/Dockerfile's base image
LOCAL_IMAGE_VARIABLE = "HTTPLAB_DATABASE_IMAGE"  # in scripts/base-images.env
OFFICIAL_IMAGE = "postgres:15-bookworm"  # database/Dockerfile's default
BUILD_TIMEOUT_S = 1800
START_TIMEOUT_S = 90.0
HEALTH_POLL_S = 0.2
QUERY_TIMEOUT_S = 60.0
HEALTH_TEMPLATE = "{{.State.Health.Status}}"
LOG_FOLLOW_GRACE_S = 5.0  # `docker logs -f` ends by itself once the container is gone


def _run(command: list[str], env: dict[str, str], timeout: float = 120,
         ) -> subprocess.CompletedProcess[str]:
    return run_docker(command, env, timeout, DatabaseError)


def server_database_environment(database: Mapping[str, str] | None) -> dict[str, str]:
    """HTTPLAB_DB_HOST and the rest, which docker-compose.yml passes to the server as
    DB_HOST...: the database's values (StartedDatabase.server_environment()), or empty
    ones, always set, so a stray value in the caller's shell is ignored."""
    database = database or {}
    return {f"HTTPLAB_{name}": database.get(name, "")
            for name in (ENV_HOST, ENV_PORT, ENV_NAME, ENV_USER, ENV_PASSWORD)}


def database_build_args(environment: dict[str, str], base_images: str, official_reachable: bool,
                        env_file_text: str) -> dict[str, str]:
    """DATABASE_IMAGE for database/Dockerfile: the caller's, none (the official default),
    or the local image of scripts/base-images.env, as BASE_IMAGES chooses. Pure."""
    if environment.get(BUILD_ARG):
        return {BUILD_ARG: environment[BUILD_ARG]}
    if base_images == "official" or (base_images == "auto" and official_reachable):
        return {}
    local = parse_env_file(env_file_text).get(LOCAL_IMAGE_VARIABLE)
    if not local:
        raise DatabaseError(f"{BASE_IMAGES_ENV} lacks {LOCAL_IMAGE_VARIABLE}")
    return {BUILD_ARG: local}


class DockerDatabase:
    where = "docker"

    def __init__(self, repo: Path, base_images: str = "auto", compose: str | None = None,
                 engine: Engine | None = None, start_timeout_s: float = START_TIMEOUT_S):
        self.repo, self.base_images, self.preferred_compose = repo.resolve(), base_images, compose
        self.engine, self.start_timeout_s = engine, start_timeout_s
        self.compose: list[str] = []
        self.build_args: dict[str, str] = {}

    def check_available(self) -> None:
        compose = cmd.detect_compose(self.preferred_compose)
        if compose is None:
            raise DatabaseError("Docker Compose not found: install the compose plugin "
                                "(`docker compose`) or docker-compose v1.29, or use BACKEND=local")
        self.compose = compose

    def prepare(self) -> None:
        """Builds httplab/postgres here, and sends it to the server's engine if that is another."""
        if not self.compose:
            self.check_available()
        self.build_args = self._resolve_build_args()
        build = _run(cmd.build_command(self.compose, self.repo, cmd.DATABASE_SERVICE),
                     self._env(on_engine=False), BUILD_TIMEOUT_S)
        if build.returncode != 0:
            raise DatabaseError(f"image build failed for {cmd.DATABASE_IMAGE} (database/): "
                                f"{one_line(build.stdout + build.stderr)}")
        if self.engine is not None:
            try:
                ship_image(cmd.DATABASE_IMAGE, self.engine)
            except BackendError as error:
                raise DatabaseError(str(error)) from error

    def _resolve_build_args(self) -> dict[str, str]:
        reachable = self.base_images == "auto" and image_reachable(OFFICIAL_IMAGE, error=DatabaseError)
        args = database_build_args(dict(os.environ), self.base_images, reachable,
                                   (self.repo / BASE_IMAGES_ENV).read_text())
        local = args.get(BUILD_ARG)
        chosen_here = local and not os.environ.get(BUILD_ARG)  # else the caller's, built as is
        if chosen_here and _run(["docker", "image", "inspect", local],
                                dict(os.environ)).returncode != 0:
            raise DatabaseError(f"the official {OFFICIAL_IMAGE} cannot be pulled and the local "
                                f"{local} is missing: run `make base-images`")
        return args

    def _env(self, on_engine: bool = True) -> dict[str, str]:
        """The Compose command's environment: where the database listens, its base image,
        and, on_engine, the server's engine."""
        env = {**os.environ, **self.build_args, **cmd.server_environment(cmd.NO_SERVER),
               "HTTPLAB_DB_HOST": LOOPBACK, "HTTPLAB_DB_PORT": str(DB_PORT)}
        return {**env, **(self.engine.environment() if on_engine and self.engine else {})}

    @contextmanager
    def serve(self, log_path: Path) -> Iterator[StartedDatabase]:
        if self.engine is None:
            ensure_port_free(DB_PORT)
        follower: ServerProcess | None = None
        try:
            container = self._start()
            # `docker logs -f` gives everything from the container's start, then follows it.
            follower = ServerProcess(["docker", "logs", "-f", container], engine_env(self.engine),
                                     log_path=log_path)
            self._wait_healthy(container, log_path)
            yield self._describe(container, log_path)
        finally:
            _run(cmd.database_down_command(self.compose, self.repo), self._env())
            if follower is not None:
                follower.stop(let_finish_s=LOG_FOLLOW_GRACE_S)

    def _start(self) -> str:
        up = _run(cmd.database_up_command(self.compose, self.repo), self._env())
        if up.returncode != 0:
            raise DatabaseError(f"cannot start the database: {one_line(up.stderr)}")
        ids = _run(cmd.database_container_id_command(self.compose, self.repo), self._env())
        if not ids.stdout.strip():
            raise DatabaseError(f"the database started no container: {one_line(ids.stderr)}")
        return ids.stdout.split()[0]

    def _wait_healthy(self, container: str, log_path: Path) -> None:
        def healthy() -> bool | None:
            if self._inspect(container, HEALTH_TEMPLATE) == "healthy":
                return True
            code = stopped_exit_code(container, engine_env(self.engine), DatabaseError)
            if code is not None:
                raise DatabaseError(f"the database's container stopped during its start (exit "
                                    f"code {code}): {last_log_line(log_path)}; log: {log_path}")
            return None

        if poll_until(healthy, self.start_timeout_s, HEALTH_POLL_S) is None:
            raise DatabaseError(f"the database was not healthy within "
                                f"{self.start_timeout_s:g} s; log: {log_path}")

    def _describe(self, container: str, log_path: Path) -> StartedDatabase:
        record = read_record(lambda sql: self._query(container, sql), self.where,
                             image=self._image_description())
        return StartedDatabase(LOOPBACK, DB_PORT, record, container=container, log_path=log_path)

    def _image_description(self) -> str:
        """'httplab/postgres:latest FROM httplab/debian-postgres:bookworm, sha256:8216...'"""
        base = self.build_args.get(BUILD_ARG, OFFICIAL_IMAGE)
        image_id = self._inspect(cmd.DATABASE_IMAGE, "{{.Id}}")[:19] or "id unknown"
        return f"{cmd.DATABASE_IMAGE} FROM {base}, {image_id}"

    def _inspect(self, target: str, template: str) -> str:
        return inspect(target, template, engine_env(self.engine), DatabaseError)

    def query(self, started: StartedDatabase, sql: str) -> list[tuple[str, ...]]:
        return self._query(started.container or "", sql)

    def _query(self, container: str, sql: str) -> list[tuple[str, ...]]:
        """psql in the database's container, over its socket (the image's PGHOST)."""
        command = ["docker", "exec", container, "psql", *psql_arguments(sql, DB_PORT)]
        completed = _run(command, engine_env(self.engine), QUERY_TIMEOUT_S)
        if completed.returncode != 0:
            raise query_failed(sql, completed.returncode, completed.stderr)
        return parse_rows(completed.stdout)

    def exit_status(self, started: StartedDatabase) -> str | None:
        code = stopped_exit_code(started.container or "", engine_env(self.engine), DatabaseError)
        return None if code is None else f"the database's container stopped (exit code {code})"

    def resource_probe(self, started: StartedDatabase) -> ResourceProbe:
        if self.engine is not None:
            return probe_for_remote_container(started.container or "", engine_env(self.engine))
        return probe_for_container(started.container or "")
