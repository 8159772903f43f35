"""A stand-in for a backend's profiler control: it records every command in order (into
a list it may share with the fake wrk and probe), answers as told, and writes the files
the JVM would write, so the runner's profiling (async-profiler's, and JFR's recording of
pinned virtual threads) can be followed without a JVM."""

from __future__ import annotations

from pathlib import Path

from httplab.running.profiling.agent import AgentReply

COLLAPSED = "java/lang/Thread.run;io/netty/Loop.run;epoll_wait 3\njava/lang/Thread.run 2\n"
FLAME = "<!DOCTYPE html><html>flame graph</html>\n"
RECORDING = b"FLR\0 a stand-in for a JFR recording"


class FakeProfilerControl:
    perf_events_refused = "perf events closed here (a fake)"

    def __init__(self, events: list[str], refuse: tuple[str, ...] = (),
                 writes: bool = True, copies: bool = True, log_path: Path | None = None):
        # refuse: argument prefixes answered with return code 200 ("check,event=cpu-clock"),
        # the agent saying why in the server's output (log_path), as the real one does
        self.events, self.refuse, self.writes, self.copies = events, refuse, writes, copies
        self.log_path = log_path

    def send(self, arguments: str) -> AgentReply:
        self.events.append(arguments.split(",file=")[0] if ",file=" in arguments
                           else arguments)
        if arguments.startswith(self.refuse):
            if self.log_path is not None:
                with self.log_path.open("a") as log:
                    log.write("[ERROR] Operation not permitted\n")
            return AgentReply(200)
        if self.writes and ",file=" in arguments:
            path = Path(arguments.split(",file=")[1].split(",")[0])
            path.write_text(COLLAPSED if arguments.startswith("stop") else FLAME)
        return AgentReply(0)

    def jcmd(self, command: str) -> tuple[int, str]:
        """JFR.start and JFR.stop as the JVM answers them (0 and its words, or 0 and a
        refusal); a stop writes a stand-in recording where it is asked to."""
        name = command.split()[0]
        self.events.append(name)
        if command.startswith(self.refuse):
            return 0, f"Could not {name.removeprefix('JFR.')} recording (a fake)"
        if name == "JFR.stop":
            if self.writes:
                Path(command.split("filename=")[1]).write_bytes(RECORDING)
            return 0, f"Stopped recording, {len(RECORDING)} bytes written to: (a fake)"
        return 0, "Started recording 1. (a fake)"

    def target(self, destination: Path) -> str:
        return str(destination)

    def collect(self, destination: Path) -> str | None:
        self.events.append(f"collect {destination.name}")
        if not self.copies:
            destination.unlink(missing_ok=True)
            return f"could not copy {destination.name} out (a fake)"
        return None
