"""A table's label follows the one text policy (companion.domain.text): what the room reads is what is there."""
import pytest

from companion.club.shape import clean_label
from companion.domain.errors import RuleError


@pytest.mark.parametrize("raw, want", [("3", "3"), ("  Terraza  ", "Terraza"), ("Mesa\u0301 2", "Mesá 2"),
                                       ("🂡 1", "🂡 1")])
def test_a_label_is_trimmed_and_normalized(raw, want):
    assert clean_label(raw) == want


@pytest.mark.parametrize("raw", ["3\u202e", "\u200b", "\u3164", "\u2800", "T\u0001", "x" * 21, "", "   "])
def test_a_hidden_blank_or_long_label_is_refused_with_its_path(raw):
    with pytest.raises(RuleError) as err:
        clean_label(raw, "games[0].table")
    assert err.value.path == "games[0].table"
