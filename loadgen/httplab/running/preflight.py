"""What must hold before any load that only the backend and the machines can tell: the
checks about the settings alone are the plan's (plan.py). Each check raises BackendError
with the one line the user sees."""

from __future__ import annotations

from httplab.running.backends.base import (Backend, BackendError, check_open_files,
                                           ensure_port_free)
from httplab.running.database.base import DatabaseError
from httplab.running.plan import BenchPlan, needs_database


def preflight(plan: BenchPlan, backend: Backend) -> None:
    """Every check before any load, in the order they run; BackendError at the first that
    fails."""
    backend.check_available()  # the tools: docker and Compose, or java and wrk
    backend.check_engines()  # other machines' engines answer, their clocks close to ours
    if plan.fairness:
        backend.check_fairness_tools()
    check_open_files(max(plan.connections), backend.open_file_limit())
    if plan.profiled:
        backend.check_profiler()  # local: jattach and the agent on this host
    check_ports_free(plan)
    if needs_database(plan):
        try:
            backend.database.check_available()
        except DatabaseError as error:
            raise BackendError(str(error)) from error


def check_ports_free(plan: BenchPlan) -> None:
    """A server on this machine needs its port free at the target address; one on another
    machine (SERVER_HOST) is not ours to probe."""
    if plan.server_host is not None:
        return
    for port in sorted({server.port for server in plan.servers}):
        ensure_port_free(port, plan.target_address)
