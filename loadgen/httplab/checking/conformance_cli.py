"""The conformance check's command line, for a server this machine may not reach: the
harness runs `python3 -m httplab.checking.conformance_cli --json` in the wrk image on a
load generator host (running/backends/remote_checks.py) and reads back the one JSON object
it prints (verification_json.py). Stdlib only, as the wrk image has no more."""

from __future__ import annotations

import argparse
import json
import sys

from httplab.addresses import LOOPBACK
from httplab.checking.conformance import Verification, verify_server
from httplab.checking.verification_json import verification_to_dict
from httplab.model import Workload
from httplab.workloads import MAX_DELAY_MS, MIN_DELAY_MS, workload_of_key


def workloads_argument(text: str) -> tuple[Workload, ...]:
    """--workloads: workload keys, comma-separated ("json,delay-10ms")."""
    keys = [key.strip() for key in text.split(",") if key.strip()]
    workloads = [workload_of_key(key) for key in keys]
    for key, workload in zip(keys, workloads):
        if workload is None or (workload.waits and not
                                MIN_DELAY_MS <= (workload.delay_ms or 0) <= MAX_DELAY_MS):
            raise argparse.ArgumentTypeError(
                f"{key!r} is not a workload key: plaintext, json, delay-<N>ms or "
                f"blocking-<N>ms with N from {MIN_DELAY_MS} to {MAX_DELAY_MS}")
    return tuple(workload for workload in workloads if workload is not None)


def main(argv: list[str] | None = None) -> int:
    """Exits 0 when every check passed, 1 when one failed, common or a workload's (--json
    prints them either way), 2 on wrong arguments."""
    parser = argparse.ArgumentParser(description="Check that a server answers the httplab "
                                                 "hello world, and each workload's endpoint, "
                                                 "correctly.")
    parser.add_argument("--host", default=LOOPBACK, help="the server's address")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--server-header", required=True, help="expected Server header value")
    parser.add_argument("--workloads", type=workloads_argument, default=(),
                        help="workload keys to check as well, e.g. json,delay-10ms")
    parser.add_argument("--blocking-thread", choices=("platform", "virtual"), default="",
                        help="the kind of thread /blocking must wait on (unchecked if unset)")
    parser.add_argument("--json", action="store_true",
                        help="print the result as one JSON object, for the harness")
    args = parser.parse_args(argv)
    verification = verify_server(args.port, args.server_header, host=args.host,
                                 workloads=args.workloads,
                                 blocking_thread=args.blocking_thread)
    print(_as_json(verification) if args.json else _as_lines(verification))
    return 1 if verification.failures else 0


def _as_lines(verification: Verification) -> str:
    return "\n".join(f"{'ok  ' if check.passed else 'FAIL'} "
                     f"{f'[{check.workload}] ' if check.workload else ''}{check.name} "
                     f"{check.detail}".rstrip() for check in verification.checks)


def _as_json(verification: Verification) -> str:
    return json.dumps(verification_to_dict(verification))


if __name__ == "__main__":
    sys.exit(main())
