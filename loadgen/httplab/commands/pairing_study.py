"""`httplab pairing-study`: whether alternating pairs narrow a paired interval in fewer
minutes than whole rounds on this host (docs/method.md, "Whole rounds or alternating
pairs"). Checks the backend, builds the server's image or jar, runs both designs
interleaved on two backends' sides, and writes OUT.json and OUT.md."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Mapping
from datetime import datetime, timezone
from pathlib import Path

from httplab.commands.common import (EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE,
                                     interrupt_on_sigterm, say)
from httplab.commands.run_lifecycle import make_backend
from httplab.manifest import discover
from httplab.paths import servers_dir
from httplab.running.backend_error import BackendError
from httplab.running.backends.base import Backend, check_open_files, ensure_port_free
from httplab.running.hostinfo import collect_host, usable_cpu_set
from httplab.studies.pairing_flow import PairingFlow, StudyError
from httplab.studies.pairing_page import findings, study_document, study_page
from httplab.studies.pairing_plan import PairingPlan, make_pairing_plan

SECOND_SIDE_PROJECT = "httplab-pairing-b"  # Docker: side B's Compose project, beside A's


def run_pairing_study(settings: Mapping[str, str], repo: Path) -> int:
    """The study the settings ask for; PlanError on a bad setting, before anything."""
    plan = make_pairing_plan(settings, discover(servers_dir(repo)), frozenset(usable_cpu_set()))
    interrupt_on_sigterm()
    backend = make_backend(plan.bench, repo, settings["base-images"])
    return pairing_study(plan, side_backends(backend), repo / plan.out)


def side_backends(backend: Backend) -> tuple[Backend, Backend]:
    """Docker: side B's server in a Compose project of its own, beside side A's; a backend
    that serves several servers at once (local) serves both."""
    beside = getattr(backend, "beside", None)
    return (backend, beside(SECOND_SIDE_PROJECT)) if beside else (backend, backend)


def pairing_study(plan: PairingPlan, backends: tuple[Backend, Backend], out: Path) -> int:
    """Runs a study plan on its two sides' backends and writes out.json and out.md."""
    try:
        _check(plan, backends)
        say(f"pairing study: {plan.server.key} against itself, {plan.rounds} whole rounds and "
            f"{plan.starts} starts of {plan.pairs} pairs, {plan.load_seconds} s of load "
            f"plus starts and stops, on {backends[0].name}")
        backends[0].prepare((plan.server,))
    except BackendError as error:
        say(f"error: {error}")
        return EXIT_USAGE
    try:
        with tempfile.TemporaryDirectory(prefix="httplab-pairing-") as scratch:
            measured = PairingFlow(plan, backends, Path(scratch), say).run()
    except (StudyError, BackendError) as error:
        say(f"error: {error}")
        return EXIT_FAILED
    except KeyboardInterrupt:
        say("interrupted; every server stopped, nothing written")
        return EXIT_INTERRUPTED
    _write(plan, measured, backends[0], out)
    return EXIT_OK


def _check(plan: PairingPlan, backends: tuple[Backend, Backend]) -> None:
    """Before any load: each side's tools, the open files, both ports free."""
    for backend in dict.fromkeys(backends):
        backend.check_available()
    check_open_files(plan.bench.points[0].connections, backends[0].open_file_limit())
    for port in plan.ports:
        ensure_port_free(port)


def _write(plan: PairingPlan, measured, backend: Backend, out: Path) -> None:
    found = findings(measured)
    host = collect_host(backend.versions())
    date = datetime.now(timezone.utc).strftime("%Y-%m-%d")
    out.parent.mkdir(parents=True, exist_ok=True)
    json_path, page_path = out.with_suffix(".json"), out.with_suffix(".md")
    json_path.write_text(json.dumps(study_document(plan, measured, found, host, date),
                                    indent=2) + "\n")
    page_path.write_text(study_page(plan, measured, found, host, date))
    print(page_path.read_text(), flush=True)
    say(f"study in {json_path} and {page_path}")
