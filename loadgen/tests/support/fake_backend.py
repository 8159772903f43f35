"""A fake backend for the runner's tests: it serves a fake hello-world server and 'runs'
wrk, h2load and oha by copying captured reports; a fake database beside it. No wrk, no
oha, no JVM."""

from __future__ import annotations

import io
import shutil
from contextlib import contextmanager
from dataclasses import replace

from httplab.axes import H1, TLS_PROTOCOLS
from httplab.checking.conformance import verify_server, with_ready_line
from httplab.checking.ready_line import parse_startup_line
from httplab.run_layout import parse_step_name
from httplab.running.backends.base import BackendError, StartedServer, WrkOutcome
from httplab.running.database.base import DatabaseError, StartedDatabase
from httplab.model import DatabaseRecord
from httplab.running.resources.probes import UnavailableProbe
from httplab.running.progress import Progress
from httplab.running.run_context import RunContext
from httplab.running.runner import Runner
from httplab.running.wrk_cells import WrkCells

from tests.conftest import FIXTURES
from tests.fake_server import FakeServer, hello_answer

WRK = FIXTURES / "wrk"
H2LOAD = FIXTURES / "h2load"
READY = ("httplab-ready framework=X version=1 transport=epoll workers={w} observed_workers={w} "
         "bind=127.0.0.1:{port}")
POOLS = " blocking_pool=30 db_pool=10"  # a framework's (MANIFEST's) pools; none for a reference


def wire_said(protocol: str = "h1", tls: str = "none") -> str:
    """What a server's ready line says it serves: the protocol and its TLS engine."""
    return f" protocol={protocol} tls={tls}"


def runtime_said(jdk: str, executor: str = "pool", wire: str = wire_said()) -> str:
    """The end of a JVM server's ready line: where it runs blocking work, what it serves,
    and the runtime it says it runs on."""
    return f" executor={executor}{wire} java={jdk}.0.1 gc=G1 heap_max_mb=1024 vendor=Fake Vendor"


class FakeBackend:
    """Serves a fake hello-world server and 'runs' wrk by copying a captured report."""

    name = "fake"
    target_address = "127.0.0.1"
    server_engine = None
    load_generators = ()
    server_port = 0  # where its fake server listens: any free port

    def __init__(self, fail_start: bool = False, wrk_exit: int = 0, report: str = "nginx-hello",
                 dies_after_wrk_calls: int | None = None, h2load: str = "nginx-c50",
                 said_jdk: str | None = None):
        self.fail_start, self.wrk_exit, self.report = fail_start, wrk_exit, report
        # The JDK its servers say they run on: the one each variant asks for, unless given.
        self.said_jdk, self.started = said_jdk, []
        self.dies_after_wrk_calls = dies_after_wrk_calls
        self.wrk_calls: list[tuple[int, str]] = []
        self.h2load, self.h2load_calls = h2load, []
        self.h2load_run = "nginx-h2c-m2"  # the measured h2load run it copies (HTTP/2)
        self.urls: set[str] = set()

    @contextmanager
    def serve(self, manifest, cpus=None, log_path=None, environment=None):
        self.environments = getattr(self, "environments", []) + [environment]
        self.started.append(manifest.key)
        with log_path.open("a") as log:
            log.write("fake server starting\n")
        if self.fail_start:
            raise BackendError("container never became healthy")
        with FakeServer(lambda path: hello_answer(path, server="X"),
                        port=self.server_port) as server:
            port_manifest = replace(manifest, port=server.port)
            wire = wire_said(manifest.protocol,
                             "jdk" if manifest.protocol in TLS_PROTOCOLS else "none")
            line = READY.format(w=manifest.expected_workers(), port=server.port) + \
                (wire if manifest.is_reference
                 else POOLS + runtime_said(self.said_jdk or manifest.jdk, manifest.executor,
                                           wire))
            yield StartedServer(port_manifest, parse_startup_line(line), 0.5, pid=None,
                                log_path=log_path)

    def use_tls(self, tls):
        self.tls = tls

    def verify(self, started, workloads=()):
        """Its fake server answers HTTP/1.1 alone, whatever protocol the cell asks (the
        checks over each protocol have stand-ins of their own): checked over h1."""
        manifest = started.manifest
        answers = verify_server(manifest.port, manifest.server_header, protocol=H1)
        return with_ready_line(answers, started.startup, manifest)

    def exit_status(self, started):
        dies = self.dies_after_wrk_calls
        return "the server exited with code 137" if dies is not None and len(self.wrk_calls) >= dies else None

    def resource_probe(self, started):
        return UnavailableProbe("no process to sample")

    def profiler_control(self, started):
        """No JVM to attach to: a virtual-thread server's runs go without JFR's recording."""
        raise BackendError(f"{started.manifest.key} has no JVM to attach to (a fake)")

    def run_wrk(self, request, text_path, json_path, cpus=None):
        self.wrk_calls.append((request.threads, text_path.parent.name))
        self.urls.add(request.url)
        shutil.copy(WRK / f"{self.report}.txt", text_path)
        shutil.copy(WRK / f"{self.report}.json", json_path)
        return WrkOutcome(self.wrk_exit, "boom" if self.wrk_exit else "")

    def run_h2load(self, request, stem, port, cpus=None):
        """'Runs' h2load by copying a captured run's two files beside the wrk run's."""
        self.h2load_calls.append((request.threads, request.connections, request.duration_s,
                                  stem.name, port))
        for suffix in (".h2load.txt", ".sockets.txt"):
            shutil.copy(H2LOAD / f"{self.h2load}{suffix}", stem.with_name(stem.name + suffix))
        return WrkOutcome(0 if self.h2load != "hung-c50" else -1, "")


    def run_h2load_bench(self, request, summary_path, cpus=None):
        """'Runs' h2load as make bench's tool by copying a captured measured run (its summary
        and, when asked, its log) to where the runner wants them."""
        self.h2load_runs = getattr(self, "h2load_runs", []) + [
            (request.threads, request.streams, request.url, summary_path.parent.name,
             request.log_file is not None)]
        self.urls.add(request.url)
        shutil.copy(H2LOAD / "measured" / f"{self.h2load_run}.h2load-run.txt", summary_path)
        if request.log_file is not None:
            shutil.copy(H2LOAD / "measured" / f"{self.h2load_run}.h2load-requests.tsv",
                        request.log_file)
        return WrkOutcome(0, "")


class FakeDatabase:
    """A database that 'starts' and stops, answers nothing, and may stop after wrk runs."""

    where = "fake"

    def __init__(self, backend, fail_start: str | None = None, dies_after_wrk_calls=None):
        self.backend, self.fail_start = backend, fail_start
        self.dies_after_wrk_calls = dies_after_wrk_calls
        self.events: list[str] = []

    @contextmanager
    def serve(self, log_path):
        self.events.append(f"start {log_path.name}")
        if self.fail_start:
            raise DatabaseError(self.fail_start)
        try:
            yield StartedDatabase("127.0.0.1", 15432, DatabaseRecord("fake", "PostgreSQL 15.18"),
                                  log_path=log_path)
        finally:
            self.events.append("stop")

    def check_available(self):
        pass

    def prepare(self):
        pass

    def query(self, started, sql):
        return []

    def exit_status(self, started):
        dies = self.dies_after_wrk_calls
        calls = len(self.backend.wrk_calls)
        return "exited with code 1" if dies is not None and calls >= dies else None

    def resource_probe(self, started):
        return UnavailableProbe("no database process to sample")


OHA = FIXTURES / "oha"


class FakeOhaBackend(FakeBackend):
    """'Runs' oha by copying a capture that held (netty-5000) below the server's capacity
    and one whose p99 broke the target (freezing-500) above it."""

    def __init__(self, capacity: dict[str, float], **options):
        super().__init__(**options)
        self.capacity, self.oha_calls, self.durations = capacity, [], []

    def check_oha(self, *arguments):
        pass

    check_available = check_engines = prepare = check_h2load = check_oha

    def open_file_limit(self):
        return None

    def engine_records(self):
        return ()

    def versions(self):
        return {"oha": "oha 1.16.0"}

    def resource_probe(self, started):
        return UnavailableProbe("no process to sample")

    def run_oha(self, request, json_path, cpus=None):
        server = parse_step_name(json_path.name).server
        self.oha_calls.append((server, request.rate_per_s, json_path.parent.name))
        self.durations.append((json_path.parent.name, json_path.name, request.duration_s))
        held = request.rate_per_s <= self.capacity[server]
        shutil.copy(OHA / ("netty-5000.json" if held else "freezing-500.json"), json_path)
        return WrkOutcome(0, "")


def bench_runner(backend, plan, raw_dir, progress, on_server_done) -> Runner:
    """make bench's runner (wrk cells) on the fake backend."""
    context = RunContext(backend, plan, raw_dir, progress)
    return Runner(context, WrkCells(context), on_server_done)


def bench_run(backend, plan, raw_dir):
    """make bench's runner over a plan on the fake backend: its outcomes and what progress
    printed."""
    output = io.StringIO()
    outcomes = bench_runner(backend, plan, raw_dir, Progress(plan, output),
                            lambda outcome: None).run()
    return outcomes, output.getvalue()
