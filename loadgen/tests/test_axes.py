from __future__ import annotations

import pytest

from httplab.axes import AXES, EXECUTOR, JDK, PROFILE, SETTINGS, TRANSPORT, Variant
from httplab.model import Settings


@pytest.mark.parametrize("key, variant", [
    ("netty", Variant("netty")),
    ("armeria@default", Variant.of("armeria", SETTINGS="default")),
    ("netty+profiled", Variant.of("netty", PROFILE="1")),
    ("armeria@default+profiled", Variant.of("armeria", SETTINGS="default", PROFILE="1")),
    ("netty@jdk17", Variant.of("netty", JDK="17")),
    ("helidon@default@jdk21+profiled",
     Variant.of("helidon", SETTINGS="default", JDK="21", PROFILE="1")),
])
def test_a_key_names_its_framework_and_axis_values_and_back(key, variant):
    assert Variant.of_key(key) == variant and variant.key == key


def test_a_replica_is_named_in_its_key_after_every_other_part_and_reads_back():
    replica = Variant.of("netty", JDK="17", PROFILE="1", REPLICA="2")
    assert replica.key == "netty@jdk17+profiled+replica2"
    assert Variant.of_key(replica.key) == replica
    assert Variant.of("netty", REPLICA="1").key == "netty", "the first replica is the server"
    assert replica.on_axis("REPLICA", "1") == Variant.of("netty", JDK="17", PROFILE="1")


def test_a_default_value_has_no_part_of_the_key():
    assert Variant.of("netty", SETTINGS="original", JDK="25", PROFILE="0").key == "netty"


def test_every_combination_of_values_has_its_own_key_that_reads_back():
    keys = set()
    for setting in SETTINGS.values:
        for jdk in JDK.values:
            for profile in PROFILE.values:
                variant = Variant.of("netty", SETTINGS=setting, JDK=jdk, PROFILE=profile)
                assert Variant.of_key(variant.key) == variant
                keys.add(variant.key)
    assert len(keys) == len(SETTINGS.values) * len(JDK.values) * len(PROFILE.values)


def test_a_part_no_axis_knows_is_refused():
    with pytest.raises(ValueError, match="@jdk18"):
        Variant.of_key("netty@jdk18")


def test_on_axis_changes_one_value():
    variant = Variant.of("netty", JDK="17", PROFILE="1")
    assert variant.on_axis("PROFILE", "0").key == "netty@jdk17"
    assert variant.on_axis("JDK", "25").axes == {"SETTINGS": "original", "JDK": "25",
                                                 "EXECUTOR": "pool", "TRANSPORT": "", "PROTOCOL": "h1",
                                                 "PROFILE": "1", "REPLICA": "1"}
    assert variant.on_axis("EXECUTOR", "virtual").key == "netty@jdk17@virtual+profiled"
    assert variant.on_axis("TRANSPORT", "io_uring").key == "netty@jdk17@io_uring+profiled"
    assert variant.on_axis("TRANSPORT", "epoll").key == "netty@jdk17@epoll+profiled"
    assert Variant.of_key("netty@virtual@io_uring").axes["TRANSPORT"] == "io_uring"


@pytest.mark.parametrize("axis, text, values", [
    (JDK, "25", ("25",)),
    (JDK, "17,25", ("17", "25")),
    (JDK, " 25 , 17", ("25", "17")),
    (JDK, "25,17,25", None),  # a value twice: a slip, never a silent single
    (EXECUTOR, "virtual,pool", ("virtual", "pool")),
    (EXECUTOR, "", ()),  # each framework its own way
    (EXECUTOR, "green", None),
    (EXECUTOR, "pool,pool", None),
    (JDK, "18", None),
    (JDK, "abc", None),
    (JDK, "17,", None),
    (JDK, "", None),
    (SETTINGS, "default,original", ("default", "original")),
    (PROFILE, "0,1", ("0", "1")),
    (PROFILE, "0,,1", None),
    (TRANSPORT, "epoll,io_uring", ("epoll", "io_uring")),
    (TRANSPORT, "", ()),  # each framework on its own
    (TRANSPORT, "kqueue", None),
    (TRANSPORT, "uring", None),
    (TRANSPORT, "epoll,epoll", None),
])
def test_an_axis_takes_one_value_or_a_comma_list_of_its_own(axis, text, values):
    assert axis.parse(text) == values


def test_the_values_a_run_recorded_are_read_as_text_and_an_older_run_has_the_defaults():
    settings = Settings(servers=(), threads=(1,), connections=(1,), duration_s=1.0,
                        backend="docker", worker_settings=("original", "default"),
                        profile=(False, True), jdks=("17", "25"), executors=("pool", "virtual"),
                        transports=("epoll", "io_uring"), protocols=("h1", "h2"),
                        replicas=("1", "2"))
    assert {axis.setting: axis.recorded(settings) for axis in AXES} == {
        "SETTINGS": ("original", "default"), "JDK": ("17", "25"),
        "EXECUTOR": ("pool", "virtual"), "TRANSPORT": ("epoll", "io_uring"),
        "PROTOCOL": ("h1", "h2"), "PROFILE": ("0", "1"), "REPLICA": ("1", "2")}
    older = Settings(servers=(), threads=(1,), connections=(1,), duration_s=1.0,
                     backend="docker")
    assert JDK.recorded(older) == ("25",) and JDK.recorded(None) == ("25",)
