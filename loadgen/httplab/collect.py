"""Turns raw wrk output files into result cells: the one place that reads them.

A cell's figures come from done.lua's JSON when it is there (exact numbers), and from
wrk's printed report otherwise (rounded, as printed; the only source for reports made
elsewhere)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .model import Cell, CellStatus, WrkRun
from .runner import CellOutcome
from .wrk_json import parse_done_json
from .wrk_text import parse_report

RAW_NAME = re.compile(r"^(?P<server>.+)-t(?P<threads>\d+)-c(?P<connections>\d+)\.txt$")


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


def cell_from_outcome(outcome: CellOutcome) -> Cell:
    key = dict(server=outcome.server, threads=outcome.threads, connections=outcome.connections)
    if outcome.failure:
        return Cell(**key, status=CellStatus.FAILED, reason=outcome.failure)
    try:
        run = read_run(outcome.text_path, outcome.json_path)
    except RawOutputError as error:
        return Cell(**key, status=CellStatus.FAILED, reason=str(error))
    if run.requests == 0:
        return Cell(**key, status=CellStatus.FAILED, runs=(run,),
                    reason="no request completed (see the socket errors)")
    return Cell(**key, status=CellStatus.OK, runs=(run,))


@dataclass(frozen=True)
class RawFile:
    server: str
    threads: int
    connections: int
    text_path: Path

    def outcome(self) -> CellOutcome:
        json_path = self.text_path.with_suffix(".json")
        return CellOutcome(self.server, self.threads, self.connections, self.text_path,
                           json_path if json_path.is_file() else None)


def find_raw_files(directory: Path) -> list[RawFile]:
    """Every <server>-t<threads>-c<connections>.txt in a directory, in name order."""
    found = []
    for path in sorted(directory.glob("*.txt")):
        match = RAW_NAME.match(path.name)
        if match:
            found.append(RawFile(match["server"], int(match["threads"]),
                                 int(match["connections"]), path))
    return found
