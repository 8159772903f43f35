"""compare.html, make compare's page: the two runs side by side, what differs between them
besides the software, how many comparisons they make, then per cell (per server for latency
runs) each run's value and spread, the estimate with its interval and q-value, and the
verdict, as `httplab compare` prints them (compare/bench.py, compare/latency.py, whose rules
this only shows). Pure: commands/compare.py writes it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from httplab.model import BenchResult, RunKind
from httplab.presentation.compare.bench import (IN_WORDS, INTERVAL, RERUN_ADVICE,
                                                CellComparison, Verdict, cell_sentences,
                                                cells_made, comparability_notes,
                                                compare_results, figures_text,
                                                format_summary, verdict_counts)
from httplab.presentation.compare.latency import RERUN_ADVICE as LATENCY_RERUN_ADVICE
from httplab.presentation.compare.latency import (COST_RATE_WORDS, COST_WORDS, MAXIMUM_WORDS,
                                                  RATE_WORDS, ServerComparison, compare_costs,
                                                  compare_maxima, latency_comparability_notes,
                                                  server_sentences, servers_made)
from httplab.presentation.compare.runs import incomparable_reason
from httplab.presentation.html.run_list import date_text, run_kind, settings_brief
from httplab.presentation.html.templating import render
from httplab.presentation.wording.formatting import MISSING
from httplab.presentation.wording.latency import cost_rate_text, slo_text
from httplab.results.stats import Summary

BETTER, WORSE, FAILED = "better", "worse", "failed"
TONES = {Verdict.FASTER.value: BETTER, Verdict.SLOWER.value: WORSE,
         RATE_WORDS[Verdict.FASTER]: BETTER, RATE_WORDS[Verdict.SLOWER]: WORSE,
         COST_WORDS[Verdict.SLOWER]: BETTER, COST_WORDS[Verdict.FASTER]: WORSE,
         Verdict.FAILED_IN_BASE.value: FAILED, Verdict.FAILED_IN_NEW.value: FAILED,
         Verdict.FAILED_IN_BOTH.value: FAILED}


@dataclass(frozen=True)
class RunRef:
    """A run as the page names it, and its page relative to compare.html (None: it has none)."""

    name: str
    page_href: str | None


@dataclass(frozen=True)
class ComparedRow:
    keys: tuple[str, ...]  # what identifies the cell: server, workload, threads, connections
    base_value: str
    base_spread: str
    new_value: str
    new_spread: str
    ratio: str  # the estimate
    interval: str
    q: str
    verdict: str

    @property
    def tone(self) -> str:
        return TONES.get(self.verdict, "")


@dataclass(frozen=True)
class ComparedTable:
    key: str  # a valid HTML id
    title: str
    key_columns: tuple[str, ...]
    value: str  # what the value columns hold: "median", "max", "µs median"
    rows: tuple[ComparedRow, ...]
    counts: str  # "2 faster, 1 not distinguishable."
    words: tuple[str, ...] = ()  # each judged figure in words, as make compare prints them
    words_intro: str = IN_WORDS


def render_compare_page(base: BenchResult, new: BenchResult, base_ref: RunRef,
                        new_ref: RunRef) -> str:
    """The page; for runs that cannot be compared, the line saying why and no tables."""
    reason = incomparable_reason(base, new)
    notes, tables, made, advice = [], [], None, None
    if reason is None and base.kind is not RunKind.LATENCY:
        comparisons = compare_results(base, new)
        notes, tables = comparability_notes(base, new), [bench_table(comparisons)]
        made, advice = cells_made(comparisons), RERUN_ADVICE if _unknown(tables) else None
    elif reason is None:
        maxima, costs = compare_maxima(base, new), compare_costs(base, new)
        notes, tables = (latency_comparability_notes(base, new),
                         latency_tables(base, new, maxima, costs))
        made = servers_made(maxima, costs)
        advice = LATENCY_RERUN_ADVICE if _unknown(tables) else None
    runs = [_run_facts(base), _run_facts(new)]
    return render("compare.html.j2", base=base_ref, new=new_ref, runs=runs, reason=reason,
                  notes=notes, made=made, tables=tables, advice=advice, interval=INTERVAL)


def _unknown(tables: Sequence[ComparedTable]) -> bool:
    """Whether some figure was judged without a known noise: the advice to repeat applies."""
    return any(row.verdict == Verdict.NOISE_UNKNOWN.value for table in tables
               for row in table.rows)


def _run_facts(result: BenchResult) -> dict[str, str]:
    """What the table of the two runs shows of each, by row."""
    return {"Date": date_text(result.created_utc), "Kind": run_kind(result),
            "Settings": settings_brief(result), "httplab commit": result.lab_commit or MISSING,
            "Host": result.host.describe(), "Warnings": str(len(result.warnings))}


def bench_table(comparisons: Sequence[CellComparison]) -> ComparedTable:
    with_workload = any(not one.workload.is_plaintext for one in comparisons)
    keys = ("Server", "Workload", "Threads", "Connections") if with_workload else (
        "Server", "Threads", "Connections")
    return ComparedTable("cells", "Requests/sec, cell by cell", keys, "median",
                         tuple(_bench_row(one, with_workload) for one in comparisons),
                         verdict_counts(comparisons), tuple(cell_sentences(comparisons)))


def _bench_row(one: CellComparison, with_workload: bool) -> ComparedRow:
    keys = (one.label, *((one.workload.label,) if with_workload else ()), str(one.threads),
            str(one.connections))
    base_value, base_spread = _side(one.base, format_summary(one.base_side, None), 0)
    new_value, new_spread = _side(one.new, format_summary(one.new_side, None), 0)
    return ComparedRow(keys, base_value, base_spread, new_value, new_spread,
                       *figures_text(one.figures), one.verdict.value)


def _side(summary: Summary | None, absent: str, digits: int,
          value: float | None = None) -> tuple[str, str]:
    """A side's value (the median unless given) and the spread of its runs: '100–102, n=3'."""
    if summary is None:
        return absent, ""
    shown = summary.median if value is None else value
    if summary.n == 1:
        return f"{shown:,.{digits}f}", "n=1"
    return (f"{shown:,.{digits}f}",
            f"{summary.minimum:,.{digits}f}–{summary.maximum:,.{digits}f}, n={summary.n}")


def latency_tables(base: BenchResult, new: BenchResult, maxima: Sequence[ServerComparison],
                   costs: Sequence[ServerComparison]) -> list[ComparedTable]:
    rate = f"common rate: base {cost_rate_text(base)}, new {cost_rate_text(new)}"
    return [_latency_table("maxima", f"Max sustainable rate at "
                           f"{slo_text(new.latency.slo_p99_us)} (req/s: the lowest of each "
                           "run's rounds, and their spread)", "max",
                           maxima, 0, (MAXIMUM_WORDS, False)),
            _latency_table("costs", f"Server CPU per request at the common rate ({rate})",
                           "µs median", costs, 1, (COST_RATE_WORDS, True))]


def _latency_table(key: str, title: str, value: str, comparisons: Sequence[ServerComparison],
                   digits: int, figure: tuple[str, bool]) -> ComparedTable:
    """figure: what the sentences call the figure, and whether it is a cost."""
    rows = tuple(ComparedRow((one.label,),
                             *_side(one.base, MISSING, digits, one.base_value),
                             *_side(one.new, MISSING, digits, one.new_value),
                             *figures_text(one.figures), one.verdict)
                 for one in comparisons)
    words = server_sentences(comparisons, *figure)
    return ComparedTable(key, title, ("Server",), value, rows, _counts(rows), tuple(words))


def _counts(rows: Sequence[ComparedRow]) -> str:
    """'1 higher, 2 not distinguishable.', in the order the verdicts first appear."""
    if not rows:
        return "No servers to compare."
    counts = Counter(row.verdict for row in rows)
    return ", ".join(f"{count} {verdict}" for verdict, count in counts.items()) + "."
