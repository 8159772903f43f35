"""Stability warnings: each cell's sentence as results.json keeps it, and the kind, cause,
figure and advice by which warnings of many cells are grouped."""

from __future__ import annotations

from dataclasses import replace

import pytest

from httplab.model import Cell, CellStatus, CellWarning, Latency, WarningKind, WrkRun
from httplab.results.stability import ADVICE, SKEW_ADVICE, noisy_warning, skewed_warning


def _run(rate: float, skew_s: float | None = None) -> WrkRun:
    return WrkRun(duration_s=10.0, requests=int(rate * 10), bytes_read=0,
                  requests_per_sec=rate, transfer_per_sec=0.0,
                  latency=Latency(None, None, None), start_skew_s=skew_s,
                  generators=(_generator(),) * 2 if skew_s is not None else ())


def _generator() -> WrkRun:
    return WrkRun(10.0, 0, 0, 0.0, 0.0, Latency(None, None, None))


def _cell(*rates: float, skew_s: float | None = None) -> Cell:
    return Cell("netty", 2, 100, CellStatus.OK, tuple(_run(rate, skew_s) for rate in rates))


NOISY_CAUSE = ("Requests/sec varies from run to run by more than the 5% threshold (coefficient "
               "of variation over 3 runs)")


@pytest.mark.parametrize("cell, threshold, expected", [
    (_cell(100, 100, 100), 0.05, None),
    (_cell(100, 110, 90), 0.10, None),  # CV 10 %: at the threshold is not above it
    (_cell(100), 0.05, None),  # one run: no CV
    (replace(_cell(100, 130, 70), status=CellStatus.FAILED, reason="x"), 0.05, None),
    (_cell(100, 110, 90), 0.05, CellWarning(
        WarningKind.NOISY,
        "Netty t2 c100: Requests/sec varies by 10.0% (coefficient of variation over 3 runs, "
        f"threshold 5%); {ADVICE}", "Netty t2 c100", NOISY_CAUSE, "10.0%", ADVICE)),
])
def test_noisy_warning(cell, threshold, expected):
    assert noisy_warning(cell, "Netty", threshold) == expected


SKEW_CAUSE = ("The load generators' starts lay further apart than 1% of the window in which all "
              "of them ran, so Requests/sec counts requests from outside it")


@pytest.mark.parametrize("cell, expected", [
    (_cell(100, 100), None),  # one machine: no skew
    (_cell(100, skew_s=0.1), None),  # 1 %: at the threshold is not above it
    (_cell(100, skew_s=0.25), CellWarning(
        WarningKind.SKEWED,
        "Netty t2 c100: the 2 load generators started 0.250 s apart, 2.5% of the 10.00 s window "
        "in which all of them ran (threshold 1%), so Requests/sec counts requests from outside "
        f"it; {SKEW_ADVICE}", "Netty t2 c100", SKEW_CAUSE, "0.250 s apart, 2.5% of the window",
        SKEW_ADVICE)),
])
def test_skewed_warning(cell, expected):
    assert skewed_warning(cell, "Netty") == expected
