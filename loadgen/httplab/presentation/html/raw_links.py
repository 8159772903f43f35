"""The run folder's files as a run's page links them: each cell's measured runs (or each
server's fixed-rate steps) with their raw files, the flame graph first; the server and
database logs; the unmeasured runs; results.json, .md and .csv; and every other file, so
that nothing in the folder is hidden. Only files that are there are linked. A finished
run's raw files are members of its archive (run_layout.RAW_ARCHIVE): each links the archive
with its member's name after the # (raw.tar.xz#raw/<name>), and the archive's members are
listed. Pure: the names come from the caller (the set of the folder's files, and of the
archive's members) and are read with run_layout."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from urllib.parse import quote

from httplab.model import BenchResult, Cell, RunKind
from httplab.presentation.views.latency_figures import latency_servers
from httplab.presentation.wording.latency import rate_text, server_label
from httplab.results.stability import cell_name
from httplab.run_layout import (
    COLLAPSED_SUFFIX, CONNECTIONS_SUFFIX, FLAME_GRAPH_SUFFIX, GENERATORS_SUFFIX, GZIP_SUFFIX,
    H2LOAD_LATENCY_SUFFIX, H2LOAD_REQUESTS_SUFFIX, H2LOAD_RUN_SUFFIX, H2LOAD_SUFFIX, JSON_SUFFIX,
    OHA_SUFFIX, PINNED_RECORDING_SUFFIX, PINNED_SUFFIX, PROFILE_SUFFIX, RAW, RAW_ARCHIVE,
    RESOURCES_SUFFIX, RESULTS_CSV, RESULTS_JSON, RESULTS_MD, SOCKETS_SUFFIX, STALLS_SUFFIX,
    TEXT_SUFFIX, UNMEASURED, UNMEASURED_LOG, RunStem, StepStem, database_log,
    engine_stalls_index, parse_measured_name, parse_step_name, workload_key)

# What each raw file of a run is, in the order a run's files are listed (a name takes the
# longest suffix it ends in).
FILE_KINDS = (
    (FLAME_GRAPH_SUFFIX, "flame graph"), (TEXT_SUFFIX, "wrk report"), (JSON_SUFFIX, "wrk JSON"),
    (H2LOAD_RUN_SUFFIX, "h2load summary"), (H2LOAD_REQUESTS_SUFFIX, "h2load requests"),
    (H2LOAD_REQUESTS_SUFFIX + GZIP_SUFFIX, "h2load requests"),
    (H2LOAD_LATENCY_SUFFIX, "h2load latency"),
    (OHA_SUFFIX, "oha JSON"), (GENERATORS_SUFFIX, "generators' record"),
    (RESOURCES_SUFFIX, "CPU and memory"), (H2LOAD_SUFFIX, "h2load report"),
    (SOCKETS_SUFFIX, "socket readings"), (CONNECTIONS_SUFFIX, "connections"),
    (PROFILE_SUFFIX, "profile record"),
    (COLLAPSED_SUFFIX, "collapsed stacks"), (STALLS_SUFFIX, "stall meter"),
    (PINNED_SUFFIX, "pinned virtual threads"), (PINNED_RECORDING_SUFFIX, "JFR recording"),
)
_GENERATOR_PART = re.compile(r"\.g(?P<index>\d+)(?P<suffix>\..+)")
_SAFE_IN_HREF = "/@+,="  # kept as they are in an address: the names read as written


@dataclass(frozen=True)
class FileLink:
    path: str  # relative to the run folder: one of its files, or a member of `archive`
    text: str
    archive: str | None = None  # the archive it is a member of; None: a plain file

    @property
    def href(self) -> str:
        if self.archive is None:
            return quote(self.path, safe=_SAFE_IN_HREF)
        return f"{quote(self.archive)}#{quote(self.path, safe=_SAFE_IN_HREF)}"

    @property
    def is_flame_graph(self) -> bool:
        return self.path.endswith(FLAME_GRAPH_SUFFIX)


@dataclass(frozen=True)
class RunLinks:
    """One measured run's (or one step's) files, the flame graph first."""

    label: str  # "round 2", "20,000 req/s, round 1: held"
    files: tuple[FileLink, ...]


@dataclass(frozen=True)
class FileGroup:
    title: str  # the cell's name ("Netty t10 c500"), or the server's for its steps
    runs: tuple[RunLinks, ...]


@dataclass(frozen=True)
class RunFolder:
    results: tuple[FileLink, ...]
    groups: tuple[FileGroup, ...]
    server_logs: tuple[FileLink, ...]
    database_logs: tuple[FileLink, ...]
    unmeasured: tuple[FileLink, ...]
    other: tuple[FileLink, ...]  # every file none of the above claims
    archive: FileLink | None = None  # the archive of the raw files, when there is one
    members: tuple[FileLink, ...] = ()  # each of its members


def run_folder(result: BenchResult, files: frozenset[str],
               archived: frozenset[str] = frozenset()) -> RunFolder:
    """The links to the folder's files (`files`) and its archive's members (`archived`)."""
    every = files | archived
    stems = measured_stems(every)
    groups = FILE_GROUPS[result.kind](result, stems, every)
    results = tuple(FileLink(name, name) for name in (RESULTS_JSON, RESULTS_MD, RESULTS_CSV)
                    if name in every)
    logs = tuple(FileLink(record.log_file, record.label) for record in result.servers
                 if record.log_file in every)
    unmeasured = _unmeasured(every)
    databases = _database_logs(result, every)
    archive = FileLink(RAW_ARCHIVE, RAW_ARCHIVE) if RAW_ARCHIVE in files else None
    listed = [*results, *(link for group in groups for run in group.runs for link in run.files),
              *logs, *databases, *unmeasured, *filter(None, [archive])]
    claimed = {link.path for link in listed}
    other = tuple(FileLink(path, path) for path in sorted(every - claimed))
    members = tuple(FileLink(path, f"{RAW_ARCHIVE}#{path}") for path in sorted(archived))
    folder = RunFolder(results, groups, logs, databases, unmeasured, other, archive, members)
    return _into_archive(folder, archived - files)


def _unmeasured(files: frozenset[str]) -> tuple[FileLink, ...]:
    """raw/unmeasured.log (a line per unmeasured run), then their files, when kept."""
    log = f"{RAW}/{UNMEASURED_LOG}"
    prefix = f"{RAW}/{UNMEASURED}/"
    return (*([FileLink(log, UNMEASURED_LOG)] if log in files else []),
            *(FileLink(path, path.removeprefix(prefix))
              for path in sorted(files) if path.startswith(prefix)))


def _into_archive(folder: RunFolder, archived: frozenset[str]) -> RunFolder:
    """Every link to a member of the archive (and no plain file) points into the archive."""
    def pointed(links: tuple[FileLink, ...]) -> tuple[FileLink, ...]:
        return tuple(replace(link, archive=RAW_ARCHIVE) if link.path in archived else link
                     for link in links)

    groups = tuple(replace(group, runs=tuple(replace(run, files=pointed(run.files))
                                             for run in group.runs))
                   for group in folder.groups)
    return replace(folder, results=pointed(folder.results), groups=groups,
                   server_logs=pointed(folder.server_logs),
                   database_logs=pointed(folder.database_logs),
                   unmeasured=pointed(folder.unmeasured), other=pointed(folder.other),
                   members=tuple(replace(link, archive=RAW_ARCHIVE) for link in folder.members))


def measured_stems(files: frozenset[str]) -> dict[str, RunStem | StepStem]:
    """Each measured run's or step's stem in the raw folder, as written, and what it says."""
    stems: dict[str, RunStem | StepStem] = {}
    for name in _raw_names(files):
        measured, step = parse_measured_name(name), parse_step_name(name)
        if measured is not None:
            stems[measured.written] = measured.stem
        elif step is not None:
            stems[name.removesuffix(OHA_SUFFIX)] = step
    return stems


def _raw_names(files: frozenset[str]) -> list[str]:
    """The names of the files directly in raw/, sorted."""
    prefix = f"{RAW}/"
    return sorted(path.removeprefix(prefix) for path in files
                  if path.startswith(prefix) and "/" not in path.removeprefix(prefix))


def stem_files(written: str, files: frozenset[str]) -> tuple[FileLink, ...]:
    """The raw files of one stem (<stem> then a dot, then what the file is), flame graph
    first, then in the order of FILE_KINDS."""
    links = [FileLink(f"{RAW}/{name}", file_kind(name[len(written):]))
             for name in _raw_names(files) if name.startswith(f"{written}.")]
    order = [text for _, text in FILE_KINDS]
    return tuple(sorted(links, key=lambda link: (
        order.index(link.text.rpartition(": ")[2]), link.path)))


def file_kind(ending: str) -> str:
    """What a raw file is from what follows its stem: '.txt' -> 'wrk report', '.g2.json'
    -> "generator 2: wrk JSON", '.stalls.2.json' -> "generator 2's engine: stall meter"."""
    generator = _GENERATOR_PART.fullmatch(ending)
    if generator is not None:
        return f"generator {generator['index']}: {file_kind(generator['suffix'])}"
    engine = engine_stalls_index(ending)
    if engine is not None:
        return f"generator {engine}'s engine: {file_kind(STALLS_SUFFIX)}"
    suffix, text = max(((suffix, text) for suffix, text in FILE_KINDS if ending.endswith(suffix)),
                       key=lambda kind: len(kind[0]))
    return text


def _cell_key(stem: RunStem) -> tuple:
    return stem.server, stem.workload, stem.threads, stem.connections


def _cell_groups(result: BenchResult, stems: dict[str, RunStem | StepStem],
                 files: frozenset[str]) -> list[FileGroup]:
    """A group per cell, in the result's order, then one per stem of no cell of it."""
    runs = {written: stem for written, stem in stems.items() if isinstance(stem, RunStem)}
    titles = {(cell.server, workload_key(cell.workload.key), cell.threads, cell.connections):
              _cell_title(result, cell) for cell in result.cells}
    for stem in runs.values():  # a run of no cell of the result: named as its files are
        titles.setdefault(_cell_key(stem), RunStem(stem.server, stem.threads, stem.connections,
                                                   workload=stem.workload).name)
    groups = []
    for key, title in titles.items():
        own = sorted((stem.round_number, written) for written, stem in runs.items()
                     if _cell_key(stem) == key)
        if own:
            groups.append(FileGroup(title, tuple(
                RunLinks(f"round {number}" if len(own) > 1 else "measured run",
                         stem_files(written, files)) for number, written in own)))
    return groups


def _cell_title(result: BenchResult, cell: Cell) -> str:
    return cell_name(cell, result.label(cell.server))


def _step_groups(result: BenchResult, stems: dict[str, RunStem | StepStem],
                 files: frozenset[str]) -> list[FileGroup]:
    """A group per server (and workload) of its fixed-rate steps, by round, the common
    rate's last."""
    order = {server: index for index, server in enumerate(latency_servers(result))}
    steps = sorted(((stem.server, stem.workload or ""), (stem.cost, stem.round_number,
                   stem.rate, stem.attempt), written)
                   for written, stem in stems.items() if isinstance(stem, StepStem))
    steps.sort(key=lambda step: order.get(step[0][0], len(order)))  # stable: keeps the rest
    groups: dict[tuple[str, str], list[RunLinks]] = {}
    for (server, workload), _, written in steps:
        groups.setdefault((server, workload), []).append(
            RunLinks(_step_label(result, written, stems[written]), stem_files(written, files)))
    return [FileGroup(" ".join(filter(None, (server_label(result, server), workload))),
                      tuple(runs)) for (server, workload), runs in groups.items()]


def _step_label(result: BenchResult, written: str, stem: StepStem) -> str:
    """'20,000 req/s, round 1: held'; 'common rate 10,000 req/s, round 2: held'."""
    text = f"{'common rate ' if stem.cost else ''}{rate_text(stem.rate)} req/s"
    text += f", attempt {stem.attempt}" if stem.attempt > 1 else ""
    text += f", round {stem.round_number}"
    raw_file = f"{RAW}/{written}{OHA_SUFFIX}"
    verdict = next((step.verdict.value for step in result.latency.steps
                    if step.raw_file == raw_file), None)
    return text if verdict is None else f"{text}: {verdict}"


def _database_logs(result: BenchResult, files: frozenset[str]) -> tuple[FileLink, ...]:
    """The database's log of each server and round (db and queries), or its one log."""
    settings = result.settings
    rounds = settings.repeat if settings else 1
    database = settings.database if settings else None
    candidates = [(database.log_file, "database")] if database and database.log_file else []
    candidates += [(f"{RAW}/{database_log(record.name, number, rounds)}",
                    record.label + (f", round {number}" if rounds > 1 else ""))
                   for record in result.servers for number in range(1, rounds + 1)]
    return tuple(FileLink(path, text) for path, text in dict(candidates).items() if path in files)


# A bench's (and a calibration's) files by cell, a latency run's by server and step.
FILE_GROUPS = {RunKind.BENCH: _cell_groups, RunKind.CALIBRATE: _cell_groups,
               RunKind.LATENCY: _step_groups}
