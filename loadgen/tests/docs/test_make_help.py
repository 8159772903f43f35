"""`make help` lists every setting of make bench and make latency with its default, from
the one list of each (loadgen/httplab/bench_settings.py), not a hand-kept filter of it.
Each check is first shown to fail on a Makefile that filters the latency list by hand."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from httplab.bench_settings import BENCH_SETTINGS, LATENCY_SETTINGS, variable
from httplab.paths import DEFAULT_REPO

MAKEFILE = DEFAULT_REPO / "Makefile"
# The venv is the one running this test: help neither builds it nor checks it.
HARNESS = f"{sys.executable} -m httplab.cli"
HAND_FILTER = " | grep -E '^  (RATES|SLO_P99|COST_RATE|STEP_WARMUP|URL)='"
LATENCY_HELP = "\t@$(HTTPLAB) settings --latency\n"


def make_help(makefile: Path) -> str:
    done = subprocess.run(
        ["make", "-s", "-C", str(DEFAULT_REPO), "-f", str(makefile), "-o", ".venv/.installed",
         "help", f"HTTPLAB={HARNESS}", f"PYTHON={sys.executable}"],
        capture_output=True, text=True, timeout=120, check=True)
    return done.stdout


def missing_settings(help_text: str) -> list[str]:
    """Each setting whose `VARIABLE=default` line make help lacks."""
    lines = {line.split()[0] for line in help_text.splitlines() if line.startswith("  ")}
    return [f"{variable(flag)}={default}" for flag, default, _ in BENCH_SETTINGS + LATENCY_SETTINGS
            if f"{variable(flag)}={default}" not in lines]


def test_make_help_lists_every_setting_with_its_default():
    text = make_help(MAKEFILE)
    assert "KEEPALIVE=1" in text
    assert missing_settings(text) == []


def test_a_hand_kept_filter_of_the_latency_settings_is_caught(tmp_path):
    makefile = MAKEFILE.read_text()
    assert LATENCY_HELP in makefile
    filtered = tmp_path / "Makefile"
    filtered.write_text(makefile.replace(LATENCY_HELP, LATENCY_HELP[:-1] + HAND_FILTER + "\n"))
    assert missing_settings(make_help(filtered)) == ["KEEPALIVE=1"]
