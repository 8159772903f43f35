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
from .plan import PlanError, make_plan
from .readme_table import servers_table

BACKENDS = ("docker", "local")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="httplab", description=__doc__)
    parser.add_argument("--repo", type=Path, default=DEFAULT_REPO, help="the lab's repository")
    sub = parser.add_subparsers(dest="command", required=True)
    bench = sub.add_parser("bench", help="run wrk against each server, one at a time")
    bench.add_argument("--servers", default="all", help="comma-separated, or 'all'")
    bench.add_argument("--threads", default="10,5", help="wrk threads, one run each")
    bench.add_argument("--connections", default="500")
    bench.add_argument("--duration", default="10s", help="per run: 10s, 2m, 1h")
    bench.add_argument("--backend", choices=BACKENDS, default="docker")
    bench.add_argument("--base-images", choices=BASE_IMAGE_CHOICES, default="auto",
                       help="docker: official images, local ones (make base-images), or "
                            "auto: official when they can be pulled")
    bench.add_argument("--results-dir", type=Path, default=None, help="default: REPO/results")
    bench.add_argument("--image", type=Path, default=None, help="default: REPO/image/result1.png")
    report = sub.add_parser("report", help="rebuild results from raw wrk text, running nothing")
    report.add_argument("--from", dest="source", type=Path, default=None,
                        help="a run directory or a directory of raw wrk text files "
                             "(default: REPO/results/latest)")
    report.add_argument("--out", type=Path, default=None, help="default: the --from directory")
    report.add_argument("--image", type=Path, default=None, help="default: REPO/image/result1.png")
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
    plan = make_plan(args.servers, args.threads, args.connections, args.duration, known)
    signal.signal(signal.SIGTERM, _raise_interrupt)  # so `kill` cleans up like Ctrl-C
    return commands.bench(plan, make_backend(args),
                          args.results_dir or args.repo / "results",
                          args.image or args.repo / "image" / "result1.png")


def run_report(args: argparse.Namespace) -> int:
    source = args.source or args.repo / "results" / "latest"
    return commands.report(source, args.out or source,
                           args.image or args.repo / "image" / "result1.png",
                           servers_dir(args.repo))


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "bench":
            return run_bench(args)
        if args.command == "report":
            return run_report(args)
        print(servers_table(discover(servers_dir(args.repo))), end="")
        return commands.EXIT_OK
    except (PlanError, ManifestError) as error:
        commands.say(f"error: {error}")
        return commands.EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
