"""Writing the pages: every write of a run's results writes its index.html, the list of the
runs beside it (read afresh, so it follows runs added, broken or removed) and the chart
library once in assets/."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest

from httplab.presentation.html.assets import ASSETS
from httplab.presentation.publish import (install_chart_library, plotly_script, run_files,
                                          write_run_list)
from httplab.presentation.publish import headline_chart_path, write_results
from httplab.results.store import write_atomically
from httplab.presentation.json.results import JsonExporter
from httplab.run_layout import RESULTS_JSON, RUN_PAGE
from tests.latency_sample import latency_sample_result
from tests.sample_results import sample_result


def write_run(root, folder: str, stamp: str):
    run_dir = root / folder
    (run_dir / "raw").mkdir(parents=True)
    write_results(replace(sample_result(), created_utc=stamp), run_dir, None)
    return run_dir


def test_a_written_run_has_its_page_and_the_library_beside_the_runs(tmp_path):
    run_dir = write_run(tmp_path, "2026-11-24T10-00-00Z", "2026-11-24T10-00-00Z")
    page = (run_dir / RUN_PAGE).read_text()
    [library] = (tmp_path / ASSETS).iterdir()
    assert f'src="../{ASSETS}/{library.name}"' in page
    assert library.read_bytes() == plotly_script().read_bytes()
    assert "2026-11-24T10-00-00Z" in (tmp_path / RUN_PAGE).read_text()


def test_the_list_follows_the_runs_beside_it(tmp_path):
    write_run(tmp_path, "2026-11-24T10-00-00Z", "2026-11-24T10-00-00Z")
    write_run(tmp_path, "2026-11-24T11-00-00Z", "2026-11-24T11-00-00Z")
    (tmp_path / "latest").symlink_to("2026-11-24T11-00-00Z")
    (tmp_path / ".tmp").mkdir()
    (tmp_path / ".tmp" / RESULTS_JSON).write_text("{}")
    (tmp_path / "no-results").mkdir()
    broken = tmp_path / "2026-11-24T12-00-00Z"
    broken.mkdir()
    (broken / RESULTS_JSON).write_text("{not json")
    write_run_list(tmp_path)
    listing = (tmp_path / RUN_PAGE).read_text()
    assert listing.index("2026-11-24T11-00-00Z/index.html") < listing.index(
        "2026-11-24T10-00-00Z/index.html")
    assert "cannot read results.json" in listing
    assert "latest/" not in listing and ".tmp" not in listing and "no-results" not in listing


@pytest.mark.parametrize("name, listed", [
    ("results.md", True), ("raw/netty-t10-c500.txt", True), ("raw/unmeasured/netty-warmup.txt", True),
    (RUN_PAGE, False), (".results.md.tmp", False), ("raw/.netty.txt.tmp", False),
])
def test_run_files_lists_what_a_page_may_link_to(tmp_path, name, listed):
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("x")
    assert (name in run_files(tmp_path)) is listed


def test_the_library_is_copied_once(tmp_path):
    library = install_chart_library(tmp_path)
    target = tmp_path / ASSETS / library.file_name
    os.utime(target, (1, 1))
    assert install_chart_library(tmp_path) == library
    assert target.stat().st_mtime == 1


def test_a_truncated_library_is_copied_again(tmp_path):
    library = install_chart_library(tmp_path)
    target = tmp_path / ASSETS / library.file_name
    target.write_text("partial")
    install_chart_library(tmp_path)
    assert target.read_bytes() == plotly_script().read_bytes()


def test_the_page_is_rewritten_with_each_write(tmp_path):
    run_dir = write_run(tmp_path, "run", "2026-11-24T10-00-00Z")
    write_atomically(run_dir / RESULTS_JSON, JsonExporter().render(sample_result()))
    (run_dir / "raw" / "extra.txt").write_text("x")
    write_results(sample_result(), run_dir, None)
    assert 'href="raw/extra.txt"' in (run_dir / RUN_PAGE).read_text()


def test_a_run_without_a_page_is_listed_by_its_markdown(tmp_path):
    run_dir = write_run(tmp_path, "2026-11-24T10-00-00Z", "2026-11-24T10-00-00Z")
    (run_dir / RUN_PAGE).unlink()
    write_run_list(tmp_path)
    listing = (tmp_path / RUN_PAGE).read_text()
    assert 'href="2026-11-24T10-00-00Z/results.md"' in listing
    assert "2026-11-24T10-00-00Z/index.html" not in listing


def test_the_chart_a_latency_run_names_is_its_curve_beside_image():
    assert headline_chart_path(latency_sample_result(), Path("image/stalls/result1.png")) == (
        Path("image/stalls/result-latency.png"))
