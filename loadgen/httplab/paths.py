"""Where the lab's parts live, relative to the repository (no absolute paths baked in)."""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
LOADGEN_DIR = PACKAGE_DIR.parent
DEFAULT_REPO = LOADGEN_DIR.parent
LUA_SCRIPT = LOADGEN_DIR / "done.lua"
FAIRNESS_SCRIPT = LOADGEN_DIR / "fairness.sh"  # h2load with socket readings (FAIRNESS=1)


def servers_dir(repo: Path) -> Path:
    return repo / "servers"


def results_root(repo: Path) -> Path:
    """Where runs go by default: REPO/results/<UTC stamp>/."""
    return repo / "results"
