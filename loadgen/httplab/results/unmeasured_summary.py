"""One line for each unmeasured run (the primer, the warm-up, a step's run before it), from
the files it left in raw/unmeasured/, written to raw/unmeasured.log before those files are
dropped (KEEP_UNMEASURED=0). No table reads these runs: the lines keep what a reader may ask
of them (how long, how many requests, how fast, p99, errors). Pure: texts in, lines out."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from httplab.loadtools.h2load.report import parse_h2load
from httplab.loadtools.json_fields import ToolJsonError
from httplab.loadtools.oha.report import parse_oha_json
from httplab.loadtools.wrk.done_json import parse_done_json
from httplab.loadtools.wrk.text_report import parse_report
from httplab.run_layout import (CPU_TIMES_SUFFIX, H2LOAD_RUN_SUFFIX, JSON_SUFFIX, OHA_SUFFIX,
                                TEXT_SUFFIX, StepStem)

P99 = 99.0


def _wrk(text: str, source: str, stem: str) -> str:
    run = (parse_done_json if source.endswith(JSON_SUFFIX) else parse_report)(text, source)
    errors = run.errors
    socket_errors = errors.connect + errors.read + errors.write + errors.timeout
    return (f"wrk, {run.duration_s:.2f} s, {run.requests:,} requests "
            f"({run.requests_per_sec:,.1f}/s), p99 {_ms(run.latency.percentile(P99))}, "
            f"socket errors {socket_errors:,}, non-2xx/3xx {run.non_2xx_3xx:,}")


def _h2load(text: str, source: str, stem: str) -> str:
    report = parse_h2load(text, source)
    return (f"h2load, {report.duration_s:.2f} s, {report.total:,} requests "
            f"({report.requests_per_sec:,.1f}/s), succeeded {report.succeeded:,}, "
            f"failed {report.failed:,}")


def _oha(text: str, source: str, stem: str) -> str:
    step = StepStem.parse(stem)
    rate = step.rate if step is not None else 0.0
    report = parse_oha_json(text, rate, source)
    return (f"oha, offered {rate:g}/s, {report.duration_s:.2f} s, answered "
            f"{report.answered:,} ({report.achieved_rate_per_s:,.1f}/s), p99 "
            f"{_ms(report.percentile_us(P99))}, failed {report.failed:,}, non-2xx/3xx "
            f"{report.non_2xx_3xx:,}")


# A run's file that says it, by suffix, the first found of a stem's files in this order
# (oha's JSON before wrk's, h2load's summary before wrk's report).
READERS: tuple[tuple[str, Callable[[str, str, str], str]], ...] = (
    (OHA_SUFFIX, _oha), (H2LOAD_RUN_SUFFIX, _h2load), (JSON_SUFFIX, _wrk), (TEXT_SUFFIX, _wrk))


def _ms(microseconds: float | None) -> str:
    return "unknown" if microseconds is None else f"{microseconds / 1000:.2f} ms"


def run_stem(name: str) -> tuple[str, int] | None:
    """The run a file of raw/unmeasured/ is of, and the rank of its reader; None for a file
    that says no run (a load tool's CPU time, read into the run's resources)."""
    if name.endswith(CPU_TIMES_SUFFIX):
        return None
    return next(((name[:-len(suffix)], rank) for rank, (suffix, _) in enumerate(READERS)
                 if name.endswith(suffix)), None)


def summary_lines(texts: Mapping[str, str]) -> list[str]:
    """A line per run, by its stem, from its files (name in raw/unmeasured/ -> text)."""
    chosen: dict[str, tuple[int, str]] = {}
    for name in sorted(texts):
        found = run_stem(name)
        if found is not None and (found[0] not in chosen or found[1] < chosen[found[0]][0]):
            chosen[found[0]] = (found[1], name)
    return [_line(stem, name, texts[name], READERS[rank][1])
            for stem, (rank, name) in sorted(chosen.items())]


def _line(stem: str, name: str, text: str, reader: Callable[[str, str, str], str]) -> str:
    try:
        return f"{stem}: {reader(text, name, stem)}"
    except (ValueError, ToolJsonError) as error:
        return f"{stem}: cannot read {name}: {error}"
