"""The settle page: nets in money by game, the payments (fewest / banker), paid marks, settled, money
still on the table, the copy-as-text block; writes refused through the view link and without CSRF."""
import copy
import io
import json
import re

import pytest

from companion import kinds
from helpers import unchanged, csrf, form_fields

NEEDS = {kind: pytest.mark.skipif(kind not in kinds.KINDS, reason=f"companion.rules.{kind} not importable yet")
         for kind in ("mus", "newmarket", "desmoche")}

NEWMARKET = {
    "kind": "newmarket",
    "rules": {"variant": "classic", "ante": 1, "dealer_ante": 2, "kitty_ante": 0, "payout": "cards",
              "boodles": ["AH", "KC", "QD", "JS"], "leftover": "share"},
    "seats": ["Ane", "Bea", "Carlos", "Dani"], "start_chips": 20, "chip_value": 10,
    "deals": [
        {"dummy": {"sold_to": "Bea", "price": 2}, "boodles_won": [{"card": "KC", "by": "Carlos"}],
         "out": "Bea", "cards_left": {"Ane": 3, "Carlos": 5, "Dani": 1}},
        {"boodles_won": [{"card": "AH", "by": "Dani"}, {"card": "JS", "by": "Dani"}],
         "out": "Ane", "cards_left": {"Bea": 2, "Carlos": 0, "Dani": 4}},
    ],
    "ended": True,
}

DESMOCHE = {
    "kind": "desmoche",
    "rules": {"variant": "desmoche", "stake": 10, "bonuses": True, "color_wins": False,
              "side_games": {"oro": 5, "par_rojo": 5}, "side_unclaimed": "carry"},
    "seats": ["Ane", "Bea", "Carlos"], "unit_value": 10,
    "hands": [{"winner": None},
              {"winner": "Bea", "mico": 1, "arriba": ["Carlos"],
               "side": {"oro": {"joined": ["Ane", "Bea"], "winner": "Ane"}}},
              {"stake": 20, "winner": "Ane", "auto_win": "peladilla", "disqualified": ["Carlos"]}],
    "ended": True,
}


def session_doc(*games, players=("Ane", "Bea", "Carlos", "Dani", "Eneko"), currency="EUR", name="Friday at Koldo's",
                started="2026-11-20T21:05:00+01:00") -> dict:
    doc = {"format": "companion-session/1", "name": name, "players": list(players),
           "games": [copy.deepcopy(g) for g in games]}
    if currency:
        doc["currency"] = currency
    if started:
        doc["started"] = started
    return doc


def import_doc(client, doc) -> dict:
    """Import a session file as a phone would; returns {'edit': '/s/<edit>', 'view': '/s/<view>'}."""
    data = {"csrf": csrf(client), "k": "", "file": (io.BytesIO(json.dumps(doc).encode()), "night.json")}
    resp = client.post("/import", data=data, content_type="multipart/form-data")
    assert resp.status_code == 303, resp.get_data(as_text=True)
    edit = resp.headers["Location"]
    page = client.get(edit).get_data(as_text=True)
    view = re.search(r'value="http://table\.example:8000(/s/[^"]+)" id="watch-link"', page).group(1)
    return {"edit": edit, "view": view}


def _text(html: str) -> str:
    """The page's text, tags dropped and spaces collapsed (for readable assertions)."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split()).replace("&#39;", "'").replace("&amp;", "&")


def _post(client, links, path, data):
    page = client.get(links["edit"] + "/settle").get_data(as_text=True)
    action = links["edit"] + path
    fields = form_fields(page, action)
    return client.post(action, data={**fields, **data})


@NEEDS["desmoche"]
def test_desmoche_nets_in_money_and_the_fewest_payments(client):
    # Worked by hand: hand 1 nobody wins (pot 30 carries); hand 2 Bea takes the pot of 60, mico 1 from
    # Ane and Carlos (10 each), arriba from Carlos (10); Ane wins oro (10, Ane and Bea put 5 each);
    # hand 3 stake 20: Ane takes 60 by peladilla, Bea arriba pays 20 (Carlos disqualified).
    # Units: Ane +35, Bea +25, Carlos -60; unit_value 10 cents.
    links = import_doc(client, session_doc(DESMOCHE, players=("Ane", "Bea", "Carlos")))
    resp = client.get(links["edit"] + "/settle")
    assert resp.status_code == 200
    text = _text(resp.get_data(as_text=True))
    assert "Ane +€3.50" in text and "Bea +€2.50" in text and "Carlos -€6.00" in text
    assert "Carlos pays Ane €3.50" in text and "Carlos pays Bea €2.50" in text
    assert "The fewest payments possible: 2 (exact plan)." in text
    assert "1. Desmoche +€3.50" in text


@NEEDS["newmarket"]
@NEEDS["desmoche"]
def test_nets_are_broken_down_by_game(client):
    from companion.record import session as S

    doc = session_doc(NEWMARKET, DESMOCHE)
    links = import_doc(client, doc)
    state = S.state_of(S.load(doc))
    text = _text(client.get(links["view"] + "/settle").get_data(as_text=True))
    net = state["settle"]["net"]
    assert sum(net.values()) == 0
    from companion.domain.money import format_amount

    for name, value in net.items():
        assert f"{name} {format_amount(value, 'EUR', plus=True)}" in text
    by_game = state["settle"]["by_game"]
    assert f"1. Newmarket {format_amount(by_game[0]['Dani'], 'EUR', plus=True)}" in text
    assert f"2. Desmoche {format_amount(by_game[1]['Ane'], 'EUR', plus=True)}" in text
    for p in state["settle"]["payments"]:
        assert f"{p['from']} pays {p['to']} {format_amount(p['amount'], 'EUR')}" in text
    # Eneko played no money game: 0, in no payment
    assert "Eneko €0.00" in text


@NEEDS["desmoche"]
def test_currency_formats_and_default(client):
    links = import_doc(client, session_doc(DESMOCHE, players=("Ane", "Bea", "Carlos"), currency="JPY"))
    text = _text(client.get(links["edit"] + "/settle").get_data(as_text=True))
    assert "Carlos -¥600" in text and "JPY" in text
    links = import_doc(client, session_doc(DESMOCHE, players=("Ane", "Bea", "Carlos"), currency=None))
    text = _text(client.get(links["edit"] + "/settle").get_data(as_text=True))
    assert "Carlos -€6.00" in text  # no currency: EUR


@NEEDS["desmoche"]
def test_banker_mode_and_back(client):
    links = import_doc(client, session_doc(DESMOCHE, players=("Ane", "Bea", "Carlos")))
    resp = _post(client, links, "/settle/banker", {"banker": "Bea"})
    assert resp.status_code == 303 and resp.headers["Location"] == links["edit"] + "/settle"
    text = _text(client.get(links["view"] + "/settle").get_data(as_text=True))
    assert "Banker mode: everyone pays Bea, or is paid by Bea" in text
    assert "Bea pays Ane €3.50" in text and "Carlos pays Bea €6.00" in text
    assert "Banker: Bea." in text  # the view link says who the banker is
    state = client.get(links["view"] + "/state.json").get_json()
    assert state["settle"]["method"] == "banker"
    resp = _post(client, links, "/settle/banker", {"banker": ""})
    assert resp.status_code == 303
    state = client.get(links["view"] + "/state.json").get_json()
    assert state["settle"]["method"] == "exact"
    # an unknown banker is refused beside the field, nothing stored
    resp = _post(client, links, "/settle/banker", {"banker": "Zoe"})
    assert resp.status_code == 422
    assert "is not a player of this session" in resp.get_data(as_text=True)


@NEEDS["desmoche"]
def test_paid_marks_until_settled(client):
    links = import_doc(client, session_doc(DESMOCHE, players=("Ane", "Bea", "Carlos")))
    first = {"from": "Carlos", "to": "Ane", "amount": "350", "paid": "1"}
    second = {"from": "Carlos", "to": "Bea", "amount": "250", "paid": "1"}
    assert _post(client, links, "/settle/paid", first).status_code == 303
    page = client.get(links["view"] + "/settle").get_data(as_text=True)
    assert page.count('class="paid-status') == 1 and "Settled" not in page
    # a double tap (same idempotency key) lands once
    page = client.get(links["edit"] + "/settle").get_data(as_text=True)
    fields = form_fields(page, links["edit"] + "/settle/paid")
    for _ in range(2):
        assert client.post(links["edit"] + "/settle/paid", data={**fields, **second}).status_code == 303
    doc = client.get(links["view"] + "/session.json").get_json()
    assert doc["settle"]["paid"] == [{"from": "Carlos", "to": "Ane", "amount": 350},
                                     {"from": "Carlos", "to": "Bea", "amount": 250}]
    text = _text(client.get(links["view"] + "/settle").get_data(as_text=True))
    assert "✓ Settled: every payment is marked paid." in text
    copy_block = re.search(r'<textarea id="settle-text"[^>]*>(.*?)</textarea>',
                           client.get(links["view"] + "/settle").get_data(as_text=True), re.S).group(1)
    assert "Carlos → Ane: €3.50 ✓ paid" in copy_block and "All paid: settled." in copy_block
    # unmark
    assert _post(client, links, "/settle/paid", {**first, "paid": "0"}).status_code == 303
    assert "Settled" not in client.get(links["view"] + "/settle").get_data(as_text=True)
    # a payment that is not in the plan is refused
    resp = _post(client, links, "/settle/paid", {"from": "Ane", "to": "Bea", "amount": "5", "paid": "1"})
    assert resp.status_code == 422 and "no longer in the plan" in resp.get_data(as_text=True)
    resp = _post(client, links, "/settle/paid", {"from": "Ane", "to": "Bea", "amount": "x", "paid": "1"})
    assert resp.status_code == 422


@NEEDS["desmoche"]
def test_copy_text_block(client):
    links = import_doc(client, session_doc(DESMOCHE, players=("Ane", "Bea", "Carlos")))
    page = client.get(links["view"] + "/settle").get_data(as_text=True)
    area = re.search(r'<textarea id="settle-text"[^>]*readonly[^>]*>(.*?)</textarea>', page, re.S)
    assert area, "a readonly textarea"
    text = area.group(1).replace("&#39;", "'")
    assert text.startswith("Friday at Koldo's · Nov 20, 2026")  # the date in the reader's words
    assert "Nets: Ane +€3.50, Bea +€2.50, Carlos -€6.00" in text
    assert "• Carlos → Ane: €3.50" in text
    assert 'data-copy="settle-text"' in page


@NEEDS["newmarket"]
def test_money_on_the_table_names_the_game_to_end(client):
    game = copy.deepcopy(NEWMARKET)
    game["ended"] = False  # Q♦ pile (and more) still on the table
    links = import_doc(client, session_doc(game))
    state = client.get(links["view"] + "/state.json").get_json()
    assert state["settle"]["method"] == "unbalanced" and state["settle"]["on_table"] > 0
    text = _text(client.get(links["view"] + "/settle").get_data(as_text=True))
    assert "is still on the table" in text
    assert "End 1. Newmarket" in text and "first" in text
    assert "pays" not in text


def test_a_night_without_money_games(client):
    links = import_doc(client, session_doc(players=("Ane", "Bea")))
    text = _text(client.get(links["view"] + "/settle").get_data(as_text=True))
    assert "Nothing to pay: everyone is even." in text and "Ane €0.00" in text


@NEEDS["desmoche"]
def test_view_link_sees_everything_and_writes_nothing(client):
    links = import_doc(client, session_doc(DESMOCHE, players=("Ane", "Bea", "Carlos")))
    page = client.get(links["view"] + "/settle").get_data(as_text=True)
    assert "Carlos pays Ane" in _text(page)
    assert "<form" not in page.split('<section id="live"')[1].split("</section>")[0]
    assert 'method="post"' not in page
    token = csrf(client)
    for path, data in (("/settle/banker", {"banker": "Ane"}),
                       ("/settle/banker", {"banker": ""}),
                       ("/settle/paid", {"from": "Carlos", "to": "Ane", "amount": "350", "paid": "1"}),
                       ("/settle/paid", {"from": "Carlos", "to": "Ane", "amount": "350", "paid": "0"}),
                       ("/settle/paid", {"from": "x", "to": "y", "amount": "zz"})):
        resp = client.post(links["view"] + path, data={"csrf": token, "k": "", **data})
        assert resp.status_code == 403, path
    doc = client.get(links["view"] + "/session.json").get_json()
    assert "settle" not in doc


@NEEDS["desmoche"]
def test_writes_need_the_csrf_token(client):
    links = import_doc(client, session_doc(DESMOCHE, players=("Ane", "Bea", "Carlos")))
    resp = client.post(links["edit"] + "/settle/banker", data={"banker": "Ane"})
    assert resp.status_code == 400
    resp = client.post(links["edit"] + "/settle/paid",
                       data={"csrf": "forged", "from": "Carlos", "to": "Ane", "amount": "350"})
    assert resp.status_code == 400
    assert "settle" not in client.get(links["view"] + "/session.json").get_json()


@NEEDS["desmoche"]
def test_live_region_polls(client):
    links = import_doc(client, session_doc(DESMOCHE, players=("Ane", "Bea", "Carlos")))
    page = client.get(links["view"] + "/settle").get_data(as_text=True)
    version = re.search(r'data-version="(\d+)"', page).group(1)
    hx = {"HX-Request": "true"}
    assert unchanged(client.get(f"{links['view']}/settle?since={version}", headers=hx))
    _post(client, links, "/settle/banker", {"banker": "Ane"})
    resp = client.get(f"{links['view']}/settle?since={version}", headers=hx)
    body = resp.get_data(as_text=True)
    assert resp.status_code == 200 and body.lstrip().startswith('<section id="live"')
    assert "Banker mode" in body and "<html" not in body


def test_unknown_token_is_404(client):
    assert client.get("/s/nope/settle").status_code == 404


def _big_night(players: list[str]) -> dict:
    """A night of 20 players at several tables: three Newmarket games of 7 (or 6) seats, each ended, so
    that nearly everybody ends up, or down, a different amount."""
    games = []
    for t, seats in enumerate((players[0:7], players[7:14], players[14:20])):
        deals = []
        for d in range(len(seats)):
            out = seats[(d * 3 + t) % len(seats)]
            deals.append({"out": out, "cards_left": {p: (i * 5 + d * 3 + t) % 9
                                                     for i, p in enumerate(seats) if p != out}})
        games.append({"kind": "newmarket", "seats": seats, "start_chips": 30, "chip_value": 10,
                      "deals": deals, "ended": True})
    return session_doc(*games, players=tuple(players))


def test_twenty_players_settle_with_the_greedy_plan_said_plainly(client):
    players = [f"Player {i:02d}" for i in range(20)]
    doc = _big_night(players)
    links = import_doc(client, doc)
    from companion.record import session as S

    state = S.state_of(S.load(doc))["settle"]
    not_zero = sum(1 for v in state["net"].values() if v)
    assert not_zero > 15 and state["method"] == "greedy" and state["on_table"] == 0
    page = client.get(links["view"] + "/settle").get_data(as_text=True)
    text = _text(page)
    assert f"The greedy plan: more than 15 players are not at zero ({not_zero})" in text
    assert len(state["payments"]) <= not_zero - 1
    for p in state["payments"]:
        assert f"{p['from']} pays {p['to']}" in text
    # the session page and the history list stay usable: every player listed once
    session_page = client.get(links["view"]).get_data(as_text=True)
    assert all(session_page.count(f">{p}<") >= 1 for p in players)


def test_fifteen_players_not_at_zero_get_the_exact_plan(client):
    players = [f"Player {i:02d}" for i in range(20)]
    doc = _big_night(players)
    doc["games"] = doc["games"][:2]            # 14 players at two tables
    from companion.record import session as S

    state = S.state_of(S.load(doc))["settle"]
    assert 0 < sum(1 for v in state["net"].values() if v) <= 15 and state["method"] == "exact"
