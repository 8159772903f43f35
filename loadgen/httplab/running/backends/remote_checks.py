"""Checks of a server that the harness's own host may not reach: command lines to run on
another Docker engine, and readers of what they print. Pure: the caller runs them with
the engine's environment and a timeout.

- The conformance check runs in the wrk image on a load generator host, against the
  address the load will use; its JSON comes back as a Verification, to be joined with
  the ready line's check by conformance.with_ready_line.
- Readiness asks the server's own container, with bash's /dev/tcp (the server images
  have bash but no curl), whether GET / answers 200."""

from __future__ import annotations

import json

from httplab.checking.conformance import Verification
from httplab.checking.verification_json import verification_from_dict
from httplab.model import Workload
from httplab.running.docker.compose import WRK_IMAGE

CONFORMANCE_MODULE = "httplab.checking.conformance_cli"
# A right server passes in about 2 s; each wait inside the check is at most 5 s.
CONFORMANCE_TIMEOUT_S = 120.0
ANSWER_PROBE_TIMEOUT_S = 10.0
ANSWER_PROBE_NAME = "httplab-answer-probe"  # bash's $0, so its messages say who speaks
# Run as `bash -c ANSWER_PROBE name ADDRESS PORT`; exits 0 only when the status line
# says 200. The connection goes to the container's own host, so a closed port fails at
# once; `read -t` bounds a server that accepts but never answers.
ANSWER_PROBE = r"""exec 3<>"/dev/tcp/$1/$2" || exit 2
printf 'GET / HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n' "$1" >&3
read -r -t 2 status <&3 && [[ $status == HTTP/1.?' 200'* ]]"""


class RemoteCheckError(Exception):
    """A remote check printed something that is not its result."""


def conformance_command(host: str, port: int, server_header: str, image: str = WRK_IMAGE,
                        workloads: tuple[Workload, ...] = (),
                        blocking_thread: str = "") -> list[str]:
    """`docker run` of the conformance check in the wrk image, on the engine's host
    network, with each workload's checks (keys, plaintext's are the common ones); it
    prints one JSON object (verification_from_output reads it) and exits 0 when every
    check passed, 1 when one failed."""
    keys = ",".join(dict.fromkeys(w.key for w in workloads if not w.is_plaintext))
    return ["docker", "run", "--rm", "--network", "host", "--entrypoint", "python3", image,
            "-m", CONFORMANCE_MODULE, "--host", host, "--port", str(port),
            "--server-header", server_header, *(["--workloads", keys] if keys else []),
            *(["--blocking-thread", blocking_thread] if blocking_thread else []), "--json"]


def verification_from_output(stdout: str, stderr: str = "") -> Verification:
    """The Verification in the conformance command's output, whatever its exit code; a
    RemoteCheckError quoting the output when there is none."""
    lines = stdout.strip().splitlines()
    try:
        if not lines:
            raise ValueError("it printed nothing")
        return verification_from_dict(json.loads(lines[-1]))
    except ValueError as error:  # json's JSONDecodeError is one too
        said = (stdout.strip() + "\n" + stderr.strip()).strip()[-300:]
        raise RemoteCheckError(f"the conformance check gave no result ({error})"
                               + (f"; its output: {said}" if said else "")) from error


def answer_probe_command(container: str, address: str, port: int) -> list[str]:
    """`docker exec` in the server's container sending one GET / to address:port; exits 0
    only on a 200 (any other code: no answer yet, or a wrong one)."""
    return ["docker", "exec", container, "bash", "-c", ANSWER_PROBE, ANSWER_PROBE_NAME,
            address, str(port)]
