"""What make bench measures on a ready server: each workload's cells, one wrk run per
thread setting (and h2load right after each with FAIRNESS=1), stopping at the first sign
that the server or its database has stopped."""

from __future__ import annotations

from dataclasses import replace

from httplab.loadtools.wrk.command import WrkRequest
from httplab.model import ServerRecord, Workload
from httplab.outcomes import CellOutcome, ServerOutcome
from httplab.running.measure import H2LOAD, Measurer, RunOutcome, closed_loop_tool
from httplab.running.run_context import RunContext, Serving
from httplab.running.runner import load_label, wrk_requests, workload_label

# Fairness is each connection's share of the load; over HTTP/2 the streams of a connection
# share it, so h2load --h1 (one client per connection) measures nothing the cell loads.
FAIRNESS_NOT_OVER_HTTP2 = "fairness: not measured over HTTP/2 (streams share connections)"


class WrkCells:
    """make bench's Measures: the measured wrk runs of each workload."""

    def __init__(self, context: RunContext):
        self.context = context
        self.measurer = Measurer(context)

    def measure(self, serving: Serving, workload: Workload) -> ServerOutcome:
        """The measured runs of a ready, verified server, warmed at this workload."""
        cells = tuple(self._measured(serving, request, workload)
                      for request in wrk_requests(self.context, serving.started.manifest,
                                                  workload))
        return ServerOutcome(serving.record, cells)

    def failed(self, record: ServerRecord, reason: str, round_number: int,
               workload: Workload) -> ServerOutcome:
        """A workload that could not be measured: each of its cells failed, saying why."""
        manifest = next(server for server in self.context.plan.servers
                        if server.key == record.name)
        cells = tuple(CellOutcome(record.name, request.threads, request.connections,
                                  failure=reason, repeat=round_number, workload=workload)
                      for request in wrk_requests(self.context, manifest, workload))
        return ServerOutcome(record, cells)

    def _measured(self, serving: Serving, request: WrkRequest,
                  workload: Workload) -> CellOutcome:
        progress, name, index = self.context.progress, serving.server, serving.index
        repeat = serving.round_number
        if stopped := serving.stopped():
            progress.step(index, name, f"not measured: {stopped}")
            return CellOutcome(name, request.threads, request.connections,
                               failure=f"{stopped} before this run", repeat=repeat,
                               workload=workload)
        progress.step(index, name, f"{load_label(self.context, serving, request)}"
                                   f"{workload_label(self.context, workload)}"
                                   f"{self.context.of_rounds(repeat)}")
        outcome: RunOutcome = self.measurer.measured(serving, request, workload)
        progress.spent(request.duration_s)
        stopped = serving.stopped()
        failure = outcome.failure or (f"{stopped} during this run" if stopped else None)
        for problem in [failure] + [g.failure for g in outcome.generators]:
            if problem:
                progress.step(index, name, problem)
        profile = outcome.profile
        if profile and profile.failure:  # the run stands; only its profile is missing
            progress.step(index, name, f"no profile of this run: {profile.failure}")
        pinned = outcome.pinned
        if pinned and pinned.failure:  # the run stands; only its pinned threads are unknown
            progress.step(index, name, f"pinned virtual threads unknown: {pinned.failure}")
        measured = CellOutcome(name, request.threads, request.connections, outcome.text_path,
                               outcome.json_path, failure, repeat, outcome.resources_path,
                               outcome.generators, workload=workload,
                               profile_path=profile.record_path if profile else None,
                               stalls_path=outcome.stalls_path,
                               engine_stalls_paths=outcome.engine_stalls_paths,
                               pinned_path=pinned.record_path if pinned else None,
                               h2load_run_path=outcome.h2load_run_path,
                               h2load_requests_path=outcome.h2load_requests_path)
        if self.context.plan.fairness and closed_loop_tool(
                serving.started.manifest.protocol) == H2LOAD:
            progress.step(index, name, FAIRNESS_NOT_OVER_HTTP2)
            progress.spent(request.duration_s)
            return measured
        if self.context.plan.fairness and not failure:
            return self._fairness(serving, request, measured)
        if self.context.plan.fairness:
            progress.spent(request.duration_s)  # no h2load after a failed run
        return measured

    def _fairness(self, serving: Serving, request: WrkRequest,
                  measured: CellOutcome) -> CellOutcome:
        """h2load right after the measured run, as long, at the same connections; its
        problems are said but do not fail wrk's run."""
        progress, name, index = self.context.progress, serving.server, serving.index
        progress.step(index, name, f"h2load --h1 -t{request.threads} "
                                   f"-c{request.connections} -D{request.duration_s} "
                                   "(fairness, not measured by wrk)")
        outcome = self.measurer.fairness(serving, request, measured.workload)
        progress.spent(request.duration_s)
        if outcome.failure:
            progress.step(index, name, outcome.failure)
        return replace(measured, h2load_path=outcome.h2load_path,
                       sockets_path=outcome.sockets_path)
