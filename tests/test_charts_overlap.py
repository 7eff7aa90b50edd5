"""Charts: two players with identical lines both stay visible (issue 16)."""
import re

from companion.domain.charts import OVERLAP_GAP, line_chart, overlap_offsets


def _lines(svg: str) -> list[list[tuple[float, float]]]:
    return [[tuple(map(float, p.split(","))) for p in pts.split()] for pts in re.findall(r'<polyline points="([^"]+)"', svg)]


def test_identical_lines_are_drawn_side_by_side():
    svg = line_chart("c", "Net", ["1", "2", "3"], [{"name": "Ane", "values": [0, 5, 10]},
                                                   {"name": "Bea", "values": [0, 5, 10]}])
    a, b = _lines(svg)
    assert all(abs(pa[1] - pb[1]) == OVERLAP_GAP and pa[0] == pb[0] for pa, pb in zip(a, b))


def test_lines_apart_are_not_moved_and_a_shared_point_is_spread_around_its_value():
    assert overlap_offsets([[1, 2, 3], [4, 5, 6]]) == [[0, 0, 0], [0, 0, 0]]
    got = overlap_offsets([[1, 2, None], [1, 7, 3], [1, 2, 3]])
    assert got[0][0] + got[1][0] + got[2][0] == 0 and len({got[0][0], got[1][0], got[2][0]}) == 3
    assert got[1][1] == 0 and got[0][1] == -got[2][1] != 0       # two share 2; the third is alone at 7
    assert got[0][2] == 0 and got[1][2] == -got[2][2] != 0       # a gap (None) shares nothing
