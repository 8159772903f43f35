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
    "results": {"model", "outcomes", "manifest", "loadtools", "bench_settings", "workloads",
                "raw_files"},
    "presentation": {"model", "manifest", "results", "workloads"},
    "running": {"model", "outcomes", "manifest", "paths", "loadtools", "checking", "results",
                "bench_settings", "workloads", "plan_error", "raw_files"},
    # make pairing-study: its statistics (pure), plan, flow on a backend, and its page.
    "studies": {"model", "manifest", "paths", "loadtools", "checking", "results", "running",
                "bench_settings", "plan_error", "workloads"},
    "commands": {"model", "outcomes", "manifest", "paths", "loadtools", "checking", "results",
                 "presentation", "running", "workloads", "studies"},
    "cli": {"commands", "manifest", "paths", "bench_settings", "plan_error"},
    # The error of a bad setting, a leaf: its validators raise it, cli prints it unloaded.
    "plan_error": set(),
    "run_layout": set(),
    # The formats of the JSON files the runner writes into raw/ (run_layout names them):
    # written by running, read back by results; unlike run_layout, it needs the model.
    "raw_files": {"model", "outcomes"},
    # The loopback address, a leaf: the settings' help, the checks and the runner say it.
    "addresses": set(),
    # The variant axes and keys, a leaf: the settings, the manifest, the plan, the results
    # and the presentation name variants by them.
    "axes": set(),
    # The run's TLS files, a leaf: running makes them, checking proves they are served.
    "run_tls": set(),
}
# Leaves that import nothing of the harness, which every part may import.
ANY_PART_MAY_IMPORT = {"run_layout", "addresses", "axes", "run_tls"}


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


# --- presentation/: by format, over shared views and wording ---------------------------------

PRESENTATION = PACKAGE / "presentation"
# Each folder (or top-level module) of presentation/ and the others it may import (besides
# itself). views/ are figures, wording/ sentences; an output's renderer never imports
# another output's: writing a page loads no matplotlib, results.md no Plotly.
PRESENTATION_MAY_IMPORT = {
    "views": set(),
    "wording": {"views"},
    "compare": {"views", "wording"},
    "markdown": {"views", "wording"},
    "csv": {"views", "wording"},
    "json": set(),  # results.json: written by results/results_json/, its one owner
    "png": {"views", "wording"},
    "plotly": {"views", "wording"},
    "html": {"views", "wording", "plotly", "compare"},  # the pages embed charts, compare.html
    "exporters": {"json", "markdown", "csv"},
    "publish": {"exporters", "html", "png", "views"},
}
PLOTTING_LIBRARIES = ("matplotlib", "plotly")


def _presentation_modules() -> list[tuple[str, Path]]:
    return [(module, file) for module, file in _modules()
            if module.startswith("httplab.presentation.")
            and module != "httplab.presentation.__init__"]


def _folder(module: str) -> str:
    """'httplab.presentation.png.kit' -> 'png'; 'httplab.presentation.publish' -> 'publish'."""
    return module.split(".")[2]


def test_every_presentation_folder_is_listed():
    folders = {_folder(module) for module, _ in _presentation_modules()}
    assert folders == set(PRESENTATION_MAY_IMPORT)


@pytest.mark.parametrize("module, file", _presentation_modules(), ids=lambda value: str(value))
def test_renderers_import_views_and_wording_never_another_output(module, file):
    own = _folder(module)
    allowed = PRESENTATION_MAY_IMPORT[own] | {own}
    wrong = sorted(target for target in _imports(file)
                   if target.startswith("httplab.presentation.") and _folder(target) not in allowed)
    assert not wrong, (f"{module} imports {wrong}; presentation/{own} may import only "
                       f"{sorted(allowed)}")


@pytest.mark.parametrize("module, file", _presentation_modules(), ids=lambda value: str(value))
def test_only_png_draws_with_a_plotting_library(module, file):
    """Plotly's figures are data (plotly/ builds them as dicts, the browser draws them);
    matplotlib is png/'s alone."""
    tree = ast.parse(file.read_text())
    libraries = {alias.name.split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, ast.Import) for alias in node.names}
    libraries |= {node.module.split(".")[0] for node in ast.walk(tree)
                  if isinstance(node, ast.ImportFrom) and node.module and not node.level}
    used = sorted(libraries & set(PLOTTING_LIBRARIES))
    assert not used or (_folder(module) == "png" and used == ["matplotlib"]), f"{module}: {used}"


# Calls that write, remove or move a file. savefig writes a file unless it is given a
# buffer, and a buffer needs format= (a path's suffix names it otherwise).
WRITING_CALLS = {"write_text", "write_bytes", "mkdir", "unlink", "rmdir", "touch", "rename",
                 "copyfile", "copytree", "rmtree", "write_atomically", "remove", "symlink_to"}


def _writes(node: ast.Call) -> bool:
    name = getattr(node.func, "attr", getattr(node.func, "id", ""))
    owner = getattr(getattr(node.func, "value", None), "id", "")
    if name in WRITING_CALLS or (owner, name) == ("os", "replace"):
        return True
    if name == "savefig":
        return not any(keyword.arg == "format" for keyword in node.keywords)
    if name == "open":
        modes = [arg for arg in node.args if isinstance(arg, ast.Constant)]
        modes += [keyword.value for keyword in node.keywords if keyword.arg == "mode"]
        return any(isinstance(mode, ast.Constant) and set(str(mode.value)) & set("wax+")
                   for mode in modes)
    return False


@pytest.mark.parametrize("module, file", _presentation_modules(), ids=lambda value: str(value))
def test_publish_alone_writes_files(module, file):
    writing = sorted({node.lineno for node in ast.walk(ast.parse(file.read_text()))
                      if isinstance(node, ast.Call) and _writes(node)})
    assert module == "httplab.presentation.publish" or not writing, \
        f"{module} writes files (lines {writing}); only presentation/publish.py writes"


def test_the_writing_rule_sees_a_write():
    """The rule above is not blind: publish's own writes are found."""
    tree = ast.parse((PRESENTATION / "publish.py").read_text())
    assert any(isinstance(node, ast.Call) and _writes(node) for node in ast.walk(tree))


@pytest.mark.parametrize("sample", ["sample_results:sample_result",
                                    "latency_sample:latency_sample_result",
                                    "profile_sample:profile_sample_result"])
def test_writing_a_run_page_loads_no_matplotlib(sample):
    """In a fresh interpreter: render a run's page (what publish writes as index.html, its
    interactive charts included) and the list of runs, then list the modules loaded."""
    module, function = sample.split(":")
    probe = (f"from tests.{module} import {function} as sample\n"
             "from httplab.presentation.html.assets import ChartLibrary\n"
             "from httplab.presentation.html.run_list import ListedRun, render_run_list\n"
             "from httplab.presentation.html.run_page import render_run_page\n"
             "from httplab.presentation.markdown.results import MarkdownExporter\n"
             "result = sample()\n"
             "page = render_run_page(result, MarkdownExporter().render(result), frozenset(),\n"
             "                       ChartLibrary('0.0.0'))\n"
             "assert 'plotly-0.0.0.min.js' in page\n"
             "assert render_run_list([ListedRun('run', result)])\n"
             "import sys\n"
             "print('\\n'.join(sys.modules))")
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         cwd=PACKAGE.parent)
    loaded = run.stdout.split()
    assert "httplab.presentation.plotly.charts" in loaded, run.stderr
    assert not [name for name in loaded if name.split(".")[0] == "matplotlib"]
