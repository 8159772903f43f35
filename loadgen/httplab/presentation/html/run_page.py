"""A run's page, results/<run>/index.html: its header (when, the lab commit, the host, the
backend and engines, the settings as results.md's "Run:" line says them, how many
comparisons of variants the run made, the shared-CPUs notice and the warnings), the summary (summary.py), the charts (plotly/charts.py), every
table of results.md (markdown_html.py) and links to every file of the run (raw_links.py).
Pure: the caller passes results.md's text, the names of the run folder's files, and
writes the page.

The page shows results.md itself, every table as the file has it (markdown_html.py turns
that text into HTML and marks its rows), rather than rebuild the tables, where they could
drift from the file a reader downloads beside the page; it is given that text, so no
output's renderer runs another's."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from httplab.model import BenchResult, EngineRecord, HostInfo, RunKind, WarningKind
from httplab.presentation.wording.settings import describe_latency_run
from httplab.presentation.wording.warnings import warning_item
from httplab.presentation.wording.settings import describe_settings
from httplab.presentation.wording.formatting import MISSING
from httplab.presentation.wording.runtime import jvm_text
from httplab.presentation.wording.variants import comparisons_counted
from httplab.presentation.html.assets import ChartLibrary
from httplab.presentation.plotly.charts import run_charts
from httplab.presentation.html.markdown_html import markdown_html
from httplab.presentation.html.raw_links import run_folder
from httplab.presentation.html.row_marks import RunMarks
from httplab.presentation.html.summary import latency_summary_rows, summary_rows, workload_labels
from httplab.presentation.html.templating import render
from httplab.presentation.wording.calibration import (CALIBRATION_HEADER, CALIBRATION_INTRO,
                                                      CALIBRATION_TITLE, calibration_rows,
                                                      drift_sentence)
from httplab.presentation.wording.latency import cost_rate_sentence, rate_text, slo_text
from httplab.results.store import STAMP_FORMAT
from httplab.results.variants import variant_comparisons
from httplab.results.warning_groups import WarningGroup, warning_groups
from httplab.run_layout import RESULTS_MD

TEMPLATE = "run.html.j2"
# The sections of the page, for its table of contents: (id, title).
SUMMARY, CHARTS, TABLES, FILES = (("summary", "Summary"), ("charts", "Charts"),
                                  ("tables", f"Every table ({RESULTS_MD})"), ("files", "Files"))


@dataclass(frozen=True)
class Fact:
    term: str
    value: str


def render_run_page(result: BenchResult, results_md: str, files: frozenset[str],
                    library: ChartLibrary, archived: frozenset[str] = frozenset()) -> str:
    """The page, its tables those of results_md (results.md's text, as publish writes it),
    its files `files` and the members of the raw files' archive (`archived`); the run's kind
    decides, once, its command and its summary."""
    page = KIND_PAGES[result.kind]
    tables = markdown_html(results_md, RunMarks(result).of_row, files)
    charts = run_charts(result)
    groups = warning_groups(result)
    return render(
        TEMPLATE, title=f"httplab {page.command}, {when_text(result.created_utc)}",
        kind=page.command, facts=header_facts(result),
        shared_cpus=[warning_item(group) for group in groups if shares_cpus(group)],
        warnings=[warning_item(group) for group in groups if not shares_cpus(group)],
        missing=MISSING, charts=charts, tables=tables, folder=run_folder(result, files, archived),
        library=library, sections=_sections(bool(charts)), titles=dict(_sections(True)),
        toc=tables.toc, file_columns=page.file_columns, **page.summary(result, files))


def shares_cpus(group: WarningGroup) -> bool:
    """The warnings that wrk and the server shared the CPUs: the page's notice on top."""
    return group.kind is WarningKind.SHARED_CPUS


def when_text(stamp: str) -> str:
    """'2026-11-24T15-07-00Z' -> '2026-11-24 15:07:00 UTC'; another text as it is."""
    try:
        return datetime.strptime(stamp, STAMP_FORMAT).strftime("%Y-%m-%d %H:%M:%S UTC")
    except ValueError:
        return stamp


def header_facts(result: BenchResult) -> tuple[Fact, ...]:
    settings = result.settings
    facts = [Fact("When", when_text(result.created_utc)),
             Fact("Lab commit", result.lab_commit or MISSING),
             Fact("Host", result.host.describe()), Fact("Software", software_text(result.host))]
    jvm = jvm_text(result)
    facts += [Fact("Servers' JVM", jvm)] if jvm else []
    if settings is not None:
        facts.append(Fact("Backend", settings.backend))
    facts += [Fact(f"Engine ({engine.role})", engine_text(engine)) for engine in result.engines]
    run = KIND_PAGES[result.kind].settings(result)
    comparisons = variant_comparisons(result)
    counted = [Fact("Comparisons", comparisons_counted(comparisons))] if comparisons else []
    return (*facts, Fact("Settings", run), *counted)


def software_text(host: HostInfo) -> str:
    known = (host.os, host.docker, host.compose, host.java, host.wrk,
             host.python and f"Python {host.python}")
    return "; ".join(filter(None, known)) or MISSING


def engine_text(engine: EngineRecord) -> str:
    """'ssh://lab@b: b, 8 cores, 16 GiB, Linux 6.1.0, Docker 28.2.2, clock +0.004 s'."""
    parts = [engine.hostname, engine.cores and f"{engine.cores} cores",
             engine.memory_bytes and f"{engine.memory_bytes / 2**30:.0f} GiB",
             engine.kernel and (f"Linux {engine.kernel}" if engine.os == "Linux"
                                else engine.kernel),
             engine.docker and f"Docker {engine.docker}",
             None if engine.clock_offset_s is None else f"clock {engine.clock_offset_s:+.3f} s"]
    details = ", ".join(filter(None, parts))
    return f"{engine.engine}: {details}" if details else engine.engine


def _bench_summary(result: BenchResult, files: frozenset[str]) -> dict[str, object]:
    rows = summary_rows(result, files)
    return {"summary_template": "run_summary.html.j2", "summary": rows,
            "workloads": workload_labels(rows)}


def _calibration_summary(result: BenchResult, files: frozenset[str]) -> dict[str, object]:
    """make calibrate's summary: the host's noise and whether it drifted, then the bench's."""
    calibration = {"title": CALIBRATION_TITLE, "intro": CALIBRATION_INTRO,
                   "header": CALIBRATION_HEADER, "rows": calibration_rows(result),
                   "sentence": drift_sentence(result)}
    return {**_bench_summary(result, files), "summary_template": "run_calibration_summary.html.j2",
            "calibration": calibration}


def _latency_summary(result: BenchResult, files: frozenset[str]) -> dict[str, object]:
    """The summary's rows, headers and sentence of a make latency run."""
    latency = result.latency
    cost = (None if latency.cost_rate is None  # no column
            else f"Server CPU per request at {rate_text(latency.cost_rate)} req/s")
    texts = {"slo": slo_text(latency.slo_p99_us),
             "max_rate": f"Max sustainable rate ({slo_text(latency.slo_p99_us)})",
             "cost": cost, "cost_rate": cost_rate_sentence(latency)}
    return {"summary_template": "run_latency_summary.html.j2",
            "latency_rows": latency_summary_rows(result), "latency_texts": texts}


def _sections(with_charts: bool) -> tuple[tuple[str, str], ...]:
    return tuple(section for section in (SUMMARY, CHARTS, TABLES, FILES)
                 if with_charts or section is not CHARTS)


@dataclass(frozen=True)
class KindPage:
    """What a page says differently of a bench, a calibration and a latency run."""

    command: str
    file_columns: tuple[str, str]  # the run's files: by cell and run, or server and step
    settings: Callable[[BenchResult], str]  # the header's "Settings"
    summary: Callable[[BenchResult, frozenset[str]], dict[str, object]]  # its template, rows


def _bench_settings(result: BenchResult) -> str:
    return describe_settings(result.settings) if result.settings is not None else MISSING


KIND_PAGES = {
    RunKind.BENCH: KindPage("make bench", ("Cell", "Run"), _bench_settings, _bench_summary),
    RunKind.CALIBRATE: KindPage("make calibrate", ("Cell", "Run"), _bench_settings,
                                _calibration_summary),
    RunKind.LATENCY: KindPage(
        "make latency", ("Server", "Step"),
        lambda result: describe_latency_run(result.latency, result.settings), _latency_summary),
}
