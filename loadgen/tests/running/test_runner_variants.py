"""The JDK axis through the runner, with a fake backend: each framework once per JDK asked,
a JDK the framework does not run on a "not applicable" cell with its reason, never started,
and a server that says it runs another JDK than asked failing its cells, naming both."""

from __future__ import annotations

import io

from httplab.axes import Variant
from httplab.manifest import parse_manifest
from httplab.model import CellStatus
from httplab.results.collect import cells_from_outcomes
from httplab.results.assemble import first_record_per_server
from httplab.run_layout import RunStem
from httplab.running.plan import make_plan
from httplab.running.progress import Progress

from tests.support.fake_backend import FakeBackend, bench_runner
from tests.support.plans import MANIFEST, plan_settings

# A framework of JDK 21 and 25 only, as Helidon 4 is.
NEWER_ONLY = MANIFEST.replace('jdks = "17,21,25"', 'jdks = "21,25"')


def _run(tmp_path, backend, text=NEWER_ONLY, **options):
    known = (parse_manifest("alpha", text),)
    plan = make_plan(plan_settings("all", "10", "20", "1s", **options), known, frozenset({0, 1}))
    progress = io.StringIO()
    outcomes = bench_runner(backend, plan, tmp_path / "raw", Progress(plan, progress),
                            lambda outcome: None).run()
    records = first_record_per_server(outcomes)
    cells = cells_from_outcomes([c for o in outcomes for c in o.cells], records)
    return outcomes, cells, progress.getvalue()


def test_a_jdk_the_framework_does_not_run_on_is_one_not_applicable_cell_never_started(tmp_path):
    backend = FakeBackend()
    outcomes, cells, progress = _run(tmp_path, backend, jdk="17,25", repeat="2")
    by_server = {cell.server: cell for cell in cells}
    assert set(by_server) == {"alpha@jdk17", "alpha"}
    na = by_server["alpha@jdk17"]
    assert na.status is CellStatus.NOT_APPLICABLE and not na.runs
    assert na.reason == "X 1 runs on JDK 21 and 25 only, not 17 (the test's own)"
    assert by_server["alpha"].status is CellStatus.OK and by_server["alpha"].rounds == (1, 2)
    assert [outcome.record.name for outcome in outcomes].count("alpha@jdk17") == 1
    assert backend.started == ["alpha", "alpha"]  # the JDK 17 variant never started
    assert "alpha@jdk17" in progress and "not applicable" in progress


def test_every_variant_has_its_own_raw_names_which_read_back(tmp_path):
    _run(tmp_path, FakeBackend(), text=MANIFEST, jdk="17,21,25", settings="original,default")
    stems = [RunStem.parse(path.stem) for path in (tmp_path / "raw").glob("*-t10-c20.txt")]
    keys = sorted(stem.server for stem in stems if stem is not None)
    assert keys == sorted(["alpha", "alpha@jdk17", "alpha@jdk21", "alpha@default",
                           "alpha@default@jdk17", "alpha@default@jdk21"])
    assert {Variant.of_key(key).value("JDK") for key in keys} == {"17", "21", "25"}


def test_a_server_on_another_jdk_than_asked_fails_its_cells_naming_both(tmp_path):
    backend = FakeBackend(said_jdk="17")
    _, cells, _ = _run(tmp_path, backend, text=MANIFEST, jdk="25")
    assert {cell.status for cell in cells} == {CellStatus.FAILED}
    assert all("runs on JDK 17.0.1 (Fake Vendor), but the run asked for JDK 25" in cell.reason
               for cell in cells)
