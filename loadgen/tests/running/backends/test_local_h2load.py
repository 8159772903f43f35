"""The local backend's h2load run as make bench's tool for HTTP/2: with a stand-in h2load,
the summary file (the line naming its arguments, then its output) and its log; and, slow,
the real h2load -m2 against a local nginx on h2c and on h2 for 2 s, read back as a run."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import pytest

from httplab.loadtools.h2load.measured_command import H2loadRunRequest
from httplab.results.collect import read_h2load_files
from httplab.running.backend_error import BackendError
from httplab.running.backends import local
from httplab.running.backends.local import LocalBackend
from httplab.running.raw_reduction import reduce_h2load_log

from tests.conftest import free_port, port_is_listening

STAND_IN = """#!/bin/sh
for argument; do case "$argument" in --log-file=*) printf '1\\t200\\t7\\n' > "${argument#--log-file=}";; esac; done
echo "Application protocol: h2c"
echo "complaint" >&2
exit 3
"""


def test_the_summary_names_the_arguments_then_holds_h2loads_output(tmp_path, monkeypatch):
    stand_in = tmp_path / "h2load"
    stand_in.write_text(STAND_IN)
    stand_in.chmod(0o755)
    monkeypatch.setattr(local, "H2LOAD_COMMAND", str(stand_in))
    summary, log = tmp_path / "a.h2load-run.txt", tmp_path / "a.h2load-requests.tsv"
    outcome = LocalBackend(tmp_path, tmp_path / "done.lua").run_h2load_bench(
        H2loadRunRequest(1, 2, 3, 1, "http://127.0.0.1:1/", str(log)), summary)
    assert summary.read_text() == (f"# httplab: h2load -t1 -c2 -m3 -D1 --log-file={log} "
                                   "http://127.0.0.1:1/\nApplication protocol: h2c\n")
    assert (outcome.exit_code, outcome.stderr) == (3, "complaint")
    assert log.read_text() == "1\t200\t7\n"


NGINX = Path("/usr/sbin/nginx")
OPENSSL = """set -e
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 \\
  -subj /CN=httplab-test-ca -keyout ca.key -out ca.pem \\
  -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=localhost \\
  -keyout server.key -out server.csr
printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\\nextendedKeyUsage=serverAuth\\n' > ext
openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 \\
  -extfile ext -out server.pem
chmod 600 server.key
"""
NGINX_CONF = """worker_processes 1; daemon off; pid {d}/nginx.pid; error_log {d}/error.log;
events {{ worker_connections 256; }}
http {{
  access_log off; keepalive_requests 10000000;
  client_body_temp_path {d}; proxy_temp_path {d}; fastcgi_temp_path {d};
  uwsgi_temp_path {d}; scgi_temp_path {d};
  server {{ listen 127.0.0.1:{h2c} http2; location / {{ return 200 "Hello, World!"; }} }}
  server {{ listen 127.0.0.1:{h2} ssl http2; ssl_certificate {d}/server.pem;
           ssl_certificate_key {d}/server.key; location / {{ return 200 "Hello, World!"; }} }}
}}
"""


@pytest.fixture
def nginx_http2(tmp_path):
    """nginx on 127.0.0.1 serving h2c (prior knowledge) and h2 (TLS, ALPN) on two ports,
    with a throwaway certificate; stopped afterwards."""
    if not NGINX.is_file() or shutil.which("h2load") is None or shutil.which("openssl") is None:
        pytest.skip("needs Debian's nginx, h2load and openssl")
    subprocess.run(["sh", "-c", OPENSSL], cwd=tmp_path, check=True, capture_output=True)
    ports = {"h2c": free_port(), "h2": free_port()}
    conf = tmp_path / "nginx.conf"
    conf.write_text(NGINX_CONF.format(d=tmp_path, **ports))
    nginx = subprocess.Popen([str(NGINX), "-c", str(conf), "-p", str(tmp_path)],
                             stderr=subprocess.PIPE)
    deadline = time.monotonic() + 10
    while not all(map(port_is_listening, ports.values())) and time.monotonic() < deadline:
        time.sleep(0.1)
    try:
        yield ports
    finally:
        nginx.terminate()
        nginx.wait(timeout=10)


@pytest.mark.slow
@pytest.mark.parametrize("protocol, scheme", [("h2c", "http"), ("h2", "https")])
def test_h2load_m2_against_nginx_reads_back_as_a_run_of_that_protocol(tmp_path, nginx_http2,
                                                                     protocol, scheme):
    raw = tmp_path / "raw"
    raw.mkdir()
    summary, log = raw / "nginx.h2load-run.txt", raw / "nginx.h2load-requests.tsv"
    url = f"{scheme}://127.0.0.1:{nginx_http2[protocol]}/"
    outcome = LocalBackend(tmp_path, tmp_path / "done.lua").run_h2load_bench(
        H2loadRunRequest(1, 2, 2, 2, url, str(log)), summary)
    assert outcome.exit_code == 0, outcome.stderr
    run = read_h2load_files(summary, reduce_h2load_log(log, raw / "nginx.h2load-latency.json"))
    assert (run.tool, run.protocol, run.streams, run.connections) == ("h2load", protocol, 2, 2)
    assert run.requests > 100 and run.non_2xx_3xx == 0 and run.errors.total == 0
    assert run.latency.percentile(99) is not None
    assert 1.9 <= run.duration_s <= 2.1
    assert not log.exists()


def test_a_missing_h2load_is_named_with_the_way_out(tmp_path, monkeypatch):
    monkeypatch.setattr(local, "H2LOAD_COMMAND", str(tmp_path / "no-h2load"))
    with pytest.raises(BackendError, match=r"no-h2load not found on PATH, and PROTOCOL h2c "
                                           r"and h2 need it: install Debian's nghttp2-client"):
        LocalBackend(tmp_path, tmp_path / "done.lua").check_h2load()
