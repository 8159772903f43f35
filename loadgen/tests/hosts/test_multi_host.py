"""Multi-machine runs on one machine: the server's engine and two load generators' engines
each in a network namespace of their own (tests/hosts), reached over SSH or a unix
socket as separate machines would be. The load aims only at the address the test gave
its server's namespace, checked before any load, and everything is torn down after,
which the tests assert. Needs root and Docker: skipped otherwise, saying why; with
CI=true, a missing piece (sshd, iproute2) fails instead."""

from __future__ import annotations

import json
import math
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from httplab.results.raw_archive import raw_names, read_raw_text
from httplab.run_layout import RESULTS_JSON
from httplab.loadtools.stall_meter.report import cpu_records
from httplab.manifest import discover
from httplab.paths import servers_dir
from httplab.running.backends.docker import DockerBackend

from tests.conftest import TESTS_DIR
from tests.docker_support import (IN_CI, default_server_image, engine_problem,
                                  first_present_image, require)
from tests.hosts.engines import ship_image
from tests.hosts.leftovers import RunMarks, leftovers
from tests.hosts.netns import rp_filter
from tests.hosts.peers import PeerWatch
from tests.hosts.shell import in_netns, run
from tests.hosts.testbed import Testbed, missing_tools

pytestmark = [pytest.mark.slow, pytest.mark.docker]

SERVER_IMAGE = default_server_image("netty")
WRK_IMAGE = "httplab/wrk:latest"
THREADS, CONNECTIONS = 2, 20
CELL_STEM = f"netty-t{THREADS}-c{CONNECTIONS}"
BENCH_TIMEOUT_S = 600  # three images of ~350 MB shipped (~12 s each here), ~10 s of load
WRK_TIMEOUT_S = 60
FETCH = ("import sys, urllib.request\n"
         "print(urllib.request.urlopen(sys.argv[1], timeout=2).read().decode(), end='')")


def _require_testbed() -> None:
    """Returns when this host can hold the test hosts; skips the test (fails it in CI)
    saying what it lacks otherwise."""
    if os.geteuid() != 0:
        pytest.skip("the test hosts need root: network namespaces, veths, a second dockerd")
    require(engine_problem())
    missing = missing_tools()
    if missing:
        message = f"the test hosts need {', '.join(missing)} (Debian: openssh-server, " \
                  "openssh-client, iproute2, util-linux)"
        if IN_CI:
            pytest.fail(f"CI has root and Docker, so it runs the test hosts: {message}")
        pytest.skip(message)


def _testbed() -> Testbed:
    _require_testbed()
    return Testbed()


def _assert_nothing_left(bed: Testbed) -> None:
    left = leftovers(bed.marks)
    assert not left, f"the testbed left: {left}"


def _netty(repo: Path):
    return next(m for m in discover(servers_dir(repo)) if m.name == "netty")


def _build_images_here(repo: Path) -> None:
    """The server's and wrk's images on this machine's engine, built when missing, for
    shipping by hand."""
    if all(first_present_image(image) for image in (SERVER_IMAGE, WRK_IMAGE)):
        return
    builder = DockerBackend(repo)
    builder.check_available()
    builder.prepare((_netty(repo),))


def _wait_for_hello(bed: Testbed, port: int, timeout_s: float = 90) -> None:
    """Until the server answers GET / from every generator's namespace."""
    url = f"http://{bed.plan.target_address}:{port}/"
    deadline = time.monotonic() + timeout_s
    for host in bed.plan.generators:
        while True:
            answer = run(in_netns(host.netns, [sys.executable, "-c", FETCH, url]),
                         timeout=10, check=False)
            if answer.stdout == "Hello, World!":
                break
            assert time.monotonic() < deadline, f"no hello from {url} in {host.netns}"
            time.sleep(0.5)


def _wrk_in_generators(bed: Testbed, port: int) -> list[str]:
    """wrk in a host-network container of each generator's engine, all at once, 2 s."""
    url = f"http://{bed.plan.target_address}:{port}/"
    started = [subprocess.Popen(["docker", "-H", spec, "run", "--rm", "--network", "host",
                                 "--entrypoint", "wrk", WRK_IMAGE, "-t1", "-c4", "-d2s", url],
                                env=bed.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True)
               for spec in bed.generator_specs]
    try:
        return [process.communicate(timeout=WRK_TIMEOUT_S)[0] for process in started]
    finally:
        for process in started:
            if process.poll() is None:
                process.kill()
                process.wait(10)


def test_the_testbed_reaches_the_server_from_both_generators(repo):
    bed = _testbed()
    port = _netty(repo).port
    _build_images_here(repo)
    with bed:
        engines = [bed.server_spec, *bed.generator_specs]
        ids = {run(["docker", "-H", spec, "info", "--format", "{{.ID}}"], env=bed.env).stdout
               for spec in engines}
        assert len(ids) == len(engines), "each test host must be an engine of its own"
        for spec, image in zip(engines, [SERVER_IMAGE, WRK_IMAGE, WRK_IMAGE]):
            ship_image(image, spec, bed.env)
        target = bed.plan.target_address
        run(["docker", "-H", bed.server_spec, "run", "-d", "--name", "hl-netty",
             "--network", "host", "-e", f"BIND_ADDRESS={target}", SERVER_IMAGE], env=bed.env)
        assert bed.check_target(target) == bed.plan.server.netns
        _wait_for_hello(bed, port)
        with PeerWatch(lambda: bed.established_peers(port)) as watch:
            reports = _wrk_in_generators(bed, port)
        for report in reports:
            assert int(re.search(r"(\d+) requests in", report).group(1)) > 0, report
            assert "Socket errors" not in report and "Non-2xx" not in report, report
        assert set(bed.plan.generator_sources) <= watch.seen, (watch.seen, watch.errors)
        assert _reverse_path_filters(bed) == {1}, "every direct link must filter strictly"
    _assert_nothing_left(bed)


def _reverse_path_filters(bed: Testbed) -> set[int]:
    """The effective rp_filter on both ends of every generator's direct link."""
    return {rp_filter(netns, interface) for link in bed.plan.links if link.netns_a
            for netns, interface in ((link.netns_a, link.name_a), (link.netns_b, link.name_b))}


def test_a_testbed_ended_by_sigterm_tears_itself_down():
    _require_testbed()
    script = ("import dataclasses, json, time\n"
              "from tests.hosts.testbed import Testbed\n"
              "with Testbed() as bed:\n"
              "    print(json.dumps(dataclasses.astuple(bed.marks), default=str), flush=True)\n"
              "    time.sleep(120)\n")
    process = subprocess.Popen([sys.executable, "-c", script], cwd=TESTS_DIR.parent,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()  # the testbed is up
        process.send_signal(signal.SIGTERM)
        _, errors = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)
    assert line, errors
    namespaces, inodes, veths, directories = json.loads(line)
    assert "KeyboardInterrupt" in errors and "TeardownIncomplete" not in errors, errors
    left = leftovers(RunMarks(tuple(namespaces), tuple(inodes), tuple(veths),
                              tuple(map(Path, directories))))
    assert not left, left


# -- the bench through the hosts -------------------------------------------------------


def wrk_percentile(histogram: list[tuple[int, int]], percentile: float) -> int:
    """wrk's rule (stats_percentile): rank = round(p/100 x total + 0.5); the smallest
    value whose cumulative count reaches the rank. Histogram: (value, count) pairs."""
    ordered = sorted(histogram)
    total = sum(count for _, count in ordered)
    rank = math.floor(percentile / 100 * total + 0.5 + 0.5)  # C's round(), for x > 0
    cumulative = 0
    for value, count in ordered:
        cumulative += count
        if cumulative >= rank:
            return value
    raise ValueError("an empty histogram has no percentile")


def summed_histogram(*histograms: list[tuple[int, int]]) -> list[tuple[int, int]]:
    counts: dict[int, int] = {}
    for histogram in histograms:
        for value, count in histogram:
            counts[value] = counts.get(value, 0) + count
    return sorted(counts.items())


def _histogram(done_json: dict) -> list[tuple[int, int]]:
    return [(int(value), int(count)) for value, count in done_json["latency_histogram"]]


def _run_bounded(command: list[str], env: dict[str, str], timeout_s: float
                 ) -> subprocess.CompletedProcess[str]:
    """Runs the harness. At the time limit, or when the test is interrupted, SIGTERM (the
    harness cleans up as for Ctrl-C), then SIGKILL 60 s later; whatever is left on the
    engines goes with the testbed."""
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    try:
        out, _ = process.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        out = _stop(process)
        pytest.fail(f"the bench did not end within {timeout_s} s: {out[-3000:]}")
    except BaseException:
        _stop(process)
        raise
    return subprocess.CompletedProcess(command, process.returncode, out, "")


def _stop(process: subprocess.Popen) -> str:
    process.send_signal(signal.SIGTERM)
    try:
        return process.communicate(timeout=60)[0]
    except subprocess.TimeoutExpired:
        process.kill()
        return process.communicate(timeout=10)[0]


def _bench_command(bed: Testbed, repo: Path, results: Path) -> list[str]:
    return [sys.executable, "-m", "httplab.cli", "--repo", str(repo), "bench",
            "--server-host", bed.server_spec,
            "--loadgen-hosts", ",".join(bed.generator_specs),
            "--target-address", bed.plan.target_address,
            "--servers", "netty", "--threads", str(THREADS),
            "--connections", str(CONNECTIONS), "--duration", "3s", "--primer", "0",
            "--warmup", "1s", "--ceiling", "0", "--fairness", "0",
            "--results-dir", str(results), "--image", str(results / "chart.png")]


def _cell(results_json: Path) -> dict:
    cells = json.loads(results_json.read_text())["cells"]
    return next(cell for cell in cells if cell["threads"] == THREADS
                and cell["connections"] == CONNECTIONS and cell["server"].startswith("netty"))


def _measured(cell: dict) -> list[dict]:
    keys = ("requests", "bytes_read", "latency_us", "socket_errors", "non_2xx_3xx",
            "threads", "connections")
    return [{key: run_[key] for key in keys} for run_ in cell["runs"]]


def test_a_bench_through_the_hosts_merges_both_generators(repo):
    bed = _testbed()
    port = _netty(repo).port
    with bed:
        results = bed.data_dir / "results"  # removed with the testbed
        assert bed.check_target(bed.plan.target_address) == bed.plan.server.netns
        with PeerWatch(lambda: bed.established_peers(port)) as watch:
            bench = _run_bounded(_bench_command(bed, repo, results), bed.env, BENCH_TIMEOUT_S)
        assert bench.returncode == 0, bench.stdout[-4000:]
        assert set(bed.plan.generator_sources) <= watch.seen, (watch.seen, watch.errors)

        run_dir = next(path.parent for path in results.glob(f"*/{RESULTS_JSON}")
                       if f"{CELL_STEM}.g1.json" in raw_names(path.parent / "raw"))
        parts = [json.loads(read_raw_text(run_dir / "raw" / f"{CELL_STEM}.g{i}.json"))
                 for i in (1, 2)]
        merged = _cell(run_dir / "results.json")
        [merged_run] = merged["runs"]
        assert merged_run["requests"] == sum(part["requests"] for part in parts)
        assert all(part.get("latency_histogram_exact", True) for part in parts), \
            "a quantile grid, not wrk's whole histogram: the p99 below would be approximate"
        reference_p99 = wrk_percentile(summed_histogram(*map(_histogram, parts)), 99)
        assert merged_run["latency_us"]["percentiles"]["p99"] == reference_p99
        print(bench.stdout, f"peers seen: {sorted(watch.seen)}; requests "
              f"{[part['requests'] for part in parts]} -> {merged_run['requests']}; "
              f"p99 {merged_run['latency_us']['percentiles']['p99']} us", sep="\n")

        _assert_each_engine_metered(bed, run_dir, merged)

        rebuilt = bed.data_dir / "rebuilt"
        report = run([sys.executable, "-m", "httplab.cli", "--repo", str(repo), "report",
                      "--from", str(run_dir), "--out", str(rebuilt),
                      "--image", str(rebuilt / "chart.png")], timeout=120, env=bed.env)
        assert report.returncode == 0
        rebuilt_cell = _cell(rebuilt / "results.json")
        assert _measured(rebuilt_cell) == _measured(merged)
        assert rebuilt_cell["host_stalls"] == merged["host_stalls"]
    _assert_nothing_left(bed)


def _assert_each_engine_metered(bed: Testbed, run_dir: Path, merged: dict) -> None:
    """Each generator's engine left its stall meter's record, which ran as a real-time task
    or says why not, pooled into the cell's; and no meter's container."""
    for index, spec in enumerate(bed.generator_specs, start=1):
        meter = json.loads(read_raw_text(run_dir / "raw" / f"{CELL_STEM}.stalls.{index}.json"))
        assert meter["place"] == f"load generator {index} ({spec})", meter
        assert meter["stopped_by"] == "SIGTERM", meter
        for record in cpu_records(meter):  # one per CPU the load tool may run on
            assert record["samples"] > 100 and record["stopped_by"] == "SIGTERM", record
            assert record["priority"] == "SCHED_FIFO 1" or re.fullmatch(
                r"normal \(.+\)", record["priority"]), record["priority"]
            print(f"generator {index}'s meter on CPU {record.get('cpu')}: "
                  f"{record['priority']}, longest stall {record['max_us']} us")
        left = run(["docker", "-H", spec, "ps", "-aq", "--filter", "name=-stalls"],
                   env=bed.env).stdout.split()
        assert not left, f"meter containers left on {spec}: {left}"
    [stalls] = merged["host_stalls"]
    assert all(f"load generator {index}" in stalls["place"]
               for index in range(1, len(bed.generator_specs) + 1)), stalls["place"]
