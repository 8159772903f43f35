"""REPEAT=auto in results.json: the settings' repeat "auto" beside the rounds it ran and its
rule, read back; how its rounds ended, derived; and a file without them a fixed REPEAT."""

from __future__ import annotations

import json

from httplab.results.results_json.read import result_from_dict, settings_from_dict
from httplab.results.results_json.write import result_to_dict, settings_to_dict

from tests.sample_results import sample_result
from tests.variants_sample import profile_run_as_auto


def test_the_settings_say_auto_its_rounds_and_its_rule_and_read_back():
    result = profile_run_as_auto()
    data = json.loads(json.dumps(result_to_dict(result)))
    settings = data["settings"]
    assert (settings["repeat"], settings["rounds"], settings["precision"],
            settings["max_repeat"], settings["metric"]) == ("auto", 3, 0.05, 3,
                                                            "requests_per_sec")
    assert result_from_dict(data).settings == result.settings


def test_how_its_rounds_ended_is_derived_pair_by_pair():
    reached = result_to_dict(profile_run_as_auto(precision=0.99))["rounds_reached"]
    assert (reached["stopped"], reached["rounds"]) == ("precision_reached", 3)
    assert reached["pairs"] and all(pair["narrowed"] and pair["rounds"] == 3
                                    and pair["metric"] == "requests_per_sec"
                                    for pair in reached["pairs"])


def test_a_fixed_repeat_writes_its_number_alone_and_reads_without_a_rule():
    result = sample_result()
    data = result_to_dict(result)
    assert "rounds_reached" not in data and "precision" not in data["settings"]
    assert settings_from_dict(settings_to_dict(result.settings)).auto_repeat is None
