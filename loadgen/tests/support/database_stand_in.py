"""Support for tests/end_to_end/test_database.py: stand-in /db and /queries servers backed by a
REAL database (one that read the world table once and answers from memory, one that runs
one single-row select per row answered), and what a database run may leave behind on
this host (postgres processes, the local cluster's temporary directories)."""

from __future__ import annotations

import json
import random
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from email.utils import formatdate
from pathlib import Path
from typing import Callable

from httplab.checking.database import WORLD_ROWS
from httplab.workloads import MAX_QUERIES, MIN_QUERIES
from tests.fake_server import FakeRequest

Query = Callable[[str], list[tuple[str, ...]]]  # SQL -> rows as text (LocalDatabase.query)
WHOLE_TABLE_SQL = "SELECT id, randomnumber FROM world"
# One statement per row, its id a literal: pg_stat_statements normalizes the literal to $1,
# so it counts as "... FROM world WHERE id = $1", as a driver's prepared statement does.
ONE_ROW_SQL = "SELECT id, randomnumber FROM world WHERE id = {id}"
ROW_WORKERS = 4  # psql processes at once for the rows of one answer (one row each)


def clamped(raw: str | None) -> int:
    """TechEmpower's rule for n: missing or not a number gives 1, then 1..500."""
    try:
        return max(MIN_QUERIES, min(MAX_QUERIES, int(raw or "")))
    except ValueError:
        return MIN_QUERIES


def _pair(row: tuple[str, ...]) -> tuple[int, int]:
    assert len(row) == 2, row
    return int(row[0]), int(row[1])


class MemoryWorld:
    """Reads the whole world table ONCE through query() when built, then every row from
    memory: a cache, which the statement count must catch."""

    def __init__(self, query: Query):
        self.table = dict(_pair(row) for row in query(WHOLE_TABLE_SQL))
        assert len(self.table) == WORLD_ROWS, len(self.table)
        self.reads = 1

    def rows(self, ids: list[int]) -> list[tuple[int, int]]:
        return [(row_id, self.table[row_id]) for row_id in ids]


class PerRowWorld:
    """One real single-row select per row answered, each its own psql (query()), a few
    at once: what TechEmpower's rule asks of a server."""

    def __init__(self, query: Query):
        self._query = query
        self._pool = ThreadPoolExecutor(ROW_WORKERS)
        self._lock = threading.Lock()
        self.statements = 0

    def _row(self, row_id: int) -> tuple[int, int]:
        rows = self._query(ONE_ROW_SQL.format(id=int(row_id)))
        with self._lock:
            self.statements += 1
        assert len(rows) == 1, rows
        return _pair(rows[0])

    def rows(self, ids: list[int]) -> list[tuple[int, int]]:
        return list(self._pool.map(self._row, ids))

    def close(self) -> None:
        self._pool.shutdown(wait=True)


def world_answer(world: MemoryWorld | PerRowWorld) -> Callable[[FakeRequest], bytes]:
    """FakeServer's answer: GET /db one random row as an object, GET /queries?n=N N random
    rows as an array (n clamped), exactly application/json; 404 for anything else."""

    def answer(request: FakeRequest) -> bytes:
        path, _, query = request.path.partition("?")
        values = dict(pair.partition("=")[::2] for pair in query.split("&") if pair)
        if request.method != "GET" or path not in ("/db", "/queries"):
            return _http(404, b"not found", "text/plain")
        count = 1 if path == "/db" else clamped(values.get("n"))
        ids = [random.randint(1, WORLD_ROWS) for _ in range(count)]
        rows = [{"id": row_id, "randomNumber": number} for row_id, number in world.rows(ids)]
        body = rows[0] if path == "/db" else rows
        return _http(200, json.dumps(body, separators=(",", ":")).encode(), "application/json")

    return answer


def _http(status: int, body: bytes, content_type: str) -> bytes:
    head = (f"HTTP/1.1 {status} {'OK' if status == 200 else 'Not Found'}\r\n"
            f"Server: StandIn\r\nDate: {formatdate(usegmt=True)}\r\n"
            f"Content-Type: {content_type}\r\nContent-Length: {len(body)}\r\n\r\n")
    return head.encode("latin-1") + body


# --- what a run may leave behind ---------------------------------------------------------

def _cmdline(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")


def _stat_fields(pid: int) -> tuple[str, int]:
    """A process's name (comm) and its parent's pid, from /proc/<pid>/stat."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    name = stat[stat.index("(") + 1:stat.rindex(")")]
    return name, int(stat[stat.rindex(")") + 2:].split()[1])


def _image_data_dir(repo: Path) -> str:
    """Where the database image keeps its cluster (database/Dockerfile's HTTPLAB_DB_DATA)."""
    for line in (repo / "database" / "Dockerfile").read_text().splitlines():
        if line.startswith("ENV HTTPLAB_DB_DATA="):
            return line.partition("=")[2].strip()
    raise AssertionError("database/Dockerfile sets no HTTPLAB_DB_DATA")


def harness_postgres(repo: Path) -> list[str]:
    """The postgres processes of this host that belong to a database the harness started:
    those whose postmaster (the process itself, or its postgres parent) runs on a
    LocalDatabase's data directory (<tmp>/httplab-db-XXXX/data) or on the image's
    (a container's processes are this host's too). Other postgres clusters of this host
    (someone else's) are not the harness's and are left out. 'pid: command line' each."""
    local_prefix = str(Path(tempfile.gettempdir()) / "httplab-db-")
    image_dir = _image_data_dir(repo)
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            pid = int(entry.name)
            name, parent = _stat_fields(pid)
            if name != "postgres":
                continue
            postmaster = parent if _stat_fields(parent)[0] == "postgres" else pid
            arguments = _cmdline(postmaster)
            data_dir = arguments[arguments.index("-D") + 1] if "-D" in arguments else ""
        except (OSError, ValueError, IndexError):
            continue
        if data_dir.startswith(local_prefix) or data_dir.rstrip("/") == image_dir.rstrip("/"):
            found.append(f"{pid}: {' '.join(_cmdline(pid)).strip()}")
    return found


def processes_naming_temp_dirs() -> list[str]:
    """Processes whose command line names a LocalDatabase's directory (…/httplab-db-XXXX):
    the postmaster's `postgres -D <dir>/data`, start.sh's `bash <dir>/start.sh`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = " ".join(_cmdline(int(entry.name))).strip()
        except OSError:
            continue
        if "/httplab-db-" in command:
            found.append(f"{entry.name}: {command}")
    return found


def temp_database_dirs() -> set[Path]:
    """LocalDatabase's temporary directories (tempfile.mkdtemp(prefix='httplab-db-'))."""
    return set(Path(tempfile.gettempdir()).glob("httplab-db-*"))
