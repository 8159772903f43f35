"""httplab's command line: parses arguments and hands them to commands.py."""

from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path

from . import commands
from .backends.base import Backend
from .backends.base_images import CHOICES as BASE_IMAGE_CHOICES
from .manifest import ManifestError, discover
from .paths import DEFAULT_REPO, LUA_SCRIPT, servers_dir
from .assemble import DEFAULT_CV_THRESHOLD
from .hostinfo import usable_cpu_set
from .plan import PRIMER_CONNECTIONS, Options, PlanError, make_plan
from .readme_table import servers_table

BACKENDS = ("docker", "local")
DEFAULT_IMAGE = Path("image") / "result1.png"
IMAGE_HELP = ("the Requests/sec chart (default: REPO/image/result1.png); the latency and "
              "memory chart goes beside it as result2.png (or NAME-2.png)")


def _add_bench(sub) -> None:
    bench = sub.add_parser("bench", help="run wrk against each server, one at a time")
    bench.add_argument("--servers", default="all", help="comma-separated, or 'all'")
    bench.add_argument("--threads", default="10,5", help="wrk threads, one run each")
    bench.add_argument("--connections", default="500")
    bench.add_argument("--duration", default="10s", help="per run: 10s, 2m, 1h")
    bench.add_argument("--repeat", default="1", help="measured runs per cell, interleaved")
    bench.add_argument("--primer", default="5s", help=f"unmeasured run at {PRIMER_CONNECTIONS} "
                                                      "connections first; 0 for none")
    bench.add_argument("--warmup", default="10s", help="unmeasured run at full settings; 0 for none")
    bench.add_argument("--server-cpus", default="", help="cpuset for the server, e.g. 1")
    bench.add_argument("--loadgen-cpus", default="", help="cpuset for wrk, e.g. 0")
    bench.add_argument("--cv-threshold", type=float, default=DEFAULT_CV_THRESHOLD,
                       help="warn when a cell's coefficient of variation is above this")
    bench.add_argument("--backend", choices=BACKENDS, default="docker")
    bench.add_argument("--base-images", choices=BASE_IMAGE_CHOICES, default="auto",
                       help="docker: official images, local ones (make base-images), or "
                            "auto: official when they can be pulled")
    bench.add_argument("--results-dir", type=Path, default=None, help="default: REPO/results")
    bench.add_argument("--image", type=Path, default=None, help=IMAGE_HELP)


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
    sub.add_parser("servers", help="print the servers table (from the manifests) as Markdown")
    return parser


def make_backend(args: argparse.Namespace) -> Backend:
    if args.backend == "local":
        from .backends.local import LocalBackend

        return LocalBackend(servers_dir(args.repo), LUA_SCRIPT)
    from .backends.docker import DockerBackend

    # HTTPLAB_COMPOSE="docker-compose" picks Compose v1 where both are installed.
    return DockerBackend(args.repo, args.base_images, os.environ.get("HTTPLAB_COMPOSE"))


def _raise_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def run_bench(args: argparse.Namespace) -> int:
    known = discover(servers_dir(args.repo))
    options = Options(args.repeat, args.primer, args.warmup, args.server_cpus, args.loadgen_cpus)
    plan = make_plan(args.servers, args.threads, args.connections, args.duration, known,
                     options, frozenset(usable_cpu_set()))
    if not 0 < args.cv_threshold < 1:
        raise PlanError(f"CV_THRESHOLD must be a fraction between 0 and 1, such as 0.05; "
                        f"got {args.cv_threshold}")
    signal.signal(signal.SIGTERM, _raise_interrupt)  # so `kill` cleans up like Ctrl-C
    return commands.bench(plan, make_backend(args), args.results_dir or args.repo / "results",
                          args.image or args.repo / DEFAULT_IMAGE, args.cv_threshold, args.repo)


def run_report(args: argparse.Namespace) -> int:
    source = args.source or args.repo / "results" / "latest"
    return commands.report(source, args.out or source,
                           args.image or args.repo / DEFAULT_IMAGE,
                           servers_dir(args.repo))


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "bench":
            return run_bench(args)
        if args.command == "report":
            return run_report(args)
        if args.command == "compare":
            return commands.compare(args.base, args.new)
        print(servers_table(discover(servers_dir(args.repo))), end="")
        return commands.EXIT_OK
    except (PlanError, ManifestError) as error:
        commands.say(f"error: {error}")
        return commands.EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
