"""httplab's command line: parses arguments and hands them to one module of commands/."""

from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path

from typing import TYPE_CHECKING

from httplab.running.base_images import CHOICES as BASE_IMAGE_CHOICES
from httplab.commands.common import EXIT_OK, EXIT_USAGE, say
from httplab.running.hostinfo import usable_cpu_set
from httplab.manifest import ManifestError, discover
from httplab.paths import DEFAULT_REPO, LUA_SCRIPT, servers_dir
from httplab.running.engines import Topology, make_topology, split_load
from httplab.running.plan import PRIMER_CONNECTIONS, BenchPlan, Options, PlanError, make_plan
from httplab.results.stability import DEFAULT_CV_THRESHOLD

if TYPE_CHECKING:
    from httplab.running.backends.base import Backend

# Each command's module is imported only when that command runs: `report` and `compare`
# then never load the runner, the backends or the sampler.

BACKENDS = ("docker", "local")
DEFAULT_IMAGE = Path("image") / "result1.png"
IMAGE_HELP = ("the Requests/sec chart, relative to the repository; the latency and memory, "
              "CPU, sweep and fairness charts go beside it (result2.png, result-cpu.png, "
              "result3.png, result4.png)")


# The bench settings and their defaults, stated only here: (flag, default, meaning). The
# Makefile passes a VARIABLE (the flag in capitals, - as _) only when the user sets it.
BENCH_SETTINGS = (
    ("servers", "all", "comma-separated server folders, or 'all'"),
    ("threads", "10,5", "wrk threads; one run per value"),
    ("connections", "500", "wrk connections; several (16,128,500) measure each server at each"),
    ("duration", "10s", "per run: 10s, 2m, 1h"),
    ("repeat", "1", "rounds: each starts, warms and measures every server again (rotated)"),
    ("primer", "5s", f"unmeasured run at {PRIMER_CONNECTIONS} connections first; 0 for none"),
    ("warmup", "10s", "unmeasured run at full settings before the measured ones; 0 for none"),
    ("server-cpus", "", "cpuset for the server, e.g. 1 (empty: every CPU)"),
    ("loadgen-cpus", "", "cpuset for wrk, e.g. 0 (empty: every CPU)"),
    ("cv-threshold", str(DEFAULT_CV_THRESHOLD),
     "warn when a cell's coefficient of variation is above this"),
    ("settings", "original", "worker settings: original (the write-up's), default (each "
                             "framework's documented default for this host), or both"),
    ("ceiling", "1", "1: measure the reference server (nginx) first, as the ceiling; 0: do not"),
    ("fairness", "1", "1: h2load after each measured run, as long, for per-connection "
                      "fairness; 0: do not"),
    ("backend", "docker", "docker, or local (java -jar and wrk on this host)"),
    ("base-images", "auto", "docker: official images, local ones (make base-images), or auto: "
                            "official when they can be pulled"),
    ("image", str(DEFAULT_IMAGE), IMAGE_HELP),
    ("server-host", "", "docker: the engine that runs the server: ssh://user@host, a Docker "
                        "context or unix:///path.sock (empty: this machine)"),
    ("loadgen-hosts", "", "docker: the engines that run wrk, comma-separated, the load split "
                          "between them (empty: this machine)"),
    ("target-address", "", "the server's address as the load generators reach it, the only "
                           "one it binds (empty: SERVER_HOST's host, or 127.0.0.1)"),
)
CHOICES = {"backend": BACKENDS, "base-images": BASE_IMAGE_CHOICES}


def settings_text() -> str:
    """The bench settings as make takes them, with their defaults and meanings."""
    rows = [(f"{flag.upper().replace('-', '_')}={default}", meaning)
            for flag, default, meaning in BENCH_SETTINGS]
    width = max(len(setting) for setting, _ in rows)
    return "".join(f"  {setting:<{width}}  {meaning}\n" for setting, meaning in rows)


def _add_bench(sub) -> None:
    bench = sub.add_parser("bench", help="run wrk against each server, one at a time")
    for flag, default, meaning in BENCH_SETTINGS:
        bench.add_argument(f"--{flag}", default=default, choices=CHOICES.get(flag),
                           help=f"{meaning} (default: {default or 'empty'})")
    bench.add_argument("--results-dir", type=Path, default=None, help="default: REPO/results")


def _add_report(sub) -> None:
    report = sub.add_parser("report", help="rebuild results from raw wrk text, running nothing")
    report.add_argument("--from", dest="source", type=Path, default=None,
                        help="a run directory or a directory of raw wrk text files "
                             "(default: REPO/results/latest)")
    report.add_argument("--out", type=Path, default=None, help="default: the --from directory")
    report.add_argument("--image", type=Path, default=None, help=IMAGE_HELP)


def _add_compare(sub) -> None:
    compare = sub.add_parser("compare", help="compare two runs' Requests/sec, cell by cell")
    compare.add_argument("--base", type=Path, required=True,
                         help="the earlier run: its directory or its results.json")
    compare.add_argument("--new", type=Path, required=True,
                         help="the later run: its directory or its results.json")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="httplab", description=__doc__)
    parser.add_argument("--repo", type=Path, default=DEFAULT_REPO, help="the lab's repository")
    sub = parser.add_subparsers(dest="command", required=True)
    _add_bench(sub)
    _add_report(sub)
    _add_compare(sub)
    servers = sub.add_parser("servers", help="print the servers table (from the manifests) "
                                             "as Markdown")
    servers.add_argument("--update-readme", action="store_true",
                         help="rewrite the table in REPO/README.md instead (make servers-table)")
    sub.add_parser("settings", help="list the bench settings with their defaults")
    return parser


def make_backend(args: argparse.Namespace, topology: Topology | None = None) -> "Backend":
    if args.backend == "local":
        from httplab.running.backends.local import LocalBackend

        return LocalBackend(servers_dir(args.repo), LUA_SCRIPT)
    from httplab.running.backends.docker import DockerBackend

    # HTTPLAB_COMPOSE="docker-compose" picks Compose v1 where both are installed.
    return DockerBackend(args.repo, args.base_images, os.environ.get("HTTPLAB_COMPOSE"),
                         topology=topology)


def _raise_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def run_bench(args: argparse.Namespace) -> int:
    known = discover(servers_dir(args.repo))
    options = Options(args.repeat, args.primer, args.warmup, args.server_cpus, args.loadgen_cpus,
                      args.settings, args.ceiling, args.fairness)
    plan = make_plan(args.servers, args.threads, args.connections, args.duration, known,
                     options, frozenset(usable_cpu_set()))
    cv_threshold = parse_cv_threshold(args.cv_threshold)
    topology = checked_topology(args, plan)
    signal.signal(signal.SIGTERM, _raise_interrupt)  # so `kill` cleans up like Ctrl-C
    from httplab.commands.bench import bench

    return bench(plan, make_backend(args, topology), args.results_dir or args.repo / "results",
                          args.repo / args.image, cv_threshold, args.repo)


def checked_topology(args: argparse.Namespace, plan: BenchPlan) -> Topology | None:
    """SERVER_HOST, LOADGEN_HOSTS and TARGET_ADDRESS, refused before any load when they
    cannot work together with the rest of the plan."""
    topology = make_topology(args.server_host, args.loadgen_hosts, args.target_address)
    if topology is None:
        return None
    if args.backend != "docker":
        raise PlanError("SERVER_HOST, LOADGEN_HOSTS and TARGET_ADDRESS drive Docker engines: "
                        "they need BACKEND=docker")
    for point in plan.points:
        split_load(point.threads, point.connections, topology.generator_count)
    if plan.fairness and topology.generators:
        raise PlanError("FAIRNESS runs h2load from this machine only: set FAIRNESS=0 with "
                        "LOADGEN_HOSTS")
    return topology


def parse_cv_threshold(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < 1:
        raise PlanError(f"CV_THRESHOLD must be a fraction between 0 and 1, such as 0.05; "
                        f"got {text!r}")
    return value


def run_report(args: argparse.Namespace) -> int:
    source = args.source or args.repo / "results" / "latest"
    from httplab.commands.report import report

    return report(source, args.out or source, args.image or args.repo / DEFAULT_IMAGE,
                  servers_dir(args.repo))


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "bench":
            return run_bench(args)
        if args.command == "report":
            return run_report(args)
        if args.command == "compare":
            from httplab.commands.compare import compare

            return compare(args.base, args.new)
        if args.command == "settings":
            print(settings_text(), end="")
            return EXIT_OK
        from httplab.commands.servers import servers

        return servers(args.repo, args.update_readme)
    except (PlanError, ManifestError) as error:
        say(f"error: {error}")
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
