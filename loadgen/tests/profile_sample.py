"""A fixed run of PROFILE=0,1 for export and chart tests: test data, not a measurement.
make bench PROFILE=0,1 SERVERS=netty,armeria,undertow THREADS=5 REPEAT=2 on one 2-core
host, the server on CPU 1 and wrk on CPU 0: each framework is measured without and with
async-profiler (netty and netty+profiled), and nginx, the reference, once: it is no JVM and
never profiled.

- Netty (profiled): event cpu at 5 ms, kernel frames seen; both runs' samples add up to
  the CPU measured.
- Armeria (16 workers) (profiled): event cpu; its second run lost samples, so the
  consistency check marked it.
- Undertow (200 workers) (profiled): event itimer (no kernel frames: its "kernel" is the
  libc system-call wrappers); the profiler failed on its second run, so only the first run
  has a profile.
"""

from __future__ import annotations

from dataclasses import replace

from httplab.axes import PROFILE
from httplab.model import (BenchResult, Cell, CellStatus, HostInfo, HotFrame, Latency,
                           ResourceUsage, RunProfile, ServerRecord, Settings, SocketErrors,
                           WrkRun)
from httplab.results.assemble import with_warnings
from httplab.results.profile_layers import LAYERS
from httplab.results.results_json.version import FORMAT_VERSION

PROFILED_MARK = f"{PROFILE.mark}{PROFILE.token('1')}"  # netty+profiled

THREADS, CONNECTIONS, SECONDS = 5, 500, 10.0
INTERVAL_NS = 5_000_000  # 5 ms of CPU a sample
# Each framework's share of samples by layer, in percent, in LAYERS' order.
NETTY_SHARES = (45, 15, 25, 0, 3, 2, 6, 4)
ARMERIA_SHARES = (40, 14, 18, 17, 2, 3, 3, 3)
UNDERTOW_SHARES = (30, 28, 0, 24, 3, 6, 5, 4)
# What results/profile_layers.py puts each sample frame in (test data: named by hand).
_NETTY_FRAMES = (
    ("finish_task_switch.isra.0_[k]", "kernel", 9.0),
    ("tcp_sendmsg_locked_[k]", "kernel", 6.5),
    ("_raw_spin_unlock_irqrestore_[k]", "kernel", 5.0),
    ("io/netty/channel/epoll/Native.epollWait", "Netty", 4.0),
    ("io/netty/handler/codec/http/HttpServerCodec$HttpServerRequestDecoder.decode",
     "Netty", 3.5),
    ("java/nio/DirectByteBuffer.put", "JDK", 3.0),
    ("PhaseChaitin::post_allocate_copy_removal", "JIT", 2.0),
    ("io/netty/channel/AbstractChannelHandlerContext.executor", "Netty", 1.9),
    ("httplab/netty/HelloHandler.channelRead0", "handler", 1.5),
    ("G1ParScanThreadState::trim_queue_partially", "GC", 1.0),
)
_ARMERIA_FRAMES = (
    ("__x64_sys_writev_[k]", "kernel", 8.0),
    ("finish_task_switch.isra.0_[k]", "kernel", 7.0),
    ("com/linecorp/armeria/server/HttpServerHandler.channelRead", "framework", 4.5),
    ("io/netty/channel/epoll/Native.epollWait", "Netty", 3.5),
    ("com/linecorp/armeria/common/DefaultRequestHeaders.<init>", "framework", 3.0),
    ("java/util/concurrent/ConcurrentHashMap.get", "JDK", 2.5),
    ("io/netty/buffer/PooledByteBufAllocator.newDirectBuffer", "Netty", 2.0),
    ("httplab/armeria/HelloService.serve", "handler", 1.2),
    ("G1ParScanThreadState::trim_queue_partially", "GC", 1.1),
    ("PhaseIdealLoop::build_loop_early", "JIT", 1.0),
)
_UNDERTOW_FRAMES = (
    ("send", "kernel", 14.0),
    ("recv", "kernel", 6.0),
    ("java/util/concurrent/locks/AbstractQueuedSynchronizer.acquire", "JDK", 5.0),
    ("org/jboss/threads/EnhancedQueueExecutor.execute", "framework", 4.0),
    ("io/undertow/server/protocol/http/HttpReadListener.handleEventWithNoRunningRequest",
     "framework", 3.5),
    ("org/springframework/web/servlet/DispatcherServlet.doDispatch", "framework", 3.0),
    ("sun/nio/ch/EPoll.wait", "JDK", 2.5),
    ("G1ParScanThreadState::trim_queue_partially", "GC", 2.0),
    ("httplab/undertow/HelloController.hello", "handler", 1.5),
    ("PhaseChaitin::elide_copy", "JIT", 1.2),
)


def _run(rate: float) -> WrkRun:
    """A run whose mean latency is what its connections allow at its rate (Little's law)."""
    return WrkRun(duration_s=SECONDS, requests=int(rate * SECONDS),
                  bytes_read=int(rate * SECONDS * 130), requests_per_sec=rate,
                  transfer_per_sec=rate * 130,
                  latency=Latency(mean_us=round(CONNECTIONS / rate * 1e6, -1), stdev_us=2100.0, max_us=98000.0, min_us=60.0,
                                  percentiles_us=((50.0, 6900.0), (99.0, 15500.0),
                                                  (99.9, 41000.0))),
                  errors=SocketErrors(), threads=THREADS, connections=CONNECTIONS,
                  url="http://127.0.0.1:8080/")


def _usage(cores: float) -> ResourceUsage:
    return ResourceUsage(cpu_cores=cores, memory_peak_bytes=310 * 2**20,
                         memory_mean_bytes=290 * 2**20, samples=21, source="cgroup v2",
                         cpu_seconds=cores * SECONDS, context_switches=round(cores * 60000),
                         threads_max=30, loadgen_cores=0.62, loadgen_source="wrk process",
                         host_busy_cores=cores + 0.62)


def _profile(stem: str, event: str, shares: tuple[int, ...], frames: tuple, cores: float,
             samples: int, mismatch: str | None = None) -> RunProfile:
    """A run whose samples split by `shares` (percent by layer) and whose hottest frames
    take `frames`' percentages of them."""
    layers = tuple((layer, samples * share // 100) for layer, share in zip(LAYERS, shares))
    layers = layers[:-1] + (("other", samples - sum(n for _, n in layers[:-1])),)
    return RunProfile(
        event=event, interval=INTERVAL_NS, samples=samples, layers=layers,
        hot_frames=tuple(HotFrame(frame, layer, round(samples * percent / 100))
                         for frame, layer, percent in frames),
        measured_cpu_seconds=cores * SECONDS, mismatch=mismatch,
        collapsed_file=f"raw/{stem}.collapsed.txt", flame_graph_file=f"raw/{stem}.flame.html")


def _agreeing(stem: str, event: str, shares: tuple[int, ...], frames: tuple,
              cores: float) -> RunProfile:
    """Samples x 5 ms within 3 % of the CPU measured."""
    return _profile(stem, event, shares, frames, cores,
                    round(cores * SECONDS * 1e9 / INTERVAL_NS * 0.97))


# The consistency check's sentence (results/profiles.py) on a run that lost a third of its samples.
ARMERIA_MISMATCH = ("1300 samples x 5 ms = 6.50 s of CPU, while the server used 9.60 s (32% "
                    "less, tolerance 20%): samples were lost (threads the timer did not "
                    "reach, samples dropped) or the interval was longer than recorded")
UNDERTOW_FAILURE = "the profiler did not stop: return code 200"  # as running/profiling says


def _stem(server: str, round_number: int) -> str:
    return f"{server}-t{THREADS}-c{CONNECTIONS}-r{round_number}"


def _cell(server: str, rates: tuple[float, float], cores: tuple[float, float],
          profiles: tuple[RunProfile | None, ...] = ()) -> Cell:
    return Cell(server, THREADS, CONNECTIONS, CellStatus.OK, tuple(_run(r) for r in rates),
                resources=tuple(_usage(c) for c in cores), rounds=(1, 2), profiles=profiles)


def _profiled_cells() -> tuple[Cell, ...]:
    netty, armeria, undertow = (f"{name}{PROFILED_MARK}" for name in
                                ("netty", "armeria", "undertow"))
    return (
        _cell(netty, (66500.0, 67100.0), (0.98, 0.97), tuple(
            _agreeing(_stem(netty, n), "cpu", NETTY_SHARES, _NETTY_FRAMES, cores)
            for n, cores in ((1, 0.98), (2, 0.97)))),
        _cell(armeria, (51200.0, 50400.0), (0.97, 0.96), (
            _agreeing(_stem(armeria, 1), "cpu", ARMERIA_SHARES, _ARMERIA_FRAMES, 0.97),
            _profile(_stem(armeria, 2), "cpu", ARMERIA_SHARES, _ARMERIA_FRAMES, 0.96, 1300,
                     mismatch=ARMERIA_MISMATCH))),
        _cell(undertow, (36100.0, 35700.0), (0.99, 0.99), (
            _agreeing(_stem(undertow, 1), "itimer", UNDERTOW_SHARES, _UNDERTOW_FRAMES, 0.99),
            RunProfile(event="itimer", interval=INTERVAL_NS, failure=UNDERTOW_FAILURE))),
    )


def _cells() -> tuple[Cell, ...]:
    return (
        _cell("netty", (70100.0, 69800.0), (0.97, 0.96)),
        _cell("armeria", (52900.0, 53300.0), (0.97, 0.97)),
        _cell("undertow", (37200.0, 37000.0), (0.98, 0.99)),
        *_profiled_cells(),
        _cell("nginx", (121000.0, 120400.0), (0.93, 0.94)),
    )


def _record(name: str, label: str, framework: str, version: str, workers: str,
            transport: str, packages: tuple[str, ...]) -> tuple[ServerRecord, ServerRecord]:
    """The framework as run without and with the profiler."""
    plain = ServerRecord(name, label, framework, version, workers, transport,
                         log_file=f"raw/{name}.log", framework_packages=packages)
    profiled = f"{name}{PROFILED_MARK}"
    return plain, replace(plain, name=profiled, label=f"{label} (profiled)", profiled=True,
                          log_file=f"raw/{profiled}.log")


def _servers() -> tuple[ServerRecord, ...]:
    return (
        *_record("netty", "Netty", "Netty", "4.2.18.Final", "event loops: one per CPU",
                 "epoll", ()),
        *_record("armeria", "Armeria (16 workers)", "Armeria", "1.33.4", "16 event loops",
                 "epoll", ("com.linecorp.armeria",)),
        *_record("undertow", "Undertow (200 workers)", "Spring Boot (Undertow)", "3.5.16",
                 "200 worker threads", "nio",
                 ("org.springframework", "io.undertow", "org.xnio", "org.jboss.threads")),
        ServerRecord("nginx", "nginx (ceiling reference)", "nginx", "1.22.1",
                     "worker processes: one per CPU", "epoll", log_file="raw/nginx.log",
                     role="reference"),
    )


def profile_sample_result() -> BenchResult:
    settings = Settings(("netty", "armeria", "undertow", "nginx"), (THREADS,), (CONNECTIONS,),
                        SECONDS, "docker", repeat=2, primer_s=5.0, primer_connections=8,
                        warmup_s=30.0, server_cpus="1", loadgen_cpus="0",
                        profile=(False, True), profile_event="cpu")
    host = HostInfo(hostname="lab-vm", cpu_model="Test CPU @ 2.60GHz", cores=2,
                    memory_bytes=8 * 2**30, kernel="6.1.0", os="Linux")
    return with_warnings(BenchResult(
        format_version=FORMAT_VERSION, created_utc="2026-12-02T09-00-00Z", settings=settings,
        host=host, servers=_servers(), cells=_cells(), lab_commit="0123456789ab"))
