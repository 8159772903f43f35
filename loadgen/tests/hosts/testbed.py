"""The test hosts as one context manager: namespaces, an engine in each, SSH servers
where asked, the client side for the harness; and a teardown that runs whatever
happened (an exception, Ctrl-C, SIGTERM or SIGHUP) and reports what it could not undo.

    with Testbed() as bed:
        bed.check_target(bed.plan.target_address)   # before any load
        subprocess.run([...], env=bed.env, timeout=...)
    assert not leftovers(bed.marks)
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import signal
import tempfile
from pathlib import Path

from tests.hosts import engines, leftovers, netns, peers, safety, sshd
from tests.hosts.plan import SUBNET, AddressPlan, Host, address_plan
from tests.hosts.shell import in_netns, output, run

SIGNALS = (signal.SIGTERM, signal.SIGHUP)
TOOLS = ("ip", "nsenter", "unshare", "ss", "dockerd", "docker", "ssh", "ssh-keygen")


class TeardownIncomplete(RuntimeError):
    pass


def _raise_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def missing_tools() -> list[str]:
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    return missing + [str(path) for path in (sshd.SSHD, sshd.SSH) if not path.exists()]


class Testbed:
    __test__ = False  # not a test class, though its name starts with Test

    def __init__(self, generator_count: int = 2, ssh_generators: tuple[int, ...] = (1,)):
        """The server's engine is reached over SSH, and so are the generators numbered (from
        1) in ssh_generators; the other generators by their engine's unix socket."""
        self.plan: AddressPlan = address_plan(generator_count)
        self.ssh_netns = {self.plan.server.netns} | {
            self.plan.generators[index - 1].netns for index in ssh_generators}
        self.engines: dict[str, engines.NamespaceEngine] = {}
        self.sshds: list = []
        self.run_dir = self.data_dir = None
        self.marks = leftovers.RunMarks((), (), (), ())
        self._saved_handlers: dict = {}
        self._created_privsep_dir = False
        self._netns_dir_before: netns.NetnsDirState | None = None

    # -- what the tests use ---------------------------------------------------------

    def engine_spec(self, host: Host) -> str:
        if host.netns in self.ssh_netns:
            return f"ssh://root@{host.address}"
        return self.engines[host.netns].paths.spec

    @property
    def server_spec(self) -> str:
        return self.engine_spec(self.plan.server)

    @property
    def generator_specs(self) -> list[str]:
        return [self.engine_spec(host) for host in self.plan.generators]

    @property
    def env(self) -> dict[str, str]:
        """This process's environment with the run's `ssh` first on PATH and no engine
        chosen by DOCKER_HOST or DOCKER_CONTEXT."""
        env = {name: value for name, value in os.environ.items()
               if name not in ("DOCKER_HOST", "DOCKER_CONTEXT")}
        env["PATH"] = f"{self._ssh_files.bin_dir}{os.pathsep}{env.get('PATH', '')}"
        return env

    def check_target(self, address: str) -> str:
        """Refused unless `address` is held by one of the run's namespaces (read back now)."""
        return safety.check_target_is_ours(address, SUBNET, list(self.marks.namespaces))

    def established_peers(self, port: int) -> set[str]:
        """Who is connected to `port` in the server's namespace right now."""
        listed = output(in_netns(self.plan.server.netns,
                                 ["ss", "-Htn", "state", "established"]), timeout=10)
        return peers.parse_established_peers(listed, port)

    # -- set-up ---------------------------------------------------------------------

    def __enter__(self) -> "Testbed":
        self._preflight()
        self._saved_handlers = {sig: signal.signal(sig, _raise_interrupt) for sig in SIGNALS}
        try:
            self._set_up()
        except BaseException:
            self._tear_down()
            raise
        return self

    def _preflight(self) -> None:
        if os.geteuid() != 0:
            raise safety.Refused("the test hosts need root (namespaces, veths, dockerd)")
        earlier = leftovers.leftovers(leftovers.earlier_runs())
        if earlier:
            raise safety.Refused("an earlier run left " + "; ".join(earlier) + ": remove it "
                                 "with `cd loadgen && python -m tests.hosts.leftovers --clean`")
        safety.check_subnet_is_free(SUBNET)

    def _set_up(self) -> None:
        self.run_dir = Path(tempfile.mkdtemp(prefix=leftovers.DIR_PREFIX, dir="/run"))
        self.data_dir = Path(tempfile.mkdtemp(prefix=leftovers.DIR_PREFIX, dir="/var/tmp"))
        self._netns_dir_before = netns.netns_dir_state()
        self.marks = leftovers.RunMarks(tuple(host.netns for host in self.plan.hosts), (),
                                        self.plan.root_veths, (self.run_dir, self.data_dir))
        try:
            netns.bring_up(self.plan)
        finally:  # what came up, even partly, is found and removed by its inode
            inodes = tuple(leftovers.netns_inode(name) for name in self.marks.namespaces
                           if name in netns.existing_namespaces())
            self.marks = dataclasses.replace(self.marks, netns_inodes=inodes)
        self._start_engines()
        self._start_sshds()
        for host in self.plan.hosts:  # every engine answers the way the harness will reach it
            run(["docker", "-H", self.engine_spec(host), "version"], timeout=30, env=self.env)

    def _start_engines(self) -> None:
        for host in self.plan.hosts:
            paths = engines.EnginePaths(self.run_dir / host.short_name,
                                        self.data_dir / host.short_name)
            self.engines[host.netns] = engines.start_engine(host.netns, paths)
        for engine in self.engines.values():
            engines.wait_until_answers(engine)

    @property
    def _ssh_files(self) -> sshd.SshFiles:
        return sshd.SshFiles(self.run_dir / "ssh")

    def _start_sshds(self) -> None:
        hosts = [host for host in self.plan.hosts if host.netns in self.ssh_netns]
        sshd.prepare_client(self._ssh_files, [host.address for host in hosts])
        if not sshd.PRIVILEGE_SEPARATION_DIR.exists():
            sshd.PRIVILEGE_SEPARATION_DIR.mkdir(mode=0o755)
            self._created_privsep_dir = True
        for host in hosts:
            self.sshds.append(sshd.start_sshd(self._ssh_files, host.netns, host.address,
                                              self.engines[host.netns].paths.spec))

    # -- teardown -------------------------------------------------------------------

    def __exit__(self, *exc_info) -> None:
        self._tear_down()

    def _tear_down(self) -> None:
        """Runs every step whatever the earlier ones met; signals wait until it is done."""
        ignored = {sig: signal.signal(sig, signal.SIG_IGN) for sig in (*SIGNALS, signal.SIGINT)}
        try:
            problems = []
            for process in self.sshds:
                problems += _step(sshd.stop_sshd, process)
            for engine in self.engines.values():
                problems += _step(engines.stop_engine, engine)
            problems += _step(leftovers.end_processes, self.marks)
            if self._netns_dir_before is not None:
                problems += _step(netns.bring_down, self.plan, self._netns_dir_before)
            problems += _step(leftovers.remove_directories, self.marks.directories)
            problems += _step(self._remove_privilege_separation_dir)
        finally:
            for sig, handler in {**ignored, **self._saved_handlers}.items():
                signal.signal(sig, handler)
        if problems:
            raise TeardownIncomplete("; ".join(problems))

    def _remove_privilege_separation_dir(self) -> None:
        if self._created_privsep_dir and not any(sshd.PRIVILEGE_SEPARATION_DIR.iterdir()):
            sshd.PRIVILEGE_SEPARATION_DIR.rmdir()


def _step(action, *arguments) -> list[str]:
    """One teardown step: its problems (a list it returns, or the exception it raised)."""
    try:
        return action(*arguments) or []
    except Exception as failure:  # noqa: BLE001 - the next steps must run anyway
        return [f"{getattr(action, '__name__', action)}: {failure}"]


def _serve_until_stopped() -> None:
    """`python -m tests.hosts.testbed` (as root, in loadgen/): the hosts up until Ctrl-C,
    with the settings that aim a bench at them."""
    with Testbed() as bed:
        bed.check_target(bed.plan.target_address)
        print(f"export PATH={bed.env['PATH'].split(os.pathsep)[0]}:$PATH\n"
              f"make bench SERVER_HOST={bed.server_spec} "
              f"LOADGEN_HOSTS={','.join(bed.generator_specs)} "
              f"TARGET_ADDRESS={bed.plan.target_address} SERVERS=netty CEILING=0 FAIRNESS=0\n"
              "Ctrl-C tears the hosts down.", flush=True)
        try:
            signal.pause()
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    _serve_until_stopped()
