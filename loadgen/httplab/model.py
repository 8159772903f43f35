"""The immutable results model. No I/O here: readers build it, exporters read it."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Iterable

from httplab.axes import SETTINGS

WAITING_WORKLOADS = ("delay", "blocking")
DATABASE_WORKLOADS = ("db", "queries")


@dataclass(frozen=True)
class Workload:
    """What each request asks of the server: plaintext (the hello world of the original
    protocol), json (a serialized object), delay (an answer after delay_ms without a thread
    held), blocking (a thread of the blocking pool held for delay_ms), db (one random row
    of a PostgreSQL table) or queries (`queries` random rows, one statement each)."""

    name: str = "plaintext"
    delay_ms: int | None = None  # delay and blocking only
    queries: int | None = None  # queries only: the rows (and statements) per request

    @property
    def waits(self) -> bool:
        """The handler waits delay_ms per request: Little's law bounds the rate."""
        return self.name in WAITING_WORKLOADS

    @property
    def uses_database(self) -> bool:
        """Each request reads the database: one is started for the server."""
        return self.name in DATABASE_WORKLOADS

    @property
    def key(self) -> str:
        """How names and tables say it: plaintext, json, delay-10ms, blocking-10ms, db,
        queries-20."""
        if self.waits:
            return f"{self.name}-{self.delay_ms}ms"
        return f"{self.name}-{self.queries}" if self.queries is not None else self.name

    @property
    def label(self) -> str:
        if self.waits:
            return f"{self.name} {self.delay_ms} ms"
        return f"{self.name} n={self.queries}" if self.queries is not None else self.name

    @property
    def is_plaintext(self) -> bool:
        return self.name == "plaintext"


PLAINTEXT = Workload()


@dataclass(frozen=True)
class Latency:
    """Latency of one wrk run, in microseconds. Unknown values are None."""

    mean_us: float | None
    stdev_us: float | None
    max_us: float | None
    min_us: float | None = None
    # (percentile, value in µs) pairs, ascending by percentile.
    percentiles_us: tuple[tuple[float, float], ...] = ()

    def percentile(self, p: float) -> float | None:
        for known, value in self.percentiles_us:
            if known == p:
                return value
        return None


@dataclass(frozen=True)
class LatencyHistogram:
    """wrk's latency histogram of a run, or of several generators' runs summed: (value in
    µs, count) pairs ascending by value (its percentiles, mean and stdev as wrk computes
    them: loadtools/wrk/stats.py). Exact: every distinct value as wrk counted it
    (with its coordinated-omission correction). Otherwise a quantile grid, whose
    percentiles may be off by up to rank_error_pct percentile points."""

    buckets: tuple[tuple[int, int], ...]
    exact: bool = True
    rank_error_pct: float = 0.0

    @property
    def total(self) -> int:
        return sum(count for _, count in self.buckets)

    @property
    def min(self) -> int | None:
        return self.buckets[0][0] if self.buckets else None

    @property
    def max(self) -> int | None:
        return self.buckets[-1][0] if self.buckets else None

    @classmethod
    def merged(cls, histograms: Iterable[LatencyHistogram]) -> LatencyHistogram:
        """The counts summed per value: exact only if every part is; a grid's rank error
        bounds the merged one's too (each part's CDF is off by at most its own)."""
        histograms = tuple(histograms)
        counts: dict[int, int] = {}
        for histogram in histograms:
            for value, count in histogram.buckets:
                counts[value] = counts.get(value, 0) + count
        return cls(tuple(sorted(counts.items())), all(h.exact for h in histograms),
                   max((h.rank_error_pct for h in histograms), default=0.0))


@dataclass(frozen=True)
class ThreadRequestRate:
    """wrk's "Req/Sec" row: the request rate of one thread, sampled during the run.

    Its spread across samples hints at unfair scheduling. Unknown values are None.
    """

    mean: float | None
    stdev: float | None
    max: float | None
    min: float | None = None


@dataclass(frozen=True)
class SocketErrors:
    connect: int = 0
    read: int = 0
    write: int = 0
    timeout: int = 0

    @property
    def total(self) -> int:
        return self.connect + self.read + self.write + self.timeout


@dataclass(frozen=True)
class WrkRun:
    """One wrk run as measured: from the done() JSON (exact) or the printed report (rounded)."""

    duration_s: float
    requests: int
    bytes_read: int
    requests_per_sec: float
    transfer_per_sec: float  # bytes per second
    latency: Latency
    errors: SocketErrors = field(default_factory=SocketErrors)
    non_2xx_3xx: int = 0
    threads: int | None = None
    connections: int | None = None
    url: str | None = None
    thread_requests_per_sec: ThreadRequestRate | None = None
    # wrk's whole latency histogram (from done.lua's JSON; results.json does not keep it),
    # and what results.json keeps of it: exact or a quantile grid, and its sample count.
    latency_histogram: LatencyHistogram | None = None
    latency_histogram_exact: bool | None = None
    latency_samples: int | None = None
    ended_at_s: float | None = None  # Unix time when wrk finished (done() ran)
    # A run spread over several load generators: each one's own run (in the order of their
    # index), of which this one is the merge, and how far apart they started.
    generators: tuple[WrkRun, ...] = ()
    engine: str | None = None  # on a generator's own run: where it ran
    start_skew_s: float | None = None  # latest start - earliest start
    notes: tuple[str, ...] = ()  # what a reader must know about these figures
    # The load tool that measured it (None: wrk, as every run before h2load measured any),
    # the application protocol it said it spoke (h2load's "Application protocol:"; None
    # where the tool says none, as wrk), and its streams per connection (h2load's -m).
    tool: str | None = None
    protocol: str | None = None
    streams: int | None = None

    @property
    def started_at_s(self) -> float | None:
        return None if self.ended_at_s is None else self.ended_at_s - self.duration_s

    @property
    def successful_requests_per_sec(self) -> float:
        """Requests/sec counting only 2xx/3xx answers (scaled from wrk's own rate, so it
        equals Requests/sec exactly when every answer succeeded)."""
        if self.requests <= 0:
            return 0.0
        return self.requests_per_sec * max(self.requests - self.non_2xx_3xx, 0) / self.requests


# A load tool's CPU estimated as the host's busy cores less the server's (its own unseen).
LOADGEN_HOST_LESS_SERVER = "host less server"


@dataclass(frozen=True)
class ResourceUsage:
    """A server's CPU and memory while wrk measured it. Unknown values are None, and
    `unavailable` says why when nothing could be sampled."""

    cpu_cores: float | None = None  # CPU seconds used per second of wall time
    memory_peak_bytes: int | None = None
    memory_mean_bytes: int | None = None
    samples: int = 0
    source: str | None = None  # e.g. "cgroup v2", "cgroup v1", "/proc"
    unavailable: str | None = None
    cpu_seconds: float | None = None  # the server's CPU time over the sampled window
    context_switches: int | None = None  # voluntary + involuntary, all its threads, same window
    threads_max: int | None = None  # the most threads it had while sampled
    # Beside the server, over the wrk run: the load generator's CPU and the whole host's.
    loadgen_cores: float | None = None
    loadgen_source: str | None = None  # "wrk process", or LOADGEN_HOST_LESS_SERVER
    host_busy_cores: float | None = None
    # The most live threads of the server's blocking pool (by their name prefix) while
    # sampled: pools that start threads on demand show here how many they started.
    pool_threads_max: int | None = None
    # The database's own (db and queries workloads), sampled over the same window: its
    # container's cgroup, or its processes locally; None without a database.
    database: DatabaseUsage | None = None
    # Of context_switches, the involuntary: the kernel took a thread's CPU away (the rest,
    # voluntary, are waits: for I/O, a lock, a queue). None: not counted (older runs).
    involuntary_switches: int | None = None


@dataclass(frozen=True)
class DatabaseUsage:
    """The database's CPU, memory and context switches while wrk measured the server.
    Unknown values are None, and `unavailable` says why when nothing could be sampled."""

    cpu_cores: float | None = None
    cpu_seconds: float | None = None
    memory_peak_bytes: int | None = None
    context_switches: int | None = None
    samples: int = 0
    source: str | None = None  # "cgroup v2", "/proc (process tree)"...
    unavailable: str | None = None


@dataclass(frozen=True)
class HostStalls:
    """How late the stall meter (a process beside the run, never the server's) woke while a
    run was measured: the host's own stalls, which froze the server and the load tool too.
    Read from raw/<stem>.stalls.json, pooled with each load generator engine's
    raw/<stem>.stalls.<N>.json; `unavailable` says why there are no figures. A meter of
    each CPU leaves each CPU's own record in `cpus` (the figures above pool them); a record
    made before that has none."""

    interval_us: int = 0  # the meter's sleep
    threshold_us: int = 0  # a wake-up this late or later counts as a stall
    samples: int = 0  # wake-ups
    p99_us: float | None = None  # lateness, from the histogram (its bucket's top)
    p999_us: float | None = None
    max_us: float | None = None  # exact
    stalled_s: float | None = None  # the sum of the stalls' lateness
    covered_s: float | None = None  # how long the meter ran
    meter_cpu_s: float | None = None  # the meter's own CPU time while it measured
    place: str = "host"  # where it ran: the host, load generators' engines, each one pooled
    unavailable: str | None = None
    # How it was scheduled: "SCHED_FIFO 1" (above every ordinary process: late only when the
    # host itself stalls), or "normal (why)": then its lateness also counts the wait for CPUs
    # the measured run kept busy, so it says nothing of the host's own stalls.
    priority: str = ""
    cpu: int | None = None  # the CPU one record metered; None: pooled, or one unpinned meter
    role: str = ""  # what ran on that CPU: "server", "load tool", "server and load tool"
    steal_s: float | None = None  # the CPU's steal time over the run (/proc/stat); pooled: summed
    cpus: tuple[HostStalls, ...] = ()  # each CPU's record, where each CPU had a meter

    @property
    def real_time(self) -> bool:
        return self.priority.startswith("SCHED_FIFO")

    @property
    def stalled_share(self) -> float | None:
        """The share of the run the host was stalled."""
        if self.stalled_s is None or not self.covered_s:
            return None
        return self.stalled_s / self.covered_s

    @property
    def meter_cores(self) -> float | None:
        """What the meter itself cost, in cores."""
        if self.meter_cpu_s is None or not self.covered_s:
            return None
        return self.meter_cpu_s / self.covered_s


@dataclass(frozen=True)
class FairnessRun:
    """One h2load run at a cell's connections (HTTP/1.1: one client per connection, one
    request in flight each), after the cell's measured wrk run, to see how evenly the
    server shares itself among connections. Unknown values are None."""

    connections: int
    duration_s: float  # h2load's measured time ("finished in")
    requests_per_sec: float
    succeeded: int
    failed: int  # h2load's failed requests (errored and timed-out ones are among them)
    # h2load's own per-client req/s summary (min, max, mean, sd), as it printed it.
    client_rps_min: float | None = None
    client_rps_max: float | None = None
    client_rps_mean: float | None = None
    client_rps_sd: float | None = None
    # Each connection's request bytes acknowledged by the server between two readings of
    # the sockets during the run (from sockets_from_s to sockets_to_s after h2load
    # started), ascending: proportional to its completed requests, as every request is
    # the same bytes. A connection never seen established counts as 0; one the server
    # closed in between (reopened_connections) is left out, its share unknown.
    connection_bytes: tuple[int, ...] = ()
    sockets_from_s: float | None = None
    sockets_to_s: float | None = None
    reopened_connections: int = 0
    tool: str | None = None  # e.g. "h2load nghttp2/1.52.0"


# What async-profiler sampled (PROFILE_EVENT): CPU time through the kernel's software clock
# (perf events, kernel frames seen) or through setitimer (no kernel frames), wall-clock
# time of every thread, or allocations. Only the CPU events' samples add up to CPU time.
CPU_PROFILE_EVENTS = ("cpu", "itimer")
PROFILE_EVENTS = CPU_PROFILE_EVENTS + ("wall", "alloc")


@dataclass(frozen=True)
class HotFrame:
    """A frame that was at the top of the stack (self samples), as async-profiler names it:
    io/netty/channel/ChannelOutboundBuffer.remove, or a native or kernel symbol."""

    frame: str
    layer: str  # the layer its samples count in (results/profile_layers.py)
    samples: int


@dataclass(frozen=True)
class RunProfile:
    """async-profiler's profile of one measured run (PROFILE=1): its samples by layer, its
    hottest frames, and whether the samples add up to the CPU the server was measured to use."""

    event: str  # one of PROFILE_EVENTS, as actually sampled
    interval: int | None  # per sample: ns of CPU (cpu, itimer) or of wall time; bytes (alloc)
    samples: int = 0
    layers: tuple[tuple[str, int], ...] = ()  # (layer, self samples), in the layers' order
    hot_frames: tuple[HotFrame, ...] = ()  # the hottest by self samples, most first
    measured_cpu_seconds: float | None = None  # the server's over the same run (its sampler)
    # The consistency check's finding when samples x interval and the measured CPU differ by
    # more than the tolerance (lost samples, a wrong interval); None when they agree or when
    # the event is not a CPU one.
    mismatch: str | None = None
    collapsed_file: str | None = None  # relative to the run: raw/<stem>.collapsed.txt
    flame_graph_file: str | None = None  # raw/<stem>.flame.html
    failure: str | None = None  # why this run has no profile, when the profiler failed

    @property
    def profiled_cpu_seconds(self) -> float | None:
        """samples x interval: the CPU time the samples stand for (CPU events only)."""
        if self.event not in CPU_PROFILE_EVENTS or self.interval is None:
            return None
        return self.samples * self.interval / 1e9


@dataclass(frozen=True)
class PinnedFrame:
    """Where pinned virtual threads were: the first frame of a pinned event's stack outside
    the JDK (java.*, jdk.*, sun.*), as Class.method with its package, and its events."""

    frame: str  # com.zaxxer.hikari.pool.HikariPool.getConnection
    events: int


@dataclass(frozen=True)
class PinnedRun:
    """Virtual threads pinned to their carrier during one measured run of a variant whose
    blocking work runs on virtual threads (EXECUTOR=virtual): the JVM's own flight
    recorder's jdk.VirtualThreadPinned events, every one however short, recorded over the
    measured run only. The figures are None when it could not be recorded or read."""

    events: int | None = None
    total_ms: float | None = None  # pinned time, summed over the events
    longest_ms: float | None = None
    top_frames: tuple[PinnedFrame, ...] = ()  # the most events first (at most three)
    failure: str | None = None  # why this run has no figures


class CellStatus(str, Enum):
    OK = "ok"
    FAILED = "failed"
    NOT_APPLICABLE = "not applicable"  # a variant the framework cannot run (its reason)


@dataclass(frozen=True)
class Cell:
    """One server at one load setting: its measured runs, or why there are none."""

    server: str
    threads: int
    connections: int
    status: CellStatus
    runs: tuple[WrkRun, ...] = ()
    reason: str | None = None
    # One per measured run, in the order of runs; empty where nothing was sampled.
    resources: tuple[ResourceUsage, ...] = ()
    rounds: tuple[int, ...] = ()  # the round of each run, in the order of runs
    fairness: tuple[FairnessRun, ...] = ()  # h2load's runs of this cell (FAIRNESS=1)
    workload: Workload = PLAINTEXT
    # PROFILE=1: one per measured run, in the order of runs (None: that run has none).
    profiles: tuple[RunProfile | None, ...] = ()
    # The stall meter's figures, one per measured run in the order of runs (empty: none).
    host_stalls: tuple[HostStalls | None, ...] = ()
    # EXECUTOR=virtual: one per measured run, in the order of runs (None: not recorded).
    pinned: tuple[PinnedRun | None, ...] = ()

    @property
    def round_numbers(self) -> tuple[int, ...]:
        """Each run's round; a file older than rounds numbers them in order."""
        return self.rounds or tuple(range(1, len(self.runs) + 1))


class WarningKind(str, Enum):
    """What a warning says about a cell's figure."""

    NOISY = "noisy"  # its runs disagree: CV above the threshold
    SKEWED = "skewed"  # its load generators started too far apart
    LOADGEN = "loadgen"  # wrk's CPU limited it
    SHARED_CPUS = "shared"  # the CPUs wrk and the server share limited it
    DATABASE = "database"  # the database's CPU limited it: the framework is understated
    PROFILE = "profile"  # its profile's samples do not add up to the CPU measured (PROFILE=1)
    LITTLE = "littles-law"  # its rate, connections and mean latency do not belong together
    OTHER = "other"  # a warning this lab does not make (any more)


@dataclass(frozen=True)
class CellWarning:
    """A warning about one cell. `text` is the sentence as a list of warnings says it; the
    other fields let a reader say once what many cells share: the cause and what to do are
    the same for each cell with this warning, the detail is this cell's own figure (e.g. its
    CV). results.json keeps them all (an older file's are recovered from `text`)."""

    kind: WarningKind
    text: str
    cell: str = ""  # e.g. "Netty t2 c100"
    cause: str = ""
    detail: str = ""
    advice: str = ""


@dataclass(frozen=True)
class Settings:
    """What was asked of the bench: the protocol of this run."""

    servers: tuple[str, ...]
    threads: tuple[int, ...]
    connections: tuple[int, ...]  # one point, or a sweep
    duration_s: float
    backend: str
    url: str = "http://127.0.0.1:8080/"
    repeat: int = 1
    primer_s: float = 0.0
    primer_connections: int = 0
    warmup_s: float = 0.0
    cv_threshold: float = 0.05
    server_cpus: str | None = None
    loadgen_cpus: str | None = None
    worker_settings: tuple[str, ...] = (SETTINGS.default,)
    # Other machines (SERVER_HOST, LOADGEN_HOSTS): None and () mean this machine.
    server_host: str | None = None
    loadgen_hosts: tuple[str, ...] = ()
    target_address: str = "127.0.0.1"
    fairness: bool = False  # h2load after each measured run (FAIRNESS)
    workloads: tuple[Workload, ...] = (PLAINTEXT,)
    # The database of the db and queries workloads, as it ran; None without one.
    database: DatabaseRecord | None = None
    # PROFILE: 0, 1 or both (each framework measured without and with the profiler), and
    # the event asked for (PROFILE_EVENT: cpu means cpu where allowed, itimer where not).
    profile: tuple[bool, ...] = (False,)
    profile_event: str | None = None
    # JDK: the Java releases every framework ran on, in the order asked (empty: an older
    # run, which did not choose one).
    jdks: tuple[str, ...] = ()
    # EXECUTOR: where the frameworks ran blocking work (pool, virtual), in the order asked
    # (empty: each its own way, or an older run).
    executors: tuple[str, ...] = ()
    # TRANSPORT: the I/O engines the frameworks ran on (nio, epoll, io_uring), in the order
    # asked (empty: each on its own, or an older run).
    transports: tuple[str, ...] = ()
    # PROTOCOL: what every server spoke on its port (h1, h1-tls, h2c, h2), in the order
    # asked (empty: an older run, plaintext HTTP/1.1 only); STREAMS, the HTTP/2 requests in
    # flight per connection; KEEPALIVE (make latency): False when every request opened a
    # connection of its own.
    protocols: tuple[str, ...] = ()
    streams: int = 1
    keepalive: bool = True
    # REPEAT=auto: the rule that chose how many rounds ran (`repeat` holds how many did);
    # None: a fixed REPEAT, or an older run.
    auto_repeat: AutoRepeat | None = None
    # REPLICA: ("1", "2") when make calibrate measured each server twice, as two identical
    # variants (an A/A); empty otherwise, older runs too.
    replicas: tuple[str, ...] = ()


@dataclass(frozen=True)
class AutoRepeat:
    """REPEAT=auto: rounds were added after the third while some compared pair's interval
    of `metric` (METRIC's name) was wider than ±precision (a fraction: 0.05 is ±5 %), up to
    max_repeat rounds."""

    precision: float
    max_repeat: int
    metric: str


@dataclass(frozen=True)
class DatabaseRecord:
    """The PostgreSQL the db and queries workloads read, as it described itself: started
    afresh for each server. Unknown values are None."""

    where: str  # "docker" (a container of the `db` service) or "local" (a throwaway cluster)
    version: str | None = None  # SELECT version()
    max_connections: int | None = None
    shared_buffers: str | None = None  # as SHOW prints it, e.g. "128MB"
    image: str | None = None  # docker: the image it ran
    binaries: str | None = None  # local: the directory of initdb, pg_ctl and postgres
    log_file: str | None = None  # relative to the run: raw/database.log


@dataclass(frozen=True)
class HostInfo:
    """The machine that produced the numbers. Unknown values are None."""

    hostname: str | None = None
    cpu_model: str | None = None
    cores: int | None = None
    memory_bytes: int | None = None
    kernel: str | None = None
    os: str | None = None
    docker: str | None = None
    compose: str | None = None
    java: str | None = None
    wrk: str | None = None
    python: str | None = None

    def describe(self) -> str:
        """One line for captions: who produced these numbers."""
        parts = [self.hostname or "unknown host"]
        if self.cpu_model:
            parts.append(self.cpu_model)
        if self.cores:
            parts.append(f"{self.cores} cores")
        if self.memory_bytes:
            parts.append(f"{self.memory_bytes / 2**30:.0f} GiB")
        if self.kernel:
            parts.append(f"Linux {self.kernel}" if self.os == "Linux" else self.kernel)
        return ", ".join(parts)


@dataclass(frozen=True)
class EngineRecord:
    """Another machine's Docker engine that ran part of the bench, as it describes itself,
    with its clock against the harness's and the image ids it ran. Unknown values are None."""

    engine: str  # as the user named it: ssh://user@host, a context, unix:///path
    role: str  # "server" or "load generator"
    docker: str | None = None
    hostname: str | None = None
    cores: int | None = None
    memory_bytes: int | None = None
    kernel: str | None = None
    os: str | None = None
    clock_offset_s: float | None = None
    images: tuple[tuple[str, str], ...] = ()  # (image, id)


# Between the two lines of `java -version` a ServerRecord keeps (its version, then the
# runtime line that names the vendor's build).
JAVA_VERSION_SEPARATOR = "; "


ENGINE_SECCOMP = "default"  # a server record's seccomp when its container ran under the engine's own


# What a server's ready line says of its TLS engine over a protocol without TLS (tls=none,
# servers/common StartupLine.TLS_NONE).
NO_TLS = "none"


@dataclass(frozen=True)
class ServerRecord:
    """A server as run: its manifest, what it said at start-up, and its verification."""

    name: str
    label: str
    framework: str
    version: str
    worker_setting: str
    transport: str
    startup_line: str | None = None
    verification: str | None = None
    image_size_bytes: int | None = None
    java_version: str | None = None  # `java -version`'s two lines, JAVA_VERSION_SEPARATOR between
    startup_seconds: float | None = None  # start until the first correct answer
    image_id: str | None = None
    log_file: str | None = None  # its whole output, relative to the run directory
    role: str = "framework"  # or "reference": the ceiling the frameworks are measured against
    setting: str = SETTINGS.default  # its worker setting: the write-up's, or the framework's default
    # The most threads of the pool /blocking runs on, as configured (None: no such pool,
    # as for the reference), and what those threads are.
    blocking_pool: int | None = None
    blocking_pool_kind: str = ""
    # The database connection pool of /db and /queries as the server configured it (None:
    # no such pool, as for the reference), and the driver behind it.
    db_pool: int | None = None
    db_driver: str = ""
    # PROFILE: whether async-profiler ran in it during its measured runs, and the Java
    # packages of the framework's own code (how its profile's layers are told apart).
    profiled: bool = False
    framework_packages: tuple[str, ...] = ()
    # JDK: the Java release the run asked it to run on (None: the reference, an older run),
    # and the runtime it said it ran on: the garbage collector and the most heap the JVM
    # sized itself (its own defaults), and java.vendor.
    jdk: str | None = None
    gc: str | None = None
    heap_max_mb: int | None = None
    java_vendor: str | None = None
    # A framework the 2019 write-up did not measure (shown after its five, marked).
    beyond_write_up: bool = False
    # Why this variant was not run ("" when it ran): a JDK the framework does not run on.
    not_applicable: str = ""
    # EXECUTOR: where it ran its blocking work, pool or virtual (None: the reference, an
    # older run, which ran each framework its own way).
    executor: str | None = None
    # The seccomp profile its container ran under: ENGINE_SECCOMP (the engine's own) or the
    # file name of the one servers/seccomp/ ships (io_uring where the engine's blocks it);
    # None: BACKEND=local, or an older run.
    seccomp: str | None = None
    # PROTOCOL: what it spoke on its port (h1, h1-tls, h2c, h2; None: an older run, h1), and
    # the TLS engine it said it ran (jdk, openssl; NO_TLS without TLS; None: not said).
    protocol: str | None = None
    tls_engine: str | None = None

    @property
    def is_reference(self) -> bool:
        return self.role == "reference"


class StepVerdict(str, Enum):
    """How one fixed-rate step ended against the search's target, in the order judged."""

    FAILED = "failed"  # the load tool or the server stopped; no figures
    ERRORS = "errors"  # more than the allowed share of requests failed or got no 2xx/3xx
    LOAD_TOOL = "load tool"  # the load tool could not hold the rate: never the server's fault
    HOST = "host"  # broke while the host stalled or was busy with other work: run again
    P99 = "p99"  # p99 over the target
    SHORT = "short"  # the server answered under 99 % of the offered rate
    HELD = "held"

    @property
    def held(self) -> bool:
        return self is StepVerdict.HELD


class StepPurpose(str, Enum):
    SEARCH = "search"  # a step of RATES=auto's search
    LIST = "list"  # a rate of a fixed RATES list
    COST = "cost"  # the common rate at which every server's cost is compared


@dataclass(frozen=True)
class RateStep:
    """One measured fixed-rate run of one server, read from the load tool's raw output."""

    server: str
    offered_rate: float  # requests a second, due on schedule whatever the server does
    connections: int  # the most the load tool could open
    purpose: StepPurpose
    verdict: StepVerdict
    reason: str  # the verdict in words, with the figures behind it
    repeat: int = 1
    duration_s: float | None = None  # the load tool's measured time
    achieved_rate: float | None = None  # answers a second
    answered: int = 0  # requests that got an HTTP answer, any status
    errors: tuple[tuple[str, int], ...] = ()  # (kind, requests): "HTTP 503", oha's message
    latency: Latency | None = None  # from each request's due time, µs
    resources: ResourceUsage | None = None  # the server's, with the host's and the tool's
    out_of_connections: bool = False  # every connection was busy: requests waited for one
    raw_file: str | None = None  # the tool's output, relative to the run directory
    attempt: int = 1  # 2: the search's second run of a rate that broke, to confirm it
    workload: Workload = PLAINTEXT
    profile: RunProfile | None = None  # PROFILE=1: async-profiler's profile of this step
    host_stalls: HostStalls | None = None  # the stall meter's figures over this step

    @property
    def failed_requests(self) -> int:
        return sum(count for _, count in self.errors)


@dataclass(frozen=True)
class SustainedRate:
    """A server's max sustainable rate: per round, the highest offered rate that held."""

    server: str
    rounds: tuple[float | None, ...]  # None: no rate held in that round
    limited_by_tool: bool = False  # the load tool's limit came first: the value is "at least"
    broke_at: tuple[str, ...] = ()  # per round, the step that broke it and why
    # The rounds (from 1) whose maximum the host left undetermined: a rate that broke only
    # while the host stalled or was busy, as often as the search may run it; their entry
    # in `rounds` is None.
    host_rounds: tuple[int, ...] = ()

    @property
    def determined_rounds(self) -> tuple[float | None, ...]:
        """Each round's maximum but those the host left undetermined."""
        return tuple(rate for number, rate in enumerate(self.rounds, 1)
                     if number not in self.host_rounds)

    @property
    def not_determined(self) -> bool:
        """Every round's maximum was left undetermined by the host."""
        return bool(self.rounds) and not self.determined_rounds

    @property
    def value(self) -> float | None:
        """The rate that held in every round the host left clean: the lowest of those
        rounds'."""
        rounds = self.determined_rounds
        if not rounds or any(rate is None for rate in rounds):
            return None
        return min(rate for rate in rounds if rate is not None)


@dataclass(frozen=True)
class LatencyResult:
    """A make latency run: every measured step, and what they say per server."""

    slo_p99_us: float
    rates: str  # "auto", or the fixed list as given
    steps: tuple[RateStep, ...]
    maxima: tuple[SustainedRate, ...]
    cost_rate: float | None = None  # the common rate of the cost steps
    cost_rate_source: str = ""  # "COST_RATE", or "lowest maximum"
    target_url: str | None = None  # URL=: a server the user started, not the lab's
    tool: str | None = None  # e.g. "oha 1.16.0"
    step_warmup_s: float = 0.0  # the unmeasured run at each step's rate before it

    def steps_of(self, server: str, purpose: StepPurpose | None = None) -> tuple[RateStep, ...]:
        return tuple(step for step in self.steps if step.server == server
                     and (purpose is None or step.purpose is purpose))


class RunKind(str, Enum):
    """What a run measured, which decides every output's shape: each renderer asks once,
    at its entry."""

    BENCH = "bench"  # make bench and make sweep: closed-loop cells (wrk, h2load)
    LATENCY = "latency"  # make latency: fixed-rate steps (oha) and each server's maximum
    CALIBRATE = "calibrate"  # make calibrate: a bench's cells, each server twice (an A/A)


@dataclass(frozen=True)
class RawArchive:
    """The archive a finished run's raw files were packed into: its name in the run
    directory and its SHA-256 (hex), which results.json records."""

    name: str
    sha256: str


@dataclass(frozen=True)
class BenchResult:
    format_version: int
    created_utc: str
    settings: Settings | None
    host: HostInfo
    servers: tuple[ServerRecord, ...]
    cells: tuple[Cell, ...]
    lab_commit: str | None = None  # the lab's git commit, "+dirty" when the tree had changes
    warnings: tuple[CellWarning, ...] = ()
    engines: tuple[EngineRecord, ...] = ()  # the other machines' engines, when there were any
    latency: LatencyResult | None = None  # a fixed-rate run's steps and maxima (make latency)
    raw_archive: RawArchive | None = None  # once the run ended: its raw files' archive

    @property
    def kind(self) -> RunKind:
        if self.latency is not None:
            return RunKind.LATENCY
        calibrates = self.settings is not None and len(self.settings.replicas) > 1
        return RunKind.CALIBRATE if calibrates else RunKind.BENCH

    def server(self, name: str) -> ServerRecord | None:
        return next((server for server in self.servers if server.name == name), None)

    def label(self, name: str) -> str:
        record = self.server(name)
        return record.label if record else name

    @property
    def failed_cells(self) -> tuple[Cell, ...]:
        return tuple(cell for cell in self.cells if cell.status is CellStatus.FAILED)
