"""One closed-loop run against a started server: raw files named by convention, and the
server's CPU and memory sampled while the load tool measures, the host's stalls metered
around it. The tool is chosen by the server's protocol (closed_loop_tool): wrk for HTTP/1.1,
plaintext or over TLS (wrk speaks TLS on an https:// URL, but cannot be given a CA and does
not verify the certificate: the lab's check on the wire verifies it before any load), and
h2load for HTTP/2, h2c or h2 (which does not verify it either)."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass, replace
from pathlib import Path

from httplab.running.backends.base import Backend, WrkOutcome
from httplab.model import (LOADGEN_HOST_LESS_SERVER, DatabaseUsage, PLAINTEXT, ResourceUsage,
                           Workload)
from httplab.outcomes import GeneratorOutcome
from httplab.running.database.base import StartedDatabase
from httplab.running.raw_reduction import reduce_h2load_log, reduce_sockets
from httplab.running.profiling.pinning import PinnedOutcome, pinning_recorded
from httplab.running.profiling.session import ProfileOutcome, profiled
from httplab.running.resources.parse import HostCpu, SamplingError
from httplab.running.resources.probes import ResourceProbe, read_host_cpu
from httplab.running.resources.sampler import DEFAULT_INTERVAL_S, Sampler, busy_cores
from httplab.running.run_context import RunContext, Serving
from httplab.running.stall_metering import metered
from httplab.raw_files import resources_to_dict
from httplab.results.collect import engine_stalls_paths
from httplab.results.store import write_generators_file
from httplab.axes import HTTP2_PROTOCOLS
from httplab.loadtools.h2load.command import H2loadRequest
from httplab.loadtools.h2load.measured_command import H2loadRunRequest
from httplab.loadtools.h2load.measured_run import TOOL as H2LOAD
from httplab.run_layout import RunFiles, RunStem, measured_files, unmeasured_files
from httplab.loadtools.wrk.command import WrkRequest

TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK")
WRK = "wrk"
H2LOAD_HERE_ONLY = ("h2load runs on this machine only: LOADGEN_HOSTS cannot load a server "
                    "over HTTP/2 (PROTOCOL h2c or h2)")


def closed_loop_tool(protocol: str) -> str:
    """make bench's load tool for a server's protocol (ServerManifest.protocol)."""
    return H2LOAD if protocol in HTTP2_PROTOCOLS else WRK


def h2load_request(request: WrkRequest, streams: int, log_file: Path | None) -> H2loadRunRequest:
    """h2load at a wrk run's threads, connections, duration and URL, with `streams` per
    connection, each request logged to log_file (none: not logged)."""
    return H2loadRunRequest(request.threads, request.connections, streams, request.duration_s,
                            request.url, None if log_file is None else str(log_file))


@dataclass(frozen=True)
class RunOutcome:
    text_path: Path | None  # None when the run was spread over several generators
    json_path: Path | None
    resources_path: Path | None
    failure: str | None
    generators: tuple[GeneratorOutcome, ...] = ()  # each one's part, when more than one
    profile: ProfileOutcome | None = None  # PROFILE=1: the profiler's record of the run
    stalls_path: Path | None = None  # the stall meter's record of the run
    engine_stalls_paths: tuple[Path, ...] = ()  # the meters' on the load generators' engines
    pinned: PinnedOutcome | None = None  # EXECUTOR=virtual: pinned virtual threads' record
    # h2load's run instead of wrk's (HTTP/2): its summary, and its log of requests' record
    h2load_run_path: Path | None = None
    h2load_requests_path: Path | None = None


@dataclass(frozen=True)
class FairnessOutcome:
    h2load_path: Path | None  # h2load's own output, when it left any
    sockets_path: Path | None  # the record of the socket readings taken during it
    failure: str | None


class Measurer:
    """wrk's runs (and h2load's) of make bench, their raw files named by convention."""

    def __init__(self, context: RunContext):
        self.context = context

    def unmeasured(self, serving: Serving, request: WrkRequest, phase: str,
                   workload: Workload = PLAINTEXT) -> RunOutcome:
        files = unmeasured_files(self.context.raw_dir, serving.server, phase,
                                 serving.round_number, self.context.rounds, workload.key)
        if closed_loop_tool(serving.started.manifest.protocol) == H2LOAD:
            return self._h2load(request, files, sampler=None, keep_log=False)
        return self._run(request, files, sampler=None)

    def measured(self, serving: Serving, request: WrkRequest,
                 workload: Workload = PLAINTEXT) -> RunOutcome:
        """A measured run, the server sampled throughout, and the database it reads too
        when there is one; the host's stalls metered around that, profiled around that
        when the server has a profiler, and its pinned virtual threads recorded around all
        when its blocking work runs on them."""
        files = self._measured_files(serving, request, workload)
        database_sampler = database_sampler_for(self.context.backend, serving.database)
        sampler = sampler_for(self.context.backend.resource_probe(serving.started))
        tool = (self._h2load if closed_loop_tool(serving.started.manifest.protocol) == H2LOAD
                else self._run)
        (outcome, profile), pinned = pinning_recorded(serving.pinning, files, lambda: profiled(
            serving.profiler, files, lambda: metered(
                self.context.stall_meter, files.stalls, request.duration_s,
                lambda: tool(request, files, sampler, database_sampler))))
        return replace(outcome, profile=profile, stalls_path=_existing(files.stalls),
                       engine_stalls_paths=engine_stalls_paths(files), pinned=pinned)

    def _measured_files(self, serving: Serving, request: WrkRequest,
                        workload: Workload) -> RunFiles:
        stem = RunStem.of_round(serving.server, request.threads, request.connections,
                                serving.round_number, self.context.rounds, workload.key)
        return measured_files(self.context.raw_dir, stem)

    def fairness(self, serving: Serving, request: WrkRequest,
                 workload: Workload = PLAINTEXT) -> FairnessOutcome:
        """h2load at the measured run's threads, connections and duration, its output beside
        the run's: <stem>.h2load.txt and <stem>.sockets.txt, reduced to
        <stem>.connections.json once h2load ended."""
        files = self._measured_files(serving, request, workload)
        for path in (files.h2load, files.sockets, files.connections):
            path.unlink(missing_ok=True)
        h2load = H2loadRequest(request.threads, request.connections, request.duration_s,
                               request.url)
        outcome = self.context.backend.run_h2load(h2load, files.stem,
                                                  serving.started.manifest.port,
                                                  self.context.loadgen_cpus)
        return FairnessOutcome(_existing(files.h2load),
                               reduce_sockets(files.sockets, files.connections,
                                              request.connections),
                               tool_failure("h2load", outcome))

    def _run(self, request: WrkRequest, files: RunFiles, sampler: Sampler | None,
             database_sampler: Sampler | None = None) -> RunOutcome:
        backend, cpus = self.context.backend, self.context.loadgen_cpus
        if backend.load_generators:
            return self._spread(request, files, sampler, database_sampler)
        text_path, json_path = files.text, files.json
        json_path.unlink(missing_ok=True)
        def run() -> WrkOutcome:
            return backend.run_wrk(request, text_path, json_path, cpus)

        outcome, usage = (run(), None) if sampler is None else \
            sampled_run(run, sampler, "wrk", database_sampler)
        return RunOutcome(text_path, _existing(json_path), write_resources(files, usage),
                          tool_failure("wrk", outcome))

    def _h2load(self, request: WrkRequest, files: RunFiles, sampler: Sampler | None,
                database_sampler: Sampler | None = None, keep_log: bool = True) -> RunOutcome:
        """h2load instead of wrk (HTTP/2), at the plan's streams; its log of requests
        (measured runs only) reduced to its record once h2load ended."""
        backend = self.context.backend
        if backend.load_generators:
            return RunOutcome(None, None, None, H2LOAD_HERE_ONLY)
        for path in (files.h2load_run, files.h2load_requests, files.h2load_latency):
            path.unlink(missing_ok=True)
        h2load = h2load_request(request, self.context.plan.streams,
                                files.h2load_requests if keep_log else None)
        def run() -> WrkOutcome:
            return backend.run_h2load_bench(h2load, files.h2load_run, self.context.loadgen_cpus)

        outcome, usage = (run(), None) if sampler is None else \
            sampled_run(run, sampler, H2LOAD, database_sampler)
        return RunOutcome(None, None, write_resources(files, usage), tool_failure(H2LOAD, outcome),
                          h2load_run_path=_existing(files.h2load_run),
                          h2load_requests_path=reduce_h2load_log(files.h2load_requests,
                                                                 files.h2load_latency))

    def _spread(self, request: WrkRequest, files: RunFiles, sampler: Sampler | None,
                database_sampler: Sampler | None = None) -> RunOutcome:
        """wrk on other machines: this machine's CPU says nothing of theirs or the server's,
        so only the server's (and the database's) own figures are kept."""
        backend, cpus = self.context.backend, self.context.loadgen_cpus
        if sampler is None:
            generators = backend.run_spread(request, files.stem, cpus)
            usage = None
        else:
            with sampler, database_sampler or nullcontext():
                generators = backend.run_spread(request, files.stem, cpus)
            usage = with_database(sampler.usage(), database_sampler)
        resources = write_resources(files, usage)
        if len(generators) == 1:
            only = generators[0]
            return RunOutcome(only.text_path, only.json_path, resources, only.failure)
        write_generators_file(files.stem, generators)
        # Each generator's failure stays its own: collect.py fails the run, naming it.
        return RunOutcome(None, None, resources, None, generators)



def with_database(usage: ResourceUsage, database_sampler: Sampler | None) -> ResourceUsage:
    """The server's usage with the database's beside it, sampled over the same run."""
    if database_sampler is None:
        return usage
    return replace(usage, database=database_usage(database_sampler.usage()))


def database_usage(usage: ResourceUsage) -> DatabaseUsage:
    return DatabaseUsage(usage.cpu_cores, usage.cpu_seconds, usage.memory_peak_bytes,
                         usage.context_switches, usage.samples, usage.source, usage.unavailable)


def sampler_for(probe: ResourceProbe) -> Sampler:
    return Sampler(probe, getattr(probe, "interval_s", DEFAULT_INTERVAL_S))


def database_sampler_for(backend: Backend, database: StartedDatabase | None) -> Sampler | None:
    """The database a server reads, sampled beside it; None without one."""
    return None if database is None else sampler_for(backend.database.resource_probe(database))


def sampled_run(run: Callable[[], WrkOutcome], sampler: Sampler, tool: str,
                database_sampler: Sampler | None = None) -> tuple[WrkOutcome, ResourceUsage]:
    """A measured run of a load tool: the server (and the database it reads, given its
    sampler) sampled throughout, the host's CPU read around it, the tool's own CPU beside
    them."""
    host_before, started_at = host_cpu(), time.monotonic()
    with sampler, database_sampler or nullcontext():
        outcome = run()
    wall_s, host_after = time.monotonic() - started_at, host_cpu()
    host_busy = (busy_cores(host_before, host_after, wall_s, TICKS_PER_SECOND)
                 if host_before and host_after else None)
    usage = with_database(sampler.usage(), database_sampler)
    return outcome, with_load_figures(usage, outcome.cpu_seconds, wall_s, host_busy, tool)


def tool_failure(tool: str, outcome: WrkOutcome) -> str | None:
    """None when the load tool exited 0; else what it exited with and said."""
    if outcome.exit_code == 0:
        return None
    return f"{tool} exited with {outcome.exit_code}: {outcome.stderr or 'no message'}"


def _existing(path: Path) -> Path | None:
    return path if path.exists() else None


def write_resources(files: RunFiles, usage: ResourceUsage | None) -> Path | None:
    if usage is None:
        return None
    path = files.resources
    path.write_text(json.dumps(resources_to_dict(usage), indent=2) + "\n")
    return path


def with_load_figures(usage: ResourceUsage, wrk_cpu_seconds: float | None, wall_s: float,
                      host_busy: float | None, tool: str = "wrk") -> ResourceUsage:
    """The server's usage with the host's busy cores and the load generator's beside it:
    the tool's own CPU where the backend sees it, else the host's busy cores less the
    server's."""
    if wrk_cpu_seconds is not None and wall_s > 0:
        loadgen, source = wrk_cpu_seconds / wall_s, f"{tool} process"
    elif host_busy is not None and usage.cpu_cores is not None:
        loadgen, source = max(host_busy - usage.cpu_cores, 0.0), LOADGEN_HOST_LESS_SERVER
    else:
        loadgen, source = None, None
    return replace(usage, loadgen_cores=loadgen, loadgen_source=source, host_busy_cores=host_busy)


def host_cpu() -> HostCpu | None:
    try:
        return read_host_cpu()
    except SamplingError:
        return None
