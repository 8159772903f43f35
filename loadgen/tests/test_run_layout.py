"""run_layout: every name of a run directory, built and matched in one place."""

from __future__ import annotations

from pathlib import Path

import pytest

from httplab.run_layout import (MeasuredName, RunFiles, RunStem, measured_files,
                                parse_measured_name, run_dir_of, server_log, unmeasured_dir,
                                unmeasured_files)

RAW = Path("results/2026-11-23T04-59-26Z/raw")

# (server, threads, connections, round, rounds) -> the stem's name
STEMS = [
    (("netty", 10, 500, 1, 1), "netty-t10-c500"),
    (("netty", 10, 500, 2, 3), "netty-t10-c500-r2"),
    (("netty", 10, 500, 1, 3), "netty-t10-c500-r1"),
    (("armeria@default", 4, 64, 1, 1), "armeria@default-t4-c64"),
    (("armeria@default", 4, 64, 12, 12), "armeria@default-t4-c64-r12"),
    (("my-server", 1, 1, 1, 2), "my-server-t1-c1-r1"),
    (("vert.x", 2, 50, 1, 1), "vert.x-t2-c50"),
]


@pytest.mark.parametrize(("fields", "name"), STEMS, ids=[name for _, name in STEMS])
def test_a_stem_is_built_with_its_round_only_when_there_are_several(fields, name):
    assert RunStem.of_round(*fields).name == name


@pytest.mark.parametrize(("fields", "name"), STEMS, ids=[name for _, name in STEMS])
def test_a_stem_parses_back_to_what_built_it(fields, name):
    server, threads, connections, round_number, rounds = fields
    stem = RunStem.parse(name)
    assert stem == RunStem.of_round(*fields)
    assert (stem.server, stem.threads, stem.connections, stem.round_number) == (
        server, threads, connections, round_number)
    assert stem.name == name


@pytest.mark.parametrize(("name", "expected"), [
    ("netty-t10-c500", RunStem("netty", 10, 500)),
    ("netty-t10-c500-r2", RunStem("netty", 10, 500, 2)),
    ("armeria@default-t4-c64-r3", RunStem("armeria@default", 4, 64, 3)),
    # The server takes as much as it can: only the last -t<T>-c<C>[-r<N>] is the load.
    ("odd-t1-c2-t3-c4", RunStem("odd-t1-c2", 3, 4)),
    ("odd-t1-c2-r5-t3-c4", RunStem("odd-t1-c2-r5", 3, 4)),
])
def test_parsing_a_stem(name, expected):
    assert RunStem.parse(name) == expected


def test_a_stem_without_a_round_is_round_one():
    assert RunStem("netty", 1, 8).round_number == 1


@pytest.mark.parametrize("name", [
    "netty", "netty-t10", "netty-c500", "-t1-c2", "netty-t-c5", "netty-t10-c", "netty-T10-c500",
    "netty-t1.5-c2", "netty-t10-c500-r", "netty-t10-c500-rx", "netty-t10-c500.txt",
    "netty-t10-c500-warmup", "netty-warmup", "netty-primer-r2", ""])
def test_names_that_are_no_stem(name):
    assert RunStem.parse(name) is None


STEM_PATH = RAW / "netty-t10-c500-r2"
# Each file beside a stem: (how RunFiles names it, the file's name)
BESIDE = [
    (lambda files: files.text, "netty-t10-c500-r2.txt"),
    (lambda files: files.json, "netty-t10-c500-r2.json"),
    (lambda files: files.resources, "netty-t10-c500-r2.resources.json"),
    (lambda files: files.generators, "netty-t10-c500-r2.generators.json"),
    (lambda files: files.h2load, "netty-t10-c500-r2.h2load.txt"),
    (lambda files: files.sockets, "netty-t10-c500-r2.sockets.txt"),
    (lambda files: files.generator(2).text, "netty-t10-c500-r2.g2.txt"),
    (lambda files: files.generator(2).json, "netty-t10-c500-r2.g2.json"),
    (lambda files: files.generator(12).text, "netty-t10-c500-r2.g12.txt"),
    (lambda files: files.stalls, "netty-t10-c500-r2.stalls.json"),
    (lambda files: files.engine_stalls(2), "netty-t10-c500-r2.stalls.2.json"),
]


@pytest.mark.parametrize(("file_of", "name"), BESIDE, ids=[name for _, name in BESIDE])
def test_each_file_is_its_stem_and_a_suffix_in_the_same_folder(file_of, name):
    assert file_of(RunFiles(STEM_PATH)) == RAW / name


@pytest.mark.parametrize(("name", "index"), [
    ("netty-t10-c500-r2.stalls.2.json", 2), ("netty-t10-c500-r2.stalls.12.json", 12),
    ("netty-t10-c500-r2.stalls.json", None), ("netty-t10-c500-r2.stalls.x.json", None),
    ("netty-t10-c500-r2.g2.json", None), ("netty-t10-c500.stalls.2.json", None),
    ("netty-t10-c500-r22.stalls.2.json", None)])
def test_an_engines_stall_record_is_told_from_every_other_file(name, index):
    files = RunFiles(STEM_PATH)
    assert files.engine_stalls_index(name) == index
    assert (RAW / name).match(files.engine_stalls_pattern()) or index is None


@pytest.mark.parametrize("server", ["vert.x", "armeria@default"])
def test_a_stem_holding_a_dot_keeps_it(server):
    files = RunFiles(RAW / f"{server}-t2-c50")
    assert (files.text.name, files.resources.name, files.generator(1).json.name) == (
        f"{server}-t2-c50.txt", f"{server}-t2-c50.resources.json", f"{server}-t2-c50.g1.json")


@pytest.mark.parametrize(("index", "count", "stem"), [
    (1, 1, "netty-t2-c20"), (1, 2, "netty-t2-c20.g1"), (2, 2, "netty-t2-c20.g2"),
    (3, 5, "netty-t2-c20.g3")])
def test_one_generator_writes_the_runs_own_files_several_their_own(index, count, stem):
    assert RunFiles(RAW / "netty-t2-c20").of_generator(index, count) == RunFiles(RAW / stem)


def test_a_measured_runs_files_are_in_the_raw_folder():
    assert measured_files(RAW, RunStem("netty", 10, 500, 2)) == RunFiles(STEM_PATH)


@pytest.mark.parametrize(("fields", "path"), [
    (("netty", "warmup", 1, 1), "unmeasured/netty-warmup"),
    (("netty", "primer", 1, 1), "unmeasured/netty-primer"),
    (("netty", "warmup", 2, 3), "unmeasured/netty-warmup-r2"),
    (("armeria@default", "primer", 1, 2), "unmeasured/armeria@default-primer-r1"),
])
def test_primer_and_warmup_go_to_unmeasured_with_the_round_when_there_are_several(fields, path):
    files = unmeasured_files(RAW, *fields)
    assert files == RunFiles(RAW / path)
    assert files.stem.parent == unmeasured_dir(RAW) == RAW / "unmeasured"


@pytest.mark.parametrize(("server", "name"), [("netty", "netty.log"),
                                              ("armeria@default", "armeria@default.log")])
def test_each_servers_log(server, name):
    assert server_log(server) == name


@pytest.mark.parametrize(("raw_dir", "run_dir"), [
    (RAW, RAW.parent), (Path("raw"), Path(".")), (Path("copied/reports"), Path("copied/reports"))])
def test_a_raw_folder_belongs_to_its_run_and_one_from_elsewhere_to_itself(raw_dir, run_dir):
    assert run_dir_of(raw_dir) == run_dir


NETTY = RunStem("netty", 10, 500)


@pytest.mark.parametrize(("name", "expected"), [
    ("netty-t10-c500.txt", MeasuredName("netty-t10-c500", NETTY)),
    ("netty-t10-c500-r2.txt", MeasuredName("netty-t10-c500-r2", RunStem("netty", 10, 500, 2))),
    ("armeria@default-t4-c64.txt",
     MeasuredName("armeria@default-t4-c64", RunStem("armeria@default", 4, 64))),
    ("netty-t10-c500.g2.txt", MeasuredName("netty-t10-c500", NETTY, 2, spread=True)),
    ("netty-t10-c500-r3.g12.txt",
     MeasuredName("netty-t10-c500-r3", RunStem("netty", 10, 500, 3), 12, spread=True)),
    ("netty-t10-c500.generators.json", MeasuredName("netty-t10-c500", NETTY, spread=True)),
    # Read as written, so that its other files are found by the same stem.
    ("netty-t010-c500.txt", MeasuredName("netty-t010-c500", NETTY)),
])
def test_the_names_that_mark_a_measured_run(name, expected):
    assert parse_measured_name(name) == expected


@pytest.mark.parametrize("name", [
    "netty-t10-c500.json", "netty-t10-c500.resources.json", "netty-t10-c500.h2load.txt",
    "netty-t10-c500.sockets.txt", "netty-t10-c500-r2.h2load.txt", "netty-t10-c500-r2.sockets.txt",
    "netty-t10-c500.g1.json", "netty-t10-c500.g.txt", "netty-t10-c500.gx.txt",
    "netty-t10-c500.txt.bak", "netty-t10-c500.TXT", "netty.log", "armeria@default.log",
    "netty-t10-c500.latency.txt", "netty-t10-c500.g2.profile.txt",  # files yet to come
    "netty-t10-c500.wrk.cpu.txt", "netty-t10-c500-r2.h2load.cpu.txt", "netty-q100.oha.cpu.txt",
    "unmeasured", "netty-warmup.txt", "netty-primer-r2.txt", "results.json", "results.md",
    "netty-t10.txt", "netty-t10-c500"])
def test_names_that_mark_no_measured_run(name):
    assert parse_measured_name(name) is None


@pytest.mark.parametrize("stem", [NETTY, RunStem("armeria@default", 4, 64, 2)],
                         ids=lambda stem: stem.name)
def test_every_file_a_run_leaves_is_read_back_as_what_it_is(stem):
    files = measured_files(RAW, stem)
    report, generator, record = (MeasuredName(stem.name, stem),
                                 MeasuredName(stem.name, stem, 3, spread=True),
                                 MeasuredName(stem.name, stem, spread=True))
    expected = {files.text: report, files.generator(3).text: generator, files.generators: record,
                files.json: None, files.resources: None, files.h2load: None, files.sockets: None,
                files.generator(3).json: None, files.cpu_times("wrk"): None,
                files.cpu_times("h2load"): None, files.stalls: None,
                files.engine_stalls(2): None}
    assert {path: parse_measured_name(path.name) for path in expected} == expected


@pytest.mark.parametrize(("output", "suffix", "tool", "cpu_times"), [
    (RAW / "netty-t10-c500.json", ".json", "wrk", RAW / "netty-t10-c500.wrk.cpu.txt"),
    (RAW / "unmeasured/netty-warmup-r2.json", ".json", "wrk",
     RAW / "unmeasured/netty-warmup-r2.wrk.cpu.txt"),
    (RAW / "netty-q5000-a2.oha.json", ".oha.json", "oha", RAW / "netty-q5000-a2.oha.cpu.txt"),
    (RAW / "vert.x-t2-c50", "", "h2load", RAW / "vert.x-t2-c50.h2load.cpu.txt"),
    (Path("/tmp/report"), ".json", "wrk", Path("/tmp/report.wrk.cpu.txt")),  # no suffix: whole
])
def test_a_tools_cpu_times_file_sits_beside_its_output_named_by_the_tool(output, suffix, tool,
                                                                         cpu_times):
    assert RunFiles.of_output(output, suffix).cpu_times(tool) == cpu_times
