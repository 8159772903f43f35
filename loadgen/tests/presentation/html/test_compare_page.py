"""compare.html, make compare's page: the differences besides the software on top, then the
same ratios and verdicts `httplab compare` prints, cell by cell (server by server for
latency runs); written into OUT or results/compare/<base>-vs-<new>/, never inside a run."""

import html
import json
import re
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from httplab.cli import main
from httplab.model import BenchResult, Cell, CellStatus
from httplab.presentation.compare.bench import comparability_notes
from httplab.presentation.html.compare_page import RunRef, render_compare_page
from httplab.presentation.compare.latency import latency_comparability_notes
from httplab.presentation.compare.runs import render_run_comparison
from httplab.results.results_json.write import result_to_dict
from tests.latency_sample import latency_sample_result
from tests.sample_results import _run, sample_result, workloads_sample_result
from tests.support.page_tables import page_tables, page_text
from tests.presentation.compare.test_latency import with_cost_scaled, with_maximum

REFS = RunRef("base-run", None), RunRef("new-run", None)
LATENCY = latency_sample_result()
WORKLOADS = workloads_sample_result()


def cell(rates: list[float], server: str = "netty", threads: int = 10) -> Cell:
    if not rates:
        return Cell(server, threads, 500, CellStatus.FAILED, reason="crashed")
    return Cell(server, threads, 500, CellStatus.OK, tuple(_run(rate, threads) for rate in rates))


def bench(*cells: Cell) -> BenchResult:
    return replace(sample_result(), cells=cells)


def page_of(base: BenchResult, new: BenchResult, refs=REFS) -> str:
    return render_compare_page(base, new, *refs)


def text_rows(text: str) -> list[list[str]]:
    """The rows of every table `httplab compare` prints: the lines after a line of dashes,
    columns two spaces or more apart."""
    rows, in_table = [], False
    for line in text.splitlines():
        fields = re.split(r"\s{2,}", line.strip())
        if set(line) == {"-"}:
            in_table = True
        elif in_table and len(fields) >= 5:
            rows.append(fields)
        else:
            in_table = False
    return rows


# faster, not distinguishable, slower, failed in new, failed in base, missing in new, missing in base
BENCH_PAIR = (bench(cell([100, 102, 101]), cell([200, 210], threads=5),
                    cell([300, 301, 302], "undertow"), cell([50, 52], "undertow", 5),
                    cell([], "vertx"), cell([70, 72], "armeria")),
              bench(cell([110, 112, 111]), cell([205, 208], threads=5),
                    cell([250, 251], "undertow"), cell([], "undertow", 5),
                    cell([60, 62], "vertx"), cell([80, 82], "webflux")))
PAIRS = {
    "bench": BENCH_PAIR,
    "once": (bench(cell([100])), bench(cell([120, 121]))),
    "workloads": (WORKLOADS, replace(WORKLOADS, cells=WORKLOADS.cells[:3] + tuple(
        replace(one, runs=tuple(replace(run, requests_per_sec=run.requests_per_sec * 1.3)
                                for run in one.runs)) for one in WORKLOADS.cells[3:]))),
    "latency": (LATENCY, with_cost_scaled(with_maximum(LATENCY, "undertow", (22000.0, 25000.0)),
                                          "netty", (0.5, 0.6))),
    "latency, once": (LATENCY, with_maximum(LATENCY, "netty", (20000.0,), True)),
}


@pytest.mark.parametrize("pair", PAIRS.values(), ids=PAIRS.keys())
def test_ratios_and_verdicts_are_the_printed_comparisons(pair):
    base, new = pair
    text = render_run_comparison(base, new, "a", "b")
    tables = page_tables(page_of(base, new))
    compared = [table for table in tables if "compared" in table.classes]
    assert compared and all("sortable" in table.classes for table in compared)
    assert all(table.headers[-4:] == ["Ratio", "95% interval", "q", "Verdict"]
               for table in compared)
    shown = [row.cells[-4:] for table in compared for row in table.rows]
    assert shown == [row[-4:] for row in text_rows(text)]


@pytest.mark.parametrize("pair", PAIRS.values(), ids=PAIRS.keys())
def test_verdict_counts_and_the_advice_to_repeat(pair):
    base, new = pair
    text = render_run_comparison(base, new, "a", "b")
    page = page_of(base, new)
    verdicts = Counter(row[-1] for row in text_rows(text))
    counts = re.findall(r'<p class="counts">([^<]*)</p>', page)
    shown = Counter()
    for line in counts:
        for part in line.rstrip(".").split(", "):
            number, verdict = part.split(" ", 1)
            shown[verdict] += int(number)
    assert shown == verdicts
    if base.latency is None:  # the printed line itself
        assert counts[0] + "\n" in text
    assert ("noise unknown" in verdicts) == ("REPEAT=3 or more" in page_text(page))


def test_rows_are_marked_by_what_the_verdict_means():
    base, new = BENCH_PAIR
    [table] = [table for table in page_tables(page_of(base, new)) if "compared" in table.classes]
    tones = {row.cells[-1]: row.classes for row in table.rows}
    assert tones["faster"] == {"better"} and tones["slower"] == {"worse"}
    assert tones["failed in new"] == {"failed"} and tones["not distinguishable"] == set()


def test_each_side_shows_its_median_and_spread():
    base, new = BENCH_PAIR
    [table] = [table for table in page_tables(page_of(base, new)) if "compared" in table.classes]
    assert table.headers == ["Server", "Threads", "Connections", "Base median", "Base min–max",
                             "New median", "New min–max", "Ratio", "95% interval", "q",
                             "Verdict"]
    assert table.rows[0].cells == ["Netty", "10", "500", "101", "100–102, n=3", "111",
                                   "110–112, n=3", "1.10x", "1.08–1.12×", "< 0.001", "faster"]
    assert [row.cells[3:] for row in table.rows[3:]] == [
        ["51", "50–52, n=2", "failed", "", "—", "—", "—", "failed in new"],
        ["failed", "", "61", "60–62, n=2", "—", "—", "—", "failed in base"],
        ["71", "70–72, n=2", "—", "", "—", "—", "—", "missing in new"],
        ["—", "", "81", "80–82, n=2", "—", "—", "—", "missing in base"]]


@pytest.mark.parametrize("pair", [BENCH_PAIR, PAIRS["latency"]], ids=["bench", "latency"])
def test_the_page_says_how_many_comparisons_as_the_text_does(pair):
    text = render_run_comparison(*pair, "a", "b")
    [made] = re.findall(r'<p id="comparisons-made">([^<]*)</p>', page_of(*pair))
    assert html.unescape(made).startswith("The two runs make ")
    assert html.unescape(made) + "\n" in text


def test_a_page_without_an_interval_counts_no_comparison():
    assert 'id="comparisons-made"' not in page_of(*PAIRS["once"])


@pytest.mark.parametrize("base, new, notes", [
    (sample_result(), replace(sample_result(), host=replace(sample_result().host, hostname="b"),
                              settings=replace(sample_result().settings, repeat=1,
                                               fairness=False)),
     comparability_notes),
    (LATENCY, replace(LATENCY, latency=replace(LATENCY.latency, slo_p99_us=5000.0,
                                                 tool="oha 1.17.0")),
     latency_comparability_notes),
    (sample_result(), replace(sample_result(), settings=None), comparability_notes),
], ids=["bench", "latency", "no settings"])
def test_the_differences_besides_the_software_come_first(base, new, notes):
    expected = notes(base, new)
    assert expected
    page = page_of(base, new)
    listed = re.findall(r"<li>([^<]*)</li>", page[page.index('id="differences"'):])
    assert listed[:len(expected)] == [_escaped(note) for note in expected]
    assert page.index('id="differences"') < page.index('class="sortable compared"')


def _escaped(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace(
        "'", "&#39;").replace('"', "&#34;")


def test_runs_without_differences_say_so():
    assert "Nothing: the same host and the same settings" in page_text(
        page_of(sample_result(), sample_result()))


def test_runs_that_cannot_be_compared_show_why_and_no_table():
    page = page_of(LATENCY, sample_result())
    assert "cannot compare: base is a latency run" in page_text(page)
    assert not [table for table in page_tables(page) if "compared" in table.classes]


def test_each_run_links_to_its_page_when_it_has_one():
    refs = RunRef("2026-11-24T15-07-00Z", "../../2026-11-24T15-07-00Z/index.html"), REFS[1]
    [facts] = [table for table in page_tables(page_of(*BENCH_PAIR, refs=refs))
               if "runs-compared" in table.classes]
    assert facts.headers == ["", "Base: 2026-11-24T15-07-00Z", "New: new-run"]
    assert [row.cells[0] for row in facts.rows] == ["Date", "Kind", "Settings", "httplab commit",
                                                    "Host", "Warnings"]
    page = page_of(*BENCH_PAIR, refs=refs)
    assert page.count('href="../../2026-11-24T15-07-00Z/index.html"') == 2  # title and table
    assert "new-run</a>" not in page


# The command: make compare writes the page.

def write_run(folder: Path, result: BenchResult, with_page: bool = False) -> Path:
    folder.mkdir(parents=True)
    (folder / "results.json").write_text(json.dumps(result_to_dict(result)))
    if with_page:
        (folder / "index.html").write_text("<!doctype html><title>run</title>")
    return folder


@pytest.fixture
def repo(tmp_path) -> Path:
    """A repository with two runs in results/, `latest` pointing to the second."""
    results = tmp_path / "repo" / "results"
    write_run(results / "2026-11-24T15-07-00Z", BENCH_PAIR[0], with_page=True)
    write_run(results / "2026-11-24T15-10-47Z", BENCH_PAIR[1])
    (results / "latest").symlink_to("2026-11-24T15-10-47Z")
    return tmp_path / "repo"


def files_under(folder: Path) -> set[Path]:
    return set(folder.rglob("*"))


def compare(repo: Path, base: str, new: str, *more: str) -> int:
    return main(["--repo", str(repo), "compare", "--base", str(repo / base), "--new",
                 str(repo / new), *more])


@pytest.mark.parametrize("out", [
    "results/2026-11-24T15-07-00Z", "results/2026-11-24T15-07-00Z/raw",
    "results/2026-11-24T15-10-47Z/a/b", "results/latest/pages",
], ids=["base folder", "under base", "deep under new", "through the latest link"])
def test_an_out_inside_either_run_is_refused_before_anything_is_written(repo, capsys, out):
    before = files_under(repo)
    code = compare(repo, "results/2026-11-24T15-07-00Z", "results/latest/results.json",
                   "--out", str(repo / out))
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert captured.err.count("\n") == 1
    assert "cannot go inside a run's folder" in captured.err and "OUT=" in captured.err
    assert files_under(repo) == before


def test_by_default_the_page_goes_under_results_compare(repo, capsys):
    assert compare(repo, "results/2026-11-24T15-07-00Z", "results/latest") == 0
    captured = capsys.readouterr()
    page = (repo / "results" / "compare" / "2026-11-24T15-07-00Z-vs-2026-11-24T15-10-47Z"
            / "compare.html")
    assert page.is_file()
    assert captured.err.strip().endswith(f"comparison page: {page.resolve()}")
    shown = [row.cells[-2:] for table in page_tables(page.read_text())
             if "compared" in table.classes for row in table.rows]
    assert shown == [row[-2:] for row in text_rows(captured.out)]


def test_with_out_the_page_links_to_the_run_pages_that_exist(repo, tmp_path, capsys):
    out = tmp_path / "pages" / "mine"
    assert compare(repo, "results/2026-11-24T15-07-00Z", "results/latest", "--out", str(out)) == 0
    assert f"comparison page: {out / 'compare.html'}" in capsys.readouterr().err
    [link] = set(re.findall(r'href="([^"]+)"', (out / "compare.html").read_text()))
    assert (out / link).resolve() == repo / "results" / "2026-11-24T15-07-00Z" / "index.html"
    assert not (repo / "results" / "compare").exists()


def test_a_page_that_cannot_be_written_is_one_line_and_exit_1(repo, tmp_path, capsys):
    in_the_way = tmp_path / "a-file"
    in_the_way.write_text("")
    code = compare(repo, "results/2026-11-24T15-07-00Z", "results/latest", "--out",
                   str(in_the_way))
    err = capsys.readouterr().err
    assert code == 1 and err.count("\n") == 1 and "cannot write" in err


@pytest.mark.parametrize("pair", PAIRS.values(), ids=PAIRS.keys())
def test_each_judged_figure_is_said_in_words_as_make_compare_prints_it(pair):
    base, new = pair
    text = render_run_comparison(base, new, "a", "b")
    printed = [line.removeprefix("- ") for line in text.splitlines() if line.startswith("- ")]
    shown = [html.unescape(item) for item in
             re.findall(r'<ul class="in-words">(.*?)</ul>', page_of(base, new), re.S)
             for item in re.findall(r"<li>([^<]*)</li>", item)]
    assert shown == printed
    if pair is BENCH_PAIR:
        assert "Netty t10 c500: new is 10 % faster (8 to 12 %)" in shown
