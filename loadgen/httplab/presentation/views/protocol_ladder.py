"""What the cost ladder shows of a latency run that chose PROTOCOL (its table, the PNG and
the page's chart alike): per framework, in the order the servers ran, each protocol's CPU
per request at the common rate (median over rounds), its paired estimate against the first
protocol asked with its interval and q-value, as "Variants compared" counts it, why a protocol was not run, the TLS engines
said, and with KEEPALIVE=0 the CPU of one TLS handshake (h1-tls's less h1's). Pure."""

from __future__ import annotations

from dataclasses import dataclass

from httplab.axes import H1, H1_TLS, PROTOCOL, Variant
from httplab.model import NO_TLS, BenchResult
from httplab.presentation.views.latency_figures import common_rate_costs, latency_servers
from httplab.results.paired_ratio import PairedRatio
from httplab.results.stats import median_of_known
from httplab.results.variants import (ComparedMetric, VariantComparison, comparison_between,
                                      variant_comparisons)


@dataclass(frozen=True)
class Rung:
    """One protocol of one framework at the common rate."""

    protocol: str
    server: str  # the variant's key
    cost_us: float | None  # median CPU µs per request; None: not measured
    ratio: PairedRatio | None  # against the ladder's first protocol; None for that one
    not_applicable: str = ""  # why the framework did not run it


@dataclass(frozen=True)
class LadderRow:
    base: str  # the framework's key at the first protocol asked
    tls_engines: tuple[str, ...]  # as its TLS variants said: jdk, openssl
    rungs: tuple[Rung, ...]
    handshake_us: float | None = None  # KEEPALIVE=0: h1-tls's cost less h1's


def chose_protocol(result: BenchResult) -> bool:
    """The run asked for another protocol than plaintext HTTP/1.1 alone (PROTOCOL)."""
    return bool(result.settings) and result.settings.protocols not in ((), (H1,))


def ladder_protocols(result: BenchResult) -> tuple[str, ...]:
    """The protocols of a latency run's ladder; () when it chose none or has no common rate."""
    if not chose_protocol(result) or result.latency is None or result.latency.cost_rate is None:
        return ()
    return result.settings.protocols


def shows_handshakes(result: BenchResult) -> bool:
    """KEEPALIVE=0 over both HTTP/1.1 protocols: the ladder says what a handshake costs."""
    protocols = ladder_protocols(result)
    return not result.settings.keepalive and H1 in protocols and H1_TLS in protocols


def ladder_rows(result: BenchResult) -> list[LadderRow]:
    protocols = ladder_protocols(result)
    if not protocols:
        return []
    bases = dict.fromkeys(Variant.of_key(server).on_axis(PROTOCOL.setting, protocols[0]).key
                          for server in latency_servers(result))
    comparisons = variant_comparisons(result)
    return [_row(result, base, protocols, comparisons) for base in bases]


def _row(result: BenchResult, base: str, protocols: tuple[str, ...],
         comparisons: tuple[VariantComparison, ...]) -> LadderRow:
    keys = {one: Variant.of_key(base).on_axis(PROTOCOL.setting, one).key for one in protocols}
    rungs = tuple(_rung(result, base, protocol, key, comparisons)
                  for protocol, key in keys.items())
    engines = tuple(dict.fromkeys(record.tls_engine for key in keys.values()
                                  if (record := result.server(key))
                                  and record.tls_engine not in (None, NO_TLS)))
    handshake = None
    if shows_handshakes(result):
        costs = {rung.protocol: rung.cost_us for rung in rungs}
        if costs[H1] is not None and costs[H1_TLS] is not None:
            handshake = costs[H1_TLS] - costs[H1]
    return LadderRow(base, engines, rungs, handshake)


def _rung(result: BenchResult, base: str, protocol: str, key: str,
          comparisons: tuple[VariantComparison, ...]) -> Rung:
    record = result.server(key)
    if record is not None and record.not_applicable:
        return Rung(protocol, key, None, None, record.not_applicable)
    found = comparison_between(comparisons, base, key, ComparedMetric.COMMON_RATE_COST)
    ratio = None if key == base or found is None else found.figures
    return Rung(protocol, key, median_of_known(common_rate_costs(result, key)), ratio)
