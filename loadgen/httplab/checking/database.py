"""The db and queries workloads' own checks, before any load: /db and /queries answer
rows of the world table as the database holds them, each request its own random rows, n
clamped as TechEmpower's rule says; and, as TechEmpower's toolset does, pg_stat_statements
shows one single-row select per row answered, so answers from a cache, or from one
batched statement for all ids, fail.

The runner calls verify_database once the server's own checks passed, with `query`
bound to the started database. The pure parts (an answer's shape, the comparison with
the table, the statement-count judgement) come first; the requests after them."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from httplab.checking.conformance import CheckResult
from httplab.checking.http_wire import Connection, Response, WireError
from httplab.checking.responses import JSON_CONTENT_TYPE
from httplab.model import Workload
from httplab.workloads import MAX_QUERIES, MIN_QUERIES, QUERIES_PARAMETER, request_path

# The world table: ids 1..WORLD_ROWS (servers/common World.ROWS, database/seed.sql).
WORLD_ROWS = 10_000
# How many rows are drawn to see that each request picks its own random id: 20 /db
# answers, and the first 20 rows of one /queries answer. At least MIN_DISTINCT_IDS of
# them must differ. 20 uniform draws from 10,000 ids repeat one with a chance of about
# 1.9 % (C(20, 2) / 10,000), and have 6 repeats (14 ids or fewer) with a chance of about
# 6e-15: a correct server never fails; one that answers a fixed row, or cycles through
# fewer than 15, always does.
DISTINCT_DRAWS = 20
MIN_DISTINCT_IDS = 15
# The n values /queries must clamp (QueryCount): missing, not a number, 0 and negative
# give MIN_QUERIES, above MAX_QUERIES gives MAX_QUERIES, MIN_QUERIES stays.
CLAMP_CASES: tuple[tuple[str | None, int], ...] = (
    (None, MIN_QUERIES), ("abc", MIN_QUERIES), ("0", MIN_QUERIES), ("-3", MIN_QUERIES),
    (str(MAX_QUERIES + 1), MAX_QUERIES), (str(MIN_QUERIES), MIN_QUERIES))
# The statement count: BURST_REQUESTS requests (TechEmpower's K) over BURST_CONNECTIONS
# connections at once, after pg_stat_statements_reset().
BURST_REQUESTS = 20
BURST_CONNECTIONS = 4
# The single-row select as pg_stat_statements normalizes it (World.SELECT_JDBC and
# SELECT_NUMBERED both read "... FROM world WHERE id = $1"); `id = ANY($1)` and
# `id IN ($1, $2, ...)`, one statement for many ids, do not match. A regular expression
# PostgreSQL (~*) and Python (re.I) read alike.
SINGLE_ROW_SELECT = r"from\s+world\s+where\s+id\s*=\s*\$1([^0-9]|$)"
RESET_SQL = "SELECT pg_stat_statements_reset()"
CALLS_SQL = ("SELECT coalesce(sum(calls), 0) FROM pg_stat_statements "
             f"WHERE query ~* '{SINGLE_ROW_SELECT}'")
# The first answers open the pool's connections, and n above the limit runs 500
# statements on a JVM not yet warm: more time than the hello world's checks allow.
TIMEOUT_S = 10.0
MISMATCHES_SHOWN = 3

Query = Callable[[str], list[tuple[str, ...]]]  # SQL -> its rows as text (psql -At)


class WrongAnswer(Exception):
    """An answer that is not the JSON world rows asked for; the message says how."""


class UnreadDatabase(Exception):
    """query raised: the message is its own."""


@dataclass(frozen=True)
class WorldRow:
    id: int
    random_number: int


# --- the pure parts -------------------------------------------------------------------

def world_rows(response: Response, count: int | None) -> list[WorldRow]:
    """The rows of an answer: with count None one object (/db), else an array of count
    objects (/queries). Raises WrongAnswer: not a 200, not exactly application/json, not
    JSON, not that shape."""
    if response.status != 200:
        raise WrongAnswer(f"status {response.status}, expected 200")
    if response.header("Content-Type") != JSON_CONTENT_TYPE:
        raise WrongAnswer(f"Content-Type {response.header('Content-Type')!r}, "
                          f"expected exactly {JSON_CONTENT_TYPE!r}")
    try:
        value = json.loads(response.body)
    except ValueError:
        raise WrongAnswer(f"body {response.body[:60]!r} is not JSON") from None
    if count is None:
        return [world_row(value)]
    if not isinstance(value, list):
        raise WrongAnswer(f"body {response.body[:60]!r} is not a JSON array")
    if len(value) != count:
        raise WrongAnswer(f"{len(value)} rows, expected {count}")
    return [world_row(item) for item in value]


def world_row(value: object) -> WorldRow:
    """{"id": N, "randomNumber": M}: exactly these keys, integers, N in 1..WORLD_ROWS."""
    if not isinstance(value, dict) or set(value) != {"id", "randomNumber"}:
        raise WrongAnswer(f"{json.dumps(value)[:60]} is not exactly "
                          '{"id": N, "randomNumber": M}')
    row_id, number = value["id"], value["randomNumber"]
    if not all(type(item) is int for item in (row_id, number)):  # bool and float are not
        raise WrongAnswer(f"{json.dumps(value)[:60]}: id and randomNumber must be integers")
    if not 1 <= row_id <= WORLD_ROWS:
        raise WrongAnswer(f"id {row_id} is not in 1..{WORLD_ROWS}")
    return WorldRow(row_id, number)


def distinct_ids_problem(rows: Sequence[WorldRow], what: str) -> str:
    """At least MIN_DISTINCT_IDS different ids among the first DISTINCT_DRAWS rows."""
    drawn = rows[:DISTINCT_DRAWS]
    ids = {row.id for row in drawn}
    if len(drawn) < DISTINCT_DRAWS:
        return f"only {len(drawn)} rows of {what} to draw from, expected {DISTINCT_DRAWS}"
    if len(ids) >= MIN_DISTINCT_IDS:
        return ""
    return (f"{len(ids)} different ids in {len(drawn)} rows of {what}, expected at least "
            f"{MIN_DISTINCT_IDS}: the ids are not drawn at random for each row")


def table_sql(rows: Iterable[WorldRow]) -> str:
    """One statement that reads every row answered (the ids are checked integers)."""
    ids = sorted({row.id for row in rows})
    return f"SELECT id, randomnumber FROM world WHERE id IN ({', '.join(map(str, ids))})"


def table_problem(answered: Iterable[WorldRow], table: list[tuple[str, ...]]) -> str:
    """Each row answered against the table's rows (table_sql's answer)."""
    held = dict(_table_row(row) for row in table)
    wrong = [f"id {row.id} is not in the table" if row.id not in held else
             f"id {row.id}: randomNumber {row.random_number}, the table has {held[row.id]}"
             for row in dict.fromkeys(answered) if held.get(row.id) != row.random_number]
    if not wrong:
        return ""
    more = len(wrong) - MISMATCHES_SHOWN
    return (f"{len(wrong)} rows differ from the world table: "
            f"{'; '.join(wrong[:MISMATCHES_SHOWN])}{f' (and {more} more)' if more > 0 else ''}")


def _table_row(row: tuple[str, ...]) -> tuple[int, int]:
    if len(row) != 2 or not all(item.lstrip("-").isdigit() for item in row):
        raise WrongAnswer(f"the world table gave the row {row!r:.60}, expected id, randomnumber")
    return int(row[0]), int(row[1])


def counted_calls(rows: list[tuple[str, ...]]) -> int:
    """CALLS_SQL's answer: one row, one number."""
    if len(rows) != 1 or len(rows[0]) != 1 or not rows[0][0].isdigit():
        raise WrongAnswer(f"pg_stat_statements gave {rows!r:.80}, expected one count")
    return int(rows[0][0])


def statement_count_problem(calls: int, requests: int, rows_per_request: int,
                            path: str) -> str:
    """TechEmpower's rule: each row answered is one single-row select the database ran."""
    expected = requests * rows_per_request
    if calls >= expected:
        return ""
    return (f"pg_stat_statements counted {calls} single-row selects on world for {requests} "
            f"requests of {path}, at least {expected} expected: the answers did not all come "
            f"from the database (a cache, or one query for all ids)")


# --- the requests ---------------------------------------------------------------------

Answered = list[tuple[str, list[WorldRow]]]  # each request's path and the rows it got
Step = tuple[str, Callable[[], str]]


class _Answers:
    """An endpoint's answers, collected once by the check of their shape; the checks that
    judge them after it say so when there are none."""

    def __init__(self, collect: Callable[[], Answered]):
        self._collect = collect
        self._answered: Answered | None = None

    def shape_problem(self) -> str:
        self._answered = self._collect()
        return ""

    def judged(self, judge: Callable[[Answered], str]) -> str:
        if self._answered is None:
            return "not judged: the answers were wrong (see the check of their shape)"
        return judge(self._answered)


def _rows(answered: Answered, path: str | None = None) -> list[WorldRow]:
    """Every row answered, or those of one path."""
    return [row for asked, rows in answered if path in (None, asked) for row in rows]


class _DatabaseChecker:
    def __init__(self, host: str, port: int, query: Query, query_error: type[Exception],
                 timeout: float):
        self.host, self.port, self.timeout = host, port, timeout
        self._query, self._query_error = query, query_error

    def query(self, sql: str) -> list[tuple[str, ...]]:
        """The database's rows; UnreadDatabase with query's message when it raised."""
        try:
            return self._query(sql)
        except self._query_error as error:
            raise UnreadDatabase(str(error) or type(error).__name__) from error

    def connect(self) -> Connection:
        return Connection(self.host, self.port, self.timeout)

    def answers(self, requests: Sequence[tuple[str, int | None]]) -> Answered:
        """Each (path, rows expected) on one connection, in order; WrongAnswer naming every
        wrong answer (once, when many say the same)."""
        answered, problems = [], []
        with self.connect() as connection:
            for path, count in requests:
                try:
                    answered.append((path, world_rows(connection.get(path), count)))
                except WrongAnswer as error:
                    problems.append(f"GET {path}: {error}")
        if problems:
            raise WrongAnswer("; ".join(dict.fromkeys(problems)))
        return answered

    def table_problem(self, answered: Answered) -> str:
        rows = _rows(answered)
        return table_problem(rows, self.query(table_sql(rows)))

    def statement_count_problem(self, path: str, rows_per_request: int) -> str:
        """pg_stat_statements reset, a burst of requests, then its count of single-row
        selects on world."""
        self.query(RESET_SQL)
        wrong = sorted({status for status in self.burst(path) if status != 200})
        if wrong:
            return (f"status {', '.join(map(str, wrong))} among the {BURST_REQUESTS} answers "
                    f"to GET {path}, expected 200")
        calls = counted_calls(self.query(CALLS_SQL))
        return statement_count_problem(calls, BURST_REQUESTS, rows_per_request, path)

    def burst(self, path: str) -> list[int]:
        """BURST_REQUESTS GETs of path shared by BURST_CONNECTIONS connections at once; the
        statuses."""
        shares = [len(range(first, BURST_REQUESTS, BURST_CONNECTIONS))
                  for first in range(BURST_CONNECTIONS)]
        with ThreadPoolExecutor(BURST_CONNECTIONS) as pool:
            statuses = pool.map(lambda share: self._statuses(path, share), shares)
            return [status for share in statuses for status in share]

    def _statuses(self, path: str, count: int) -> list[int]:
        with self.connect() as connection:
            return [connection.get(path).status for _ in range(count)]


def with_n(endpoint: str, n: str | None) -> str:
    """/queries?n=value, or /queries for a missing n."""
    return endpoint if n is None else f"{endpoint}?{QUERIES_PARAMETER}={n}"


def _db_steps(checker: _DatabaseChecker, workload: Workload) -> list[Step]:
    path = request_path(workload, "")
    answers = _Answers(lambda: checker.answers([(path, None)] * DISTINCT_DRAWS))
    return [(f"GET {path}: {DISTINCT_DRAWS} answers, each one JSON world row",
             answers.shape_problem),
            (f"GET {path}: at least {MIN_DISTINCT_IDS} different ids in {DISTINCT_DRAWS} answers",
             lambda: answers.judged(lambda answered: distinct_ids_problem(
                 _rows(answered), f"{DISTINCT_DRAWS} answers to GET {path}"))),
            (f"GET {path}: rows as in the world table",
             lambda: answers.judged(checker.table_problem)),
            (f"pg_stat_statements: one single-row select per GET {path}",
             lambda: checker.statement_count_problem(path, 1))]


def _queries_steps(checker: _DatabaseChecker, workload: Workload) -> list[Step]:
    path, n = request_path(workload, ""), workload.queries or MIN_QUERIES
    endpoint = path.partition("?")[0]
    requests = [(path, n), *((with_n(endpoint, raw), rows) for raw, rows in CLAMP_CASES)]
    widest = max(requests, key=lambda request: request[1])[0]
    answers = _Answers(lambda: checker.answers(requests))
    clamps = ", ".join(f"{raw or 'missing'} -> {rows}" for raw, rows in CLAMP_CASES)
    return [(f"GET {path}: {n} JSON world rows; n clamped to {MIN_QUERIES}..{MAX_QUERIES} "
             f"({clamps})", answers.shape_problem),
            (f"GET {widest}: at least {MIN_DISTINCT_IDS} different ids in its first "
             f"{DISTINCT_DRAWS} rows",
             lambda: answers.judged(lambda answered: distinct_ids_problem(
                 _rows(answered, widest), f"GET {widest}"))),
            (f"GET {endpoint}: rows as in the world table",
             lambda: answers.judged(checker.table_problem)),
            (f"pg_stat_statements: {n} single-row selects per GET {path}",
             lambda: checker.statement_count_problem(path, n))]


def verify_database(host: str, port: int, workloads: Iterable[Workload], query: Query, *,
                    query_error: type[Exception] = Exception,
                    timeout: float = TIMEOUT_S) -> tuple[CheckResult, ...]:
    """The checks of each db and queries workload asked, each marked with its key (so a
    failure skips that workload only); the others have none here. query reads the started
    database; what it raises of query_error (the runner's DatabaseError; by default any
    exception) fails the check with its message. Never raises for a bad server."""
    checker = _DatabaseChecker(host, port, query, query_error, timeout)
    steps = {"db": _db_steps, "queries": _queries_steps}
    return tuple(_checked(name, step, workload.key)
                 for workload in dict.fromkeys(workloads) if workload.name in steps
                 for name, step in steps[workload.name](checker, workload))


def _checked(name: str, step: Callable[[], str], workload: str) -> CheckResult:
    try:
        problem = step()
    except (WrongAnswer, UnreadDatabase) as error:
        problem = str(error)
    except (OSError, WireError) as error:
        problem = f"{type(error).__name__}: {error}"
    return CheckResult(name, not problem, problem, workload)
