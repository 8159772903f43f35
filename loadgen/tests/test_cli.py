"""Bad input gets one clear line and exit 2, before anything starts."""

import pytest

from httplab.cli import main


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
