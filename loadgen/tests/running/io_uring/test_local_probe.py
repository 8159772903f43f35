"""BACKEND=local's try on this host, with the host's java and the Netty jar (slow: needs
`make jars`); where the kernel refuses io_uring it skips, saying so."""

from __future__ import annotations

import pytest

from httplab.paths import DEFAULT_REPO, LUA_SCRIPT, servers_dir
from httplab.running.backends.local import LocalBackend
from httplab.running.io_uring.trial import probe_server

from tests.support.io_uring import require_io_uring


@pytest.mark.slow
def test_the_probe_starts_io_uring_on_this_host():
    require_io_uring()
    jar = probe_server((), servers_dir(DEFAULT_REPO)).jar_path(servers_dir(DEFAULT_REPO))
    assert jar.is_file(), f"{jar} is missing: build it with `make jars`"
    said = LocalBackend(servers_dir(DEFAULT_REPO), LUA_SCRIPT).try_io_uring(())
    assert said == "io_uring: Netty's probe starts it on this host"
