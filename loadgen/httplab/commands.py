"""The CLI's commands, each wiring the parts together; cli.py only parses arguments."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

from .assemble import assemble, record_of_manifest, with_warnings
from .backends.base import Backend, BackendError, ensure_port_free
from .collect import cells_from_outcomes, find_raw_files
from .compare import comparability_notes, compare_results, render_comparison
from .hostinfo import collect_host
from .labinfo import lab_commit
from .manifest import ServerManifest, discover
from .model import BenchResult, HostInfo
from .plan import BenchPlan, settings_of
from .progress import Progress
from .publish import write_results
from .results_store import RAW, new_run_dir, point_latest, read_results, utc_stamp
from .model import ServerOutcome
from .runner import Runner
from .serialize import FORMAT_VERSION, ResultsFormatError

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


def say(message: str) -> None:
    print(f"httplab: {message}", file=sys.stderr, flush=True)


def _refusal(plan: BenchPlan, backend: Backend) -> str | None:
    """Why the bench cannot start at all (a missing tool, a busy port), before any load."""
    try:
        backend.check_available()
        for port in sorted({server.port for server in plan.servers}):
            ensure_port_free(port)
    except BackendError as error:
        return str(error)
    return None


def bench(plan: BenchPlan, backend: Backend, results_root: Path, image: Path,
          cv_threshold: float, repo: Path) -> int:
    """Runs the plan; results are rewritten after every server, so a crash keeps them."""
    refusal = _refusal(plan, backend)
    if refusal:
        say(f"error: {refusal}")
        return EXIT_USAGE
    progress = Progress(plan)
    progress.announce(backend.name)
    try:
        backend.prepare(plan.servers)
    except BackendError as error:
        say(f"error: {error}")
        return EXIT_FAILED
    stamp, commit = utc_stamp(), lab_commit(repo)
    run_dir = new_run_dir(results_root, stamp)
    settings = settings_of(plan, backend.name, cv_threshold)
    host = collect_host(backend.versions())
    outcomes: list[ServerOutcome] = []

    def server_done(outcome: ServerOutcome) -> None:
        outcomes.append(outcome)
        write_results(assemble(outcomes, settings, host, stamp, commit), run_dir, image)
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
    if result.warnings:
        say(f"{len(result.warnings)} stability warning(s), listed under Warnings above and in "
            f"{out_dir / 'results.md'}")
    for cell in result.failed_cells:
        record = result.server(cell.server)
        log = f" (server output: {out_dir / record.log_file})" if record and record.log_file else ""
        say(f"FAILED {cell.server} t{cell.threads} c{cell.connections}: {cell.reason}{log}")
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
    cells = cells_from_outcomes([raw.outcome() for raw in raw_files])
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
        return with_warnings(replace(earlier, format_version=FORMAT_VERSION, cells=cells))
    manifests = {m.name: m for m in _manifests_or_none(servers_dir)}
    names = dict.fromkeys(cell.server for cell in cells)
    records = tuple(record_of_manifest(manifests[name]) for name in names if name in manifests)
    cells = tuple(sorted(cells, key=lambda c: (list(names).index(c.server), -c.threads)))
    return with_warnings(BenchResult(
        FORMAT_VERSION, "unknown (rebuilt from raw wrk output)", None,
        HostInfo(hostname="unknown host (raw wrk output from elsewhere)"), records, cells))


def _manifests_or_none(servers_dir: Path) -> tuple[ServerManifest, ...]:
    return discover(servers_dir) if servers_dir.is_dir() else ()


def compare(base: Path, new: Path) -> int:
    """Prints how the new run's Requests/sec compare with the base run's, cell by cell."""
    try:
        base_path, new_path = results_json_of(base), results_json_of(new)
        base_result, new_result = _read_for_compare(base_path), _read_for_compare(new_path)
    except ValueError as error:
        say(f"error: {error}")
        return EXIT_USAGE
    print(f"Requests/sec, base {base_path} vs new {new_path}")
    for note in comparability_notes(base_result, new_result):
        print(f"note: {note}")
    print(render_comparison(compare_results(base_result, new_result)), end="", flush=True)
    return EXIT_OK


def results_json_of(run: Path) -> Path:
    """A run directory's results.json, or the path itself when it names the file."""
    return run / "results.json" if run.is_dir() else run


def _read_for_compare(path: Path) -> BenchResult:
    if not path.is_file():
        raise ValueError(f"no results.json at {path}")
    try:
        return read_results(path)
    except (OSError, ValueError) as error:  # JSON, encoding and format errors are ValueErrors
        raise ValueError(f"cannot read {path}: {error}") from error
