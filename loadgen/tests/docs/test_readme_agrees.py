"""The README's first screen, and the figures of a first run the docs derive, held to the
lab: the ports (the servers' manifests, the database's), `make base-images` for a host
without a registry, the default JDK that `make test` and `BACKEND=local` need (axes.py) and
`make jdks`; the servers counted and the seconds of load of `make bench` and `make sweep`
(their plans, as the progress line estimates them); and the README's "How to read this
chart", which names the run image/result1.png is drawn from and its rounds. Each check is
first shown to fail on a hand-broken copy."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from httplab.axes import JDK
from httplab.manifest import discover
from httplab.paths import DEFAULT_REPO, servers_dir
from httplab.running.database.base import DB_PORT
from httplab.running.plan import BenchPlan, make_plan
from httplab.running.progress import START_AND_VERIFY_S
from httplab.run_layout import RESULTS_JSON

from tests.support.doc_copy import copy_docs_and_runs, edit_once

FIRST_SCREEN_LINES = 40
NUMBER_WORDS = {3: "three", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"}
SWEEP_SETTINGS = re.compile(r"^SWEEP_SETTINGS := (.*)$", re.M)
SWEEP_TIME = re.compile(r"about (\d+)\s+minutes for the (\w+) servers, (\d+) × \((\d+) s of "
                        r"load.*?and (\d+) s to start and check\) = (\d+) s", re.S)
BENCH_TIME = re.compile(r"measures (\w+) servers.*?: (\d+) s of load", re.S)
IMAGES = re.compile(r"lists the (\w+) server images")
CHART_RUN = re.compile(r"How to read this chart \(`results/([0-9TZ-]+)/`(.*?)\n\n", re.S)
RESULT1_ROW = re.compile(r"^\| \[`([0-9TZ-]+)`\].*\| `image/result1\.png`", re.M)


def _plan(settings: dict[str, str]) -> BenchPlan:
    return make_plan(settings, discover(servers_dir(DEFAULT_REPO)), frozenset({0, 1}))


def _estimate(plan: BenchPlan) -> int:
    """The seconds the progress line announces: load, and starting and checking each."""
    return plan.load_seconds + START_AND_VERIFY_S * plan.starts


def first_screen_drift(repo: Path) -> list[str]:
    screen = " ".join(" ".join((repo / "README.md").read_text().splitlines()[
        :FIRST_SCREEN_LINES]).split())
    ports = {str(server.port) for server in discover(servers_dir(DEFAULT_REPO))}
    wanted = {f"port {port}" for port in ports} | {str(DB_PORT), "`make base-images`",
                                                    f"JDK {JDK.default}", "`make jdks`", "GB"}
    return [f"the README's first {FIRST_SCREEN_LINES} lines lack {text!r}"
            for text in sorted(wanted) if text not in screen]


def default_jdk_drift(repo: Path) -> list[str]:
    """testing.md and docker.md (BACKEND=local) name the default JDK with `make jdks`."""
    return [f"{name} does not say that JDK {JDK.default}, the default, comes from `make jdks`"
            for name in ("docs/testing.md", "docs/docker.md")
            if not re.search(rf"JDK {JDK.default}, the default.{{0,80}}`make jdks`",
                             " ".join((repo / name).read_text().split()))]


def _word(count: int) -> str:
    return NUMBER_WORDS.get(count, str(count))


def bench_time_drift(repo: Path) -> list[str]:
    plan = _plan({})
    servers, seconds = BENCH_TIME.search((repo / "README.md").read_text()).groups()
    images = IMAGES.search((repo / "README.md").read_text()).group(1)
    stated = {"servers measured": servers, "s of load": seconds, "server images": images}
    derived = {"servers measured": _word(len(plan.servers)), "s of load": str(plan.load_seconds),
               "server images": _word(len(plan.servers))}
    return [f"the README says {stated[key]} {key}; make bench's plan: {derived[key]}"
            for key in stated if stated[key] != derived[key]]


def sweep_time_drift(repo: Path) -> list[str]:
    flags = SWEEP_SETTINGS.search((DEFAULT_REPO / "Makefile").read_text()).group(1).split()
    plan = _plan(dict(flag.removeprefix("--").split("=", 1) for flag in flags))
    total = _estimate(plan)
    per_server = plan.load_seconds // len(plan.servers)
    derived = (str(round(total / 60)), _word(len(plan.servers)), str(len(plan.servers)),
               str(per_server), str(START_AND_VERIFY_S), str(total))
    stated = SWEEP_TIME.search((repo / "docs" / "method.md").read_text()).groups()
    return [] if stated == derived else [f"method.md states the sweep's time as {stated}; "
                                         f"its plan gives {derived}"]


def chart_text_drift(repo: Path) -> list[str]:
    """The chart's text names the run findings.md credits with image/result1.png, and that
    run's rounds."""
    run, words = CHART_RUN.search((repo / "README.md").read_text()).groups()
    drawn = RESULT1_ROW.search((repo / "docs" / "findings.md").read_text()).group(1)
    if run != drawn:
        return [f"the README's chart text describes {run}; image/result1.png is {drawn}'s"]
    repeat = json.loads((repo / "results" / run / RESULTS_JSON).read_text())["settings"]["repeat"]
    says = "one round" if repeat == 1 else f"median of {_word(repeat)}"
    return [] if says in " ".join(words.split()) else [
        f"the README's chart text does not say {says!r} of {run}, which ran {repeat} rounds"]


def lab_drift(repo: Path) -> list[str]:
    return (first_screen_drift(repo) + default_jdk_drift(repo) + bench_time_drift(repo)
            + sweep_time_drift(repo) + chart_text_drift(repo))


@pytest.fixture
def lab_copy(tmp_path) -> Path:
    return copy_docs_and_runs(tmp_path)


def test_the_readme_and_guides_agree_with_the_lab():
    assert lab_drift(DEFAULT_REPO) == []


def test_a_first_screen_without_its_ports_or_the_jdk_is_caught(lab_copy):
    readme = lab_copy / "README.md"
    edit_once(readme, "it needs **JDK 25**, the default JDK", "it needs a JDK")
    edit_once(readme, "port 8080 free", "the server's port free")
    assert first_screen_drift(lab_copy) == [
        "the README's first 40 lines lack 'JDK 25'",
        "the README's first 40 lines lack 'port 8080'"]
    edit_once(lab_copy / "docs" / "testing.md", "JDK 25,\nthe default JDK", "JDK 17,\nthe default JDK")
    assert default_jdk_drift(lab_copy) == [
        "docs/testing.md does not say that JDK 25, the default, comes from `make jdks`"]


def test_stale_server_counts_and_times_are_caught(lab_copy):
    edit_once(lab_copy / "README.md", "measures eight servers", "measures six servers")
    edit_once(lab_copy / "README.md", "440 s of load", "330 s of load")
    assert bench_time_drift(lab_copy) == [
        "the README says six servers measured; make bench's plan: eight",
        "the README says 330 s of load; make bench's plan: 440"]
    edit_once(lab_copy / "docs" / "method.md", "about 17\nminutes for the eight", "about 13\n"
                                                                         "minutes for the six")
    assert len(sweep_time_drift(lab_copy)) == 1


def test_a_chart_text_of_another_run_is_caught(lab_copy):
    readme = lab_copy / "README.md"
    edit_once(readme, "chart (`results/2026-11-26T14-54-49Z/`", "chart (`results/2026-11-23T02-07-27Z/`")
    assert chart_text_drift(lab_copy) == [
        "the README's chart text describes 2026-11-23T02-07-27Z; image/result1.png is "
        "2026-11-26T14-54-49Z's"]
    edit_once(readme, "chart (`results/2026-11-23T02-07-27Z/`", "chart (`results/2026-11-26T14-54-49Z/`")
    edit_once(readme, "one round, 10 and 5 threads", "three rounds, 10 and 5 threads")
    edit_once(readme, "One round gives no interval", "Three rounds give no interval")
    assert chart_text_drift(lab_copy) == [
        "the README's chart text does not say 'one round' of 2026-11-26T14-54-49Z, which ran "
        "1 rounds"]
