"""The command line: bad input gets one clear line and exit 2, before anything starts, and
every --help prints its usage."""

import argparse

import pytest

from httplab.cli import build_parser, main


@pytest.mark.parametrize("arguments, message", [
    (["--servers", "nosuch"], "unknown server nosuch"),
    (["--duration", "ten"], "DURATION must be"),
    (["--threads", "600"], "CONNECTIONS 500 is below THREADS 600"),
    (["--connections", "0"], "CONNECTIONS must be"),
])
def test_bad_bench_input_exits_2_with_one_line(tmp_path, capsys, arguments, message):
    code = main(["bench", "--backend", "local", "--results-dir", str(tmp_path), *arguments])
    error = capsys.readouterr().err
    assert code == 2
    assert error.count("\n") == 1 and message in error
    assert list(tmp_path.iterdir()) == [], "nothing may start or be written"


def test_missing_wrk_is_reported_before_any_load(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    code = main(["bench", "--backend", "local", "--results-dir", str(tmp_path / "r")])
    assert code == 2
    assert "not found on PATH" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()


def _subcommands() -> list[str]:
    """Every subcommand, as the parser knows them."""
    parser = build_parser()
    choices = next(action.choices for action in parser._actions
                   if isinstance(action, argparse._SubParsersAction))
    return sorted(choices)


@pytest.mark.parametrize("arguments", [[]] + [[command] for command in _subcommands()],
                         ids=lambda arguments: " ".join(arguments) or "httplab")
def test_every_help_prints_usage_and_exits_0(capsys, arguments):
    with pytest.raises(SystemExit) as leaving:
        main([*arguments, "--help"])
    assert leaving.value.code == 0
    assert capsys.readouterr().out.startswith("usage: httplab")
