import pytest

from httplab.presentation.wording.formatting import (MISSING, format_bytes, format_duration_us,
                                                     format_rate, format_switches)


@pytest.mark.parametrize("value, text", [
    (None, MISSING), (0.0, "0.00us"), (523.0, "523.00us"), (7680.0, "7.68ms"),
    (2_000_000.0, "2.00s"), (90_000_000.0, "1.50m"), (3_600_000_000.0, "1.00h"),
])
def test_durations_print_like_wrk(value, text):
    assert format_duration_us(value) == text


@pytest.mark.parametrize("value, text", [
    (None, MISSING), (512.0, "512.00B"), (1024.0, "1.00KB"), (6_931_087.0, "6.61MB"),
    (3 * 1024**3, "3.00GB"), (1024**4, "1.00TB"),
])
def test_sizes_print_like_wrk(value, text):
    assert format_bytes(value) == text


def test_rates_have_two_decimals():
    assert format_rate(69296.641) == "69296.64" and format_rate(None) == MISSING


@pytest.mark.parametrize("per_request, involuntary, text", [
    (2.104, 0.306, "2.10 (0.31 involuntary)"), (2.0, None, "2.00"), (None, 0.3, MISSING),
])
def test_context_switches_per_request_say_the_involuntary_where_counted(per_request,
                                                                      involuntary, text):
    assert format_switches(per_request, involuntary) == text
