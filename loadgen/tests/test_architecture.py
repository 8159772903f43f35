"""The folder tree is the architecture: imports run one way, toward the model, and the
commands that only read results (report, compare) load neither the runner nor a backend."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "httplab"

# Each part of the harness and the parts it may import (besides itself).
MAY_IMPORT = {
    "model": set(),
    # What the runner hands to results (where each run's raw files went): both read it.
    "outcomes": {"model"},
    "bench_settings": set(),
    "worker_counts": set(),
    "workloads": {"model", "bench_settings", "plan_error"},
    "manifest": {"worker_counts"},
    "paths": set(),
    "loadtools": {"model"},
    "checking": {"manifest", "model", "workloads"},
    "results": {"model", "outcomes", "manifest", "loadtools", "bench_settings", "workloads"},
    "presentation": {"model", "manifest", "results", "workloads"},
    "running": {"model", "outcomes", "manifest", "paths", "loadtools", "checking", "results",
                "bench_settings", "workloads", "plan_error"},
    "commands": {"model", "outcomes", "manifest", "paths", "loadtools", "checking", "results",
                 "presentation", "running", "workloads"},
    "cli": {"commands", "manifest", "paths", "bench_settings", "plan_error"},
    # The error of a bad setting, a leaf: its validators raise it, cli prints it unloaded.
    "plan_error": set(),
    "run_layout": set(),
    # The loopback address, a leaf: the settings' help, the checks and the runner say it.
    "addresses": set(),
}
# Leaves that import nothing of the harness, which every part may import.
ANY_PART_MAY_IMPORT = {"run_layout", "addresses"}


def _part(module: str) -> str:
    """'httplab.running.backends.docker' -> 'running'."""
    return module.split(".")[1]


def _imports(file: Path) -> set[str]:
    tree = ast.parse(file.read_text())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("httplab."):
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith("httplab."))
    return found


def _modules() -> list[tuple[str, Path]]:
    return [(".".join(("httplab", *file.relative_to(PACKAGE).with_suffix("").parts)), file)
            for file in sorted(PACKAGE.rglob("*.py"))]


@pytest.mark.parametrize("module, file", _modules(), ids=lambda value: str(value))
def test_imports_run_toward_the_model(module, file):
    if module.endswith("__init__") and module.count(".") == 1:
        return
    own = _part(module)
    allowed = MAY_IMPORT[own] | {own} | ANY_PART_MAY_IMPORT
    wrong = sorted(target for target in _imports(file) if _part(target) not in allowed)
    assert not wrong, f"{module} ({own}) imports {wrong}; {own} may import only {sorted(allowed)}"


def test_every_part_is_listed():
    parts = {_part(module) for module, _ in _modules() if module.count(".") >= 1}
    assert parts - {"__init__"} <= set(MAY_IMPORT)


# Inside running: a backend owns its database, never the other way round, and what both
# need of Docker (running/docker/) imports neither.
RUNNING_LAYERS = (("httplab.running.database", "httplab.running.backends"),
                  ("httplab.running.docker", "httplab.running.backends"),
                  ("httplab.running.docker", "httplab.running.database"))


@pytest.mark.parametrize("lower, higher", RUNNING_LAYERS)
def test_running_imports_one_way_between_backends_and_databases(lower, higher):
    wrong = sorted(f"{module} imports {target}" for module, file in _modules()
                   if module.startswith(lower + ".") for target in _imports(file)
                   if target.startswith(higher + ".") or target == higher)
    assert not wrong, wrong


def _reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = set(), list(graph[start])
    while todo:
        module = todo.pop()
        if module in graph and module not in seen:
            seen.add(module)
            todo.extend(graph[module])
    return seen


def test_no_module_imports_itself_back():
    """No cycle, not even through an import inside a function (the remote conformance
    check's command line is a module of its own for that)."""
    graph = {module.removesuffix(".__init__"): _imports(file) for module, file in _modules()}
    cycles = sorted(module for module in graph if module in _reachable(graph, module))
    assert not cycles, cycles


RUNNING_ONLY = ("httplab.running.runner", "httplab.running.measure",
                "httplab.running.backends.base", "httplab.running.backends.docker",
                "httplab.running.backends.local", "httplab.running.resources.sampler")


def _harness_modules_after(code: str) -> list[str]:
    """The harness modules a fresh interpreter has loaded once it ran code."""
    probe = code + ("\nimport sys\n"
                    "print('\\n'.join(m for m in sys.modules if m.startswith('httplab')))")
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            cwd=PACKAGE.parent).stdout.split()
    assert "httplab.cli" in loaded, "the probe did not run"
    return loaded


@pytest.mark.parametrize("command", ["report", "compare"])
def test_reading_commands_load_no_runner_and_no_backend(tmp_path, command):
    """In a fresh interpreter: run the command (its arguments may be wrong; it only has to
    get as far as its own code) and list which harness modules it loaded."""
    arguments = {"report": ["report", "--from", str(tmp_path), "--image", str(tmp_path / "a.png")],
                 "compare": ["compare", "--base", str(tmp_path), "--new", str(tmp_path)]}[command]
    loaded = _harness_modules_after("from httplab.cli import main\nmain(%r)" % arguments)
    assert not set(RUNNING_ONLY) & set(loaded), sorted(set(RUNNING_ONLY) & set(loaded))


def test_parsing_the_command_line_loads_nothing_of_running():
    """`import httplab.cli` alone: the settings and their defaults come from bench_settings,
    so parsing needs no part of the runner."""
    loaded = _harness_modules_after("import httplab.cli")
    running = sorted(module for module in loaded if module.startswith("httplab.running"))
    assert not running, running
