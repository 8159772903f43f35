"""Little's law, the self-check of a closed-loop cell: the ratio rate × mean latency ÷
connections, its bounds, and the side it names when out of them; on figures, on real wrk
captures (one edited here), and over every committed run."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from httplab.loadtools.wrk.text_report import parse_report
from httplab.model import (Cell, CellStatus, Latency, ResourceUsage, SocketErrors,
                           WarningKind, WrkRun)
from httplab.paths import DEFAULT_REPO
from httplab.results.closed_loop_check import (HIGH, LOW, Side, check_cell, check_run,
                                               littles_law_warning,
                                               littles_ratio, opened_connections)
from httplab.results.store import read_results
from httplab.run_layout import RESULTS_JSON

from tests.conftest import FIXTURES


def _run(rate: float, mean_us: float, *, threads: int = 5, connections: int = 500,
         max_us: float | None = None, samples: int | None = None, timeouts: int = 0,
         non_2xx: int = 0) -> WrkRun:
    requests = int(rate * 10)
    return WrkRun(duration_s=10.0, requests=requests, bytes_read=requests * 100,
                  requests_per_sec=rate, transfer_per_sec=rate * 100,
                  latency=Latency(mean_us=mean_us, stdev_us=mean_us, max_us=max_us or mean_us),
                  errors=SocketErrors(timeout=timeouts), non_2xx_3xx=non_2xx, threads=threads,
                  connections=connections,
                  latency_samples=None if samples is None else requests + samples)


def test_the_ratio_is_rate_times_mean_latency_over_connections():
    assert littles_ratio(50_000, 10_000, 500) == pytest.approx(1.0)
    assert littles_ratio(65_098, 151, 16) == pytest.approx(0.614, abs=0.001)


@pytest.mark.parametrize("run, side", [
    pytest.param(_run(50_000, 10_000), None, id="in bounds"),
    pytest.param(_run(50_000, 10_000 * LOW + 1), None, id="at the low bound"),
    pytest.param(_run(50_000, 10_000 * HIGH - 1), None, id="at the high bound"),
    pytest.param(_run(50_000, 10_000 * LOW - 1), Side.CLIENT, id="under the low bound"),
    # 16 connections on 10 threads: wrk opens one per thread, ten in all
    pytest.param(_run(65_000, 150, threads=10, connections=16), Side.CONNECTIONS,
                 id="fewer connections opened"),
    # 16 on 10 threads, and even the ten opened were idle a fifth of the time
    pytest.param(_run(52_000, 150, threads=10, connections=16), Side.CLIENT,
                 id="fewer opened, and the client slow as well"),
    pytest.param(_run(40_000, 10_000), Side.CLIENT, id="the client"),
    pytest.param(_run(40_000, 10_000, timeouts=500), Side.ERRORS, id="timeouts"),
    pytest.param(_run(70_000, 10_000, non_2xx=1_000), Side.ERRORS, id="errors"),
    # a 200 ms request is over twice the 10 ms interval: wrk's correction adds samples
    pytest.param(_run(50_000, 13_000, max_us=200_000), Side.CORRECTION, id="the correction"),
    pytest.param(_run(50_000, 13_000, max_us=200_000, samples=0), Side.FIGURES,
                 id="no sample added"),
    pytest.param(_run(50_000, 13_000, max_us=19_000), Side.FIGURES,
                 id="nothing reached twice the interval"),
])
def test_each_side_of_the_rule(run, side):
    check = check_run(run, run.connections)
    assert check.side is side


def test_errors_below_the_step_rule_share_do_not_explain_a_ratio():
    """One timeout in 400,000 requests is no reason: the side is the client's."""
    assert check_run(_run(40_000, 10_000, timeouts=1), 500).side is Side.CLIENT


@pytest.mark.parametrize("tool, named", [(None, "wrk"), ("h2load", "h2load")])
def test_the_client_side_names_the_load_tools_cpu_and_the_hosts(tool, named):
    usage = ResourceUsage(loadgen_cores=0.94, host_busy_cores=1.97)
    check = check_run(replace(_run(40_000, 10_000), tool=tool), 500, usage)
    assert check.figures == f"{named} used 0.94 cores, the host 1.97 busy"


def test_wrk_opens_connections_over_threads_rounded_down_on_each_generator():
    assert opened_connections(_run(1, 1, threads=10, connections=16), 16) == 10
    assert opened_connections(_run(1, 1, threads=5, connections=16), 16) == 15
    merged = _run(1, 1, threads=5, connections=500)
    halves = (_run(1, 1, threads=3, connections=250), _run(1, 1, threads=2, connections=250))
    assert opened_connections(replace(merged, generators=halves), 500) == 249 + 250


def test_a_cells_ratio_is_its_run_farthest_from_one_and_its_warning_says_the_side():
    runs = (_run(50_000, 10_000), _run(50_000, 10_500), _run(40_000, 10_000))
    cell = Cell("netty", 5, 500, CellStatus.OK, runs)
    check = check_cell(cell)
    assert [round(run.ratio, 2) for run in check.runs] == [1.0, 1.05, 0.8]
    assert check.worst.ratio == pytest.approx(0.8) and check.failed
    warning = littles_law_warning(cell, "Netty")
    assert warning.kind is WarningKind.LITTLE and warning.cell == "Netty t5 c500"
    assert warning.text.startswith("Netty t5 c500: rate × mean latency ÷ connections is 0.80: wrk's CPU not measured")
    assert "the client" in warning.cause and warning.advice.startswith("give wrk CPUs")


def test_a_real_capture_of_a_healthy_run_passes():
    """Netty at 500 connections on 10 threads, as wrk printed it: 1.06."""
    run = parse_report((FIXTURES / "wrk" / "original-netty-t10-c500.txt").read_text())
    assert check_run(run, 500).side is None


def test_an_edited_capture_whose_rate_its_connections_and_latency_cannot_give_is_flagged():
    """A real capture (original-netty-t10-c500.txt) EDITED here: Requests/sec raised from
    69,296.64 to 80,000 and the latency's stdev and max lowered to 1 ms and 12 ms. 500
    connections at a mean of 7.68 ms give at most 65,100 answers a second, and with no
    latency reaching twice the 6.25 ms interval wrk's correction added nothing: the side
    named is the figures'."""
    text = (FIXTURES / "wrk" / "original-netty-t10-c500.txt").read_text()
    edited = (text.replace("Requests/sec:  69296.64", "Requests/sec:  80000.00")
              .replace("7.68ms   10.21ms 151.09ms", "7.68ms    1.00ms  12.00ms"))
    assert edited.count("80000.00") == 1 and "12.00ms" in edited
    check = check_run(parse_report(edited), 500)
    assert check.ratio == pytest.approx(1.229, abs=0.001)
    assert check.side is Side.FIGURES


def test_a_real_capture_at_ten_connections_shows_wrks_correction():
    """nginx-hello, unedited: 10 connections, 65,323 req/s, a mean of 430 µs where the rate
    allows 153 µs; its 11 ms maximum is over 70 intervals, so wrk added samples."""
    run = parse_report((FIXTURES / "wrk" / "nginx-hello.txt").read_text())
    check = check_run(run, 10)
    assert check.ratio == pytest.approx(2.81, abs=0.01)
    assert check.side is Side.CORRECTION


# Every cell of the committed runs (results/*/results.json) the rule flags, with its side;
# the reason each is wrong is in docs/method.md, "Little's law, the self-check".
FLAGGED = {
    ("2026-11-22T04-48-08Z", "Netty t10 c500", Side.CORRECTION),
    ("2026-11-22T04-48-08Z", "Netty t5 c500", Side.CORRECTION),
    ("2026-11-22T04-48-08Z", "Vert.x t10 c500", Side.CORRECTION),
    ("2026-11-22T05-03-29Z", "Armeria (16 workers) t5 c500", Side.CORRECTION),
    ("2026-11-22T05-03-29Z", "Netty t10 c500", Side.CORRECTION),
    ("2026-11-22T05-03-29Z", "Undertow (200 workers) t10 c500", Side.CORRECTION),
    ("2026-11-22T05-03-29Z", "Undertow (200 workers) t5 c500", Side.CORRECTION),
    ("2026-11-23T02-07-27Z", "Armeria (16 workers) t5 c500", Side.CORRECTION),
    ("2026-11-23T02-07-27Z", "Netty (4 workers, default) t10 c500", Side.CORRECTION),
    ("2026-11-23T02-07-27Z", "Netty (4 workers, default) t5 c500", Side.CLIENT),
    ("2026-11-23T02-07-27Z", "Undertow (200 workers) t10 c500", Side.CORRECTION),
    ("2026-11-23T02-07-27Z", "Undertow (200 workers) t5 c500", Side.CLIENT),
    ("2026-11-23T02-07-27Z", "Vert.x (4 workers, default) t10 c500", Side.CORRECTION),
    ("2026-11-23T02-07-27Z", "Vert.x (4 workers, default) t5 c500", Side.CLIENT),
    ("2026-11-23T04-59-26Z", "nginx t10 c16", Side.CONNECTIONS),
    ("2026-11-23T04-59-26Z", "Netty t10 c16", Side.CONNECTIONS),
    ("2026-11-23T04-59-26Z", "Armeria (16 workers) t10 c16", Side.CONNECTIONS),
    ("2026-11-23T04-59-26Z", "Armeria (16 workers) t5 c16", Side.CORRECTION),
    ("2026-11-23T04-59-26Z", "Armeria (16 workers) t10 c128", Side.CORRECTION),
    ("2026-11-23T04-59-26Z", "Armeria (16 workers) t5 c128", Side.CORRECTION),
    ("2026-11-23T04-59-26Z", "Armeria (16 workers) t10 c500", Side.CORRECTION),
    ("2026-11-23T04-59-26Z", "Armeria (16 workers) t5 c500", Side.CORRECTION),
    ("2026-11-24T12-11-42Z", "Armeria (16 workers) db t5 c256", Side.CORRECTION),
    ("2026-11-24T12-11-42Z", "Netty db t5 c256", Side.CORRECTION),
    ("2026-11-24T12-11-42Z", "Undertow (200 workers) db t5 c256", Side.CORRECTION),
    ("2026-11-24T15-07-00Z", "Netty (profiled) t5 c500", Side.CORRECTION),
    ("2026-11-24T15-10-47Z", "Undertow (200 workers) t5 c500", Side.CORRECTION),
    ("2026-11-24T15-10-47Z", "Undertow (200 workers) (profiled) t5 c500", Side.CORRECTION),
    # wrk's correction added 15-22 % of these histograms (max 150-292 ms against a 11-13 ms
    # interval): the ratios 1.09-1.30 are those samples, not requests
    ("2026-11-26T12-00-18Z", "Armeria (16 workers) t10 c500", Side.CORRECTION),
    ("2026-11-26T12-00-18Z", "Armeria (16 workers) t5 c500", Side.CORRECTION),
    ("2026-11-26T12-00-18Z", "Undertow (200 workers) t10 c500", Side.CORRECTION),
    # The JDK run and the default run on JDK 25 (2026-11-26): the Spring servers', WebFlux's
    # and Helidon's wrk histograms carry its correction (Tomcat 40-44 %, Helidon 11-28 %:
    # maxima of 0.6-2 s against 5-14 ms intervals); Undertow on JDK 17 at 5 threads is the
    # client: wrk had 0.43 cores of the 2 busy ones.
    ("2026-11-26T14-28-03Z", "Undertow (200 workers, JDK 17) t10 c500", Side.CORRECTION),
    ("2026-11-26T14-28-03Z", "Undertow (200 workers, JDK 17) t5 c500", Side.CLIENT),
    ("2026-11-26T14-28-03Z", "Undertow (200 workers) t10 c500", Side.CORRECTION),
    ("2026-11-26T14-28-03Z", "Undertow (200 workers) t5 c500", Side.CORRECTION),
    ("2026-11-26T14-28-03Z", "Tomcat (200 workers, JDK 17) † t10 c500", Side.CORRECTION),
    ("2026-11-26T14-28-03Z", "Tomcat (200 workers, JDK 17) † t5 c500", Side.CORRECTION),
    ("2026-11-26T14-28-03Z", "Tomcat (200 workers) † t10 c500", Side.CORRECTION),
    ("2026-11-26T14-28-03Z", "Tomcat (200 workers) † t5 c500", Side.CORRECTION),
    ("2026-11-26T14-28-03Z", "Helidon † t10 c500", Side.CORRECTION),
    ("2026-11-26T14-28-03Z", "Helidon † t5 c500", Side.CORRECTION),
    ("2026-11-26T14-54-49Z", "Armeria (16 workers) t5 c500", Side.CORRECTION),
    ("2026-11-26T14-54-49Z", "Undertow (200 workers) t10 c500", Side.CORRECTION),
    ("2026-11-26T14-54-49Z", "Undertow (200 workers) t5 c500", Side.CORRECTION),
    ("2026-11-26T14-54-49Z", "WebFlux (8 workers) t10 c500", Side.CORRECTION),
    ("2026-11-26T14-54-49Z", "WebFlux (8 workers) t5 c500", Side.CORRECTION),
    ("2026-11-26T14-54-49Z", "Helidon † t10 c500", Side.CORRECTION),
    ("2026-11-26T14-54-49Z", "Helidon † t5 c500", Side.CORRECTION),
    ("2026-11-26T14-54-49Z", "Tomcat (200 workers) † t10 c500", Side.CORRECTION),
    ("2026-11-26T14-54-49Z", "Tomcat (200 workers) † t5 c500", Side.CORRECTION),
    # The executors run (2026-11-26): only db cells, on either executor, whose wrk
    # histograms carry its correction (8-32 % of their samples: maxima of 0.3-0.8 s against
    # 20-44 ms intervals, the database queueing the 500 connections on 10 of its own).
    ("2026-11-26T17-57-12Z", "Armeria (16 workers) db t5 c500", Side.CORRECTION),
    ("2026-11-26T17-57-12Z", "Armeria (16 workers, virtual threads) db t5 c500",
     Side.CORRECTION),
    ("2026-11-26T17-57-12Z", "Helidon (virtual threads) † db t5 c500", Side.CORRECTION),
    ("2026-11-26T17-57-12Z", "Netty (virtual threads) db t5 c500", Side.CORRECTION),
    ("2026-11-26T17-57-12Z", "Netty db t5 c500", Side.CORRECTION),
    ("2026-11-26T17-57-12Z", "Tomcat (200 workers, virtual threads) † db t5 c500",
     Side.CORRECTION),
    ("2026-11-26T17-57-12Z", "WebFlux (8 workers) db t5 c500", Side.CORRECTION),
    ("2026-11-26T21-29-14Z", "Netty (io_uring) t10 c500", Side.CORRECTION),
    ("2026-11-26T21-29-14Z", "Vert.x (io_uring) t10 c500", Side.CORRECTION),
    ("2026-11-26T21-29-14Z", "WebFlux (8 workers, epoll) t10 c500", Side.CORRECTION),
    ("2026-11-26T21-29-14Z", "Armeria (16 workers, io_uring) t10 c500", Side.CORRECTION),
    ("2026-11-27T03-52-46Z", "nginx (h2c) t10 c500", Side.CLIENT),
    ("2026-11-27T03-52-46Z", "nginx (h2) t10 c500", Side.CLIENT),
    ("2026-11-27T03-52-46Z", "Netty (h1-tls) t10 c500", Side.CORRECTION),
    ("2026-11-27T03-52-46Z", "Netty (h2c) t10 c500", Side.CLIENT),
    ("2026-11-27T03-52-46Z", "Netty (h2) t10 c500", Side.CLIENT),
    ("2026-11-27T03-52-46Z", "Vert.x (h1-tls) t10 c500", Side.CORRECTION),
    ("2026-11-27T03-52-46Z", "Armeria (16 workers) t10 c500", Side.CORRECTION),
    ("2026-11-27T03-52-46Z", "Tomcat (200 workers) † t10 c500", Side.CORRECTION),
    ("2026-11-27T03-52-46Z", "Tomcat (200 workers, h1-tls) † t10 c500", Side.CORRECTION),
    # The 10-round io_uring run (2026-12-06): every cell, on either engine, as its page
    # warns: wrk's correction added 10-26 % of these histograms (maxima of 159-486 ms
    # against 4.9-7.7 ms intervals).
    ("2026-12-06T05-19-34Z", "nginx t10 c500", Side.CORRECTION),
    ("2026-12-06T05-19-34Z", "nginx t5 c500", Side.CORRECTION),
    ("2026-12-06T05-19-34Z", "Netty (epoll) t10 c500", Side.CORRECTION),
    ("2026-12-06T05-19-34Z", "Netty (epoll) t5 c500", Side.CORRECTION),
    ("2026-12-06T05-19-34Z", "Netty (io_uring) t10 c500", Side.CORRECTION),
    ("2026-12-06T05-19-34Z", "Netty (io_uring) t5 c500", Side.CORRECTION),
    ("2026-12-06T05-19-34Z", "Vert.x (epoll) t10 c500", Side.CORRECTION),
    ("2026-12-06T05-19-34Z", "Vert.x (epoll) t5 c500", Side.CORRECTION),
    ("2026-12-06T05-19-34Z", "Vert.x (io_uring) t10 c500", Side.CORRECTION),
    ("2026-12-06T05-19-34Z", "Vert.x (io_uring) t5 c500", Side.CORRECTION),
}


def _committed_runs(repo: Path) -> list[Path]:
    return sorted(path for path in (repo / "results").glob(f"*/{RESULTS_JSON}")
                  if not path.parent.is_symlink())


def test_the_cells_the_rule_flags_in_the_committed_runs():
    """A change of the rule or its bounds shows here, cell by cell."""
    flagged = set()
    for path in _committed_runs(DEFAULT_REPO):
        result = read_results(path)
        for cell in result.cells:
            warning = littles_law_warning(cell, result.label(cell.server))
            if warning:
                flagged.add((path.parent.name, warning.cell, check_cell(cell).worst.side))
    assert flagged == FLAGGED


def test_the_committed_runs_checked_are_every_wrk_run():
    """The pinned list covers the committed runs: 583 closed-loop runs (wrk's, and from
    2026-11-27T03-52-46Z h2load's over HTTP/2; 20 of them make calibrate's, 2026-11-29T00-05-56Z;
    100 the 10-round io_uring run's, 2026-12-06T05-19-34Z),
    each with a ratio."""
    checked = [run for path in _committed_runs(DEFAULT_REPO)
               for cell in read_results(path).cells if (check := check_cell(cell))
               for run in check.runs]
    assert len(checked) == 583


def test_a_run_out_of_bounds_decides_the_cell_even_when_one_inside_is_farther_from_one():
    """0.905 is farther from 1 than 1.101 (in ratio), but only 1.101 is out of bounds."""
    cell = Cell("netty", 5, 500, CellStatus.OK, (_run(50_000, 9_050),
                                                 _run(50_000, 11_010, max_us=200_000)))
    assert check_cell(cell).worst.ratio == pytest.approx(1.101)
    assert check_cell(cell).failed


def test_cells_wrong_on_one_side_are_one_group_and_the_page_marks_their_rows():
    """Warnings are made with the others (cell_warnings); the run page marks a warned row
    with the kind's noun (presentation/html/row_marks.py)."""
    from httplab.model import BenchResult, HostInfo
    from httplab.presentation.html.row_marks import WARNED, RunMarks
    from httplab.results.assemble import with_warnings
    from httplab.results.warning_groups import warning_groups

    cells = tuple(Cell("netty", 5, connections, CellStatus.OK,
                       (_run(50_000, 13_000, connections=connections, max_us=900_000),))
                  for connections in (500, 256))
    result = with_warnings(BenchResult(11, "2026-11-26T08-00-00Z", None, HostInfo(), (), cells))
    (group,) = warning_groups(result)
    assert group.kind is WarningKind.LITTLE and len(group.warnings) == 2
    assert "wrk's correction" in group.cause
    marks = RunMarks(result)
    assert marks.of_cell(cells[0]) == WARNED
    assert marks.warned_words(cells[0]) == (
        "warned: cell whose rate, connections and mean latency disagree (Little's law)")


@pytest.mark.parametrize("ratio, text", [(1.0, "1.00"), (0.614, "0.61"), (1.103, "1.103"),
                                         (0.897, "0.897"), (1.73, "1.73")])
def test_a_ratio_that_would_round_to_a_bound_keeps_a_third_decimal(ratio, text):
    from httplab.results.closed_loop_check import ratio_text
    assert ratio_text(ratio) == text


@pytest.mark.parametrize("streams, ratio", [(1, 1.0), (4, 1.0), (None, 1.0)])
def test_over_http2_each_connection_carries_h2loads_streams(streams, ratio):
    """500 connections with 4 streams each keep 2000 requests in flight: at 1 ms, 2M/s."""
    in_flight = 500 * (streams or 1)
    run = replace(_run(in_flight * 1000, 1000), tool="h2load" if streams else None,
                  streams=streams)
    assert check_run(run, 500).ratio == pytest.approx(ratio)


def test_h2load_opens_every_connection_asked_whatever_its_threads():
    assert opened_connections(replace(_run(1, 1, threads=10, connections=16), tool="h2load"),
                              16) == 16
