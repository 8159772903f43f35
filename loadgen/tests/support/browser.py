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
A4_INCHES = (8.27, 11.69)
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
return Array.from(document.querySelectorAll('a[href], link[href], script[src], img[src], iframe[src]'))
  .map(function (element) {
    return element.getAttribute(element.hasAttribute('href') ? 'href' : 'src');
  });
"""


def link_problems(driver, page: Path) -> list[str]:
    """Every link of the page (a, link, script, img, iframe) resolved in its folder: it
    must name a file or folder that exists; no absolute address is allowed at all."""
    return [problem for target in driver.execute_script(_LINKS_JS)
            if (problem := _link_problem(target, page.parent))]


def _link_problem(target: str, folder: Path) -> str | None:
    parts = urlsplit(target)
    if parts.scheme == "data" or (not parts.scheme and not parts.netloc and not parts.path):
        return None  # inline data, or a #fragment of this page
    if parts.scheme or parts.netloc or parts.path.startswith("/"):
        return f"absolute link: {target}"
    if not (folder / unquote(parts.path)).exists():
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


@dataclass(frozen=True)
class SortableColumn:
    table: int  # its index among the page's table.sortable
    column: int
    values: tuple[float, ...]  # as the page first shows them


def sortable_column(driver) -> SortableColumn | None:
    """The first table.sortable with two rows or more and a column of numbers that are
    not all equal, or None."""
    for table in driver.execute_script(_TABLES_JS):
        rows = table["rows"]
        if len(rows) < 2:
            continue
        for column in range(table["headers"]):
            values = [_number(row[column]) if column < len(row) else None for row in rows]
            if None not in values and len(set(values)) > 1:
                return SortableColumn(table["index"], column, tuple(values))
    return None


def _number(text: str) -> float | None:
    found = _NUMBER.match(text.replace("\u2212", "-"))
    return float(found.group(0).replace(",", "")) if found else None


def sorting_problems(driver) -> list[str]:
    """A header click sorts the column ascending (aria-sort="ascending"), a second one
    descending."""
    column = sortable_column(driver)
    if column is None:
        return ["no table.sortable with two rows and a column of differing numbers"]
    problems = []
    for order, expected in (("ascending", sorted(column.values)),
                            ("descending", sorted(column.values, reverse=True))):
        aria_sort, shown = _click_header(driver, column)
        if aria_sort != order:
            problems.append(f"after a click aria-sort is {aria_sort!r}, not {order!r}")
        if shown != expected:
            problems.append(f"{order}: column {column.column + 1} reads {shown}, not {expected}")
    return problems


def _click_header(driver, column: SortableColumn) -> tuple[str | None, list[float]]:
    from selenium.webdriver.common.by import By

    table = driver.find_elements(By.CSS_SELECTOR, "table.sortable")[column.table]
    header = table.find_elements(By.CSS_SELECTOR, "thead tr:first-child > *")[column.column]
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", header)
    header.click()
    rows = driver.execute_script(_TABLES_JS)[column.table]["rows"]
    return header.get_attribute("aria-sort"), [_number(row[column.column]) for row in rows]


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
    width, height = A4_INCHES
    printed = driver.execute_cdp_cmd("Page.printToPDF", {
        "paperWidth": width, "paperHeight": height, "printBackground": True})
    return base64.b64decode(printed["data"])
