"""The validated plan of `httplab latency`: the bench's plan for starting, checking and
warming each server (or none, with URL=), and the fixed-rate series to run against it."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from httplab.axes import H1, HTTP2_PROTOCOLS, PROFILE, PROTOCOL
from httplab.bench_settings import DEFAULTS, LATENCY_LEFT_OUT
from httplab.plan_error import PlanError
from httplab.loadtools.oha.command import oha_connections
from httplab.manifest import ServerManifest
from httplab.model import Workload
from httplab.running.plan import BenchPlan, make_plan, parse_optional_duration, parse_switch
from httplab.running.rate_search import MAX_AUTO_STEPS, MAX_RATE, RateSpec

_SLO = re.compile(r"^(\d+(?:\.\d+)?)(us|µs|ms|s)$")
_US_PER_UNIT = {"us": 1.0, "µs": 1.0, "ms": 1e3, "s": 1e6}
TYPICAL_AUTO_STEPS = 12  # for the time estimate: 11.7 a search in a run here, confirmations included


@dataclass(frozen=True)
class LatencyPlan:
    bench: BenchPlan  # servers, their start, primer and warm-up, DURATION, REPEAT, pinning
    rates: RateSpec
    slo_p99_us: float
    cost_rate: float | None  # None: the lowest maximum, in a second pass
    step_warmup_s: int  # 0: none
    url: str | None = None  # a server the user started: nothing is started or checked
    keepalive: bool = True  # False: a new connection (and TLS handshake) for every request

    def connections_for(self, rate: float) -> int:
        return oha_connections(rate, self.slo_p99_us)

    @property
    def steps_per_server(self) -> int:
        """For the time estimate: the list's length, or a typical search's."""
        return len(self.rates.fixed) if self.rates.fixed else TYPICAL_AUTO_STEPS

    @property
    def seconds_per_step(self) -> int:
        return self.step_warmup_s + self.bench.duration_s

    @property
    def cost_warmup_s(self) -> int:
        """The unmeasured run before the second pass's cost step: as long as the warm-up,
        at the common rate, since a server started again has not had the search's steps
        to finish compiling its hot path (at least STEP_WARMUP)."""
        warmup = self.bench.phase("warmup")
        return max(self.step_warmup_s, warmup.duration_s if warmup else 0)


def make_latency_plan(settings: Mapping[str, str], known: tuple[ServerManifest, ...],
                      available_cpus: frozenset[int] = frozenset()) -> LatencyPlan:
    """PlanError at the first setting that cannot work."""
    typed = {**DEFAULTS, **settings}
    for flag in LATENCY_LEFT_OUT:  # the command line passes them only when set, to refuse
        if settings.get(flag) is not None:
            raise PlanError(f"{flag.upper().replace('-', '_')} does not apply to make latency")
    bench_settings = {**typed, "fairness": "0", "loadgen-hosts": ""}
    if typed["url"].strip():  # oha runs on this host, beside the user's server
        bench_settings["backend"] = "local"
    bench = make_plan(bench_settings, known, available_cpus)
    check_workloads(bench.workloads, bool(typed["url"].strip()))
    if typed["url"].strip() and "1" in bench.values(PROFILE):
        raise PlanError("PROFILE does not apply with URL=: the lab profiles only the servers "
                        "it starts; set PROFILE=0")
    if typed["url"].strip() and bench.auto_repeat is not None:
        raise PlanError("REPEAT=auto does not apply with URL=: one server compares no pair of "
                        "variants; set REPEAT to a number of rounds (REPEAT=3)")
    if typed["url"].strip() and bench.values(PROTOCOL) != (H1,):
        raise PlanError("PROTOCOL does not apply with URL=: the URL is requested as given, "
                        "over plaintext HTTP/1.1")
    warmup = parse_optional_duration("STEP_WARMUP", typed["step-warmup"])
    return LatencyPlan(bench, parse_rates(typed["rates"]), parse_slo(typed["slo-p99"]),
                       parse_cost_rate(typed["cost-rate"]), warmup[1] if warmup else 0,
                       parse_url(typed["url"]),
                       parse_keepalive(typed["keepalive"], bench.values(PROTOCOL)))


def parse_keepalive(text: str, protocols: tuple[str, ...]) -> bool:
    """KEEPALIVE: 1, or 0 for a connection per request, which oha opens over HTTP/1.1 only
    (an HTTP/2 connection carries its streams)."""
    keepalive = parse_switch("KEEPALIVE", text, "requests reuse their connections")
    http2 = sorted(HTTP2_PROTOCOLS & set(protocols))
    if not keepalive and http2:
        raise PlanError(f"KEEPALIVE=0 opens a connection per request, over HTTP/1.1 only: "
                        f"PROTOCOL={','.join(protocols)} includes {', '.join(http2)}; measure "
                        f"the handshake rate with PROTOCOL=h1,h1-tls")
    return keepalive


def check_workloads(workloads: tuple[Workload, ...], has_url: bool) -> None:
    """One workload per latency run: its search and maxima are per server. URL= measures
    the address as given, so it takes no workload."""
    if len(workloads) > 1:
        raise PlanError(f"make latency measures one workload per run (its maxima are per "
                        f"server): run it once per workload, e.g. WORKLOAD={workloads[0].name}")
    if has_url and not workloads[0].is_plaintext:
        raise PlanError("WORKLOAD does not apply with URL=: the URL is requested as given")


def parse_rates(text: str) -> RateSpec:
    """'auto' -> the search; '1000,2000,5000' -> that list, which must increase."""
    if text.strip() == "auto":
        return RateSpec()
    rates = tuple(_rate("RATES", part) for part in text.split(","))
    if any(later <= earlier for earlier, later in zip(rates, rates[1:])):
        raise PlanError(f"RATES must increase, each above the one before; got {text!r}")
    if len(rates) > MAX_AUTO_STEPS * 4:
        raise PlanError(f"RATES lists at most {MAX_AUTO_STEPS * 4} rates; got {len(rates)}")
    return RateSpec(rates)


def parse_slo(text: str) -> float:
    """'10ms' -> 10000.0 (µs); a number without its unit is refused."""
    match = _SLO.match(text.strip())
    if match is None or float(match.group(1)) <= 0:
        raise PlanError(f"SLO_P99 must be a positive time with its unit, such as 500us, 10ms "
                        f"or 1s; got {text!r}")
    return float(match.group(1)) * _US_PER_UNIT[match.group(2)]


def parse_cost_rate(text: str) -> float | None:
    return _rate("COST_RATE", text) if text.strip() else None


def parse_url(text: str) -> str | None:
    """An http:// URL with a host, or None when empty."""
    text = text.strip()
    if not text:
        return None
    parts = urlsplit(text)
    if parts.scheme != "http" or not parts.hostname:
        raise PlanError(f"URL must be http://host:port/path, such as http://127.0.0.1:9000/; "
                        f"got {text!r}")
    return text if parts.path else text + "/"


def _rate(name: str, text: str) -> float:
    try:
        rate = float(text.strip())
    except ValueError:
        rate = -1.0
    if not 0 < rate <= MAX_RATE or not math.isfinite(rate):
        raise PlanError(f"{name} must be requests a second, each a number above 0 and at most "
                        f"{MAX_RATE:.0f}, such as 1000,2000,5000; got {text.strip()!r}")
    return rate
