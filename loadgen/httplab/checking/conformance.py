"""The conformance check: does a running server answer the hello world correctly?

The conformance tests run it against every jar, and the harness runs it before any
load, so a server that answers wrongly is never benchmarked. For a server on another
host the harness runs `python3 -m httplab.checking.conformance --json` in the wrk image
on a load generator host: this module and what it imports need the stdlib only."""

from __future__ import annotations

import argparse
import email.utils
import json
import sys
import time
from dataclasses import dataclass
from typing import Callable

from httplab.checking.http_wire import (Connection, Response, WireError, parse_closed_response,
                                        request_bytes)
from httplab.manifest import ServerManifest
from httplab.checking.ready_line import StartupInfo

EXPECTED_BODY = b"Hello, World!"
HELLO_PATHS = ("/", "/plaintext")
UNKNOWN_PATH = "/httplab-no-such-path"
KEEP_ALIVE_REQUESTS = 1000
PIPELINED_REQUESTS = 16
DATE_REFRESH_WAIT_S = 1.2
OTHER_METHOD = "POST"  # any method but GET and HEAD must get 405 on a hello path
HTTP10_REQUEST = "GET / HTTP/1.0"  # without a Connection header: not kept alive


@dataclass(frozen=True)
class CheckResult:
    name: str
    passed: bool
    detail: str = ""


@dataclass(frozen=True)
class Verification:
    checks: tuple[CheckResult, ...]

    @property
    def passed(self) -> bool:
        return all(check.passed for check in self.checks)

    @property
    def failures(self) -> tuple[CheckResult, ...]:
        return tuple(check for check in self.checks if not check.passed)

    def summary(self) -> str:
        if self.passed:
            return f"all {len(self.checks)} checks passed"
        return "; ".join(f"{check.name}: {check.detail}" for check in self.failures)


def hello_problems(response: Response, server_header: str) -> list[str]:
    """What is wrong with a hello-world response; empty when it is right."""
    problems = []
    if response.status != 200:
        problems.append(f"status {response.status}, expected 200")
    if response.body != EXPECTED_BODY:
        problems.append(f"body {response.body[:40]!r}, expected {EXPECTED_BODY!r}")
    content_type = (response.header("Content-Type") or "").lower().replace(" ", "")
    if content_type not in ("text/plain", "text/plain;charset=utf-8"):
        problems.append(f"Content-Type {response.header('Content-Type')!r}, expected text/plain")
    if response.header("Content-Length") != str(len(EXPECTED_BODY)):
        problems.append(f"Content-Length {response.header('Content-Length')!r}, expected 13")
    if server_header.lower() not in (response.header("Server") or "").lower():
        problems.append(f"Server {response.header('Server')!r}, expected {server_header!r}")
    if parse_http_date(response.header("Date")) is None:
        problems.append(f"Date {response.header('Date')!r} is not a valid HTTP date")
    return problems


def parse_http_date(value: str | None) -> float | None:
    """Seconds since the epoch of an IMF-fixdate, or None when it is not one."""
    if not value or not value.endswith(" GMT"):
        return None
    try:
        return email.utils.parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError):
        return None


def status_problem(status: int, request: str, expected: int) -> str:
    """Empty when the status is the expected one, else what was wrong."""
    return "" if status == expected else f"status {status} for {request}, expected {expected}"


def http10_problems(data: bytes, closed: bool, waited_s: float) -> str:
    """What is wrong with the bytes an HTTP/1.0 request without keep-alive got before
    the server closed the connection (closed) or the wait ran out; empty when right."""
    if not data and closed:
        return f"closed the connection without an answer to {HTTP10_REQUEST}"
    if not data:
        return f"no answer within {waited_s:g} s to {HTTP10_REQUEST}"
    if not closed:
        return (f"connection still open {waited_s:g} s after the answer to {HTTP10_REQUEST} "
                f"(no keep-alive asked); expected the server to close it")
    response = parse_closed_response(data)
    problems = [status_problem(response.status, HTTP10_REQUEST, 200)]
    if response.body != EXPECTED_BODY:
        problems.append(f"body {response.body[:40]!r} for {HTTP10_REQUEST}, "
                        f"expected {EXPECTED_BODY!r}")
    return "; ".join(problem for problem in problems if problem)


def pipelined_paths(count: int) -> list[str]:
    """A mix of hello and unknown paths, so the order of statuses proves the order."""
    return [UNKNOWN_PATH if index % 3 == 2 else HELLO_PATHS[index % 2] for index in range(count)]


class _Checker:
    def __init__(self, host: str, port: int, server_header: str, timeout: float):
        self.host, self.port = host, port
        self.server_header, self.timeout = server_header, timeout

    def connect(self) -> Connection:
        return Connection(self.host, self.port, self.timeout)

    def hello(self, path: str) -> str:
        with self.connect() as connection:
            return "; ".join(hello_problems(connection.get(path), self.server_header))

    def not_found(self) -> str:
        with self.connect() as connection:
            status = connection.get(UNKNOWN_PATH).status
        return "" if status == 404 else f"status {status} for {UNKNOWN_PATH}, expected 404"

    def keep_alive(self) -> str:
        with self.connect() as connection:
            for index in range(KEEP_ALIVE_REQUESTS):
                response = connection.get(HELLO_PATHS[index % 2])
                if response.status != 200 or response.body != EXPECTED_BODY:
                    return f"request {index + 1} of {KEEP_ALIVE_REQUESTS}: status {response.status}"
        return ""

    def pipelining(self) -> str:
        paths = pipelined_paths(PIPELINED_REQUESTS)
        with self.connect() as connection:
            connection.send(b"".join(request_bytes(path) for path in paths))
            statuses = [connection.read_response().status for _ in paths]
        expected = [404 if path == UNKNOWN_PATH else 200 for path in paths]
        return "" if statuses == expected else f"statuses {statuses}, expected {expected}"

    def head(self) -> str:
        """HEAD / answers 200 with no body. A GET follows on the same connection: body bytes
        after HEAD's head would come before the GET's status line and spoil it."""
        with self.connect() as connection:
            status = connection.request("/", "HEAD").status
            try:
                connection.get("/")
            except WireError as error:
                return (f"HEAD / (status {status}) seems to have sent a body: the GET / after "
                        f"it on the same connection did not read right: {error}")
        return status_problem(status, "HEAD /", 200)

    def other_method(self) -> str:
        with self.connect() as connection:
            status = connection.request("/", OTHER_METHOD, body=b"").status
        return status_problem(status, f"{OTHER_METHOD} /", 405)

    def http10_close(self) -> str:
        with self.connect() as connection:
            connection.send(request_bytes("/", version="HTTP/1.0"))
            data, closed = connection.read_until_closed(self.timeout)
        return http10_problems(data, closed, self.timeout)

    def date_refresh(self) -> str:
        with self.connect() as connection:
            first = connection.get("/").header("Date")
            time.sleep(DATE_REFRESH_WAIT_S)
            second = connection.get("/").header("Date")
        if first == second:
            return f"Date stayed {first!r} over {DATE_REFRESH_WAIT_S} s"
        return ""


def verify_server(port: int, server_header: str, host: str = "127.0.0.1",
                  timeout: float = 5.0) -> Verification:
    """Runs every check against a server on host:port; never raises for a bad server."""
    checker = _Checker(host, port, server_header, timeout)
    steps: list[tuple[str, Callable[[], str]]] = [
        *((f"GET {path}", lambda path=path: checker.hello(path)) for path in HELLO_PATHS),
        ("404 on unknown path", checker.not_found),
        ("HEAD / without a body", checker.head),
        (f"405 on {OTHER_METHOD} /", checker.other_method),
        ("HTTP/1.0 answered and closed", checker.http10_close),
        (f"{KEEP_ALIVE_REQUESTS} requests on one connection", checker.keep_alive),
        (f"{PIPELINED_REQUESTS} pipelined requests in order", checker.pipelining),
        ("Date refreshed", checker.date_refresh),
    ]
    return Verification(tuple(_run_check(name, step) for name, step in steps))


def _run_check(name: str, step: Callable[[], str]) -> CheckResult:
    try:
        problem = step()
    except (OSError, WireError) as error:
        problem = f"{type(error).__name__}: {error}"
    return CheckResult(name, not problem, problem)


def startup_problems(startup: StartupInfo | None, manifest: ServerManifest,
                     cpus: int | None = None) -> str:
    """What the ready line says against the manifest. With cpus None, a per-CPU setting
    is only checked for being in effect, since a container may see other CPUs than we do."""
    if startup is None:
        return "no httplab-ready line in the server's output"
    problems = []
    if startup.version != manifest.version:
        problems.append(f"version {startup.version}, manifest says {manifest.version}")
    if startup.transport != manifest.transport:
        problems.append(f"transport {startup.transport}, manifest says {manifest.transport}")
    if isinstance(manifest.workers, int) or cpus is not None:
        expected = manifest.expected_workers(cpus)
        if startup.workers != expected:
            problems.append(f"workers {startup.workers}, expected {expected}")
    if startup.observed_workers != startup.workers:
        problems.append(f"observed {startup.observed_workers} workers running, "
                        f"configured {startup.workers}")
    return "; ".join(problems)


def verify_started(startup: StartupInfo | None, manifest: ServerManifest, port: int,
                   cpus: int | None = None) -> Verification:
    """The whole check of a started server: its ready line, then its answers."""
    return with_ready_line(verify_server(port, manifest.server_header), startup, manifest, cpus)


def with_ready_line(answers: Verification, startup: StartupInfo | None,
                    manifest: ServerManifest, cpus: int | None = None) -> Verification:
    """The ready line's check, then the answers' checks, wherever they ran (verify_server
    here, or on a load generator host)."""
    line_check = _run_check("ready line", lambda: startup_problems(startup, manifest, cpus))
    return Verification((line_check, *answers.checks))


def main(argv: list[str] | None = None) -> int:
    """Exits 0 when every check passed, 1 when one failed (--json prints them either way),
    2 on wrong arguments."""
    parser = argparse.ArgumentParser(description="Check that a server answers the httplab "
                                                 "hello world correctly.")
    parser.add_argument("--host", default="127.0.0.1", help="the server's address")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--server-header", required=True, help="expected Server header value")
    parser.add_argument("--json", action="store_true",
                        help="print the result as one JSON object, for the harness")
    args = parser.parse_args(argv)
    verification = verify_server(args.port, args.server_header, host=args.host)
    print(_as_json(verification) if args.json else _as_lines(verification))
    return 0 if verification.passed else 1


def _as_lines(verification: Verification) -> str:
    return "\n".join(f"{'ok  ' if check.passed else 'FAIL'} {check.name} {check.detail}".rstrip()
                     for check in verification.checks)


def _as_json(verification: Verification) -> str:
    # Imported here: verification_json imports this module, for Verification.
    from httplab.checking.verification_json import verification_to_dict
    return json.dumps(verification_to_dict(verification))


if __name__ == "__main__":
    sys.exit(main())
