"""docs/settings.md's generator: every setting of make bench and make latency, with its
default as bench_settings states it (tests/docs/test_docs_agree.py holds the committed
file to it)."""

from __future__ import annotations

from httplab.bench_settings import BENCH_SETTINGS, LATENCY_SETTINGS, variable
from httplab.cli import main
from httplab.commands.settings_doc import settings_markdown, settings_table


def test_each_setting_is_a_row_with_its_default_and_meaning():
    table = settings_table(BENCH_SETTINGS)
    assert "| `THREADS` | `10,5` | wrk threads; one run per value |\n" in table
    assert "| `SERVER_CPUS` | empty | " in table
    assert len(table.splitlines()) == 2 + len(BENCH_SETTINGS)


def test_both_commands_are_listed_and_what_latency_refuses_is_named():
    text = settings_markdown()
    for flag, _, _ in BENCH_SETTINGS + LATENCY_SETTINGS:
        assert f"| `{variable(flag)}` |" in text
    assert "but `FAIRNESS` and `LOADGEN_HOSTS`, which `make latency` refuses" in text


def test_the_cli_prints_it(capsys):
    assert main(["settings", "--markdown"]) == 0
    assert capsys.readouterr().out == settings_markdown()
