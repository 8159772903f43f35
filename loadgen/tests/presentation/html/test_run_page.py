"""A run's page, results/<run>/index.html: its header, and its links to the run's files,
grouped per cell (or per server's fixed-rate steps) with the flame graph first, each one
a file of the folder, nothing of the folder left out; and the whole page for each sample
result and each committed run, under 1 MB without the chart library."""

from __future__ import annotations

import re
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

import pytest

from httplab.model import BenchResult, EngineRecord, StepPurpose
from httplab.paths import DEFAULT_REPO, results_root
from httplab.presentation.wording.settings import describe_settings
from httplab.presentation.html.assets import ChartLibrary
from httplab.presentation.html.raw_links import file_kind, run_folder
from httplab.presentation.html.run_page import engine_text, header_facts, render_run_page, when_text
from httplab.presentation.markdown.results import MarkdownExporter
from httplab.results.store import read_results
from httplab.run_layout import (OHA_SUFFIX, RESULTS_CSV, RESULTS_JSON, RESULTS_MD, RUN_PAGE,
                                 RunStem, step_stem)

from tests.database_sample import database_sample_result
from tests.latency_profile_sample import latency_profile_sample_result
from tests.latency_sample import latency_sample_result
from tests.profile_sample import profile_sample_result
from tests.variants_sample import PROFILE_RUN
from tests.sample_results import sample_result, workloads_sample_result

LIBRARY = ChartLibrary("4.1.1")


def page_of(result, files: frozenset[str]) -> str:
    """The page as publish renders it: with results.md's text beside the result."""
    return render_run_page(result, MarkdownExporter().render(result), files, LIBRARY)


PAGE_LIMIT_BYTES = 1_000_000  # the "about 1 MB", the chart library apart
SAMPLES = (sample_result, workloads_sample_result, profile_sample_result, database_sample_result,
           latency_sample_result, latency_profile_sample_result)
COMMITTED = sorted(path.parent for path in results_root(DEFAULT_REPO).glob("*/" + RESULTS_JSON)
                   if not path.parent.is_symlink())
STRAY = "notes.txt"  # a file of the folder that no part of the run names


def sample_files(result: BenchResult) -> frozenset[str]:
    """The files a run of this result would leave: each measured run's report, JSON and
    resources, its profile's files, the logs, one unmeasured run, the exports, a stray."""
    rounds = result.settings.repeat if result.settings else 1
    files = {RESULTS_JSON, RESULTS_MD, RESULTS_CSV, "raw/unmeasured/netty-warmup.txt", STRAY}
    for cell in result.cells:
        for number in cell.rounds or range(1, len(cell.runs) + 1):
            stem = RunStem.of_round(cell.server, cell.threads, cell.connections, number, rounds,
                                    cell.workload.key).name
            files |= {f"raw/{stem}.txt", f"raw/{stem}.json", f"raw/{stem}.resources.json"}
    steps = result.latency.steps if result.latency else ()
    profiles = [*(p for cell in result.cells for p in cell.profiles), *(s.profile for s in steps)]
    files |= {path for profile in profiles if profile
              for path in (profile.collapsed_file, profile.flame_graph_file) if path}
    files |= {step.raw_file for step in steps if step.raw_file}
    return frozenset(files | {record.log_file for record in result.servers if record.log_file})


def _links(folder) -> list[tuple[str, str]]:
    return [(link.text, link.path) for link in folder]


def test_each_cell_s_runs_link_their_raw_files_flame_graph_first():
    result = profile_sample_result()
    folder = run_folder(result, sample_files(result))
    groups = {group.title: group for group in folder.groups}
    assert list(groups)[:3] == ["Netty t5 c500", "Armeria (16 workers) t5 c500",
                                "Undertow (200 workers) t5 c500"]
    armeria = groups["Armeria (16 workers) (profiled) t5 c500"]
    assert [run.label for run in armeria.runs] == ["round 1", "round 2"]
    assert _links(armeria.runs[1].files) == [
        ("flame graph", "raw/armeria+profiled-t5-c500-r2.flame.html"),
        ("wrk report", "raw/armeria+profiled-t5-c500-r2.txt"),
        ("wrk JSON", "raw/armeria+profiled-t5-c500-r2.json"),
        ("CPU and memory", "raw/armeria+profiled-t5-c500-r2.resources.json"),
        ("collapsed stacks", "raw/armeria+profiled-t5-c500-r2.collapsed.txt")]
    assert armeria.runs[1].files[0].is_flame_graph
    assert not any(link.is_flame_graph for link in groups["Netty t5 c500"].runs[0].files)


def test_every_file_is_linked_once_and_only_files_of_the_folder():
    result = database_sample_result()
    files = sample_files(result) | {"raw/netty-r1.database.log", "raw/netty-r2.database.log",
                                    "raw/webflux-r2.database.log"}
    folder = run_folder(result, files)
    listed = [*folder.results, *(link for group in folder.groups for run in group.runs
                                 for link in run.files), *folder.server_logs,
              *folder.database_logs, *folder.unmeasured, *folder.other]
    assert sorted(link.path for link in listed) == sorted(files)
    assert _links(folder.database_logs) == [
        ("Netty, round 1", "raw/netty-r1.database.log"),
        ("Netty, round 2", "raw/netty-r2.database.log"),
        ("Spring WebFlux, round 2", "raw/webflux-r2.database.log")]
    assert _links(folder.other) == [(STRAY, STRAY)]
    assert _links(folder.unmeasured) == [("netty-warmup.txt", "raw/unmeasured/netty-warmup.txt")]
    assert _links(folder.results) == [(name, name) for name in (RESULTS_JSON, RESULTS_MD,
                                                                 RESULTS_CSV)]


def test_a_log_or_run_that_is_not_in_the_folder_is_not_linked():
    result = sample_result()
    folder = run_folder(result, frozenset({"raw/netty-t10-c500-r2.txt", "raw/undertow.log"}))
    assert [(group.title, [run.label for run in group.runs]) for group in folder.groups] == [
        ("Netty t10 c500", ["measured run"])]
    assert _links(folder.server_logs) == [("Undertow (200 workers)", "raw/undertow.log")]
    assert folder.results == folder.other == folder.unmeasured == ()


def test_a_run_of_no_cell_of_the_result_is_listed_under_its_own_name():
    folder = run_folder(sample_result(), frozenset({"raw/vertx-json-t2-c8-r3.txt",
                                                    "raw/vertx-json-t2-c8-r3.json"}))
    assert [(group.title, [run.label for run in group.runs]) for group in folder.groups] == [
        ("vertx-json-t2-c8", ["measured run"])]


def _named_as_run(result: BenchResult) -> BenchResult:
    """The sample with each step's file named as make latency names it (netty-cost-q10000-r1)."""
    rounds = result.settings.repeat
    names = (step_stem(step.server, step.offered_rate, step.purpose is StepPurpose.COST,
                       step.repeat, rounds, step.attempt, step.workload.key).name
             for step in result.latency.steps)
    steps = tuple(replace(step, raw_file=f"raw/{name}{OHA_SUFFIX}")
                  for step, name in zip(result.latency.steps, names))
    return replace(result, latency=replace(result.latency, steps=steps))


def test_a_latency_run_s_steps_are_grouped_per_server_with_their_verdicts():
    result = _named_as_run(latency_sample_result())
    folder = run_folder(result, sample_files(result) | {"raw/netty-q10000-r1.resources.json"})
    assert [group.title for group in folder.groups] == [
        "Netty", "Undertow (200 workers)", "nginx (reference)"]
    netty = folder.groups[0].runs
    assert netty[0].label == "10,000 req/s, round 1: held"
    assert _links(netty[0].files) == [("oha JSON", "raw/netty-q10000-r1.oha.json"),
                                      ("CPU and memory", "raw/netty-q10000-r1.resources.json")]
    assert netty[2].label == "40,000 req/s, round 1: load tool"
    assert [run.label for run in netty[-2:]] == ["common rate 10,000 req/s, round 1: held",
                                                 "common rate 10,000 req/s, round 2: held"]


@pytest.mark.parametrize("ending, kind", [
    (".txt", "wrk report"), (".json", "wrk JSON"), (".resources.json", "CPU and memory"),
    (".h2load.txt", "h2load report"), (".sockets.txt", "socket readings"),
    (".profile.json", "profile record"), (".collapsed.txt", "collapsed stacks"),
    (".flame.html", "flame graph"), (".oha.json", "oha JSON"),
    (".generators.json", "generators' record"), (".g2.txt", "generator 2: wrk report"),
    (".g10.json", "generator 10: wrk JSON"), (".stalls.json", "stall meter"),
    (".stalls.2.json", "generator 2's engine: stall meter"),
    (".h2load-run.txt", "h2load summary"), (".h2load-requests.tsv.gz", "h2load requests"),
    (".h2load-requests.tsv", "h2load requests"),
])
def test_each_raw_file_is_named_by_what_it_holds(ending, kind):
    assert file_kind(ending) == kind


def test_the_header_says_when_where_and_how_in_results_md_s_words():
    result = replace(sample_result(), engines=(EngineRecord(
        "ssh://lab@gen", "load generator", "28.2.2", "gen", 8, 16 * 2**30, "6.1.0", "Linux",
        0.0042),))
    facts = {fact.term: fact.value for fact in header_facts(result)}
    assert facts == {
        "When": "2026-11-22 04:30:00 UTC", "Lab commit": "0123456789ab+dirty",
        "Host": "lab-host, Test CPU @ 3.40GHz, 4 cores, 16 GiB, Linux 6.1.0",
        "Servers' JVM": 'openjdk version "17.0.19", every JVM server',
        "Software": ("Linux; Docker version 28.2.2; Docker Compose version v2.29.7; openjdk "
                     "version \"17.0.15\"; wrk 4.1.0; Python 3.11.7"),
        "Backend": "docker",
        "Engine (load generator)": ("ssh://lab@gen: gen, 8 cores, 16 GiB, Linux 6.1.0, "
                                    "Docker 28.2.2, clock +0.004 s"),
        "Settings": describe_settings(result.settings)}
    assert engine_text(EngineRecord("default", "server")) == "default"
    assert when_text("not a stamp") == "not a stamp"


def test_a_run_with_variants_says_in_its_header_how_many_comparisons_it_made():
    facts = {fact.term: fact.value for fact in header_facts(read_results(PROFILE_RUN))}
    assert facts["Comparisons"].startswith(
        "This run made 4 comparisons (2 of Requests/sec, 2 of CPU per request): about 0.2 of "
        "their 95% intervals would exclude 1 by chance alone, and 1 stands out of the noise.")


class _Page(HTMLParser):
    """What the checks read of a page: every href and src, every id, the notices' text."""

    def __init__(self, text: str):
        super().__init__()
        self.addresses: list[str] = []
        self.ids: list[str] = []
        self.notices: list[str] = []
        self._notice = 0
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.addresses += [attrs[name] for name in ("href", "src") if attrs.get(name)]
        self.ids += [attrs["id"]] if attrs.get("id") else []
        if tag == "div" and "notice" in (attrs.get("class") or ""):
            self._notice, _ = 1, self.notices.append("")
        elif self._notice and tag == "div":
            self._notice += 1

    def handle_endtag(self, tag):
        if self._notice and tag == "div":
            self._notice -= 1

    def handle_data(self, data):
        if self._notice:
            self.notices[-1] += data


def _check_page(page: str, files: frozenset[str]) -> _Page:
    parsed = _Page(page)
    assert len(page.encode()) < PAGE_LIMIT_BYTES
    assert len(parsed.ids) == len(set(parsed.ids)), "ids are unique"
    for address in parsed.addresses:
        if address.startswith("#"):
            assert address[1:] in parsed.ids, f"{address} names an element of the page"
        elif address != LIBRARY.href_from_run():
            assert unquote(address) in files, f"{address} is a file of the run"
    return parsed


@pytest.mark.parametrize("make_result", SAMPLES, ids=lambda make: make.__name__)
def test_a_page_renders_for_each_sample_linking_only_its_files(make_result):
    result = make_result()
    files = sample_files(result)
    page = page_of(result, files)
    parsed = _check_page(page, files)
    assert {"summary", "tables", "files"} <= set(parsed.ids)
    assert f'<script src="{LIBRARY.href_from_run()}"></script>' in page
    assert set(files) <= {unquote(address) for address in parsed.addresses}, "every file linked"


def test_the_shared_cpus_come_first_as_a_notice_the_other_warnings_after():
    parsed = _Page(page_of(database_sample_result(), frozenset()))
    assert parsed.notices[0].split("\n")[1] == "wrk and the server shared the CPUs"
    assert "2 cells limited by the shared CPUs: Netty db t4 c256, Netty queries n=20 t4 c256." in (
        parsed.notices[0])
    assert "2 cells limited by the database's CPU" in parsed.notices[1]
    quiet = _Page(page_of(workloads_sample_result(), frozenset()))
    assert len(quiet.notices) == 1 and "shared the CPUs" not in quiet.notices[0]


@pytest.mark.parametrize("run", COMMITTED, ids=lambda run: run.name)
def test_a_page_renders_for_each_committed_run(run: Path):
    files = frozenset(path.relative_to(run).as_posix() for path in run.rglob("*")
                      if path.is_file() and path.name != RUN_PAGE)
    page = page_of(read_results(run / RESULTS_JSON), files)
    _check_page(page, files)
    assert re.search(r'<tr class="(warned|failed)">', page) or "Warnings" not in page


def test_a_result_without_settings_still_has_its_page():
    result = replace(sample_result(), settings=None)
    facts = {fact.term: fact.value for fact in header_facts(result)}
    assert "Backend" not in facts and facts["Settings"] == "—"
    files = sample_files(result)
    _check_page(page_of(result, files), files)


@pytest.mark.parametrize("cost_rate, cost_header", [
    (10000.0, "Server CPU per request at 10,000 req/s"), (None, None)])
def test_a_latency_summary_shows_the_cost_column_only_with_a_common_rate(cost_rate, cost_header):
    result = latency_sample_result()
    result = replace(result, latency=replace(result.latency, cost_rate=cost_rate))
    page = page_of(result, frozenset())
    summary = page[page.index('<section id="summary">'):page.index('<section id="charts">')]
    assert ("Server CPU per request" in summary) is (cost_header is not None)
    assert cost_header is None or f"<th class=\"num\">{cost_header}</th>" in summary


@pytest.mark.parametrize("make_result, with_ceiling", [
    (workloads_sample_result, True), (sample_result, False)])
def test_the_summary_shows_the_share_of_the_ceiling_only_with_a_reference(make_result,
                                                                           with_ceiling):
    page = page_of(make_result(), frozenset())
    summary = page[page.index('<section id="summary">'):page.index('<section id="charts">')]
    assert ("<th class=\"num\">Share of ceiling</th>" in summary) is with_ceiling


def test_an_archived_runs_raw_files_link_the_archive_with_their_member_names():
    result = sample_result()
    files = sample_files(result)
    archived = frozenset(path for path in files if path.startswith("raw/")
                         and not path.endswith((".log", ".flame.html")))
    plain = (files - archived) | {"raw.tar.xz", "raw/unmeasured.log"}
    folder = run_folder(result, plain, archived)
    run_links = [link for group in folder.groups for run in group.runs for link in run.files]
    assert run_links and all(link.href == f"raw.tar.xz#{link.path}" for link in run_links)
    assert all(link.archive is None for link in (*folder.server_logs, *folder.results))
    assert [link.text for link in folder.unmeasured] == ["unmeasured.log", "netty-warmup.txt"]
    assert folder.unmeasured[1].href == "raw.tar.xz#raw/unmeasured/netty-warmup.txt"
    assert folder.archive.href == "raw.tar.xz"
    assert [link.text for link in folder.members] == [f"raw.tar.xz#{path}"
                                                      for path in sorted(archived)]
    assert all(link.path != "raw.tar.xz" for link in folder.other)
    page = render_run_page(result, MarkdownExporter().render(result), plain, LIBRARY, archived)
    assert "tar -xJf raw.tar.xz" in page
