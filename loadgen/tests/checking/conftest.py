"""The run's TLS files for the checks' tests: made once per test session, as a run makes
them, and a second set standing for a certificate that is not the run's."""

from __future__ import annotations

import pytest

from httplab.run_tls import RunTls
from httplab.running.tls.certificates import make_run_tls, remove_run_tls


@pytest.fixture(scope="session")
def run_tls(tmp_path_factory) -> RunTls:
    made = make_run_tls(tmp_path_factory.mktemp("run-tls"))
    yield made
    remove_run_tls(made)


@pytest.fixture(scope="session")
def other_run_tls(tmp_path_factory) -> RunTls:
    made = make_run_tls(tmp_path_factory.mktemp("other-run-tls"))
    yield made
    remove_run_tls(made)
