"""Headless Chromium for the HTML pages' tests: Debian's chromium and chromium-driver,
driven by Selenium, with the network off, and the checks a page must pass, each a small
function that returns what is wrong (empty when nothing is). In CI (CI=true) a missing
browser, driver or Selenium fails those tests; elsewhere they are skipped, saying why."""

from __future__ import annotations

import base64
import importlib.util
import json
import re
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from httplab.paths import DEFAULT_REPO
from tests.docker_support import IN_CI

# Debian's packages (scripts/host-packages.txt, group `browser`). Selenium is given both
# paths, so its Selenium Manager never looks for (or downloads) a browser or a driver.
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
SCREENSHOTS = DEFAULT_REPO / ".test-output" / "browser"
CHART_WAIT_S = 10.0
A4_MM = (210, 297)
_MM_PER_INCH = 25.4
_POINTS_PER_INCH = 72
_SCREENSHOT_MAX_PX = 16_000  # Chromium's longest texture side is 16,384 px
_WINDOW = "1280,900"
_ARGUMENTS = (
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
    f"--window-size={_WINDOW}", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--disable-default-apps",
    # Anything that would still leave the machine goes to a closed port and resolves nowhere.
    "--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=<-loopback>",
    "--host-resolver-rules=MAP * ~NOTFOUND",
)
_OFFLINE = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
_LOCAL_SCHEMES = ("file:", "data:", "blob:", "about:")


def browser_problem() -> str | None:
    """Why no browser test can run here, or None."""
    if importlib.util.find_spec("selenium") is None:
        return "selenium is not installed in the venv (make venv)"
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not path.is_file():
            return f"{path} is missing: apt-get install {package}"
    return None


def require_browser() -> None:
    problem = browser_problem()
    if problem and IN_CI:
        pytest.fail(f"CI needs headless Chromium for this test: {problem}")
    if problem:
        pytest.skip(problem)


def chromium_options():
    from selenium import webdriver

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in _ARGUMENTS:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    return options


@contextmanager
def chromium():
    """A headless Chromium with the network off, quit however the block ends."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=chromium_options())
    try:
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", _OFFLINE)
        yield driver
    finally:
        driver.quit()


def open_page(driver, page: Path) -> None:
    """Loads page from its file, after emptying the logs of whatever came before."""
    driver.get("about:blank")
    driver.get_log("browser")
    driver.get_log("performance")
    driver.get(page.resolve().as_uri())


# The checks. Each reads the page open_page loaded; the logs are read once, so
# console_errors and request_problems are each called once per page.

def console_errors(driver) -> list[str]:
    """The console's messages of level SEVERE (errors, and resources that failed to load)."""
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def request_problems(driver) -> list[str]:
    """Requests that went anywhere but a local file (or data: and blob:), and requests
    that failed."""
    urls, problems = {}, []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        params = message.get("params", {})
        if message["method"] == "Network.requestWillBeSent":
            url = params["request"]["url"]
            urls[params["requestId"]] = url
            if not url.startswith(_LOCAL_SCHEMES):
                problems.append(f"left the machine: {url}")
        elif message["method"] == "Network.loadingFailed":
            url = urls.get(params["requestId"], params["requestId"])
            problems.append(f"failed: {url} ({params.get('errorText', '')})")
    return problems


_CHARTS_JS = """
return Array.from(document.querySelectorAll('div.chart')).map(function (chart) {
  var traces = Array.from(chart.querySelectorAll('svg.main-svg g.trace'));
  return {key: chart.id, drawn: chart.getAttribute('data-drawn') === 'true',
          expected: chart.getAttribute('data-traces'), traces: traces.length,
          marked: traces.filter(function (trace) {
            return Array.from(trace.querySelectorAll('path')).some(function (path) {
              var d = path.getAttribute('d');
              return d && d !== 'M0,0Z' && /\\d/.test(d);
            });
          }).length};
});
"""


def chart_problems(driver, wait_s: float = CHART_WAIT_S) -> list[str]:
    """Every div.chart drawn within wait_s (charts.js sets data-drawn="true"), its SVG
    holding as many traces as its data-traces says, each with a mark drawn."""
    deadline = time.monotonic() + wait_s
    charts = driver.execute_script(_CHARTS_JS)
    while not all(chart["drawn"] for chart in charts) and time.monotonic() < deadline:
        time.sleep(0.1)
        charts = driver.execute_script(_CHARTS_JS)
    return [problem for chart in charts for problem in _chart_problem(chart, wait_s)]


def _chart_problem(chart: dict, wait_s: float) -> list[str]:
    name = f"chart #{chart['key'] or '(no id)'}"
    if not chart["drawn"]:
        return [f"{name} not drawn after {wait_s:g} s"]
    if chart["expected"] is None or not chart["expected"].isdigit():
        return [f"{name} has no data-traces count"]
    if chart["traces"] != int(chart["expected"]):
        return [f"{name} draws {chart['traces']} traces, data-traces says {chart['expected']}"]
    if chart["marked"] != chart["traces"]:
        return [f"{name}: {chart['traces'] - chart['marked']} of its traces draw no mark"]
    return []


def chart_count(driver) -> int:
    return driver.execute_script("return document.querySelectorAll('div.chart').length")


_LINKS_JS = """
var elements = document.querySelectorAll('a[href], link[href], script[src], img[src], iframe[src]');
return {ids: Array.from(document.querySelectorAll('[id]')).map(function (e) { return e.id; }),
        targets: Array.from(elements).map(function (element) {
          return element.getAttribute(element.hasAttribute('href') ? 'href' : 'src');
        })};
"""


def link_problems(driver, page: Path) -> list[str]:
    """Every link of the page (a, link, script, img, iframe) resolved in its folder: it
    must name a file or folder that exists, or an element of the page (#id); no absolute
    address is allowed at all. A fragment after a file's name is not followed."""
    links = driver.execute_script(_LINKS_JS)
    ids = frozenset(links["ids"])
    return [problem for target in links["targets"]
            if (problem := _link_problem(target, page.parent, ids))]


def _link_problem(target: str, folder: Path, ids: frozenset[str]) -> str | None:
    parts = urlsplit(target)
    if parts.scheme == "data":
        return None
    if parts.scheme or parts.netloc or parts.path.startswith("/"):
        return f"absolute link: {target}"
    if not parts.path and parts.fragment and unquote(parts.fragment) not in ids:
        return f"no element #{parts.fragment} on the page"
    if parts.path and not (folder / unquote(parts.path)).exists():
        return f"broken link: {target}"
    return None


_NUMBER = re.compile(r"^[-+]?[\d,]*\.?\d+(?:e[-+]?\d+)?", re.IGNORECASE)

_TABLES_JS = """
return Array.from(document.querySelectorAll('table.sortable')).map(function (table, index) {
  return {index: index, headers: table.tHead ? table.tHead.rows[0].cells.length : 0,
          rows: table.tBodies.length ? Array.from(table.tBodies[0].rows).map(function (row) {
            return Array.from(row.cells).map(function (cell) {
              return (cell.getAttribute('data-sort') || cell.textContent).trim();
            });
          }) : []};
});
"""


_BLANKS = ("", "\u2014", "-")  # cells report.js sorts as empty, to one end


@dataclass(frozen=True)
class SortableColumn:
    table: int  # its index among the page's table.sortable
    column: int
    values: tuple[float | None, ...]  # as the page first shows them; None for a blank


def sortable_column(driver) -> SortableColumn | None:
    """The first table.sortable with two rows or more and a column of numbers (blank
    cells aside) that are not all equal, or None."""
    for table in driver.execute_script(_TABLES_JS):
        for column in range(table["headers"] if len(table["rows"]) > 1 else 0):
            values = _numbers_of(table["rows"], column)
            if values is not None and len({value for value in values if value is not None}) > 1:
                return SortableColumn(table["index"], column, values)
    return None


def _numbers_of(rows: list[list[str]], column: int) -> tuple[float | None, ...] | None:
    """The column's numbers (None for a blank cell), or None when a cell holds no number."""
    texts = [row[column] if column < len(row) else "" for row in rows]
    values = tuple(None if text in _BLANKS else _number(text) for text in texts)
    return None if any(value is None and text not in _BLANKS
                       for value, text in zip(values, texts)) else values


def _number(text: str) -> float | None:
    found = _NUMBER.match(text.replace("\u2212", "-"))
    return float(found.group(0).replace(",", "")) if found else None


def sorting_problems(driver) -> list[str]:
    """A header click sorts the column ascending (aria-sort="ascending"), a second one
    descending; blank cells gather at one end."""
    column = sortable_column(driver)
    if column is None:
        return ["no table.sortable with two rows and a column of differing numbers"]
    problems = []
    for order in ("ascending", "descending"):
        aria_sort, shown = _click_header(driver, column)
        if aria_sort != order:
            problems.append(f"after a click aria-sort is {aria_sort!r}, not {order!r}")
        if problem := order_problem(order, shown):
            problems.append(f"{order}: column {column.column + 1} {problem}")
    return problems


def order_problem(order: str, shown: tuple[float | None, ...]) -> str | None:
    numbers = [value for value in shown if value is not None]
    expected = sorted(numbers, reverse=order == "descending")
    blanks = "".join("b" if value is None else "n" for value in shown)
    if numbers != expected or not re.fullmatch(r"b*n*|n*b*", blanks):
        return f"reads {list(shown)}, not {expected} with any blanks at one end"
    return None


# A reader opens the <details> a table sits in (a chart's figures) before clicking.
_SHOW_JS = """
for (var details = arguments[0].closest('details'); details;
     details = details.parentElement.closest('details')) { details.open = true; }
arguments[0].scrollIntoView({block: 'center'});
"""


def _click_header(driver, column: SortableColumn) -> tuple[str | None, tuple[float | None, ...]]:
    from selenium.webdriver.common.by import By

    table = driver.find_elements(By.CSS_SELECTOR, "table.sortable")[column.table]
    header = table.find_elements(By.CSS_SELECTOR, "thead tr:first-child > *")[column.column]
    driver.execute_script(_SHOW_JS, header)
    header.click()
    rows = driver.execute_script(_TABLES_JS)[column.table]["rows"]
    return header.get_attribute("aria-sort"), _numbers_of(rows, column.column)


def save_screenshot(driver, name: str) -> Path:
    """The whole page (up to Chromium's longest texture) as SCREENSHOTS/<name>.png."""
    metrics = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
    clip = {"x": 0, "y": 0, "width": metrics["width"], "scale": 1,
            "height": min(metrics["height"], _SCREENSHOT_MAX_PX)}
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True, "clip": clip})
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    path.write_bytes(base64.b64decode(shot["data"]))
    print(f"screenshot: {path}")
    return path


def print_to_pdf(driver) -> bytes:
    """The page printed on A4 (Chromium's own print path, print CSS applied)."""
    width, height = (mm / _MM_PER_INCH for mm in A4_MM)
    printed = driver.execute_cdp_cmd("Page.printToPDF", {
        "paperWidth": width, "paperHeight": height, "printBackground": True})
    return base64.b64decode(printed["data"])


_MEDIA_BOX = re.compile(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]")


def pdf_page_sizes_mm(pdf: bytes) -> list[tuple[float, float]]:
    """Each page's size in a PDF as Chromium writes it (its /MediaBox, in points)."""
    return [tuple(float(points) / _POINTS_PER_INCH * _MM_PER_INCH for points in box)
            for box in _MEDIA_BOX.findall(pdf)]


def page_problems(driver, page: Path, name: str, charts_expected: bool) -> dict[str, list[str]]:
    """Every check on one page, by the check's name (only those that found something);
    its screenshot, SCREENSHOTS/<name>.png, is taken before the sorting clicks."""
    open_page(driver, page)
    found = {"charts": chart_problems(driver)}
    if charts_expected and chart_count(driver) == 0:
        found["charts"].append("no div.chart on the page")
    found["console"] = console_errors(driver)
    found["requests"] = request_problems(driver)
    found["links"] = link_problems(driver, page)
    save_screenshot(driver, name)
    found["sorting"] = sorting_problems(driver)
    return {check: problems for check, problems in found.items() if problems}
