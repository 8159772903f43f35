"""The run line names every variant axis (AXES) a run asked other than its default alone,
each by its setting and its values in the order asked, and none left at its default or to
each framework."""

from __future__ import annotations

from dataclasses import replace

import pytest

from httplab.axes import AXES
from httplab.model import AutoRepeat
from httplab.presentation.wording.settings import describe_settings

from tests.sample_results import sample_result


@pytest.mark.parametrize("chosen, said", [
    ({"jdks": ("17", "25")}, "; JDK 17 and 25"),
    ({"executors": ("pool", "virtual")}, "; EXECUTOR pool and virtual"),
    ({"transports": ("nio", "epoll", "io_uring")}, "; TRANSPORT nio, epoll and io_uring"),
    ({"worker_settings": ("original", "default")}, "; SETTINGS original and default"),
    ({"protocols": ("h1", "h2")}, "; PROTOCOL h1 and h2"),
    ({"profile": (False, True)}, "; PROFILE 0 and 1"),
    ({"replicas": ("1", "2")}, "; REPLICA 1 and 2"),
])
def test_an_axis_the_run_chose_is_named_with_its_values(chosen, said):
    settings = sample_result().settings
    assert said not in describe_settings(settings)
    assert said in describe_settings(replace(settings, **chosen))


def test_a_run_of_repeat_auto_says_its_rule_beside_the_rounds_it_ran():
    settings = replace(sample_result().settings, repeat=4,
                       auto_repeat=AutoRepeat(0.05, 10, "requests_per_sec"))
    assert "; 4 measured runs per cell (REPEAT=auto: ±5.0 % on requests_per_sec, at most 10 " \
           "rounds)" in describe_settings(settings)
    assert "REPEAT=auto" not in describe_settings(sample_result().settings)


@pytest.mark.parametrize("axis", AXES)
def test_an_axis_at_its_default_alone_is_not_named(axis):
    settings = sample_result().settings
    assert f"; {axis.setting} " not in describe_settings(settings)
