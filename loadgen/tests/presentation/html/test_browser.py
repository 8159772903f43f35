"""The HTML pages in a real browser: headless Chromium (Debian's), the network off. Each
page, freshly written by `httplab report` and `httplab compare` from copies of committed
runs and as committed in results/, loads with no console error and no request beyond its
own files, draws every chart, sorts a table by a header click, links only to files that
exist, and prints on A4; a screenshot of each lands in .test-output/browser/. The checks
themselves are tried first on hand-made pages that break each of them."""

from __future__ import annotations

import contextlib
import fnmatch
import io
import json
import shutil
from pathlib import Path

import pytest

from httplab.results.raw_archive import raw_names
from httplab.cli import main as httplab
from httplab.model import RunKind
from httplab.paths import DEFAULT_REPO, results_root
from httplab.presentation.html.templating import static_text
from httplab.presentation.publish import plotly_script
from httplab.results.store import read_results
from httplab.run_layout import COMPARE_PAGE, RAW, RESULTS_JSON, RUN_PAGE
from tests.support import browser
from tests.support.browser import (A4_MM, SCREENSHOTS, chart_problems, chromium, console_errors,
                                   link_problems, open_page, page_problems, pdf_page_sizes_mm,
                                   print_to_pdf, request_problems, require_browser,
                                   sorting_problems)

# One xdist worker for the whole module: its fixtures (the freshly written pages, Chromium)
# are made once, not once per worker.
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

COMMITTED = results_root(DEFAULT_REPO)
_A4_TOLERANCE_MM = 1.0


@pytest.fixture(scope="module")
def driver():
    require_browser()
    with chromium() as opened:
        yield opened


# --- The checks, on hand-made pages --------------------------------------------------

_PLOT = """<div class="chart" id="{key}" data-traces="{expected}"></div>
<script>
(function () {{
  var chart = document.getElementById("{key}");
  Plotly.newPlot(chart, {traces}, {{}}, {{displaylogo: false}}).then(function () {{
    chart.setAttribute("data-drawn", "true");
  }});
}})();
</script>"""
_TWO_BARS = ('[{type: "bar", name: "netty", x: ["plaintext", "json"], y: [3, 2]},'
             ' {type: "bar", name: "undertow", x: ["plaintext", "json"], y: [2, 1]}]')
_TABLE = """<table class="sortable"><thead><tr><th>Framework</th><th>Requests/sec</th></tr></thead>
<tbody><tr><td>netty</td><td>115,433</td></tr><tr><td>nginx</td><td>8.7</td></tr>
<tr><td>armeria</td><td>—</td></tr><tr><td>undertow</td><td>12,900.5</td></tr></tbody></table>"""
_SORTING = f"<script>{static_text('report.js')}</script>"
_GOOD = "\n".join((_PLOT.format(key="bars", expected=2, traces=_TWO_BARS), _TABLE, _SORTING,
                   '<a href="raw/netty-t5-c500.txt">netty raw</a> <a href="#bars">chart</a>'))


@pytest.fixture(scope="module")
def handmade(tmp_path_factory):
    """Writes a page of the given body into a folder holding Plotly and a raw file."""
    folder = tmp_path_factory.mktemp("handmade")
    shutil.copyfile(plotly_script(), folder / "plotly.min.js")
    (folder / RAW).mkdir()
    (folder / RAW / "netty-t5-c500.txt").write_text("Requests/sec: 115433.00\n")

    def page(name: str, body: str) -> Path:
        path = folder / f"{name}.html"
        path.write_text('<!doctype html><html lang="en"><head><meta charset="utf-8">'
                        f'<title>{name}</title><script src="plotly.min.js"></script></head>'
                        f"<body>{body}</body></html>", encoding="utf-8")
        return path

    return page


def test_a_sound_page_passes_every_check_and_prints_on_a4(driver, handmade):
    page = handmade("sound", _GOOD)
    assert page_problems(driver, page, "handmade-sound", charts_expected=True) == {}
    assert (SCREENSHOTS / "handmade-sound.png").stat().st_size > 0
    _assert_prints_on_a4(driver)


_STILL = '<div class="chart" id="still" data-traces="1"></div>'
_ONE_OF_TWO = _PLOT.format(key="short", expected=2,
                           traces='[{type: "bar", name: "netty", x: ["json"], y: [3]}]')
_EMPTY_TRACE = _PLOT.format(key="hollow", expected=2, traces=(
    '[{type: "scatter", name: "netty", x: [1, 2], y: [3, 4]},'
    ' {type: "scatter", mode: "markers", name: "nginx", x: [1], y: [null]}]'))
_NOT_SORTED = _TABLE.replace('<th>Requests/sec</th>',
                             '<th onclick="this.setAttribute(\'aria-sort\', \'ascending\')">'
                             'Requests/sec</th>')

BROKEN = [  # name, body, the check, what it must report
    ("console-error", _GOOD + "<script>console.error('the chart data is bad')</script>",
     "console", "the chart data is bad"),
    ("script-error", _GOOD + "<script>undefinedFunction()</script>", "console",
     "undefinedFunction"),
    ("missing-script", _GOOD + '<script src="charts.js"></script>', "requests", "charts.js"),
    ("missing-script", _GOOD + '<script src="charts.js"></script>', "links",
     "broken link: charts.js"),
    ("remote-image", _GOOD + '<img src="http://example.com/logo.png" alt="">', "requests",
     "left the machine: http://example.com/logo.png"),
    ("remote-image", _GOOD + '<img src="http://example.com/logo.png" alt="">', "links",
     "absolute link: http://example.com/logo.png"),
    ("cdn-script", _GOOD + '<script src="https://cdn.plot.ly/plotly-2.min.js"></script>',
     "requests", "left the machine: https://cdn.plot.ly/plotly-2.min.js"),
    ("missing-raw-file", _GOOD + '<a href="raw/nginx-t5-c500.txt">nginx raw</a>', "links",
     "broken link: raw/nginx-t5-c500.txt"),
    ("rooted-link", _GOOD + '<a href="/results/latest/index.html">latest</a>', "links",
     "absolute link: /results/latest/index.html"),
    ("missing-anchor", _GOOD + '<a href="#tables">tables</a>', "links",
     "no element #tables on the page"),
    ("chart-not-drawn", _GOOD + _STILL, "charts", "chart #still not drawn"),
    ("chart-short-of-a-trace", _GOOD + _ONE_OF_TWO, "charts",
     "chart #short draws 1 traces, data-traces says 2"),
    ("chart-with-a-trace-unmarked", _GOOD + _EMPTY_TRACE, "charts",
     "chart #hollow: 1 of its traces draw no mark"),
    ("table-without-sorting", _PLOT.format(key="bars", expected=2, traces=_TWO_BARS) + _TABLE,
     "sorting", "aria-sort is None, not 'ascending'"),
    ("table-marked-not-sorted", _NOT_SORTED, "sorting",
     "ascending: column 2 reads [115433.0, 8.7, None, 12900.5], not [8.7, 12900.5, 115433.0]"),
    ("no-sortable-table", _PLOT.format(key="bars", expected=2, traces=_TWO_BARS), "sorting",
     "no table.sortable with two rows"),
]
_CHECKS = {
    "console": lambda driver, page: console_errors(driver),
    "requests": lambda driver, page: request_problems(driver),
    "links": link_problems,
    "charts": lambda driver, page: chart_problems(driver, wait_s=1.0),
    "sorting": lambda driver, page: sorting_problems(driver),
}


@pytest.mark.parametrize("name, body, check, expected", BROKEN,
                         ids=[f"{case[0]}-{case[2]}" for case in BROKEN])
def test_a_broken_page_fails_its_check(driver, handmade, name, body, check, expected):
    page = handmade(name, body)
    open_page(driver, page)
    chart_problems(driver, wait_s=1.0)  # the page settles before the logs are read
    found = _CHECKS[check](driver, page)
    assert any(expected in problem for problem in found), found


ORDERS = [  # order, the column as shown, whether that is sorted
    ("ascending", (8.7, 12900.5, 115433.0), True),
    ("ascending", (8.7, 12900.5, 115433.0, None), True),
    ("descending", (None, 115433.0, 12900.5, 8.7), True),
    ("descending", (115433.0, 12900.5, 8.7, None), True),
    ("ascending", (8.7, None, 12900.5, 115433.0), False),
    ("ascending", (12900.5, 8.7, 115433.0), False),
    ("descending", (8.7, 12900.5, 115433.0), False),
]


@pytest.mark.parametrize("order, shown, is_sorted", ORDERS)
def test_a_column_is_sorted_with_its_blank_cells_at_one_end(order, shown, is_sorted):
    assert (browser.order_problem(order, shown) is None) == is_sorted


# --- The pages httplab writes ---------------------------------------------------------

def _runs_with(pattern: str) -> list[Path]:
    """The committed runs (oldest first) whose raw folder holds a file matching pattern,
    plain or in the run's archive."""
    return [run for run in sorted(COMMITTED.iterdir())
            if not run.is_symlink() and (run / RESULTS_JSON).is_file()
            and fnmatch.filter(raw_names(run / RAW), pattern)]


def _chosen_runs() -> dict[str, Path]:
    """A run with flame graphs (PROFILE=1), a make latency run, and the two newest bench
    runs that share a workload, for compare.html (it matches cells on their workload; a
    calibration, whose raw files are a bench's, compares only with another)."""
    benches = [run for run in _runs_with("*-t*-c*.txt")
               if read_results(run / RESULTS_JSON).kind is RunKind.BENCH]
    base, new = _newest_comparable(benches)
    return {"profiled": _runs_with("*.flame.html")[-1], "latency": _runs_with("*.oha.json")[-1],
            "base": base, "new": new}


def _newest_comparable(runs: list[Path]) -> tuple[Path, Path]:
    """The newest run that shares a workload with an older one, and the newest such one."""
    workloads = {run: {json.dumps(workload, sort_keys=True) for workload in json.loads(
        (run / RESULTS_JSON).read_text())["settings"].get("workloads", [None])} for run in runs}
    return next((base, new) for index, new in reversed(list(enumerate(runs)))
                for base in reversed(runs[:index]) if workloads[base] & workloads[new])


@pytest.fixture(scope="module")
def fresh_runs(tmp_path_factory) -> dict[str, Path]:
    """Copies of the chosen runs in a results folder of their own, each rebuilt by
    `httplab report` with the current code (the PNG charts beside a private image path):
    each copy by its role."""
    root = tmp_path_factory.mktemp("fresh") / "results"
    image = root.parent / "image" / "result1.png"
    copies = {}
    for role, run in _chosen_runs().items():
        copies[role] = root / run.name
        if not copies[role].exists():
            shutil.copytree(run, copies[role])
            _httplab("report", "--from", copies[role], "--out", copies[role], "--image", image)
    return copies


def _httplab(*args: object) -> None:
    """Runs an httplab command in this process; what it prints (results.md) is shown
    only when it fails."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        code = httplab([str(arg) for arg in args])
    assert code == 0, f"httplab {' '.join(map(str, args))} exited {code}:\n{printed.getvalue()}"


FRESH_PAGES = {  # test id: where `httplab report` wrote the page
    "fresh-profiled": lambda copies: copies["profiled"] / RUN_PAGE,
    "fresh-latency": lambda copies: copies["latency"] / RUN_PAGE,
    "fresh-run-list": lambda copies: copies["profiled"].parent / RUN_PAGE,
}


@pytest.mark.parametrize("page_id", FRESH_PAGES)
def test_a_freshly_written_page_passes_every_check(driver, fresh_runs, page_id):
    page = FRESH_PAGES[page_id](fresh_runs)
    assert page.is_file(), f"httplab report did not write {page}"
    problems = page_problems(driver, page, page_id, charts_expected=_is_run_page(page))
    assert problems == {}, f"{page}: {problems}"


def test_a_fresh_compare_page_passes_every_check(driver, fresh_runs):
    """compare.html of the two newest bench runs, written where OUT= says."""
    out = fresh_runs["new"].parent / "compare"
    _httplab("compare", "--base", fresh_runs["base"], "--new", fresh_runs["new"], "--out", out)
    page = out / COMPARE_PAGE
    assert page.is_file(), f"httplab compare did not write {page}"
    problems = page_problems(driver, page, "fresh-compare", charts_expected=False)
    assert problems == {}, f"{page}: {problems}"


def test_a_run_page_prints_on_a4(driver, fresh_runs):
    page = fresh_runs["profiled"] / RUN_PAGE
    assert page.is_file(), f"httplab report did not write {page}"
    open_page(driver, page)
    assert chart_problems(driver) == []
    _assert_prints_on_a4(driver)


def _committed_pages() -> list:
    """Each committed run's page and the list of runs, as they are in results/."""
    runs = [run for run in sorted(COMMITTED.iterdir())
            if not run.is_symlink() and (run / RESULTS_JSON).is_file()]
    pages = [(f"committed-{run.name}", run / RUN_PAGE) for run in runs]
    pages.append(("committed-run-list", COMMITTED / RUN_PAGE))
    return [pytest.param(page_id, page, id=page_id) for page_id, page in pages]


@pytest.mark.parametrize("page_id, page", _committed_pages())
def test_a_committed_page_passes_every_check(driver, page_id, page):
    if not page.is_file():
        pytest.fail(f"the committed runs lack their pages: no {page.relative_to(DEFAULT_REPO)} "
                    "(make report FROM=<run> rebuilds a run's page and results/index.html)")
    problems = page_problems(driver, page, page_id, charts_expected=_is_run_page(page))
    assert problems == {}, f"{page}: {problems}"


def _is_run_page(page: Path) -> bool:
    return page.name == RUN_PAGE and (page.parent / RESULTS_JSON).is_file()


def _assert_prints_on_a4(driver) -> None:
    pdf = print_to_pdf(driver)
    assert pdf.startswith(b"%PDF-")
    sizes = pdf_page_sizes_mm(pdf)
    assert sizes, "the PDF has no page"
    for size in sizes:
        assert all(abs(got - a4) < _A4_TOLERANCE_MM for got, a4 in zip(size, A4_MM)), size


# --- Where the browser comes from -----------------------------------------------------

@pytest.mark.parametrize("in_ci, outcome", [(True, pytest.fail.Exception),
                                            (False, pytest.skip.Exception)])
def test_a_missing_browser_fails_in_ci_and_skips_elsewhere(monkeypatch, in_ci, outcome):
    monkeypatch.setattr(browser, "CHROMEDRIVER", Path("/no/such/chromedriver"))
    monkeypatch.setattr(browser, "IN_CI", in_ci)
    with pytest.raises(outcome, match="apt-get install chromium-driver"):
        browser.require_browser()


def test_selenium_manager_is_never_asked_for_a_browser_or_driver(monkeypatch):
    """It would download them, and nothing here can be downloaded."""
    require_browser()
    from selenium.webdriver.common.selenium_manager import SeleniumManager

    def refuse(*args, **kwargs):
        raise AssertionError("Selenium Manager was called")

    monkeypatch.setattr(SeleniumManager, "binary_paths", refuse)
    with chromium() as driver:
        assert driver.capabilities["browserName"] in ("chrome", "chromium")
