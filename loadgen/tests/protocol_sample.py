"""A latency run that chose PROTOCOL, for the cost ladder's tests: the latency sample's
Netty, and a copy of its cost steps per other protocol, their CPU scaled."""

from __future__ import annotations

from dataclasses import replace

from httplab.model import StepPurpose

from tests.latency_sample import latency_sample_result


def _scaled(step, server, factor):
    usage = step.resources
    return replace(step, server=server,
                   resources=replace(usage, cpu_seconds=usage.cpu_seconds * factor))


def ladder_result(keepalive=True, factors=(("h1-tls", 1.5), ("h2", 2.0))):
    """The latency sample's Netty, and a copy of its cost steps per other protocol, their CPU
    scaled by the factor; each TLS variant says it ran the JDK's engine."""
    result = latency_sample_result()
    netty_costs = [step for step in result.latency.steps
                   if step.server == "netty" and step.purpose is StepPurpose.COST]
    extra = tuple(_scaled(step, f"netty@{protocol}", factor)
                  for protocol, factor in factors for step in netty_costs)
    netty = result.server("netty")
    records = tuple(replace(netty, name=f"netty@{protocol}", protocol=protocol, tls_engine="jdk")
                    for protocol, _ in factors)
    protocols = ("h1", *(protocol for protocol, _ in factors))
    return replace(result, settings=replace(result.settings, protocols=protocols,
                                            keepalive=keepalive),
                   servers=result.servers + records,
                   latency=replace(result.latency, steps=result.latency.steps + extra))
