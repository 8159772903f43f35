"""BACKEND=local's database: a throwaway cluster from Debian's postgresql-15 binaries in a
temporary directory, started by database/start.sh (the image's entrypoint too) on
127.0.0.1:DB_PORT. PostgreSQL refuses to run as root, so under root (as in CI) the cluster
runs as Debian's `postgres` user, the package's own."""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from httplab.addresses import LOOPBACK
from httplab.checking.polling import poll_until
from httplab.running.database.base import (DB_NAME, DB_PORT, DB_USER, DatabaseError,
                                           StartedDatabase)
from httplab.running.database.probe import ProcessTreeProbe
from httplab.running.database.record import (POSTGRES_BIN, parse_rows, psql_arguments,
                                             query_failed, read_record)
from httplab.running.database.support import ensure_port_free, last_log_line
from httplab.running.resources.probes import ResourceProbe

START_SCRIPT, SEED = "start.sh", "seed.sql"  # in the repository's database/
SERVICE_USER = "postgres"  # created by Debian's postgresql-15 (postgresql-common)
PACKAGE_HINT = "install Debian's postgresql-15 (`apt-get install postgresql-15`) or use BACKEND=docker"
START_TIMEOUT_S = 60.0
START_POLL_S = 0.1
STOP_GRACE_S = 10.0
QUERY_TIMEOUT_S = 60.0


def start_environment(data_dir: Path, port: int, binaries: str) -> dict[str, str]:
    """What start.sh reads; nothing of the caller's environment but PATH and the locale."""
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8",
            "HTTPLAB_DB_DATA": str(data_dir), "HTTPLAB_DB_BIN": binaries,
            "DB_HOST": LOOPBACK, "DB_PORT": str(port)}


def _service_account() -> pwd.struct_passwd | None:
    """The user the cluster runs as: None for this process's own (not root)."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam(SERVICE_USER)
    except KeyError as error:
        raise DatabaseError(f"running as root, the database needs Debian's `{SERVICE_USER}` "
                            f"user, which is missing: {PACKAGE_HINT}") from error


class LocalDatabase:
    where = "local"

    def __init__(self, database_dir: Path, binaries: str = POSTGRES_BIN, port: int = DB_PORT,
                 start_timeout_s: float = START_TIMEOUT_S):
        self.database_dir, self.binaries, self.port = database_dir, binaries, port
        self.start_timeout_s = start_timeout_s
        # The postmaster's pid -> its process and data directory (its socket's too).
        self._clusters: dict[int, tuple[subprocess.Popen, Path]] = {}

    def check_available(self) -> None:
        initdb = Path(self.binaries) / "initdb"
        if not os.access(initdb, os.X_OK):
            raise DatabaseError(f"{initdb} not found: {PACKAGE_HINT}")
        _service_account()

    def prepare(self) -> None:
        missing = [name for name in (START_SCRIPT, SEED) if not (self.database_dir / name).is_file()]
        if missing:
            raise DatabaseError(f"{self.database_dir} lacks {', '.join(missing)}")

    @contextmanager
    def serve(self, log_path: Path) -> Iterator[StartedDatabase]:
        ensure_port_free(self.port)
        account = _service_account()
        work = Path(tempfile.mkdtemp(prefix="httplab-db-"))
        process: subprocess.Popen | None = None
        try:
            script = self._stage(work, account)
            process = self._launch(script, work / "data", account, log_path)
            self._clusters[process.pid] = (process, work / "data")
            yield self._wait_started(process, work / "data", log_path)
        finally:
            if process is not None:
                self._clusters.pop(process.pid, None)
                stop_process_group(process)
            shutil.rmtree(work, ignore_errors=True)

    def _stage(self, work: Path, account: pwd.struct_passwd | None) -> Path:
        """start.sh and seed.sql copied into work, all of it the service user's: the
        repository may sit where that user cannot read."""
        for name in (START_SCRIPT, SEED):
            shutil.copy2(self.database_dir / name, work / name)
        if account is not None:
            for path in (work, work / START_SCRIPT, work / SEED):
                os.chown(path, account.pw_uid, account.pw_gid)
        return work / START_SCRIPT

    def _launch(self, script: Path, data_dir: Path, account: pwd.struct_passwd | None,
                log_path: Path) -> subprocess.Popen:
        env = start_environment(data_dir, self.port, self.binaries)
        as_user = {} if account is None else {
            "user": account.pw_uid, "group": account.pw_gid, "extra_groups": []}
        if account is not None:
            env["HOME"] = account.pw_dir
        with log_path.open("ab") as log:
            # Its own process group: the seeding server and every backend end with it.
            return subprocess.Popen(["bash", str(script)], env=env, cwd=script.parent,
                                    stdin=subprocess.DEVNULL, stdout=log,
                                    stderr=subprocess.STDOUT, start_new_session=True, **as_user)

    def _wait_started(self, process: subprocess.Popen, data_dir: Path,
                      log_path: Path) -> StartedDatabase:
        def ready() -> bool | None:
            if self._is_ready(data_dir):
                return True
            if process.poll() is not None:
                raise DatabaseError(f"the database exited during its start (code "
                                    f"{process.returncode}): {last_log_line(log_path)}; log: {log_path}")
            return None

        if poll_until(ready, self.start_timeout_s, START_POLL_S) is None:
            raise DatabaseError(f"the database did not answer within "
                                f"{self.start_timeout_s:g} s; log: {log_path}")
        record = read_record(lambda sql: self._query(data_dir, sql), self.where,
                             binaries=self.binaries)
        return StartedDatabase(LOOPBACK, self.port, record, pid=process.pid, log_path=log_path)

    def _is_ready(self, data_dir: Path) -> bool:
        """The final postgres answers on its socket (start.sh seeds on another one)."""
        command = [str(Path(self.binaries) / "pg_isready"), "-q", "-h", str(data_dir),
                   "-p", str(self.port), "-U", DB_USER, "-d", DB_NAME]
        return subprocess.run(command, capture_output=True, timeout=10).returncode == 0

    def query(self, started: StartedDatabase, sql: str) -> list[tuple[str, ...]]:
        cluster = self._clusters.get(started.pid or -1)
        if cluster is None:
            raise DatabaseError(f"no database of this run has process {started.pid}")
        return self._query(cluster[1], sql)

    def _query(self, data_dir: Path, sql: str) -> list[tuple[str, ...]]:
        command = [str(Path(self.binaries) / "psql"),
                   *psql_arguments(sql, self.port, str(data_dir))]
        try:
            completed = subprocess.run(command, capture_output=True, text=True,
                                       timeout=QUERY_TIMEOUT_S)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise DatabaseError(f"psql on `{sql[:60]}` failed: {error}") from error
        if completed.returncode != 0:
            raise query_failed(sql, completed.returncode, completed.stderr)
        return parse_rows(completed.stdout)

    def exit_status(self, started: StartedDatabase) -> str | None:
        cluster = self._clusters.get(started.pid or -1)
        if cluster is None or cluster[0].poll() is None:
            return None
        return f"the database exited with code {cluster[0].returncode}"

    def resource_probe(self, started: StartedDatabase) -> ResourceProbe:
        return ProcessTreeProbe(started.pid or 0)


def stop_process_group(process: subprocess.Popen, grace_s: float = STOP_GRACE_S) -> None:
    """SIGINT to the whole group (the postmaster's fast shutdown; the script and its seeding
    server, if it is still seeding), then SIGKILL to whatever is left after grace_s."""
    _signal_group(process.pid, signal.SIGINT)
    try:
        process.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:
        pass
    _signal_group(process.pid, signal.SIGKILL)
    process.wait()


def _signal_group(group: int, signal_number: int) -> None:
    try:
        os.killpg(group, signal_number)
    except ProcessLookupError:
        pass

