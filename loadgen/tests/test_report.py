"""`httplab report` rebuilds the tables and chart from raw wrk text, running nothing."""

import json
import shutil

from httplab.cli import main

from .conftest import FIXTURES

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
