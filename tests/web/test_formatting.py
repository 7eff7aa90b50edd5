"""Numbers, signs, ranks and dates in the reader's way (issue 29): one minus sign on a page (U+2212, the
scores' "−4", in money and differences too), a shared rank as the language says it (3=, 3.º empatados,
3位タイ), a date with its four-digit year."""
from datetime import datetime

import pytest

from companion.web import i18n

pytestmark = pytest.mark.one_engine    # pages and typed values, not the store: one engine (tests/conftest.py)

MINUS = "\u2212"


@pytest.fixture
def as_reader(app):
    def use(lang):
        ctx = app.test_request_context("/", headers={"Accept-Language": lang})
        ctx.push()
        return ctx
    return use


@pytest.mark.parametrize("lang,want", [("es", "−0,40\xa0€"), ("ja", "−€0.40")])
def test_a_loss_has_the_pages_minus_sign(as_reader, lang, want):
    ctx = as_reader(lang)
    try:
        assert i18n.fmt_money(-40, "EUR") == want
        assert i18n.signed(-4) == MINUS + "4" and i18n.signed(3) == "+3" and i18n.signed(0) == "0"
        assert "-" not in i18n.fmt_money(-123456, "EUR") + i18n.signed(-1234)
    finally:
        ctx.pop()


@pytest.mark.parametrize("lang,alone,shared", [("en", "3", "3="), ("es", "3.º", "3.º empatados"), ("ja", "3位", "3位タイ")])
def test_a_shared_rank_in_the_readers_words(as_reader, lang, alone, shared):
    ctx = as_reader(lang)
    try:
        assert i18n.rank(3) == alone and i18n.rank(3, tied=True) == shared
    finally:
        ctx.pop()


@pytest.mark.parametrize("lang,want", [("es", "28/11/2026 21:05"), ("ja", "2026/11/28 21:05"), ("en", "2026-11-28 21:05")])
def test_a_date_and_time_with_a_four_digit_year(as_reader, lang, want):
    ctx = as_reader(lang)
    try:
        assert i18n.fmt_date(datetime(2026, 11, 28, 21, 5), with_time=True) == want
        assert i18n.fmt_date("2026-11-28T21:05:00", with_time=True) == want
        assert "2026" in i18n.fmt_date("2026-11-28")
    finally:
        ctx.pop()


def test_the_club_standings_use_them(app, client):
    import io
    import json
    import os
    import sys

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "club"))
    from clubdata import example_doc
    from helpers import csrf

    resp = client.post("/import", data={"csrf": csrf(client), "k": "", "file": (
        io.BytesIO(json.dumps(example_doc()).encode()), "night.json")}, content_type="multipart/form-data")
    page = client.get(resp.headers["Location"] + "/club", headers={"Accept-Language": "es"}).get_data(as_text=True)
    standings = page.split('class="standings', 1)[1].split("</table>", 1)[0]
    assert "1.º" in standings and f"{MINUS}75" in standings and ">-" not in standings
    assert "=<" not in standings
