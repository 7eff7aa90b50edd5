"""Formatting and parsing amounts in minor units."""

import pytest
from hypothesis import given, strategies as st

from companion.domain.money import CURRENCIES, decimals, format_amount, parse_amount, symbol


@pytest.mark.parametrize("minor, code, text", [
    (340, "EUR", "€3.40"),
    (-340, "EUR", "-€3.40"),
    (0, "EUR", "€0.00"),
    (5, "EUR", "€0.05"),
    (-5, "EUR", "-€0.05"),
    (123456789, "EUR", "€1,234,567.89"),
    (1200, "USD", "$12.00"),
    (105, "GBP", "£1.05"),
    (-1200, "JPY", "-¥1,200"),
    (999, "JPY", "¥999"),
    (1000000, "JPY", "¥1,000,000"),
    (340, "CHF", "CHF 3.40"),
    (-340, "CHF", "-CHF 3.40"),
    (340, "SEK", "3.40 kr"),
    (150000, "MXN", "MX$1,500.00"),
    (2500, "HNL", "L25.00"),
    (2500, "NIO", "C$25.00"),
    (99999, "ARS", "AR$999.99"),
    (1234, "KWD", "KWD 1.234"),
    (340, "XYZ", "3.40 XYZ"),
    (-123456, "XYZ", "-1,234.56 XYZ"),
    (340, "eur", "€3.40"),
    (340, " usd ", "$3.40"),
])
def test_format_table(minor, code, text):
    assert format_amount(minor, code) == text


def test_format_plus_sign():
    assert format_amount(340, "EUR", plus=True) == "+€3.40"
    assert format_amount(-340, "EUR", plus=True) == "-€3.40"
    assert format_amount(0, "EUR", plus=True) == "€0.00"


@pytest.mark.parametrize("bad", [3.4, "340", None, True])
def test_format_refuses_non_integers(bad):
    with pytest.raises(ValueError):
        format_amount(bad, "EUR")


@pytest.mark.parametrize("code", ["EU", "EURO", "", "€", "E1R", None])
def test_bad_currency_code(code):
    with pytest.raises(ValueError, match="three letters"):
        format_amount(1, code)


def test_table_basics():
    for code in ("EUR", "USD", "GBP", "JPY", "CHF", "MXN", "HNL", "NIO", "ARS"):
        assert code in CURRENCIES
    assert decimals("JPY") == 0 and decimals("EUR") == 2 and decimals("KWD") == 3 and decimals("QQQ") == 2
    assert symbol("EUR") == "€" and symbol("QQQ") == "QQQ"
    assert all(c.style in ("prefix", "prefix_space", "suffix_space") for c in CURRENCIES.values())
    assert all(code == c.code and len(code) == 3 for code, c in CURRENCIES.items())


@pytest.mark.parametrize("text, code, minor", [
    ("3.40", "EUR", 340),
    ("3,40", "EUR", 340),
    ("3.4", "EUR", 340),
    ("3", "EUR", 300),
    ("0.05", "EUR", 5),
    (".5", "EUR", 50),
    ("  3.40 ", "EUR", 340),
    ("-3.40", "EUR", -340),
    ("+3.40", "EUR", 340),
    ("−3,40", "EUR", -340),         # U+2212 minus sign
    ("€3.40", "EUR", 340),
    ("-€3.40", "EUR", -340),
    ("€-3.40", "EUR", -340),
    ("3,40 €", "EUR", 340),
    ("3.40 eur", "EUR", 340),
    ("1,234.50", "EUR", 123450),
    ("1.234,50", "EUR", 123450),
    ("1 234,50", "EUR", 123450),
    ("1,234,567", "EUR", 123456700),
    ("1.000.000", "EUR", 100000000),
    ("3.400", "KWD", 3400),
    ("1,200", "JPY", 1200),
    ("¥1,200", "JPY", 1200),
    ("-¥1,200", "JPY", -1200),
    ("1200", "JPY", 1200),
    ("12.00", "JPY", 12),            # zero decimals are harmless
    ("3.40", "EUR", 340),
    ("$3", "MXN", 300),
    ("MX$1,500.00", "MXN", 150000),
    ("CHF 3.40", "CHF", 340),
    ("1'234.50", "CHF", 123450),
    ("3.40 XYZ", "XYZ", 340),
    ("3.40", "xyz", 340),
])
def test_parse_table(text, code, minor):
    assert parse_amount(text, code) == minor


@pytest.mark.parametrize("text, code, message", [
    ("", "EUR", "Enter an amount"),
    ("   ", "EUR", "Enter an amount"),
    ("abc", "EUR", "Not an amount"),
    ("1e5", "EUR", "Not an amount"),
    ("3.40.5", "EUR", "Not an amount"),
    ("1,23,4", "EUR", "grouped by three"),
    ("12,34.50", "EUR", "grouped by three"),
    ("--3", "EUR", "Not an amount"),
    ("-", "EUR", "Not an amount"),
    ("€", "EUR", "Not an amount"),
    ("3.405", "EUR", "Ambiguous"),
    ("1.000", "EUR", "Ambiguous"),
    ("3.401", "EUR", "Ambiguous"),
    ("3.4051", "EUR", "at most 2 decimals"),
    ("1.5", "JPY", "no decimals"),
    ("$3.40", "EUR", "Not an amount"),
    ("٣", "EUR", "Not an amount"),      # only ASCII digits
    ("3.40", "EU", "three letters"),
])
def test_parse_errors(text, code, message):
    with pytest.raises(ValueError, match=message):
        parse_amount(text, code)


def test_parse_refuses_non_strings():
    with pytest.raises(ValueError):
        parse_amount(340, "EUR")


@given(st.integers(-10**12, 10**12), st.sampled_from(sorted(CURRENCIES) + ["XYZ"]))
def test_format_then_parse_round_trips(minor, code):
    assert parse_amount(format_amount(minor, code), code) == minor
