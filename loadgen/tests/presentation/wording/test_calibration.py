"""make calibrate in words: a row of the host-noise table, and the one sentence on whether
the A/A held 1 (the host drifted within a round, or too few rounds for an interval)."""

from __future__ import annotations

import math
from dataclasses import replace

from httplab.presentation.markdown.calibration import calibration_section
from httplab.presentation.wording.calibration import (CALIBRATION_HEADER, calibration_rows,
                                                      drift_sentence, noise_headlines)

from tests.calibration_sample import calibration_result


def test_each_figure_is_a_row_with_its_spread_half_widths_rounds_and_interval():
    rows = calibration_rows(calibration_result())
    assert [row[4] for row in rows] == ["Requests/sec", "CPU per request", "p99"]
    # SD 4 %: 4.303 x 0.04 / sqrt(3) -> +-10.4 % after 3 rounds; 6 rounds for +-5 %
    assert rows[0] == ("netty", "plaintext", "10", "500", "Requests/sec", "4.0 %", "±10.4 %",
                       "±5.1 %", "±2.9 %", "6", "4", "0.95–1.05×", "yes")
    assert len(CALIBRATION_HEADER) == len(rows[0])


def test_a_host_that_drifts_within_a_round_is_said_in_one_sentence():
    drifted = calibration_result(rate_sd=0.005, shift=math.log(1.05))
    assert drift_sentence(drifted) == (
        "The host drifts within a round: the A/A interval of Requests/sec of netty "
        "(1.04–1.06×) does not hold 1: identical servers measured minutes apart differed "
        "beyond the noise, which more rounds will not cure.")
    assert calibration_rows(drifted)[0][-1] == "no: the host drifted"
    assert calibration_section(drifted)[-1] == drift_sentence(drifted)


def test_an_aa_that_holds_1_and_one_too_short_for_an_interval():
    assert drift_sentence(calibration_result()) == (
        "Every A/A interval holds 1: the host did not drift within a round.")
    assert drift_sentence(calibration_result(rounds=2)) == (
        "No A/A interval: it needs 3 rounds or more (this run paired 2).")


def test_a_run_without_replicas_has_no_section_and_no_sentence():
    result = calibration_result()
    bench = replace(result, settings=replace(result.settings, replicas=()))
    assert calibration_section(bench) == [] and drift_sentence(bench) == ""
    assert noise_headlines(result) == (("netty", "Requests/sec paired SD 4.0 %"),)
