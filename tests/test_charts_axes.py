"""The x axis of the history charts: every hand labelled when the labels fit, else a regular subset (every
2nd, 5th, 10th... hand) that always has the first and the last; at most 8 labels, none overlapping, in the
320-unit viewBox the SVG scales to on a 360 px (or 320 px) phone."""
import re
from html import unescape
from itertools import pairwise

import pytest

from companion.domain import charts

X_LABEL = re.compile(r'<text class="x-label" x="([\d.]+)" y="[\d.]+" text-anchor="(\w+)"[^>]*>([^<]*)</text>')


def _hands(n: int, end: bool = False) -> list[str]:
    """The labels the kinds give: the start, one per hand, and an end when the game shared its table."""
    return ["start"] + [f"H{i}" for i in range(1, n + 1)] + (["end"] if end else [])


def _drawn(labels: list[str], values=None, fmt=None) -> list[tuple[int, float, str]]:
    """(index, x, anchor) of every x label the chart writes, left to right."""
    values = values or [(i * 7) % 41 for i in range(len(labels))]
    html = charts.line_chart("c", "t", labels, [{"name": "Ane", "values": values}], fmt=fmt)
    where = {label: i for i, label in enumerate(labels)}
    return [(where[unescape(text)], float(x), anchor) for x, anchor, text in X_LABEL.findall(html)]


def _extent(x: float, anchor: str, label: str) -> tuple[float, float]:
    w = charts._text_width(label)
    return {"start": (x, x + w), "end": (x - w, x), "middle": (x - w / 2, x + w / 2)}[anchor]


def _check(labels: list[str], drawn) -> list[int]:
    picks = [i for i, _, _ in drawn]
    assert picks == sorted(set(picks)), "labels are drawn once each, left to right"
    assert picks[0] == 0 and picks[-1] == len(labels) - 1, "the first and the last are always labelled"
    assert len(picks) <= charts.X_LABELS_MAX
    # every gap but the last is one constant step; the last one may only be longer (never a squeezed label)
    steps = [b - a for a, b in pairwise(picks)]
    if len(steps) > 1:
        assert len(set(steps[:-1])) == 1 and steps[-1] >= 1
        assert steps[-1] < 2 * steps[0]
    for (i, x, anchor), (j, x2, anchor2) in pairwise(drawn):
        right = _extent(x, anchor, labels[i])[1]
        left = _extent(x2, anchor2, labels[j])[0]
        assert right < left, f"labels {labels[i]!r} and {labels[j]!r} overlap"
    assert all(0 <= _extent(x, a, labels[i])[0] and _extent(x, a, labels[i])[1] <= charts.WIDTH
               for i, x, a in drawn), "every label inside the viewBox"
    return picks


@pytest.mark.parametrize("hands", [1, 7, 30, 200])
def test_labelled_hands_are_regular_with_the_first_and_the_last(hands):
    labels = _hands(hands)
    picks = _check(labels, _drawn(labels))
    steps = {b - a for a, b in pairwise(picks)}
    assert len(steps) == 1, f"{hands} hands: labelled at {picks}"
    assert steps.pop() in (1, 2, 5, 10, 20, 25, 50, 100)


def test_few_hands_are_all_labelled():
    for hands in (1, 2, 5, 7):
        labels = _hands(hands)
        assert [i for i, _, _ in _drawn(labels)] == list(range(len(labels)))


def test_the_steps_chosen():
    assert [i for i, _, _ in _drawn(_hands(30))] == [0, 5, 10, 15, 20, 25, 30]
    assert [i for i, _, _ in _drawn(_hands(200))] == [0, 50, 100, 150, 200]


@pytest.mark.parametrize("end", [False, True])
def test_any_number_of_hands_gives_a_regular_readable_axis(end):
    for hands in range(1, 260):
        labels = _hands(hands, end=end)
        _check(labels, _drawn(labels))


def test_wide_y_labels_leave_less_room_and_still_no_overlap():
    # money on the y axis takes more of the width: fewer x labels, still regular
    def money(v):
        return f"€{v / 100:,.2f}"

    for hands in (7, 13, 30, 64, 200):
        labels = _hands(hands)
        _check(labels, _drawn(labels, values=[i * 99_999 for i in range(len(labels))], fmt=money))


def test_long_labels_such_as_dates():
    labels = ["start"] + [f"2026-{m:02d}-{d:02d}" for m in range(1, 5) for d in (3, 17)]
    picks = _check(labels, _drawn(labels))
    assert len(picks) < len(labels)
    wide = ["始まり"] + [f"第{i}局" for i in range(1, 41)]
    _check(wide, _drawn(wide))


def test_every_label_has_a_tick_under_its_point():
    labels = _hands(30)
    html = charts.line_chart("c", "t", labels, [{"name": "Ane", "values": list(range(31))}])
    xs = {x for _, x, _ in _drawn(labels)}
    base = charts.HEIGHT - charts.BOTTOM
    ticks = {float(x) for x, x2 in re.findall(rf'<line x1="([\d.]+)" y1="{base}" x2="([\d.]+)" y2="{base + 4}"', html)
             if x == x2}
    assert ticks == xs
