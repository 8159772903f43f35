"""results/index.html: the runs in results/, newest first, a row each: when it ran, its
kind, its settings in brief, its servers, its headline figures, its warnings and host,
linking to the run's own page. Pure: publish.py reads the folders and writes the page.

A bench's headline figure per framework is its median Requests/sec at the run's headline
connection count (views/points.py), at its best thread setting; a latency run's is each
server's max sustainable rate."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from urllib.parse import quote

from httplab.model import PLAINTEXT, BenchResult, RunKind, Settings
from httplab.presentation.wording.calibration import noise_headlines
from httplab.presentation.wording.settings import spoken_list
from httplab.presentation.wording.formatting import MISSING
from httplab.presentation.html.templating import render
from httplab.presentation.views.latency_figures import latency_servers
from httplab.presentation.wording.latency import max_rate_text, server_label, slo_text
from httplab.presentation.views.points import (fastest, headline_cells, of_workload,
                                               reference_servers, run_workloads, server_order,
                                               shows_a_sweep)
from httplab.results.stats import cell_summary
from httplab.run_layout import RUN_PAGE

# A run's folder and created_utc are UTC stamps (results/store.py's utc_stamp).
_STAMP = re.compile(r"(\d{4})-(\d\d)-(\d\d)T(\d\d)[-:](\d\d)[-:](\d\d)Z?")
LATENCY, SWEEP, BENCH, CALIBRATION = "latency", "sweep", "bench", "calibration"
REBUILT = "rebuilt by report"  # settings not recorded: rebuilt from raw output alone
PROFILED = "profiled"
UNREADABLE = "unreadable"


@dataclass(frozen=True)
class ListedRun:
    folder: str  # the run's folder name in results/, e.g. "2026-11-24T15-07-00Z"
    result: BenchResult | None  # None when its results.json could not be read
    problem: str | None = None  # why not, in words
    # What its row links to: its page, or results.md in a run written before pages existed
    # (until `make report` rebuilds it).
    page: str = RUN_PAGE


@dataclass(frozen=True)
class Headline:
    """One workload's headline figures (workload None: the run has only one)."""

    workload: str | None
    figures: tuple[tuple[str, str], ...]  # (server label, figure)


@dataclass(frozen=True)
class RunRow:
    """One run as its row shows it; the texts are MISSING where the run cannot be read."""

    href: str | None
    date: str
    folder: str | None  # the folder's name where it is not the run's date
    sort_key: str  # the stamp's digits: the date column sorts by time
    kind: str
    settings: str
    servers: str
    headlines: tuple[Headline, ...]
    warnings: int | None
    host: str
    problem: str | None


def render_run_list(runs: Sequence[ListedRun]) -> str:
    rows = [run_row(run) for run in newest_first(runs)]
    return render("runs.html.j2", rows=rows, readable=sum(row.problem is None for row in rows),
                  missing=MISSING)


def newest_first(runs: Sequence[ListedRun]) -> list[ListedRun]:
    """By when each run was made (its folder's stamp when it cannot be read); runs
    without a date last."""
    return sorted(runs, key=lambda run: (bool(_sort_key(run)), _sort_key(run), run.folder),
                  reverse=True)


def _sort_key(run: ListedRun) -> str:
    return stamp_digits(run.result.created_utc if run.result else run.folder)


def stamp_digits(stamp: str) -> str:
    """'2026-11-24T15-07-00Z' -> '20261124150700'; '' for a name that is no stamp."""
    found = _STAMP.fullmatch(stamp)
    return "".join(found.groups()) if found else ""


def date_text(stamp: str) -> str:
    """'2026-11-24T15-07-00Z' -> '2026-11-24 15:07 UTC'; anything else as it is."""
    found = _STAMP.fullmatch(stamp)
    if not found:
        return stamp
    year, month, day, hour, minute, _ = found.groups()
    return f"{year}-{month}-{day} {hour}:{minute} UTC"


def run_row(run: ListedRun) -> RunRow:
    result, key = run.result, _sort_key(run)
    date = date_text(result.created_utc if result else run.folder)
    same = date == run.folder or (key and stamp_digits(run.folder) == key)
    folder = None if same else run.folder
    if result is None:
        return RunRow(None, date, folder, key, UNREADABLE, MISSING, MISSING, (), None, MISSING,
                      run.problem or UNREADABLE)
    return RunRow(f"{quote(run.folder)}/{run.page}", date, folder, key,
                  run_kind(result), settings_brief(result),
                  ", ".join(server_label(result, name) for name in run_servers(result)),
                  headlines(result), len(result.warnings), result.host.describe(), None)


def run_kind(result: BenchResult) -> str:
    """'bench', 'sweep', 'latency' or 'rebuilt by report', and ', profiled' with PROFILE=1."""
    if result.settings is None:
        return REBUILT
    kind = ROW_PARTS[result.kind].kind(result)
    return f"{kind}, {PROFILED}" if any(result.settings.profile) else kind


def settings_brief(result: BenchResult) -> str:
    settings = result.settings
    if settings is None:
        return "not recorded (rebuilt from raw output)"
    parts = [ROW_PARTS[result.kind].load(result), _timing(settings), f"backend {settings.backend}"]
    if settings.workloads != (PLAINTEXT,):
        parts.append(f"workloads {', '.join(workload.label for workload in settings.workloads)}")
    parts += [f"{name} on CPUs {cpus}" for name, cpus in
              (("server", settings.server_cpus), ("load", settings.loadgen_cpus)) if cpus]
    if settings.fairness:
        parts.append("fairness (h2load)")
    return "; ".join(parts)


def _timing(settings: Settings) -> str:
    runs = f"{settings.repeat} round{'s' if settings.repeat > 1 else ''}"
    return f"{settings.duration_s:g} s × {runs}"


def run_servers(result: BenchResult) -> list[str]:
    """The servers as recorded, then any measured without a record (a user's URL=)."""
    return list(dict.fromkeys([*(record.name for record in result.servers),
                               *ROW_PARTS[result.kind].servers(result)]))


def headlines(result: BenchResult) -> tuple[Headline, ...]:
    return ROW_PARTS[result.kind].headlines(result)


def _bench_headlines(result: BenchResult) -> tuple[Headline, ...]:
    workloads = run_workloads(result)
    return tuple(Headline(workload.label if len(workloads) > 1 else None,
                          _bench_figures(of_workload(result, workload)))
                 for workload in workloads)


def _latency_headlines(result: BenchResult) -> tuple[Headline, ...]:
    return (Headline(None, tuple((server_label(result, rate.server), max_rate_text(rate))
                                 for rate in result.latency.maxima)),)


def _calibration_headlines(result: BenchResult) -> tuple[Headline, ...]:
    return (Headline(None, noise_headlines(result)),)


def _bench_figures(result: BenchResult) -> tuple[tuple[str, str], ...]:
    servers = server_order(result) + reference_servers(result)
    return tuple((server_label(result, server), headline_rate(result, server))
                 for server in servers)


def headline_rate(result: BenchResult, server: str) -> str:
    """'75,561 req/s': the best median of the server's headline cells; 'failed' when none
    of them was measured, MISSING when it has none."""
    cells = headline_cells(result, server)
    best = fastest(cells)
    if best is None:
        return "failed" if cells else MISSING
    return f"{cell_summary(best).median:,.0f} req/s"


@dataclass(frozen=True)
class RowParts:
    """What a row says differently of a bench and of a latency run: its kind, its load,
    the servers it measured, its headline figures."""

    kind: Callable[[BenchResult], str]
    load: Callable[[BenchResult], str]
    servers: Callable[[BenchResult], list[str]]
    headlines: Callable[[BenchResult], tuple[Headline, ...]]


def _bench_load(result: BenchResult) -> str:
    return (f"{spoken_list(result.settings.threads)} threads, "
            f"{spoken_list(result.settings.connections)} connections")


ROW_PARTS = {
    RunKind.BENCH: RowParts(
        kind=lambda result: SWEEP if shows_a_sweep(result) else BENCH,
        load=_bench_load,
        servers=lambda result: [cell.server for cell in result.cells],
        headlines=_bench_headlines),
    RunKind.CALIBRATE: RowParts(
        kind=lambda result: CALIBRATION,
        load=_bench_load,
        servers=lambda result: [cell.server for cell in result.cells],
        headlines=_calibration_headlines),
    RunKind.LATENCY: RowParts(
        kind=lambda result: LATENCY,
        load=lambda result: (f"rates {result.latency.rates.replace(',', ', ')}, "
                             f"{slo_text(result.latency.slo_p99_us)}"),
        servers=latency_servers, headlines=_latency_headlines),
}
