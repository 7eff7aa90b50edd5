"""The one number reader (companion/domain/numbers.py): ASCII digits within bounds, everything else refused
with a reason, never an exception other than NumberRefused (a ValueError)."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.domain import numbers
from companion.domain.numbers import NumberRefused, parse_int

UNICODE_DIGITS = st.characters(categories=["Nd", "No", "Nl"]).filter(lambda c: not "0" <= c <= "9")


@pytest.mark.parametrize("text", ["²", "٣", "３", "①", "1_000", " 1", "1 ", "1.0", "0x10", "+", "-", "", "1e3",
                                  "１２", "12²", "\u00a05", "٠"])
def test_anything_but_ascii_digits_is_refused(text):
    with pytest.raises(NumberRefused):
        parse_int(text, signed=True)


def test_bounds_and_signs():
    assert parse_int("007", 0, 10) == 7
    assert parse_int("-3", -5, 5, signed=True) == -3
    assert parse_int("+3", -5, 5, signed=True) == 3
    with pytest.raises(NumberRefused) as err:
        parse_int("-3", 0, 5)
    assert err.value.reason == "not_int"          # no sign where the field has none
    with pytest.raises(NumberRefused) as err:
        parse_int("6", 0, 5)
    assert err.value.reason == "large"
    with pytest.raises(NumberRefused) as err:
        parse_int("-6", -5, 5, signed=True)
    assert err.value.reason == "small"


def test_five_thousand_digits_are_too_large_without_converting():
    with pytest.raises(NumberRefused) as err:
        parse_int("9" * 5000)
    assert err.value.reason == "large"
    with pytest.raises(NumberRefused) as err:
        parse_int("-" + "9" * 5000, signed=True)
    assert err.value.reason == "small"
    assert parse_int("0" * 5000 + "7", 0, 9) == 7           # leading zeros are not size


@given(st.integers(-10**17, 10**17))
def test_every_ascii_integer_reads_back(n):
    assert parse_int(str(n), signed=True) == n
    assert parse_int(f"+{n}" if n >= 0 else str(n), signed=True) == n


@given(st.text(st.one_of(UNICODE_DIGITS, st.sampled_from("0123456789+- _\t.,")), max_size=30))
def test_only_ascii_digit_texts_parse_and_nothing_else_raises(text):
    try:
        value = parse_int(text, -10**6, 10**6, signed=True)
    except NumberRefused as err:
        assert err.reason in ("blank", "not_int", "small", "large")
        assert isinstance(err, ValueError)
    else:
        assert all(c in "0123456789+-" for c in text) and value == int(text)


@given(st.text(max_size=40))
def test_int_or_none_is_werkzeugs_type(text):
    """``args.get(name, type=int_or_none)``: a refusal is a ValueError (Werkzeug gives the default)."""
    try:
        value = numbers.int_or_none(text)
    except ValueError:
        return
    assert text.isascii() and text.isdigit() and value == int(text)
