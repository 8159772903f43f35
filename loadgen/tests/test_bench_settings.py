"""Bench defaults are stated once, in bench_settings.BENCH_SETTINGS: the Makefile passes only what the
user set, and the settings tables of docs/settings.md must agree with the CLI."""

from __future__ import annotations

import re
import shlex
import subprocess

import pytest

from httplab.axes import AXES, REPLICA
from httplab.bench_settings import (BENCH_SETTINGS, LATENCY_SETTINGS, settings_markdown,
                                    settings_table, settings_text, variable)
from httplab.cli import main

FLAGS = {flag for flag, _, _ in BENCH_SETTINGS}
DEFAULTS = {flag.upper().replace("-", "_"): default for flag, default, _ in BENCH_SETTINGS}


def _make_bench_arguments(repo, *assignments: str) -> list[str]:
    """The httplab arguments `make -n bench` would run with, without running anything."""
    dry = subprocess.run(["make", "-s", "-n", "-C", str(repo), "bench", *assignments],
                         capture_output=True, text=True, check=True)
    line = next(line for line in dry.stdout.splitlines() if "httplab bench" in line)
    return shlex.split(line)[2:]


def test_make_passes_no_setting_the_user_did_not_set(repo):
    assert _make_bench_arguments(repo) == []


@pytest.mark.parametrize("assignment, argument", [
    ("THREADS=2", "--threads=2"), ("SERVER_CPUS=1", "--server-cpus=1"),
    ("CV_THRESHOLD=0.1", "--cv-threshold=0.1"), ("BASE_IMAGES=local", "--base-images=local"),
])
def test_make_passes_a_set_variable_as_its_flag(repo, assignment, argument):
    assert _make_bench_arguments(repo, assignment) == [argument]


def test_the_makefile_knows_every_bench_setting_and_no_other(repo):
    makefile = (repo / "Makefile").read_text()
    listed = re.search(r"^BENCH_SETTINGS := (.*?)\n(?!\t)", makefile, re.S | re.M).group(1)
    variables = listed.replace("\\", " ").split()
    assert {v.lower().replace("_", "-") for v in variables} == FLAGS


# What docs/settings.md says for an empty default (the meaning says what empty does).
EMPTY = "empty"


def _settings_doc(repo) -> str:
    return (repo / "docs" / "settings.md").read_text()


def test_the_settings_doc_states_the_cli_defaults(repo):
    rows = re.findall(r"^\| `([A-Z_]+)`(?:, `([A-Z_]+)`)? \| ([^|]*) \|", _settings_doc(repo), re.M)
    stated = {name: default.strip().strip("`") for first, second, default in rows
              for name in (first, second) if name}
    for variable, default in DEFAULTS.items():
        assert variable in stated, f"docs/settings.md's settings table lacks {variable}"
        expected = default or EMPTY
        assert stated[variable] == expected, (
            f"docs/settings.md says {variable} defaults to {stated[variable]!r}; the CLI says {expected!r}")


def test_settings_text_lists_every_setting_with_its_default():
    text = settings_text()
    assert "  THREADS=10,5 " in text and "  SERVER_CPUS= " in text
    assert len(text.splitlines()) == len(BENCH_SETTINGS)


LATENCY_DEFAULTS = {flag.upper().replace("-", "_"): default
                    for flag, default, _ in LATENCY_SETTINGS}


def test_the_makefile_passes_make_latency_its_own_settings_and_the_benchs(repo):
    makefile = (repo / "Makefile").read_text()
    listed = re.search(r"^LATENCY_SETTINGS := (.*?)\n(?!\t)", makefile, re.S | re.M).group(1)
    variables = set(listed.replace("\\", " ").split()) - {"$(BENCH_SETTINGS)"}
    assert variables == set(LATENCY_DEFAULTS)


def test_the_settings_doc_states_make_latencys_defaults(repo):
    rows = dict(re.findall(r"^\| `([A-Z_0-9]+)` \| ([^|]*) \|", _settings_doc(repo), re.M))
    for variable, default in LATENCY_DEFAULTS.items():
        assert variable in rows, f"docs/settings.md's make latency table lacks {variable}"
        assert rows[variable].strip().strip("`") == (default or EMPTY)


def test_the_settings_doc_has_a_row_per_setting_with_its_default_and_meaning():
    table = settings_table(BENCH_SETTINGS)
    assert "| `THREADS` | `10,5` | wrk threads; one run per value |\n" in table
    assert "| `SERVER_CPUS` | empty | " in table
    assert len(table.splitlines()) == 2 + len(BENCH_SETTINGS)


def test_the_settings_doc_lists_both_commands_and_names_what_latency_refuses():
    text = settings_markdown()
    for flag, _, _ in BENCH_SETTINGS + LATENCY_SETTINGS:
        assert f"| `{variable(flag)}` |" in text
    assert "but `FAIRNESS` and `LOADGEN_HOSTS`, which `make latency` refuses" in text


def test_httplab_settings_markdown_prints_the_settings_doc(capsys):
    assert main(["settings", "--markdown"]) == 0
    assert capsys.readouterr().out == settings_markdown()


def test_the_makefile_passes_make_pairing_study_exactly_its_settings(repo):
    from httplab.bench_settings import PAIRING_STUDY_FLAGS

    makefile = (repo / "Makefile").read_text()
    listed = re.search(r"^PAIRING_STUDY_SETTINGS := (.*?)\n(?!\t)", makefile, re.S | re.M).group(1)
    assert set(listed.replace("\\", " ").split()) == {variable(flag)
                                                       for flag, _, _ in PAIRING_STUDY_FLAGS}


def test_make_pairing_study_passes_only_what_was_set(repo):
    dry = subprocess.run(["make", "-s", "-n", "-C", str(repo), "pairing-study", "PAIRS=8"],
                         capture_output=True, text=True, check=True)
    line = next(line for line in dry.stdout.splitlines() if "httplab pairing-study" in line)
    assert shlex.split(line)[2:] == ["--pairs=8"]


@pytest.mark.parametrize("axis", [axis for axis in AXES if axis.meaning])
def test_each_axis_a_make_variable_sets_has_its_row_from_its_entry_in_axes(axis):
    rows = {flag: (default, meaning) for flag, default, meaning in BENCH_SETTINGS}
    default, meaning = rows[axis.setting.lower()]
    assert meaning == axis.meaning
    assert default == ("" if axis.own_when_empty else axis.default)
    assert default in ("", *axis.values)


def test_replica_is_make_calibrates_own_and_no_row_of_make_bench():
    assert "replica" not in {flag for flag, _, _ in BENCH_SETTINGS}
    assert {axis.setting for axis in AXES if not axis.meaning} == {REPLICA.setting}
