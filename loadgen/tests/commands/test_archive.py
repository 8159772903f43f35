"""A finished run archived in place (python -m httplab.commands.archive), and make report on
it: the same tables as from its plain files; an interrupted run archived by make report; a
run under way left alone."""

from __future__ import annotations

import hashlib
import json
import os
import shutil

import pytest

from httplab.cli import main
from httplab.commands.archive import archive_finished_run, main as archive_main
from httplab.paths import DEFAULT_REPO
from httplab.results.raw_archive import archived_members
from httplab.results.run_archiving import mark_under_way

SMALL_RUN = DEFAULT_REPO / "results" / "2026-11-22T04-48-08Z"  # ten cells, 20 raw files
EXPORTS = ("results.md", "results.csv", "results.json")


@pytest.fixture
def run(tmp_path):
    copy = tmp_path / "results" / SMALL_RUN.name
    shutil.copytree(SMALL_RUN, copy)
    return copy


def _report(repo, run, out) -> dict[str, bytes]:
    """make report of the run into out: each export's bytes."""
    assert main(["--repo", str(repo), "report", "--from", str(run), "--out", str(out),
                 "--image", str(out / "chart.png")]) == 0
    return {name: (out / name).read_bytes() for name in EXPORTS}


def test_a_report_of_the_archived_run_equals_the_report_of_its_plain_files(run, tmp_path, repo):
    plain = _report(repo, run, tmp_path / "from-plain")
    names = sorted(path.name for path in (run / "raw").iterdir())
    assert archive_main([str(run)]) == 0
    assert not list((run / "raw").iterdir())
    assert archived_members(run) == tuple(f"raw/{name}" for name in names)
    assert _report(repo, run, tmp_path / "from-archive") == plain


def test_the_archived_run_records_its_archive_and_its_page_links_the_members(run):
    result = archive_finished_run(run)
    digest = hashlib.sha256((run / "raw.tar.xz").read_bytes()).hexdigest()
    written = json.loads((run / "results.json").read_text())
    assert written["format_version"] == 19
    assert written["raw_archive"] == {"name": "raw.tar.xz", "sha256": digest}
    assert (result.raw_archive.name, result.raw_archive.sha256) == ("raw.tar.xz", digest)
    page = (run / "index.html").read_text()
    assert 'href="raw.tar.xz#raw/netty-t10-c500.txt"' in page
    assert "raw.tar.xz#raw/netty-t10-c500.json</a>" in page  # in the list of members
    assert "tar -xJf raw.tar.xz" in page


def test_a_report_in_place_of_an_interrupted_run_archives_it_and_reads_the_same(run, tmp_path,
                                                                              repo):
    plain = _report(repo, run, tmp_path / "from-plain")
    assert main(["--repo", str(repo), "report", "--from", str(run), "--image",
                 str(tmp_path / "chart.png")]) == 0
    assert (run / "raw.tar.xz").is_file() and not list((run / "raw").iterdir())
    in_place = json.loads((run / "results.json").read_text())
    assert in_place.pop("raw_archive")["sha256"] == hashlib.sha256(
        (run / "raw.tar.xz").read_bytes()).hexdigest()
    from_plain = json.loads(plain["results.json"])
    assert from_plain.pop("raw_archive") is None
    assert in_place == from_plain
    assert (run / "results.md").read_bytes() == plain["results.md"]
    assert (run / "results.csv").read_bytes() == plain["results.csv"]


def test_a_run_under_way_is_left_alone_by_report_and_by_archiving(run, tmp_path, repo, capsys):
    mark_under_way(run, keep_unmeasured=False)
    before = {path: path.read_bytes() for path in run.rglob("*") if path.is_file()}
    assert main(["--repo", str(repo), "report", "--from", str(run), "--image",
                 str(tmp_path / "chart.png")]) == 2
    assert f"is a run under way (process {os.getpid()}" in capsys.readouterr().err
    assert archive_main([str(run)]) == 2
    assert {path: path.read_bytes() for path in run.rglob("*") if path.is_file()} == before


def test_a_folder_that_is_no_run_is_refused(tmp_path, capsys):
    assert archive_main([str(tmp_path)]) == 2
    assert "holds no results.json" in capsys.readouterr().err
