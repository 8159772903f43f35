"""What must hold before any load that only the backend and the machines can tell: the
checks about the settings alone are the plan's (plan.py). Each check raises BackendError
with the one line the user sees."""

from __future__ import annotations

from pathlib import Path

from httplab.axes import HTTP2_PROTOCOLS
from httplab.running.backends.base import PreflightChecks, check_open_files, ensure_port_free
from httplab.running.backend_error import BackendError
from httplab.running.database.base import DatabaseError
from httplab.running.plan import BenchPlan, needs_database


def preflight(plan: BenchPlan, backend: PreflightChecks, results_root: Path | None = None) -> None:
    """Every check before any load, in the order they run; BackendError at the first that
    fails. results_root: where the run's folder is made (REPO/results or --results-dir)."""
    backend.check_available()  # the tools: docker and Compose, or java and wrk
    backend.check_engines()  # other machines' engines answer, their clocks close to ours
    if plan.fairness:
        backend.check_fairness_tools()
    if any(server.protocol in HTTP2_PROTOCOLS for server in plan.servers):
        backend.check_h2load()  # make bench's tool for HTTP/2, and its primer's and warm-up's
    check_open_files(max(plan.connections), backend.open_file_limit())
    if plan.profiled:
        check_profile_folder(plan, results_root)
        backend.check_profiler()  # local: jattach and the agent on this host
    check_ports_free(plan)
    if needs_database(plan):
        try:
            backend.database.check_available()
        except DatabaseError as error:
            raise BackendError(str(error)) from error


def check_profile_folder(plan: BenchPlan, results_root: Path | None) -> None:
    """async-profiler splits its agent's arguments at commas, and with BACKEND=local the JVM
    writes each profile straight into the run's raw/ (in Docker it writes into the
    container's /tmp, copied out after): there, a comma in the path would fail every profile."""
    if results_root is None or not plan.profiled or plan.backend != "local":
        return
    folder = str(results_root.resolve())
    if "," in folder:
        raise BackendError(
            f"PROFILE=1 with BACKEND=local cannot write profiles under {folder}: async-profiler "
            "splits its arguments at commas, so the path may not hold one; move the repository "
            "or the results folder (--results-dir) to a path without a comma, or set PROFILE=0")


def check_ports_free(plan: BenchPlan) -> None:
    """A server on this machine needs its port free at the target address; one on another
    machine (SERVER_HOST) is not ours to probe."""
    if plan.server_host is not None:
        return
    for port in sorted({server.port for server in plan.servers}):
        ensure_port_free(port, plan.target_address)
