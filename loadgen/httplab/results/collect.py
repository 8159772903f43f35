"""Turns raw output files into result cells: the one place that reads them.

A run's figures come from done.lua's JSON when it is there (exact numbers), and from
wrk's printed report otherwise (rounded, as printed; the only source for reports made
elsewhere). The server's CPU and memory come from the .resources.json beside them."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from pathlib import Path

from httplab.model import Cell, CellOutcome, CellStatus, ResourceUsage, WrkRun
from httplab.results.serialize import resources_from_dict
from httplab.wrk.done_json import parse_done_json
from httplab.wrk.text_report import parse_report

RAW_NAME = re.compile(r"^(?P<server>.+)-t(?P<threads>\d+)-c(?P<connections>\d+)"
                      r"(?:-r(?P<repeat>\d+))?\.txt$")


class RawOutputError(Exception):
    """A raw file that cannot be read as wrk output; the message names file and line."""


def read_run(text_path: Path | None, json_path: Path | None) -> WrkRun:
    if json_path is not None and json_path.is_file():
        return _parse(parse_done_json, json_path)
    if text_path is not None and text_path.is_file():
        return _parse(parse_report, text_path)
    raise RawOutputError(f"no wrk output at {text_path}")


def _parse(parser, path: Path) -> WrkRun:
    try:
        return parser(path.read_text(errors="replace"), str(path))
    except ValueError as error:
        raise RawOutputError(str(error)) from error


def read_resources(path: Path | None) -> ResourceUsage:
    if path is None or not path.is_file():
        return ResourceUsage(unavailable="not sampled")
    try:
        return resources_from_dict(json.loads(path.read_text()))
    except (ValueError, TypeError) as error:
        return ResourceUsage(unavailable=f"cannot read {path}: {error}")


def _readable_run(outcome: CellOutcome) -> tuple[WrkRun | None, str | None]:
    """The run's figures when wrk left any (with the connections it was asked for, which
    done() cannot see), else why not."""
    try:
        run = read_run(outcome.text_path, outcome.json_path)
    except RawOutputError as error:
        return None, str(error)
    if run.connections is None:
        run = replace(run, connections=outcome.connections)
    return run, None


def zero_requests_reason(run: WrkRun) -> str:
    errors = run.errors
    return (f"no request completed in {run.duration_s:.2f} s (socket errors: connect "
            f"{errors.connect}, read {errors.read}, write {errors.write}, timeout "
            f"{errors.timeout}; non-2xx/3xx {run.non_2xx_3xx})")


def _run_or_failure(outcome: CellOutcome) -> tuple[WrkRun | None, str | None]:
    """A failed run keeps whatever figures wrk gave, so nothing measured is lost."""
    run, unreadable = _readable_run(outcome)
    if outcome.failure:
        return run, outcome.failure
    if run is None:
        return None, unreadable
    return run, zero_requests_reason(run) if run.requests == 0 else None


def cell_from_outcomes(outcomes: list[CellOutcome]) -> Cell:
    """All measured runs of one cell; any failed run fails the cell and says which, while
    the figures of every run that has any stay in the cell."""
    first = outcomes[0]
    key = dict(server=first.server, threads=first.threads, connections=first.connections)
    runs, usages, reasons, rounds = [], [], [], []
    for outcome in sorted(outcomes, key=lambda o: o.repeat):
        run, failure = _run_or_failure(outcome)
        if failure:
            reasons.append(failure if len(outcomes) == 1 else f"round {outcome.repeat}: {failure}")
        if run is not None:
            runs.append(run)
            usages.append(read_resources(outcome.resources_path))
            rounds.append(outcome.repeat)
    status = CellStatus.FAILED if reasons else CellStatus.OK
    return Cell(**key, status=status, runs=tuple(runs), reason="; ".join(reasons) or None,
                resources=tuple(usages), rounds=tuple(rounds))


def cells_from_outcomes(outcomes: list[CellOutcome]) -> tuple[Cell, ...]:
    """Groups runs into cells, in the order each cell first appears."""
    groups: dict[tuple[str, int, int], list[CellOutcome]] = {}
    for outcome in outcomes:
        groups.setdefault((outcome.server, outcome.threads, outcome.connections), []).append(outcome)
    return tuple(cell_from_outcomes(group) for group in groups.values())


@dataclass(frozen=True)
class RawFile:
    server: str
    threads: int
    connections: int
    repeat: int
    text_path: Path

    def outcome(self) -> CellOutcome:
        json_path = self.text_path.with_suffix(".json")
        resources_path = self.text_path.with_suffix(".resources.json")
        return CellOutcome(self.server, self.threads, self.connections, self.text_path,
                           json_path if json_path.is_file() else None, repeat=self.repeat,
                           resources_path=resources_path if resources_path.is_file() else None)


def find_raw_files(directory: Path) -> list[RawFile]:
    """Every <server>-t<threads>-c<connections>[-r<repeat>].txt in a directory, by name."""
    found = []
    for path in sorted(directory.glob("*.txt")):
        match = RAW_NAME.match(path.name)
        if match:
            found.append(RawFile(match["server"], int(match["threads"]),
                                 int(match["connections"]), int(match["repeat"] or 1), path))
    return found
