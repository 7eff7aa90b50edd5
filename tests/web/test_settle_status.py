"""settle_status(view): the one line the session page can show beside "Settle up" (a Jinja global)."""
import copy

from test_settle_page import DESMOCHE, NEEDS, NEWMARKET, _post, import_doc, session_doc


def _status(app, client, link):
    from companion.web.common import open_session

    token = link.rsplit("/", 1)[1]
    from companion.domain.messages import render

    with app.test_request_context():
        line = app.jinja_env.globals["settle_status"](open_session(token))
        return render(line) if line else ""


@NEEDS["desmoche"]
def test_status_counts_payments_until_settled(app, client):
    links = import_doc(client, session_doc(DESMOCHE, players=("Ane", "Bea", "Carlos")))
    assert _status(app, client, links["view"]) == "2 payments to make"
    _post(client, links, "/settle/paid", {"from": "Carlos", "to": "Ane", "amount": "350", "paid": "1"})
    assert _status(app, client, links["view"]) == "1 of 2 payments marked paid"
    _post(client, links, "/settle/paid", {"from": "Carlos", "to": "Bea", "amount": "250", "paid": "1"})
    assert _status(app, client, links["view"]) == "Settled ✓"


@NEEDS["newmarket"]
def test_status_says_money_is_still_on_the_table(app, client):
    game = copy.deepcopy(NEWMARKET)
    game["ended"] = False
    links = import_doc(client, session_doc(game, players=("Ane", "Bea", "Carlos", "Dani")))
    assert _status(app, client, links["view"]).endswith("still on the table")


def test_nothing_to_pay_says_nothing(app, client):
    links = import_doc(client, session_doc(players=("Ane", "Bea")))
    assert _status(app, client, links["view"]) == ""


@NEEDS["desmoche"]
def test_the_session_page_shows_the_status_beside_settle_up(client):
    links = import_doc(client, session_doc(DESMOCHE, players=("Ane", "Bea", "Carlos")))
    for link in (links["edit"], links["view"]):
        assert "2 payments to make" in client.get(link).get_data(as_text=True)
