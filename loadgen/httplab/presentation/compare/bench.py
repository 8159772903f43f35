"""Compare two bench runs cell by cell: is a difference in Requests/sec real, or noise? Pure.

Cells are matched on (server, workload, threads, connections). Each side's runs are
summarized (median, minimum, maximum) as figures of their own; the ratio is the estimate of
results/unpaired_ratio.py, exp(mean log new - mean log base), at the centre of its 95 %
Welch interval on the logarithms, with its p-value.

The verdict:

* n >= 2 on both sides: each cell's p-value is counted among the compare's other cells
  (Benjamini-Hochberg, results/false_discovery.py), and the cell is "faster" or "slower"
  only when its q-value is below 0.05; otherwise "not distinguishable" from the noise of
  the two runs, which is not "no change".
* n = 1 on either side: "noise unknown". One run says nothing about its spread, so the
  ratio is shown but not judged.

It is said in words too, as a run's variants compared say theirs (wording/variants.py):
"new is 10 % faster (8 to 12 %)", "not distinguishable from the noise among 14 comparisons:
the interval spans -5 to +4 %".

Cells that cannot be compared are named plainly: "missing in base" / "missing in new"
(the cell is not in that run) and "failed in base" / "failed in new" / "failed in both".
A cell that has no measured run counts as failed; one with a run at 0 req/s has no
logarithm and is not judged.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum

from httplab.presentation.wording.formatting import MISSING, aligned_rows
from httplab.presentation.wording.variants import (clear_difference, counted_sentence,
                                                    format_interval, format_q, runs_sentence)
from httplab.model import PLAINTEXT, BenchResult, Cell, CellStatus, Workload
from httplab.results.paired_ratio import CONFIDENCE
from httplab.results.stats import Metric, Summary, cell_summary, requests_per_sec
from httplab.results.false_discovery import count_family
from httplab.results.unpaired_ratio import UnpairedRatio, unpaired_ratio

CellKey = tuple[str, Workload, int, int]  # server, workload, threads, connections
RERUN_ADVICE = ("Some cells were measured only once, so their noise is unknown: "
                "rerun both benches with REPEAT=3 or more.")
COMPARE_MADE = "The two runs make"  # the subject of counted_sentence
REQUESTS_PER_SEC = "Requests/sec"


class Verdict(str, Enum):
    FASTER = "faster"
    SLOWER = "slower"
    NOT_DISTINGUISHABLE = "not distinguishable"
    NOISE_UNKNOWN = "noise unknown"
    ZERO = "not judged (a run at 0)"
    MISSING_IN_BASE = "missing in base"
    MISSING_IN_NEW = "missing in new"
    FAILED_IN_BASE = "failed in base"
    FAILED_IN_NEW = "failed in new"
    FAILED_IN_BOTH = "failed in both"


class Side(str, Enum):
    """What one run holds for a cell."""

    MEASURED = "measured"
    FAILED = "failed"
    MISSING = "missing"


@dataclass(frozen=True)
class CellComparison:
    server: str
    label: str
    threads: int
    connections: int
    base_side: Side
    new_side: Side
    base: Summary | None  # None unless base_side is MEASURED
    new: Summary | None
    figures: UnpairedRatio | None  # None unless both sides are MEASURED
    verdict: Verdict
    workload: Workload = PLAINTEXT

    @property
    def ratio(self) -> float | None:
        """The estimate, new over base; None when either side is unknown."""
        return None if self.figures is None else self.figures.ratio


def compare_results(base: BenchResult, new: BenchResult,
                    metric: Metric = requests_per_sec) -> tuple[CellComparison, ...]:
    """One comparison per cell of either run, base's order first, then cells only in new;
    the cells' verdicts counted among one another."""
    base_cells, new_cells = _cells_by_key(base), _cells_by_key(new)
    keys = list(dict.fromkeys([*base_cells, *new_cells]))
    return counted_cells([compare_cell(key, base_cells.get(key), new_cells.get(key),
                                       _label(key[0], base, new), metric)
                          for key in keys])


def compare_cell(key: CellKey, base: Cell | None, new: Cell | None, label: str,
                 metric: Metric = requests_per_sec) -> CellComparison:
    """One cell, its verdict uncounted (its own family of one: its q-value its p-value)."""
    base_side, new_side = side_of(base), side_of(new)
    measured = base_side is Side.MEASURED and new_side is Side.MEASURED
    figures = unpaired_ratio([metric(run) for run in base.runs],
                             [metric(run) for run in new.runs]) if measured else None
    server, workload, threads, connections = key
    return CellComparison(
        server=server, label=label, threads=threads, connections=connections, workload=workload,
        base_side=base_side, new_side=new_side,
        base=cell_summary(base, metric) if base_side is Side.MEASURED else None,
        new=cell_summary(new, metric) if new_side is Side.MEASURED else None,
        figures=figures, verdict=verdict_of(base_side, new_side, figures))


def counted_cells(comparisons: Sequence[CellComparison]) -> tuple[CellComparison, ...]:
    """The comparisons with their q-values among one another, and the verdicts they give."""
    family = count_family([one.figures for one in comparisons])
    return tuple(replace(one, figures=figures,
                         verdict=verdict_of(one.base_side, one.new_side, figures))
                 for one, figures in zip(comparisons, family))


def side_of(cell: Cell | None) -> Side:
    if cell is None:
        return Side.MISSING
    if cell.status is CellStatus.FAILED or not cell.runs:
        return Side.FAILED
    return Side.MEASURED


def verdict_of(base_side: Side, new_side: Side, figures: UnpairedRatio | None) -> Verdict:
    # Missing is named before failed: a cell absent from a run says more than how it ended.
    if base_side is Side.MISSING:
        return Verdict.MISSING_IN_BASE
    if new_side is Side.MISSING:
        return Verdict.MISSING_IN_NEW
    if base_side is Side.FAILED and new_side is Side.FAILED:
        return Verdict.FAILED_IN_BOTH
    if base_side is Side.FAILED:
        return Verdict.FAILED_IN_BASE
    if new_side is Side.FAILED or figures is None:
        return Verdict.FAILED_IN_NEW
    return noise_verdict(figures)


def noise_verdict(figures: UnpairedRatio) -> Verdict:
    """The module docstring's rule, on the figures as counted so far."""
    if figures.ratio is None:
        return Verdict.ZERO
    if not figures.has_interval:
        return Verdict.NOISE_UNKNOWN
    if not clear_difference(figures):
        return Verdict.NOT_DISTINGUISHABLE
    return Verdict.FASTER if figures.ratio > 1 else Verdict.SLOWER


INTERVAL = f"{CONFIDENCE:.0%} interval"


def render_comparison(comparisons: Sequence[CellComparison]) -> str:
    """How many comparisons the two runs make, a plain-text table of Requests/sec (with a
    Workload column when some cell's is not plaintext), a line counting the verdicts, and
    advice to repeat when some cell was measured only once."""
    header = ("Server", "Threads", "Conns", "Base req/s median [min–max]",
              "New req/s median [min–max]", "Ratio", INTERVAL, "q", "Verdict")
    rows = [_row(comparison) for comparison in comparisons]
    if any(not comparison.workload.is_plaintext for comparison in comparisons):
        header = header[:1] + ("Workload",) + header[1:]
        rows = [row[:1] + (comparison.workload.label,) + row[1:]
                for row, comparison in zip(rows, comparisons)]
    lines = aligned_rows([header, *rows])
    lines.insert(1, "-" * len(lines[0]))
    made = cells_made(comparisons)
    lines = [made, ""] + lines if made else lines
    lines.append(verdict_counts(comparisons))
    if any(_measured_once(comparison) for comparison in comparisons):
        lines.append(RERUN_ADVICE)
    return "\n".join(lines) + "\n"


def comparisons_made(families: Mapping[str, Sequence[UnpairedRatio | None]]) -> str | None:
    """counted_sentence over each figure's comparisons with an interval (families: by the
    figure's name); None when none has one."""
    made = {figure: [one for one in ratios if one and one.p_value is not None]
            for figure, ratios in families.items()}
    by_figure = {figure: len(ratios) for figure, ratios in made.items() if ratios}
    named = sum(clear_difference(one) for ratios in made.values() for one in ratios)
    return counted_sentence(COMPARE_MADE, by_figure, named) if by_figure else None


def cells_made(comparisons: Sequence[CellComparison]) -> str | None:
    """How many comparisons of Requests/sec the cells make (comparisons_made)."""
    return comparisons_made({REQUESTS_PER_SEC: [one.figures for one in comparisons]})


def figures_text(figures: UnpairedRatio | None) -> tuple[str, str, str]:
    """The estimate ('1.10x'), its interval and its q-value, each MISSING when unknown."""
    if figures is None:
        return MISSING, MISSING, MISSING
    return format_ratio(figures.ratio), format_interval(figures), format_q(figures)


IN_WORDS = "In words (new against base):"


def in_words(items: Sequence[str]) -> list[str]:
    """A blank line, IN_WORDS and one line per judged figure; none when none was judged."""
    return ["", IN_WORDS, *(f"- {item}" for item in items)] if items else []


def cells_in_words(comparisons: Sequence[CellComparison]) -> list[str]:
    return in_words(cell_sentences(comparisons))


def cell_sentences(comparisons: Sequence[CellComparison]) -> list[str]:
    """'Netty t10 c500: new is 10 % faster (8 to 12 %)' for each cell the rule judged."""
    sentences = ((_cell_name(one), runs_sentence(one.figures, False))
                 for one in comparisons if one.figures is not None)
    return [f"{what}: {sentence}" for what, sentence in sentences if sentence]


def _cell_name(comparison: CellComparison) -> str:
    workload = "" if comparison.workload.is_plaintext else f" {comparison.workload.label}"
    return f"{comparison.label}{workload} t{comparison.threads} c{comparison.connections}"


def verdict_counts(comparisons: Sequence[CellComparison]) -> str:
    """'2 faster, 1 not distinguishable, 1 missing in new', in the order of Verdict."""
    if not comparisons:
        return "No cells to compare."
    counts = Counter(comparison.verdict for comparison in comparisons)
    return ", ".join(f"{counts[verdict]} {verdict.value}" for verdict in Verdict
                     if counts[verdict]) + "."


def format_summary(side: Side, summary: Summary | None) -> str:
    """'69297 [68810–70102] n=3'; one run has no range to show."""
    if summary is None:
        return "failed" if side is Side.FAILED else MISSING
    if summary.n == 1:
        return f"{summary.median:.0f} n=1"
    return f"{summary.median:.0f} [{summary.minimum:.0f}–{summary.maximum:.0f}] n={summary.n}"


def format_ratio(ratio: float | None) -> str:
    return MISSING if ratio is None else f"{ratio:.2f}x"


def _row(comparison: CellComparison) -> tuple[str, ...]:
    return (comparison.label, str(comparison.threads), str(comparison.connections),
            format_summary(comparison.base_side, comparison.base),
            format_summary(comparison.new_side, comparison.new),
            *figures_text(comparison.figures), comparison.verdict.value)


def _measured_once(comparison: CellComparison) -> bool:
    return any(summary is not None and summary.n == 1
               for summary in (comparison.base, comparison.new))


def _cells_by_key(result: BenchResult) -> dict[CellKey, Cell]:
    return {(cell.server, cell.workload, cell.threads, cell.connections): cell
            for cell in result.cells}


def _label(server: str, base: BenchResult, new: BenchResult) -> str:
    """The new run's label for the server, else the base run's, else its name."""
    record = new.server(server) or base.server(server)
    return record.label if record else server


# h2load after each measured run (fairness) loads the server between the rounds wrk measures.
COMPARED_SETTINGS = ("threads", "connections", "duration_s", "backend", "repeat", "primer_s",
                     "warmup_s", "server_cpus", "loadgen_cpus", "fairness", "workloads")


def comparability_notes(base: BenchResult, new: BenchResult,
                        compared: tuple[str, ...] = COMPARED_SETTINGS) -> list[str]:
    """What differs between the two runs besides the software under test: a ratio across
    hosts or protocols measures those too. `compared`: the settings that matter."""
    notes = []
    if base.host.describe() != new.host.describe():
        notes.append(f"different hosts: base {base.host.describe()}; new {new.host.describe()}")
    if base.settings is None or new.settings is None:
        return notes + ["one run has no recorded settings (rebuilt from foreign raw output)"]
    return notes + differences(base.settings, new.settings, compared)


def differences(base: object, new: object, names: tuple[str, ...]) -> list[str]:
    """'<name> differs: base <value>, new <value>' for each named field that differs."""
    return [f"{name} differs: base {_setting_text(getattr(base, name))}, new "
            f"{_setting_text(getattr(new, name))}"
            for name in names if getattr(base, name) != getattr(new, name)]


def _setting_text(value: object) -> str:
    """(16, 128, 500) -> '16, 128, 500', workloads by their labels ('plaintext, blocking
    10 ms'); anything else as Python prints it."""
    if isinstance(value, tuple):
        return ", ".join(item.label if isinstance(item, Workload) else str(item) for item in value)
    return str(value)
