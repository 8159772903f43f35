"""`httplab report`: rebuilds results.{json,md,csv} and the charts from raw wrk output (and
h2load's, where it ran), plain files or the members of the run's archive alike. Reported in
place, an interrupted run's plain raw files are archived first (results/run_archiving.py); a
run under way is left alone."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from httplab.results.assemble import record_of_manifest, with_warnings
from httplab.results.collect import cells_from_outcomes, find_raw_files
from httplab.results.latency_steps import (find_step_outcomes, latency_result, rebuilt_steps,
                                           step_rules)
from httplab.manifest import ServerManifest, discover
from httplab.model import BenchResult, Cell, CellStatus, HostInfo, RawArchive, RunKind, Workload
from httplab.presentation.publish import write_results
from httplab.results.raw_archive import archive_path
from httplab.results.run_archiving import archive_run, under_way
from httplab.results.store import read_results
from httplab.results.results_json.version import FORMAT_VERSION, ResultsFormatError
from httplab.commands.common import EXIT_USAGE, finish, say
from httplab.run_layout import RAW, RESULTS_JSON, UNDER_WAY, run_dir_of
from httplab.workloads import WORKLOAD_NAMES


def report(source: Path, out_dir: Path, image: Path | None, servers_dir: Path) -> int:
    """Rebuilds results.{json,md,csv} and the chart from raw wrk text, running nothing."""
    raw_dir = source / RAW if _is_run_dir(source) else source
    running = under_way(run_dir_of(raw_dir))
    if running is not None:
        say(f"error: {run_dir_of(raw_dir)} is a run under way (process {running.pid} on "
            f"{running.host}): report it once it ended (or, if no run goes on there, "
            f"remove its {UNDER_WAY})")
        return EXIT_USAGE
    try:
        earlier = _earlier_result(raw_dir)
    except ResultsFormatError as error:
        say(f"error: {error}")
        return EXIT_USAGE
    archive = _archived_in_place(raw_dir, out_dir)
    if earlier is not None and earlier.kind is RunKind.LATENCY:
        return _report_latency(replace(earlier, raw_archive=archive), raw_dir, out_dir, image)
    raw_files = find_raw_files(raw_dir)
    if not raw_files:
        say(f"error: no <server>-t<threads>-c<connections>.txt files in {raw_dir}")
        return EXIT_USAGE
    cells = cells_from_outcomes([raw.outcome() for raw in raw_files],
                                earlier.servers if earlier is not None else ())
    result = replace(_rebuilt_result(earlier, cells, servers_dir), raw_archive=archive)
    write_results(result, out_dir, image)
    return finish(result, out_dir, image)


def _report_latency(earlier: BenchResult, raw_dir: Path, out_dir: Path,
                    image: Path | None) -> int:
    """A make latency run, rebuilt from its oha JSON and resources files; the target and
    the host are the ones its results.json recorded."""
    latency = earlier.latency
    rules = step_rules(latency, earlier.settings, earlier.host.cores, earlier.servers)
    outcomes = find_step_outcomes(raw_dir, latency.slo_p99_us, latency.rates)
    if not outcomes:
        say(f"error: no <server>-q<rate>.oha.json files in {raw_dir}")
        return EXIT_USAGE
    steps = rebuilt_steps(latency, outcomes, rules)
    result = replace(earlier, format_version=FORMAT_VERSION,
                     latency=latency_result(steps, latency))
    write_results(result, out_dir, image)
    return finish(result, out_dir, image)


def _is_run_dir(source: Path) -> bool:
    """A run directory: its raw folder, or its archive, is in it."""
    return (source / RAW).is_dir() or archive_path(source).is_file()


def _archived_in_place(raw_dir: Path, out_dir: Path) -> RawArchive | None:
    """A run reported into its own folder has its plain raw files archived (as the run
    itself does when it ends); reported elsewhere, it is only read, and no archive is
    recorded."""
    run_dir = run_dir_of(raw_dir)
    if raw_dir.name != RAW or out_dir.resolve() != run_dir.resolve():
        return None
    return archive_run(run_dir)


def _earlier_result(raw_dir: Path) -> BenchResult | None:
    """The results.json beside the raw files, if this lab wrote them: it keeps the host."""
    candidate = run_dir_of(raw_dir) / RESULTS_JSON
    return read_results(candidate) if candidate.is_file() else None


def _cell_key(cell: Cell) -> tuple[str, Workload, int, int]:
    return cell.server, cell.workload, cell.threads, cell.connections


def _rebuilt_result(earlier: BenchResult | None, cells: tuple, servers_dir: Path) -> BenchResult:
    if earlier is not None:
        order = {_cell_key(c): i for i, c in enumerate(earlier.cells)}
        # A variant its framework cannot run left no raw files: its cells are kept as written.
        cells = (*cells, *(cell for cell in earlier.cells
                           if cell.status is CellStatus.NOT_APPLICABLE))
        cells = tuple(sorted(cells, key=lambda c: order.get(_cell_key(c), len(order))))
        return with_warnings(replace(earlier, format_version=FORMAT_VERSION, cells=cells))
    manifests = {variant.key: variant for m in _manifests_or_none(servers_dir)
                 for variant in (m, m.for_profile(True))}
    names = dict.fromkeys(cell.server for cell in cells)
    records = tuple(record_of_manifest(manifests[name]) for name in names if name in manifests)
    cells = tuple(sorted(cells, key=lambda c: (list(names).index(c.server),
                                               WORKLOAD_NAMES.index(c.workload.name),
                                               c.workload.delay_ms or 0, -c.threads,
                                               c.connections)))
    return with_warnings(BenchResult(
        FORMAT_VERSION, "unknown (rebuilt from raw wrk output)", None,
        HostInfo(hostname="unknown host (raw wrk output from elsewhere)"), records, cells))


def _manifests_or_none(servers_dir: Path) -> tuple[ServerManifest, ...]:
    return discover(servers_dir) if servers_dir.is_dir() else ()
