"""End to end on the local backend: two real servers, short wrk runs, real files written."""

from __future__ import annotations

import json

import pytest

from httplab.cli import main

from .conftest import port_is_listening
from .test_chart import png_size

SERVERS = ("netty", "vertx")


@pytest.mark.slow
def test_local_bench_of_two_servers_writes_table_json_csv_and_chart(tmp_path, repo):
    assert not port_is_listening(8080), "port 8080 is busy before the test; free it first"
    image = tmp_path / "result1.png"
    code = main(["--repo", str(repo), "bench", "--backend", "local", "--servers", ",".join(SERVERS),
                 "--threads", "2", "--connections", "50", "--duration", "2s",
                 "--results-dir", str(tmp_path / "results"), "--image", str(image)])
    assert code == 0
    run_dir = (tmp_path / "results" / "latest").resolve()
    data = json.loads((run_dir / "results.json").read_text())
    assert [(c["server"], c["threads"], c["connections"]) for c in data["cells"]] == \
        [(name, 2, 50) for name in SERVERS]
    for cell in data["cells"]:
        run = cell["runs"][0]
        assert cell["status"] == "ok" and run["requests"] > 0 and run["non_2xx_3xx"] == 0
        assert run["latency_us"]["percentiles"]["p99.9"] >= run["latency_us"]["percentiles"]["p50"]
    assert all(s["verification"].startswith("all ") for s in data["servers"])
    markdown = (run_dir / "results.md").read_text()
    assert "| Netty | 2 | 50 |" in markdown and "| Vert.x | 2 | 50 |" in markdown
    assert (run_dir / "results.csv").read_text().count("\n") == 3
    assert sorted(p.name for p in (run_dir / "raw").iterdir()) == sorted(
        f"{name}-t2-c50.{ext}" for name in SERVERS for ext in ("json", "txt"))
    assert png_size(image.read_bytes())[0] > 800
    assert not port_is_listening(8080), "a server was left running on port 8080"
