"""The other Docker engines of a bench (SERVER_HOST, LOADGEN_HOSTS): does each answer, is
its clock close to ours, and does it have the images this commit built here. Images
travel as `docker save` into `docker load` over the engine's own connection: no registry.
"""

from __future__ import annotations

import os
import subprocess
import time
from datetime import datetime

from httplab.running.backend_error import BackendError
from httplab.model import EngineRecord
from httplab.running.engines import Engine

ENGINE_TIMEOUT_S = 45  # an SSH connection plus `docker info`
SHIP_TIMEOUT_S = 1800
MAX_CLOCK_OFFSET_S = 1.0  # beyond this the generators' common window cannot be trusted
INFO_FORMAT = ("{{.ServerVersion}}|{{.SystemTime}}|{{.Name}}|{{.NCPU}}|{{.MemTotal}}|"
               "{{.KernelVersion}}|{{.OperatingSystem}}")


def engine_env(engine: Engine | None) -> dict[str, str]:
    """The environment of a docker command aimed at the engine (None: this machine's)."""
    return {**os.environ, **(engine.environment() if engine else {})}


def docker(engine: Engine | None, *args: str, timeout: float = ENGINE_TIMEOUT_S,
           ) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(["docker", *args], env=engine_env(engine), capture_output=True,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired as error:
        where = engine.spec if engine else "this machine's engine"
        raise BackendError(f"{where}: `docker {args[0]}` did not answer in {timeout:g} s") from error


def parse_system_time(text: str) -> float | None:
    """Docker's RFC 3339 SystemTime ('2026-11-23T03:20:01.123456789Z' or with an offset)
    as Unix seconds; None when unreadable. Python reads at most microseconds."""
    text = text.strip().replace("Z", "+00:00")
    head, dot, rest = text.partition(".")
    if dot:
        digits = "".join(ch for ch in rest if ch.isdigit())
        text = f"{head}.{digits[:6]}{rest[len(digits):]}"
    try:
        return datetime.fromisoformat(text).timestamp()
    except ValueError:
        return None


def parse_info(engine: str, role: str, line: str, local_midpoint_s: float) -> EngineRecord:
    """One line of `docker info --format INFO_FORMAT`, with the engine's clock offset."""
    fields = (line.strip().split("|") + [""] * 7)[:7]
    version, system_time, name, cores, memory, kernel, os_name = fields
    remote_time = parse_system_time(system_time)
    return EngineRecord(engine, role, version or None, name or None,
                        int(cores) if cores.isdigit() else None,
                        int(memory) if memory.isdigit() else None, kernel or None,
                        os_name or None,
                        None if remote_time is None else remote_time - local_midpoint_s)


def inspect_engine(engine: Engine, role: str) -> EngineRecord:
    """The engine's machine; BackendError naming the engine when it does not answer or its
    clock is too far from this machine's."""
    before = time.time()
    answer = docker(engine, "info", "--format", INFO_FORMAT)
    midpoint = (before + time.time()) / 2
    if answer.returncode != 0:
        said = (answer.stderr.strip().splitlines() or ["nothing"])[-1]
        raise BackendError(f"{role} engine {engine.spec} does not answer: {said}")
    info = parse_info(engine.spec, role, answer.stdout, midpoint)
    if info.clock_offset_s is not None and abs(info.clock_offset_s) > MAX_CLOCK_OFFSET_S:
        raise BackendError(f"{role} engine {engine.spec}: its clock is {info.clock_offset_s:+.1f} s "
                           f"off this machine's (more than {MAX_CLOCK_OFFSET_S:g} s): the "
                           "generators' common window needs synchronised clocks (chrony, NTP)")
    return info


def image_id(engine: Engine | None, image: str) -> str | None:
    found = docker(engine, "image", "inspect", "-f", "{{.Id}}", image)
    if found.returncode != 0:
        return None
    return found.stdout.strip() or None


def ship_image(image: str, engine: Engine) -> str:
    """Makes the engine hold this machine's `image`, sending it only when its id differs.
    Returns the id the engine now has."""
    local = image_id(None, image)
    if local is None:
        raise BackendError(f"{image} is not built on this machine")
    if image_id(engine, image) == local:
        return local
    save = subprocess.Popen(["docker", "save", image], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=engine_env(None))
    try:
        load = subprocess.run(["docker", "load", "-q"], stdin=save.stdout, capture_output=True,
                              text=True, env=engine_env(engine), timeout=SHIP_TIMEOUT_S)
    except subprocess.TimeoutExpired as error:
        raise BackendError(f"sending {image} to {engine.spec} took over {SHIP_TIMEOUT_S} s") from error
    finally:
        save.stdout.close()
        if save.poll() is None:
            save.kill()
        save.wait()
    if load.returncode != 0 or image_id(engine, image) != local:
        raise BackendError(f"cannot send {image} to {engine.spec}: "
                           f"{(load.stderr.strip() or 'docker load failed')[-300:]}")
    return local
