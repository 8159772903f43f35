import pytest

from httplab.loadtools.wrk.units import parse_duration_us, parse_metric, parse_size_bytes

DURATIONS = [
    ("0.00us", 0.0),
    ("523.00us", 523.0),
    ("7.68ms", 7_680.0),
    ("151.09ms", 151_090.0),
    ("2.00s", 2_000_000.0),
    ("10.08s", 10_080_000.0),
    ("1.50m", 90_000_000.0),
    ("1.00h", 3_600_000_000.0),
    ("10s", 10_000_000.0),
    (" 7.68ms ", 7_680.0),
]

SIZES = [
    ("0.00B", 0.0),
    ("512.00B", 512.0),
    ("1.02KB", 1.02 * 1024),
    ("66.60MB", 66.60 * 1024**2),
    ("6.61MB", 6.61 * 1024**2),
    ("3GB", 3 * 1024**3),
    ("1TB", 1024**4),
    ("2.50PB", 2.5 * 1024**5),
]

METRICS = [
    ("0.00", 0.0),
    ("998", 998.0),
    ("69296.64", 69_296.64),
    ("7.02k", 7_020.0),
    ("1.19M", 1_190_000.0),
    ("2.00G", 2e9),
    ("1T", 1e12),
]

NOT_DURATIONS = ["", "abc", "7.68", "7.68 ms", "7.68MS", "-1.00ms", "nanus", "1.2.3ms", "7.68µs"]
NOT_SIZES = ["", "66.60", "66.60M", "66.60mb", "66.60kB", "1.02 KB", "-1B"]
NOT_METRICS = ["", "abc", "7.02K", "1.19m", "7.02 k", "-nan", "inf"]


@pytest.mark.parametrize(("text", "expected"), DURATIONS)
def test_parse_duration_us(text: str, expected: float) -> None:
    assert parse_duration_us(text) == pytest.approx(expected)


@pytest.mark.parametrize(("text", "expected"), SIZES)
def test_parse_size_bytes_uses_1024_multiples(text: str, expected: float) -> None:
    assert parse_size_bytes(text) == pytest.approx(expected)


@pytest.mark.parametrize(("text", "expected"), METRICS)
def test_parse_metric_uses_1000_multiples(text: str, expected: float) -> None:
    assert parse_metric(text) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("parse", "text"),
    [(parse_duration_us, text) for text in NOT_DURATIONS]
    + [(parse_size_bytes, text) for text in NOT_SIZES]
    + [(parse_metric, text) for text in NOT_METRICS],
)
def test_rejects_what_wrk_does_not_print(parse, text: str) -> None:
    with pytest.raises(ValueError, match="not a wrk"):
        parse(text)
