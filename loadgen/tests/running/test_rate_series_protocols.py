"""make latency's oha request per protocol: HTTP/2 with the plan's streams for h2c and h2,
the run's CA on https, keep-alive off with KEEPALIVE=0; and the progress line naming them."""

from __future__ import annotations

import io
from pathlib import Path
from types import SimpleNamespace

import pytest

from httplab.loadtools.oha.command import oha_arguments, oha_label
from httplab.manifest import parse_manifest
from httplab.model import StepPurpose
from httplab.running.latency_plan import make_latency_plan
from httplab.running.measure_step import StepTarget
from httplab.running.progress import Progress
from httplab.running.rate_series import RateSeries, Series
from httplab.running.resources.probes import UnavailableProbe
from httplab.running.run_context import RunContext

from tests.support.fake_backend import FakeOhaBackend
from tests.support.plans import MANIFEST

SERVES_ALL = parse_manifest("alpha", MANIFEST + 'protocols = "h1,h1-tls,h2c,h2"\n'
                                     'protocols_source = "the test\'s own"\n')
CA = Path("/run/httplab-tls/ca.pem")


def _request(protocol: str, tls=SimpleNamespace(ca_file=CA), asked: str | None = None,
             **settings):
    """oha's request for a step against a server on `protocol`, of a plan that asked for
    `asked` (PROTOCOL; default: that protocol alone)."""
    typed = {"servers": "alpha", "ceiling": "0", "primer": "0", "warmup": "0",
             "step-warmup": "0", "duration": "1s", "protocol": asked or protocol, **settings}
    latency = make_latency_plan(typed, (SERVES_ALL,), frozenset({0, 1}))
    context = RunContext(FakeOhaBackend({}), latency.bench, Path("/nowhere"),
                         Progress(latency.bench, io.StringIO()), tls=tls)
    series = RateSeries(context, latency, Series(latency.rates, StepPurpose.LIST), judge=None)
    target = StepTarget(1, "alpha", "https://127.0.0.1:8443/", 1,
                        UnavailableProbe("none"), lambda: None, protocol=protocol)
    return series._oha_request(target, 2000, 10, 16)


@pytest.mark.parametrize("protocol, settings, arguments", [
    ("h1", {}, []),
    ("h1-tls", {}, ["--cacert", str(CA)]),
    ("h2c", {"streams": "4"}, ["--http2", "-p", "4"]),
    ("h2", {"streams": "4"}, ["--http2", "-p", "4", "--cacert", str(CA)]),
    ("h1-tls", {"keepalive": "0"}, ["--cacert", str(CA), "--disable-keepalive"]),
    ("h1", {"keepalive": "0"}, ["--disable-keepalive"]),
])
def test_oha_speaks_the_servers_protocol(protocol, settings, arguments):
    request = _request(protocol, **settings)
    everything = oha_arguments(request)
    assert everything[everything.index("--latency-correction") + 1:-1] == arguments


def test_streams_apply_to_http2_only():
    assert _request("h1-tls", asked="h1-tls,h2", streams="4").streams == 1
    assert _request("h2", asked="h1-tls,h2", streams="4").streams == 4


def test_without_the_runs_tls_files_oha_is_given_no_ca():
    assert _request("h2", tls=None).ca_file is None


@pytest.mark.parametrize("protocol, settings, label", [
    ("h1", {}, "oha -q 2000 -c 16 -z 10s"),
    ("h2", {"streams": "2"}, "oha -q 2000 -c 16 -p 2 -z 10s (h2)"),
    ("h1-tls", {"keepalive": "0"}, "oha -q 2000 -c 16 -z 10s --disable-keepalive (h1-tls)"),
])
def test_progress_names_streams_keepalive_and_protocol(protocol, settings, label):
    assert oha_label(_request(protocol, **settings), None if protocol == "h1" else protocol) \
        == label
