"""Comparing two runs cell by cell: a difference counts only when it beats the noise, among
the compare's other cells."""

import json
import math
import random
from dataclasses import replace

import pytest

from httplab.cli import main
from httplab.presentation.compare.bench import (IN_WORDS, RERUN_ADVICE, Side, Verdict,
                                                cells_in_words, compare_results,
                                                render_comparison)
from httplab.results.unpaired_ratio import unpaired_ratio
from httplab.model import BenchResult, Cell, CellStatus
from httplab.results.results_json.write import result_to_dict
from tests.sample_results import _run, sample_result
from tests.support.results_formats import as_format


def measured(rates: list[float], server: str = "netty", threads: int = 10,
             connections: int = 500) -> Cell:
    return Cell(server, threads, connections, CellStatus.OK,
                tuple(_run(rate, threads) for rate in rates))


def failed(server: str = "netty", threads: int = 10, connections: int = 500) -> Cell:
    return Cell(server, threads, connections, CellStatus.FAILED, reason="crashed")


def result_of(*cells: Cell) -> BenchResult:
    return replace(sample_result(), cells=cells)


def compare_one(base: Cell | None, new: Cell | None):
    base_result = result_of(*([base] if base else []))
    new_result = result_of(*([new] if new else []))
    [comparison] = compare_results(base_result, new_result)
    return comparison


def geometric_mean(values: list[float]) -> float:
    return math.exp(sum(math.log(value) for value in values) / len(values))


@pytest.mark.parametrize("base, new, verdict", [
    ([100, 102, 101], [110, 112, 111], Verdict.FASTER),
    ([100, 102, 101], [90, 92, 91], Verdict.SLOWER),
    ([100, 110, 105], [108, 115, 112], Verdict.NOT_DISTINGUISHABLE),  # p 0.14
    ([100, 110], [110, 120], Verdict.NOT_DISTINGUISHABLE),  # ranges apart, but n = 2
    ([100, 100, 100], [100, 100, 100], Verdict.NOT_DISTINGUISHABLE),
    ([100], [120, 121, 119], Verdict.NOISE_UNKNOWN),
    ([100, 101, 99], [150], Verdict.NOISE_UNKNOWN),
    ([100], [100], Verdict.NOISE_UNKNOWN),
    ([0, 100], [100, 101], Verdict.ZERO),
], ids=["faster", "slower", "overlap", "two runs apart", "equal values", "base n=1",
        "new n=1", "equal n=1", "a run at 0"])
def test_verdict_and_the_ratio_of_geometric_means(base, new, verdict):
    comparison = compare_one(measured(base), measured(new))
    assert comparison.verdict is verdict
    expected = None if 0 in base else geometric_mean(new) / geometric_mean(base)
    assert comparison.ratio == (None if expected is None else pytest.approx(expected))
    assert (comparison.base.n, comparison.new.n) == (len(base), len(new))


def test_a_difference_alone_clear_is_not_named_among_ten_comparisons():
    clear = ([100, 101, 102], [104, 105, 106])
    assert unpaired_ratio(*clear).p_value < 0.05
    alone = compare_one(measured(clear[0]), measured(clear[1]))
    assert alone.verdict is Verdict.FASTER and alone.figures.among == 1
    base = result_of(measured(clear[0]), *(measured([100, 104, 98], threads=t)
                                           for t in range(1, 10)))
    new = result_of(measured(clear[1]), *(measured([99, 103, 101], threads=t)
                                          for t in range(1, 10)))
    first = compare_results(base, new)[0]
    assert first.figures.among == 10 and first.figures.q_value >= 0.05
    assert first.verdict is Verdict.NOT_DISTINGUISHABLE
    assert cells_in_words([first])[2].startswith(
        "- Netty t10 c500: not distinguishable from the noise among 10 comparisons: "
        "the interval spans")


def test_with_no_real_difference_a_compare_of_twenty_cells_seldom_names_one():
    """Seeded: 20 cells, 3 runs a side, the same log-normal noise on both sides. About 5 %
    of compares name any difference (the false-discovery level); without the q-values,
    most would."""
    rng = random.Random(44)
    trials, named, named_alone = 200, 0, 0
    for _ in range(trials):
        cells = [[rng.lognormvariate(10, 0.05) for _ in range(6)] for _ in range(20)]
        base = result_of(*(measured(runs[:3], threads=t) for t, runs in enumerate(cells)))
        new = result_of(*(measured(runs[3:], threads=t) for t, runs in enumerate(cells)))
        comparisons = compare_results(base, new)
        named += any(one.verdict in (Verdict.FASTER, Verdict.SLOWER) for one in comparisons)
        named_alone += any(one.figures.p_value < 0.05 for one in comparisons)
    assert named / trials <= 0.08
    assert named_alone / trials > 0.4


@pytest.mark.parametrize("base, new, verdict, sides", [
    (measured([100, 101]), None, Verdict.MISSING_IN_NEW, (Side.MEASURED, Side.MISSING)),
    (None, measured([100, 101]), Verdict.MISSING_IN_BASE, (Side.MISSING, Side.MEASURED)),
    (None, failed(), Verdict.MISSING_IN_BASE, (Side.MISSING, Side.FAILED)),
    (failed(), measured([100, 101]), Verdict.FAILED_IN_BASE, (Side.FAILED, Side.MEASURED)),
    (measured([100, 101]), failed(), Verdict.FAILED_IN_NEW, (Side.MEASURED, Side.FAILED)),
    (failed(), failed(), Verdict.FAILED_IN_BOTH, (Side.FAILED, Side.FAILED)),
    (measured([]), measured([100, 101]), Verdict.FAILED_IN_BASE, (Side.FAILED, Side.MEASURED)),
], ids=["missing in new", "missing in base", "missing beats failed", "failed in base",
        "failed in new", "failed in both", "no runs counts as failed"])
def test_cells_that_cannot_be_compared_are_named(base, new, verdict, sides):
    comparison = compare_one(base, new)
    assert comparison.verdict is verdict
    assert (comparison.base_side, comparison.new_side) == sides
    assert comparison.ratio is None
    for side, summary in zip(sides, (comparison.base, comparison.new)):
        assert (summary is not None) == (side is Side.MEASURED)


def test_cells_match_on_server_threads_and_connections_in_base_order():
    base = result_of(measured([1, 2], threads=10), measured([1, 2], threads=5),
                     measured([1, 2], server="undertow"))
    new = result_of(measured([1, 2], threads=5), measured([1, 2], connections=100),
                    measured([1, 2], threads=10))
    keys = [(c.server, c.threads, c.connections, c.verdict) for c in compare_results(base, new)]
    assert keys == [("netty", 10, 500, Verdict.NOT_DISTINGUISHABLE),
                    ("netty", 5, 500, Verdict.NOT_DISTINGUISHABLE),
                    ("undertow", 10, 500, Verdict.MISSING_IN_NEW),
                    ("netty", 10, 100, Verdict.MISSING_IN_BASE)]


def test_rows_carry_the_server_label():
    [comparison] = compare_results(result_of(measured([1, 2], server="undertow")),
                                   result_of(measured([1, 2], server="undertow")))
    assert comparison.label == "Undertow (200 workers)"


def test_rendered_table():
    base = result_of(measured([100, 102, 101]), measured([200, 210], threads=5),
                     failed("undertow"))
    new = result_of(measured([110, 112, 111]), measured([205, 208], threads=5),
                    failed("undertow"))
    lines = render_comparison(compare_results(base, new)).splitlines()
    assert lines[0].startswith("The two runs make 2 comparisons (2 of Requests/sec): about "
                               "0.1 of their 95% intervals would exclude 1 by chance alone, "
                               "and 1 stands out of the noise.")
    assert lines[1] == ""
    assert lines[2].split("  ")[0] == "Server"
    assert [name in lines[2] for name in ("Ratio", "95% interval", "q", "Verdict")] == [True] * 4
    assert set(lines[3]) == {"-"}
    assert lines[4].split() == ["Netty", "10", "500", "101", "[100–102]", "n=3",
                                "111", "[110–112]", "n=3", "1.10x", "1.08–1.12×", "<", "0.001",
                                "faster"]
    assert lines[5].split() == ["Netty", "5", "500", "205", "[200–210]", "n=2",
                                "206", "[205–208]", "n=2", "1.01x", "0.80–1.27×", "0.810",
                                "not", "distinguishable"]
    assert lines[6].split() == ["Undertow", "(200", "workers)", "10", "500", "failed", "failed",
                                "—", "—", "—", "failed", "in", "both"]
    assert lines[7] == "1 faster, 1 not distinguishable, 1 failed in both."
    assert len(lines) == 8, "no advice to repeat when every cell was measured often enough"


def test_rendered_table_asks_for_repeats_when_a_side_ran_once():
    text = render_comparison(compare_results(result_of(measured([100])),
                                             result_of(measured([112, 113]))))
    assert not text.startswith("The two runs make"), "no comparison has an interval"
    row, counts, advice = text.splitlines()[2:]
    assert row.split()[3:] == ["100", "n=1", "112", "[112–113]", "n=2", "1.12x", "—", "—",
                               "noise", "unknown"]
    assert counts == "1 noise unknown."
    assert advice == RERUN_ADVICE and "REPEAT=3 or more" in advice


def test_rendered_missing_cell():
    text = render_comparison(compare_results(result_of(), result_of(measured([100, 101]))))
    assert text.splitlines()[2].split()[3:] == ["—", "100", "[100–101]", "n=2", "—", "—", "—",
                                                "missing", "in", "base"]


def write_results(directory, result: BenchResult):
    directory.mkdir()
    (directory / "results.json").write_text(json.dumps(result_to_dict(result)))
    return directory


def test_cli_compares_run_directories_or_results_json(tmp_path, capsys):
    base = write_results(tmp_path / "base", result_of(measured([100, 102, 101])))
    new = write_results(tmp_path / "new", result_of(measured([110, 112, 111])))
    for new_argument in (new, new / "results.json"):
        code = main(["--repo", str(tmp_path), "compare", "--base", str(base), "--new",
                     str(new_argument)])
        out = capsys.readouterr().out
        assert code == 0
        assert "1.10x" in out and "1 faster." in out


@pytest.mark.parametrize("content, message", [
    (None, "no results.json at"),
    ("{not json", "cannot read"),
    ("[]", "cannot read"),
    (json.dumps({"format_version": 99}), "results format version 99"),
    (json.dumps({"format_version": 1}), "missing or has an unknown field"),
], ids=["missing", "not json", "not an object", "unknown version", "incomplete"])
def test_cli_exits_2_with_one_line_when_results_are_missing_or_unreadable(
        tmp_path, capsys, content, message):
    good = write_results(tmp_path / "good", result_of(measured([100, 101])))
    bad = tmp_path / "bad"
    bad.mkdir()
    if content is not None:
        (bad / "results.json").write_text(content)
    for base, new in ((good, bad), (bad, good)):
        code = main(["compare", "--base", str(base), "--new", str(new)])
        captured = capsys.readouterr()
        assert code == 2
        assert captured.err.count("\n") == 1 and message in captured.err
        assert str(bad / "results.json") in captured.err
        assert captured.out == ""


def test_comparability_notes_name_what_differs_besides_the_software():
    from dataclasses import replace

    from httplab.presentation.compare.bench import comparability_notes

    from tests.sample_results import sample_result

    base = sample_result()
    assert comparability_notes(base, base) == []
    new = replace(base, settings=replace(base.settings, warmup_s=0.0, connections=(100,),
                                         fairness=False),
                  host=replace(base.host, hostname="other-host"))
    notes = comparability_notes(base, new)
    assert notes[0].startswith("different hosts: base lab-host")
    assert "connections differs: base 16, 500, new 100" in notes
    assert "fairness differs: base True, new False" in notes
    assert "warmup_s differs: base 10.0, new 0.0" in notes
    assert comparability_notes(base, replace(base, settings=None))[-1].startswith("one run has no")


def test_sweeps_compare_cell_by_cell_at_each_connection_count():
    base = result_of(measured([100, 101], connections=16), measured([200, 201], connections=128),
                     measured([300, 301], connections=500))
    new = result_of(measured([150, 151], connections=16), measured([200, 202], connections=128),
                    measured([250, 251], connections=500))
    verdicts = [(c.connections, c.verdict) for c in compare_results(base, new)]
    assert verdicts == [(16, Verdict.FASTER), (128, Verdict.NOT_DISTINGUISHABLE),
                        (500, Verdict.SLOWER)]


def as_format_5(result: BenchResult) -> dict:
    """results.json as version 5 wrote it: one connection count, no fairness anywhere."""
    data = as_format(result_to_dict(result), 5)
    data["settings"]["connections"] = data["settings"]["connections"][0]
    del data["settings"]["fairness"]
    for cell in data["cells"]:
        del cell["fairness"]
    return data


def test_cli_compares_a_format_5_file_with_a_format_6_one(tmp_path, capsys):
    base = tmp_path / "base"
    base.mkdir()
    old = replace(sample_result(), cells=(measured([100, 102, 101]),))
    (base / "results.json").write_text(json.dumps(as_format_5(
        replace(old, settings=replace(old.settings, connections=(500,), fairness=False)))))
    new = write_results(tmp_path / "new", result_of(measured([110, 112, 111])))
    assert main(["--repo", str(tmp_path), "compare", "--base", str(base), "--new", str(new)]) == 0
    out = capsys.readouterr().out
    assert "1.10x" in out and "1 faster." in out
    assert "note: connections differs: base 500, new 16, 500" in out
    assert "note: fairness differs: base False, new True" in out


@pytest.mark.parametrize("base, new, sentence", [
    ([100, 102, 101], [110, 112, 111], "new is 10 % faster (8 to 12 %)"),
    ([100, 102, 101], [90, 91, 92], "new is 10 % slower (8 to 12 %)"),
    ([200, 210], [205, 208], "not distinguishable from the noise: the interval spans -20 to "
                             "+27 %"),
    ([100], [112, 113], None),
    ([0, 100], [112, 113], None),
], ids=["faster", "slower", "not distinguishable", "noise unknown", "a run at 0"])
def test_the_verdict_in_words_follows_the_rule(base, new, sentence):
    (comparison,) = compare_results(result_of(measured(base)), result_of(measured(new)))
    words = cells_in_words([comparison])
    assert words == ([] if sentence is None else ["", IN_WORDS, f"- Netty t10 c500: {sentence}"])
