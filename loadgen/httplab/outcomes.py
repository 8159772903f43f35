"""The runner's records of what it left behind: for each server, each measured run and
each fixed-rate step, where its raw files went or why it could not run. `running` writes
them and `results` reads the raw files back through them; no I/O here."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from httplab.model import PLAINTEXT, DatabaseRecord, ServerRecord, StepPurpose, Workload


@dataclass(frozen=True)
class GeneratorOutcome:
    """One load generator's part of a measured run spread over several generators: the
    engine that ran it and where its raw files went (<stem>.g<index>.txt and .json)."""

    index: int  # from 1, in the order of LOADGEN_HOSTS
    engine: str  # as the user named it: ssh://user@host, a context name, unix:///path
    threads: int
    connections: int
    text_path: Path | None = None
    json_path: Path | None = None
    failure: str | None = None


@dataclass(frozen=True)
class CellOutcome:
    """One measured run as the runner left it: where its raw files went (read later by
    collect.py), or why it could not run. Repeats count from 1. With more than one load
    generator, `generators` holds each one's part and text_path/json_path are None."""

    server: str
    threads: int
    connections: int
    text_path: Path | None = None
    json_path: Path | None = None
    failure: str | None = None
    repeat: int = 1
    resources_path: Path | None = None
    generators: tuple[GeneratorOutcome, ...] = ()
    # h2load's output and the socket snapshot taken during it (FAIRNESS=1), when it ran.
    h2load_path: Path | None = None
    sockets_path: Path | None = None
    workload: Workload = PLAINTEXT
    profile_path: Path | None = None  # PROFILE=1: raw/<stem>.profile.json, the profiler's record
    stalls_path: Path | None = None  # raw/<stem>.stalls.json, the stall meter's record
    # raw/<stem>.stalls.<N>.json, the meters' on the load generators' engines, by engine
    engine_stalls_paths: tuple[Path, ...] = ()
    pinned_path: Path | None = None  # EXECUTOR=virtual: raw/<stem>.pinned.json, its record
    # An HTTP/2 cell's run by h2load instead of wrk: its summary and its log of requests.
    h2load_run_path: Path | None = None
    h2load_requests_path: Path | None = None


@dataclass(frozen=True)
class StepOutcome:
    """One fixed-rate step as the runner left it: where the tool's output went (read later
    by results/latency.py), or why it could not run."""

    server: str
    offered_rate: float
    connections: int
    purpose: StepPurpose
    json_path: Path | None = None
    resources_path: Path | None = None
    failure: str | None = None
    repeat: int = 1
    attempt: int = 1  # 2: run again at the same rate to confirm that it broke
    workload: Workload = PLAINTEXT
    profile_path: Path | None = None  # PROFILE=1: raw/<step>.profile.json
    stalls_path: Path | None = None  # raw/<step>.stalls.json, the stall meter's record


@dataclass(frozen=True)
class ServerOutcome:
    """One server as run: its record and every measured run of its cells."""

    record: ServerRecord
    cells: tuple[CellOutcome, ...]
    steps: tuple[StepOutcome, ...] = ()  # make latency: its fixed-rate steps
    database: DatabaseRecord | None = None  # the database it read (db and queries), as it ran
