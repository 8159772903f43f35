"""Turns raw output files into result cells: the one place that reads them.

A run's figures come from done.lua's JSON when it is there (exact numbers), and from
wrk's printed report otherwise (rounded, as printed; the only source for reports made
elsewhere). The server's CPU and memory come from the .resources.json beside them, the
host's stalls from the stall meter's .stalls.json, pooled with those of the meters on the
load generators' engines (.stalls.<N>.json) when there were any.

A run spread over several load generators left one report and JSON per generator
(<stem>.g1.txt, <stem>.g1.json, ...) and <stem>.generators.json, naming each one's
engine: their runs are merged into one (results/merge.py), which keeps each generator's
own run. One generator writes <stem>.txt and <stem>.json, as one machine always did.

An HTTP/2 cell (PROTOCOL h2c or h2) was measured by h2load instead: <stem>.h2load-run.txt
(its arguments and summary) and the record of its log of requests,
<stem>.h2load-latency.json (in runs before it, the log itself, <stem>.h2load-requests.tsv.gz),
read into the same run model; a run that spoke another protocol than its URL asked fails its cell,
saying both.

h2load's run after a measured run (FAIRNESS=1) left <stem>.h2load.txt and
<stem>.connections.json (in runs before it, the socket readings, <stem>.sockets.txt): each
becomes one of the cell's fairness runs. h2load output that cannot be read does not
fail the cell, whose wrk figures stand: it becomes a note on that round's wrk run ("fairness
unknown: ..."), as a latency that cannot be known does."""

from __future__ import annotations

import fnmatch
import gzip
import json
from dataclasses import dataclass, replace
from pathlib import Path

from httplab.loadtools.h2load.connections_record import (ConnectionBytes,
                                                         connections_from_readings,
                                                         connections_from_record)
from httplab.loadtools.h2load.latency_record import (H2loadLatency, latency_from_log,
                                                     latency_from_record)
from httplab.loadtools.h2load.measured_run import (TOOL as H2LOAD, protocol_failure,
                                                   read_h2load_run)
from httplab.loadtools.h2load.reading import fairness_run
from httplab.loadtools.stall_meter.report import pooled_host_stalls
from httplab.raw_files import generators_from_dict, resources_from_dict
from httplab.model import (Cell, CellStatus, FairnessRun, HostStalls, PinnedRun, ResourceUsage,
                           RunProfile, ServerRecord, Workload, WrkRun)
from httplab.outcomes import CellOutcome, GeneratorOutcome
from httplab.results.merge import merge_generator_runs
from httplab.results.pinned_record import record_from_dict as pinned_record_from_dict
from httplab.results.profile_record import record_from_dict
from httplab.results.profiles import run_profile
from httplab.results.raw_archive import (existing_raw_file, raw_file_exists, raw_names,
                                         read_raw_bytes, read_raw_text)
from httplab.run_layout import (CONNECTIONS_SUFFIX, GZIP_SUFFIX, H2LOAD_LATENCY_SUFFIX,
                                MeasuredName, RunFiles, RunStem, parse_measured_name,
                                run_dir_of)
from httplab.workloads import workload_of_key
from httplab.loadtools.wrk.done_json import parse_done_json
from httplab.loadtools.wrk.text_report import parse_report


class RawOutputError(Exception):
    """A raw file that cannot be read as wrk output; the message names file and line."""


def read_run(text_path: Path | None, json_path: Path | None) -> WrkRun:
    if json_path is not None and raw_file_exists(json_path):
        return _parse(parse_done_json, json_path)
    if text_path is not None and raw_file_exists(text_path):
        return _parse(parse_report, text_path)
    raise RawOutputError(f"no wrk output at {text_path}")


def read_h2load_files(summary_path: Path, requests_path: Path | None) -> WrkRun:
    """A measured h2load run from its summary and the record of its log of requests (or
    the log itself, gzipped or not)."""
    if requests_path is None or not raw_file_exists(requests_path):
        raise RawOutputError(f"no h2load log of requests beside {summary_path}")
    try:
        return read_h2load_run(read_raw_text(summary_path),
                               read_h2load_latency(requests_path),
                               str(summary_path), str(requests_path))
    except (OSError, EOFError, ValueError) as error:
        raise RawOutputError(str(error)) from error


def read_h2load_latency(path: Path) -> H2loadLatency:
    """<stem>.h2load-latency.json, or the log it is reduced from (.tsv, .tsv.gz)."""
    if path.name.endswith(H2LOAD_LATENCY_SUFFIX):
        return latency_from_record(json.loads(read_raw_text(path)), str(path))
    return latency_from_log(h2load_log_text(path), str(path))


def h2load_log_text(path: Path) -> str:
    """h2load's log of requests, gzipped (.tsv.gz) or as h2load wrote it."""
    data = read_raw_bytes(path)
    if path.name.endswith(GZIP_SUFFIX):
        data = gzip.decompress(data)
    return data.decode("utf-8", errors="replace")


def read_connection_bytes(path: Path, connections: int) -> ConnectionBytes:
    """<stem>.connections.json, or the socket readings it is reduced from (.sockets.txt)."""
    if path.name.endswith(CONNECTIONS_SUFFIX):
        return connections_from_record(json.loads(read_raw_text(path)), str(path))
    return connections_from_readings(read_raw_text(path), connections, str(path))


def _parse(parser, path: Path) -> WrkRun:
    try:
        return parser(read_raw_text(path), str(path))
    except ValueError as error:
        raise RawOutputError(str(error)) from error


def read_resources(path: Path | None) -> ResourceUsage:
    if path is None or not raw_file_exists(path):
        return ResourceUsage(unavailable="not sampled")
    try:
        return resources_from_dict(json.loads(read_raw_bytes(path)))
    except (ValueError, TypeError) as error:
        return ResourceUsage(unavailable=f"cannot read {path}: {error}")


def read_stalls(path: Path | None, engine_paths: tuple[Path, ...] = ()
                ) -> HostStalls | None:
    """The stall meters' figures, this host's (path) and the load generators' engines',
    pooled; None where none ran (runs made before the meter existed)."""
    paths = ([path] if path is not None else []) + list(engine_paths)
    if not paths:
        return None
    try:
        return pooled_host_stalls([json.loads(read_raw_bytes(each)) for each in paths])
    except (OSError, ValueError) as error:  # StallReportError and JSON errors are ValueErrors
        names = ", ".join(each.name for each in paths)
        return HostStalls(unavailable=f"cannot read {names}: {error}")


def engine_stalls_paths(files: RunFiles) -> tuple[Path, ...]:
    """The stall records the load generators' engines left beside a run, by engine."""
    folder = files.stem.parent
    found = {files.engine_stalls_index(name): folder / name
             for name in fnmatch.filter(raw_names(folder), files.engine_stalls_pattern())}
    return tuple(found[index] for index in sorted(i for i in found if i is not None))


UNREADABLE_EVENT = "unknown"  # the event of a profile whose record cannot be read


def read_profile(record_path: Path | None, framework_packages: tuple[str, ...],
                 measured_cpu_seconds: float | None) -> RunProfile | None:
    """The run's profile from the profiler's record and the collapsed stacks it names beside
    it; None without a record (the run was not profiled)."""
    if record_path is None or not raw_file_exists(record_path):
        return None
    try:
        record = record_from_dict(json.loads(read_raw_bytes(record_path)))
    except (OSError, ValueError, TypeError) as error:
        return RunProfile(UNREADABLE_EVENT, None, measured_cpu_seconds=measured_cpu_seconds,
                          failure=f"cannot read {record_path}: {error}")
    collapsed = _beside(record_path, record.collapsed)
    flame_graph = _beside(record_path, record.flame_graph)
    source = str(collapsed) if collapsed else f"{record_path.name} names none"
    profile = run_profile(record, _text_if_there(collapsed), framework_packages,
                          measured_cpu_seconds, source)
    return replace(profile, collapsed_file=_in_run_if_there(collapsed),
                   flame_graph_file=_in_run_if_there(flame_graph))


def read_pinned(record_path: Path | None) -> PinnedRun | None:
    """The run's pinned virtual threads from their record; None without one (its blocking
    work did not run on virtual threads)."""
    if record_path is None or not raw_file_exists(record_path):
        return None
    try:
        return pinned_record_from_dict(json.loads(read_raw_bytes(record_path))).run
    except (OSError, ValueError, TypeError, AttributeError) as error:
        return PinnedRun(failure=f"cannot read {record_path}: {error}")


def _beside(record_path: Path, name: str | None) -> Path | None:
    """The file the record names, beside it."""
    return record_path.parent / name if isinstance(name, str) and name else None


def _text_if_there(path: Path | None) -> str | None:
    return read_raw_text(path) if path is not None and raw_file_exists(path) else None


def _in_run_if_there(path: Path | None) -> str | None:
    """raw/<stem>.collapsed.txt: relative to the run directory, when the file is there."""
    if path is None or not raw_file_exists(path):
        return None
    return str(path.relative_to(run_dir_of(path.parent)))


def _readable_run(outcome: CellOutcome) -> tuple[WrkRun | None, str | None]:
    """The run's figures when its load tool left any (with the connections it was asked
    for, which wrk's done() cannot see), else why not."""
    try:
        run = (read_h2load_files(outcome.h2load_run_path, outcome.h2load_requests_path)
               if outcome.h2load_run_path is not None
               else read_run(outcome.text_path, outcome.json_path))
    except RawOutputError as error:
        return None, str(error)
    if run.connections is None:
        run = replace(run, connections=outcome.connections)
    return run, None


def zero_requests_reason(run: WrkRun) -> str:
    errors = run.errors
    return (f"no request completed in {run.duration_s:.2f} s (socket errors: connect "
            f"{errors.connect}, read {errors.read}, write {errors.write}, timeout "
            f"{errors.timeout}; non-2xx/3xx {run.non_2xx_3xx})")


def _run_or_failure(outcome: CellOutcome) -> tuple[WrkRun | None, str | None]:
    """A failed run keeps whatever figures wrk gave, so nothing measured is lost."""
    if outcome.generators:
        return _merged_run_or_failure(outcome)
    run, unreadable = _readable_run(outcome)
    if outcome.failure:
        return run, outcome.failure
    if run is None:
        return None, unreadable
    if run.tool == H2LOAD and (spoke_other := protocol_failure(run)):
        return run, spoke_other
    return run, zero_requests_reason(run) if run.requests == 0 else None


def generator_name(generator: GeneratorOutcome) -> str:
    return f"generator {generator.index}" + (f" ({generator.engine})" if generator.engine else "")


def _generator_run(generator: GeneratorOutcome) -> tuple[WrkRun | None, str | None]:
    """One generator's own run, with its engine, and its share of the load where wrk's
    output lacks it (an unknown share, 0, stays unknown); else why it cannot be read."""
    try:
        run = read_run(generator.text_path, generator.json_path)
    except RawOutputError as error:
        return None, str(error)
    return replace(run, engine=generator.engine or None,
                   threads=run.threads if run.threads is not None else generator.threads or None,
                   connections=(run.connections if run.connections is not None
                                else generator.connections or None)), None


def _merged_run_or_failure(outcome: CellOutcome) -> tuple[WrkRun | None, str | None]:
    """The generators' runs merged; any generator's failure (or one that completed no
    request) fails the run, naming it, while the figures of every generator that left any
    stay in the merge."""
    runs, failures = [], []
    for generator in sorted(outcome.generators, key=lambda g: g.index):
        run, failure = _generator_run(generator)
        if run is not None:
            runs.append(run)
            failure = zero_requests_reason(run) if run.requests == 0 else None
        if generator.failure or failure:
            failures.append(f"{generator_name(generator)}: {generator.failure or failure}")
    if outcome.failure:  # the run's own, such as the server stopping during it
        failures.insert(0, outcome.failure)
    if not runs:
        return None, "; ".join(failures)
    merged = merge_generator_runs(runs)
    if merged.connections is None:
        merged = replace(merged, connections=outcome.connections)
    if failures:
        return merged, "; ".join(failures)
    return merged, zero_requests_reason(merged) if merged.requests == 0 else None


def read_fairness(outcome: CellOutcome) -> tuple[FairnessRun | None, str | None]:
    """h2load's run after this measured run, if one ran; else why its output cannot be read."""
    if outcome.h2load_path is None:
        return None, None
    h2load, sockets = outcome.h2load_path, outcome.sockets_path
    try:
        h2load_text = read_raw_text(h2load)
        counted = None if sockets is None else read_connection_bytes(sockets,
                                                                     outcome.connections)
        return fairness_run(h2load_text, counted, outcome.connections, str(h2load)), None
    except (OSError, ValueError) as error:
        return None, str(error)


def _round_with_fairness(outcome: CellOutcome, rounds: int
                         ) -> tuple[WrkRun | None, str | None, FairnessRun | None]:
    """The round's wrk run (or why it failed) and its h2load run; h2load output that
    cannot be read is a note on the wrk run, or part of the failure when there is none."""
    run, failure = _run_or_failure(outcome)
    fairness, unreadable = read_fairness(outcome)
    if unreadable is None:
        return run, failure, fairness
    if run is None:  # the failure names the round already
        return None, f"{failure}; fairness unknown: {unreadable}", None
    after = f" (h2load after round {outcome.repeat})" if rounds > 1 else ""
    return replace(run, notes=(*run.notes, f"fairness unknown{after}: {unreadable}")), failure, None


def cell_from_outcomes(outcomes: list[CellOutcome],
                       framework_packages: tuple[str, ...] = ()) -> Cell:
    """All measured runs of one cell, and h2load's runs after them; any failed run fails
    the cell and says which, while the figures of every run that has any stay in the cell.
    Each run's profile (when profiled) has its layers told by the server's framework
    packages."""
    first = outcomes[0]
    key = dict(server=first.server, threads=first.threads, connections=first.connections,
               workload=first.workload)
    runs, usages, reasons, rounds, fairness, profiles, stalls, pinned = ([] for _ in range(8))
    for outcome in sorted(outcomes, key=lambda o: o.repeat):
        run, failure, fairness_run = _round_with_fairness(outcome, len(outcomes))
        if fairness_run is not None:
            fairness.append(fairness_run)
        if failure:
            reasons.append(failure if len(outcomes) == 1 else f"round {outcome.repeat}: {failure}")
        if run is not None:
            runs.append(run)
            usages.append(read_resources(outcome.resources_path))
            rounds.append(outcome.repeat)
            profiles.append(read_profile(outcome.profile_path, framework_packages,
                                         usages[-1].cpu_seconds))
            stalls.append(read_stalls(outcome.stalls_path, outcome.engine_stalls_paths))
            pinned.append(read_pinned(outcome.pinned_path))
    status = CellStatus.FAILED if reasons else CellStatus.OK
    return Cell(**key, status=status, runs=tuple(runs), reason="; ".join(reasons) or None,
                resources=tuple(usages), rounds=tuple(rounds), fairness=tuple(fairness),
                profiles=tuple(profiles) if any(profiles) else (),
                host_stalls=tuple(stalls) if any(stalls) else (),
                pinned=tuple(pinned) if any(pinned) else ())


def cells_from_outcomes(outcomes: list[CellOutcome],
                        servers: tuple[ServerRecord, ...] = ()) -> tuple[Cell, ...]:
    """Groups runs into cells, in the order each cell first appears; `servers` (their
    records) give each one's framework packages for its profiles' layers."""
    groups: dict[tuple[str, Workload, int, int], list[CellOutcome]] = {}
    for outcome in outcomes:
        key = (outcome.server, outcome.workload, outcome.threads, outcome.connections)
        groups.setdefault(key, []).append(outcome)
    packages = framework_packages_of(servers)
    not_applicable = {record.name: record.not_applicable for record in servers
                      if record.not_applicable}
    return tuple(_not_applicable_or(cell_from_outcomes(group, packages.get(server, ())),
                                    not_applicable.get(server))
                 for (server, *_), group in groups.items())


def _not_applicable_or(cell: Cell, reason: str | None) -> Cell:
    """A cell of a variant its framework cannot run says so, and why, rather than failed."""
    if reason is None:
        return cell
    return replace(cell, status=CellStatus.NOT_APPLICABLE, reason=reason, runs=(),
                   resources=(), rounds=())


def framework_packages_of(servers: tuple[ServerRecord, ...]) -> dict[str, tuple[str, ...]]:
    """Each server's (by its key, as cells name it) framework packages."""
    return {server.name: server.framework_packages for server in servers}


@dataclass(frozen=True)
class RawFile:
    """One measured run's raw output, found by name: <stem>.txt, or with several load
    generators <stem>.g<N>.txt (and .json) each, beside <stem>.generators.json."""

    run: RunStem
    files: RunFiles  # raw/netty-t10-c500-r2 and the suffixes beside it
    generator_indexes: tuple[int, ...] = ()  # those with a report, when spread

    @property
    def spread(self) -> bool:
        """Run over several load generators."""
        return bool(self.generator_indexes) or raw_file_exists(self.files.generators)

    def outcome(self) -> CellOutcome:
        key = (self.run.server, self.run.threads, self.run.connections)
        files = self.files
        beside = dict(repeat=self.run.round_number,
                      resources_path=existing_raw_file(files.resources),
                      h2load_path=existing_raw_file(files.h2load),
                      sockets_path=(existing_raw_file(files.connections)
                                    or existing_raw_file(files.sockets)),
                      workload=workload_of_key(self.run.workload),
                      profile_path=existing_raw_file(files.profile), stalls_path=existing_raw_file(files.stalls),
                      engine_stalls_paths=engine_stalls_paths(files),
                      pinned_path=existing_raw_file(files.pinned))
        if raw_file_exists(files.h2load_run):
            return CellOutcome(*key, h2load_run_path=files.h2load_run,
                               h2load_requests_path=h2load_requests_of(files),
                               **beside)
        if not self.spread:
            return CellOutcome(*key, files.text, existing_raw_file(files.json), **beside)
        return CellOutcome(*key, generators=self._generators(), **beside)

    def _generators(self) -> tuple[GeneratorOutcome, ...]:
        """As the runner recorded them; without its record (or with one that cannot be
        read), by file name, with engines and each one's share of the load unknown."""
        try:
            recorded = json.loads(read_raw_bytes(self.files.generators))
            return generators_from_dict(recorded, self.files.stem.parent)
        except (OSError, ValueError):  # RawFileError and JSON errors are ValueErrors
            pass
        return tuple(GeneratorOutcome(index, "", 0, 0, self.files.generator(index).text,
                                      existing_raw_file(self.files.generator(index).json))
                     for index in self.generator_indexes)


def h2load_requests_of(files: RunFiles) -> Path | None:
    """The record of h2load's log of requests, else the log (gzipped, else as written)."""
    return (existing_raw_file(files.h2load_latency)
            or existing_raw_file(files.h2load_requests_gzipped)
            or existing_raw_file(files.h2load_requests))


def find_raw_files(directory: Path) -> list[RawFile]:
    """Every measured run in a directory, by name: <server>-t<threads>-c<connections>
    [-r<repeat>].txt, and runs over several generators (.g<N>.txt, .generators.json)."""
    found: dict[str, RawFile] = {}
    spread: dict[str, tuple[MeasuredName, set[int]]] = {}
    for file_name in raw_names(directory):
        name = parse_measured_name(file_name)
        if name is not None and not name.spread:
            found[name.written] = _raw_file(name, directory)
        elif name is not None:
            _, indexes = spread.setdefault(name.written, (name, set()))
            if name.generator is not None:
                indexes.add(name.generator)
    for written, (name, indexes) in spread.items():
        found.setdefault(written, _raw_file(name, directory, tuple(sorted(indexes))))
    return sorted(found.values(), key=lambda raw: raw.files.text.name)  # in the reports' order


def _raw_file(name: MeasuredName, directory: Path, generators: tuple[int, ...] = ()) -> RawFile:
    return RawFile(name.stem, RunFiles(directory / name.written), generators)
