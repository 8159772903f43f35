"""The plans the runner's and the plan's tests share: a framework's manifest, servers of
it, and the bench settings of a plan."""

from __future__ import annotations

from dataclasses import replace

from httplab.manifest import ServerManifest, parse_manifest

MANIFEST = """display_name = "X"
framework = "X"
version = "1"
workers = "cpus"
worker_kind = "event loops"
default_workers = "2 * cpus"
default_workers_source = "the test's own"
blocking_pool = "10 * cpus"
blocking_pool_source = "the test's own"
blocking_pool_kind = "blocking threads"
blocking_thread_prefix = "x-blocking-"
endpoints_source = "the test's own"
db_pool = 10
db_pool_source = "the test's own"
db_driver = "the test's own"
framework_packages = "httplab.test"
transports = "epoll,nio,io_uring"
transports_source = "the test's own"
server_header = "X"
port = 8080
path = "/"
jdks = "17,21,25"
jdks_source = "the test's own"
executors = "pool,virtual"
executors_source = "the test's own"
"""
KNOWN = (parse_manifest("alpha", MANIFEST), parse_manifest("beta", MANIFEST))
# No primer, warm-up, ceiling or fairness unless a test asks for them.
BARE = {"primer": "0", "warmup": "0", "ceiling": "0", "fairness": "0"}


def plan_settings(servers: str = "all", threads: str = "10,5", connections: str = "500",
                  duration: str = "10s", **options: str) -> dict[str, str]:
    """The bench settings (flag -> text) of a plan: server_cpus="1" is --server-cpus 1."""
    return {**BARE, "servers": servers, "threads": threads, "connections": connections,
            "duration": duration, **{name.replace("_", "-"): text for name, text in options.items()}}


CPUS = frozenset({0, 1})
# Two frameworks and a reference, for PROFILE: each framework once per value, the reference once.
PROFILE_KNOWN = (parse_manifest("alpha", MANIFEST), parse_manifest("beta", MANIFEST),
                 replace(parse_manifest("ref", MANIFEST), role="reference", display_name="Ref",
                         framework_packages=()))


def reference_manifest() -> ServerManifest:
    """A reference server (nginx's role) of MANIFEST's fields that a reference has."""
    text = "\n".join(line for line in MANIFEST.replace('workers = "cpus"', "workers = 3")
                     .splitlines() if not line.startswith(("blocking", "endpoints", "db_",
                                                           "default_workers", "framework_",
                                                           "jdks", "executors", "transports_source")))
    return parse_manifest("ref", 'role = "reference"\n' + text.replace(
        'display_name = "X"', 'display_name = "R"'))
