"""Amounts are marked up so that a phone never splits "-€6.00" after its sign (CSS .money: nowrap)."""
import re

import pytest

from test_settle_page import DESMOCHE, NEEDS, import_doc, session_doc

pytestmark = pytest.mark.one_engine    # pages and typed values, not the store: one engine (tests/conftest.py)


@NEEDS["desmoche"]
def test_every_amount_on_the_settle_page_is_one_unbreakable_piece(client):
    page = client.get(import_doc(client, session_doc(DESMOCHE, players=("Ane", "Bea", "Carlos")))["view"]
                      + "/settle").get_data(as_text=True)
    live = page.split('id="live"', 1)[1].split("<textarea", 1)[0]
    amounts = re.findall(r"[+-]?€\d+\.\d\d", re.sub(r"<[^>]+>", " ", live))
    wrapped = re.findall(r'class="[^"]*\bmoney\b[^"]*">([+-]?€\d+\.\d\d)<', live)
    assert amounts and sorted(wrapped) == sorted(amounts)


@NEEDS["desmoche"]
def test_biggest_winner_amount_is_marked_as_money(client):
    import_doc(client, session_doc(DESMOCHE, players=("Ane", "Bea", "Carlos")))
    page = client.get("/history").get_data(as_text=True)
    assert 'Biggest winner: <b>Ane</b> <b class="money">+€3.50</b>' in page
