"""PROTOCOL in the plan: h1 (the default, keys unchanged), h1-tls, h2c, h2 or a list, each
server on each, the reference too (the ceiling of each); a protocol a server does not serve,
a not-applicable variant with its reason; STREAMS and KEEPALIVE checked against the
protocols; every bad value stops with one line before any load."""

from __future__ import annotations

from dataclasses import replace

import pytest

from httplab.manifest import parse_manifest
from httplab.plan_error import PlanError
from httplab.running.latency_plan import make_latency_plan
from httplab.running.plan import make_plan, settings_of

from tests.support.plans import MANIFEST, plan_settings, reference_manifest

SOURCE = 'protocols_source = "the test\'s own"\n'
ALL_FOUR = parse_manifest("alpha", MANIFEST + 'protocols = "h1,h1-tls,h2c,h2"\n' + SOURCE)
PLAINTEXT = parse_manifest("beta", MANIFEST + 'protocols = "h1,h2c"\n' + SOURCE)
KNOWN = (ALL_FOUR, PLAINTEXT, reference_manifest())


def _plan(servers="alpha,beta", **options):
    return make_plan(plan_settings(servers, **options), KNOWN, frozenset({0, 1}))


def _one_line_error(**options) -> str:
    with pytest.raises(PlanError) as error:
        _plan(**options)
    assert "\n" not in str(error.value)
    return str(error.value)


@pytest.mark.parametrize("protocol", ["h3", "https", "http2", "h2,h2", "h1,", "H2"])
def test_a_bad_or_repeated_protocol_stops_with_one_line_naming_the_values(protocol):
    message = _one_line_error(protocol=protocol)
    assert message.startswith("PROTOCOL takes h1 (plaintext HTTP/1.1), h1-tls (HTTP/1.1 over "
                              "TLS), h2c (HTTP/2 in cleartext, prior knowledge) or h2")
    assert message.endswith(f"; got {protocol!r}")


def test_by_default_every_server_speaks_plaintext_http1_under_its_old_key():
    plan = _plan()
    assert [(s.key, s.protocol) for s in plan.servers] == [("alpha", "h1"), ("beta", "h1")]
    assert settings_of(plan).protocols == ("h1",) and plan.streams == 1


def test_a_list_measures_each_server_on_each_protocol_or_says_why_not():
    plan = _plan(protocol="h1,h2")
    said = {s.key: s.not_applicable for s in plan.servers}
    assert list(said) == ["alpha", "alpha@h2", "beta", "beta@h2"]
    assert said["beta@h2"] == "X 1 serves h1, h2c only here, not h2 (the test's own)"
    assert [s.key for s in plan.applicable] == ["alpha", "alpha@h2", "beta"]
    assert settings_of(plan).protocols == ("h1", "h2")


def test_the_reference_serves_each_protocol_as_the_ceiling_of_each():
    reference = replace(reference_manifest(), protocols=ALL_FOUR.protocols)
    plan = make_plan(plan_settings("alpha,ref", protocol="h1-tls,h2c"),
                     (ALL_FOUR, reference), frozenset({0, 1}))
    assert [s.key for s in plan.servers] == ["ref@h1-tls", "ref@h2c", "alpha@h1-tls",
                                             "alpha@h2c"]


@pytest.mark.parametrize("streams", ["0", "-1", "x", "1.5", "101", ""])
def test_streams_must_be_a_whole_number_from_1(streams):
    message = _one_line_error(protocol="h2", streams=streams)
    assert message.startswith("STREAMS must be a whole number from 1 to 100")


def test_more_than_one_stream_needs_an_http2_protocol():
    message = _one_line_error(protocol="h1,h1-tls", streams="4")
    assert message == ("STREAMS=4 sets HTTP/2 streams per connection, but PROTOCOL=h1,h1-tls "
                       "has no HTTP/2: add h2c or h2, or leave STREAMS=1")
    assert _plan(protocol="h1,h2c", streams="8").streams == 8


def test_a_protocol_other_than_h1_is_refused_with_other_machines():
    message = _one_line_error(protocol="h2", server_host="ssh://lab@example.test")
    assert message.startswith("PROTOCOL=h2 runs on this machine only")


def _latency(**options):
    settings = {key: text for key, text in plan_settings("alpha", rates="1000", **options).items()
                if key != "fairness"}
    return make_latency_plan(settings, KNOWN, frozenset({0, 1}))


def test_keepalive_0_opens_a_connection_per_request_over_http1_only():
    assert _latency(protocol="h1,h1-tls", keepalive="0").keepalive is False
    assert _latency().keepalive is True
    with pytest.raises(PlanError) as error:
        _latency(protocol="h1,h2", keepalive="0")
    assert str(error.value) == (
        "KEEPALIVE=0 opens a connection per request, over HTTP/1.1 only: PROTOCOL=h1,h2 "
        "includes h2; measure the handshake rate with PROTOCOL=h1,h1-tls")
    with pytest.raises(PlanError, match=r"^KEEPALIVE takes 1 "):
        _latency(keepalive="no")


def test_url_takes_no_protocol():
    with pytest.raises(PlanError, match="^PROTOCOL does not apply with URL="):
        _latency(protocol="h2", url="http://127.0.0.1:9000/")
