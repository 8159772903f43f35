"""Warnings grouped by kind and cause: a cause many cells share is said once, in results.md
and in the closing line, while results.json keeps each cell's sentence."""

from __future__ import annotations

import pytest

from httplab.commands.common import finish
from httplab.model import (BenchResult, Cell, CellStatus, CellWarning, HostInfo, Latency,
                           ResourceUsage, ServerRecord, Settings, WarningKind, WrkRun)
from httplab.presentation.markdown.results import MarkdownExporter
from httplab.presentation.wording.warnings import warning_item
from httplab.results.assemble import with_warnings
from httplab.results.warning_groups import kinds_in_words, warning_groups

STABLE, NOISY = (100.0, 100.0, 100.0), (100.0, 130.0, 70.0)  # CV 0 and 30 %
# (server, wrk, host busy) cores on a 2-core host, wrk at 2 threads
SHARED, LOADGEN, SERVER = (1.0, 0.9, 1.95), (0.5, 1.9, 1.95), (1.9, 0.05, 1.95)
# A warning this lab no longer makes: no cause, no cell.
OLDER_WARNING = CellWarning(WarningKind.OTHER, "an older run's warning")


def measured(server: str, threads: int, rates: tuple[float, ...] = STABLE,
          cpu: tuple[float, float, float] = SERVER) -> Cell:
    runs = tuple(WrkRun(duration_s=10.0, requests=int(rate * 10), bytes_read=0,
                        requests_per_sec=rate, transfer_per_sec=0.0,
                        latency=Latency(None, None, None)) for rate in rates)
    usage = ResourceUsage(cpu_cores=cpu[0], loadgen_cores=cpu[1], host_busy_cores=cpu[2])
    return Cell(server, threads, 100, CellStatus.OK, runs, resources=(usage,) * len(rates))


def result_of(*cells: Cell, warnings: tuple[CellWarning, ...] | None = None) -> BenchResult:
    """The result as the lab assembles it; given warnings replace the ones it would make."""
    servers = tuple(ServerRecord(name, name.capitalize(), name, "1", "", "nio")
                    for name in dict.fromkeys(cell.server for cell in cells))
    settings = Settings(tuple(record.name for record in servers), (2,), (100,), 10.0, "docker",
                        repeat=3)
    result = with_warnings(BenchResult(6, "2026-11-24T00-00-00Z", settings, HostInfo(cores=2),
                                       servers, cells))
    return result if warnings is None else BenchResult(
        6, result.created_utc, settings, result.host, servers, cells, warnings=warnings)


def _groups(result: BenchResult) -> list[tuple[WarningKind, list[str]]]:
    return [(group.kind, [warning.cell for warning in group.warnings])
            for group in warning_groups(result)]


@pytest.mark.parametrize("case, result, expected", [
    ("no warnings", result_of(measured("netty", 2), measured("vertx", 2)), []),
    ("one cause shared by many cells: one group naming every cell",
     result_of(measured("netty", 2, cpu=SHARED), measured("netty", 4, cpu=SHARED),
               measured("vertx", 2, cpu=SHARED)),
     [(WarningKind.SHARED_CPUS, ["Netty t2 c100", "Netty t4 c100", "Vertx t2 c100"])]),
    ("mixed kinds: the largest group first, then as results.json lists them",
     result_of(measured("netty", 2, NOISY, SHARED), measured("vertx", 2, cpu=LOADGEN),
               measured("undertow", 2, cpu=SHARED), measured("armeria", 2, NOISY),
               measured("webflux", 2, NOISY[:2], SHARED)),
     [(WarningKind.SHARED_CPUS, ["Netty t2 c100", "Undertow t2 c100", "Webflux t2 c100"]),
      (WarningKind.NOISY, ["Netty t2 c100", "Armeria t2 c100"]),
      (WarningKind.NOISY, ["Webflux t2 c100"]), (WarningKind.LOADGEN, ["Vertx t2 c100"])]),
    ("a single warning stays a group of its own",
     result_of(measured("netty", 2, NOISY), measured("vertx", 2)),
     [(WarningKind.NOISY, ["Netty t2 c100"])]),
    ("noisy over a different number of runs is another cause",
     result_of(measured("netty", 2, NOISY), measured("vertx", 2, NOISY[:2])),
     [(WarningKind.NOISY, ["Netty t2 c100"]), (WarningKind.NOISY, ["Vertx t2 c100"])]),
    ("only the warnings results.json lists; those this lab does not make stay one each",
     result_of(measured("netty", 2, NOISY), measured("vertx", 2, NOISY),
               warnings=(OLDER_WARNING, *result_of(measured("netty", 2, NOISY)).warnings,
                         OLDER_WARNING)),
     [(WarningKind.OTHER, [""]), (WarningKind.NOISY, ["Netty t2 c100"]),
      (WarningKind.OTHER, [""])]),
], ids=lambda value: value if isinstance(value, str) else "")
def test_warning_groups(case, result, expected):
    assert _groups(result) == expected
    assert sum(len(group.warnings) for group in warning_groups(result)) == len(result.warnings)


def test_a_group_keeps_each_cells_sentence_exactly_as_results_json_does():
    result = result_of(measured("netty", 2, NOISY, SHARED), measured("vertx", 2, cpu=SHARED))
    texts = [warning.text for group in warning_groups(result) for warning in group.warnings]
    assert sorted(texts) == sorted(warning.text for warning in result.warnings)
    assert tuple(warning.text for warning in result.warnings) == (
        "Netty t2 c100: Requests/sec varies by 30.0% (coefficient of variation over 3 runs, "
        "threshold 5%); rerun with more repeats (REPEAT=5), longer runs (DURATION=30s), on a "
        "quieter host, or with wrk and the server on separate CPUs (SERVER_CPUS, LOADGEN_CPUS)",
        "Netty t2 c100: limited by the CPUs wrk and the server share (server 1.00 of 2 cores, "
        "wrk 0.90 of 2, host busy 1.95 of 2); the figure understates the server: pin wrk and "
        "the server to separate CPUs (SERVER_CPUS=1 LOADGEN_CPUS=0 on 2 cores) or run wrk on "
        "another machine",
        "Vertx t2 c100: limited by the CPUs wrk and the server share (server 1.00 of 2 cores, "
        "wrk 0.90 of 2, host busy 1.95 of 2); the figure understates the server: pin wrk and "
        "the server to separate CPUs (SERVER_CPUS=1 LOADGEN_CPUS=0 on 2 cores) or run wrk on "
        "another machine")


SHARED_CAUSE = ("Neither wrk nor the server used 90% of the CPUs it may use, but together they "
                "kept at least 90% of the host's cores busy (each cell's figures are under "
                "\"Where the CPU went\"); the figure understates the server: pin wrk and the "
                "server to separate CPUs (SERVER_CPUS=1 LOADGEN_CPUS=0 on 2 cores) or run wrk "
                "on another machine")
NOISY_CAUSE = ("Requests/sec varies from run to run by more than the 5% threshold (coefficient "
               "of variation over 3 runs); rerun with more repeats (REPEAT=5), longer runs "
               "(DURATION=30s), on a quieter host, or with wrk and the server on separate CPUs "
               "(SERVER_CPUS, LOADGEN_CPUS)")


@pytest.mark.parametrize("case, result, items", [
    ("the cause once, after the cells", result_of(
        measured("netty", 2, cpu=SHARED), measured("vertx", 2, cpu=SHARED),
        measured("undertow", 2)),
     [f"2 cells limited by the shared CPUs: Netty t2 c100, Vertx t2 c100. {SHARED_CAUSE}"]),
    ("every measured cell, when it is", result_of(
        measured("netty", 2, cpu=SHARED), measured("vertx", 2, cpu=SHARED),
        Cell("undertow", 2, 100, CellStatus.FAILED, reason="no answer")),
     [f"2 cells limited by the shared CPUs: every measured cell. {SHARED_CAUSE}"]),
    ("each cell's own figure where they differ", result_of(
        measured("netty", 2, NOISY), measured("vertx", 2, (100.0, 110.0, 90.0))),
     [f"2 noisy cells (CV above threshold): Netty t2 c100 (30.0%), Vertx t2 c100 (10.0%). "
      f"{NOISY_CAUSE}"]),
    ("a single warning as it is", result_of(measured("netty", 2, cpu=LOADGEN)),
     ["Netty t2 c100: limited by the load generator (server 0.50 of 2 cores, wrk 1.90 of 2, "
      "host busy 1.95 of 2); the figure understates the server: pin wrk and the server to "
      "separate CPUs (SERVER_CPUS=1 LOADGEN_CPUS=0 on 2 cores) or run wrk on another machine"]),
], ids=lambda value: value if isinstance(value, str) else "")
def test_markdown_says_a_shared_cause_once(case, result, items):
    assert [warning_item(group) for group in warning_groups(result)] == items
    markdown = MarkdownExporter().render(result)
    assert markdown.endswith("\nWarnings:\n\n" + "".join(f"- {item}\n" for item in items))


@pytest.mark.parametrize("result, words", [
    (result_of(measured("netty", 2, NOISY, SHARED), measured("vertx", 2, cpu=SHARED)),
     "2 cells limited by the shared CPUs, 1 noisy cell (CV above threshold)"),
    (result_of(measured("netty", 2, NOISY), measured("vertx", 2, NOISY[:2], LOADGEN)),
     "2 noisy cells (CV above threshold), 1 cell limited by the load generator"),
    (result_of(measured("netty", 2), warnings=(CellWarning(WarningKind.OTHER, "one"),
                                               CellWarning(WarningKind.OTHER, "two"))),
     "2 other warnings"),
    (result_of(measured("netty", 2)), ""),
])
def test_the_kinds_in_words_count_the_cells_of_each_kind(result, words):
    assert kinds_in_words(warning_groups(result)) == words


def test_the_closing_line_names_each_kind_of_warning(tmp_path, capsys):
    result = result_of(measured("netty", 2, NOISY, SHARED), measured("vertx", 2, cpu=SHARED))
    (tmp_path / "results.md").write_text(MarkdownExporter().render(result))
    assert finish(result, tmp_path, None) == 0
    closing = capsys.readouterr().err.splitlines()[-1]
    assert closing == (f"httplab: warnings: 2 cells limited by the shared CPUs, 1 noisy cell "
                       f"(CV above threshold); listed under Warnings above and in "
                       f"{tmp_path / 'results.md'}")


def test_no_warnings_no_closing_word_of_them(tmp_path, capsys):
    result = result_of(measured("netty", 2))
    (tmp_path / "results.md").write_text(MarkdownExporter().render(result))
    finish(result, tmp_path, None)
    assert capsys.readouterr().err.splitlines() == [
        f"httplab: results in {tmp_path}",
        f"httplab: read the run first in a browser: {tmp_path / 'index.html'}"]
