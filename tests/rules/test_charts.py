"""Server-drawn SVG charts: well-formed, no style attributes (CSP), escaped, with a complete table."""
import re
import xml.etree.ElementTree as ET


from companion import kinds
from companion.domain import charts
from companion.record import session as S
from companion.domain.messages import render

SVG = "{http://www.w3.org/2000/svg}"


def _figure(html: str) -> ET.Element:
    # the figure is HTML, but written as well-formed XML: parse it to check its structure
    return ET.fromstring(html.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1)
                         .replace("<svg class=\"swatch\"", "<svg class=\"swatch\""))


def test_nice_ticks_cover_the_range_with_round_steps():
    assert charts.nice_ticks(0, 40) == [0, 10, 20, 30, 40]
    ticks = charts.nice_ticks(-60, 65)
    assert ticks[0] <= -60 and ticks[-1] >= 65
    steps = {round(b - a, 6) for a, b in zip(ticks, ticks[1:])}
    assert len(steps) == 1 and steps.pop() in (10, 20, 25, 50, 100)
    assert charts.nice_ticks(5, 5)[0] <= 5 <= charts.nice_ticks(5, 5)[-1]
    assert charts.nice_ticks(0, 3) == [0, 1, 2, 3]


def test_line_chart_is_well_formed_escaped_and_style_free():
    html = charts.line_chart("c1", "Score <&>", ["start", "H1", "H2"],
                             [{"name": "Ane <script>", "values": [0, 5, 12]},
                              {"name": "Bea", "values": [0, None, 3]}],
                             reference={"value": 40, "label": "40 to win"}, unit="points")
    assert "style=" not in html and "<script" not in html
    assert "&lt;script&gt;" in html
    root = _figure(html)
    svg = root.find(f"{SVG}svg")
    assert svg is not None and svg.get("role") == "img" and svg.get("viewBox") == "0 0 320 200"
    assert svg.find(f"{SVG}title").text == "Score <&>"
    desc = svg.find(f"{SVG}desc").text
    assert "ends at 12" in desc and "ends at 3" in desc
    # the table: one row per x label, one column per series
    table = root.find(".//table")
    rows = table.findall("./tbody/tr")
    assert [r.find("th").text for r in rows] == ["start", "H1", "H2"]
    assert [td.text for td in rows[1].findall("td")] == ["5", "–"]
    # Bea's None breaks her line: no polyline of hers joins H0 to H2
    polylines = svg.findall(f".//{SVG}polyline")
    assert len(polylines) == 1  # Ane's; Bea has two single points, no segment


def test_every_coordinate_stays_inside_the_viewbox():
    html = charts.line_chart("c2", "t", [str(i) for i in range(60)],
                             [{"name": f"P{k}", "values": [((i * (k + 3)) % 17) - 8 for i in range(60)]}
                              for k in range(8)])
    numbers = [float(x) for x in re.findall(r'(?:points|cx|cy|x1|x2|y1|y2)="([^"]+)"', html)
               for x in re.split(r"[ ,]", x) if x]
    assert numbers and all(-1 <= v <= 321 for v in numbers)
    # markers are left out when a line has too many points (only the last point is marked)
    assert html.count("<circle") < 60


def test_custom_formatter_writes_money():
    html = charts.line_chart("m", "Net", ["start", "a"], [{"name": "Net", "values": [0, 470]}],
                             fmt=lambda v: f"€{v / 100:.2f}")
    assert "€4.70" in html and "€0.00" in html


def _mus_session():
    return S.load({"format": S.FORMAT, "name": "N", "players": ["Ane", "Bea", "Carlos", "Dani"], "games": [
        {"kind": "mus", "rules": {"preset": "pagat", "target": 40}, "seats": ["Ane", "Bea", "Carlos", "Dani"],
         "hands": [{"tally": [{"team": "A", "points": 30}]}, {"tally": [{"team": "B", "points": 12}]},
                   {"tally": [{"team": "A", "points": 10}]}, {"tally": [{"team": "B", "points": 2}]}]}]})


def test_mus_charts_one_per_game_from_the_hands():
    rec = _mus_session().games[0]
    groups = kinds.KINDS["mus"].history(rec)
    out = [g["chart"] for g in groups]
    assert [[render(x) for x in c["x_labels"]] for c in out] == [["start", "H1", "H2", "H3"], ["start", "H4"]]
    assert out[0]["series"][0]["values"] == [0, 30, 30, 40]
    assert out[0]["series"][1]["values"] == [0, 0, 12, 12]
    assert render(out[0]["title"]).startswith("Game 1: A 40 – 12 B (A won")
    assert out[0]["reference"]["value"] == 40
    assert out[0]["series"][0]["name"] == "A: Ane & Carlos"
    html = charts.line_chart("g1", render(out[0]["title"]), [render(x) for x in out[0]["x_labels"]],
                             out[0]["series"], reference={"value": 40, "label": render(out[0]["reference"]["label"])})
    assert "40 to win" in html


def test_chip_chart_ends_where_the_engine_ends():
    sess = S.load({"format": S.FORMAT, "name": "N", "players": ["Ane", "Bea", "Carlos"], "games": [
        {"kind": "desmoche", "rules": {"variant": "desmoche", "stake": 10, "bonuses": True},
         "seats": ["Ane", "Bea", "Carlos"], "unit_value": 10,
         "hands": [{"winner": None}, {"winner": "Bea", "mico": 1, "arriba": ["Carlos"]}]}]})
    rec = sess.games[0]
    chart = kinds.KINDS["desmoche"].history(rec)[0]["chart"]
    state = S.state_of(sess)["games"][0]
    assert render(chart["x_labels"][0]) == "start" and render(chart["x_labels"][1]) == "H1"
    for s in chart["series"]:
        assert s["values"][0] == 0
        assert s["values"][-1] == state["net"][s["name"]]


def test_newmarket_chip_chart_starts_at_the_start_chips():
    seats = ["Ane", "Bea", "Carlos"]
    sess = S.load({"format": S.FORMAT, "name": "N", "players": seats, "games": [{
        "kind": "newmarket", "rules": {"variant": "classic"}, "seats": seats, "start_chips": 20,
        "chip_value": 10, "deals": [{"boodles_won": [{"card": "KC", "by": "Carlos"}], "out": "Bea",
                                     "cards_left": {"Ane": 3, "Carlos": 5}}], "ended": True}]})
    chart = kinds.KINDS["newmarket"].history(sess.games[0])[0]["chart"]
    state = S.state_of(sess)["games"][0]
    for s in chart["series"]:
        assert s["values"][0] == 20
        assert s["values"][-1] == state["chips"][s["name"]]


def test_whole_numbers_get_whole_ticks():
    # a flat line of chips at 0 used to get ticks at -0.5 and 0.5 chips
    assert charts.nice_ticks(-1, 1, integer=True) == [-1, 0, 1]
    assert all(float(t).is_integer() for t in charts.nice_ticks(0, 3, integer=True))
    html = charts.line_chart("z", "Flat", ["start", "H1"], [{"name": "Ane", "values": [0, 0]}])
    y_labels = re.findall(r'text-anchor="end" fill="currentColor">([^<]*)</text>', html)
    assert y_labels and not any("." in label for label in y_labels), y_labels


def test_a_chip_game_with_nothing_recorded_has_no_chart():
    sess = S.load({"format": S.FORMAT, "name": "N", "players": ["Ane", "Bea"], "games": [
        {"kind": "desmoche", "rules": {"stake": 1}, "seats": ["Ane", "Bea"]}]})
    assert kinds.KINDS["desmoche"].history(sess.games[0])[0]["chart"] is None


def test_huge_values_still_get_ticks():
    # a night of the largest amounts allowed (the player page's net chart) used to raise IndexError
    for hi in (10 ** 15, 9 * 10 ** 18, 10 ** 300):
        ticks = charts.nice_ticks(0, hi, integer=True)
        assert ticks and ticks[0] <= 0 and ticks[-1] >= hi
    assert "<svg" in charts.line_chart("big", "Big", ["a", "b"], [{"name": "x", "values": [0, 10 ** 16]}])
