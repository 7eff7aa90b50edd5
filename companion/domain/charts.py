"""Line charts drawn on the server as inline SVG, each with a text alternative (a table). Pure: no Flask.

The strict CSP forbids inline ``style`` and scripts, so the SVG uses presentation attributes only
(``stroke=``, ``fill=``, ``stroke-dasharray=``); text and grid lines use ``currentColor`` so that the
chart follows the page's light or dark colours. Every series also differs by its dash pattern and its
marker shape, not by colour alone, and lines that share values are drawn side by side (never one hidden
under another). The drawing is sized for a 360 px phone: the viewBox is 320 units
wide and the SVG scales to the card's width (the table scrolls inside its own box when it is wider).

``line_chart(chart_id, title, x_labels, series, ...) -> str``  one ``<figure>`` (HTML text, escaped)
``nice_ticks(low, high, count=5) -> list[float]``
``x_label_indices(x_labels, plot_w) -> list[int]``  which x labels are written (regular, never overlapping)
What to draw is each game kind's (``Kind.history``): this module only draws. Its own words (the text
alternative) are messages, written by ``say`` (English by default; a page passes its reader's renderer).
"""
from __future__ import annotations

import math
import unicodedata
from html import escape
from itertools import pairwise

from companion.domain.messages import N_, define, render

__all__ = ["line_chart", "nice_ticks", "x_label_indices", "overlap_offsets", "PALETTE"]

WIDTH, HEIGHT = 320, 200
TOP, BOTTOM, RIGHT = 12, 30, 10
FONT = 12
PALETTE = ["#2f6fd6", "#d33c32", "#16884a", "#8d52c9", "#d07a00", "#0e8a9a", "#c2397f", "#7a6a55"]
DASHES = ["", "7 4", "2 4", "10 3 2 3", "4 2", "12 4", "1 3", "6 2 2 2"]
MAX_MARKERS = 30  # beyond this many points per line, markers would only clutter

define("chart", {
    "line": N_("%(name)s ends at %(value)s (highest %(high)s, lowest %(low)s)"),
    "line_unit": N_("%(name)s ends at %(value)s %(unit)s (highest %(high)s, lowest %(low)s)"),
    "lines": N_("from %(first)s to %(last)s: %(lines)s."),
    "lines_only": N_("%(lines)s."),
    "no_data": N_("No data."),
    "numbers": N_("The numbers behind the chart"),
})


def _fmt(value: float) -> str:
    """A number for labels and tables: integers without decimals, others with at most 2."""
    if value is None:
        return "–"
    if float(value).is_integer():
        return f"{int(value):,}".replace(",", "\u2009")
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _num(value: float) -> str:
    """A coordinate: short, no exponent."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def nice_ticks(low: float, high: float, count: int = 5, integer: bool = False) -> list[float]:
    """Round tick values covering [low, high] (1, 2, 5 × a power of ten), about ``count`` of them.
    ``integer``: whole steps only (chips, points, cents: a tick at 0.5 chips means nothing)."""
    if low > high:
        low, high = high, low
    if low == high:
        low, high = low - 1, high + 1
    raw = (high - low) / max(count - 1, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    if step >= 1 or integer:
        step = max(1, round(step))
    start = math.floor(low / step) * step
    ticks = []
    value = start
    while value < high + step * 0.5:
        ticks.append(round(value, 6))
        if value >= high:
            break
        value += step
    if ticks[-1] < high:
        ticks.append(round(ticks[-1] + step, 6))
    return ticks


def _marker(shape: int, x: float, y: float, color: str) -> str:
    x, y = float(x), float(y)
    if shape == 0:
        return f'<circle cx="{_num(x)}" cy="{_num(y)}" r="3" fill="{color}"/>'
    if shape == 1:
        return f'<rect x="{_num(x - 3)}" y="{_num(y - 3)}" width="6" height="6" fill="{color}"/>'
    if shape == 2:
        pts = f"{_num(x)},{_num(y - 4)} {_num(x + 4)},{_num(y + 3)} {_num(x - 4)},{_num(y + 3)}"
        return f'<polygon points="{pts}" fill="{color}"/>'
    if shape == 3:
        pts = f"{_num(x)},{_num(y - 4)} {_num(x + 4)},{_num(y)} {_num(x)},{_num(y + 4)} {_num(x - 4)},{_num(y)}"
        return f'<polygon points="{pts}" fill="{color}"/>'
    if shape == 4:
        return (f'<circle cx="{_num(x)}" cy="{_num(y)}" r="3" fill="none" stroke="{color}" '
                f'stroke-width="1.5"/>')
    if shape == 5:
        return (f'<rect x="{_num(x - 3)}" y="{_num(y - 3)}" width="6" height="6" fill="none" '
                f'stroke="{color}" stroke-width="1.5"/>')
    if shape == 6:
        pts = f"{_num(x)},{_num(y + 4)} {_num(x + 4)},{_num(y - 3)} {_num(x - 4)},{_num(y - 3)}"
        return f'<polygon points="{pts}" fill="{color}"/>'
    return (f'<path d="M{_num(x - 3)} {_num(y - 3)}L{_num(x + 3)} {_num(y + 3)}M{_num(x - 3)} {_num(y + 3)}'
            f'L{_num(x + 3)} {_num(y - 3)}" stroke="{color}" stroke-width="1.5"/>')


def _style(index: int, color: str | None) -> tuple[str, str, int]:
    return color or PALETTE[index % len(PALETTE)], DASHES[index % len(DASHES)], index % 8


X_LABELS_MAX = 8  # x labels at most: a 360 px phone reads about that many short labels under a chart
X_GAP = 4  # viewBox units kept free between two x labels


NARROW = frozenset("fijlrtI.,:;'!|() ")


def _text_width(text: str) -> float:
    """About how wide a label is drawn, in viewBox units at FONT 12, measured on a wide sans (DejaVu Sans;
    Roboto and San Francisco are narrower): an overestimate only drops a label, an underestimate overlaps."""
    width = 0.0
    for c in text:
        if unicodedata.east_asian_width(c) in "WF":
            width += 12
        elif c in NARROW:
            width += 4.2
        elif c.isdigit():
            width += 7.7
        elif c.isupper() or c in "mwMW—":
            width += 10 if c in "mwMW—" else 8.6
        else:
            width += 7.2
    return width


def _x_steps():
    """1, 2, 5, 10, 20, 25, 50, 100, 200, 250...: "every 5th hand" reads as a rhythm, "every 7th" not."""
    yield from (1, 2, 5)
    power = 10
    while True:
        yield from (power, 2 * power, 5 * power // 2, 5 * power)
        power *= 10


def x_label_indices(labels: list[str], plot_w: float) -> list[int]:
    """Which x labels to write: every one when they fit, else every ``step``-th from the first (step 2, 5,
    10, 20, 25, 50, 100...), and always the last; at most X_LABELS_MAX, none overlapping. Only the last gap
    may differ from the step (the last regular label is dropped when it would touch the last one).

    Overlap is worked out in viewBox units, so it holds at any width the SVG is scaled to: the first label
    is drawn from its point to the right, the last one ends at its point, the others are centred."""
    n = len(labels)
    if n <= 2:
        return list(range(n))
    unit = plot_w / (n - 1)
    widths = [_text_width(x) for x in labels]

    def span(i: int) -> tuple[float, float]:
        x = i * unit
        if i == 0:
            return x, x + widths[i]
        if i == n - 1:
            return x - widths[i], x
        return x - widths[i] / 2, x + widths[i] / 2

    def clear(a: int, b: int) -> bool:
        return span(a)[1] + X_GAP <= span(b)[0]

    for step in _x_steps():
        if step >= n - 1:
            break
        picks = list(range(0, n, step))
        if picks[-1] != n - 1:
            if not clear(picks[-1], n - 1):
                picks.pop()
            picks.append(n - 1)
        if len(picks) <= X_LABELS_MAX and all(clear(a, b) for a, b in pairwise(picks)):
            return picks
    return [0, n - 1]


OVERLAP_GAP = 3.0  # viewBox units between two lines drawn side by side where they share a value


def overlap_offsets(values: list[list]) -> list[list[float]]:
    """A vertical offset per series and point: 0 where a line is alone at its value; where k lines share a
    value, spread them OVERLAP_GAP apart around it (in series order), so that identical lines stay visible."""
    out = [[0.0] * len(v) for v in values]
    width = max((len(v) for v in values), default=0)
    for i in range(width):
        groups: dict = {}
        for k, v in enumerate(values):
            if i < len(v) and v[i] is not None:
                groups.setdefault(v[i], []).append(k)
        for members in groups.values():
            if len(members) > 1:
                for rank, k in enumerate(members):
                    out[k][i] = (rank - (len(members) - 1) / 2) * OVERLAP_GAP
    return out


def _summary(series: list[dict], x_labels: list[str], unit: str, fmt, say=render) -> str:
    parts = []
    for s in series:
        values = [v for v in s["values"] if v is not None]
        if not values:
            continue
        words = {"name": s["name"], "value": fmt(values[-1]), "high": fmt(max(values)), "low": fmt(min(values))}
        parts.append(say({"code": "chart.line_unit", **words, "unit": unit} if unit else {"code": "chart.line", **words}))
    if not parts:
        return say({"code": "chart.no_data"})
    if not x_labels:
        return say({"code": "chart.lines_only", "lines": "; ".join(parts)})
    return say({"code": "chart.lines", "first": x_labels[0], "last": x_labels[-1], "lines": "; ".join(parts)})


def line_chart(chart_id: str, title: str, x_labels: list[str], series: list[dict], *,
               reference: dict | None = None, unit: str = "", caption: str | None = None,
               fmt=None, say=render) -> str:
    """One figure: the SVG chart, its legend, and a table of every value (the text alternative).

    ``series``: ``[{"name": str, "values": [number | None, ...] (one per x label), "color": "#hex"?}]``;
    a None value breaks the line. ``reference``: ``{"value": n, "label": "target 40"}`` drawn as a dashed
    horizontal line. ``chart_id`` must be unique in the page (ids of the title, description, table).
    ``fmt``: how a value is written (axis, legend, table), e.g. money from minor units; default: numbers.
    ``say``: writes the chart's own words (a message -> text); default: English.
    """
    fmt = fmt or _fmt
    cid = escape(chart_id, quote=True)
    n = len(x_labels)
    values = [v for s in series for v in s["values"] if v is not None]
    if reference is not None:
        values.append(reference["value"])
    if not values:
        values = [0]
    whole = all(isinstance(v, int) for v in values)
    ticks = nice_ticks(min(min(values), 0), max(values), integer=whole)
    y_lo, y_hi = ticks[0], ticks[-1]
    tick_text = [fmt(t) for t in ticks]
    left = max(len(t) for t in tick_text) * 7 + 8
    plot_w = WIDTH - left - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM

    def px(i: int) -> float:
        return left + (plot_w * i / (n - 1) if n > 1 else plot_w / 2)

    def py(v: float) -> float:
        return TOP + plot_h * (1 - (v - y_lo) / ((y_hi - y_lo) or 1))

    out = [f'<figure class="chart" id="{cid}">',
           f'<figcaption class="chart-title">{escape(caption or title)}</figcaption>',
           f'<svg class="chart-svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="100%" role="img" '
           f'aria-labelledby="{cid}-t {cid}-d" font-size="{FONT}" font-family="system-ui, sans-serif">',
           f'<title id="{cid}-t">{escape(title)}</title>',
           f'<desc id="{cid}-d">{escape(_summary(series, x_labels, unit, fmt, say))}</desc>']
    # grid and y labels
    for t, text in zip(ticks, tick_text):
        y = py(t)
        zero = t == 0 and y_lo < 0
        out.append(f'<line x1="{_num(left)}" y1="{_num(y)}" x2="{_num(WIDTH - RIGHT)}" y2="{_num(y)}" '
                   f'stroke="currentColor" stroke-opacity="{0.5 if zero else 0.15}" stroke-width="1"/>')
        out.append(f'<text x="{_num(left - 5)}" y="{_num(y + 4)}" text-anchor="end" fill="currentColor">'
                   f'{escape(text)}</text>')
    # x labels: every one that fits, else a regular subset with the first and the last; a short tick
    # under the axis shows which point each label names
    for i in x_label_indices(x_labels, plot_w):
        x = px(i)
        anchor = "middle"
        if n > 1 and i == 0:
            anchor = "start"
        elif n > 1 and i == n - 1:
            anchor = "end"
        out.append(f'<line x1="{_num(x)}" y1="{_num(TOP + plot_h)}" x2="{_num(x)}" y2="{_num(TOP + plot_h + 4)}" '
                   f'stroke="currentColor" stroke-opacity="0.4"/>')
        out.append(f'<text class="x-label" x="{_num(x)}" y="{_num(HEIGHT - 10)}" text-anchor="{anchor}" '
                   f'fill="currentColor" fill-opacity="0.8">{escape(x_labels[i])}</text>')
    out.append(f'<line x1="{_num(left)}" y1="{_num(TOP + plot_h)}" x2="{_num(WIDTH - RIGHT)}" '
               f'y2="{_num(TOP + plot_h)}" stroke="currentColor" stroke-opacity="0.4"/>')
    if reference is not None:
        y = py(reference["value"])
        out.append(f'<line x1="{_num(left)}" y1="{_num(y)}" x2="{_num(WIDTH - RIGHT)}" y2="{_num(y)}" '
                   f'stroke="currentColor" stroke-opacity="0.6" stroke-dasharray="3 3"/>')
        out.append(f'<text x="{_num(left + 4)}" y="{_num(y - 4)}" fill="currentColor" fill-opacity="0.8" '
                   f'font-size="{FONT - 1}">{escape(reference.get("label", ""))}</text>')
    # lines: where several lines share a value they are drawn side by side (OVERLAP_GAP apart, centred on
    # the value), so a line hidden under another still shows; the table keeps the exact values
    shift = overlap_offsets([s["values"] for s in series])
    for index, s in enumerate(series):
        color, dash, shape = _style(index, s.get("color"))
        color = escape(color, quote=True)
        runs: list[list[tuple[float, float]]] = [[]]
        for i, v in enumerate(s["values"]):
            if v is None:
                if runs[-1]:
                    runs.append([])
                continue
            runs[-1].append((px(i), py(v) + shift[index][i]))
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<g class="series"><title>{escape(s["name"])}</title>')
        for run in runs:
            if len(run) > 1:
                pts = " ".join(f"{_num(x)},{_num(y)}" for x, y in run)
                out.append(f'<polyline points="{pts}" fill="none" stroke="{color}" stroke-width="2.5" '
                           f'stroke-linejoin="round" stroke-linecap="round"{dash_attr}/>')
        points = [p for run in runs for p in run]
        if len(points) <= MAX_MARKERS:
            out.extend(_marker(shape, x, y, color) for x, y in points)
        elif points:
            out.append(_marker(shape, *points[-1], color))
        out.append("</g>")
    out.append("</svg>")
    # legend: swatches carry the same dash and marker as the lines
    out.append('<ul class="chart-legend">')
    for index, s in enumerate(series):
        color, dash, shape = _style(index, s.get("color"))
        color = escape(color, quote=True)
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        last = next((v for v in reversed(s["values"]) if v is not None), None)
        last_text = f' <b class="num">{escape(fmt(last))}</b>' if last is not None else ""
        out.append(f'<li><svg class="swatch" viewBox="0 0 28 10" width="28" height="10" aria-hidden="true">'
                   f'<line x1="1" y1="5" x2="27" y2="5" stroke="{color}" stroke-width="2.5"{dash_attr}/>'
                   f'{_marker(shape, 14, 5, color)}</svg>{escape(s["name"])}{last_text}</li>')
    out.append("</ul>")
    # the text alternative: every value
    out.append(f'<details class="chart-data"><summary>{escape(say({"code": "chart.numbers"}))}</summary>'
               f'<div class="table-scroll"><table class="chart-table" id="{cid}-table">'
               f'<caption class="sr-only">{escape(title)}</caption><thead><tr><th scope="col"></th>')
    out.extend(f'<th scope="col" class="num">{escape(s["name"])}</th>' for s in series)
    out.append("</tr></thead><tbody>")
    for i, label in enumerate(x_labels):
        out.append(f'<tr><th scope="row">{escape(label)}</th>')
        for s in series:
            value = s["values"][i] if i < len(s["values"]) else None
            out.append(f'<td class="num">{escape(fmt(value)) if value is not None else "–"}</td>')
        out.append("</tr>")
    out.append("</tbody></table></div></details></figure>")
    return "".join(out)
