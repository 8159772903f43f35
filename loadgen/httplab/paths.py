"""Where the lab's parts live, relative to the repository (no absolute paths baked in)."""

from __future__ import annotations

import shutil
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
LOADGEN_DIR = PACKAGE_DIR.parent
DEFAULT_REPO = LOADGEN_DIR.parent
LUA_SCRIPT = LOADGEN_DIR / "done.lua"
FAIRNESS_SCRIPT = LOADGEN_DIR / "fairness.sh"  # h2load with socket readings (FAIRNESS=1)
# Where `make oha` builds oha: inside the wrk image's build context (loadgen/), so that
# loadgen/Dockerfile copies this build instead of compiling oha a second time.
OHA_IN_REPO = Path("loadgen") / ".tools" / "oha" / "bin" / "oha"
OHA_COMMAND = "oha"  # looked up on PATH when the repository has no build of its own
SERVERS = Path("servers")
# PROFILE=1 with BACKEND=local: async-profiler's native agent (linux-x64 only), which
# `make jars` unpacks there (servers/common/pom.xml) and jattach loads into the server.
ASYNC_PROFILER_LIB = (SERVERS / "common" / "target" / "async-profiler" / "linux-x64"
                      / "libasyncProfiler.so")


def servers_dir(repo: Path) -> Path:
    return repo / SERVERS


def results_root(repo: Path) -> Path:
    """Where runs go by default: REPO/results/<UTC stamp>/."""
    return repo / "results"


def oha_binary(repo: Path) -> str:
    """The oha to run: the one `make oha` built in the repository, else the one on PATH,
    else the bare name (running it then fails, and check_oha says how to build it)."""
    built = repo / OHA_IN_REPO
    if built.is_file():
        return str(built)
    return shutil.which(OHA_COMMAND) or OHA_COMMAND
