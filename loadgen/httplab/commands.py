"""The CLI's commands, each wiring the parts together; cli.py only parses arguments."""

from __future__ import annotations

import sys
from pathlib import Path

from .assemble import assemble, record_of_manifest, settings_of
from .backends.base import Backend, BackendError, ensure_port_free
from .collect import cell_from_outcome, find_raw_files
from .hostinfo import collect_host
from .manifest import ServerManifest, discover
from .model import BenchResult, HostInfo
from .plan import BenchPlan
from .progress import Progress
from .results_store import (RAW, new_run_dir, point_latest, read_results, utc_stamp,
                            write_results)
from .runner import Runner, ServerOutcome
from .serialize import FORMAT_VERSION, ResultsFormatError

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


def say(message: str) -> None:
    print(f"httplab: {message}", file=sys.stderr, flush=True)


def bench(plan: BenchPlan, backend: Backend, results_root: Path, image: Path) -> int:
    """Runs the plan; results are rewritten after every server, so a crash keeps them."""
    try:
        backend.check_available()
        for port in sorted({server.port for server in plan.servers}):
            ensure_port_free(port)
    except BackendError as error:
        say(f"error: {error}")
        return EXIT_USAGE
    progress = Progress(plan)
    progress.announce(backend.name)
    try:
        backend.prepare(plan.servers)
    except BackendError as error:
        say(f"error: {error}")
        return EXIT_FAILED
    stamp = utc_stamp()
    run_dir = new_run_dir(results_root, stamp)
    settings, host = settings_of(plan, backend.name), collect_host(backend.versions())
    outcomes: list[ServerOutcome] = []

    def server_done(outcome: ServerOutcome) -> None:
        outcomes.append(outcome)
        write_results(assemble(outcomes, settings, host, stamp), run_dir, image)
        point_latest(results_root, run_dir)

    try:
        Runner(backend, plan, run_dir / RAW, progress, server_done).run()
    except KeyboardInterrupt:
        say(f"interrupted; {len(outcomes)} finished server(s) kept in {run_dir}")
        return EXIT_INTERRUPTED
    return finish(read_results(run_dir / "results.json"), run_dir, image)


def finish(result: BenchResult, out_dir: Path, image: Path | None) -> int:
    print((out_dir / "results.md").read_text(), flush=True)
    say(f"results in {out_dir}" + (f", chart in {image}" if image else ""))
    for cell in result.failed_cells:
        say(f"FAILED {cell.server} t{cell.threads} c{cell.connections}: {cell.reason}")
    return EXIT_FAILED if result.failed_cells else EXIT_OK


def report(source: Path, out_dir: Path, image: Path | None, servers_dir: Path) -> int:
    """Rebuilds results.{json,md,csv} and the chart from raw wrk text, running nothing."""
    raw_dir = source / RAW if (source / RAW).is_dir() else source
    raw_files = find_raw_files(raw_dir)
    if not raw_files:
        say(f"error: no <server>-t<threads>-c<connections>.txt files in {raw_dir}")
        return EXIT_USAGE
    try:
        earlier = _earlier_result(raw_dir)
    except ResultsFormatError as error:
        say(f"error: {error}")
        return EXIT_USAGE
    cells = tuple(cell_from_outcome(raw.outcome()) for raw in raw_files)
    result = _rebuilt_result(earlier, cells, servers_dir)
    write_results(result, out_dir, image)
    return finish(result, out_dir, image)


def _earlier_result(raw_dir: Path) -> BenchResult | None:
    """The results.json beside the raw files, if this lab wrote them: it keeps the host."""
    candidate = raw_dir.parent / "results.json" if raw_dir.name == RAW else raw_dir / "results.json"
    return read_results(candidate) if candidate.is_file() else None


def _rebuilt_result(earlier: BenchResult | None, cells: tuple, servers_dir: Path) -> BenchResult:
    if earlier is not None:
        order = {(c.server, c.threads, c.connections): i for i, c in enumerate(earlier.cells)}
        cells = tuple(sorted(cells, key=lambda c: order.get((c.server, c.threads, c.connections),
                                                            len(order))))
        return BenchResult(FORMAT_VERSION, earlier.created_utc, earlier.settings, earlier.host,
                           earlier.servers, cells)
    manifests = {m.name: m for m in _manifests_or_none(servers_dir)}
    names = dict.fromkeys(cell.server for cell in cells)
    records = tuple(record_of_manifest(manifests[name]) for name in names if name in manifests)
    cells = tuple(sorted(cells, key=lambda c: (list(names).index(c.server), -c.threads)))
    return BenchResult(FORMAT_VERSION, "unknown (rebuilt from raw wrk output)", None,
                       HostInfo(hostname="unknown host (raw wrk output from elsewhere)"),
                       records, cells)


def _manifests_or_none(servers_dir: Path) -> tuple[ServerManifest, ...]:
    return discover(servers_dir) if servers_dir.is_dir() else ()
