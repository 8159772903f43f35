"""make pairing-study's findings and files from measurements made up here."""

from __future__ import annotations

import json
import math

from httplab.model import HostInfo
from httplab.studies.pairing_measurements import (AlternatingStart, PairedRuns,
                                                  PairingMeasurements)
from httplab.studies.pairing_page import findings, study_document, study_page
from httplab.studies.pairing_plan import make_pairing_plan

from tests.support.plans import CPUS, KNOWN

ROUNDS = tuple(PairedRuns(100.0, other, 60.0) for other in (110.0, 95.0, 100.0))
STARTS = tuple(AlternatingStart((PairedRuns(100.0, a, 20.0), PairedRuns(100.0, b, 22.0)), 30.0)
               for a, b in ((101.0, 99.0), (103.0, 104.0), (98.0, 97.0)))
MEASURED = PairingMeasurements(ROUNDS, STARTS, "25.0.1")


def test_the_findings_are_the_measurements_statistics():
    found = findings(MEASURED)
    logs = [math.log(1.10), math.log(0.95), 0.0]
    mean = sum(logs) / 3
    assert found.whole_sd == math.sqrt(sum((x - mean) ** 2 for x in logs) / 2)
    assert (found.round_seconds, found.start_seconds, found.pair_seconds) == (60, 30, 21)
    assert (found.effects.starts, found.effects.pairs) == (3, 2)


def test_the_page_and_the_json_say_the_host_jdk_date_spreads_and_verdicts():
    plan = make_pairing_plan({"servers": "alpha", "threads": "10", "rounds": "3",
                              "starts": "3", "pairs": "2"}, KNOWN, CPUS)
    found, host = findings(MEASURED), HostInfo(hostname="lab-host", cores=2)
    document = json.loads(json.dumps(study_document(plan, MEASURED, found, host,
                                                    "2026-12-01")))
    assert document["jdk"] == "25.0.1" and document["host"]["hostname"] == "lab-host"
    assert document["whole_rounds"][0] == {"base_rps": 100.0, "other_rps": 110.0,
                                           "seconds": 60.0}
    assert [one["precision"] for one in document["findings"]["verdicts"]] == [0.05, 0.10]
    page = study_page(plan, MEASURED, found, host, "2026-12-01")
    assert "lab-host" in page and "JDK 25.0.1" in page and "2026-12-01" in page
    assert f"paired SD {found.whole_sd:.1%}" in page
    assert page.count("| ±5% |") == page.count("| ±10% |") == 1
