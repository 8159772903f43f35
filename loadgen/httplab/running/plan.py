"""What a bench will do, validated before any load starts: one BenchPlan from the bench
settings, and every rule that stops a bench with one line because of a setting. Pure
functions; what only the machine can tell is checked in preflight.py."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace

from httplab.bench_settings import DEFAULT_CV_THRESHOLD, DEFAULTS, PRIMER_CONNECTIONS
from httplab.addresses import LOOPBACK
from httplab.axes import (AXES, EXECUTOR, H1, HTTP2_PROTOCOLS, JDK, PROFILE, PROTOCOL, REPLICA,
                          SETTINGS, TLS_PROTOCOLS, TRANSPORT, Axis)
from httplab.plan_error import PlanError
from httplab.manifest import ServerManifest
from httplab.model import PLAINTEXT, PROFILE_EVENTS, AutoRepeat, Settings, Workload
from httplab.outcomes import ServerOutcome
from httplab.run_layout import RAW, database_log
from httplab.running.engines import Engine, Topology, make_topology, split_load
from httplab.running.repeat_plan import check_pairs, parse_rounds
from httplab.workloads import answers, parse_workloads, request_path

_DURATION = re.compile(r"^(\d+)(s|m|h)?$")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600}
MAX_THREADS = 1024
MAX_CONNECTIONS = 1_000_000


def target_url(manifest: ServerManifest, address: str = LOOPBACK,
               workload: Workload = PLAINTEXT) -> str:
    """What the load tool loads: the server's port, from its manifest, and the workload's
    path (the manifest's own for plaintext), at the target address (loopback on one
    machine); https where the server's protocol runs over TLS (h1-tls, h2)."""
    host = f"[{address}]" if ":" in address else address
    scheme = "https" if manifest.protocol in TLS_PROTOCOLS else "http"
    return f"{scheme}://{host}:{manifest.port}{request_path(workload, manifest.path)}"


def target_urls(servers: tuple[ServerManifest, ...], address: str = LOOPBACK,
                workloads: tuple[Workload, ...] = (PLAINTEXT,)) -> str:
    """The plan's wrk URLs, for the record: one per workload when every server shares it."""
    return ", ".join(dict.fromkeys(target_url(server, address, workload)
                                   for workload in workloads for server in servers
                                   if answers(workload, server.is_reference)))


WORKER_SETTINGS = SETTINGS.values
# HTTP/2 streams per connection: servers advertise 100 to 250 concurrent streams by default.
MAX_STREAMS = 100


@dataclass(frozen=True)
class Phase:
    """An unmeasured wrk run before the measured ones: the primer or the warm-up."""

    name: str
    duration: str
    duration_s: int
    connections: int | None  # None: the measured connection count


@dataclass(frozen=True)
class LoadPoint:
    """One measured cell of a server: wrk's threads and connections."""

    threads: int
    connections: int


def load_points(threads: tuple[int, ...], connections: tuple[int, ...]) -> tuple[LoadPoint, ...]:
    """Every connection count with every thread setting, threads capped at the connection
    count (a setting that the cap makes equal to another is measured once)."""
    return tuple(dict.fromkeys(LoadPoint(min(count, point), point)
                               for point in connections for count in threads))


@dataclass(frozen=True)
class BenchPlan:
    servers: tuple[ServerManifest, ...]
    threads: tuple[int, ...]
    connections: tuple[int, ...]  # one point, or a sweep
    duration: str  # as wrk takes it: "10s"
    duration_s: int
    repeat: int = 1  # rounds (at most, with auto_repeat): each starts every server again
    auto_repeat: AutoRepeat | None = None  # REPEAT=auto's rule; None: `repeat` rounds
    phases: tuple[Phase, ...] = ()  # primer, then warm-up; absent when set to 0
    server_cpus: str | None = None  # a cpuset such as "1" or "0-3,6"
    loadgen_cpus: str | None = None
    fairness: bool = False  # h2load after each measured run, as long as wrk's
    backend: str = DEFAULTS["backend"]
    topology: Topology | None = None  # None: the server and wrk on this machine
    cv_threshold: float = DEFAULT_CV_THRESHOLD
    workloads: tuple[Workload, ...] = (PLAINTEXT,)
    profile_event: str = DEFAULTS["profile-event"]  # as asked: cpu means cpu or itimer
    # Each variant axis's values as asked, by its setting, in AXES order: ("JDK", ("17",
    # "25")); () for an own-when-empty axis left empty (each framework its own value).
    asked: tuple[tuple[str, tuple[str, ...]], ...] = ()
    streams: int = 1  # STREAMS: HTTP/2 requests in flight per connection (h2c, h2)
    keep_unmeasured: bool = False  # KEEP_UNMEASURED: their raw files archived, not dropped

    def values(self, axis: Axis) -> tuple[str, ...]:
        """The values asked of an axis; its default alone where the plan has none of it."""
        return dict(self.asked).get(axis.setting, () if axis.own_when_empty else (axis.default,))

    @property
    def profiled(self) -> bool:
        """Some server of the plan runs with async-profiler in it."""
        return any(server.profiled for server in self.servers)

    @property
    def server_host(self) -> Engine | None:
        """The engine that runs the server (SERVER_HOST); None: this machine's."""
        return self.topology.server if self.topology else None

    @property
    def load_generators(self) -> tuple[Engine, ...]:
        """The engines that run wrk (LOADGEN_HOSTS); (): this machine's."""
        return self.topology.generators if self.topology else ()

    @property
    def target_address(self) -> str:
        """What wrk aims at, and the only address the server binds."""
        return self.topology.target_address if self.topology else LOOPBACK

    @property
    def points(self) -> tuple[LoadPoint, ...]:
        return load_points(self.threads, self.connections)

    def workloads_of(self, server: ServerManifest) -> tuple[Workload, ...]:
        """The workloads this server is measured at: the reference has no waiting ones."""
        return tuple(workload for workload in self.workloads
                     if answers(workload, server.is_reference))

    @property
    def applicable(self) -> tuple[ServerManifest, ...]:
        """The servers that run: not a variant the framework cannot run (not_applicable)."""
        return tuple(server for server in self.servers if not server.not_applicable)

    @property
    def starts(self) -> int:
        """Server starts in all: every server that runs once per round."""
        return self.repeat * len(self.applicable)

    @property
    def seconds_per_workload(self) -> int:
        """The load of one workload of one server in one round: its primer and warm-up,
        then one run per load point (and as long again of h2load with fairness)."""
        unmeasured = sum(phase.duration_s for phase in self.phases)
        per_point = self.duration_s * (2 if self.fairness else 1)
        return unmeasured + len(self.points) * per_point

    def seconds_per_start(self, server: ServerManifest) -> int:
        return len(self.workloads_of(server)) * self.seconds_per_workload

    @property
    def load_seconds(self) -> int:
        return self.repeat * sum(self.seconds_per_start(server) for server in self.applicable)

    def phase(self, name: str) -> Phase | None:
        return next((phase for phase in self.phases if phase.name == name), None)


def needs_database(plan: BenchPlan) -> bool:
    """A server of the plan is measured at db or queries: a database is started for it."""
    return any(workload.uses_database for server in plan.servers
               for workload in plan.workloads_of(server))


def rotated(servers: tuple[ServerManifest, ...], round_number: int) -> tuple[ServerManifest, ...]:
    """Round 1 in the given order, each later round starting one server further on, so
    that no server always runs first (or last) on a host that drifts."""
    shift = (round_number - 1) % len(servers) if servers else 0
    return servers[shift:] + servers[:shift]


def parse_duration(text: str) -> tuple[str, int]:
    """'10s' -> ('10s', 10); '2m' -> ('2m', 120); a bare number is seconds."""
    match = _DURATION.match(text.strip())
    if not match or int(match.group(1)) == 0:
        raise PlanError(f"DURATION must be a positive whole number of seconds, minutes or "
                        f"hours such as 10s, 2m or 1h; got {text!r}")
    count, unit = int(match.group(1)), match.group(2) or "s"
    return f"{count}{unit}", count * _UNIT_SECONDS[unit]


def parse_optional_duration(name: str, text: str) -> tuple[str, int] | None:
    """Like parse_duration, but 0 (or 0s) means none."""
    if text.strip() in ("0", "0s", "0m", "0h"):
        return None
    try:
        return parse_duration(text)
    except PlanError:
        raise PlanError(f"{name} must be 0 (none) or a whole number of seconds, minutes or "
                        f"hours such as 5s or 1m; got {text!r}") from None


def parse_cpuset(name: str, text: str, available: frozenset[int]) -> str | None:
    """'0-1,3' -> '0-1,3' after checking that this host has those CPUs; '' -> None."""
    text = text.strip()
    if not text:
        return None
    try:
        cpus = cpuset_members(text)
    except ValueError:
        raise PlanError(f"{name} must be a cpuset such as 1 or 0-3,6; got {text!r}") from None
    missing = sorted(cpus - available)
    if missing:
        raise PlanError(f"{name} {text!r} names CPU(s) {', '.join(map(str, missing))} that this "
                        f"host does not have (usable: {format_cpuset(available)})")
    return text


def cpuset_members(text: str) -> set[int]:
    """'0-1,3' -> {0, 1, 3}; ValueError when it is not a cpuset."""
    cpus: set[int] = set()
    for part in text.split(","):
        low, _, high = part.strip().partition("-")
        if not low.isdigit() or (high and not high.isdigit()) or int(high or low) < int(low):
            raise ValueError(f"not a cpuset: {text!r}")
        cpus.update(range(int(low), int(high or low) + 1))
    return cpus


def format_cpuset(cpus: frozenset[int]) -> str:
    return ",".join(str(cpu) for cpu in sorted(cpus))


def parse_positive_list(name: str, text: str, maximum: int) -> tuple[int, ...]:
    """'10,5' -> (10, 5); each a whole number from 1 to maximum."""
    values = []
    for part in text.split(","):
        part = part.strip()
        if not part.isdigit() or not 1 <= int(part) <= maximum:
            raise PlanError(f"{name} must be whole numbers from 1 to {maximum}, separated by "
                            f"commas; got {text!r}")
        values.append(int(part))
    return tuple(values)


def select_servers(requested: str, known: tuple[ServerManifest, ...]) -> tuple[ServerManifest, ...]:
    """'netty,vertx' -> those manifests, in the order asked; '' or 'all' -> every framework,
    the write-up's first, then those beyond it (a reference server joins by CEILING, or by
    being named)."""
    if requested.strip() in ("", "all"):
        frameworks = [manifest for manifest in known if not manifest.is_reference]
        return tuple(sorted(frameworks, key=lambda manifest: manifest.beyond_write_up))
    by_name = {manifest.name: manifest for manifest in known}
    names = [name.strip() for name in requested.split(",") if name.strip()]
    unknown = [name for name in names if name not in by_name]
    if unknown:
        raise PlanError(f"unknown server {', '.join(unknown)}; known: {', '.join(by_name)}")
    return tuple(by_name[name] for name in dict.fromkeys(names))


def make_phases(primer: str, warmup: str) -> tuple[Phase, ...]:
    phases = []
    for name, text, connections in (("primer", primer, PRIMER_CONNECTIONS), ("warmup", warmup, None)):
        parsed = parse_optional_duration(name.upper(), text)
        if parsed:
            phases.append(Phase(name, parsed[0], parsed[1], connections))
    return tuple(phases)


def parse_connections(text: str, thread_counts: tuple[int, ...]) -> tuple[int, ...]:
    """'16,128,500' -> (16, 128, 500), each once, in the order given; none below the
    smallest thread setting, as wrk needs a connection per thread."""
    counts = tuple(dict.fromkeys(parse_positive_list("CONNECTIONS", text, MAX_CONNECTIONS)))
    too_few = [count for count in counts if count < min(thread_counts)]
    if too_few:
        raise PlanError(f"CONNECTIONS {too_few[0]} is below THREADS {min(thread_counts)}: "
                        "wrk needs at least one connection per thread")
    return counts


def parse_switch(name: str, text: str, meaning: str) -> bool:
    if text.strip() not in ("0", "1"):
        raise PlanError(f"{name} takes 1 ({meaning}) or 0 (do not); got {text!r}")
    return text.strip() == "1"


def make_plan(settings: Mapping[str, str], known: tuple[ServerManifest, ...],
              available_cpus: frozenset[int] = frozenset()) -> BenchPlan:
    """The one validated plan of a bench, from its settings (flag -> text as typed, as in
    bench_settings; a flag left out takes its default). PlanError at the first setting that
    cannot work, alone or with the others."""
    typed = {**DEFAULTS, **settings}
    thread_counts = parse_positive_list("THREADS", typed["threads"], MAX_THREADS)
    connection_counts = parse_connections(typed["connections"], thread_counts)
    duration_text, duration_s = parse_duration(typed["duration"])
    server_cpus = parse_cpuset("SERVER_CPUS", typed["server-cpus"], available_cpus)
    # An axis no make variable sets (REPLICA, make calibrate's) stays at its default.
    axes = {axis.setting: parse_axis(axis, typed.get(axis.setting.lower(), axis.default))
            for axis in AXES}
    cpus = len(cpuset_members(server_cpus)) if server_cpus else len(available_cpus) or None
    chosen = with_ceiling(select_servers(typed["servers"], known), known,
                          parse_ceiling(typed["ceiling"]))
    repeat, auto_repeat = parse_rounds(typed)
    plan = BenchPlan(
        expand_variants(chosen, axes, cpus),
        thread_counts, connection_counts,
        duration_text, duration_s, repeat, auto_repeat,
        make_phases(typed["primer"], typed["warmup"]), server_cpus,
        parse_cpuset("LOADGEN_CPUS", typed["loadgen-cpus"], available_cpus),
        parse_switch("FAIRNESS", typed["fairness"], "h2load after each measured run"),
        backend=typed["backend"], cv_threshold=parse_cv_threshold(typed["cv-threshold"]),
        topology=make_topology(typed["server-host"], typed["loadgen-hosts"],
                               typed["target-address"]),
        workloads=parse_workloads(typed["workload"], typed["delay-ms"], typed["queries"]),
        asked=tuple(axes.items()), profile_event=parse_profile_event(typed["profile-event"]),
        streams=parse_streams(typed["streams"], axes[PROTOCOL.setting]),
        keep_unmeasured=parse_switch("KEEP_UNMEASURED", typed["keep-unmeasured"],
                                     "keep the unmeasured runs' raw files"))
    check_something_to_measure(plan.servers)
    check_topology(plan)
    check_pairs(plan.servers, plan.auto_repeat)
    return plan


def check_something_to_measure(servers: tuple[ServerManifest, ...]) -> None:
    """Stops a plan whose every framework variant is not applicable: it would start a run
    that measures the reference alone. One line, each variant with its reason. A plan of
    the reference alone (SERVERS=nginx) asked for that and runs."""
    frameworks = [server for server in servers if not server.is_reference]
    if not frameworks or any(not server.not_applicable for server in frameworks):
        return
    reasons = "; ".join(f"{server.key}: {server.not_applicable}" for server in frameworks)
    raise PlanError(f"nothing to measure: no framework can run as asked ({reasons})")


def parse_streams(text: str, protocols: tuple[str, ...]) -> int:
    """STREAMS: a whole number from 1 to MAX_STREAMS; above 1 only where some protocol asked
    is HTTP/2 (HTTP/1.1 has one request in flight per connection)."""
    streams = text.strip()
    if not streams.isdigit() or not 1 <= int(streams) <= MAX_STREAMS:
        raise PlanError(f"STREAMS must be a whole number from 1 to {MAX_STREAMS} (HTTP/2 "
                        f"requests in flight per connection); got {text!r}")
    if int(streams) > 1 and not HTTP2_PROTOCOLS & set(protocols):
        raise PlanError(f"STREAMS={streams} sets HTTP/2 streams per connection, but PROTOCOL="
                        f"{','.join(protocols)} has no HTTP/2: add h2c or h2, or leave STREAMS=1")
    return int(streams)


def parse_cv_threshold(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < 1:
        raise PlanError(f"CV_THRESHOLD must be a fraction between 0 and 1, such as 0.05; "
                        f"got {text!r}")
    return value


def check_topology(plan: BenchPlan) -> None:
    """SERVER_HOST, LOADGEN_HOSTS and TARGET_ADDRESS, refused when they cannot work together
    with the rest of the plan."""
    if plan.topology is None:
        return
    if plan.values(PROTOCOL) != (H1,):
        raise PlanError(f"PROTOCOL={','.join(plan.values(PROTOCOL))} runs on this machine only: the "
                        "run's certificate and the load tools' protocols are not carried to "
                        "SERVER_HOST or LOADGEN_HOSTS; leave PROTOCOL=h1 with them")
    if plan.backend != "docker":
        raise PlanError("SERVER_HOST, LOADGEN_HOSTS and TARGET_ADDRESS drive Docker engines: "
                        "they need BACKEND=docker")
    for point in plan.points:
        split_load(point.threads, point.connections, plan.topology.generator_count)
    if plan.fairness and plan.load_generators:
        raise PlanError("FAIRNESS runs h2load from this machine only: set FAIRNESS=0 with "
                        "LOADGEN_HOSTS")


def parse_axis(axis: Axis, text: str) -> tuple[str, ...]:
    """A variant axis's setting: one value or a comma list, in the order given."""
    values = axis.parse(text)
    if values is None:
        raise PlanError(f"{axis.setting} takes {axis.accepts}; got {text!r}")
    return values


def parse_ceiling(text: str) -> bool:
    return parse_switch("CEILING", text, "measure the reference first")


def with_ceiling(chosen: tuple[ServerManifest, ...], known: tuple[ServerManifest, ...],
                 ceiling: bool) -> tuple[ServerManifest, ...]:
    """The reference servers first when the ceiling is asked for; never twice."""
    references = tuple(m for m in known if m.is_reference and m not in chosen) if ceiling else ()
    return references + tuple(m for m in chosen if m.is_reference) + \
        tuple(m for m in chosen if not m.is_reference)


def expand_variants(servers: tuple[ServerManifest, ...], axes: Mapping[str, tuple[str, ...]],
                    cpus: int | None) -> tuple[ServerManifest, ...]:
    """Each framework once per combination of the axes' values, side by side in AXES
    order (netty, netty@jdk17, netty@default...); the reference, which no axis changes,
    once. An axis given no value leaves each framework at its own (as found). A
    combination the framework cannot run stays, not_applicable saying why."""
    expanded = servers
    for axis in AXES:
        expanded = tuple(dict.fromkeys(server.on_axis(axis.setting, value, cpus)
                                       for server in expanded for value in axes[axis.setting])
                         ) if axes[axis.setting] else expanded
    return expanded


def parse_profile_event(text: str) -> str:
    event = text.strip()
    if event not in PROFILE_EVENTS:
        raise PlanError(f"PROFILE_EVENT takes {', '.join(PROFILE_EVENTS)} (cpu: the kernel's "
                        f"CPU clock where allowed, itimer where not); got {text!r}")
    return event


def settings_of(plan: BenchPlan) -> Settings:
    """The plan as the results record it."""
    primer, warmup = plan.phase("primer"), plan.phase("warmup")
    profile = tuple(value == "1" for value in plan.values(PROFILE))
    replicas = plan.values(REPLICA)
    return Settings(servers=tuple(server.key for server in plan.servers), threads=plan.threads,
                    connections=plan.connections, duration_s=float(plan.duration_s),
                    backend=plan.backend,
                    url=target_urls(plan.servers, plan.target_address, plan.workloads),
                    repeat=plan.repeat, primer_s=float(primer.duration_s) if primer else 0.0,
                    primer_connections=(primer.connections or 0) if primer else 0,
                    warmup_s=float(warmup.duration_s) if warmup else 0.0,
                    cv_threshold=plan.cv_threshold, server_cpus=plan.server_cpus,
                    loadgen_cpus=plan.loadgen_cpus, worker_settings=plan.values(SETTINGS),
                    server_host=plan.server_host.spec if plan.server_host else None,
                    loadgen_hosts=tuple(engine.spec for engine in plan.load_generators),
                    target_address=plan.target_address, fairness=plan.fairness,
                    workloads=plan.workloads, profile=profile,
                    profile_event=plan.profile_event if any(profile) else None,
                    jdks=plan.values(JDK), executors=plan.values(EXECUTOR),
                    transports=plan.values(TRANSPORT), protocols=plan.values(PROTOCOL),
                    streams=plan.streams,
                    auto_repeat=plan.auto_repeat,
                    replicas=replicas if len(replicas) > 1 else ())


SERVER_PLACEHOLDER = "<server>"


def with_database(settings: Settings, outcomes: list[ServerOutcome]) -> Settings:
    """The settings with the database as the first server that read one saw it (each
    server's is started afresh from the same image or binaries, its log its own)."""
    database = next((outcome.database for outcome in outcomes if outcome.database), None)
    if database is None:
        return settings
    log_files = f"{RAW}/{database_log(SERVER_PLACEHOLDER)}"
    return replace(settings, database=replace(database, log_file=log_files))


def with_rounds_run(settings: Settings, outcomes: list[ServerOutcome]) -> Settings:
    """REPEAT=auto: the settings with the rounds that ran so far as their repeat (a fixed
    REPEAT's settings as they are)."""
    if settings.auto_repeat is None:
        return settings
    rounds = [one.repeat for outcome in outcomes for one in (*outcome.cells, *outcome.steps)]
    return replace(settings, repeat=max(rounds, default=1))
