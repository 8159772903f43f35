"""`httplab report` rebuilds the tables and chart from raw wrk text, running nothing."""

import csv
import io
import json
import shutil

import pytest

from httplab.cli import main

from tests.conftest import FIXTURES

WRK = FIXTURES / "wrk"


def test_report_reads_the_original_write_ups_pasted_output(tmp_path, repo, capsys):
    raw = tmp_path / "raw"
    raw.mkdir()
    shutil.copy(WRK / "original-netty-t10-c500.txt", raw / "netty-t10-c500.txt")
    image = tmp_path / "result1.png"
    code = main(["--repo", str(repo), "report", "--from", str(raw), "--out", str(tmp_path),
                 "--image", str(image)])
    assert code == 0, capsys.readouterr().err
    markdown = (tmp_path / "results.md").read_text()
    assert ("| Netty | 10 | 500 | 69296.64 | — | — | 69296.64 | 7.68ms | 10.21ms | 151.09ms | — | — "
            "| 6.61MB | 0/498/0/0 | 0 | — | — | — | ok (CPU and memory unavailable: not sampled) |"
            ) in markdown
    assert "unknown host" in markdown
    assert image.read_bytes()[:4] == b"\x89PNG"


def test_a_broken_file_is_named_with_its_line_and_the_others_are_still_reported(tmp_path, repo, capsys):
    shutil.copy(WRK / "nginx-404.txt", tmp_path / "nginx-t2-c10.txt")
    broken = (WRK / "nginx-hello.txt").read_text().replace("Latency", "Latency  abc", 1)
    (tmp_path / "other-t2-c10.txt").write_text(broken)
    code = main(["--repo", str(repo), "report", "--from", str(tmp_path), "--image",
                 str(tmp_path / "chart.png")])
    assert code == 1
    error = capsys.readouterr().err
    assert "other-t2-c10.txt:" in error and "FAILED other" in error
    cells = json.loads((tmp_path / "results.json").read_text())["cells"]
    assert {c["server"]: c["status"] for c in cells} == {"nginx": "ok", "other": "failed"}


def test_report_of_a_lab_run_keeps_its_host_and_settings(tmp_path, repo):
    run = tmp_path / "run"
    (run / "raw").mkdir(parents=True)
    shutil.copy(WRK / "nginx-hello.txt", run / "raw" / "netty-t2-c10.txt")
    shutil.copy(WRK / "nginx-hello.json", run / "raw" / "netty-t2-c10.json")
    assert main(["--repo", str(repo), "report", "--from", str(run), "--image",
                 str(tmp_path / "a.png")]) == 0
    first = json.loads((run / "results.json").read_text())
    first["host"]["hostname"] = "the-bench-host"
    (run / "results.json").write_text(json.dumps(first))
    assert main(["--repo", str(repo), "report", "--from", str(run), "--image",
                 str(tmp_path / "b.png")]) == 0
    again = json.loads((run / "results.json").read_text())
    assert again["host"]["hostname"] == "the-bench-host"
    assert again["cells"][0]["runs"][0]["requests"] == first["cells"][0]["runs"][0]["requests"]


def test_no_raw_files_is_a_usage_error(tmp_path, repo, capsys):
    assert main(["--repo", str(repo), "report", "--from", str(tmp_path)]) == 2
    assert "no <server>-t<threads>-c<connections>.txt files" in capsys.readouterr().err


def _report_of_reset_capture(tmp_path, repo, with_json: bool) -> tuple[int, str, str, dict]:
    """The real capture of a server that resets every connection: 0 requests, 2492 read errors."""
    raw = tmp_path / "raw"
    raw.mkdir()
    shutil.copy(WRK / "reset-read-errors.txt", raw / "reset-t2-c10.txt")
    if with_json:
        shutil.copy(WRK / "reset-read-errors.json", raw / "reset-t2-c10.json")
    code = main(["--repo", str(repo), "report", "--from", str(raw), "--out", str(tmp_path),
                 "--image", str(tmp_path / "chart.png")])
    return (code, (tmp_path / "results.md").read_text(), (tmp_path / "results.csv").read_text(),
            json.loads((tmp_path / "results.json").read_text()))


@pytest.mark.parametrize("with_json", [True, False], ids=["done-json", "pasted-text"])
def test_a_run_with_no_completed_request_keeps_every_count_in_every_export(tmp_path, repo,
                                                                           with_json):
    code, markdown, csv_text, data = _report_of_reset_capture(tmp_path, repo, with_json)
    assert code == 1
    (cell,) = data["cells"]
    assert cell["status"] == "failed"
    assert cell["reason"].startswith("no request completed in 1.00 s (socket errors: connect 0, "
                                     "read 2492, write 0, timeout 0")
    (run,) = cell["runs"]
    assert (run["requests"], run["bytes_read"], run["socket_errors"]) == (
        0, 0, {"connect": 0, "read": 2492, "write": 0, "timeout": 0})
    assert run["duration_s"] == pytest.approx(1.0, abs=0.01)
    row = next(line for line in markdown.splitlines() if line.startswith("| reset |"))
    assert "| 0.00 |" in row and "| 0/2492/0/0 | 0 |" in row and "| failed: no request" in row
    (csv_row,) = list(csv.DictReader(io.StringIO(csv_text)))
    assert (csv_row["requests_per_sec"], csv_row["socket_errors_read"], csv_row["status"]) == (
        "0.00", "2492", "failed")


GENERATOR_FIXTURES = FIXTURES / "generators"


def spread_run_dir(raw, stem_name: str = "undertow-t2-c50", failure: str | None = None):
    """A run over two generators as the bench leaves it: each one's report and JSON, and
    the record of which engine wrote which; returns the bench-side outcome."""
    from httplab.outcomes import CellOutcome, GeneratorOutcome
    from httplab.results.store import write_generators_file

    generators = []
    for index, engine in ((1, "ssh://lab@a"), (2, "ssh://lab@b")):
        for suffix in (".txt", ".json"):
            shutil.copy(GENERATOR_FIXTURES / f"undertow-t2-c50.g{index}{suffix}",
                        raw / f"{stem_name}.g{index}{suffix}")
        generators.append(GeneratorOutcome(index, engine, 1, 25, raw / f"{stem_name}.g{index}.txt",
                                           raw / f"{stem_name}.g{index}.json",
                                           failure if index == 2 else None))
    write_generators_file(raw / stem_name, tuple(generators))
    repeat = int(stem_name.rsplit("-r", 1)[1]) if "-r" in stem_name else 1
    # A generator's failure is its own, not the run's (the runner leaves failure None).
    return CellOutcome("undertow", 2, 50, repeat=repeat,
                       generators=tuple(generators))


@pytest.mark.parametrize("failure", [None, "wrk on ssh://lab@b exited with 1: killed"],
                         ids=["ok", "a-generator-failed"])
def test_report_rebuilds_a_run_over_generators_exactly_as_the_bench_merged_it(tmp_path, failure):
    from httplab.results.collect import cells_from_outcomes, find_raw_files

    raw = tmp_path / "raw"
    raw.mkdir()
    bench_side = [spread_run_dir(raw, "undertow-t2-c50-r1", failure),
                  spread_run_dir(raw, "undertow-t2-c50-r2")]
    shutil.copy(WRK / "nginx-hello.txt", raw / "nginx-t2-c10.txt")  # one machine, beside
    rebuilt = [found.outcome() for found in find_raw_files(raw)]
    assert [outcome.server for outcome in rebuilt] == ["nginx", "undertow", "undertow"]
    spread_cell = cells_from_outcomes(rebuilt)[1]
    assert cells_from_outcomes(bench_side) == (spread_cell,)
    assert [len(run.generators) for run in spread_cell.runs] == [2, 2]
    assert [g.engine for g in spread_cell.runs[0].generators] == ["ssh://lab@a", "ssh://lab@b"]
    assert spread_cell.reason == (None if failure is None else f"round 1: generator 2 (ssh://lab@b): {failure}")


def test_report_of_generator_files_shows_the_merged_cell_and_keeps_each_generator(tmp_path, repo):
    raw = tmp_path / "raw"
    raw.mkdir()
    spread_run_dir(raw)
    code = main(["--repo", str(repo), "report", "--from", str(raw), "--out", str(tmp_path),
                 "--image", str(tmp_path / "chart.png")])
    assert code == 0
    markdown = (tmp_path / "results.md").read_text()
    assert "| Framework | Threads | Connections | Generators | Requests/sec |" in markdown
    assert "| Undertow (200 workers) | 2 | 50 | 2 |" in markdown
    (cell,) = json.loads((tmp_path / "results.json").read_text())["cells"]
    (run,) = cell["runs"]
    assert run["requests"] == 7594 + 6963
    assert run["start_skew_s"] == pytest.approx(0.221, abs=1e-3)
    assert [g["engine"] for g in run["generators"]] == ["ssh://lab@a", "ssh://lab@b"]
    assert (run["latency_samples"], run["latency_histogram_exact"]) == (9476 + 8687, True)
    (row,) = csv.DictReader(io.StringIO((tmp_path / "results.csv").read_text()))
    assert row["generators"] == "2"


def test_without_the_generators_record_engines_are_unknown(tmp_path):
    from httplab.results.collect import cells_from_outcomes, find_raw_files

    spread_run_dir(tmp_path)
    (tmp_path / "undertow-t2-c50.generators.json").unlink()
    (found,) = find_raw_files(tmp_path)
    assert found.generator_indexes == (1, 2)
    (cell,) = cells_from_outcomes([found.outcome()])
    (run,) = cell.runs
    assert [(g.engine, g.connections, g.threads) for g in run.generators] == [(None, None, 1)] * 2
    assert (run.connections, run.requests, cell.status.value) == (50, 7594 + 6963, "ok")


def test_one_generator_is_read_as_one_machine_always_was(tmp_path):
    from httplab.results.collect import find_raw_files

    shutil.copy(GENERATOR_FIXTURES / "netty-t2-c50.txt", tmp_path / "netty-t2-c50.txt")
    shutil.copy(GENERATOR_FIXTURES / "netty-t2-c50.json", tmp_path / "netty-t2-c50.json")
    (found,) = find_raw_files(tmp_path)
    outcome = found.outcome()
    assert (outcome.generators, outcome.text_path, outcome.json_path) == (
        (), tmp_path / "netty-t2-c50.txt", tmp_path / "netty-t2-c50.json")


def test_report_rebuilds_each_cells_fairness_runs_as_the_bench_read_them(tmp_path, repo):
    """A sweep (10 and 50 connections) with h2load after each measured run at 50: real wrk
    and h2load captures, one of whose h2load runs never finished (a note, not a failure)."""
    from httplab.results.collect import cells_from_outcomes
    from httplab.results.store import read_results

    from tests.results.test_collect_fairness import measured_run

    raw = tmp_path / "raw"
    raw.mkdir()
    bench_side = [measured_run(raw, "nginx-t2-c50-r1", "nginx"),
                  measured_run(raw, "nginx-t2-c50-r2", "nginx-reopen"),
                  measured_run(raw, "nginx-t2-c50-r3", "hung")]
    shutil.copy(WRK / "nginx-hello.json", raw / "nginx-t2-c10.json")
    shutil.copy(WRK / "nginx-hello.txt", raw / "nginx-t2-c10.txt")
    assert main(["--repo", str(repo), "report", "--from", str(raw), "--out", str(tmp_path),
                 "--image", str(tmp_path / "chart.png")]) == 0
    small, swept = read_results(tmp_path / "results.json").cells
    assert (small.connections, small.fairness) == (10, ())
    assert swept == cells_from_outcomes(bench_side)[0]
    assert [run.reopened_connections for run in swept.fairness] == [0, 25]
    assert "h2load after round 3" in swept.runs[2].notes[0]
    markdown = (tmp_path / "results.md").read_text()
    assert "| nginx | 2 | 10 | 0 | — | — | — |" in markdown
    assert "| nginx | 2 | 50 | 2 | 1.30× |" in markdown


def test_report_keeps_a_not_applicable_variant_which_left_no_raw_files(tmp_path, repo):
    run = tmp_path / "run"
    (run / "raw").mkdir(parents=True)
    shutil.copy(WRK / "nginx-hello.txt", run / "raw" / "netty-t2-c10.txt")
    shutil.copy(WRK / "nginx-hello.json", run / "raw" / "netty-t2-c10.json")
    assert main(["--repo", str(repo), "report", "--from", str(run), "--image",
                 str(tmp_path / "a.png")]) == 0
    first = json.loads((run / "results.json").read_text())
    reason = "Netty runs on JDK 21 and 25 only, not 17 (the test's own)"
    na = {**first["cells"][0], "server": "netty@jdk17", "status": "not applicable",
          "reason": reason, "runs": [], "resources": [], "rounds": []}
    first["cells"].insert(0, na)
    first["servers"].append({**first["servers"][0], "name": "netty@jdk17", "jdk": "17",
                             "not_applicable": reason})
    (run / "results.json").write_text(json.dumps(first))
    assert main(["--repo", str(repo), "report", "--from", str(run), "--image",
                 str(tmp_path / "b.png")]) == 0
    again = json.loads((run / "results.json").read_text())
    assert [(cell["server"], cell["status"]) for cell in again["cells"]] == [
        ("netty@jdk17", "not applicable"), ("netty", "ok")]
    assert f"not applicable: {reason}" in (run / "results.md").read_text()
