"""How the pages name each protocol and say a rung's ratio against the ladder's first
protocol. Pure."""

from __future__ import annotations

from httplab.axes import H1, H1_TLS, H2, H2C
from httplab.presentation.wording.variants import format_q
from httplab.results.paired_ratio import PairedRatio

PROTOCOL_NAMES = {H1: "HTTP/1.1", H1_TLS: "HTTP/1.1 over TLS", H2C: "HTTP/2 cleartext",
                  H2: "HTTP/2 over TLS"}


def protocol_name(protocol: str) -> str:
    return PROTOCOL_NAMES.get(protocol, protocol)


def ratio_text(ratio: PairedRatio) -> str:
    """1.35×, 1.20–1.50, q 0.004; or why there is no interval."""
    if ratio.ratio is None:
        return "not measured"
    if not ratio.has_interval:
        return f"{ratio.ratio:.2f}×; {ratio.rounds} paired round(s), too few for an interval"
    return f"{ratio.ratio:.2f}×, {ratio.low:.2f}–{ratio.high:.2f}, q {format_q(ratio)}"
