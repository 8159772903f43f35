"""make calibrate under real load: wrk against a stand-in server (the tests' hello world,
in this process, on 127.0.0.1:18082), started afresh for each replica in each round, three
short rounds. Its real spread goes through to the host-noise table, the sentence and the
page. No JVM."""

from __future__ import annotations

import os
from dataclasses import replace

import pytest

from httplab.commands.calibrate import calibrate
from httplab.paths import LUA_SCRIPT
from httplab.results.calibration import NoiseMetric, replica_pairs
from httplab.results.store import read_results
from httplab.run_layout import LATEST, RESULTS_JSON, RESULTS_MD, RUN_PAGE
from httplab.running.backends.local import LocalBackend
from httplab.running.calibration_plan import make_calibration_plan
from httplab.running.resources.probes import ProcProbe

from tests.support.fake_backend import FakeOhaBackend
from tests.support.plans import KNOWN, plan_settings

STAND_IN_PORT = 18082
MANIFEST = replace(KNOWN[0], port=STAND_IN_PORT)


class StandInWrkBackend(FakeOhaBackend):
    """The fake backend's server on a fixed port, loaded by the real wrk and done.lua; its
    CPU read from /proc for this process, where the stand-in's threads run."""

    server_port = STAND_IN_PORT

    def __init__(self, servers_dir):
        super().__init__({})
        self.local = LocalBackend(servers_dir, LUA_SCRIPT)

    def run_wrk(self, request, text_path, json_path, cpus=None):
        self.wrk_calls.append((request.threads, text_path.parent.name))
        return self.local.run_wrk(request, text_path, json_path, cpus)

    def resource_probe(self, started):
        return ProcProbe(os.getpid())


@pytest.mark.alone
@pytest.mark.shared_host  # STAND_IN_PORT
@pytest.mark.slow
def test_a_calibration_under_real_load_reports_the_noise_of_each_figure(tmp_path, repo):
    plan = make_calibration_plan(plan_settings(MANIFEST.name, "1", "4", "2s", repeat="3",
                                               warmup="1s"), (MANIFEST,), frozenset({0, 1}))
    assert calibrate(plan, StandInWrkBackend(repo / "servers"), tmp_path, tmp_path) == 0
    run_dir = (tmp_path / LATEST).resolve()
    (pair,) = replica_pairs(read_results(run_dir / RESULTS_JSON))
    noise = {one.metric: one for one in pair.noise}
    for metric in NoiseMetric:
        assert noise[metric].figures.rounds == 3, metric
        assert noise[metric].log_sd > 0 and noise[metric].half_width_at(3) > 0, metric
        assert noise[metric].holds_one is not None, metric
    markdown, page = (run_dir / RESULTS_MD).read_text(), (run_dir / RUN_PAGE).read_text()
    sentence = markdown.split("### Host noise (make calibrate)")[1].split("\n\n")[3]
    assert sentence.startswith(("Every A/A interval holds 1", "The host drifts within a round"))
    assert sentence in page
