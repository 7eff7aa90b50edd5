"""Partners, rival pairs and head-to-head on a hand-made history with known answers; the pages that
show them, and who may see them."""
import html as htmllib
import re

from companion.storage import ratings_store as derived
from ratings_data import desmoche, doc, mus
from webutil import load_docs

A_C_vs_B_D = ("Ane", "Bea", "Carlos", "Dani")      # team A: Ane & Carlos, team B: Bea & Dani
A_B_vs_C_D = ("Ane", "Carlos", "Bea", "Dani")      # team A: Ane & Bea, team B: Carlos & Dani

HISTORY = [
    doc("1", "2026-03-01T20:00", [mus(A_C_vs_B_D, ["A"])]),
    doc("2", "2026-03-08T20:00", [mus(A_C_vs_B_D, ["A"])]),
    doc("3", "2026-03-15T20:00", [mus(A_B_vs_C_D, ["B"])]),
    doc("4", "2026-03-22T20:00", [mus(A_C_vs_B_D, ["B"])]),
    # Eneko +300, Ane 0, Bea -300: Ane finished above Bea
    doc("5", "2026-03-29T20:00", [desmoche(("Ane", "Eneko", "Bea"), ["Eneko", "Eneko", "Ane"])]),
]


def rows(db, subject, what):
    return {r["other"]: (r["played"], r["won"], r["lost"], r["drawn"]) for r in derived.stats(db, subject, what)}


def test_known_answers(app, client):
    db = load_docs(app, client, HISTORY)
    derived.refresh(db)
    assert rows(db, "ane", "partner") == {"carlos": (3, 2, 1, 0), "bea": (1, 0, 1, 0)}
    assert rows(db, "ane", "opp_pair") == {"bea|dani": (3, 2, 1, 0), "carlos|dani": (1, 0, 1, 0)}
    assert rows(db, "ane|carlos", "pair_opp") == {"bea|dani": (3, 2, 1, 0)}
    assert derived.head_to_head(db, "ane", "bea") == {
        "h2h:mus": {"played": 3, "won": 2, "lost": 1, "drawn": 0},       # 1, 2, 4 (in 3 they were partners)
        "h2h:desmoche": {"played": 1, "won": 1, "lost": 0, "drawn": 0},
        "partner": {"played": 1, "won": 0, "lost": 1, "drawn": 0}}
    assert derived.head_to_head(db, "ane", "dani")["h2h:mus"] == {"played": 4, "won": 2, "lost": 2, "drawn": 0}
    assert derived.head_to_head(db, "bea", "ane")["h2h:mus"] == {"played": 3, "won": 1, "lost": 2, "drawn": 0}


def test_correcting_a_result_moves_the_sums(app, client):
    from companion import service
    from companion.storage import store
    from companion.kinds.mus.actions import ReplaceHand

    db = load_docs(app, client, HISTORY)
    derived.refresh(db)
    sid = db.execute("SELECT id FROM sessions WHERE name = '4'").fetchone()[0]
    service.write(db, store.session(db, sid), "game", {"game": 0, "action": ReplaceHand(index=0, hand={"tally": [{"team": "A", "points": 40}]})},
                browser="x", key=None, seen_version=None, location="")
    derived.refresh(db)
    assert rows(db, "ane", "partner")["carlos"] == (3, 3, 0, 0)
    assert derived.head_to_head(db, "ane", "bea")["h2h:mus"]["won"] == 3


def text(html):
    return " ".join(htmllib.unescape(re.sub(r"<[^>]+>", " ", html)).split())


def test_the_player_page_names_best_partner_and_toughest_pair(app, client):
    load_docs(app, client, HISTORY)
    page = text(client.get("/ratings/players/ane").get_data(as_text=True))
    assert "Best partner: Carlos , 2 of 3 Mus matches won together." in page
    assert "Toughest opponents: Bea & Dani , 1 of 3 Mus matches lost against them." in page


def test_head_to_head_page(app, client):
    load_docs(app, client, HISTORY)
    resp = client.get("/ratings/h2h?a=ane&b=BEA")
    assert resp.status_code == 200
    page = text(resp.get_data(as_text=True))
    assert "Mus 3 2 1 0" in page and "Desmoche 1 1 0 0" in page and "Mus, as partners 1 0 1 0" in page


def test_head_to_head_refuses_unknown_or_same_names(app, client):
    load_docs(app, client, HISTORY)
    resp = client.get("/ratings/h2h?a=Ane&b=Zoe")
    assert resp.status_code == 422
    assert "Nobody called “Zoe”" in resp.get_data(as_text=True)
    assert client.get("/ratings/h2h?a=Ane&b=ane").status_code == 422


def test_a_browser_sees_only_players_it_met(app, client):
    load_docs(app, client, HISTORY[:1], browser="someone-else")
    load_docs(app, client, HISTORY[4:])          # this browser only saw the Desmoche night
    assert client.get("/ratings/players/carlos").status_code == 404
    assert client.get("/ratings/players/ane").status_code == 200
    board = client.get("/ratings?kind=mus").get_data(as_text=True)
    assert "Carlos" not in board and "Ane" in board     # Ane is rated in Mus too, and this browser met her
    assert client.get("/ratings/h2h?a=Ane&b=Carlos").status_code == 422
