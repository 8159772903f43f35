"""A fixed run of the database workloads for export and chart tests: test data, not a
measurement. WORKLOAD=db,queries QUERIES=20 REPEAT=2 at 4 threads and 256 connections on
one 2-core host, server, wrk and PostgreSQL unpinned, with the nginx reference, which has
no database endpoint: its db and queries cells are not applicable.

- db: Netty, the database and wrk together keep the host busy (shared); Undertow's database
  used 1.84 of the 2 cores (limited by the database's CPU); WebFlux left the CPUs idle
  (none: its pool of 8 connections bound it).
- queries n=20: Netty shared again; Undertow's database 1.88 of 2 (limited by the
  database); WebFlux's second round failed when the database stopped, its first round's
  figures kept."""

from __future__ import annotations

from dataclasses import replace

from httplab.model import (BenchResult, Cell, CellStatus, DatabaseRecord, DatabaseUsage,
                           HostInfo, Latency, ResourceUsage, ServerRecord, Settings,
                           SocketErrors, Workload, WrkRun)
from httplab.results.assemble import with_warnings
from httplab.results.results_json.version import FORMAT_VERSION
from httplab.workloads import request_path

DB, QUERIES_20 = Workload("db"), Workload("queries", queries=20)
CONNECTIONS = 256


def _run(rate: float) -> WrkRun:
    """Ten seconds at `rate`, each of the 256 connections waiting 256 / rate s a request."""
    mean_us = CONNECTIONS / rate * 1e6
    return WrkRun(duration_s=10.0, requests=int(rate * 10), bytes_read=int(rate * 10 * 180),
                  requests_per_sec=rate, transfer_per_sec=rate * 180,
                  latency=Latency(mean_us=mean_us, stdev_us=mean_us / 4, max_us=mean_us * 5,
                                  min_us=900.0, percentiles_us=((50.0, mean_us * 0.9),
                                                                (99.0, mean_us * 3.1),
                                                                (99.9, mean_us * 4.2))),
                  errors=SocketErrors(), threads=4, connections=CONNECTIONS)


def _usage(server: float, database: float, wrk: float, host: float, rate: float) -> ResourceUsage:
    """Ten seconds of the server and its database; context switches in proportion to
    the requests served."""
    requests = rate * 10
    return ResourceUsage(
        cpu_cores=server, memory_peak_bytes=290 * 2**20, memory_mean_bytes=270 * 2**20,
        samples=21, source="cgroup v2", cpu_seconds=server * 10,
        context_switches=round(requests * 1.5), threads_max=40, loadgen_cores=wrk,
        loadgen_source="host less server", host_busy_cores=host,
        database=DatabaseUsage(cpu_cores=database, cpu_seconds=database * 10,
                               memory_peak_bytes=180 * 2**20,
                               context_switches=round(requests * 2.5), samples=21,
                               source="cgroup v2"))


def _cell(server: str, workload: Workload, rates: tuple[float, ...],
          cpu: tuple[float, float, float, float]) -> Cell:
    """cpu: (server, database, wrk, host busy) cores in each round."""
    url = "http://127.0.0.1:8080" + request_path(workload, "/")
    return Cell(server, 4, CONNECTIONS, CellStatus.OK,
                tuple(replace(_run(rate), url=url) for rate in rates),
                resources=tuple(_usage(*cpu, rate) for rate in rates),
                rounds=tuple(range(1, len(rates) + 1)), workload=workload)


def _servers() -> tuple[ServerRecord, ...]:
    return (
        ServerRecord("netty", "Netty", "Netty", "4.2.18.Final", "event loops: one per CPU",
                     "epoll", log_file="raw/netty.log", db_pool=4,
                     db_driver="Vert.x reactive PostgreSQL client 4.5.22"),
        ServerRecord("undertow", "Undertow (200 workers)", "Spring Boot (Undertow)", "3.5.16",
                     "200 worker threads", "nio", log_file="raw/undertow.log", db_pool=10,
                     db_driver="Spring JDBC, HikariCP 6.3.3, PostgreSQL JDBC 42.7.8"),
        ServerRecord("webflux", "Spring WebFlux", "Spring Boot (WebFlux)", "3.5.16",
                     "event loops: one per CPU", "epoll", log_file="raw/webflux.log",
                     db_pool=8, db_driver="r2dbc-postgresql 1.0.7, r2dbc-pool 1.0.2"),
        ServerRecord("nginx", "nginx (ceiling reference)", "nginx", "1.22.1",
                     "worker processes: one per CPU", "epoll", log_file="raw/nginx.log",
                     role="reference"),
    )


def _cells() -> tuple[Cell, ...]:
    failed = _cell("webflux", QUERIES_20, (2100.0,), (0.40, 0.90, 0.05, 1.40))
    return (
        _cell("netty", DB, (15200.0, 15500.0), (0.70, 0.95, 0.20, 1.86)),
        _cell("undertow", DB, (9100.0, 9300.0), (0.10, 1.84, 0.04, 1.99)),
        _cell("webflux", DB, (11800.0, 11900.0), (0.50, 0.70, 0.15, 1.38)),
        _cell("netty", QUERIES_20, (1480.0, 1510.0), (0.25, 1.50, 0.05, 1.82)),
        _cell("undertow", QUERIES_20, (1120.0, 1150.0), (0.08, 1.88, 0.02, 1.99)),
        replace(failed, status=CellStatus.FAILED,
                reason="round 2: the database exited with code 1 during this run"),
    )


def database_sample_result() -> BenchResult:
    settings = Settings(("netty", "undertow", "webflux", "nginx"), (4,), (CONNECTIONS,), 10.0,
                        "docker", url="http://127.0.0.1:8080/db, http://127.0.0.1:8080/queries?n=20",
                        repeat=2, primer_s=5.0, primer_connections=8, warmup_s=10.0,
                        workloads=(DB, QUERIES_20), database=DatabaseRecord(
                            "docker", version="PostgreSQL 15.14 (Debian 15.14-1.pgdg120+1) on "
                            "x86_64-pc-linux-gnu, compiled by gcc (Debian 12.2.0-14) 12.2.0, 64-bit",
                            max_connections=100, shared_buffers="128MB",
                            image="postgres:15.14-bookworm", log_file="raw/<server>.database.log"))
    host = HostInfo(hostname="lab-vm", cpu_model="Test CPU @ 2.60GHz", cores=2,
                    memory_bytes=8 * 2**30, kernel="6.1.0", os="Linux")
    return with_warnings(BenchResult(
        format_version=FORMAT_VERSION, created_utc="2026-12-01T10-00-00Z", settings=settings,
        host=host, servers=_servers(), cells=_cells(), lab_commit="0123456789ab"))
