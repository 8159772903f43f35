"""The db and queries checks (checking/database.py): their pure parts table by table, then
the whole check against a stand-in server that read the world table once and answers
from memory, beside a fake database that counts only the statements the stand-in says
it ran; and the facts the Python side shares with servers/common."""

from __future__ import annotations

import json
import random
import re
import threading
from dataclasses import dataclass, field
from email.utils import formatdate
from typing import Callable

import pytest

from httplab.checking.database import (CALLS_SQL, CLAMP_CASES, DISTINCT_DRAWS,
                                       MIN_DISTINCT_IDS, RESET_SQL, SINGLE_ROW_SELECT,
                                       WORLD_ROWS, WorldRow, WrongAnswer, counted_calls,
                                       distinct_ids_problem, statement_count_problem,
                                       table_problem, table_sql, verify_database, world_rows)
from httplab.checking.http_wire import Response
from httplab.model import Workload
from httplab.running.database import base
from httplab.running.database.base import DatabaseError
from httplab.workloads import MAX_QUERIES, MIN_QUERIES
from tests.conftest import TESTS_DIR, free_port
from tests.fake_server import FakeRequest, FakeServer

JAVA = TESTS_DIR.parents[1] / "servers/common/src/main/java/httplab/server"
DB, QUERIES = Workload("db"), Workload("queries", queries=20)
JSON_TYPE = (("Content-Type", "application/json"),)


def _response(body: object, status: int = 200, headers=JSON_TYPE) -> Response:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    return Response(status, headers, raw)


def _row(row_id: int = 7, number: int = 99) -> dict:
    return {"id": row_id, "randomNumber": number}


# --- an answer's shape ------------------------------------------------------------------

@pytest.mark.parametrize("response, count, expected", [
    (_response(_row()), None, [WorldRow(7, 99)]),
    (_response([_row(1), _row(WORLD_ROWS)]), 2, [WorldRow(1, 99), WorldRow(WORLD_ROWS, 99)]),
    (_response([_row()]), 1, [WorldRow(7, 99)]),
])
def test_a_right_answer_gives_its_rows(response, count, expected):
    assert world_rows(response, count) == expected


@pytest.mark.parametrize("response, count, message", [
    (_response(_row(), status=500), None, "status 500, expected 200"),
    (_response(_row(), headers=(("Content-Type", "text/plain"),)), None,
     "Content-Type 'text/plain'"),
    (_response(_row(), headers=(("Content-Type", "application/json; charset=utf-8"),)), None,
     "expected exactly 'application/json'"),
    (_response(_row(), headers=()), None, "Content-Type None"),
    (_response(b'{"id":1,'), None, "is not JSON"),
    (_response([_row()]), None, "is not exactly"),  # /db answers an object, not an array
    (_response(_row()), 1, "is not a JSON array"),  # /queries answers an array
    (_response([_row(), _row()]), 1, "2 rows, expected 1"),
    (_response([]), 20, "0 rows, expected 20"),
    (_response({"id": 7}), None, "is not exactly"),
    (_response({**_row(), "extra": 1}), None, "is not exactly"),
    (_response({"ID": 7, "randomnumber": 9}), None, "is not exactly"),
    (_response(_row(0)), None, "id 0 is not in 1..10000"),
    (_response(_row(WORLD_ROWS + 1)), None, "id 10001 is not in 1..10000"),
    (_response(_row(-5)), None, "id -5 is not in"),
    (_response({"id": "7", "randomNumber": 9}), None, "must be integers"),
    (_response({"id": 7.0, "randomNumber": 9}), None, "must be integers"),
    (_response({"id": 7, "randomNumber": True}), None, "must be integers"),
    (_response({"id": 7, "randomNumber": None}), None, "must be integers"),
    (_response([_row(), "x"]), 2, "is not exactly"),
])
def test_a_wrong_answer_says_what_is_wrong(response, count, message):
    with pytest.raises(WrongAnswer, match=re.escape(message)):
        world_rows(response, count)


# --- different rows, the table, the statement count -------------------------------------

def _rows_with_ids(ids) -> list[WorldRow]:
    return [WorldRow(row_id, 1) for row_id in ids]


@pytest.mark.parametrize("ids, message", [
    (range(1, DISTINCT_DRAWS + 1), ""),
    ([*range(1, MIN_DISTINCT_IDS + 1)] * 2, ""),  # the first 20 hold 15 different ids
    ([*range(1, MIN_DISTINCT_IDS)] * 2, "14 different ids in 20 rows"),
    ([42] * DISTINCT_DRAWS, "1 different ids in 20 rows"),  # a fixed row
    ([42] * 100, "1 different ids in 20 rows"),
    (range(1, DISTINCT_DRAWS), "only 19 rows"),
])
def test_different_requests_must_get_different_ids(ids, message):
    problem = distinct_ids_problem(_rows_with_ids(ids), "GET /db")
    assert (message in problem) if message else problem == ""


def test_the_distinct_bound_never_fails_random_draws():
    """A seeded run of many rounds of a correct server's draws: none fails the bound."""
    draws = random.Random(20)
    assert not any(distinct_ids_problem(_rows_with_ids(draws.randint(1, WORLD_ROWS)
                                                       for _ in range(DISTINCT_DRAWS)), "x")
                   for _ in range(2000))


def test_one_statement_reads_every_row_answered():
    rows = [WorldRow(30, 1), WorldRow(4, 2), WorldRow(30, 1)]
    assert table_sql(rows) == "SELECT id, randomnumber FROM world WHERE id IN (4, 30)"


TABLE = [("4", "2"), ("30", "1"), ("77", "5")]


@pytest.mark.parametrize("answered, message", [
    ([WorldRow(4, 2), WorldRow(30, 1), WorldRow(4, 2)], ""),
    ([WorldRow(4, 3)], "1 rows differ from the world table: id 4: randomNumber 3, the table has 2"),
    ([WorldRow(5, 2)], "id 5 is not in the table"),
    ([WorldRow(4, 9), WorldRow(30, 9), WorldRow(77, 9), WorldRow(5, 9)], "4 rows differ"),
    ([WorldRow(4, 9), WorldRow(30, 9), WorldRow(77, 9), WorldRow(5, 9)], "(and 1 more)"),
])
def test_the_rows_answered_must_be_the_tables(answered, message):
    problem = table_problem(answered, TABLE)
    assert (message in problem) if message else problem == ""


def test_a_table_row_that_is_no_row_is_said():
    with pytest.raises(WrongAnswer, match="expected id, randomnumber"):
        table_problem([WorldRow(4, 2)], [("4",)])


@pytest.mark.parametrize("rows, calls", [([("0",)], 0), ([("400",)], 400)])
def test_the_count_is_read_from_one_number(rows, calls):
    assert counted_calls(rows) == calls


@pytest.mark.parametrize("rows", [[], [("",)], [("1", "2")], [("1",), ("2",)]])
def test_a_count_that_is_no_number_is_said(rows):
    with pytest.raises(WrongAnswer, match="expected one count"):
        counted_calls(rows)


@pytest.mark.parametrize("calls, requests, rows, failed", [
    (400, 20, 20, False), (523, 20, 20, False), (399, 20, 20, True), (0, 20, 20, True),
    (20, 20, 20, True),  # one batched statement per request
    (20, 20, 1, False), (19, 20, 1, True),
])
def test_each_row_answered_is_one_statement(calls, requests, rows, failed):
    assert bool(statement_count_problem(calls, requests, rows, "/queries?n=20")) == failed


def test_the_statement_count_names_the_cause():
    assert statement_count_problem(40, 20, 20, "/queries?n=20") == (
        "pg_stat_statements counted 40 single-row selects on world for 20 requests of "
        "/queries?n=20, at least 400 expected: the answers did not all come from the database "
        "(a cache, or one query for all ids)")


def test_n_is_clamped_as_the_issue_says():
    assert dict(CLAMP_CASES) == {None: 1, "abc": 1, "0": 1, "-3": 1, "501": 500, "1": 1}


def _java_constants(name: str) -> dict[str, str]:
    """`public static final T NAME = VALUE;` of a servers/common class, NAME -> VALUE."""
    source = (JAVA / f"{name}.java").read_text()
    return dict(re.findall(r"static final \w+ (\w+) =\s*([^;]+);", source))


def _normalized(statement: str) -> str:
    """The statement as pg_stat_statements shows it: JDBC's ? sent as $1."""
    return statement.replace("?", "$1")


@pytest.mark.parametrize("statement, counted", [
    (_normalized(_java_constants("World")["SELECT_JDBC"].strip('"')), True),
    (_java_constants("World")["SELECT_NUMBERED"].strip('"'), True),
    ("select id,randomNumber from world where id=$1", True),
    ("SELECT id, randomnumber FROM world WHERE id = ANY($1)", False),
    ("SELECT id, randomnumber FROM world WHERE id IN ($1, $2, $3)", False),
    ("SELECT id, randomnumber FROM world WHERE id = $12", False),
    ("SELECT id, randomnumber FROM world WHERE id IN (1, 2)", False),  # table_sql's
    ("SELECT pg_stat_statements_reset()", False),
])
def test_only_the_single_row_select_is_counted(statement, counted):
    assert bool(re.search(SINGLE_ROW_SELECT, statement, re.IGNORECASE)) == counted


def test_python_and_java_say_the_same_facts():
    world, query_count = _java_constants("World"), _java_constants("QueryCount")
    assert int(world["ROWS"].replace("_", "")) == WORLD_ROWS
    assert (int(query_count["MIN"]), int(query_count["MAX"])) == (MIN_QUERIES, MAX_QUERIES)
    settings = _java_constants("DatabaseSettings")
    names = {key: settings[key].strip('"') for key in ("HOST", "PORT", "NAME", "USER", "PASSWORD")}
    assert names == {"HOST": base.ENV_HOST, "PORT": base.ENV_PORT, "NAME": base.ENV_NAME,
                     "USER": base.ENV_USER, "PASSWORD": base.ENV_PASSWORD}


# --- the whole check against a stand-in -------------------------------------------------

@dataclass
class FakeDatabase:
    """The world table, and a count of the single-row selects it was told it ran."""
    table: dict[int, int]
    calls: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    asked: list[str] = field(default_factory=list)

    def ran_single_row_selects(self, count: int) -> None:
        with self.lock:
            self.calls += count

    def query(self, sql: str) -> list[tuple[str, ...]]:
        self.asked.append(sql)
        if sql == RESET_SQL:
            self.calls = 0
            return [("",)]
        if sql == CALLS_SQL:
            return [(str(self.calls),)]
        match = re.fullmatch(r"SELECT id, randomnumber FROM world WHERE id IN \(([\d, ]+)\)", sql)
        if not match:
            raise DatabaseError(f"the fake database does not know {sql!r}")
        ids = [int(row_id) for row_id in match[1].split(", ")]
        return [(str(row_id), str(self.table[row_id])) for row_id in ids if row_id in self.table]


def _world_table(seed: int = 15) -> dict[int, int]:
    draws = random.Random(seed)
    return {row_id: draws.randint(1, WORLD_ROWS) for row_id in range(1, WORLD_ROWS + 1)}


def _clamped(raw: str | None) -> int:
    """The stand-in's own reading of n (QueryCount's rule)."""
    try:
        return max(MIN_QUERIES, min(MAX_QUERIES, int(raw or "")))
    except ValueError:
        return MIN_QUERIES


@dataclass
class StandIn:
    """A /db and /queries server that read the world table once (memory) and answers from
    it; statements(rows) is what it tells the database it ran for an answer of that many
    rows: rows for a correct server, 0 for a cache, 1 for one batched query. Each other
    field makes it wrong in one way."""
    database: FakeDatabase
    statements: Callable[[int], int] = lambda rows: rows
    memory: dict[int, int] | None = None
    pick_id: Callable[[], int] = lambda: random.randint(1, WORLD_ROWS)
    clamp: Callable[[str | None], int] = _clamped

    def answer(self, request: FakeRequest) -> bytes:
        path, _, query = request.path.partition("?")
        values = dict(pair.partition("=")[::2] for pair in query.split("&") if pair)
        if path not in ("/db", "/queries"):
            return _http(404, b"not found", "text/plain")
        count = 1 if path == "/db" else self.clamp(values.get("n"))
        memory = self.memory or self.database.table
        rows = [_row(row_id, memory[row_id]) for row_id in (self.pick_id() for _ in range(count))]
        self.database.ran_single_row_selects(self.statements(count))
        body = rows[0] if path == "/db" else rows
        return _http(200, json.dumps(body, separators=(",", ":")).encode(), "application/json")


def _http(status: int, body: bytes, content_type: str) -> bytes:
    head = (f"HTTP/1.1 {status} {'OK' if status == 200 else 'Not Found'}\r\nServer: StandIn\r\n"
            f"Date: {formatdate(usegmt=True)}\r\nContent-Type: {content_type}\r\n"
            f"Content-Length: {len(body)}\r\n\r\n")
    return head.encode("latin-1") + body


TABLE_OF_TESTS = _world_table()


def _verify(workloads=(DB, QUERIES), **stand_in) -> tuple[dict[str, str], FakeDatabase, list]:
    """The failed checks (name -> detail), the database and every check."""
    database = FakeDatabase(dict(TABLE_OF_TESTS))
    with FakeServer(StandIn(database, **stand_in).answer) as server:
        checks = verify_database("127.0.0.1", server.port, workloads, database.query,
                                 query_error=DatabaseError, timeout=5.0)
    return {check.name: check.detail for check in checks if not check.passed}, database, checks


def test_a_server_that_reads_a_row_per_row_answered_passes():
    failed, database, checks = _verify()
    assert failed == {}
    assert {check.workload for check in checks} == {"db", "queries-20"}
    assert len(checks) == 8
    assert sum(sql.startswith("SELECT id, randomnumber") for sql in database.asked) == 2


def test_a_server_that_answers_from_memory_fails_the_statement_count_only():
    failed, _, _ = _verify(statements=lambda rows: 0)
    assert failed == {
        "pg_stat_statements: one single-row select per GET /db":
            "pg_stat_statements counted 0 single-row selects on world for 20 requests of /db, "
            "at least 20 expected: the answers did not all come from the database (a cache, "
            "or one query for all ids)",
        "pg_stat_statements: 20 single-row selects per GET /queries?n=20":
            "pg_stat_statements counted 0 single-row selects on world for 20 requests of "
            "/queries?n=20, at least 400 expected: the answers did not all come from the "
            "database (a cache, or one query for all ids)"}


def test_one_batched_query_per_request_fails_queries_not_db():
    failed, _, checks = _verify(statements=lambda rows: 1)
    assert list(failed) == ["pg_stat_statements: 20 single-row selects per GET /queries?n=20"]
    assert "counted 20 single-row selects" in failed[list(failed)[0]]
    assert [check.workload for check in checks if not check.passed] == ["queries-20"]


def test_a_fixed_row_fails_the_different_ids():
    failed, _, _ = _verify(pick_id=lambda: 42)
    db_ids = "GET /db: at least 15 different ids in 20 answers"
    assert set(failed) == {db_ids,
                           "GET /queries?n=501: at least 15 different ids in its first 20 rows"}
    assert "1 different ids in 20 rows" in failed[db_ids]


def test_rows_that_are_not_the_tables_fail():
    stale = {**TABLE_OF_TESTS, **{row_id: -1 for row_id in range(1, WORLD_ROWS + 1, 2)}}
    failed, _, _ = _verify(memory=stale)
    assert set(failed) == {"GET /db: rows as in the world table",
                           "GET /queries: rows as in the world table"}
    assert "randomNumber -1, the table has" in failed["GET /db: rows as in the world table"]


def _unclamped(raw: str | None) -> int:
    """n as asked, not clamped: 0 and -3 give no rows, 501 gives 501."""
    return max(0, int(raw)) if raw and raw.lstrip("-").isdigit() else MIN_QUERIES


def test_n_not_clamped_fails_and_the_rows_are_not_judged():
    failed, _, _ = _verify(workloads=(QUERIES,), clamp=_unclamped)
    shape = next(name for name in failed if name.startswith("GET /queries?n=20: 20 JSON"))
    assert failed[shape] == ("GET /queries?n=0: 0 rows, expected 1; GET /queries?n=-3: 0 rows, "
                             "expected 1; GET /queries?n=501: 501 rows, expected 500")
    assert failed["GET /queries: rows as in the world table"].startswith("not judged")
    assert "pg_stat_statements: 20 single-row selects per GET /queries?n=20" not in failed


@pytest.mark.parametrize("workloads, keys", [
    ((DB,), {"db"}), ((QUERIES,), {"queries-20"}),
    ((Workload("queries", queries=5),), {"queries-5"}),
    ((Workload(), Workload("json"), Workload("delay", 10)), set()),
])
def test_only_the_workloads_asked_are_checked(workloads, keys):
    failed, _, checks = _verify(workloads=workloads)
    assert failed == {} and {check.workload for check in checks} == keys


def test_a_database_that_cannot_be_read_fails_its_checks_with_its_message():
    database = FakeDatabase(dict(TABLE_OF_TESTS))

    def unreadable(sql: str) -> list[tuple[str, ...]]:
        raise DatabaseError("psql: connection refused (database log: raw/database.log)")

    with FakeServer(StandIn(database).answer) as server:
        checks = verify_database("127.0.0.1", server.port, (DB,), unreadable,
                                 query_error=DatabaseError)
    assert {check.name: check.detail for check in checks if not check.passed} == {
        name: "psql: connection refused (database log: raw/database.log)"
        for name in ("GET /db: rows as in the world table",
                     "pg_stat_statements: one single-row select per GET /db")}


def test_a_server_that_does_not_listen_fails_without_raising():
    checks = verify_database("127.0.0.1", free_port(), (DB, QUERIES),
                             FakeDatabase({}).query, query_error=DatabaseError, timeout=1.0)
    assert len(checks) == 8 and not any(check.passed for check in checks)
    assert all("ConnectionRefusedError" in check.detail or check.detail.startswith("not judged")
               for check in checks)


def test_by_default_whatever_query_raises_fails_the_check_with_its_message():
    """The runner may bind query without naming its error: any exception of query counts."""
    def unreadable(sql: str) -> list[tuple[str, ...]]:
        raise RuntimeError("docker exec: no such container")

    with FakeServer(StandIn(FakeDatabase(dict(TABLE_OF_TESTS))).answer) as server:
        checks = verify_database("127.0.0.1", server.port, (DB,), unreadable)
    assert [check.detail for check in checks if not check.passed] == [
        "docker exec: no such container"] * 2
