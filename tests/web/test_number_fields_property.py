"""Every integer field of every form, and every integer query parameter, fed Unicode digits, signs, spaces
and 5,000-digit numbers: never a 500, and a refused write changes nothing. The forms are found on the
pages themselves (every page of a session with a game of each kind and of a club night), so a form added
later is fed too."""
import html as htmllib
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import new_session
from test_club_web import setup_night, start_round
from test_no_500 import app, games_session  # noqa: F401  (fixtures: no rate limits; a game of each kind)

pytestmark = pytest.mark.one_engine    # pages and typed values, not the store: one engine (tests/conftest.py)

HX = {"HX-Request": "true"}
QUERY_INTS = ["since", "page", "imported", "n", "fixed", "points", "was", "rows", "target", "v", "at", "gi"]

digits = st.characters(categories=["Nd", "No", "Nl"])
hostile = st.one_of(
    st.sampled_from(["²", "³", "¹", "٣", "۳", "३", "３", "①", "Ⅻ", "〇", "𝟙", "1²", "²1", "-²", "+٣", "1_000",
                     " 1", "1 ", " ", "\u00a01", "1\u2009000", "−1", "+", "-", "--1", "+-1", "1e3", "0x1", "1.0",
                     "9" * 5000, "-" + "9" * 5000, "0" * 5000 + "1", "9" * 19, "9" * 18, "-" + "9" * 18, "-9" * 3, "", "٠", "0"]),
    st.text(st.one_of(digits, st.sampled_from("0123456789+- _")), min_size=1, max_size=12),
    st.integers(-10**30, 10**30).map(str),
)


def _forms(page: str) -> list[tuple[str, dict, list[str]]]:
    """(action, hidden fields, integer fields) of every POST form with an integer field."""
    out = []
    for attrs, body in re.findall(r"<form([^>]*)>(.*?)</form>", page, re.S):
        if 'method="post"' not in attrs:
            continue
        action = re.search(r'action="([^"]*)"', attrs)
        if not action:
            continue
        hidden = {k: htmllib.unescape(v) for k, v in
                  re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', body)}
        ints = [n for tag in re.findall(r"<input[^>]*>", body)
                if ('type="number"' in tag or 'inputmode="numeric"' in tag)
                for n in re.findall(r'name="([^"]+)"', tag)]
        if ints:
            out.append((htmllib.unescape(action.group(1)), hidden, ints))
    return out


def _pages(client, links) -> list[str]:
    """Every page of the session one link away from its page and its games' pages (GET, same session)."""
    edit = links["edit"]
    seen, todo = set(), [edit, edit + "/club"]
    while todo and len(seen) < 60:
        url = todo.pop()
        if url in seen:
            continue
        seen.add(url)
        resp = client.get(url)
        if resp.status_code != 200 or "text/html" not in resp.content_type:
            continue
        for href in re.findall(r'href="([^"#?]+)"', resp.get_data(as_text=True)):
            href = htmllib.unescape(href)
            if href.startswith(edit) and not href.endswith((".csv", ".json", ".zip", ".svg")):
                todo.append(href)
    return sorted(seen)


@pytest.fixture
def night(client, games_session):
    """A session with a game of every kind, and a club night with a round started."""
    s = setup_night(client)
    start_round(client, s["edit"])
    sessions = [games_session, s]
    pages = [p for links in sessions for p in _pages(client, links)]
    fields = {(re.sub(r"/s/[^/]+", "/s/T", a), f) for p in pages for a, _, ints in _forms(client.get(p).get_data(as_text=True))
              for f in ints}
    assert len(fields) >= 15, sorted(fields)       # the crawl finds the forms (a broken crawl feeds nothing)
    return sessions, pages


def _snapshot(client, sessions):
    return [client.get(s["edit"] + "/session.json").get_json() for s in sessions]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(data=st.data())
def test_every_integer_field_refuses_odd_numbers_without_a_500(client, night, data):
    night, pages = night
    url = data.draw(st.sampled_from(pages), label="page")
    forms = _forms(client.get(url).get_data(as_text=True))
    if not forms or data.draw(st.booleans(), label="query instead"):
        name = data.draw(st.sampled_from(QUERY_INTS), label="query")
        value = data.draw(hostile, label="value")
        headers = HX if data.draw(st.booleans(), label="htmx") else {}
        resp = client.get(url, query_string={name: value}, headers=headers)
        assert resp.status_code < 500, (url, name, value[:40])
        return
    action, hidden, ints = data.draw(st.sampled_from(forms), label="form")
    field = data.draw(st.sampled_from(ints), label="field")
    value = data.draw(hostile, label="value")
    before = _snapshot(client, night)
    resp = client.post(action, data={**hidden, field: value})
    assert resp.status_code < 500, (action, field, value[:40], resp.get_data(as_text=True)[-400:])
    if resp.status_code >= 400:
        assert _snapshot(client, night) == before, (action, field, value[:40])


@pytest.mark.parametrize("value", ["²", "٣", "9" * 5000, "-1", " 1 ", "1_0"])
def test_the_home_forms_number_fields(client, value):
    """The new-session form's ``rows`` (its one integer field) and the archive's ``page``."""
    resp = client.post("/new", data={"rows": value, "more": "1"})
    assert resp.status_code < 500
    assert client.get("/history", query_string={"page": value, "imported": value}).status_code < 500
    links = new_session(client)
    assert client.get(links["edit"], query_string={"since": value}, headers=HX).status_code == 200
