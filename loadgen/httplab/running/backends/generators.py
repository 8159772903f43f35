"""wrk on other Docker engines (LOADGEN_HOSTS): the protocol's threads and connections
split across them, every generator started at one agreed wall-clock time, each one's
report and done.lua JSON brought back here. The containers are created, started, copied from and removed with
plain docker commands over each engine's own connection: no file is shared with them."""

from __future__ import annotations

import subprocess
import time
from dataclasses import dataclass, replace
from pathlib import Path

from httplab.outcomes import GeneratorOutcome
from httplab.running.backend_error import BackendError
from httplab.running.docker.remote import docker, engine_env
from httplab.running.engines import Engine, split_load
from httplab.loadtools.wrk.command import JSON_PATH_VARIABLE, WrkRequest, wrk_arguments, wrk_time_limit_s
from httplab.running.docker.compose import CONTAINER_NOFILE, WRK_IMAGE, WRK_SCRIPT_IN_IMAGE
from httplab.run_layout import RunFiles

JSON_IN_CONTAINER = "/tmp/httplab-wrk.json"
# The wrk service's limit in docker-compose.yml (a test keeps the two equal).
# Starting a container over SSH takes about a second more than over a socket, so each
# generator sleeps until a common start time instead (clocks agree within 1 s, checked
# before any load; what skew remains is measured and reported). Set this far ahead: one
# create and one start per generator, each up to ~1.5 s over SSH.
START_MARGIN_S, START_MARGIN_PER_GENERATOR_S = 2.0, 1.5
# Run as `sh -c WAIT_THEN_WRK START_AT WRK_ARGS...`: sleeps until START_AT (Unix seconds)
# on the generator's own clock, then becomes wrk.
WAIT_THEN_WRK = ('d=$(awk -v t="$0" -v n="$(date +%s.%N)" '
                 "'BEGIN { d = t - n; printf \"%.3f\", (d > 0 ? d : 0) }'); "
                 'sleep "$d"; exec wrk "$@"')


@dataclass(frozen=True)
class GeneratorJob:
    index: int
    engine: Engine
    request: WrkRequest
    container: str
    text_path: Path
    json_path: Path


def generator_paths(stem: Path, index: int, count: int) -> tuple[Path, Path]:
    """Generator <index>'s report and JSON: the run's own when it is the only one."""
    files = RunFiles(stem).of_generator(index, count)
    return files.text, files.json


def plan_jobs(request: WrkRequest, engines: tuple[Engine, ...], stem: Path,
              name_prefix: str) -> tuple[GeneratorJob, ...]:
    shares = split_load(request.threads, request.connections, len(engines))
    jobs = []
    for index, (engine, (threads, connections)) in enumerate(zip(engines, shares), start=1):
        text_path, json_path = generator_paths(stem, index, len(engines))
        jobs.append(GeneratorJob(index, engine, replace(request, threads=threads,
                                                        connections=connections),
                                 f"{name_prefix}-g{index}", text_path, json_path))
    return tuple(jobs)


def create_command(job: GeneratorJob, cpus: str | None, start_at_s: float) -> list[str]:
    pinning = ["--cpuset-cpus", cpus] if cpus else []
    return ["create", "--name", job.container, "--network", "host", *pinning,
            "--ulimit", f"nofile={CONTAINER_NOFILE}:{CONTAINER_NOFILE}",
            "-e", f"{JSON_PATH_VARIABLE}={JSON_IN_CONTAINER}", "--entrypoint", "sh",
            WRK_IMAGE, "-c", WAIT_THEN_WRK, f"{start_at_s:.3f}",
            *wrk_arguments(job.request, WRK_SCRIPT_IN_IMAGE)]


def start_margin_s(generators: int) -> float:
    return START_MARGIN_S + START_MARGIN_PER_GENERATOR_S * generators


def run_generators(request: WrkRequest, engines: tuple[Engine, ...], stem: Path,
                   name_prefix: str, cpus: str | None = None) -> tuple[GeneratorOutcome, ...]:
    """One wrk per engine, started together; each generator's failure is its own, and
    every container is removed whatever happens."""
    jobs = plan_jobs(request, engines, stem, name_prefix)
    for job in jobs:
        job.json_path.unlink(missing_ok=True)
    margin = start_margin_s(len(jobs))
    start_at = time.time() + margin
    try:
        failures = {job.index: _create(job, cpus, start_at) for job in jobs}
        ready = [job for job in jobs if failures[job.index] is None]
        failures.update(_start_all(ready, wrk_time_limit_s(request) + margin))
        for job in ready:
            _copy_json(job)
    finally:
        for job in jobs:
            _remove(job)
    return tuple(GeneratorOutcome(job.index, job.engine.spec, job.request.threads,
                                  job.request.connections, job.text_path,
                                  job.json_path if job.json_path.exists() else None,
                                  failures.get(job.index))
                 for job in jobs)


def _create(job: GeneratorJob, cpus: str | None, start_at_s: float) -> str | None:
    _remove(job)  # a container left by an interrupted run of the same name
    created = docker(job.engine, *create_command(job, cpus, start_at_s))
    if created.returncode != 0:
        return f"cannot create wrk on {job.engine.spec}: {created.stderr.strip()[-300:]}"
    return None


def _start_all(jobs: list[GeneratorJob], limit_s: float) -> dict[int, str | None]:
    """Starts every generator back to back, then waits for all of them."""
    running = []
    for job in jobs:
        with job.text_path.open("w") as text:
            running.append((job, subprocess.Popen(
                ["docker", "start", "-a", job.container], stdout=text,
                stderr=subprocess.PIPE, text=True, env=engine_env(job.engine))))
    deadline = time.monotonic() + limit_s
    results = {}
    for job, process in running:
        try:
            _, stderr = process.communicate(timeout=max(deadline - time.monotonic(), 1))
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
            results[job.index] = f"wrk on {job.engine.spec} did not finish within {limit_s:g} s"
            continue
        results[job.index] = (None if process.returncode == 0 else
                              f"wrk on {job.engine.spec} exited with {process.returncode}: "
                              f"{(stderr or '').strip()[-300:] or 'no message'}")
    return results


def _copy_json(job: GeneratorJob) -> None:
    """done.lua's JSON, when wrk wrote one (a generator that died has none)."""
    docker(job.engine, "cp", f"{job.container}:{JSON_IN_CONTAINER}", str(job.json_path))


def _remove(job: GeneratorJob) -> None:
    try:
        docker(job.engine, "rm", "-f", job.container)
    except BackendError:  # cleanup goes on to the other generators
        pass
