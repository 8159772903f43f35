"""Server manifests: servers/<name>/server.toml, found by convention.

The parsing functions are pure and take text; discover() reads the files. Every
problem is a ManifestError of one line naming the file and the field, e.g.
"servers/foo/server.toml: port: 70000 is not a port (1-65535)".
"""

from __future__ import annotations

import os
import re
import tomllib
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, replace
from pathlib import Path

from httplab.axes import (EXECUTOR, JDK, OWN_TRANSPORT, POOL, PROFILE, PROTOCOL, REPLICA, SETTINGS,
                          TRANSPORT, VIRTUAL, Axis, Variant)
from httplab.worker_counts import CPUS, WorkerCountError, worker_count

MANIFEST_FILE = "server.toml"
POM_FILE = "pom.xml"
# A framework is what the lab measures; a reference (nginx) answers the same hello world
# to show what this host and wrk allow at best, and is not a framework.
ROLE_FRAMEWORK, ROLE_REFERENCE = "framework", "reference"
ROLES = (ROLE_FRAMEWORK, ROLE_REFERENCE)
_REQUIRED_TEXT = ("display_name", "framework", "worker_kind", "server_header", "path")
_OPTIONAL_TEXT = ("version", "version_property", "version_artifact", "jvm_options",
                  "default_workers", "default_workers_source")
# The pool /blocking runs on, and the pages the endpoints follow: a framework's, never the
# reference's (it has no /blocking). blocking_pool is a count, an expression over the CPUs
# (worker_counts), or WORKERS_POOL: the worker pool itself (Undertow's).
BLOCKING_POOL = "blocking_pool"
_BLOCKING_TEXT = ("blocking_pool_source", "blocking_pool_kind", "blocking_thread_prefix",
                  "endpoints_source")
WORKERS_POOL = "workers"
# The database connection pool of /db and /queries (a framework's, never the reference's):
# its size (a count), where the driver or framework documents that default, and the driver.
DB_POOL = "db_pool"
_DB_TEXT = ("db_pool_source", "db_driver")
THREAD_NAME_LIMIT = 15  # Linux keeps the first 15 characters of a thread's name
# The Java packages of the framework's own code, for its profile's layers: a framework's
# (comma-separated in one string, which the servers' flat TOML reader takes; empty when the
# framework is Netty itself), never the reference's.
FRAMEWORK_PACKAGES = "framework_packages"
ORIGINAL_SETTING = SETTINGS.default
# The JDKs a framework runs on (JDK=), comma-separated, and the page that says so: required
# of a framework, refused of the reference (no JVM).
JDKS, JDKS_SOURCE = "jdks", "jdks_source"
# A framework the 2019 write-up did not measure: the tables and charts show it after the
# write-up's, marked.
BEYOND_WRITE_UP = "beyond_write_up"
BEYOND_MARK = "†"
# Where a framework can run its blocking work (EXECUTOR), its own way first, and the page
# that says how: required of a framework, refused of the reference (no /blocking).
EXECUTORS, EXECUTORS_SOURCE = "executors", "executors_source"
VIRTUAL_THREADS_SINCE = 21  # JEP 444: virtual threads, final in Java 21
# The first 15 characters (what Linux keeps) of the names of the JDK's virtual-thread
# carriers, ForkJoinPool-1-worker-N, the first ForkJoinPool the JVM makes.
VIRTUAL_CARRIER_PREFIX = "ForkJoinPool-1-"
# What the thread that ran /blocking's wait is, by EXECUTOR: the server says it on each
# /blocking answer (checking/conformance).
THREAD_KINDS = {POOL: "platform", VIRTUAL: VIRTUAL}
# The I/O engines a server runs on (TRANSPORT), its own first, comma-separated: every
# server's; and the page that says how the framework is given each: a framework's only.
TRANSPORTS, TRANSPORTS_SOURCE = "transports", "transports_source"
# What a server speaks on its port (PROTOCOL), h1 first, comma-separated (absent: h1 only),
# the reference's too (the ceiling of each); and, when it lists more than h1, the page that
# says how the server is given each and which TLS engine it runs.
PROTOCOLS, PROTOCOLS_SOURCE = "protocols", "protocols_source"
_KNOWN_KEYS = frozenset(_REQUIRED_TEXT + _OPTIONAL_TEXT + _BLOCKING_TEXT + _DB_TEXT
                        + (BLOCKING_POOL, DB_POOL, FRAMEWORK_PACKAGES, "workers", "port",
                           "role", JDKS, JDKS_SOURCE, BEYOND_WRITE_UP, EXECUTORS,
                           EXECUTORS_SOURCE, TRANSPORTS, TRANSPORTS_SOURCE, PROTOCOLS,
                           PROTOCOLS_SOURCE))


class ManifestError(ValueError):
    """A manifest that is missing or malformed; the message names the file."""


def builds_with_maven(role: object, version_artifact: object) -> bool:
    """Every framework is a Maven module; a reference only when it names a Maven artifact."""
    return role != ROLE_REFERENCE or bool(version_artifact)


@dataclass(frozen=True)
class ServerManifest:
    name: str  # the folder name: servers/<name>
    display_name: str
    framework: str
    version: str  # resolved: the manifest's own, or its version_property's value
    workers: int | str  # a count, or "cpus"
    worker_kind: str
    transports: tuple[str, ...]  # the I/O engines it runs on (TRANSPORT), its own first
    server_header: str
    port: int
    path: str
    jvm_options: str = ""
    version_artifact: str = ""  # "group:artifact" of the framework, when Maven builds it
    role: str = ROLE_FRAMEWORK  # or ROLE_REFERENCE
    # The framework's own documented default, as an expression over the CPUs (worker_counts),
    # and where it is documented; used by SETTINGS=default.
    default_workers: str = ""
    default_workers_source: str = ""
    setting: str = ORIGINAL_SETTING  # which worker setting `workers` holds: "original" or "default"
    # The pool /blocking runs on (see BLOCKING_POOL): its size as written, where that size
    # is documented, what its threads are and how their names start; and the pages the
    # framework's /json, /delay and /blocking follow. Empty for the reference.
    blocking_pool: str = ""
    blocking_pool_source: str = ""
    blocking_pool_kind: str = ""
    blocking_thread_prefix: str = ""
    endpoints_source: str = ""
    # The database connection pool of /db and /queries (see DB_POOL); None for the reference.
    db_pool: int | None = None
    db_pool_source: str = ""
    db_driver: str = ""
    # The Java packages of the framework's own code (dotted, e.g. "com.linecorp.armeria"),
    # by which a profile tells the framework's layer from Netty's, the JDK's and the
    # handler's; a framework's, possibly none (Netty is its own layer); never the reference's.
    framework_packages: tuple[str, ...] = ()
    profiled: bool = False  # PROFILE: async-profiler runs in it during its measured runs
    jdk: str = JDK.default  # JDK: the Java feature release it runs on ("25")
    jdks: tuple[str, ...] = JDK.values  # the JDKs it runs on, and the page that says so
    jdks_source: str = ""
    beyond_write_up: bool = False  # not measured by the 2019 write-up: shown after, marked
    # EXECUTOR: where its blocking work runs; as found, its own way (the first it can).
    executor: str = EXECUTOR.default
    executors: tuple[str, ...] = ()  # where it can, its own way first, and the page
    executors_source: str = ""
    transports_source: str = ""  # the page that says how the framework is given each engine
    # TRANSPORT as asked: one of its values, or OWN_TRANSPORT (its own, the first it has).
    asked_transport: str = OWN_TRANSPORT
    protocol: str = PROTOCOL.default  # PROTOCOL: what it speaks on its port in this variant
    protocols: tuple[str, ...] = (PROTOCOL.default,)  # what it can, and the page that says so
    protocols_source: str = ""
    replica: str = REPLICA.default  # REPLICA: the same server again, make calibrate's A/A

    @property
    def transport(self) -> str:
        """The I/O engine it runs on: the one asked, or its own."""
        return self.asked_transport or self.transports[0]

    @property
    def key(self) -> str:
        """The server as the results name it: its folder, with each axis's value that is not
        the default ("armeria@default", "netty@jdk17"), marked when profiled
        ("netty+profiled"), so that figures taken under the profiler never pass for the
        server's own (httplab/axes.py builds it)."""
        return self.variant.key

    @property
    def variant(self) -> Variant:
        """Its values on every variant axis."""
        return Variant.of(self.name, **{SETTINGS.setting: self.setting, JDK.setting: self.jdk,
                                        EXECUTOR.setting: self.executor,
                                        TRANSPORT.setting: self.asked_transport,
                                        PROTOCOL.setting: self.protocol,
                                        PROFILE.setting: "1" if self.profiled else "0",
                                        REPLICA.setting: self.replica})

    def on_axis(self, setting: str, value: str, cpus: int | None) -> ServerManifest:
        """This server at one axis's value (SETTINGS, JDK, EXECUTOR, TRANSPORT, PROTOCOL,
        PROFILE, REPLICA), as the runner realises it; the reference (no JVM, no worker
        setting) stays as it is but for PROTOCOL, which it serves as the ceiling of each, and
        REPLICA: a replica is the same server started again, whatever it is."""
        if setting == SETTINGS.setting:
            return self.for_setting(value, cpus)
        if setting == JDK.setting:
            return self if self.is_reference else replace(self, jdk=value)
        if setting == EXECUTOR.setting:
            return self if self.is_reference else replace(self, executor=value)
        if setting == TRANSPORT.setting:
            return self if self.is_reference else replace(self, asked_transport=value)
        if setting == PROTOCOL.setting:
            return replace(self, protocol=value)
        if setting == PROFILE.setting:
            return self.for_profile(value == "1")
        if setting == REPLICA.setting:
            return replace(self, replica=value)
        raise ValueError(f"not a variant axis: {setting!r}")

    @property
    def not_applicable(self) -> str:
        """Why this variant cannot run ("" when it can): a JDK the framework does not run
        on, an executor or an I/O engine it has not, or virtual threads on a JDK without
        them."""
        if self.protocol not in self.protocols:
            return (f"{self.display_name} {self.version} serves {', '.join(self.protocols)} "
                    f"only here, not {self.protocol}"
                    + (f" ({self.protocols_source})" if self.protocols_source else ""))
        if self.is_reference:
            return ""
        if self.jdk not in self.jdks:
            return (f"{self.display_name} {self.version} runs on JDK "
                    f"{' and '.join(self.jdks)} only, not {self.jdk} ({self.jdks_source})")
        if self.executor not in self.executors:
            return (f"{self.display_name} {self.version} runs its blocking work on "
                    f"{' or '.join(_EXECUTOR_NAMES[one] for one in self.executors)} only, "
                    f"not {_EXECUTOR_NAMES[self.executor]} ({self.executors_source})")
        if self.transport not in self.transports:
            return (f"{self.display_name} {self.version} runs on "
                    f"{' or '.join(self.transports)} only, not {self.transport} "
                    f"({self.transports_source})")
        if self.executor == VIRTUAL and int(self.jdk) < VIRTUAL_THREADS_SINCE:
            return (f"virtual threads need Java {VIRTUAL_THREADS_SINCE} (JEP 444); this "
                    f"variant runs on JDK {self.jdk}")
        return ""

    @property
    def runs_pool(self) -> bool:
        """Whether /blocking runs on a pool (whose size bounds it), not a thread per task."""
        return not self.is_reference and self.executor != VIRTUAL

    @property
    def live_thread_prefix(self) -> str:
        """How the names of the threads /blocking holds start, which the harness counts
        while the workload runs: the pool's, or virtual threads' carriers' (the JDK's
        scheduler, a ForkJoinPool; virtual threads themselves are no OS threads)."""
        if self.is_reference or self.runs_pool:
            return self.blocking_thread_prefix
        return VIRTUAL_CARRIER_PREFIX

    @property
    def blocking_thread(self) -> str:
        """The kind of thread its /blocking must wait on: platform or virtual ("" for the
        reference, which has no /blocking)."""
        return "" if self.is_reference else THREAD_KINDS[self.executor]

    @property
    def workers_variable(self) -> str:
        """WORKERS for the server: empty for the original setting (the server then takes the
        manifest packaged into it), the count for any other."""
        return "" if self.setting == ORIGINAL_SETTING else str(self.workers)

    @property
    def transport_variable(self) -> str:
        """TRANSPORT for the server: the engine asked, empty for its own."""
        return self.asked_transport

    @property
    def executor_variable(self) -> str:
        """EXECUTOR for the server: where its blocking work runs; empty for the reference."""
        return "" if self.is_reference else self.executor

    def for_setting(self, setting: str, cpus: int | None) -> ServerManifest:
        """This server with the workers of a setting: "original" is the manifest's own;
        "default" is the framework's documented default on `cpus` CPUs."""
        if setting == ORIGINAL_SETTING or self.is_reference:
            return self
        count = worker_count(self.default_workers, cpus or os.cpu_count() or 1)
        return replace(self, workers=count, setting=setting)

    @property
    def is_reference(self) -> bool:
        """The ceiling reference (nginx): it answers as the frameworks do, but is not one."""
        return self.role == ROLE_REFERENCE

    @property
    def is_maven_module(self) -> bool:
        """Built by Maven into jar_path (see builds_with_maven); others (the nginx
        reference) bring their own Dockerfile and start script."""
        return builds_with_maven(self.role, self.version_artifact)

    def for_profile(self, profiled: bool) -> ServerManifest:
        """This server run with async-profiler in it (PROFILE=1), or without; the reference
        is no JVM and is never profiled."""
        return self if self.is_reference else replace(self, profiled=profiled)

    @property
    def label(self) -> str:
        """The name the tables and charts show, as the original write-up did; a framework
        beyond the write-up marked (BEYOND_MARK)."""
        mark = f" {BEYOND_MARK}" if self.beyond_write_up else ""
        return f"{self._unprofiled_label}{' (profiled)' if self.profiled else ''}{mark}"

    @property
    def _unprofiled_label(self) -> str:
        notes = [f"{self.workers} workers"] if isinstance(self.workers, int) else []
        notes += [] if self.setting == ORIGINAL_SETTING else [self.setting]
        notes += [] if self.jdk == JDK.default or self.is_reference else [f"JDK {self.jdk}"]
        notes += [_EXECUTOR_NAMES[VIRTUAL]] if self.executor == VIRTUAL else []
        notes += [self.asked_transport] if self.asked_transport else []
        notes += [] if self.protocol == PROTOCOL.default else [self.protocol]
        notes += [] if self.replica == REPLICA.default else [f"replica {self.replica}"]
        return f"{self.display_name} ({', '.join(notes)})" if notes else self.display_name

    def expected_workers(self, cpus: int | None = None) -> int:
        """The worker count the server should report when WORKERS is not set."""
        if isinstance(self.workers, int):
            return self.workers
        return cpus if cpus is not None else (os.cpu_count() or 1)

    def blocking_pool_size(self, cpus: int | None) -> int | None:
        """The most threads /blocking may hold at once on `cpus` CPUs: None for the
        reference, for virtual threads (no pool: a thread per request), and when the size
        depends on the CPUs and cpus is None. "workers" follows this setting's workers
        (SETTINGS=default changes Undertow's)."""
        if not self.runs_pool:
            return None
        if self.blocking_pool == WORKERS_POOL:
            return self.workers if isinstance(self.workers, int) else cpus
        if cpus is None and _depends_on_cpus(self.blocking_pool):
            return None
        return worker_count(self.blocking_pool, cpus or 1)

    @property
    def worker_setting(self) -> str:
        if isinstance(self.workers, int):
            return f"{self.workers} {self.worker_kind}"
        return f"{self.worker_kind}: one per CPU"

    def jar_path(self, servers_dir: Path) -> Path:
        """Where Maven puts the server's jar; a server that is no Maven module has none."""
        return servers_dir / self.name / "target" / f"{self.name}.jar"


@dataclass(frozen=True)
class PomFile:
    """A pom.xml as errors name it, and its text (None when there is no such file)."""
    source: str
    text: str | None


def parse_manifest(name: str, text: str, source: str = MANIFEST_FILE,
                   poms: tuple[PomFile, ...] = ()) -> ServerManifest:
    """Builds a manifest from TOML text. A version_property is looked up in the poms, in
    order (the module's own, then the parent). Raises ManifestError naming the source."""
    data = _load_toml(text, source)
    unknown = sorted(set(data) - _KNOWN_KEYS)
    if unknown:
        raise ManifestError(f"{source}: {unknown[0]}: not a manifest key "
                            f"(known: {', '.join(sorted(_KNOWN_KEYS))})")
    texts = {key: _required_text(data, key, source) for key in _REQUIRED_TEXT}
    if not texts["path"].startswith("/"):
        raise ManifestError(f"{source}: path: {texts['path']!r} must start with \"/\"")
    return ServerManifest(
        name=name, **texts, workers=_workers(data, source), port=_port(data, source),
        version=_version(data, source, poms),
        jvm_options=_optional_text(data, "jvm_options", source),
        version_artifact=_version_artifact(data, source), role=_role(data, source),
        **_default_workers(data, source), **_blocking_pool(data, source),
        **_db_pool(data, source), **_framework_packages(data, source),
        **_jdks(data, source), beyond_write_up=_beyond_write_up(data, source),
        **_executors(data, source), **_transports(data, source),
        **_protocols(data, source),
    )


_EXECUTOR_NAMES = {POOL: "a pool", VIRTUAL: "virtual threads"}


def _executors(data: dict, source: str) -> dict[str, object]:
    """Where a framework can run its blocking work, of EXECUTOR's values, its own way first
    (the value it runs with when EXECUTOR is left empty), and the page that says so."""
    meanings = {EXECUTORS: f"where it runs blocking work, of {', '.join(EXECUTOR.values)}, "
                           f"its own way first, comma-separated",
                EXECUTORS_SOURCE: "the page that says how the framework runs blocking work"}
    if not _framework_keys(data, source, meanings, "/blocking endpoint"):
        return {}
    executors = _axis_values(data, EXECUTORS, EXECUTOR, f"{meanings[EXECUTORS]}, each once",
                             source)
    return {"executor": executors[0], EXECUTORS: executors,
            EXECUTORS_SOURCE: _required_text(data, EXECUTORS_SOURCE, source)}


def _axis_values(data: dict, key: str, axis: Axis, meaning: str,
                 source: str) -> tuple[str, ...]:
    """A key listing some of an axis's values, comma-separated, each once (Axis.parse's
    rule); ManifestError saying what the key means otherwise."""
    text = _required_text(data, key, source)
    values = axis.parse(text)
    if not values:
        listed = ", ".join(one.strip() for one in text.split(","))
        raise ManifestError(f"{source}: {key}: {listed!r} is not {meaning}")
    return values


def _transports(data: dict, source: str) -> dict[str, object]:
    """The I/O engines a server runs on, of TRANSPORT's values, its own first; and, for a
    framework, the page that says how it is given each (the reference is given none)."""
    meaning = (f"the I/O engines it runs on, of {', '.join(TRANSPORT.values)}, its own first, "
               f"comma-separated, each once")
    transports = _axis_values(data, TRANSPORTS, TRANSPORT, meaning, source)
    cited = {TRANSPORTS_SOURCE: "the page that says how the framework is given each engine"}
    if not _framework_keys(data, source, cited, "TRANSPORT choice"):
        return {TRANSPORTS: transports}
    return {TRANSPORTS: transports,
            TRANSPORTS_SOURCE: _required_text(data, TRANSPORTS_SOURCE, source)}


def _protocols(data: dict, source: str) -> dict[str, object]:
    """What a server speaks on its port, of PROTOCOL's values, h1 first; and, when it
    speaks more, the page that says how it is given each."""
    meaning = (f"what it speaks on its port, of {', '.join(PROTOCOL.values)}, "
               f"{PROTOCOL.default} first, comma-separated, each once")
    if PROTOCOLS not in data:
        return {}
    protocols = _axis_values(data, PROTOCOLS, PROTOCOL, meaning, source)
    if protocols[0] != PROTOCOL.default:
        raise ManifestError(f"{source}: {PROTOCOLS}: {', '.join(protocols)!r} is not {meaning}")
    if protocols == (PROTOCOL.default,):
        return {PROTOCOLS: protocols,
                PROTOCOLS_SOURCE: _optional_text(data, PROTOCOLS_SOURCE, source)}
    return {PROTOCOLS: protocols, PROTOCOLS_SOURCE: _required_text(data, PROTOCOLS_SOURCE, source)}


def _jdks(data: dict, source: str) -> dict[str, object]:
    """The JDKs a framework runs on, of those the lab offers, and the page that says so; the
    reference (no JVM) has none."""
    meanings = {JDKS: f"the JDKs it runs on, of {', '.join(JDK.values)}, comma-separated",
                JDKS_SOURCE: "the page that says which JDKs it needs"}
    if not _framework_keys(data, source, meanings, "JVM"):
        return {}
    jdks = tuple(one.strip() for one in _required_text(data, JDKS, source).split(","))
    unknown = [one for one in jdks if one not in JDK.values]
    if unknown:
        raise ManifestError(f"{source}: {JDKS}: {unknown[0]!r} is not a JDK the lab offers "
                            f"({', '.join(JDK.values)})")
    return {JDKS: jdks, JDKS_SOURCE: _required_text(data, JDKS_SOURCE, source)}


def _beyond_write_up(data: dict, source: str) -> bool:
    value = data.get(BEYOND_WRITE_UP, False)
    if not isinstance(value, bool):
        raise ManifestError(f"{source}: {BEYOND_WRITE_UP}: {value!r} is not true or false")
    return value


def _load_toml(text: str, source: str) -> dict:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ManifestError(f"{source}: not valid TOML: {error}") from error


def _required_text(data: dict, key: str, source: str) -> str:
    if key not in data:
        raise ManifestError(f"{source}: {key}: missing (a non-empty string)")
    value = _optional_text(data, key, source)
    if not value.strip():
        raise ManifestError(f"{source}: {key}: must be a non-empty string")
    return value


def _optional_text(data: dict, key: str, source: str) -> str:
    value = data.get(key, "")
    if not isinstance(value, str):
        raise ManifestError(f"{source}: {key}: {value!r} is not a string")
    return value


def _is_integer(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _workers(data: dict, source: str) -> int | str:
    if "workers" not in data:
        raise ManifestError(f"{source}: workers: missing (a count, or \"{CPUS}\")")
    workers = data["workers"]
    if workers == CPUS or (_is_integer(workers) and workers > 0):
        return workers
    raise ManifestError(f"{source}: workers: {workers!r} is not a positive integer "
                        f"or \"{CPUS}\" (one per CPU)")


def _default_workers(data: dict, source: str) -> dict[str, str]:
    """default_workers (checked on 1 to 1024 CPUs) and its source, for a framework."""
    expression = _optional_text(data, "default_workers", source)
    cited = _optional_text(data, "default_workers_source", source)
    if data.get("role") == ROLE_REFERENCE and not expression:
        return {}
    if not expression or not cited:
        missing = "default_workers" if not expression else "default_workers_source"
        raise ManifestError(f"{source}: {missing}: missing (the framework's documented default "
                            f"worker count, e.g. \"2 * cpus\", and where it is documented)")
    _check_expression("default_workers", expression, source)
    return {"default_workers": expression, "default_workers_source": cited}


def _check_expression(key: str, expression: str, source: str) -> None:
    """An expression over the CPUs must give a count on 1 to 1024 CPUs."""
    try:
        for cpus in (1, 2, 1024):
            worker_count(expression, cpus)
    except WorkerCountError as error:
        raise ManifestError(f"{source}: {key}: {error}") from error


def _depends_on_cpus(expression: str) -> bool:
    return re.search(rf"\b{CPUS}\b", expression) is not None


_BLOCKING_MEANING = {
    BLOCKING_POOL: f"the most threads of the pool /blocking runs on: a count, an expression "
                   f"over the CPUs such as \"10 * {CPUS}\", or \"{WORKERS_POOL}\"",
    "blocking_pool_source": "where the framework documents that pool and its size",
    "blocking_pool_kind": "what the pool's threads are",
    "blocking_thread_prefix": f"how the pool threads' names start, 1 to {THREAD_NAME_LIMIT} "
                              f"characters",
    "endpoints_source": "the framework's pages that /json, /delay and /blocking follow",
}


def _framework_keys(data: dict, source: str, meanings: dict[str, str], lacks: str) -> bool:
    """Keys a framework must give and the reference must not (it lacks the endpoints they
    are for): False for the reference (which gives none of them), True for a framework
    (which gives them all); else ManifestError naming the first key amiss."""
    if data.get("role") == ROLE_REFERENCE:
        given = [key for key in meanings if key in data]
        if given:
            raise ManifestError(f"{source}: {given[0]}: not for a reference, which has no "
                                f"{lacks}")
        return False
    for key, meaning in meanings.items():
        if key not in data:
            raise ManifestError(f"{source}: {key}: missing ({meaning})")
    return True


def _blocking_pool(data: dict, source: str) -> dict[str, str]:
    """The blocking pool and the endpoints' sources: each required of a framework, refused
    of the reference, which has no /blocking."""
    if not _framework_keys(data, source, _BLOCKING_MEANING, "/delay or /blocking endpoint"):
        return {}
    texts = {key: _required_text(data, key, source) for key in _BLOCKING_TEXT}
    prefix = texts["blocking_thread_prefix"]
    if len(prefix) > THREAD_NAME_LIMIT:
        raise ManifestError(f"{source}: blocking_thread_prefix: {prefix!r} is longer than the "
                            f"{THREAD_NAME_LIMIT} characters Linux keeps of a thread's name")
    return {BLOCKING_POOL: _blocking_pool_size_text(data[BLOCKING_POOL], source), **texts}


def _blocking_pool_size_text(value: object, source: str) -> str:
    if _is_integer(value) and value > 0:
        return str(value)
    if isinstance(value, str) and value.strip() == WORKERS_POOL:
        return WORKERS_POOL
    if not isinstance(value, str) or not value.strip():
        raise ManifestError(f"{source}: {BLOCKING_POOL}: {value!r} is not "
                            f"{_BLOCKING_MEANING[BLOCKING_POOL]}")
    _check_expression(BLOCKING_POOL, value, source)
    return value.strip()


_DB_MEANING = {
    DB_POOL: "the database connection pool's size, a count",
    "db_pool_source": "where the driver or framework documents that pool size",
    "db_driver": "the database driver and pool /db and /queries use",
}


def _db_pool(data: dict, source: str) -> dict[str, object]:
    """The database pool: required of a framework, refused of the reference (no /db)."""
    if not _framework_keys(data, source, _DB_MEANING, "/db or /queries endpoint"):
        return {}
    size = data[DB_POOL]
    if not _is_integer(size) or size < 1:
        raise ManifestError(f"{source}: {DB_POOL}: {size!r} is not {_DB_MEANING[DB_POOL]}")
    return {DB_POOL: size, **{key: _required_text(data, key, source) for key in _DB_TEXT}}


_PACKAGES_MEANING = {FRAMEWORK_PACKAGES: "the Java packages of the framework's own code, "
                                        "dotted names separated by commas (\"io.undertow, "
                                        "org.xnio\"), empty when the framework is Netty"}
_PACKAGE = re.compile(r"[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)*")


def _framework_packages(data: dict, source: str) -> dict[str, tuple[str, ...]]:
    """The framework's packages: required of a framework, refused of the reference."""
    if not _framework_keys(data, source, _PACKAGES_MEANING, "Java code to profile"):
        return {}
    text = _optional_text(data, FRAMEWORK_PACKAGES, source)
    packages = tuple(name.strip() for name in text.split(",") if name.strip())
    if not all(_PACKAGE.fullmatch(name) for name in packages):
        raise ManifestError(f"{source}: {FRAMEWORK_PACKAGES}: {text!r} is not "
                            f"{_PACKAGES_MEANING[FRAMEWORK_PACKAGES]}")
    return {FRAMEWORK_PACKAGES: packages}


def _port(data: dict, source: str) -> int:
    if "port" not in data:
        raise ManifestError(f"{source}: port: missing (an integer from 1 to 65535)")
    port = data["port"]
    if not _is_integer(port) or not 0 < port < 65536:
        raise ManifestError(f"{source}: port: {port!r} is not a port (1-65535)")
    return port


def _role(data: dict, source: str) -> str:
    role = data.get("role", ROLE_FRAMEWORK)
    if role not in ROLES:
        raise ManifestError(f"{source}: role: {role!r} is not one of "
                            f"{', '.join(repr(known) for known in ROLES)}")
    return role


def _version(data: dict, source: str, poms: tuple[PomFile, ...]) -> str:
    """The literal version, or the value of the Maven property that version_property names."""
    has_literal, has_property = "version" in data, "version_property" in data
    if has_literal and has_property:
        raise ManifestError(f"{source}: version, version_property: give exactly one "
                            f"(version only for a framework built without Maven)")
    if not has_literal and not has_property:
        raise ManifestError(f"{source}: version_property: missing: name the Maven property "
                            f"that pins the framework version (or, for a framework built "
                            f"without Maven, give version)")
    if has_literal:
        return _required_text(data, "version", source)
    return resolve_version_property(_required_text(data, "version_property", source), poms, source)


def resolve_version_property(name: str, poms: tuple[PomFile, ...], source: str) -> str:
    """The first pom's value of the property; a value that is itself ${...} is refused."""
    for pom in poms:
        value = maven_property(pom, name)
        if value is None:
            continue
        if "${" in value or not value:
            raise ManifestError(f"{source}: version_property: {name} is {value!r} in "
                                f"{pom.source}, not a literal version")
        return value
    searched = " or ".join(pom.source + ("" if pom.text is not None else " (no such file)")
                           for pom in poms) or "no pom.xml"
    raise ManifestError(f"{source}: version_property: {name} is not a property in {searched}")


def _version_artifact(data: dict, source: str) -> str:
    artifact = _optional_text(data, "version_artifact", source)
    if "version_property" in data and not artifact:
        raise ManifestError(f"{source}: version_artifact: missing: with version_property, "
                            f"name the framework's Maven artifact as \"group:artifact\"")
    if artifact and (artifact.count(":") != 1 or not all(artifact.split(":"))):
        raise ManifestError(f"{source}: version_artifact: {artifact!r} is not \"group:artifact\"")
    return artifact


def _pom_root(pom: PomFile) -> tuple[ElementTree.Element, str]:
    """The pom's root element and its namespace prefix ("{uri}" or "")."""
    try:
        root = ElementTree.fromstring(pom.text or "")
    except ElementTree.ParseError as error:
        raise ManifestError(f"{pom.source}: not valid XML: {error}") from error
    namespace = root.tag[:root.tag.index("}") + 1] if root.tag.startswith("{") else ""
    return root, namespace


def maven_property(pom: PomFile, name: str) -> str | None:
    """The value of <properties><name> in the pom, or None (also when there is no pom)."""
    if pom.text is None:
        return None
    root, namespace = _pom_root(pom)
    for properties in root.findall(f"{namespace}properties"):
        for prop in properties:
            if prop.tag == namespace + name:
                return (prop.text or "").strip()
    return None


def pom_modules(pom: PomFile) -> tuple[str, ...]:
    """The <modules><module> entries of a parent pom, as written, then those of its
    <profiles>: a module that only some builds include (Helidon's, in the profile a JDK 21+
    activates) is a module all the same."""
    root, namespace = _pom_root(pom)
    paths = (f"{namespace}modules/{namespace}module",
             f"{namespace}profiles/{namespace}profile/{namespace}modules/{namespace}module")
    return tuple((module.text or "").strip() for path in paths for module in root.findall(path))


def check_module(name: str, source: str, modules: tuple[str, ...], parent_source: str) -> None:
    """A server folder must be a <module> of the parent, or Maven would not build it."""
    if name not in modules:
        raise ManifestError(f"{source}: {name} is not a <module> in {parent_source}: "
                            f"add <module>{name}</module> there")


def check_display_names(manifests: tuple[ServerManifest, ...], sources: dict[str, str]) -> None:
    """No two servers share a display name; sources maps a name to its manifest's file."""
    seen: dict[str, str] = {}
    for manifest in manifests:
        if manifest.display_name in seen:
            raise ManifestError(f"{sources[manifest.name]}: display_name: "
                                f"{manifest.display_name!r} is also the display name in "
                                f"{seen[manifest.display_name]}")
        seen[manifest.display_name] = sources[manifest.name]


def _read_or_none(path: Path) -> str | None:
    return path.read_text() if path.is_file() else None


def discover(servers_dir: Path) -> tuple[ServerManifest, ...]:
    """Every servers/<name>/server.toml, the reference's too (is_reference), sorted by
    folder name; each Maven module is checked against servers/pom.xml. Errors name files
    relative to the repository."""
    shown = servers_dir.name
    parent = PomFile(f"{shown}/{POM_FILE}", _read_or_none(servers_dir / POM_FILE))
    if parent.text is None:
        raise ManifestError(f"{parent.source}: missing: the Maven parent that lists the servers")
    modules = pom_modules(parent)
    manifests, sources = [], {}
    for path in sorted(servers_dir.glob(f"*/{MANIFEST_FILE}")):
        name = path.parent.name
        sources[name] = f"{shown}/{name}/{MANIFEST_FILE}"
        text = path.read_text()
        data = _load_toml(text, sources[name])
        # Before parsing: a folder missing from servers/pom.xml hears that, not that its
        # version property is in no pom.
        if builds_with_maven(data.get("role", ROLE_FRAMEWORK), data.get("version_artifact")):
            check_module(name, sources[name], modules, parent.source)
        module_pom = PomFile(f"{shown}/{name}/{POM_FILE}", _read_or_none(path.parent / POM_FILE))
        manifests.append(parse_manifest(name, text, sources[name], (module_pom, parent)))
    if not manifests:
        raise ManifestError(f"no {MANIFEST_FILE} found under {servers_dir}")
    check_display_names(tuple(manifests), sources)
    return tuple(manifests)
