"""A Docker engine inside a network namespace: dockerd entered into the namespace's
network only (nsenter --net), with its own data root, exec root, socket and config, and
no bridge, iptables or masquerading, so it touches nothing of the host's engine. Its
host-network containers live in the namespace."""

from __future__ import annotations

import json
import re
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from tests.hosts.shell import CommandFailed, in_netns, output, run

START_TIMEOUT_S = 60.0
STOP_TIMEOUT_S = 30.0


@dataclass(frozen=True)
class EnginePaths:
    """Short paths (a unix socket path has a length limit) under the run directory, and
    the data root on disk (overlay2 may refuse tmpfs)."""

    run_dir: Path
    data_root: Path

    @property
    def exec_root(self) -> Path:
        return self.run_dir / "exec"

    @property
    def socket(self) -> Path:
        return self.run_dir / "docker.sock"

    @property
    def spec(self) -> str:
        return f"unix://{self.socket}"

    @property
    def config_file(self) -> Path:
        return self.run_dir / "daemon.json"

    @property
    def log(self) -> Path:
        return self.run_dir / "dockerd.log"


def dockerd_command(netns: str, paths: EnginePaths) -> list[str]:
    """dockerd in the namespace's network and in a UTS namespace of its own named after the
    host, so `docker info` names each engine as a separate machine would."""
    return in_netns(netns, [
        "unshare", "--uts", "--", "sh", "-c", 'hostname "$0" && exec dockerd "$@"', netns,
        "--config-file", str(paths.config_file),
        "--data-root", str(paths.data_root), "--exec-root", str(paths.exec_root),
        "-H", paths.spec, "--pidfile", str(paths.run_dir / "dockerd.pid"),
        "--bridge=none", "--iptables=false", "--ip-masq=false"])


@dataclass
class NamespaceEngine:
    netns: str
    paths: EnginePaths
    process: subprocess.Popen | None = None

    def docker(self, *arguments: str) -> list[str]:
        return ["docker", "-H", self.paths.spec, *arguments]


def daemon_config(paths: EnginePaths, dockerd_version: str) -> dict[str, str]:
    """dockerd before 23 takes its ID from /etc/docker/key.json, the host engine's: each
    engine gets its own key, so the engines have different IDs, as separate machines do.
    From 23 the ID lives in the data root, and the setting is gone."""
    major = int(re.search(r"(\d+)\.\d+", dockerd_version).group(1))
    return {"deprecated-key-path": str(paths.run_dir / "key.json")} if major < 23 else {}


def start_engine(netns: str, paths: EnginePaths) -> NamespaceEngine:
    for directory in (paths.run_dir, paths.data_root):
        directory.mkdir(parents=True, exist_ok=True)
    version = output(["dockerd", "--version"], timeout=10)
    paths.config_file.write_text(json.dumps(daemon_config(paths, version)) + "\n")
    engine = NamespaceEngine(netns, paths)
    with open(paths.log, "wb") as log:
        # Its own session: a Ctrl-C at the terminal must not stop it before its
        # containers are removed in order.
        engine.process = subprocess.Popen(dockerd_command(netns, paths), stdout=log,
                                          stderr=subprocess.STDOUT, start_new_session=True)
    return engine


def wait_until_answers(engine: NamespaceEngine, timeout_s: float = START_TIMEOUT_S) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if engine.process.poll() is not None:
            raise CommandFailed(f"dockerd in {engine.netns} stopped (exit "
                                f"{engine.process.returncode}): {_log_tail(engine)}")
        if run(engine.docker("version"), timeout=10, check=False).returncode == 0:
            return
        time.sleep(0.3)
    raise CommandFailed(f"dockerd in {engine.netns} did not answer within {timeout_s:.0f} s: "
                        f"{_log_tail(engine)}")


def _log_tail(engine: NamespaceEngine) -> str:
    return engine.paths.log.read_text(errors="replace")[-1500:]


def stop_engine(engine: NamespaceEngine) -> list[str]:
    """Removes its containers, stops dockerd (killed after STOP_TIMEOUT_S), then unmounts
    whatever it left mounted under its directories. The problems met, as text."""
    problems = []
    if engine.process is not None and engine.process.poll() is None:
        problems += _remove_containers(engine)
        engine.process.terminate()
        try:
            engine.process.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            problems.append(f"dockerd in {engine.netns} ignored SIGTERM; killed")
            engine.process.kill()
            engine.process.wait(10)
    return problems + unmount_under(engine.paths.run_dir, engine.paths.data_root)


def _remove_containers(engine: NamespaceEngine) -> list[str]:
    try:
        ids = output(engine.docker("ps", "-aq"), timeout=20).split()
        if ids:
            run(engine.docker("rm", "-f", *ids), timeout=60)
        return []
    except CommandFailed as failure:
        return [str(failure)]


def mounts_under(*directories: Path) -> list[str]:
    """Mount points at or below any of `directories`, deepest first."""
    roots = [str(directory.resolve()) for directory in directories]
    with open("/proc/self/mountinfo") as mountinfo:
        points = [line.split()[4].replace("\\040", " ") for line in mountinfo]
    inside = {point for point in points
              if any(point == root or point.startswith(root + "/") for root in roots)}
    return sorted(inside, key=lambda point: point.count("/"), reverse=True)


def unmount_under(*directories: Path) -> list[str]:
    """Stopping dockerd leaves EXEC_ROOT/netns/default (a bind mount of its namespace)
    mounted, and a killed one its containers' layers: unmount them all, lazily when busy."""
    problems = []
    for point in mounts_under(*directories):
        if run(["umount", point], check=False).returncode != 0:
            lazy = run(["umount", "-l", point], check=False)
            if lazy.returncode != 0:
                problems.append(f"cannot unmount {point}: {lazy.stderr.strip()}")
    return problems


def ship_image(image: str, to_spec: str, env: dict[str, str], timeout_s: float = 300) -> None:
    """`docker save IMAGE | docker -H SPEC load`: an image from this machine's engine to
    another with no registry. The harness ships images itself; tests use this only to
    prepare a testbed by hand."""
    save = subprocess.Popen(["docker", "save", image], stdout=subprocess.PIPE)
    try:
        subprocess.run(["docker", "-H", to_spec, "load", "-q"], stdin=save.stdout, env=env,
                       capture_output=True, check=True, timeout=timeout_s)
    finally:
        save.stdout.close()
        if save.wait(timeout_s) != 0:
            raise CommandFailed(f"docker save {image}: exit {save.returncode}")
