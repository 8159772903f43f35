"""httplab's command line: parses arguments and hands them to one module of commands/."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from httplab.bench_settings import (BENCH_SETTINGS, CALIBRATE_FLAGS, CHOICES, DEFAULT_IMAGE,
                                    IMAGE_HELP, LATENCY_FLAGS, LATENCY_LEFT_OUT, LATENCY_SETTINGS,
                                    PAIRING_STUDY_FLAGS, PAIRING_STUDY_SETTINGS,
                                    calibrate_defaults, pairing_study_defaults, settings_text)
from httplab.plan_error import PlanError
from httplab.commands.common import EXIT_OK, EXIT_USAGE, say
from httplab.manifest import ManifestError
from httplab.paths import DEFAULT_REPO, results_root, servers_dir
from httplab.run_layout import LATEST

# Each command's module is imported only when that command runs: `report` and `compare`
# then never load the runner, the backends or the sampler, and parsing loads none of them.


def _add_settings(parser: argparse.ArgumentParser,
                  settings: tuple[tuple[str, str, str], ...]) -> None:
    for flag, default, meaning in settings:
        # argparse expands %-formats in help: a meaning's "5 %" is literal text
        help_text = f"{meaning} (default: {default or 'empty'})".replace("%", "%%")
        parser.add_argument(f"--{flag}", default=default, choices=CHOICES.get(flag),
                            help=help_text)


def _add_bench(sub) -> None:
    bench = sub.add_parser("bench", help="run wrk against each server, one at a time")
    _add_settings(bench, BENCH_SETTINGS)
    bench.add_argument("--results-dir", type=Path, default=None, help="default: REPO/results")


def _add_latency(sub) -> None:
    latency = sub.add_parser("latency", help="fixed-rate runs: latency by offered rate, the "
                                             "highest rate that holds a p99 target")
    _add_settings(latency, LATENCY_FLAGS)
    for flag in LATENCY_LEFT_OUT:  # accepted only to be refused with a clear line
        latency.add_argument(f"--{flag}", default=None, help=argparse.SUPPRESS)
    latency.add_argument("--results-dir", type=Path, default=None, help="default: REPO/results")


def _add_calibrate(sub) -> None:
    calibrate = sub.add_parser("calibrate", help="the host's own noise: one server measured "
                                                 "twice in every round (an A/A), before a "
                                                 "long run")
    _add_settings(calibrate, CALIBRATE_FLAGS)
    calibrate.add_argument("--results-dir", type=Path, default=None,
                           help="default: REPO/results")


def _add_pairing_study(sub) -> None:
    study = sub.add_parser("pairing-study", help="an A/A of one server in whole rounds and in "
                                                 "alternating pairs: which narrows an interval "
                                                 "in fewer minutes here")
    _add_settings(study, PAIRING_STUDY_FLAGS)


def _add_report(sub) -> None:
    report = sub.add_parser("report", help="rebuild results from raw wrk text, running nothing")
    report.add_argument("--from", dest="source", type=Path, default=None,
                        help="a run directory or a directory of raw wrk text files "
                             "(default: REPO/results/latest)")
    report.add_argument("--out", type=Path, default=None, help="default: the --from directory")
    report.add_argument("--image", type=Path, default=None, help=IMAGE_HELP)


def _add_compare(sub) -> None:
    compare = sub.add_parser("compare", help="compare two runs' Requests/sec, cell by cell, "
                                             "and write the comparison as compare.html")
    compare.add_argument("--base", type=Path, required=True,
                         help="the earlier run: its directory or its results.json")
    compare.add_argument("--new", type=Path, required=True,
                         help="the later run: its directory or its results.json")
    compare.add_argument("--out", type=Path, default=None,
                         help="the folder for compare.html, outside both runs (default: "
                              "REPO/results/compare/<base>-vs-<new>)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="httplab", description=__doc__)
    parser.add_argument("--repo", type=Path, default=DEFAULT_REPO, help="the lab's repository")
    sub = parser.add_subparsers(dest="command", required=True)
    _add_bench(sub)
    _add_latency(sub)
    _add_calibrate(sub)
    _add_pairing_study(sub)
    _add_report(sub)
    _add_compare(sub)
    servers = sub.add_parser("servers", help="print the servers table (from the manifests) "
                                             "as Markdown")
    servers.add_argument("--update-readme", action="store_true",
                         help="rewrite the table in REPO/README.md instead (make servers-table)")
    settings = sub.add_parser("settings", help="list the bench settings with their defaults")
    settings.add_argument("--latency", action="store_true",
                          help="make latency's own settings, every one (besides the bench's)")
    settings.add_argument("--calibrate", action="store_true",
                          help="the settings whose defaults make calibrate changes")
    settings.add_argument("--pairing-study", action="store_true",
                          help="make pairing-study's own settings and changed defaults")
    settings.add_argument("--markdown", action="store_true",
                          help="both lists as docs/settings.md (make docs-settings)")
    return parser


def _bench(args: argparse.Namespace) -> int:
    from httplab.commands.bench import run_bench

    settings = {flag: getattr(args, flag.replace("-", "_")) for flag, _, _ in BENCH_SETTINGS}
    return run_bench(settings, args.repo, args.results_dir)


def _calibrate(args: argparse.Namespace) -> int:
    from httplab.commands.calibrate import run_calibrate

    settings = {flag: getattr(args, flag.replace("-", "_")) for flag, _, _ in CALIBRATE_FLAGS}
    return run_calibrate(settings, args.repo, args.results_dir)


def _pairing_study(args: argparse.Namespace) -> int:
    from httplab.commands.pairing_study import run_pairing_study

    settings = {flag: getattr(args, flag.replace("-", "_")) for flag, _, _ in PAIRING_STUDY_FLAGS}
    return run_pairing_study(settings, args.repo)


def _latency(args: argparse.Namespace) -> int:
    from httplab.commands.latency import run_latency

    flags = [flag for flag, _, _ in LATENCY_FLAGS] + list(LATENCY_LEFT_OUT)
    settings = {flag: getattr(args, flag.replace("-", "_")) for flag in flags}
    given = {flag: value for flag, value in settings.items() if value is not None}
    return run_latency(given, args.repo, args.results_dir)


def _report(args: argparse.Namespace) -> int:
    source = args.source or results_root(args.repo) / LATEST
    from httplab.commands.report import report

    return report(source, args.out or source, args.image or args.repo / DEFAULT_IMAGE,
                  servers_dir(args.repo))


def _listed_settings(args: argparse.Namespace) -> tuple[tuple[str, str, str], ...]:
    if args.calibrate:
        return calibrate_defaults()
    if args.pairing_study:
        return pairing_study_defaults() + PAIRING_STUDY_SETTINGS
    return LATENCY_SETTINGS if args.latency else BENCH_SETTINGS


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "bench":
            return _bench(args)
        if args.command == "latency":
            return _latency(args)
        if args.command == "calibrate":
            return _calibrate(args)
        if args.command == "pairing-study":
            return _pairing_study(args)
        if args.command == "report":
            return _report(args)
        if args.command == "compare":
            from httplab.commands.compare import compare

            return compare(args.base, args.new, args.out, results_root(args.repo))
        if args.command == "settings" and args.markdown:
            from httplab.bench_settings import settings_markdown

            print(settings_markdown(), end="")
            return EXIT_OK
        if args.command == "settings":
            print(settings_text(_listed_settings(args)), end="")
            return EXIT_OK
        from httplab.commands.servers import servers

        return servers(args.repo, args.update_readme)
    except (PlanError, ManifestError) as error:
        say(f"error: {error}")
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
