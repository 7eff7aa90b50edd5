"""A paid payment on the settle page reads "Paid ✓" (a state, not a button) with a small separate Undo that
takes the mark back; an unpaid one has "Mark paid". Plain forms, 303 back to the settle page; a watch link
sees the marks and can neither mark nor undo; marking and undoing change nothing but the marks."""
import re
from html import unescape

from helpers import csrf, form_fields
from test_settle_page import DESMOCHE, NEEDS, _text, import_doc, session_doc

CARLOS_ANE = {"from": "Carlos", "to": "Ane", "amount": "350"}
CARLOS_BEA = {"from": "Carlos", "to": "Bea", "amount": "250"}


def _rows(page: str) -> list[str]:
    """The payments' <li> rows of the settle page, in order."""
    listing = re.search(r'<ol class="list payments">(.*?)</ol>', page, re.S)
    return re.findall(r'<li class="payment[^"]*">(.*?)</li>', listing.group(1), re.S) if listing else []


def _buttons(row: str) -> list[dict]:
    return [dict(re.findall(r'([\w-]+)="([^"]*)"', attrs), text=unescape(text).strip())
            for attrs, text in re.findall(r"<button([^>]*)>(.*?)</button>", row, re.S)]


def _mark(client, links, payment, paid: str):
    """Post one row's own form as the page rendered it (its hidden fields, its button's name/value)."""
    page = client.get(links["edit"] + "/settle").get_data(as_text=True)
    for row in _rows(page):
        fields = {k: unescape(v) for k, v in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', row)}
        if all(fields.get(k) == v for k, v in payment.items()):
            button = _buttons(row)[0]
            assert button["value"] == paid, f"this row offers paid={button['value']}, not {paid}"
            return client.post(links["edit"] + "/settle/paid", data={**fields, button["name"]: button["value"]})
    raise AssertionError(f"no row for {payment}")


def _paid_marks(client, links) -> list:
    return (client.get(links["view"] + "/session.json").get_json().get("settle") or {}).get("paid") or []


def _night(client):
    return import_doc(client, session_doc(DESMOCHE, players=("Ane", "Bea", "Carlos")))


@NEEDS["desmoche"]
def test_a_paid_row_reads_paid_with_a_separate_undo(client):
    links = _night(client)
    resp = _mark(client, links, CARLOS_ANE, "1")
    assert resp.status_code == 303 and resp.headers["Location"] == links["edit"] + "/settle"
    paid, unpaid = _rows(client.get(links["edit"] + "/settle").get_data(as_text=True))
    # the paid row: a status text, then one small button that says Undo and, to a screen reader, what it undoes
    assert re.search(r'<strong class="paid-status[^"]*">Paid ✓</strong>', paid)
    assert _text(paid).index("Carlos pays Ane €3.50") < _text(paid).index("Paid ✓") < _text(paid).index("Undo")
    [undo] = _buttons(paid)
    assert undo["text"] == "Undo" and undo["name"] == "paid" and undo["value"] == "0"
    assert undo["aria-label"] == "Undo: Carlos pays Ane €3.50 is not paid"
    assert "Paid ✓" not in undo["text"] and "Not paid" not in paid
    # the unpaid row keeps "Mark paid", and no status
    [mark] = _buttons(unpaid)
    assert mark["text"] == "Mark paid" and mark["value"] == "1"
    assert mark["aria-label"] == "Mark paid: Carlos pays Bea €2.50"
    assert "Paid ✓" not in unpaid
    # every button is a submit of a plain POST form (works without JavaScript), big enough to tap
    for row in (paid, unpaid):
        assert re.search(r'<form method="post" action="[^"]+/settle/paid"', row)
        assert all(b["type"] == "submit" and "small" in b["class"].split() for b in _buttons(row))


@NEEDS["desmoche"]
def test_undo_takes_the_mark_back(client):
    links = _night(client)
    _mark(client, links, CARLOS_ANE, "1")
    _mark(client, links, CARLOS_BEA, "1")
    assert "✓ Settled" in client.get(links["view"] + "/settle").get_data(as_text=True)
    resp = _mark(client, links, CARLOS_ANE, "0")
    assert resp.status_code == 303 and resp.headers["Location"] == links["edit"] + "/settle"
    assert _paid_marks(client, links) == [{"from": "Carlos", "to": "Bea", "amount": 250}]
    page = client.get(links["edit"] + "/settle").get_data(as_text=True)
    first, second = _rows(page)
    assert [b["text"] for b in _buttons(first)] == ["Mark paid"] and "Paid ✓" not in first
    assert [b["text"] for b in _buttons(second)] == ["Undo"] and "Paid ✓" in second
    assert "Settled" not in page
    # an Undo sent again from an old page (another phone undid it first) is refused, said beside the list
    fields = form_fields(page, links["edit"] + "/settle/paid")
    again = client.post(links["edit"] + "/settle/paid", data={**fields, **CARLOS_ANE, "paid": "0"})
    assert again.status_code == 422 and "That payment was not marked paid." in again.get_data(as_text=True)
    assert _paid_marks(client, links) == [{"from": "Carlos", "to": "Bea", "amount": 250}]


@NEEDS["desmoche"]
def test_htmx_boosted_mark_and_undo_land_back_on_the_settle_page(client):
    links = _night(client)
    hx = {"HX-Request": "true", "HX-Boosted": "true"}
    page = client.get(links["edit"] + "/settle", headers=hx).get_data(as_text=True)
    fields = form_fields(page, links["edit"] + "/settle/paid")
    resp = client.post(links["edit"] + "/settle/paid", data={**fields, **CARLOS_ANE, "paid": "1"}, headers=hx,
                       follow_redirects=True)
    assert resp.status_code == 200 and resp.request.path == links["edit"] + "/settle"
    assert "Paid ✓" in resp.get_data(as_text=True)


@NEEDS["desmoche"]
def test_a_watch_link_sees_paid_but_cannot_mark_or_undo(client):
    links = _night(client)
    _mark(client, links, CARLOS_ANE, "1")
    page = client.get(links["view"] + "/settle").get_data(as_text=True)
    paid, unpaid = _rows(page)
    assert "Paid ✓" in paid and "<form" not in paid + unpaid and "<button" not in paid + unpaid
    before = client.get(links["view"] + "/session.json").get_json()
    token = csrf(client)
    for payment, value in ((CARLOS_ANE, "0"), (CARLOS_BEA, "1"), (CARLOS_ANE, "1")):
        resp = client.post(links["view"] + "/settle/paid", data={"csrf": token, "k": "", **payment, "paid": value})
        assert resp.status_code == 403
    assert client.get(links["view"] + "/session.json").get_json() == before


@NEEDS["desmoche"]
def test_marking_and_undoing_change_nothing_but_the_marks(client):
    links = _night(client)
    doc0 = client.get(links["view"] + "/session.json").get_json()
    state0 = client.get(links["view"] + "/state.json").get_json()
    page0 = _text(client.get(links["view"] + "/settle").get_data(as_text=True))
    _mark(client, links, CARLOS_ANE, "1")
    doc1 = client.get(links["view"] + "/session.json").get_json()
    assert doc1.pop("settle") == {"paid": [{"from": "Carlos", "to": "Ane", "amount": 350}]}
    assert doc1 == {k: v for k, v in doc0.items() if k != "settle"}
    state1 = client.get(links["view"] + "/state.json").get_json()
    assert state1["settle"] == state0["settle"] and state1["games"] == state0["games"]
    _mark(client, links, CARLOS_ANE, "0")
    doc2 = client.get(links["view"] + "/session.json").get_json()
    assert not (doc2.pop("settle", None) or {}).get("paid")
    assert doc2 == {k: v for k, v in doc0.items() if k != "settle"}
    assert client.get(links["view"] + "/state.json").get_json()["games"] == state0["games"]
    # the page reads as it did before the mark (nets, plan, payments, copy text)
    assert _text(client.get(links["view"] + "/settle").get_data(as_text=True)) == page0


@NEEDS["desmoche"]
def test_names_in_the_undo_label_are_escaped(client):
    players = ('Ane "la <b>jefa</b>"', "Bea", "Carlos")
    game = {**DESMOCHE, "seats": list(players),
            "hands": [{"winner": None}, {"winner": "Bea", "mico": 1, "arriba": ["Carlos"],
                                         "side": {"oro": {"joined": [players[0], "Bea"], "winner": players[0]}}},
                      {"stake": 20, "winner": players[0], "auto_win": "peladilla", "disqualified": ["Carlos"]}]}
    links = import_doc(client, session_doc(game, players=players))
    page = client.get(links["edit"] + "/settle").get_data(as_text=True)
    assert "<b>jefa</b>" not in page
    row = _rows(page)[0]
    fields = {k: unescape(v) for k, v in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', row)}
    assert fields["to"] == players[0]
    assert client.post(links["edit"] + "/settle/paid", data={**fields, "paid": "1"}).status_code == 303
    page = client.get(links["edit"] + "/settle").get_data(as_text=True)
    assert "<b>jefa</b>" not in page
    [undo] = _buttons(_rows(page)[0])
    assert unescape(undo["aria-label"]) == 'Undo: Carlos pays Ane "la <b>jefa</b>" €3.50 is not paid'
