"""The text policy's new parts (issue 30 point 5): default-ignorable code points refused inside names,
look-alike names flagged through the UTS #39 skeleton over Unicode's confusables.txt, table labels that are
one URL path segment (and how a URL names a label stored before that rule)."""
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.domain import text
from companion.web.club_links import label_of, segment

LATIN_TO_CYRILLIC = {"a": "\u0430", "e": "\u0435", "o": "\u043e", "p": "\u0440", "c": "\u0441", "x": "\u0445"}
IGNORABLE = [chr(o) for lo, hi in text.DEFAULT_IGNORABLE for o in range(lo, min(hi, lo + 40) + 1)] + \
    [chr(0xE0100), chr(0xE01EF)]


def test_the_confusables_table_is_unicodes():
    table = text._prototypes()
    assert text.CONFUSABLES_VERSION.split(".")[0].isdigit() and int(text.CONFUSABLES_VERSION.split(".")[0]) >= 13
    assert len(table) > 6000
    assert table["\u0430"] == "a" and table["\u0410"] == "A" and table["\u0131"] == "i"


@given(st.text(st.sampled_from("abcdefghijklmnopqrstuvwxyz"), min_size=2, max_size=12), st.data())
def test_a_latin_name_with_cyrillic_look_alikes_is_flagged(name, data):
    swap = [i for i, c in enumerate(name) if c in LATIN_TO_CYRILLIC]
    if not swap:
        return
    i = data.draw(st.sampled_from(swap))
    other = name[:i] + LATIN_TO_CYRILLIC[name[i]] + name[i + 1:]
    assert text.look_alike(other, [name]) == name
    assert text.look_alike(name, [other]) == other
    assert text.look_alike(name, [name]) is None          # the same text is the store's to refuse, not this


@given(st.text(min_size=1, max_size=8), st.text(min_size=1, max_size=8))
def test_look_alike_is_symmetric(a, b):
    assert (text.look_alike(a, [b]) is None) == (text.look_alike(b, [a]) is None)


@given(st.sampled_from(IGNORABLE), st.text(st.sampled_from("ABCabcñé"), min_size=1, max_size=4),
       st.text(st.sampled_from("ABCabcñé"), min_size=1, max_size=4))
def test_a_default_ignorable_between_letters_is_refused(c, left, right):
    cleaned, bad = text.check(left + c + right)
    assert bad is not None


@pytest.mark.parametrize("name", ["❤️", "1️⃣", "🏳️‍🌈", "©️", "‼️", "ℹ️", "葛\U000E0100", "👩‍💻", "Iñaki", "佐藤"])
def test_selectors_that_select_are_accepted(name):
    assert text.check(name)[1] is None


@pytest.mark.parametrize("name", ["A\ufe0fB", "A\U000E0100B", "1\ufe0f", "Ane\ufe0e", "\ufe0fA", "A\u180bB"])
def test_selectors_that_select_nothing_are_refused(name):
    assert text.check(name)[1] is not None


@given(st.text(min_size=1, max_size=20))
def test_every_label_has_a_segment_that_names_it(label):
    seg = segment(label)
    assert label_of(seg) == label
    assert "/" not in seg and seg not in (".", "..")
    if text.safe_segment(label):
        assert seg == label


@given(st.text(max_size=20))
def test_a_safe_segment_is_one_path_segment_with_ascii_digits(label):
    if text.safe_segment(label):
        assert "/" not in label and "\\" not in label and label not in (".", "..") and not label.startswith("~")
        assert all(c.isascii() or not c.isdigit() for c in label)
        assert all(unicodedata.digit(c, None) is None or c.isascii() for c in label)
