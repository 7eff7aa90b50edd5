"""No input makes the app answer 500: every route of every blueprint, fed random form values, through
both links. Writes through the view link are always refused."""
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import csrf, form_fields, new_session

FIELD_NAMES = ["name", "p0", "p1", "v", "k", "at", "type", "team", "amount", "to", "more", "card", "by", "out",
               "draft", "was", "left_0", "left_1", "ante_0_AH", "mico", "arriba", "new_stake", "stake_game",
               "stake_match", "unit_value", "rows", "more", "win_grande", "pares0", "juego1", "cards0", "cards1",
               "winner", "stake", "seat0", "seat1", "seat2", "seat3", "seats", "preset", "target", "kings",
               "price", "sold_to", "cards_left.Ane", "index", "hand", "banker", "from", "paid", "move", "lance",
               "variant", "start_chips", "chip_value", "q", "player", "kind", "page", "target_seq", "file",
               "since", "points", "fixed", "n", "imported", "minutes", "rounds", "games_to_win", "label", "x", "y"]
values = st.one_of(st.text(max_size=12), st.integers(-10**12, 10**12).map(str),
                   st.sampled_from(["", "0", "-1", "A", "B", "Ane", "KC", "QH", "null", "[]", "{}", "1e309",
                                    "nan", "\u0000", "💥", "x" * 300, "9" * 400, "[" * 3000, '{"a":' * 500,
                                    '{"grande": [{"team": "A", "bet": 2}]}', "bet:A:99999999999", "é\u202e",
                                    "p:Ane", "none", "999999999", "9999999.99", "showdown:grande:A:chica:B",
                                    "²", "٣", "３", "1_0", "9" * 5000, "t0:²", "f:٣", "A/B", ".."]))


def _routes(app):
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            yield rule, method


def _fill(rule, token, gi="0"):
    path = rule.rule
    path = path.replace("<token>", token)
    path = re.sub(r"<int:[a-z_]+>", gi, path)
    path = re.sub(r"<(?:string:|path:)?[a-z_]+>", "ane", path)
    return path


@pytest.fixture
def app(database):
    """The app without its rate limits: the fuzz sends thousands of wrong links on purpose."""
    from companion import create_app

    return create_app({"TESTING": True, "DATABASE": database, "BASE_URL": "http://table.example:8000",
                       "RATELIMIT_ENABLED": False})


@pytest.fixture
def games_session(client):
    """A session with one game of every kind whose blueprint exists."""
    links = new_session(client, players=("Ane", "Bea", "Carlos", "Dani"))
    page = client.get(links["edit"]).get_data(as_text=True)
    for new_url in re.findall(r'href="([^"]+/new)"', page):
        form = client.get(new_url).get_data(as_text=True)
        hidden = form_fields(form, new_url) if f'action="{new_url}"' in form else {"csrf": csrf(client)}
        data = {**hidden, "seat0": "Ane", "seat1": "Bea", "seat2": "Carlos", "seat3": "Dani",
                "seats": "Ane,Bea,Carlos", "preset": "pagat", "variant": "classic"}
        client.post(new_url, data=data)
    return links


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_input_never_answers_500(app, client, games_session, data):
    routes = list(_routes(app))
    rule, method = data.draw(st.sampled_from(routes), label="route")
    role = data.draw(st.sampled_from(["edit", "view"]), label="role")
    token = games_session[role].rsplit("/", 1)[1]
    gi = data.draw(st.sampled_from(["0", "1", "2", "7", "999999999999"]), label="gi")
    path = _fill(rule, token, gi)
    fields = data.draw(st.dictionaries(st.sampled_from(FIELD_NAMES), values, max_size=8), label="fields")
    if method == "GET":
        resp = client.get(path, query_string=fields)
    else:
        odd_csrf = data.draw(st.sampled_from([None, None, None, "é", "x" * 2000, "💥"]), label="csrf")
        fields["csrf"] = odd_csrf or csrf(client)
        before = client.get(games_session["edit"] + "/session.json").get_json()
        resp = client.post(path, data=fields)
        after = client.get(games_session["edit"] + "/session.json").get_json()
        if role == "view" and "/s/<token>" in rule.rule and rule.endpoint != "sessions.opened":
            assert resp.status_code in (403, 404, 405) or (odd_csrf and resp.status_code == 400), \
                (path, resp.status_code)
            assert after == before
        if resp.status_code >= 400 or odd_csrf:
            assert after == before, (path, resp.status_code)        # refused: nothing written, not half
    assert resp.status_code < 500, (method, path, fields, resp.get_data(as_text=True)[:500])


def test_every_write_through_the_view_link_is_refused(app, client, games_session):
    token = games_session["view"].rsplit("/", 1)[1]
    for rule, method in _routes(app):
        if method != "POST" or "<token>" not in rule.rule or rule.endpoint == "sessions.opened":
            continue     # (listing the session on this phone changes nothing in it)
        for gi in ("0", "1", "2"):
            resp = client.post(_fill(rule, token, gi), data={"csrf": csrf(client), "name": "x"})
            assert resp.status_code in (403, 404), (rule.rule, resp.status_code)
