"""An SSH server inside a test host's namespace, and the client side that reaches it.
Everything is the run's own: the host key, the client key, the authorized keys file,
the configs and the `ssh` wrapper that the docker CLI finds first on PATH. Nothing
under /root/.ssh or /etc/ssh is read or written."""

from __future__ import annotations

import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from tests.hosts.shell import CommandFailed, in_netns, run

SSHD = Path("/usr/sbin/sshd")
SSH = Path("/usr/bin/ssh")
PRIVILEGE_SEPARATION_DIR = Path("/run/sshd")  # Debian's sshd will not start without it
START_TIMEOUT_S = 15.0


@dataclass(frozen=True)
class SshFiles:
    directory: Path

    @property
    def client_key(self) -> Path:
        return self.directory / "client_key"

    @property
    def host_key(self) -> Path:
        return self.directory / "host_key"

    @property
    def authorized_keys(self) -> Path:
        return self.directory / "authorized_keys"

    @property
    def client_config(self) -> Path:
        return self.directory / "ssh_config"

    @property
    def bin_dir(self) -> Path:
        return self.directory / "bin"


def render_sshd_config(files: SshFiles, listen_address: str, docker_host: str,
                       pid_file: Path) -> str:
    """Key-only root login on one address; every session gets DOCKER_HOST, so the remote
    `docker system dial-stdio` that the docker CLI runs over SSH reaches this host's engine."""
    return "\n".join([
        f"ListenAddress {listen_address}",
        "Port 22",
        f"HostKey {files.host_key}",
        f"PidFile {pid_file}",
        f"AuthorizedKeysFile {files.authorized_keys}",
        "PermitRootLogin prohibit-password",
        "AuthenticationMethods publickey",
        "PasswordAuthentication no",
        "KbdInteractiveAuthentication no",
        "UsePAM no",
        "AllowUsers root",
        "PrintMotd no",
        # The docker CLI opens one SSH connection per API connection, several at once.
        "MaxStartups 100",
        "MaxSessions 100",
        f"SetEnv DOCKER_HOST={docker_host}",
        "",
    ])


def render_client_config(files: SshFiles, addresses: list[str]) -> str:
    return "\n".join([
        f"Host {' '.join(addresses)}",
        f"  IdentityFile {files.client_key}",
        "  IdentitiesOnly yes",
        "  StrictHostKeyChecking no",
        "  UserKnownHostsFile /dev/null",
        "  BatchMode yes",
        "  ConnectTimeout 10",
        "  LogLevel ERROR",
        "",
    ])


def render_ssh_wrapper(files: SshFiles) -> str:
    return f'#!/bin/sh\nexec {SSH} -F {files.client_config} "$@"\n'


def prepare_client(files: SshFiles, addresses: list[str]) -> None:
    """Keys, authorized keys (`restrict`: no forwarding, no pty) and the `ssh` wrapper."""
    files.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    for key in (files.client_key, files.host_key):
        run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "httplab-hosts",
             "-f", str(key)])
    public_key = files.client_key.with_suffix(".pub").read_text()
    files.authorized_keys.write_text(f"restrict {public_key}")
    files.client_config.write_text(render_client_config(files, addresses))
    files.bin_dir.mkdir()
    wrapper = files.bin_dir / "ssh"
    wrapper.write_text(render_ssh_wrapper(files))
    wrapper.chmod(0o755)


def start_sshd(files: SshFiles, netns: str, listen_address: str,
               docker_host: str) -> subprocess.Popen:
    config = files.directory / f"sshd_config.{netns}"
    config.write_text(render_sshd_config(files, listen_address, docker_host,
                                         files.directory / f"sshd.{netns}.pid"))
    with open(files.directory / f"sshd.{netns}.log", "wb") as log:
        process = subprocess.Popen(in_netns(netns, [str(SSHD), "-D", "-e", "-f", str(config)]),
                                   stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    _wait_for_port(process, listen_address, 22)
    return process


def _wait_for_port(process: subprocess.Popen, address: str, port: int) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise CommandFailed(f"sshd for {address} stopped with exit {process.returncode}")
        with socket.socket() as probe:
            probe.settimeout(0.5)
            if probe.connect_ex((address, port)) == 0:
                return
        time.sleep(0.2)
    raise CommandFailed(f"sshd did not listen on {address}:{port} within {START_TIMEOUT_S} s")


def stop_sshd(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
