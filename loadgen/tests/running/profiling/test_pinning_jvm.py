"""The lab's own JFR recording of pinned virtual threads on a real JVM (slow): a stand-in
written here, a virtual thread that sleeps inside `synchronized`, recorded for a second
through jattach's jcmd (BACKEND=local's control) and read by the host's jfr, as a measured
run's would be. JDK 21 pins the virtual thread to its carrier there and records it, named
by the stand-in's method; JDK 25 no longer does (JEP 491) and records none."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest

from httplab.results.pinned_record import record_from_dict
from httplab.run_layout import RunFiles
from httplab.running.backends.local_profiler import JATTACH, LocalProfilerControl
from httplab.running.jdks import JdkNotFound, java_executable
from httplab.running.profiling.jfr_reader import HostJfr
from httplab.running.profiling.pinning import PinningRecorder, pinning_recorded

STAND_IN = """
public class Pinned {
    static final Object LOCK = new Object();

    static void holdLock() throws InterruptedException {
        synchronized (LOCK) { Thread.sleep(20); }
    }

    public static void main(String[] args) throws Exception {
        System.out.println("ready");
        while (true) {
            Thread.ofVirtual().start(() -> {
                try { holdLock(); } catch (InterruptedException e) { }
            }).join();
        }
    }
}
"""
RECORDED_S = 1.0  # some 50 sleeps of 20 ms


def _java(jdk: int) -> str:
    try:
        return str(java_executable(jdk))
    except JdkNotFound as error:
        pytest.fail(str(error))


@pytest.mark.slow
@pytest.mark.parametrize("jdk, pins", [(21, True), (25, False)], ids=["jdk21", "jdk25"])
def test_sleeping_in_synchronized_pins_on_jdk_21_and_not_on_25(tmp_path, jdk, pins):
    source = tmp_path / "Pinned.java"
    source.write_text(STAND_IN)
    process = subprocess.Popen([_java(jdk), str(source)], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None and process.stdout.readline().strip() == "ready"
        # The agent is async-profiler's, which jcmd never loads.
        control = LocalProfilerControl(JATTACH, process.pid, Path("unused"))
        files = RunFiles(tmp_path / f"stand-in@jdk{jdk}")
        _, outcome = pinning_recorded(PinningRecorder(control, HostJfr()), files,
                                      lambda: time.sleep(RECORDED_S))
    finally:
        process.kill()
        process.wait()
    record = record_from_dict(json.loads(files.pinned.read_text()))
    assert outcome.failure is None and record.run.failure is None
    assert not files.pinned_recording.exists()  # read, so removed
    if pins:
        assert record.run.events >= 10
        assert record.run.top_frames[0].frame == "Pinned.holdLock"
        assert record.run.longest_ms >= 20
    else:
        assert (record.run.events, record.run.top_frames) == (0, ())
