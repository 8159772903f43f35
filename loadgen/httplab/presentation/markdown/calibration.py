"""What results.md adds for make calibrate: the host's noise, each A/A cell's figures, and
the sentence on whether the host drifted within a round (wording/calibration.py). Pure."""

from __future__ import annotations

from httplab.model import BenchResult
from httplab.presentation.markdown.table import markdown_table
from httplab.presentation.wording.calibration import (CALIBRATION_HEADER, CALIBRATION_INTRO,
                                                      CALIBRATION_TITLE, calibration_rows,
                                                      drift_sentence)


def calibration_section(result: BenchResult) -> list[str]:
    """The heading, intro, table and sentence, after a blank line; none without an A/A."""
    rows = calibration_rows(result)
    if not rows:
        return []
    return ["", f"### {CALIBRATION_TITLE}", "", CALIBRATION_INTRO, "",
            *markdown_table(CALIBRATION_HEADER, rows), "", drift_sentence(result)]
