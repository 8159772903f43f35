"""A small, fixed BenchResult for export and chart tests: test data, not a measurement.
Netty at 5 threads ran on two load generators whose starts were 0.13 s apart. The bench swept
16 and 500 connections with h2load after each measured run: at 500 connections h2load's
runs kept only its per-client summary, at 16 the socket readings too, and in two of those
rounds one connection completed no request (an infinite spread).

workloads_sample_result() is a second one: a run of several workloads (see its docstring)."""

import statistics
from dataclasses import replace

from httplab.results.results_json.version import FORMAT_VERSION
from httplab.results.stability import noisy_warning, skewed_warning
from httplab.workloads import request_path
from httplab.model import (PLAINTEXT, BenchResult, Cell, CellStatus, CellWarning, FairnessRun,
                           HostInfo, Latency, ResourceUsage, ServerRecord, Settings,
                           SocketErrors, ThreadRequestRate, WarningKind, Workload, WrkRun)

REQUEST_BYTES = 70  # one h2load request, as the server acknowledges it


def _run(rps: float, threads: int, non_2xx: int = 0, connections: int = 500) -> WrkRun:
    return WrkRun(
        duration_s=10.08, requests=int(rps * 10.08), bytes_read=int(rps * 10.08 * 100),
        requests_per_sec=rps, transfer_per_sec=rps * 100,
        latency=Latency(mean_us=7680.0, stdev_us=10210.0, max_us=151090.0, min_us=45.0,
                        percentiles_us=((50.0, 5210.0), (75.0, 8000.0), (90.0, 12000.0),
                                        (99.0, 61000.0), (99.9, 120500.5))),
        errors=SocketErrors(connect=0, read=498, write=1, timeout=2), non_2xx_3xx=non_2xx,
        threads=threads, connections=connections, url="http://127.0.0.1:8080/",
        thread_requests_per_sec=ThreadRequestRate(mean=7020.0, stdev=1190.0, max=9980.0))


def _h2load_summary(low: float, high: float, mean: float, sd: float) -> FairnessRun:
    """h2load at 500 connections without socket readings: only its per-client req/s."""
    return FairnessRun(connections=500, duration_s=10.02, requests_per_sec=round(mean * 500, 2),
                       succeeded=round(mean * 500 * 10.02), failed=0, client_rps_min=low,
                       client_rps_max=high, client_rps_mean=mean, client_rps_sd=sd,
                       tool="h2load nghttp2/1.52.0")


def _h2load_sockets(requests: tuple[int, ...], reopened: int = 0) -> FairnessRun:
    """h2load at 16 connections, with each connection's requests between the readings."""
    window_s, total = 6.0, sum(requests)
    return FairnessRun(connections=16, duration_s=10.01,
                       requests_per_sec=round(total / window_s, 2),
                       succeeded=round(total / window_s * 10.01), failed=0,
                       client_rps_min=round(min(requests) / window_s, 2),
                       client_rps_max=round(max(requests) / window_s, 2),
                       client_rps_mean=round(total / len(requests) / window_s, 2),
                       client_rps_sd=round(statistics.pstdev(requests) / window_s, 2),
                       connection_bytes=tuple(
                           count * REQUEST_BYTES for count in sorted(requests)),
                       sockets_from_s=2.0, sockets_to_s=8.0, reopened_connections=reopened,
                       tool="h2load nghttp2/1.52.0")


FAIRNESS_AT_500 = (_h2load_summary(72.1, 90.9, 84.3, 4.6), _h2load_summary(70.0, 91.7, 83.9, 5.2),
                   _h2load_summary(74.4, 90.8, 84.8, 4.1))
FAIRNESS_AT_16 = (
    _h2load_sockets((0, 120, 130, 133, 135, 137, 138, 139, 140, 141, 142, 143, 144, 146, 150, 160)),
    _h2load_sockets((0, 128, 131, 134, 135, 136, 138, 139, 140, 141, 142, 143, 145, 148, 151, 155),
                    reopened=1),
    _h2load_sockets((125, 128, 130, 133, 135, 136, 137, 138, 139, 140, 141, 142, 144, 147, 152, 158)),
)


def _generator(index: int, engine: str, threads: int, started_at_s: float, duration_s: float,
               errors: SocketErrors) -> WrkRun:
    """One of two generators' halves of a _run(75561.34, 5, non_2xx=1000)."""
    requests, bytes_read = 380829, 38082900
    return WrkRun(
        duration_s=duration_s, requests=requests, bytes_read=bytes_read,
        requests_per_sec=requests / duration_s, transfer_per_sec=bytes_read / duration_s,
        latency=Latency(mean_us=7600.0 + index * 40, stdev_us=10100.0 + index * 50,
                        max_us=150000.0 + index * 500, min_us=45.0 + index,
                        percentiles_us=((50.0, 5200.0 + index), (99.0, 60900.0 + index * 50))),
        errors=errors, non_2xx_3xx=500, threads=threads, connections=250,
        url="http://10.0.0.5:8080/",
        thread_requests_per_sec=ThreadRequestRate(mean=12600.0, stdev=1100.0, max=15000.0),
        latency_histogram_exact=True, latency_samples=requests + 2000 * index,
        ended_at_s=started_at_s + duration_s, engine=engine)


def _merged_run() -> WrkRun:
    """As results/merge.py leaves it: the 10.08 s window from the second start to the
    first end, 0.13 s of start skew (more than 1 % of it: a warning)."""
    generators = (
        _generator(1, "ssh://lab@loadgen-a", 3, 1795400000.0, 10.21, SocketErrors(0, 249, 1, 1)),
        _generator(2, "ssh://lab@loadgen-b", 2, 1795400000.13, 10.08, SocketErrors(0, 249, 0, 1)),
    )
    return replace(_run(75561.34, 5, non_2xx=1000), url="http://10.0.0.5:8080/",
                   thread_requests_per_sec=None, latency_histogram_exact=True,
                   latency_samples=sum(g.latency_samples for g in generators),
                   ended_at_s=1795400010.21, generators=generators, start_skew_s=0.13)


def _usage(cores: float, peak_mib: int) -> ResourceUsage:
    """Ten seconds of a server pinned to one CPU, beside wrk on another (4 cores in all)."""
    return ResourceUsage(cpu_cores=cores, memory_peak_bytes=peak_mib * 2**20,
                         memory_mean_bytes=(peak_mib - 20) * 2**20, samples=21, source="cgroup v1",
                         cpu_seconds=cores * 10, context_switches=round(cores * 70000),
                         threads_max=31, loadgen_cores=0.8, loadgen_source="wrk process",
                         host_busy_cores=cores + 0.9)


def sample_result() -> BenchResult:
    servers = (
        ServerRecord("netty", "Netty", "Netty", "4.2.18.Final", "event loops: one per CPU",
                     "epoll", "httplab-ready framework=Netty version=4.2.18.Final "
                     "transport=epoll workers=2 observed_workers=2 bind=127.0.0.1:8080",
                     "all 7 checks passed", 251_000_000, "openjdk version \"17.0.19\"", 2.35,
                     "sha256:0123456789abcdef", "raw/netty.log"),
        ServerRecord("undertow", "Undertow (200 workers)", "Spring Boot (Undertow)", "3.5.16",
                     "200 worker threads", "nio", log_file="raw/undertow.log"),
    )
    cells = (
        Cell("netty", 10, 500, CellStatus.OK,
             (_run(69296.64, 10), _run(61000.5, 10), _run(72000.0, 10)),
             resources=(_usage(1.51, 300), _usage(1.49, 310), _usage(1.55, 305)), rounds=(1, 2, 3),
             fairness=FAIRNESS_AT_500),
        Cell("netty", 5, 500, CellStatus.OK, (_merged_run(),)
             * 3, resources=(ResourceUsage(unavailable="no cgroup access", source="cgroup v1"),)
             * 3),
        Cell("undertow", 10, 500, CellStatus.FAILED, reason="verification failed: GET /: status 500"),
        Cell("undertow", 5, 500, CellStatus.FAILED, reason="verification failed: GET /: status 500"),
        Cell("netty", 10, 16, CellStatus.OK,
             tuple(_run(rate, 10, connections=16) for rate in (58000.25, 59500.0, 57250.75)),
             resources=(_usage(1.21, 280),) * 3, rounds=(1, 2, 3), fairness=FAIRNESS_AT_16),
    )
    return BenchResult(
        format_version=FORMAT_VERSION, created_utc="2026-11-22T04-30-00Z",
        settings=Settings(("netty", "undertow"), (10, 5), (16, 500), 10.0, "docker", repeat=3,
                          primer_s=5.0, primer_connections=8, warmup_s=10.0, server_cpus="1",
                          loadgen_cpus="0", fairness=True),
        host=HostInfo(hostname="lab-host", cpu_model="Test CPU @ 3.40GHz", cores=4,
                      memory_bytes=16 * 2**30, kernel="6.1.0", os="Linux",
                      docker="Docker version 28.2.2", compose="Docker Compose version v2.29.7",
                      java="openjdk version \"17.0.15\"", wrk="wrk 4.1.0", python="3.11.7"),
        servers=servers, cells=cells, lab_commit="0123456789ab+dirty",
        warnings=(CellWarning(WarningKind.OTHER, "Netty t10 c500: Requests/sec varies by 8.3% "
                              "(example warning)", "Netty t10 c500"),
                  skewed_warning(cells[1], "Netty")))


def _workload_usage(cores: float, threads: int, pool_threads: int | None) -> ResourceUsage:
    return replace(_usage(cores, 320), threads_max=threads, pool_threads_max=pool_threads)


def _waited_run(rate: float, min_us: float = 10_050.0) -> WrkRun:
    """A run whose 256 connections each take 256 / rate s per request (Little's law); a
    blocking run's shortest request is its delay."""
    mean_us = 256 / rate * 1e6
    return replace(_run(rate, 4, connections=256), latency=Latency(
        mean_us=mean_us, stdev_us=mean_us / 10, max_us=mean_us * 3, min_us=min_us,
        percentiles_us=((50.0, mean_us), (99.0, mean_us * 1.6), (99.9, mean_us * 2.2))))


def _workload_cell(server: str, workload: Workload, rates: tuple[float, ...], cores: float,
                   threads: int, pool_threads: int | None = None) -> Cell:
    url = "http://127.0.0.1:8080" + request_path(workload, "/")
    runs = tuple(replace(_waited_run(rate) if workload.waits else _waited_run(rate, 45.0),
                         url=url) for rate in rates)
    return Cell(server, 4, 256, CellStatus.OK, runs,
                resources=(_workload_usage(cores, threads, pool_threads),) * len(rates),
                rounds=tuple(range(1, len(rates) + 1)), workload=workload)


JSON, BLOCKING_10MS = Workload("json"), Workload("blocking", 10)


def workloads_sample_result() -> BenchResult:
    """WORKLOAD=plaintext,json,blocking DELAY_MS=10 REPEAT=2 at 4 threads and 256
    connections, with the nginx reference, which has no /blocking: its plaintext and json
    cells only. On blocking, Netty's 64-thread pool bounds it at 6,400 req/s, which it
    reaches; Undertow's 200 workers at 20,000, of which it reaches 89 % and varies by 14 %
    (a noisy cell); the 256 connections allow 25,600."""
    servers = (
        ServerRecord("netty", "Netty", "Netty", "4.2.18.Final", "event loops: one per CPU",
                     "epoll", log_file="raw/netty.log", blocking_pool=64,
                     blocking_pool_kind="EventExecutorGroup threads"),
        ServerRecord("undertow", "Undertow (200 workers)", "Spring Boot (Undertow)", "3.5.16",
                     "200 worker threads", "nio", log_file="raw/undertow.log", blocking_pool=200,
                     blocking_pool_kind="XNIO worker threads"),
        ServerRecord("nginx", "nginx (ceiling reference)", "nginx", "1.22.1",
                     "worker processes: one per CPU", "epoll", log_file="raw/nginx.log",
                     role="reference"),
    )
    cells = (
        _workload_cell("netty", PLAINTEXT, (70100.0, 71300.0), 1.52, 9),
        _workload_cell("undertow", PLAINTEXT, (40200.0, 40900.0), 1.55, 215),
        _workload_cell("nginx", PLAINTEXT, (120400.0, 121000.0), 0.97, 2),
        _workload_cell("netty", JSON, (61000.0, 61800.0), 1.53, 9),
        _workload_cell("undertow", JSON, (35100.0, 35600.0), 1.56, 215),
        _workload_cell("nginx", JSON, (118000.0, 118800.0), 0.96, 2),
        _workload_cell("netty", BLOCKING_10MS, (6350.0, 6360.0), 0.31, 73, 64),
        _workload_cell("undertow", BLOCKING_10MS, (16000.0, 19600.0), 0.82, 215, 200),
    )
    return BenchResult(
        format_version=FORMAT_VERSION, created_utc="2026-11-24T09-00-00Z",
        settings=Settings(("netty", "undertow", "nginx"), (4,), (256,), 10.0, "docker",
                          repeat=2, primer_s=5.0, primer_connections=8, warmup_s=10.0,
                          server_cpus="1", loadgen_cpus="0",
                          workloads=(PLAINTEXT, JSON, BLOCKING_10MS)),
        host=sample_result().host, servers=servers, cells=cells, lab_commit="0123456789ab",
        warnings=(noisy_warning(cells[7], "Undertow (200 workers)", 0.05),))
