"""The conformance check: does a running server answer the hello world correctly, and
each workload's endpoint (/json, /delay, /blocking) it will be loaded at? In the protocol
the server speaks (axes.py's PROTOCOL): HTTP/1.1 in plaintext or over TLS, HTTP/2 over TLS
or in cleartext, where the checks only HTTP/1.1 has (HTTP/1.0's close, pipelining) take
their HTTP/2 form (h2_checks.py).

The conformance tests run it against every jar, and the harness runs it before any
load, so a server that answers wrongly is never benchmarked: the common checks (the
hello world) decide whether a server runs at all; a workload's own checks only whether
it is loaded at that workload. For a server on another host the harness runs it through
its command line (conformance_cli.py) in the wrk image on a load generator host: this
module and what it imports need the stdlib only, but for HTTP/2 (h2_wire.py, imported
then alone)."""

from __future__ import annotations

import ssl
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable

from httplab.addresses import LOOPBACK
from httplab.axes import H1, H2, HTTP2_PROTOCOLS, TLS_PROTOCOLS
from httplab.checking.h2_checks import concurrent_streams_problem, head_problem
from httplab.checking.http_wire import Connection, WireError, parse_closed_response, request_bytes
from httplab.checking.ready_line import StartupInfo
from httplab.checking.responses import (EXPECTED_BODY, WAIT_SLACK_MS, hello_problems,
                                        json_problems, not_allowed_problem, refusal_problem,
                                        status_problem, wait_problem)
from httplab.checking.tls_wire import ALPN_H2, ALPN_HTTP1, client_context
from httplab.manifest import ServerManifest
from httplab.model import NO_TLS, Workload
from httplab.run_tls import RunTls
from httplab.workloads import JSON_PATH, MAX_DELAY_MS, WAIT_PARAMETER, request_path

if TYPE_CHECKING:
    from httplab.checking.h2_wire import H2Client

HELLO_PATHS = ("/", "/plaintext")
UNKNOWN_PATH = "/httplab-no-such-path"
KEEP_ALIVE_REQUESTS = 1000
PIPELINED_REQUESTS = 16  # over HTTP/2, as many streams at once on one connection
DATE_REFRESH_WAIT_S = 1.2
WIRE_TIMEOUT_S = 5.0  # the proof on the wire: a handshake and one GET
OTHER_METHOD = "POST"  # any method but GET and HEAD must get 405 on a hello path
HTTP10_REQUEST = "GET / HTTP/1.0"  # without a Connection header: not kept alive
# RFC 9110 15.6.6, HTTP Version Not Supported: a server that does not speak HTTP/1.0 may
# refuse it so, then close (Helidon 4 does, by design: helidon-io/helidon#9648). wrk speaks
# HTTP/1.1; what the check asks is a clear answer and a closed connection, never a hang.
HTTP10_REFUSED = 505
# /delay and /blocking answer this many GETs in a row at rest; the soonest must come
# within WAIT_SLACK_MS of the wait (the first may load classes), none before it.
TIMED_REQUESTS = 3
# What a waiting endpoint must refuse with 400 at once: ms missing, 0, negative, not a
# number, above the limit.
BAD_MS_VALUES = (None, "0", "-1", "abc", str(MAX_DELAY_MS + 1))
# Each /blocking answer names the kind of thread its wait ran on (servers/common ThreadKind):
# how a run proves EXECUTOR took effect, so that no server stays on its pool unseen.
THREAD_HEADER = "X-Httplab-Thread"
BLOCKING = "blocking"


@dataclass(frozen=True)
class CheckResult:
    name: str
    passed: bool
    detail: str = ""
    workload: str | None = None  # the workload's key whose check this is; None: common


@dataclass(frozen=True)
class Verification:
    checks: tuple[CheckResult, ...]

    @property
    def passed(self) -> bool:
        """The common checks' verdict: whether the server runs at all."""
        return all(check.passed for check in self.checks if check.workload is None)

    @property
    def failures(self) -> tuple[CheckResult, ...]:
        """Every failed check, common or a workload's."""
        return tuple(check for check in self.checks if not check.passed)

    def failed_workloads(self) -> dict[str, str]:
        """Workload key -> what its failed checks said, for each workload not to load."""
        failed: dict[str, list[CheckResult]] = {}
        for check in self.failures:
            if check.workload is not None:
                failed.setdefault(check.workload, []).append(check)
        return {key: _failures_text(checks) for key, checks in failed.items()}

    def summary(self) -> str:
        """All passed; the common failures (nothing is loaded); or the workloads that
        failed, each with why."""
        if not self.passed:
            return _failures_text(check for check in self.failures if check.workload is None)
        failed = self.failed_workloads()
        if not failed:
            return f"all {len(self.checks)} checks passed"
        passed = sum(check.passed for check in self.checks)
        return (f"{passed} of {len(self.checks)} checks passed; "
                + "; ".join(f"{key} failed ({text})" for key, text in failed.items()))


def _failures_text(checks: Iterable[CheckResult]) -> str:
    return "; ".join(f"{check.name}: {check.detail}" for check in checks)


def http10_problems(data: bytes, closed: bool, waited_s: float) -> str:
    """What is wrong with the bytes an HTTP/1.0 request without keep-alive got before
    the server closed the connection (closed) or the wait ran out; empty when right: the
    hello world, or the refusal HTTP10_REFUSED."""
    if not data and closed:
        return f"closed the connection without an answer to {HTTP10_REQUEST}"
    if not data:
        return f"no answer within {waited_s:g} s to {HTTP10_REQUEST}"
    if not closed:
        return (f"connection still open {waited_s:g} s after the answer to {HTTP10_REQUEST} "
                f"(no keep-alive asked); expected the server to close it")
    response = parse_closed_response(data)
    if response.status == HTTP10_REFUSED:
        return ""
    problems = [status_problem(response.status, HTTP10_REQUEST, 200)]
    if response.body != EXPECTED_BODY:
        problems.append(f"body {response.body[:40]!r} for {HTTP10_REQUEST}, "
                        f"expected {EXPECTED_BODY!r}")
    return "; ".join(problem for problem in problems if problem)


def pipelined_paths(count: int) -> list[str]:
    """A mix of hello and unknown paths, so the order of statuses proves the order."""
    return [UNKNOWN_PATH if index % 3 == 2 else HELLO_PATHS[index % 2] for index in range(count)]


def expected_statuses(paths: list[str]) -> list[int]:
    return [404 if path == UNKNOWN_PATH else 200 for path in paths]


def client_context_for(protocol: str, tls: RunTls | None) -> ssl.SSLContext | None:
    """The TLS a protocol's checks connect with: trusting the run's CA, offering h2 alone
    for h2 and http/1.1 alone for h1-tls; None in plaintext."""
    if protocol not in TLS_PROTOCOLS:
        return None
    if tls is None:
        raise ValueError(f"{protocol} needs the run's TLS files")
    return client_context(tls, (ALPN_H2,) if protocol == H2 else (ALPN_HTTP1,))


class _Checker:
    def __init__(self, host: str, port: int, server_header: str, timeout: float,
                 blocking_thread: str = "", protocol: str = H1, tls: RunTls | None = None):
        self.host, self.port = host, port
        self.server_header, self.timeout = server_header, timeout
        self.blocking_thread = blocking_thread  # platform or virtual; "": not checked
        self.http2 = protocol in HTTP2_PROTOCOLS
        self._context = client_context_for(protocol, tls)

    def connect(self, timeout: float | None = None) -> Connection | H2Client:
        """A connection in the protocol checked, whose get and request read a Response."""
        if self.http2:
            from httplab.checking.h2_wire import H2Client  # the h2 library: HTTP/2 alone
            return H2Client.open(self.host, self.port, timeout or self.timeout, self._context)
        return Connection(self.host, self.port, timeout or self.timeout, context=self._context)

    def wait_timeout(self, delay_ms: int) -> float:
        """A socket's timeout for requests that wait delay_ms before their answer."""
        return self.timeout + delay_ms / 1000

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
        expected = expected_statuses(paths)
        return "" if statuses == expected else f"statuses {statuses}, expected {expected}"

    def concurrent_streams(self) -> str:
        paths = pipelined_paths(PIPELINED_REQUESTS)
        with self.connect() as connection:
            return concurrent_streams_problem(connection, paths, expected_statuses(paths))

    def head(self, path: str = "/", timeout: float | None = None) -> str:
        """HEAD path answers 200 with no body. A GET / follows on the same connection: body
        bytes after HEAD's head would come before the GET's status line and spoil it."""
        with self.connect(timeout) as connection:
            if self.http2:
                return head_problem(connection, path)
            status = connection.request(path, "HEAD").status
            try:
                connection.get("/")
            except WireError as error:
                return (f"HEAD {path} (status {status}) seems to have sent a body: the GET / "
                        f"after it on the same connection did not read right: {error}")
        return status_problem(status, f"HEAD {path}", 200)

    def other_method(self) -> str:
        with self.connect() as connection:
            status = connection.request("/", OTHER_METHOD, body=b"").status
        return status_problem(status, f"{OTHER_METHOD} /", 405)

    def not_allowed(self, path: str) -> str:
        """A workload's path: 405 with its Allow header for OTHER_METHOD."""
        with self.connect() as connection:
            response = connection.request(path, OTHER_METHOD, body=b"")
        return not_allowed_problem(response, f"{OTHER_METHOD} {path}")

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

    def json_answer(self) -> str:
        with self.connect() as connection:
            return "; ".join(json_problems(connection.get(JSON_PATH), self.server_header))

    def waits(self, path: str, delay_ms: int) -> str:
        """TIMED_REQUESTS GETs in a row on one connection: each the hello world, none
        sooner than delay_ms, the soonest within WAIT_SLACK_MS of it."""
        elapsed_ms = []
        with self.connect(self.wait_timeout(delay_ms)) as connection:
            for _ in range(TIMED_REQUESTS):
                started = time.monotonic()
                response = connection.get(path)
                elapsed_ms.append((time.monotonic() - started) * 1000)
                problems = hello_problems(response, self.server_header)
                if problems:
                    return f"GET {path}: {'; '.join(problems)}"
        return wait_problem(elapsed_ms, delay_ms, f"GET {path}")

    def waited_on(self, path: str, delay_ms: int) -> str:
        """The kind of thread the server says ran the wait, against the one asked for."""
        with self.connect(self.wait_timeout(delay_ms)) as connection:
            said = connection.get(path).header(THREAD_HEADER)
        return thread_kind_problem(said, self.blocking_thread, f"GET {path}")

    def refuses_bad_ms(self, endpoint: str) -> str:
        """Each of BAD_MS_VALUES on its own connection: 400 at once."""
        return "; ".join(problem for value in BAD_MS_VALUES
                         if (problem := self.refuses(bad_ms_path(endpoint, value))))

    def refuses(self, path: str) -> str:
        try:
            with self.connect() as connection:
                started = time.monotonic()
                status = connection.get(path).status
                elapsed_ms = (time.monotonic() - started) * 1000
        except TimeoutError:
            return f"no answer within {self.timeout:g} s to GET {path}, expected 400 at once"
        return refusal_problem(status, elapsed_ms, f"GET {path}")


def thread_kind_problem(said: str | None, expected: str, request: str) -> str:
    """What a /blocking answer's THREAD_HEADER says against the kind of thread EXECUTOR
    asks for ("" when they agree)."""
    if said is None:
        return f"{request}: no {THREAD_HEADER} header, expected {expected!r}"
    if said.strip() != expected:
        return (f"{request}: waited on a {said.strip()} thread ({THREAD_HEADER}), expected "
                f"a {expected} one")
    return ""


def bad_ms_path(endpoint: str, value: str | None) -> str:
    """/delay for a missing ms, else /delay?ms=value."""
    return endpoint if value is None else f"{endpoint}?{WAIT_PARAMETER}={value}"


Step = tuple[str, Callable[[], str]]


def _common_steps(checker: _Checker) -> list[Step]:
    return [
        *((f"GET {path}", lambda path=path: checker.hello(path)) for path in HELLO_PATHS),
        ("404 on unknown path", checker.not_found),
        ("HEAD / without a body", checker.head),
        (f"405 on {OTHER_METHOD} /", checker.other_method),
        *_connection_steps(checker),
        ("Date refreshed", checker.date_refresh),
    ]


def _connection_steps(checker: _Checker) -> list[Step]:
    """How one connection carries requests: in HTTP/1.1, HTTP/1.0's close, keep-alive and
    pipelining; in HTTP/2, many requests and concurrent streams. (HTTP/1.0's close has no
    HTTP/2 form; a stream the client resets is no check either: Tomcat's documented
    overhead protection may answer it by closing the connection, ENHANCE_YOUR_CALM.)"""
    many = (f"{KEEP_ALIVE_REQUESTS} requests on one connection", checker.keep_alive)
    if checker.http2:
        return [many,
                (f"{PIPELINED_REQUESTS} concurrent streams on one connection answered each "
                 f"its own", checker.concurrent_streams)]
    return [("HTTP/1.0 answered and closed", checker.http10_close), many,
            (f"{PIPELINED_REQUESTS} pipelined requests in order", checker.pipelining)]


def _workload_steps(checker: _Checker, workload: Workload) -> list[Step]:
    """A workload's own checks: its path answered right, HEAD and 405 as for /; for a
    waiting one, its timing and the refusal of a bad ms."""
    path = request_path(workload, HELLO_PATHS[0])
    if not workload.waits:
        return [(f"GET {path}", checker.json_answer), *_method_steps(checker, path, None)]
    delay_ms, endpoint = workload.delay_ms or 0, path.partition("?")[0]
    thread = checker.blocking_thread if workload.name == BLOCKING else ""
    return [(f"GET {path} answered after {delay_ms} to {delay_ms + WAIT_SLACK_MS} ms",
             lambda: checker.waits(path, delay_ms)),
            *_method_steps(checker, path, checker.wait_timeout(delay_ms)),
            (f"400 at once for a bad {WAIT_PARAMETER} on {endpoint}",
             lambda: checker.refuses_bad_ms(endpoint)),
            *([(f"GET {path} waited on a {thread} thread",
                lambda: checker.waited_on(path, delay_ms))] if thread else [])]


def _method_steps(checker: _Checker, path: str, timeout: float | None) -> list[Step]:
    return [(f"HEAD {path} without a body", lambda: checker.head(path, timeout)),
            (f"405 on {OTHER_METHOD} {path}", lambda: checker.not_allowed(path))]


def checks_wait_s(workloads: Iterable[Workload]) -> float:
    """The most the workloads' checks wait by design: for each waiting one, its timed GETs
    and its HEAD, each up to N + WAIT_SLACK_MS ms (a remote run's time limit adds it)."""
    return sum((TIMED_REQUESTS + 1) * (workload.delay_ms + WAIT_SLACK_MS) / 1000
               for workload in dict.fromkeys(workloads) if workload.waits and workload.delay_ms)


def verify_server(port: int, server_header: str, host: str = LOOPBACK,
                  timeout: float = 5.0, workloads: Iterable[Workload] = (),
                  blocking_thread: str = "", protocol: str = H1,
                  tls: RunTls | None = None) -> Verification:
    """Runs the common checks against a server on host:port, then, when they all passed,
    each workload's own (verify_workloads), in the protocol given (tls: the run's files,
    for h1-tls and h2). Never raises for a bad server."""
    checker = _Checker(host, port, server_header, timeout, protocol=protocol, tls=tls)
    common = tuple(_run_check(name, step) for name, step in _common_steps(checker))
    if not all(check.passed for check in common):
        return Verification(common)  # not loaded at all: its workloads need no checking
    return Verification(common + verify_workloads(port, server_header, workloads, host, timeout,
                                                  blocking_thread, protocol, tls))


def verify_workloads(port: int, server_header: str, workloads: Iterable[Workload],
                     host: str = LOOPBACK, timeout: float = 5.0,
                     blocking_thread: str = "", protocol: str = H1,
                     tls: RunTls | None = None) -> tuple[CheckResult, ...]:
    """Each workload's own checks, marked with its key (plaintext has none beyond the
    common ones; db and queries are checked against the database itself, by
    checking/database.py once it runs); blocking's thread kind when blocking_thread is
    given (platform or virtual). Never raises for a bad server."""
    checker = _Checker(host, port, server_header, timeout, blocking_thread, protocol, tls)
    return tuple(_run_check(name, step, workload.key) for workload in dict.fromkeys(workloads)
                 if not (workload.is_plaintext or workload.uses_database)
                 for name, step in _workload_steps(checker, workload))


def _run_check(name: str, step: Callable[[], str], workload: str | None = None) -> CheckResult:
    try:
        problem = step()
    except (OSError, WireError) as error:
        problem = f"{type(error).__name__}: {error}"
    return CheckResult(name, not problem, problem, workload)


def startup_problems(startup: StartupInfo | None, manifest: ServerManifest,
                     cpus: int | None = None) -> str:
    """What the ready line says against the manifest. With cpus None, a per-CPU setting
    is only checked for being in effect, since a container may see other CPUs than we do."""
    if startup is None:
        return "no httplab-ready line in the server's output"
    problems = []
    if startup.version != manifest.version:
        problems.append(f"version {startup.version}, manifest says {manifest.version}")
    problems.append(transport_problem(startup, manifest))
    if isinstance(manifest.workers, int) or cpus is not None:
        expected = manifest.expected_workers(cpus)
        if startup.workers != expected:
            problems.append(f"workers {startup.workers}, expected {expected}")
    if startup.observed_workers != startup.workers:
        problems.append(f"observed {startup.observed_workers} workers running, "
                        f"configured {startup.workers}")
    problems.append(blocking_pool_problem(startup, manifest, cpus))
    problems.append(db_pool_problem(startup, manifest))
    problems.append(runtime_problem(startup, manifest))
    problems.append(executor_problem(startup, manifest))
    problems.append(protocol_said_problem(startup, manifest))
    return "; ".join(problem for problem in problems if problem)


def runtime_problem(startup: StartupInfo, manifest: ServerManifest) -> str:
    """The JDK the server says it runs on against the one the run asked for (JDK=); the
    reference is no JVM."""
    if manifest.is_reference:
        return ""
    runtime = startup.runtime
    if runtime is None:
        return f"no java= in the ready line, expected JDK {manifest.jdk}"
    if runtime.feature != manifest.jdk:
        return (f"runs on JDK {runtime.version} ({runtime.vendor}), but the run asked for "
                f"JDK {manifest.jdk}")
    return ""


def transport_problem(startup: StartupInfo, manifest: ServerManifest) -> str:
    """The I/O engine the server says it runs on against the one asked (TRANSPORT), or its
    own when none was: a framework that fell back to another engine fails here."""
    if startup.transport == manifest.transport:
        return ""
    asked = (f"the run asked for TRANSPORT={manifest.asked_transport}"
             if manifest.asked_transport else f"its manifest's own is {manifest.transport}")
    return f"transport={startup.transport} in the ready line, but {asked}"


def executor_problem(startup: StartupInfo, manifest: ServerManifest) -> str:
    """Where the server says it runs blocking work against EXECUTOR; the reference has none."""
    if manifest.is_reference or startup.executor == manifest.executor:
        return ""
    said = f"executor={startup.executor}" if startup.executor else "no executor="
    return f"{said} in the ready line, but the run asked for EXECUTOR={manifest.executor}"


TLS_ENGINES = ("jdk", "openssl")  # what a server over TLS may say it runs (StartupLine)


def protocol_said_problem(startup: StartupInfo, manifest: ServerManifest) -> str:
    """The protocol the server says it serves against PROTOCOL, and a TLS engine named
    exactly when the protocol has TLS (the wire check before load proves the rest)."""
    if startup.protocol != manifest.protocol:
        said = f"protocol={startup.protocol}" if startup.protocol else "no protocol="
        return f"{said} in the ready line, but the run asked for PROTOCOL={manifest.protocol}"
    expected = TLS_ENGINES if manifest.protocol in TLS_PROTOCOLS else (NO_TLS,)
    if startup.tls not in expected:
        return (f"tls={startup.tls} in the ready line, expected "
                f"{' or '.join(expected)} for PROTOCOL={manifest.protocol}")
    return ""


def blocking_pool_problem(startup: StartupInfo, manifest: ServerManifest,
                          cpus: int | None) -> str:
    """The ready line's blocking_pool against the manifest's, where its size is known
    (see ServerManifest.blocking_pool_size); the reference's is 0 or absent."""
    said = startup.blocking_pool
    if manifest.is_reference:
        return "" if not said else f"blocking_pool {said}, expected 0: a reference has no /blocking"
    expected = manifest.blocking_pool_size(cpus)
    if expected is None or said == expected:
        return ""
    if said is None:
        return f"no blocking_pool in the ready line, expected {expected}"
    return f"blocking_pool {said}, expected {expected}"


def db_pool_problem(startup: StartupInfo, manifest: ServerManifest) -> str:
    """The ready line's db_pool against the manifest's; the reference's is 0 or absent."""
    said = startup.db_pool
    if manifest.is_reference or manifest.db_pool is None:
        return "" if not said else f"db_pool {said}, expected 0: a reference has no /db"
    if said is None:
        return f"no db_pool in the ready line, expected {manifest.db_pool}"
    return "" if said == manifest.db_pool else f"db_pool {said}, expected {manifest.db_pool}"


def verify_started(startup: StartupInfo | None, manifest: ServerManifest, port: int,
                   cpus: int | None = None, workloads: Iterable[Workload] = (),
                   tls: RunTls | None = None) -> Verification:
    """The whole check of a started server: its ready line, the protocol it speaks on the
    wire (beyond h1), then its answers, the common ones and each workload's, in that
    protocol (tls: the run's files over TLS). A server that speaks another protocol than
    asked is not asked the rest."""
    wire = wire_check(port, manifest.protocol, tls)
    if wire is not None and not wire.passed:
        return with_ready_line(Verification((wire,)), startup, manifest, cpus)
    answers = verify_server(port, manifest.server_header, workloads=workloads,
                            blocking_thread=manifest.blocking_thread,
                            protocol=manifest.protocol, tls=tls)
    checks = answers.checks if wire is None else (wire, *answers.checks)
    return with_ready_line(Verification(checks), startup, manifest, cpus)


def wire_check(port: int, protocol: str, tls: RunTls | None,
               host: str = LOOPBACK) -> CheckResult | None:
    """Proof that the server speaks the protocol asked (checking/protocol_wire.py) with the
    run's certificate; None for h1, which every other check speaks already."""
    if protocol == H1:
        return None
    from httplab.checking.protocol_wire import protocol_problem  # HTTP/2's library

    return _run_check(f"{protocol} on the wire",
                      lambda: protocol_problem(host, port, protocol, tls, WIRE_TIMEOUT_S))


def with_ready_line(answers: Verification, startup: StartupInfo | None,
                    manifest: ServerManifest, cpus: int | None = None) -> Verification:
    """The ready line's check, then the answers' checks, wherever they ran (verify_server
    here, or on a load generator host)."""
    line_check = _run_check("ready line", lambda: startup_problems(startup, manifest, cpus))
    return Verification((line_check, *answers.checks))
