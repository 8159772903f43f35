from __future__ import annotations

from pathlib import Path

import pytest

from httplab.loadtools.h2load.reading import read_fairness_run
from httplab.model import FairnessRun
from httplab.run_layout import RunFiles
from tests.conftest import FIXTURES

H2LOAD_FIXTURES = FIXTURES / "h2load"
TOOL = "h2load nghttp2/1.52.0"


def texts(name: str) -> tuple[str, str]:
    return ((H2LOAD_FIXTURES / f"{name}.h2load.txt").read_text(),
            (H2LOAD_FIXTURES / f"{name}.sockets.txt").read_text())


def sources(stem: str) -> tuple[str, str]:
    """The names errors give: the run's h2load and sockets files."""
    files = RunFiles(Path(stem))
    return str(files.h2load), str(files.sockets)


# h2load's figures of nginx-c50, as in test_report.py.
NGINX_SUMMARY = dict(connections=50, duration_s=3.0, requests_per_sec=87174.33,
                     succeeded=261523, failed=0, client_rps_min=1376.24,
                     client_rps_max=2108.54, client_rps_mean=1743.37, client_rps_sd=362.92)


def test_a_normal_run_with_its_socket_window():
    run = read_fairness_run(*texts("nginx-c50"), 50, *sources("raw/nginx-t2-c50"))
    assert run == FairnessRun(**NGINX_SUMMARY, connection_bytes=run.connection_bytes,
                              sockets_from_s=0.307, sockets_to_s=2.712, reopened_connections=0,
                              tool=TOOL)
    assert len(run.connection_bytes) == 50 and run.connection_bytes[0] == 240920


def test_reopened_connections_are_left_out():
    run = read_fairness_run(*texts("nginx-reopen-c50"), 50, *sources("raw/nginx-t2-c50"))
    assert (len(run.connection_bytes), run.reopened_connections) == (25, 25)


def test_failed_requests_are_h2loads():
    run = read_fairness_run(*texts("flaky-500-c50"), 50, *sources("raw/flaky-t2-c50"))
    assert (run.succeeded, run.failed, len(run.connection_bytes)) == (79932, 8857, 50)


def test_without_socket_readings_only_h2loads_summary():
    h2load_text, _ = texts("nginx-c50")
    assert read_fairness_run(h2load_text, None, 50, *sources("raw/nginx-t2-c50")) == FairnessRun(
        **NGINX_SUMMARY)


def test_one_reading_is_no_window_but_names_the_tool():
    h2load_text, sockets_text = texts("nginx-c50")
    first_reading = sockets_text.split("# httplab")[1]
    run = read_fairness_run(h2load_text, "# httplab" + first_reading, 50,
                            *sources("raw/nginx-t2-c50"))
    assert run == FairnessRun(**NGINX_SUMMARY, tool=TOOL)


def test_errors_name_the_file():
    h2load_text, sockets_text = texts("hung-c50")
    with pytest.raises(ValueError, match=r"^raw/x-t2-c50\.h2load\.txt: no h2load summary"):
        read_fairness_run(h2load_text, sockets_text, 50, *sources("raw/x-t2-c50"))
    with pytest.raises(ValueError, match=r"^raw/x-t2-c50\.sockets\.txt:1: a line before"):
        read_fairness_run(texts("nginx-c50")[0], "0 0 a:1 b:2\n", 50, *sources("raw/x-t2-c50"))
